//! A run that can go back: step back and forward, and go to any step, showing
//! exactly the state that going forward showed.
//!
//! Runs are deterministic (every random choice comes from the run's seed), so
//! a past state is recomputed rather than stored: the timeline keeps copies
//! of the whole simulation (engine, algorithm, status) at *checkpoints* and
//! goes to step t by restoring the latest checkpoint at or before t and
//! stepping on from it. Nothing else is recorded per step, so the engine's
//! step loop is the same as without a timeline; a copy is made only when a
//! checkpoint is taken.
//!
//! # Memory
//! At most [`MAX_CHECKPOINTS`] (32) checkpoints are kept, at steps 0, i,
//! 2i, … for an interval i that starts at 1. When one more would be taken,
//! every other one is dropped and i doubles, so the checkpoints always cover
//! the run computed so far evenly: a run of T steps keeps them about every
//! T/32 to T/16 steps, and going to any step replays fewer than i of them.
//! Besides the checkpoints the timeline holds the shown state and, while the
//! shown step is behind the furthest one computed, that furthest state (so
//! that returning to it costs nothing) and, while the run's length is being
//! measured, one copy stepping ahead (`measure`): at most 35 copies of the
//! simulation in all. A run so large that 32 copies would pass [`CHECKPOINT_BUDGET`]
//! (256 MB, by an estimate of one copy's size) keeps fewer checkpoints (at
//! least 2), and going back costs proportionally more replay.
//!
//! # Complexity
//! `goto(t)`: one copy of a checkpoint and fewer than i steps, where i ≤
//! max(1, 2·furthest / m) is the current interval for at most m checkpoints
//! (going forward from the shown step, or to the furthest state, takes no
//! copy).

use crate::engine::PhaseSteps;
use crate::error::Result;
use crate::simulation::{Simulation, Status};
use serde::Serialize;

/// How long the page plays a run when neither the user nor a lesson sets
/// its pace, in seconds (SPEC §7 `data-speed`: about 20–40 s whatever the
/// run's length).
pub const PLAY_SECONDS: u32 = 30;

/// The slowest pace the page chooses, in steps per second: a run of a few
/// steps shows a step every 5 s rather than stretching to the full time.
pub const MIN_SPEED: f64 = 0.2;

/// The page's pace for a run (or two runs beside each other): the run's
/// length and the speed that plays it in the time asked for.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Pace {
    /// The run's length in steps: exact once it is computed to its end
    /// (`known`), else the larger of the steps computed so far and the
    /// instance's lower bound `best` (no run is shorter).
    pub steps: u32,
    /// Whether `steps` is the run's length (computed to its end).
    pub known: bool,
    /// Steps per second: [`speed_for`]`(steps, seconds)`.
    pub speed: f64,
    /// The time the run is to play in, s.
    pub seconds: u32,
}

impl Pace {
    /// The pace of `runs` played together (the longest decides) in `seconds`.
    pub fn of(runs: &[&Timeline], seconds: u32) -> Pace {
        let steps = runs.iter().map(|t| t.length().0).max().unwrap_or(0);
        let known = runs.iter().all(|t| t.length().1);
        Pace {
            steps,
            known,
            speed: speed_for(steps, seconds),
            seconds,
        }
    }
}

/// The speed that plays `steps` steps in about `seconds` s: steps ÷
/// seconds to two significant digits (so the time stays within 5 % of
/// `seconds`, so 22–38 s asked stay within 20–40 s), at least
/// [`MIN_SPEED`].
pub fn speed_for(steps: u32, seconds: u32) -> f64 {
    let raw = f64::from(steps) / f64::from(seconds.max(1));
    if raw <= MIN_SPEED {
        return MIN_SPEED;
    }
    let decimals = (1.0 - raw.log10().floor()).max(0.0);
    let scale = 10f64.powf(decimals);
    ((raw * scale).round() / scale).max(MIN_SPEED)
}

/// The most checkpoints a timeline keeps (see "Memory" above).
pub const MAX_CHECKPOINTS: usize = 32;

/// The memory the checkpoints of one run may take, by the estimate of
/// [`copy_bytes`]: a larger run keeps fewer checkpoints.
pub const CHECKPOINT_BUDGET: usize = 256 << 20;

