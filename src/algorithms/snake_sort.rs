//! `snake-sort`: the mesh sort the primitives share (the snake-order merge
//! sort of [`crate::primitives::sort`], Schimmler / LS3 style, that
//! `sort-route` and the Pietracaprina–Pucci family use inside), offered as
//! a sorting algorithm of its own (SPEC §5 "Sorting").
//!
//! On a square mesh whose side n is a power of two, one key per node, the
//! keys end in *snake* order (row 0 left to right, row 1 right to left, …;
//! the report's `order` is `snake`), so each packet's destination is the
//! snake node of its key's rank. Every round is a compare-exchange (or a
//! fixed exchange) between neighbours, simulated as keys crossing and then
//! packets swapping, consecutive rounds overlapped (SPEC §1): R + 1 steps
//! for the network's R rounds, at most 7n for every n ([`SortTask::duration`];
//! the primitive's module notes count R).

use super::claim::{join, Claim, Formula, Scope, Strength};
use super::key_sort::KeySort;
use super::papers::PP;
use super::teaching::{Classes, PhaseText, Teaching};
use super::{Algorithm, AlgorithmOptions};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::primitives::geometry::Mesh;
use crate::primitives::sort::SortTask;
use crate::topology::{Kind, Topology};
use crate::workload::sort::Order;
use crate::workload::Instance;

/// The SPEC §5 name.
pub const NAME: &str = "snake-sort";

/// The report's phase of the sort.
pub const PHASE: &str = "sort-snake";

/// `snake-sort`: the primitives' snake sort as a task on the engine.
#[derive(Clone)]
pub struct SnakeSort {
    sort: KeySort,
}

impl SnakeSort {
    /// A new run.
    pub fn new(_options: &AlgorithmOptions) -> Self {
        SnakeSort {
            sort: KeySort::default(),
        }
    }
}

impl Algorithm for SnakeSort {
    /// Its compare-exchanges move packets by script (SPEC §1: a swap is an
    /// arrival), keeping node queues, not link queues: `--edge-queues` is
    /// refused (an audit saw full link queues take swaps).
    fn keeps_edge_queues(&self) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let mesh = Mesh::of(&instance.topology).map_err(|what| Error::unsupported(NAME, format!("needs {what}")))?;
        let steps = SortTask::duration(mesh.side(), 1);
        self.sort.start(NAME, PHASE, instance, engine, steps, |engine, items| {
            Box::new(SortTask::new(engine, mesh, mesh.side(), 1, items))
        })
    }

    fn before_step(&mut self, engine: &mut Engine) {
        self.sort.before_step(engine);
    }

    fn uses_policy(&self) -> bool {
        false
    }

    fn sort_order(&self, _topology: &Topology) -> Option<Order> {
        Some(Order::Snake)
    }
}

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "the mesh's snake-order merge sort (the primitives' sort), keys ending in snake order",
    paper: PP,
    section: "§3 (proof of Theorem 2): the standard mesh sort in O(√N) steps, N nodes (O(n) on an n × n mesh)",
    kinds: &[Kind::Mesh],
    shape: Shape::SquarePowerOfTwo,
    packets: Packets::Sort,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[],
    teaching: &TEACHING,
    factory: |o| Box::new(SnakeSort::new(o)),
    state_bytes: None,
    size_check: None,
};

/// snake-sort.
pub const TEACHING: Teaching = Teaching {
    description: "The mesh sort the other mesh algorithms use inside, on its own: every aligned k×k block, k = 2, 4, \
                  …, n, merges its four sorted quadrants by rounds of odd–even transposition on rows and columns, \
                  a shuffle and a balancing round; the keys end in snake order (row 0 left to right, row 1 right to \
                  left, …). Each round's keys cross while the previous round's packets swap.",
    phases: &[PhaseText {
        name: PHASE,
        text: "rounds of compare-exchanges between neighbours along rows and columns: keys cross both ways, then \
               the packets swap if out of order, while the next round's keys cross on other links",
    }],
    classes: Classes::Named(&["key"]),
    headline: 0,
    claims: &[Claim::on_steps(
        "the snake sort's steps",
        join!(
            "the standard mesh sort takes O(√N) = O(n) steps on an n × n mesh (Pietracaprina–Pucci's proof of \
             Theorem 2 states no constant: the constant is measured); this network's rounds, overlapped, take at \
             most ",
            Formula::SevenSide.spelled(),
            " (this implementation's count, held by the tests)"
        ),
        Scope::SquareMesh,
        Strength::Order,
        Formula::Side,
    )],
};
