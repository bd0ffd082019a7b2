//! Contention policies (SPEC §1): when several eligible packets want the same
//! directed link in a step, the one with the largest key wins; ties go to the
//! smaller packet id.

use crate::error::{Error, Result};
use std::fmt;
use std::str::FromStr;

/// A contention policy, by its SPEC name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Policy {
    /// Largest remaining distance to the current target along the link's dimension.
    #[default]
    FarthestFirst,
    /// Largest distance already travelled along the link's dimension in this phase.
    FarthestOrigin,
    /// Largest total remaining distance to the current target.
    FarthestTotal,
    /// Longest waiting at this node (a packet at its source arrived at step 0).
    Fifo,
    /// Uniformly random: an independent draw per packet and step, a hash of
    /// (run seed, step, packet id), so it does not depend on the order in
    /// which the engine visits packets.
    Random,
    /// Smallest rank (Leighton–Maggs–Ranade–Rao).
    Rank,
    /// Smallest remaining distance along the dimension: deliberately bad, for contrast.
    NearestFirst,
}

impl Policy {
    /// Every policy, in the order `routesim list` shows them.
    pub const ALL: [Policy; 7] = [
        Policy::FarthestFirst,
        Policy::FarthestOrigin,
        Policy::FarthestTotal,
        Policy::Fifo,
        Policy::Random,
        Policy::Rank,
        Policy::NearestFirst,
    ];

    /// The SPEC name.
    pub fn name(self) -> &'static str {
        match self {
            Policy::FarthestFirst => "farthest-first",
            Policy::FarthestOrigin => "farthest-origin",
            Policy::FarthestTotal => "farthest-total",
            Policy::Fifo => "fifo",
            Policy::Random => "random",
            Policy::Rank => "rank",
            Policy::NearestFirst => "nearest-first",
        }
    }

    /// One line for `routesim list`.
    pub fn describe(self) -> &'static str {
        match self {
            Policy::FarthestFirst => "largest remaining distance along the link's dimension",
            Policy::FarthestOrigin => "largest distance travelled along the link's dimension in this phase",
            Policy::FarthestTotal => "largest total remaining distance to the current target",
            Policy::Fifo => "longest waiting at this node",
            Policy::Random => "uniformly random per packet and step, from the run's seed",
            Policy::Rank => {
                "smallest rank (lmrr draws random ranks; under any other algorithm a packet's rank is its id)"
            }
            Policy::NearestFirst => "smallest remaining distance (bad on purpose, for contrast)",
        }
    }
}

impl fmt::Display for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Policy {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Policy::ALL.into_iter().find(|p| p.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Policy::ALL.iter().map(|p| p.name()).collect();
            Error::invalid("policy", s, format!("expected one of {}", names.join(", ")))
        })
    }
}

impl serde::Serialize for Policy {
    /// A policy serializes as its SPEC name.
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}
