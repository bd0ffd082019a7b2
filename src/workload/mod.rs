//! Workloads (SPEC §5): generators by name, each producing a SPEC §3
//! [`Instance`] from a seed, and the instance format itself.

mod generators;
mod instance;

pub use instance::{Instance, Limits};

use crate::error::{Error, Result};
use crate::topology::Topology;
use std::fmt;
use std::str::FromStr;

/// A workload, by its SPEC §5 name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Workload {
    /// A uniformly random permutation.
    RandomPermutation,
    /// (r,c) → (c,r) on square meshes; label rotation on hypercubes.
    Transpose,
    /// Reverse all bits of the node id.
    BitReversal,
    /// Complement all bits of the node id.
    BitComplement,
    /// Perfect shuffle: rotate the id's bits left by one.
    Shuffle,
    /// Each node to the node almost half way round along every dimension.
    Tornado,
    /// k-LS: k packets from every node to the node shifted by half the side in every dimension.
    LargeShift,
    /// k-PR: k packets from every node to its point reflection.
    PointReflection,
    /// k-permutation: every node sends and receives exactly k.
    RandomKk,
    /// Random (ℓ,k)-routing.
    RandomLk,
    /// The (ℓ,k) instance that needs Ω(√(ℓkN)) steps.
    WorstLk,
    /// Every packet within distance L of its source.
    Locality,
    /// A k-k routing in which every packet moves at most L along each axis
    /// (Kaufmann–Sibeyn §9's locality).
    LocalKk,
    /// A fraction of the packets to one hot node.
    Hotspot,
    /// The worst-case buffer scenario of greedy XY routing (permutation
    /// lecture, Lemma "XY greedy": β = max(2, 2n/3 − 1)); see `generators::greedy_worst`.
    GreedyWorst,
}

impl Workload {
    /// Every workload, in the order `routesim list` shows them.
    pub const ALL: [Workload; 15] = [
        Workload::RandomPermutation,
        Workload::Transpose,
        Workload::BitReversal,
        Workload::BitComplement,
        Workload::Shuffle,
        Workload::Tornado,
        Workload::LargeShift,
        Workload::PointReflection,
        Workload::RandomKk,
        Workload::RandomLk,
        Workload::WorstLk,
        Workload::Locality,
        Workload::LocalKk,
        Workload::Hotspot,
        Workload::GreedyWorst,
    ];

    /// The SPEC name.
    pub fn name(self) -> &'static str {
        match self {
            Workload::RandomPermutation => "random-permutation",
            Workload::Transpose => "transpose",
            Workload::BitReversal => "bit-reversal",
            Workload::BitComplement => "bit-complement",
            Workload::Shuffle => "shuffle",
            Workload::Tornado => "tornado",
            Workload::LargeShift => "large-shift",
            Workload::PointReflection => "point-reflection",
            Workload::RandomKk => "random-kk",
            Workload::RandomLk => "random-lk",
            Workload::WorstLk => "worst-lk",
            Workload::Locality => "locality",
            Workload::LocalKk => "local-kk",
            Workload::Hotspot => "hotspot",
            Workload::GreedyWorst => "greedy-worst",
        }
    }

    /// One line for `routesim list`.
    pub fn describe(self) -> &'static str {
        generators::describe(self)
    }
}

impl fmt::Display for Workload {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Workload {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        Workload::ALL.into_iter().find(|w| w.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Workload::ALL.iter().map(|w| w.name()).collect();
            Error::invalid("workload", s, format!("expected one of {}", names.join(", ")))
        })
    }
}

/// Everything a generator needs besides the topology.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkloadSpec {
    /// Which workload.
    pub workload: Workload,
    /// ℓ: packets per source (workloads that take it; default 1).
    pub l: Option<u32>,
    /// k: packets per destination / per node (default 1).
    pub k: Option<u32>,
    /// Seed of the workload stream.
    pub seed: u64,
    /// `locality`: the largest source–destination distance L; `local-kk`:
    /// the largest move along one axis (default 2 for both).
    pub locality: Option<u32>,
    /// `hotspot`: the percentage (0..=100) of nodes that send to the hot node (default 10).
    pub hotspot: Option<u32>,
}

impl WorkloadSpec {
    /// A spec with defaults for everything but the workload and seed.
    pub fn new(workload: Workload, seed: u64) -> Self {
        WorkloadSpec {
            workload,
            l: None,
            k: None,
            seed,
            locality: None,
            hotspot: None,
        }
    }
}

/// Generates the instance of `spec` on `topo`, or says why it cannot
/// (e.g. `transpose` on a non-square mesh).
pub fn generate(topo: &Topology, spec: &WorkloadSpec) -> Result<Instance> {
    generators::generate(topo, spec)
}
