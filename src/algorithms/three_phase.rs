//! The column–row–column schedule shared by `rand-interval` and `offline`
//! on an R×C mesh (permutation lecture, "Randomized permutation routing"
//! Phases 1b–3 and "Off-line permutation routing" Phases 2–4):
//!
//! 1. every packet moves inside its column to a row chosen by the algorithm
//!    (a random row of its interval; the colour of its matching);
//! 2. along that row to its destination column;
//! 3. along the destination column to its destination row.
//!
//! Every phase is simulated routing on the engine (targets along one line;
//! the engine moves the packets, contention settled by the run's policy),
//! never teleporting. By default the phases are separated by barriers: a
//! phase opens in the step after the last packet of the previous one
//! arrived (the engine's `unsettled()` is 0), so no step is idle. With
//! `pipeline` every packet starts its next phase as soon as it reaches the
//! target of the current one.
//!
//! # Complexity
//! O(packets) per phase change; O(arrivals) per step when pipelined.

use crate::engine::Engine;

/// The three phases of the schedule, driven from an algorithm's `start` and
/// `before_step` (permutation lecture, Phases 1b–3 of the randomized
/// algorithm, Phases 2–4 of the off-line one).
#[derive(Debug, Clone)]
pub(crate) struct ThreePhase {
    names: [&'static str; 3],
    /// Phase-1 row of every packet.
    rows: Vec<u32>,
    /// Columns of the mesh (node id = row·cols + col, SPEC §2).
    cols: u32,
    pipeline: bool,
    /// Barrier mode: the open phase (0, 1, 2).
    phase: u8,
    /// Pipelined mode: each packet's phase.
    packet_phase: Vec<u8>,
}

impl ThreePhase {
    /// A schedule in which packet `p` first moves to row `rows[p]` of its
    /// source column; `names` are the phases' report names.
    pub(crate) fn new(names: [&'static str; 3], rows: Vec<u32>, cols: u32, pipeline: bool) -> Self {
        ThreePhase {
            names,
            rows,
            cols,
            pipeline,
            phase: 0,
            packet_phase: Vec::new(),
        }
    }

    /// The target of `p` in `phase`, from where it is now.
    fn target(&self, engine: &Engine, p: u32, phase: u8) -> u32 {
        let (pos, dest) = (engine.position(p), engine.destination(p));
        match phase {
            0 => self.rows[p as usize] * self.cols + pos % self.cols,
            1 => pos - pos % self.cols + dest % self.cols,
            _ => dest,
        }
    }

    fn enter(&self, engine: &mut Engine, p: u32, phase: u8) {
        let t = self.target(engine, p, phase);
        engine.set_target(p, t);
        engine.set_class(p, phase);
    }

    /// Sets up phase 1 (called from the algorithm's `start`).
    pub(crate) fn start(&mut self, engine: &mut Engine) {
        let active = engine.active();
        if self.pipeline {
            engine.begin_phase("pipelined");
            self.packet_phase = vec![0; engine.packet_count() as usize];
            for p in active {
                self.enter(engine, p, 0);
                self.advance(engine, p);
            }
        } else {
            engine.begin_phase(self.names[0]);
            for p in active {
                self.enter(engine, p, 0);
            }
            self.open_barriers(engine);
        }
    }

    /// Opens the next phases while the current one has nothing left to
    /// route (called before every step).
    pub(crate) fn before_step(&mut self, engine: &mut Engine) {
        if self.pipeline {
            let arrived = engine.arrived_at_target().to_vec();
            for p in arrived {
                self.advance(engine, p);
            }
        } else {
            self.open_barriers(engine);
        }
    }

    /// Pipelined: moves `p` on to its next phases while it is at its target.
    fn advance(&mut self, engine: &mut Engine, p: u32) {
        let i = p as usize;
        while self.packet_phase[i] < 2 && engine.position(p) == engine.target(p) {
            self.packet_phase[i] += 1;
            self.enter(engine, p, self.packet_phase[i]);
        }
    }

    /// Barriers: a phase that is over (or empty) gives way to the next.
    fn open_barriers(&mut self, engine: &mut Engine) {
        while self.phase < 2 && engine.unsettled() == 0 && !engine.finished() {
            self.phase += 1;
            engine.begin_phase(self.names[self.phase as usize]);
            let active = engine.active();
            for p in active {
                self.enter(engine, p, self.phase);
            }
        }
    }
}
