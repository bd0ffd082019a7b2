//! Routing algorithms (SPEC §5), one home per family, behind one trait and a
//! registry by SPEC name. A family's module holds its code, its name, its
//! registry [`Entry`] and its teaching text; its claims are written in the
//! language of [`claim`]. An algorithm never moves packets itself: it sets
//! targets, eligibility and phases on the [`Engine`], which moves them.
//!
//! | name | file | source |
//! | --- | --- | --- |
//! | `greedy` | greedy.rs, greedy_lines.rs | dimension-order routing (Kaufmann–Sibeyn §2, §5, permutation lecture) |
//! | `bit-fixing` | hypercube.rs | hypercube lecture (bit fixing) |
//! | `valiant` | hypercube.rs | hypercube lecture (two-phase randomized routing) |
//! | `rand-interval` | rand_interval.rs, three_phase.rs | permutation lecture (randomized permutation routing) |
//! | `offline` | offline.rs, three_phase.rs | permutation lecture (off-line permutation routing, Hall's theorem) |
//! | `sort-route` | sort_route.rs, three_phase.rs | permutation lecture (sorting-based permutation routing) |
//! | `pp-rand`, `pp-det` | pp/ | Pietracaprina–Pucci (ℓ,k)-routing with constant queues |
//! | `ks-nowrap`, `ks-wrap` | ks.rs, ks/teaching.rs, phased.rs | Kaufmann–Sibeyn k-k routing, §7.1/§7.3 NoWrapRoute, §8.1/§8.3 WrapRoute |
//! | `ks-level` | ks_level.rs, ks.rs, phased.rs | Kaufmann–Sibeyn §6 LevelRoute (Corollary 4, Theorem 1) |
//! | `ks-local` | ks_local.rs, ks_nol.rs, ks.rs, phased.rs | Kaufmann–Sibeyn §9.1 LocalRoute (Theorems 13, 14); §9.2 NoLRoute (`--locality unknown`, Theorem 15) |
//! | `lmrr` | lmrr/ | Leighton–Maggs–Ranade–Rao rank scheduling with ghosts (§2.2, §3, §4) |
//! | `snake-sort` | snake_sort.rs | the primitives' snake-order mesh sort (Pietracaprina–Pucci §3's standard sort; sorting, SPEC §5) |
//! | `bitonic` | bitonic/ | Batcher's bitonic sorting network (LMRR §1.1's background; sorting, SPEC §5) on hypercubes, butterflies (butterfly.rs) and shuffle-exchange graphs (shuffle.rs) |
//! | `flashsort` | flashsort/ | Flashsort by routing on the butterfly, the hypercube and d-dimensional meshes (LMRR §8, §10) |

pub mod bitonic;
pub mod claim;
pub mod flashsort;
pub mod greedy;
mod greedy_lines;
pub mod hypercube;
mod key_sort;
pub mod ks;
pub mod ks_level;
pub mod ks_local;
mod ks_nol;
mod link_load;
pub mod lmrr;
pub mod offline;
pub mod papers;
mod phased;
pub mod pp;
pub mod rand_interval;
pub mod registry;
pub mod snake_sort;
pub mod sort_route;
pub mod teaching;
mod three_phase;