/// An estimate of the memory one copy of `sim` takes: the engine's packet
/// columns (at least 64 bytes a packet, the contest list included) and its
/// node and link columns, doubled for a small algorithm state and the
/// series, and what a clone of a large algorithm state copies (`lmrr`'s
/// schedulers: without them lmrr on hypercube:16 kept 32 checkpoints and
/// grew the page past 1 GiB).
pub fn copy_bytes(sim: &Simulation) -> usize {
    use crate::topology::Network;
    let engine = sim.engine();
    let topo = engine.topology();
    let packets = engine.packet_count() as usize * engine.bytes_per_packet().max(64);
    let nodes = topo.nodes() as usize * (16 + 4 * topo.ports() as usize);
    2 * (packets + nodes) + sim.algorithm_copy_bytes()
}

/// One run with its past: the shown state, checkpoints, and the furthest
/// state computed.
pub struct Timeline {
    /// The shown state.
    current: Simulation,
    /// The furthest state computed, while the shown one is behind it
    /// (`None`: the shown state is the furthest).
    head: Option<Simulation>,
    /// Copies of the run at steps 0, interval, 2·interval, … (≤ furthest).
    checkpoints: Vec<Simulation>,
    interval: u32,
    /// The most checkpoints kept (≤ MAX_CHECKPOINTS, ≥ 2).
    max_checkpoints: usize,
    /// The last step computed so far.
    furthest: u32,
    /// A copy stepping ahead to measure the run's length ([`Timeline::measure`]).
    probe: Option<Simulation>,
    /// The run's length, once measured or computed.
    length: Option<u32>,
    /// The first steps of the run's phases after the first, once measured.
    phase_firsts: Vec<u32>,
}

impl Timeline {
    /// A timeline at step 0 of `sim` (which must be at step 0), with at
    /// most [`MAX_CHECKPOINTS`] checkpoints, fewer if their copies would
    /// pass [`CHECKPOINT_BUDGET`].
    pub fn new(sim: Simulation) -> Timeline {
        let fit = CHECKPOINT_BUDGET / copy_bytes(&sim).max(1);
        Timeline::with_max_checkpoints(sim, fit.min(MAX_CHECKPOINTS))
    }

    /// A timeline that keeps at most `max_checkpoints` checkpoints (at least 2).
    pub fn with_max_checkpoints(sim: Simulation, max_checkpoints: usize) -> Timeline {
        let step = sim.engine().step_count();
        Timeline {
            checkpoints: vec![sim.clone()],
            current: sim,
            head: None,
            interval: 1,
            max_checkpoints: max_checkpoints.max(2),
            furthest: step,
            probe: None,
            length: None,
            phase_firsts: Vec::new(),
        }
    }

    /// The most checkpoints this timeline keeps.
    pub fn max_checkpoints(&self) -> usize {
        self.max_checkpoints
    }

    /// The shown state.
    pub fn current(&self) -> &Simulation {
        &self.current
    }

    /// The furthest state computed so far (the shown one, unless the view
    /// went back): its series cover every step computed.
    pub fn furthest_state(&self) -> &Simulation {
        self.head.as_ref().unwrap_or(&self.current)
    }

    /// The shown step.
    pub fn step_count(&self) -> u32 {
        self.current.engine().step_count()
    }

    /// The last step computed so far (the run's length once it is over).
    pub fn furthest(&self) -> u32 {
        self.furthest
    }

    /// The phases of the run computed so far, each with its first step
    /// ([`PhaseSteps::start`]) and its steps, the last one up to the
    /// furthest step.
    pub fn phases(&self) -> Vec<PhaseSteps> {
        let furthest = self.furthest_state();
        furthest.engine().stats().phases(furthest.engine().step_count())
    }

    /// The run's length as far as it is known: `(steps, true)` once the
    /// run is computed or measured ([`Timeline::measure`]) to its end, else
    /// `(max(furthest, probe's step, best), false)` with `best` the
    /// instance's lower bound.
    pub fn length(&self) -> (u32, bool) {
        let head = self.furthest_state();
        match self.length {
            Some(steps) => (steps, true),
            None if head.status() != Status::Running => (self.furthest, true),
            None => {
                let probed = self.probe.as_ref().map_or(0, |p| p.engine().step_count());
                (self.furthest.max(probed).max(head.bounds().best), false)
            }
        }
    }

