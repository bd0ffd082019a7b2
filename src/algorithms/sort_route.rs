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
//! instances must be (partial) permutations. For a full permutation every
//! destination column has exactly n packets, so after phase 2 column c
//! holds exactly the packets bound for column c and phase 3 has nothing to
//! route: it takes no step and the report has no `route-row` phase.
//!
//! # Complexity
//! 7·side − 9 − log₂ side steps of sorting (side ≥ 8; 433 at side 64) plus
//! ≤ 3·(side − 1) of routing.

use super::offline::check_partial_permutation;
use super::three_phase::ThreePhase;
use super::{Algorithm, AlgorithmOptions};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::primitives::geometry::Mesh;
use crate::primitives::sort::SortTask;
use crate::primitives::Task;
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
        let arrived: Vec<u32> = engine
            .active()
            .iter()
            .copied()
            .filter(|&p| engine.position(p) == engine.destination(p))
            .collect();
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
    fn name(&self) -> &'static str {
        "sort-route"
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

    fn uses_policy(&self) -> bool {
        // The sort moves packets only by its scheduled compare-exchanges, and
        // with barriers phases 2–4 are line permutations in which no two
        // packets ever want the same link (module notes), as in `offline`.
        self.pipeline
    }
}