pub use crate::options::{AlgorithmOptions, PathChoice, Smear};
pub use crate::topology::instance_locality;
pub use greedy::Greedy;
pub use hypercube::{BitFixing, Valiant};
pub use ks::Ks;
pub use ks_level::KsLevel;
pub use ks_local::KsLocal;
pub use lmrr::Lmrr;
pub use offline::{colour_regular_bipartite, column_colouring, routing_graph, Offline};
pub use pp::Pp;
pub use rand_interval::{Intervals, RandInterval};
pub use registry::{lookup, Entry, Packets, Shape, DEFAULT_ALGORITHM, EXPERIMENT_ORDER, REGISTRY};
pub use sort_route::SortRoute;

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::report::Extra;
use crate::topology::Topology;
use crate::workload::Instance;

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

    /// Called after every step with the engine as the step left it (to
    /// count what the step moved); nothing by default.
    fn after_step(&mut self, _engine: &Engine) {}

    /// Called as every step ends, after [`Algorithm::after_step`]: hands
    /// over (delivers where they stand) the packets a scripted phase moved
    /// through their destinations when that step made the phase's last
    /// move, and nothing else — the next step's preparations stay in
    /// [`Algorithm::before_step`]. So the state a step leaves shows every
    /// packet the report stamps with that step as delivered (SPEC §1;
    /// `sort-route`'s sort, `pp`'s tours; `tests/it/handover.rs`).
    fn hand_over(&mut self, _engine: &mut Engine) {}

    /// Open-loop traffic (SPEC §6): sets up the route of packet `p`, just
    /// injected at its source ([`Engine::inject`]), and returns the hops
    /// that route takes to the destination ([`Engine::route_hops`]). `None`:
    /// the algorithm does not route each packet on its own, and refuses
    /// open-loop traffic (only `greedy`, `bit-fixing`, `valiant` and
    /// `rand-interval` route each packet on its own). Called after `start`
    /// on an engine with no packets, between steps, before `before_step`
    /// sees the packet.
    fn admit(&mut self, _engine: &mut Engine, _p: u32) -> Option<u32> {
        None
    }

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

    /// For a sorting algorithm (SPEC §5) that ends in an order other than
    /// the topology's own on `topology` (the mesh's snake, a butterfly's
    /// level D): that order. `None` by default.
    fn sort_order(&self, _topology: &crate::topology::Topology) -> Option<crate::workload::sort::Order> {
        None
    }

    /// The report fields only this algorithm has (SPEC §5, e.g. `colours`);
    /// none by default.
    fn report_extra(&self) -> Extra {
        Extra::default()
    }

    /// The heap bytes a clone of the algorithm's state copies, about (its
    /// parts shared behind an `Arc` not counted): the page's timeline keeps
    /// fewer checkpoints of a run whose state is large. 0 for algorithms
    /// whose state is small beside the engine's (`lmrr`'s schedulers are
    /// not: hypercube:16 grew the page to 1.1 GiB with 32 checkpoints).
    fn copy_bytes(&self) -> usize {
        0
    }

    /// The capacity of the queues the algorithm keeps and bounds itself
    /// (`lmrr`'s edge queues), if any: the engine's queues are then not
    /// bounded, and the report's `queue_cap` is this.
    fn queue_cap(&self) -> Option<u32> {
        None
    }

    /// Whether every move of the algorithm's keeps to the engine's edge
    /// queues (`--edge-queues`, SPEC §1): true for packets routed through
    /// the contests, which the engine admits by each link queue's room. An
    /// algorithm whose tours or sorts move packets by script (the mesh
    /// sorts' compare-exchanges with several packets a node, the tours of
    /// `primitives::ring`) says false: those moves keep node counts, not
    /// link queues, and with `--edge-queues` a run of it is refused by name
    /// (`pp-det` once filled a link queue of capacity 1 twice over).
    fn keeps_edge_queues(&self) -> bool {
        true
    }

    /// The marks the page draws for this algorithm besides packets, lit
    /// links and node queues (a legend entry each); none by default.
    fn marks(&self) -> &'static [Mark] {
        &[]
    }

    /// The edge queues the algorithm keeps (`lmrr`'s), as the packets each
    /// holds per directed link of the real network, if it keeps any; `None`
    /// by default. Read for drawing only, never by the engine.
    fn edge_queues(&self) -> Option<EdgeQueues> {
        None
    }

    /// The bipartite multigraph the algorithm planned `instance` with and
    /// its edge colouring, if it plans with one (`offline`'s G_π); `None`
    /// by default. Read for drawing and tests only.
    fn routing_graph(&self, _instance: &Instance) -> Option<RoutingGraph> {
        None
    }
}