    /// The first step of the phase after the one shown (SPEC §7
    /// `next-phase`): `start + 1` of the next phase with steps (the step
    /// after the boundary, the sum of the earlier phases' steps, so the
    /// shown phase is the new one), among the phases computed so far and,
    /// once the run is measured ([`Timeline::measure`]), all of its phases;
    /// `None` when there is none.
    pub fn next_phase_step(&self) -> Option<u32> {
        let now = self.step_count();
        let firsts = |phases: &[PhaseSteps]| -> Vec<u32> {
            phases
                .iter()
                .skip(1)
                .filter(|p| p.steps > 0)
                .map(|p| p.start() + 1)
                .collect()
        };
        let computed = firsts(&self.phases()).into_iter().find(|&first| first > now);
        computed.or_else(|| self.phase_firsts.iter().copied().find(|&first| first > now))
    }

    /// Measures the run's length without computing the timeline on (the
    /// shown and furthest steps stay): a copy of the furthest state, the
    /// *probe*, steps on by up to `n` steps; once it ends its step is the
    /// run's length and the copy is dropped. Returns the length once known.
    /// (The page measures a slice at a time, so that it can pace the run
    /// and draw how much of it is computed before the run is shown.)
    pub fn measure(&mut self, n: u32) -> Option<u32> {
        if self.length.is_none() && self.furthest_state().status() != Status::Running {
            self.length = Some(self.furthest);
        }
        if self.length.is_some() || n == 0 {
            self.probe = None;
            return self.length;
        }
        let mut probe = self.probe.take().unwrap_or_else(|| {
            let mut probe = self.furthest_state().clone();
            // Nobody draws the probe's steps.
            probe.set_record_links(false);
            probe
        });
        for _ in 0..n {
            if probe.status() != Status::Running {
                break;
            }
            probe.step();
        }
        if probe.status() == Status::Running {
            self.probe = Some(probe);
        } else {
            let end = probe.engine().step_count();
            self.length = Some(end);
            let phases = probe.engine().stats().phases(end);
            self.phase_firsts = phases
                .iter()
                .skip(1)
                .filter(|p| p.steps > 0)
                .map(|p| p.start() + 1)
                .collect();
        }
        self.length
    }

    /// The steps of the checkpoints kept, in order (for tests and the docs'
    /// memory bound).
    pub fn checkpoint_steps(&self) -> Vec<u32> {
        self.checkpoints.iter().map(|c| c.engine().step_count()).collect()
    }

    /// Steps forward from the shown step, at most `n` steps and not past the
    /// run's end; returns the shown state's status.
    ///
    /// Only the state shown after the `n` steps and the checkpoints taken
    /// on the way can be drawn, so only their steps record the links the
    /// page draws ([`Simulation::set_record_links`]) — once the run's
    /// length is known, which tells which step is its last; before that,
    /// every step records them.
    pub fn step(&mut self, n: u32) -> Status {
        for i in 0..n {
            let next = self.step_count() + 1;
            let shown = i + 1 == n
                || self.length.is_none_or(|end| next >= end)
                || (next > self.furthest && next.is_multiple_of(self.interval));
            self.current.set_record_links(shown);
            let more = self.step_once();
            self.current.set_record_links(true);
            if !more {
                break;
            }
        }
        self.look_ahead();
        self.current.status()
    }

    /// A shown state whose undelivered packets all sit at their
    /// destinations may be the run's last step before its length is known
    /// (`settle` needs it): the next call may hand them over and end the
    /// run without a step. A copy tries that call; if it ends the run at
    /// the same step, the shown state is that ending — so a first pass
    /// shows the last step once, finished, as the report counts it.
    fn look_ahead(&mut self) {
        if self.current.status() != Status::Running || !self.current.engine().all_home() {
            return;
        }
        let now = self.step_count();
        let mut next = self.current.clone();
        next.step();
        if next.status() == Status::Finished && next.engine().step_count() == now {
            self.current = next;
            if self.head.as_ref().is_some_and(|h| h.engine().step_count() == now) {
                self.head = None;
            }
        }
    }

