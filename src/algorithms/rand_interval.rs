//! `rand-interval`: the randomized three-phase permutation routing of the
//! permutation lecture ("Randomized permutation routing", the Lemma with
//! 2n + o(n) steps and β = O(log n) buffers, probability 1 − O(1/n²)):
//!
//! - Phase 1a: every column is cut into q = ⌊log₂ R⌋ intervals of rows
//!   (R = the column length, the side n on an n×n mesh; at least one
//!   interval), whose sizes differ by at most 1: with R = q·s + r, the first
//!   r intervals have s + 1 rows, the others s.
//! - Phase 1b: every packet moves inside its column to a uniformly random
//!   row of its interval.
//! - Phase 2: along its row to its destination column.
//! - Phase 3: along that column to its destination row.
//!
//! Contention is settled by the run's policy (the lecture uses
//! farthest-first). The random rows come from the run's seed on the
//! algorithm stream, one draw per packet in id order. This is the
//! Krizanc–Rajasekaran–Tsantilas idea of distributing packets inside
//! horizontal strips (Kaufmann–Sibeyn §3, "Randomized vertical distribution
//! of the packets within small horizontal strips"): packets of one row
//! bound for one column are spread over a strip of ≈ R/log R rows, so about
//! log R of them meet at a turning node instead of up to R.
//!
//! Phase 1 costs about R/log₂ R steps, phases 2 and 3 at most about n − 1
//! each (phase 3 is a one-destination-per-node line routing: ≤ R − 1 with
//! farthest-first, lecture's first Lemma). The phases are separated by
//! barriers unless `pipeline` is set (see [`super::three_phase`]).
//! Any instance on a 2-D mesh is accepted; the bounds are for permutations.
//!
//! # Complexity
//! O(packets) set-up; steps cost what the engine's cost.

use super::claim::{Claim, Formula, Measure, Scope, Strength};
use super::papers::LECTURE;
use super::teaching::{Classes, PhaseText, Teaching};
use super::three_phase::ThreePhase;
use super::{require, Algorithm, AlgorithmOptions};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::engine::Policy;
use crate::error::Result;
use crate::options::Field;
use crate::rng::{Rng, Stream};
use crate::topology::Kind;
use crate::workload::Instance;

/// The lecture's column intervals (Phase 1a): `count` intervals of a column
/// of `len` rows, sizes differing by at most 1, larger ones first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Intervals {
    len: u32,
    count: u32,
}

impl Intervals {
    /// ⌊log₂ len⌋ intervals (at least one) of a column of `len` ≥ 1 rows.
    pub fn for_column(len: u32) -> Self {
        Intervals {
            len,
            count: len.max(1).ilog2().max(1),
        }
    }

    /// Number of intervals.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The interval containing `row`: (first row, number of rows).
    pub fn of(&self, row: u32) -> (u32, u32) {
        let small = self.len / self.count;
        let big_count = self.len % self.count;
        let split = big_count * (small + 1);
        if row < split {
            (row - row % (small + 1), small + 1)
        } else {
            (row - (row - split) % small, small)
        }
    }
}

/// Randomized three-phase routing with ⌊log₂ side⌋ column intervals
/// (permutation lecture, "Randomized permutation routing").
#[derive(Debug, Clone)]
pub struct RandInterval {
    seed: u64,
    pipeline: bool,
    schedule: Option<ThreePhase>,
    /// Kept after `start` for the packets open-loop traffic admits later:
    /// the generator of the rows, the intervals and the mesh's columns.
    open: Option<(Rng, Intervals, u32)>,
}

impl RandInterval {
    /// Phases separated by barriers unless `options.pipelined()`.
    pub fn new(options: &AlgorithmOptions) -> Self {
        RandInterval {
            seed: options.seed,
            pipeline: options.pipelined(),
            schedule: None,
            open: None,
        }
    }
}

