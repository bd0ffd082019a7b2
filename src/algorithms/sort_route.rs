//! Sorting-based permutation routing with no auxiliary buffers.
//!
//! Source: the permutation-routing lecture, "Sorting-based permutation
//! routing" (Lemma: O(s(n) + 3n) steps with β = 0). Four phases on an n×n
//! mesh:
//! 1. sort the packets into column-major snake order by destination column
//!    (the O(side) snake merge sort of [`crate::primitives::sort`],
//!    simulated as compare-exchanges of 2 steps each, consecutive rounds
//!    overlapping, here in its column-major form), so the packets bound for one column form a run of
//!    at most n consecutive snake positions;
//! 2. reverse every second column, turning the snake into plain
//!    column-major order: now no row holds two packets for the same column;
//! 3. route along the rows to the destination columns (a line permutation);
//! 4. route along the columns to the destination rows (a line permutation).
//!
//! Phases 2–4 are the column–row–column schedule shared with `offline`
//! (`three_phase`); each is a line permutation, at most n − 1 steps,
//! and a node never holds more than one packet passing each way plus the one
//! parked at it (max_queue ≤ 3). While sorting, packets are not eligible
//! for the engine's routing and delivery on arrival is off (they cross
//! their destinations then); both are on afterwards.
//!
//! Meshes must be square with a power-of-two side (the sort's requirement;
//! the lecture's M(n,n) has any n, other sides are refused by name);
//! instances must be (partial) permutations. For a full permutation
//! without fixed points every destination column has exactly n packets to
//! sort, so after phase 2 column c holds exactly the packets bound for
//! column c and phase 3 has nothing to route: it takes no step and the
//! report has no `route-row` phase. A packet that starts at its
//! destination is delivered at step 0 (SPEC §1) and is not sorted; with f
//! such packets the sorted order is off by them and phase 3 moves the
//! packets displaced (mesh:8x8 transpose, f = 8: one step, 28 packets).
//!
//! # Complexity
//! 7·side − 9 − log₂ side steps of sorting (side ≥ 8; 433 at side 64) plus
//! ≤ 3·(side − 1) of routing.

use super::claim::{Claim, Formula, Measure, Scope, Strength};
use super::offline::check_partial_permutation;
use super::papers::LECTURE;
use super::teaching::{Classes, PhaseText, Teaching};
use super::three_phase::ThreePhase;
use super::{Algorithm, AlgorithmOptions};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::options::Field;
use crate::primitives::geometry::Mesh;
use crate::primitives::sort::SortTask;
use crate::primitives::Task;
use crate::topology::Kind;
use crate::topology::Network;
use crate::workload::Instance;

/// The name of the sort phase in the report.
pub const SORT_PHASE: &str = "sort-column-major-snake";

/// `sort-route`: sort, reverse odd columns, rows, columns.
#[derive(Clone)]
pub struct SortRoute {
    pipeline: bool,
    side: u32,
    sort: Option<SortTask>,
    schedule: Option<ThreePhase>,
}

impl SortRoute {
    /// Phases 2–4 separated by barriers unless `options.pipelined()`.
    pub fn new(options: &AlgorithmOptions) -> Self {
        SortRoute {
            pipeline: options.pipelined(),
            side: 0,
            sort: None,
            schedule: None,
        }
    }

    /// Phase 1 is over: each packet's phase-2 row is its row, reversed in odd
    /// columns (local knowledge of the node it sits at).
    fn start_routing(&mut self, engine: &mut Engine) {
        let side = self.side;
        engine.set_deliver_on_arrival(true);
        for p in engine.active() {
            engine.set_eligible(p, true);
        }
        // (A sort of any round handed these over as its last step ended,
        // `hand_over`; only a sort with no round leaves any here.)
        let arrived = engine.at_destination(&engine.active());
        engine.deliver_many(&arrived);
        let rows: Vec<u32> = (0..engine.packet_count())
            .map(|p| {
                let pos = engine.position(p);
                let (r, c) = (pos / side, pos % side);
                if c % 2 == 1 {
                    side - 1 - r
                } else {
                    r
                }
            })
            .collect();
        let mut schedule = ThreePhase::three_phase(
            ["reverse-odd-columns", "route-row", "route-column"],
            rows,
            side,
            self.pipeline,
        );
        schedule.start(engine);
        self.schedule = Some(schedule);
    }
}