    /// Steps forward until the run is over or `max_steps` steps were taken.
    pub fn run_steps(&mut self, max_steps: u32) -> Status {
        self.step(max_steps)
    }

    /// One step forward; false when the run is over.
    fn step_once(&mut self) -> bool {
        if self.current.status() != Status::Running {
            return false;
        }
        self.current.step();
        self.settle();
        let now = self.step_count();
        if now > self.furthest {
            self.furthest = now;
            if now.is_multiple_of(self.interval) {
                self.keep(self.current.clone());
            }
        }
        if self.head.as_ref().is_some_and(|h| h.engine().step_count() == now) {
            // The shown state has caught up with the furthest one (equal,
            // and its watch is the live one).
            self.head = None;
        }
        true
    }

    /// Keeps `state` (a copy of the furthest state, at a multiple of the
    /// interval past the last checkpoint) as a checkpoint, thinning the
    /// checkpoints when there are too many.
    fn keep(&mut self, state: Simulation) {
        self.checkpoints.push(state);
        if self.checkpoints.len() > self.max_checkpoints {
            let mut i = 0;
            self.checkpoints.retain(|_| {
                i += 1;
                i % 2 == 1
            });
            self.interval *= 2;
        }
    }

    /// Shows step `target`: the state that stepping forward from step 0
    /// shows at that step. Past the furthest step the run is computed on;
    /// past its end the view stops at the end. Returns the shown step.
    pub fn goto(&mut self, target: u32) -> u32 {
        let now = self.step_count();
        if target > now {
            if let Some(head) = self.head.take_if(|h| h.engine().step_count() <= target) {
                self.current = head;
            } else if self.current.watched().is_none() {
                // A later checkpoint is a shorter way forward (not when a
                // packet is watched: its trail must be extended step by step).
                self.restore(target, now + 1);
            }
        } else if target < now {
            // The checkpoint at step 0 is always kept, so this restores one.
            let old = self.restore(target, 0);
            if self.head.is_none() {
                debug_assert_eq!(old.as_ref().map(|o| o.engine().step_count()), Some(self.furthest));
                // The shown state was the furthest: keep it for the way back.
                self.head = old;
            }
        }
        let now = self.step_count();
        self.step(target.saturating_sub(now));
        self.settle();
        self.step_count()
    }

    /// A run whose last packets are delivered where they stand ends in a
    /// call that simulates no step ([`Simulation::step`]): once the run's
    /// length is known, a state at its last step is settled so, and shows
    /// the run finished with every delivery of that step counted.
    fn settle(&mut self) {
        if self.current.status() == Status::Running && self.length() == (self.step_count(), true) {
            self.current.step();
        }
    }

    /// Shows the step before the shown one (none before step 0); returns the shown step.
    pub fn step_back(&mut self) -> u32 {
        let now = self.step_count();
        self.goto(now.saturating_sub(1))
    }

    /// Replaces the shown state by a copy of the latest checkpoint at or
    /// before `target` if that checkpoint is at step `from` or later, and
    /// returns the state replaced; the watched packet and its trail carry
    /// over.
    fn restore(&mut self, target: u32, from: u32) -> Option<Simulation> {
        let i = self.checkpoints.partition_point(|c| c.engine().step_count() <= target);
        let checkpoint = &self.checkpoints[i.checked_sub(1)?];
        if checkpoint.engine().step_count() < from {
            return None;
        }
        let mut restored = checkpoint.clone();
        restored.copy_watch(&self.current);
        Some(std::mem::replace(&mut self.current, restored))
    }

    /// Follows one packet (or none); see [`Simulation::watch`]. The route
    /// is found by one replay from step 0 to the furthest step, and the
    /// shown state's trail is its part up to the shown step.
    pub fn watch(&mut self, packet: Option<u32>) -> Result<()> {
        match &mut self.head {
            Some(head) => {
                head.watch(packet)?;
                self.current.copy_watch(head);
            }
            None => self.current.watch(packet)?,
        }
        Ok(())
    }
}
