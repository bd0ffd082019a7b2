//! Workloads (SPEC §5): generators by name, each producing a SPEC §3
//! [`Instance`] from a seed, and the instance format itself.

mod generators;
pub(crate) use generators::DEFAULT_HOT_PERCENT;
mod instance;
mod instance_read;
pub mod keys;
pub mod sort;

pub use instance::{Instance, Limits};
pub use instance_read::{KNOWN_FIELDS, READ_BYTES_PER_TEXT_BYTE};

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
    /// Every node sends k packets (default 1), each to an independent
    /// uniformly random node, itself included, with no receive limit
    /// (Kaufmann–Sibeyn §5's model; the mesh lecture's average case).
    RandomDestinations,
    /// The worst-case buffer scenario of greedy XY routing (permutation
    /// lecture, Lemma "XY greedy": β = max(2, 2n/3 − 1)); see `generators::greedy_worst`.
    GreedyWorst,
    /// Sorting (SPEC §5): distinct random keys, one per node.
    SortRandom,
    /// Sorting: keys in reverse order.
    SortReversed,
    /// Sorting: keys from a handful of values (duplicates; ties by packet id).
    SortFew,
    /// Sorting: keys already in order.
    SortSorted,
}

impl Workload {
    /// Every workload, in the order `routesim list` shows them.
    pub const ALL: [Workload; 20] = [
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
        Workload::RandomDestinations,
        Workload::GreedyWorst,
        Workload::SortRandom,
        Workload::SortReversed,
        Workload::SortFew,
        Workload::SortSorted,
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
            Workload::RandomDestinations => "random-destinations",
            Workload::GreedyWorst => "greedy-worst",
            Workload::SortRandom => "sort-random",
            Workload::SortReversed => "sort-reversed",
            Workload::SortFew => "sort-few",
            Workload::SortSorted => "sort-sorted",
        }
    }

    /// Whether it is a sorting instance (SPEC §5: its name starts with `sort-`).
    pub fn is_sort(self) -> bool {
        use Workload::*;
        matches!(self, SortRandom | SortReversed | SortFew | SortSorted)
    }

    /// One line for `routesim list`.
    pub fn describe(self) -> &'static str {
        generators::describe(self)
    }

    /// Whether the generator reads the parameter; the others are not used.
    /// A k-k workload (every node sends and receives exactly k) has ℓ = k
    /// by definition, so it reads k and not ℓ.
    pub fn reads(self, param: Param) -> bool {
        use Workload::*;
        match param {
            Param::L => matches!(self, RandomLk | WorstLk | Locality),
            Param::K => matches!(
                self,
                LargeShift | PointReflection | RandomKk | RandomLk | WorstLk | LocalKk | RandomDestinations
            ),
            Param::Locality => matches!(self, Locality | LocalKk),
            Param::Hotspot => self == Hotspot,
        }
    }

    /// Whether every node sends and receives exactly k packets (ℓ = k).
    pub fn is_kk(self) -> bool {
        self.reads(Param::K) && !self.reads(Param::L) && self != Workload::RandomDestinations
    }

    /// For a parameter the workload does not read: the value it implies
    /// and why the parameter has no effect (one sentence, for the CLI's
    /// notes, the page's warnings and the tooltips of its disabled boxes);
    /// `None` for a parameter it reads.
    pub fn unread_reason(self, param: Param) -> Option<(Implied, String)> {
        if self.reads(param) {
            return None;
        }
        let w = self;
        Some(match param {
            Param::L if w.is_kk() => (
                Implied::EqualsK,
                format!("{w} is a k-k workload (every node sends and receives k), so ℓ = k"),
            ),
            Param::K if w.reads(Param::L) => (
                Implied::Nothing,
                format!("{w} sends ℓ packets per node to random nodes; what a node receives is not fixed"),
            ),
            Param::L if w == Workload::RandomDestinations => (
                Implied::Nothing,
                format!("{w} sends k packets per node (k, not ℓ); what a node receives is not fixed"),
            ),
            Param::L if w == Workload::Hotspot => (Implied::One, format!("{w} sends one packet per node")),
            Param::K if w == Workload::Hotspot => (
                Implied::Nothing,
                format!("{w} sends one packet per node; what a node receives is not fixed"),
            ),
            Param::L | Param::K => (Implied::One, format!("{w} is a permutation (ℓ = k = 1)")),
            Param::Locality | Param::Hotspot => (Implied::Nothing, format!("{w} does not read it")),
        })
    }
}