impl Algorithm for SortRoute {
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
        let topo = &instance.topology;
        let mesh = Mesh::of(topo).map_err(|what| Error::unsupported(self.name(), format!("needs {what}")))?;
        check_partial_permutation(self.name(), topo.nodes(), &instance.packets)?;
        self.side = mesh.side();
        // While sorting, packets move only by the sort's compare-exchanges.
        engine.set_deliver_on_arrival(false);
        for p in engine.active() {
            engine.set_eligible(p, false);
        }
        engine.begin_phase(SORT_PHASE);
        let items: Vec<(u32, u64)> = engine
            .active()
            .iter()
            .map(|&p| (p, (engine.destination(p) % self.side) as u64))
            .collect();
        self.sort = Some(SortTask::new(engine, mesh, mesh.side(), 1, &items).column_major());
        Ok(())
    }

    fn before_step(&mut self, engine: &mut Engine) {
        if let Some(sort) = self.sort.as_mut() {
            if sort.poll(engine) {
                return;
            }
            self.sort = None;
            self.start_routing(engine);
        }
        if let Some(schedule) = self.schedule.as_mut() {
            schedule.before_step(engine);
        }
    }

    /// The sort's last step hands over the packets it left at their
    /// destinations (the routing that opens next delivers on arrival).
    fn hand_over(&mut self, engine: &mut Engine) {
        if self.sort.as_ref().is_some_and(|sort| sort.over(engine)) {
            let home = engine.at_destination(&engine.active());
            engine.deliver_many(&home);
        }
    }

    fn uses_policy(&self) -> bool {
        // The sort moves packets only by its scheduled compare-exchanges, and
        // with barriers phases 2–4 are line permutations in which no two
        // packets ever want the same link (module notes), as in `offline`.
        self.pipeline
    }
}

/// The SPEC §5 name.
pub const NAME: &str = "sort-route";

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "sort by destination column (column-major snake), reverse odd columns, rows, columns; no buffers",
    paper: LECTURE,
    section: "Sorting-based permutation routing",
    kinds: &[Kind::Mesh],
    shape: Shape::SquarePowerOfTwo,
    packets: Packets::PartialPermutation,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::Pipeline],
    teaching: &TEACHING,
    factory: |o| Box::new(SortRoute::new(o)),
    state_bytes: None,
    size_check: None,
};

/// sort-route.
pub const TEACHING: Teaching = Teaching {
    description: "The packets are first sorted by destination column into column-major snake order, by \
                  compare-exchanges between neighbours (no node ever holds more than its own packets). Every second \
                  column is then reversed; after that no row holds two packets for the same column, so rows and then \
                  columns route without any contention. On-line and with no buffers — but the sort takes most of \
                  the time.",
    phases: &[
        PhaseText {
            name: "sort-column-major-snake",
            text: "sort the packets by destination column into column-major snake order: in each round neighbours \
                   exchange keys and then swap their packets if out of order, while the next round's keys cross \
                   on other links — about one step a round, 7n − 9 − log₂ n steps in all (n ≥ 4)",
        },
        PhaseText {
            name: "reverse-odd-columns",
            text: "every second column is reversed, giving column-major order",
        },
        PhaseText {
            name: "route-row",
            text: "along the row to the destination column, without contention",
        },
        PhaseText {
            name: "route-column",
            text: "along the destination column to the destination row, without contention",
        },
        PhaseText {
            name: "pipelined",
            text: "no barriers: each packet starts its next phase as soon as it finishes the current one",
        },
    ],
    classes: Classes::Named(&[
        "sorting, then reversing the column",
        "along the row",
        "along the column",
    ]),
    headline: 0,
    claims: &[
        Claim {
            name: "the routing phases",
            text: "after the sort, three line permutations of at most n − 1 steps each",
            scope: Scope::SquareMesh,
            permutation: true,
            instance: None,
            separated: true,
            policy: None,
            measure: Measure::StepsAfter(SORT_PHASE),
            strength: Strength::AtMost,
            formula: Formula::ThreeLines,
        },
        Claim {
            name: "no buffers",
            text: "no auxiliary buffers: no queue above 3 packets",
            scope: Scope::SquareMesh,
            permutation: true,
            instance: None,
            separated: true,
            policy: None,
            measure: Measure::MaxQueue,
            strength: Strength::AtMost,
            formula: Formula::Constant(3),
        },
    ],
};
