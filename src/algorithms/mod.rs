//! Routing algorithms (SPEC §5), one file per family, behind one trait and a
//! registry by SPEC name. An algorithm never moves packets itself: it sets
//! targets, eligibility and phases on the [`Engine`], which moves them.
//!
//! | name | file | source |
//! | --- | --- | --- |
//! | `greedy` | greedy.rs | dimension-order routing (Kaufmann–Sibeyn §2, permutation lecture) |
//! | `bit-fixing` | hypercube.rs | hypercube lecture (bit fixing) |
//! | `valiant` | hypercube.rs | hypercube lecture (two-phase randomized routing) |
//! | `rand-interval` | rand_interval.rs, three_phase.rs | permutation lecture (randomized permutation routing) |
//! | `offline` | offline.rs, three_phase.rs | permutation lecture (off-line permutation routing, Hall's theorem) |
//! | `sort-route` | sort_route.rs, three_phase.rs | permutation lecture (sorting-based permutation routing) |
//! | `pp-rand`, `pp-det` | pp.rs | Pietracaprina–Pucci (ℓ,k)-routing with constant queues |
//! | `ks-nowrap`, `ks-wrap` | ks.rs, phased.rs | Kaufmann–Sibeyn k-k routing, §7.1/§7.3 NoWrapRoute, §8.1/§8.3 WrapRoute |
//! | `lmrr` | lmrr/ | Leighton–Maggs–Ranade–Rao rank scheduling with ghosts (§2.2, §3, §4) |

mod greedy;
mod hypercube;
mod ks;
pub mod lmrr;
mod offline;
mod phased;
pub mod pp;
mod rand_interval;
pub mod registry;
pub mod sort_route;
pub mod teaching;
mod three_phase;

pub use greedy::Greedy;
pub use hypercube::{BitFixing, Valiant};
pub use ks::Ks;
pub use lmrr::{Lmrr, PathChoice};
pub use offline::{colour_regular_bipartite, column_colouring, Offline};
pub use pp::Pp;
pub use rand_interval::{Intervals, RandInterval};
pub use registry::{lookup, Entry, REGISTRY};
pub use sort_route::SortRoute;

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::report::Extra;
use crate::topology::Topology;
use crate::workload::Instance;

/// Options an algorithm may read when it is created.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AlgorithmOptions {
    /// The run's seed (algorithms draw from their own stream of it).
    pub seed: u64,
    /// Phased algorithms (`valiant`, `rand-interval`, `ks-*`, …): let each
    /// packet start its next phase as soon as it reaches the target of the
    /// current one instead of waiting at a barrier (`--pipeline`; for the
    /// Kaufmann–Sibeyn family `--phases coalesced`, the paper's word).
    pub pipeline: bool,
    /// Correct dimensions in the reverse of SPEC §5's order (Y before X,
    /// least significant bit first).
    pub reverse_order: bool,
    /// Queue capacity q (`lmrr`: of its edge queues; `None`: the default).
    pub queue_cap: Option<u32>,
    /// `lmrr`: ranks drawn from [1, R] (`None`: the paper's R).
    pub ranks: Option<u32>,
    /// `lmrr`: direct or Valiant paths.
    pub paths: PathChoice,
}

/// A routing algorithm plugged into the engine. Algorithms are `Clone`
/// (through [`AlgorithmClone`]), so that a run can be copied at a
/// checkpoint (see [`crate::timeline`]).
pub trait Algorithm: AlgorithmClone {
    /// The SPEC §5 name.
    fn name(&self) -> &'static str;

    /// Checks that the algorithm can run on this instance (else
    /// [`Error::Unsupported`]) and sets up the first phase on the engine.
    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()>;

    /// Called before every step: open barriers, change targets, reserve
    /// links for control messages.
    fn before_step(&mut self, _engine: &mut Engine) {}

    /// Whether the contention policy can change the result (false for
    /// algorithms that schedule every move themselves).
    fn uses_policy(&self) -> bool {
        true
    }

    /// Whether part of the work was precomputed off-line and not charged
    /// (SPEC §1, `offline`).
    fn offline_precompute(&self) -> bool {
        false
    }

    /// The report fields only this algorithm has (SPEC §5, e.g. `colours`);
    /// none by default.
    fn report_extra(&self) -> Extra {
        Extra::default()
    }

    /// The capacity of the queues the algorithm keeps and bounds itself
    /// (`lmrr`'s edge queues), if any: the engine's queues are then not
    /// bounded, and the report's `queue_cap` is this.
    fn queue_cap(&self) -> Option<u32> {
        None
    }
}

/// Copies an algorithm behind `Box<dyn Algorithm>`: implemented for every
/// `Algorithm + Clone`, so an algorithm only derives `Clone`.
pub trait AlgorithmClone {
    /// A boxed copy of `self`, in the same state.
    fn clone_box(&self) -> Box<dyn Algorithm>;
}

impl<T: Algorithm + Clone + 'static> AlgorithmClone for T {
    fn clone_box(&self) -> Box<dyn Algorithm> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Algorithm> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// Creates the algorithm called `name` (see [`registry::lookup`]).
pub fn create(name: &str, options: &AlgorithmOptions) -> Result<Box<dyn Algorithm>> {
    Ok(registry::lookup(name)?.create(options))
}

/// Refuses topologies an algorithm does not handle.
pub(crate) fn require(algorithm: &str, ok: bool, topo: &Topology, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::unsupported(algorithm, format!("needs {what}, got {topo}")))
    }
}