impl Algorithm for RandInterval {
    fn name(&self) -> &'static str {
        NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let topo = &instance.topology;
        let shape = topo.mesh2d().filter(|_| topo.kind() == Kind::Mesh);
        require(self.name(), shape.is_some(), topo, "a 2-D mesh (mesh:RxC)")?;
        let (rows, cols) = shape.expect("checked");
        let intervals = Intervals::for_column(rows);
        let mut rng = Rng::new(self.seed, Stream::Algorithm);
        // One draw per packet in id order, delivered or not, so one packet's
        // row does not depend on the others.
        let picks: Vec<u32> = (0..engine.packet_count())
            .map(|p| {
                let (first, len) = intervals.of(engine.source(p) / cols);
                first + rng.below(len)
            })
            .collect();
        let mut schedule = ThreePhase::three_phase(
            ["randomize-in-interval", "route-row", "route-column"],
            picks,
            cols,
            self.pipeline,
        );
        schedule.start(engine);
        self.schedule = Some(schedule);
        self.open = Some((rng, intervals, cols));
        Ok(())
    }

    /// Open loop (SPEC §6): the packet's random row of its interval,
    /// drawn on admission, then the three phases per packet (pipelined
    /// only: no barriers).
    fn admit(&mut self, engine: &mut Engine, p: u32) -> Option<u32> {
        let (rng, intervals, cols) = self.open.as_mut().filter(|_| self.pipeline)?;
        let (src, dest) = (engine.source(p), engine.destination(p));
        let (first, len) = intervals.of(src / *cols);
        let row = first + rng.below(len);
        let schedule = self.schedule.as_mut()?;
        schedule.plan_mut().set_row(p, row);
        let via = [row * *cols + src % *cols, row * *cols + dest % *cols];
        let hops = engine.route_hops(p, &via);
        schedule.admit(engine, p);
        Some(hops)
    }

    fn before_step(&mut self, engine: &mut Engine) {
        if let Some(s) = self.schedule.as_mut() {
            s.before_step(engine);
        }
    }
}

/// The SPEC §5 name.
pub const NAME: &str = "rand-interval";

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "to a random row of its column interval (floor(log2 R) per column), then row, then column",
    paper: LECTURE,
    section: "Randomized permutation routing (Lemma: 2n + o(n) steps, β = O(log n))",
    kinds: &[Kind::Mesh],
    shape: Shape::TwoD,
    packets: Packets::Any,
    open_loop: true,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::Pipeline, Field::Flits],
    teaching: &TEACHING,
    factory: |o| Box::new(RandInterval::new(o)),
    state_bytes: None,
    size_check: None,
};

/// rand-interval.
pub const TEACHING: Teaching = Teaching {
    description: "Every column is cut into about log₂ n intervals. A packet first moves, inside its column, to a \
                  random row of its interval; then along that row to its destination column; then along the column \
                  to its destination. The random first move spreads the packets that want the same column over \
                  many rows, so queues stay small.",
    phases: &[
        PhaseText {
            name: "randomize-in-interval",
            text: "every packet moves inside its column to a random row of its interval",
        },
        PhaseText {
            name: "route-row",
            text: "along the row to the destination column",
        },
        PhaseText {
            name: "route-column",
            text: "along the destination column to the destination row",
        },
        PhaseText {
            name: "pipelined",
            text: "no barriers: each packet starts its next phase as soon as it finishes the current one",
        },
    ],
    classes: Classes::Named(&[
        "phase 1: to a random row",
        "phase 2: along the row",
        "phase 3: along the column",
    ]),
    headline: 0,
    claims: &[
        Claim {
            name: "the time bound",
            text: "any permutation of an n × n mesh in 2n + o(n) steps with probability at least 1 − O(1/n²), \
                   contention settled farthest-first",
            scope: Scope::SquareMesh,
            permutation: true,
            instance: None,
            separated: false,
            policy: Some(Policy::FarthestFirst),
            measure: Measure::Steps,
            strength: Strength::PlusLowerOrder,
            formula: Formula::TwoSide,
        },
        Claim {
            name: "the queue bound",
            text: "with queues of O(log n) packets, contention settled farthest-first",
            scope: Scope::SquareMesh,
            permutation: true,
            instance: None,
            separated: false,
            policy: Some(Policy::FarthestFirst),
            measure: Measure::MaxQueue,
            strength: Strength::Order,
            formula: Formula::LogSide,
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::Intervals;

    #[test]
    fn intervals_tile_the_column_with_sizes_differing_by_at_most_one() {
        for len in 1..200u32 {
            let iv = Intervals::for_column(len);
            assert_eq!(iv.count(), len.ilog2().max(1));
            let mut starts = Vec::new();
            let mut row = 0;
            while row < len {
                let (first, size) = iv.of(row);
                assert_eq!(first, row, "len {len}");
                for r in first..first + size {
                    assert_eq!(iv.of(r), (first, size), "len {len} row {r}");
                }
                starts.push(size);
                row += size;
            }
            assert_eq!(row, len);
            assert_eq!(starts.len() as u32, iv.count(), "len {len}");
            let (lo, hi) = (starts.iter().min().unwrap(), starts.iter().max().unwrap());
            assert!(hi - lo <= 1, "len {len}: {starts:?}");
        }
    }
}