/// What a workload implies for a generator parameter it does not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Implied {
    /// ℓ = k (a k-k workload).
    EqualsK,
    /// 1 (a permutation, or one packet per node).
    One,
    /// No value: the parameter has no meaning for the workload.
    Nothing,
}

impl Implied {
    /// How a front end shows it in place of a value: `= k`, `1` or `–`.
    pub fn shown(self) -> &'static str {
        match self {
            Implied::EqualsK => "= k",
            Implied::One => "1",
            Implied::Nothing => "–",
        }
    }
}

/// A generator parameter of [`WorkloadSpec`] besides the seed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// ℓ.
    L,
    /// k.
    K,
    /// The locality L of `locality` and `local-kk`.
    Locality,
    /// `hotspot`'s percentage.
    Hotspot,
}

impl Param {
    /// Every parameter.
    pub const ALL: [Param; 4] = [Param::L, Param::K, Param::Locality, Param::Hotspot];

    /// Its key in a request (JSON, URL): `l`, `k`, `locality`, `hotspot`.
    pub fn key(self) -> &'static str {
        match self {
            Param::L => "l",
            Param::K => "k",
            Param::Locality => "locality",
            Param::Hotspot => "hotspot",
        }
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

/// The packets a sender may hold for a declared ℓ and k (absent: not
/// declared, or not read): min(ℓ, k) when both are given — ℓ each when
/// ℓ ≤ k (worst-lk fewer), k received each when mirrored (the memory audit
/// of 2026-12-01: max(ℓ, k) overstated random-lk (2, 4) twice) — else the
/// one given, else 1. Generated workloads ([`WorkloadSpec::max_packets`])
/// and instance files (`Instance`'s reader) are held to it alike.
pub fn per_sender(l: Option<u32>, k: Option<u32>) -> u32 {
    match (l, k) {
        (Some(l), Some(k)) => l.min(k),
        (l, k) => l.or(k).unwrap_or(1),
    }
    .max(1)
}

impl WorkloadSpec {
    /// The parameters given that the workload does not read, each with its
    /// value and why it has no effect (the front ends name them: a run is
    /// not refused over a parameter a sweep grid sets for other workloads).
    /// A value the workload implies anyway (ℓ = k on a k-k workload, 1 on a
    /// permutation) is not listed.
    pub fn unread(&self) -> Vec<(Param, u32, String)> {
        let w = self.workload;
        let k = self.k.unwrap_or(1);
        let mut out = Vec::new();
        for param in Param::ALL {
            let value = match param {
                Param::L => self.l,
                Param::K => self.k,
                Param::Locality => self.locality,
                Param::Hotspot => self.hotspot,
            };
            let Some(value) = value else { continue };
            let Some((implied, why)) = w.unread_reason(param) else {
                continue;
            };
            let why = match implied {
                Implied::EqualsK if value == k => continue,
                Implied::EqualsK => format!("{why} = {k}"),
                Implied::One if value == 1 => continue,
                _ => why,
            };
            out.push((param, value, why));
        }
        out
    }

    /// An upper bound of the packets the workload generates on `topo`,
    /// without generating it (the memory estimate's, `crate::memory`): the
    /// senders (every node; a butterfly's level-0 rows) times the most
    /// packets one sends — ℓ, k or 1 as the workload reads them.
    pub fn max_packets(&self, topo: &Topology) -> u64 {
        let w = self.workload;
        let l = self.l.filter(|_| w.reads(Param::L));
        let k = self.k.filter(|_| w.reads(Param::K));
        sort::key_count(topo) as u64 * per_sender(l, k) as u64
    }

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