/// A bipartite multigraph with a proper edge colouring, as an algorithm
/// planned with it ([`Algorithm::routing_graph`]): the permutation
/// lecture's routing graph G_π of `offline` — the source columns on the
/// left, the destination columns on the right, one edge per packet, padded
/// to regular by dummy edges — split into perfect matchings, one colour
/// each. Edges are listed per packet (index = packet id), then the dummies.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RoutingGraph {
    /// Vertices on each side (the mesh's columns).
    pub vertices: u32,
    /// The colours (perfect matchings): the degree of every vertex (the
    /// mesh's rows).
    pub colours: u32,
    /// What a left vertex stands for ("source column").
    pub left: &'static str,
    /// What a right vertex stands for ("destination column").
    pub right: &'static str,
    /// What a colour stands for ("row": the row the packets of colour i
    /// move to in the first phase).
    pub colour_name: &'static str,
    /// Per packet: its left vertex.
    pub from: Vec<u32>,
    /// Per packet: its right vertex.
    pub to: Vec<u32>,
    /// Per packet: its colour, in `0..colours`.
    pub colour: Vec<u32>,
    /// The dummy edges' left vertices (a partial permutation's padding).
    pub dummy_from: Vec<u32>,
    /// The dummy edges' right vertices.
    pub dummy_to: Vec<u32>,
    /// The dummy edges' colours.
    pub dummy_colour: Vec<u32>,
    /// Each colour's `#rrggbb` ([`crate::palette::matching_colour`]).
    pub palette: Vec<String>,
    /// What the drawing shows, in words (the page's caption).
    pub caption: String,
}

/// A mark the page draws for an algorithm ([`Algorithm::marks`]), besides
/// packets, lit links and node queues.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    /// Ghost messages (LMRR §2.2), control messages of kind
    /// [`crate::engine::ControlKind::Ghost`]: a hollow circle on the link.
    Ghost,
    /// End-of-stream markers ([`crate::engine::ControlKind::EndOfStream`]):
    /// an outlined square on the link.
    EndOfStream,
    /// Edge-queue occupancy ([`Algorithm::edge_queues`]): a bar on each
    /// link at its receiving end, one segment per packet, q segments long.
    EdgeQueue,
}

impl Mark {
    /// The name the page reads (`ghost`, `end-of-stream`, `edge-queue`).
    pub fn name(self) -> &'static str {
        match self {
            Mark::Ghost => "ghost",
            Mark::EndOfStream => "end-of-stream",
            Mark::EdgeQueue => "edge-queue",
        }
    }
}

/// The occupancy of an algorithm's edge queues ([`Algorithm::edge_queues`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeQueues {
    /// The capacity q of one queue.
    pub cap: u32,
    /// Packets held in the queues of each directed link, indexed as the
    /// engine's link ids (`node · ports + port`, see
    /// [`crate::engine::Engine::last_links`]); where several logical edges
    /// share a link (the butterfly's logical network) their counts add up.
    pub occupancy: Vec<u32>,
    /// What the queues of each directed link can hold: q per logical edge
    /// it carries (2q on a shuffle-exchange link serving two; 0 on a link
    /// no logical edge uses). `max_edge_queue` is per logical edge, so a
    /// link's `occupancy` may pass q but never its `room`.
    pub room: Vec<u32>,
}

impl EdgeQueues {
    /// Queues of capacity `cap` on `links` directed links, none in use.
    pub fn empty(cap: u32, links: u32) -> EdgeQueues {
        EdgeQueues {
            cap,
            occupancy: vec![0; links as usize],
            room: vec![0; links as usize],
        }
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

/// Refuses a strip height ε (`--epsilon`) outside 1..=side, side the
/// shortest side of a grid (other networks have no strips; ε is then unused).
pub fn check_epsilon(epsilon: u32, topology: &Topology) -> Result<()> {
    let side = topology.as_grid().and_then(|g| g.dims().iter().copied().min());
    match side {
        _ if epsilon == 0 => Err(Error::invalid("epsilon", 0, "the strip height must be at least 1")),
        Some(side) if epsilon > side => Err(Error::invalid(
            "epsilon",
            epsilon,
            format!("the strip height must be at most the side {side} of {topology}"),
        )),
        _ => Ok(()),
    }
}

/// Refuses topologies an algorithm does not handle.
pub(crate) fn require(algorithm: &str, ok: bool, topo: &Topology, what: &str) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::unsupported(algorithm, format!("needs {what}, got {topo}")))
    }
}
