//! A phased schedule: every packet goes through the same numbered phases,
//! each a simulated routing to a target the algorithm's [`PhasePlan`]
//! chooses from where the packet is (one line of the mesh in
//! `three_phase.rs` and `ks.rs`). The engine moves the packets; contention
//! is settled by the run's policy; nothing is teleported.
//!
//! By default the phases are separated by barriers: a phase opens in the
//! step after the last packet of the previous one arrived (the engine's
//! `unsettled()` is 0), so no step is idle, and a phase with nothing to
//! route takes no step. Pipelined (the lecture's word; Kaufmann–Sibeyn §3
//! call it *coalescing phases*), every packet starts its next phase as soon
//! as it reaches the target of the current one.
//!
//! # Complexity
//! O(packets) per phase change; O(arrivals) per step when pipelined.

use crate::engine::Engine;

/// What a phased algorithm decides: how many phases, their report names,
/// and each packet's target and drawing class in each phase.
pub(crate) trait PhasePlan {
    /// Number of phases (at least 1).
    fn count(&self) -> u8;
    /// The report name of `phase` (0-based) with barriers.
    fn name(&self, phase: u8) -> &str;
    /// The report name of the single phase of a pipelined run.
    fn pipelined_name(&self) -> &str;
    /// The target of `p` in `phase`, from where it is now.
    fn target(&self, engine: &Engine, p: u32, phase: u8) -> u32;
    /// The drawing class of `p` in `phase`.
    fn class(&self, p: u32, phase: u8) -> u8;
    /// Which way `p` goes round a ring in `phase` when both ways are
    /// equally short (`Some(true)`: the negative way); `None` keeps the
    /// engine's rule (SPEC §2).
    fn tie(&self, _p: u32, _phase: u8) -> Option<bool> {
        None
    }
}

/// Drives a [`PhasePlan`] from an algorithm's `start` and `before_step`.
#[derive(Debug, Clone)]
pub(crate) struct Phased<P> {
    plan: P,
    pipeline: bool,
    /// Barrier mode: the open phase.
    phase: u8,
    /// Pipelined mode: each packet's phase.
    packet_phase: Vec<u8>,
}

impl<P: PhasePlan> Phased<P> {
    /// A schedule of `plan`, pipelined if `pipeline`.
    pub(crate) fn new(plan: P, pipeline: bool) -> Self {
        Phased {
            plan,
            pipeline,
            phase: 0,
            packet_phase: Vec::new(),
        }
    }

    /// The plan.
    pub(crate) fn plan(&self) -> &P {
        &self.plan
    }

    fn enter(&self, engine: &mut Engine, p: u32, phase: u8) {
        let t = self.plan.target(engine, p, phase);
        engine.set_target(p, t);
        engine.set_class(p, self.plan.class(p, phase));
        if let Some(negative) = self.plan.tie(p, phase) {
            engine.set_tie_direction(p, negative);
        }
    }

    /// Sets up the first phase (called from the algorithm's `start`).
    pub(crate) fn start(&mut self, engine: &mut Engine) {
        let active = engine.active();
        if self.pipeline {
            engine.begin_phase(self.plan.pipelined_name());
            self.packet_phase = vec![0; engine.packet_count() as usize];
            for p in active {
                self.enter(engine, p, 0);
                self.advance(engine, p);
            }
        } else {
            engine.begin_phase(self.plan.name(0));
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
        let last = self.plan.count() - 1;
        while self.packet_phase[i] < last && engine.position(p) == engine.target(p) {
            self.packet_phase[i] += 1;
            self.enter(engine, p, self.packet_phase[i]);
        }
    }

    /// Barriers: a phase that is over (or empty) gives way to the next.
    fn open_barriers(&mut self, engine: &mut Engine) {
        let last = self.plan.count() - 1;
        while self.phase < last && engine.unsettled() == 0 && !engine.finished() {
            self.phase += 1;
            engine.begin_phase(self.plan.name(self.phase));
            let active = engine.active();
            for p in active {
                self.enter(engine, p, self.phase);
            }
        }
    }
}
