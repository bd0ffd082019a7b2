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
//! as it reaches the target of the current one. A plan may ask for the
//! paper's lexicographic priority when pipelined (§3: "a packet doing its
//! phase i has absolute priority over a packet doing its phase j, when i <
//! j"): before every step, of the packets whose next hop is over the same
//! link only those in the earliest phase are eligible, so the run's policy
//! picks among them (local computation at the node, which knows its
//! packets' phases).
//!
//! With barriers, a plan may also *rank* the packets of a phase (LevelRoute's
//! improved version, §6: the packets randomizing in the slack of pass 1
//! yield to the packets routing): before every step of a ranked phase, of
//! the packets whose next hop is over the same link only those of the
//! smallest rank are eligible, the same rule as the lexicographic priority.
//!
//!
//! A plan may route a phase in two legs ([`PhasePlan::legs`]): a packet
//! that reaches its target is given the target of the same phase from
//! where it is, so it goes on without waiting for a barrier (LevelRoute's
//! superior regions, §6.1.1: randomize, then route).
//!
//! With barriers, a plan may also *hold* a barrier closed after its
//! packets arrived ([`PhasePlan::hold`]): NoLRoute's first phase lasts until
//! the nodes know their estimate of the locality (`ks_nol.rs`).
//!
//!
//! # Queue smearing
//! With barriers, a plan may have the packets parked at a barrier smeared
//! before the next phase opens (Kaufmann–Sibeyn §7.5, Theorem 6; the
//! primitive is [`crate::primitives::smear`]): [`PhasePlan::smear_axis`]
//! names the axis along which each packet is smeared, and
//! [`Phased::with_smear`] the block length m. The smear between phase i and
//! phase i + 1 is reported as its own phase, `smear{i}`; one that moves
//! nothing (m = 1) takes no step and is not reported. Each packet is placed
//! among its node's packets by its target coordinate in the next phase, so
//! that a packet bound for the low end of the line tends to be smeared
//! towards it. The driver also records the largest load (packets held at
//! a node) at the opening of each phase, the quantity §7.5 bounds.
//!
//! # Complexity
//! O(packets) per phase change; O(arrivals) per step when pipelined, and
//! O(packets) per step with the lexicographic priority or in a ranked
//! phase; a smear O(d·N + packets·log packets) to set up.

use crate::engine::Engine;
use crate::primitives::smear::{Item, SmearTask};
use crate::primitives::Task;
use crate::topology::Network;

/// A phase's index (0-based). `ks-level` has a phase per level and pass,
/// about k/2 + 2 of them: more than a byte holds from k = 508 (a 24 × 24
/// mesh's random 520-520 routing once stalled on the wrapped index).
pub(crate) type PhaseNo = u16;

/// What a phased algorithm decides: how many phases, their report names,
/// and each packet's target and drawing class in each phase.
pub(crate) trait PhasePlan {
    /// Number of phases (at least 1).
    fn count(&self) -> PhaseNo;
    /// The report name of `phase` (0-based) with barriers.
    fn name(&self, phase: PhaseNo) -> &str;
    /// The report name of the single phase of a pipelined run.
    fn pipelined_name(&self) -> &str;
    /// The target of `p` in `phase`, from where it is now.
    fn target(&self, engine: &Engine, p: u32, phase: PhaseNo) -> u32;
    /// The drawing class of `p` in `phase`.
    fn class(&self, p: u32, phase: PhaseNo) -> u8;
    /// Which way `p` goes round a ring in `phase` when both ways are
    /// equally short (`Some(true)`: the negative way); `None` keeps the
    /// engine's rule (SPEC §2).
    fn tie(&self, _p: u32, _phase: PhaseNo) -> Option<bool> {
        None
    }
    /// Whether, pipelined, earlier phases have absolute priority over later
    /// ones on a link (Kaufmann–Sibeyn §3, "Coalescing phases").
    fn lexicographic(&self) -> bool {
        false
    }
    /// With barriers: whether `phase` ranks its packets (a smaller rank has
    /// absolute priority on a link; see [`PhasePlan::rank`]).
    fn ranked(&self, _phase: PhaseNo) -> bool {
        false
    }
    /// With barriers, in a ranked phase: the rank of `p` (smaller first),
    /// from where it is (asked when the phase opens and when a packet
    /// starts its second leg, [`PhasePlan::legs`]).
    fn rank(&self, _engine: &Engine, _p: u32, _phase: PhaseNo) -> u8 {
        0
    }
    /// Queue smearing (§7.5): the axis along which `p` is smeared at the
    /// barrier before `phase` (≥ 1) — the axis it moves along in `phase`,
    /// so that the smear undoes no progress made along the other axes — or
    /// `None` (the default): not smeared.
    fn smear_axis(&self, _p: u32, _phase: PhaseNo) -> Option<usize> {
        None
    }
    /// Whether a packet may route in two legs in `phase`: on reaching its
    /// target it asks [`PhasePlan::target`] again from where it is and, if
    /// that is elsewhere, goes on within the same phase (LevelRoute's
    /// superior regions, §6.1.1: randomize, then route, with no barrier
    /// between). The default: one leg.
    fn legs(&self, _phase: PhaseNo) -> bool {
        false
    }
    /// With barriers: whether the barrier after `phase` stays closed even
    /// though its packets have all arrived (NoLRoute, §9.2: phase 1 lasts
    /// until the estimate of L is known, after step n). The default: never.
    fn hold(&self, _phase: PhaseNo) -> bool {
        false
    }
}

/// Drives a [`PhasePlan`] from an algorithm's `start` and `before_step`.
#[derive(Debug, Clone)]
pub(crate) struct Phased<P> {
    plan: P,
    pipeline: bool,
    /// Barrier mode: the open phase.
    phase: PhaseNo,
    /// Pipelined mode: each packet's phase; barriers, in a ranked phase:
    /// each packet's rank. Either way smaller goes first on a link.
    packet_phase: Vec<PhaseNo>,
    /// Barrier mode: whether the open phase is ranked.
    ranked: bool,
    /// Lexicographic priority: the earliest phase bidding for each link
    /// this step (`PhaseNo::MAX` for none), and the links set, to reset.
    link_phase: Vec<PhaseNo>,
    links: Vec<(u32, Option<u32>)>,
    /// Barrier mode: the smear's block length, if smearing.
    smear: Option<u32>,
    /// The smear in progress at the barrier before `phase + 1`.
    smearing: Option<SmearTask>,
    /// Barrier mode: the most packets held at one node when a phase opened.
    barrier_load: u32,
}

impl<P: PhasePlan> Phased<P> {
    /// A schedule of `plan`, pipelined if `pipeline`.
    pub(crate) fn new(plan: P, pipeline: bool) -> Self {
        Phased {
            plan,
            pipeline,
            phase: 0,
            packet_phase: Vec::new(),
            ranked: false,
            link_phase: Vec::new(),
            links: Vec::new(),
            smear: None,
            smearing: None,
            barrier_load: 0,
        }
    }

    /// Smears the parked packets in blocks of `m` nodes at every barrier
    /// (barrier mode on a grid only; `None`: no smearing).
    pub(crate) fn with_smear(mut self, m: Option<u32>) -> Self {
        self.smear = m;
        self
    }

    /// The smear's block length, if smearing.
    pub(crate) fn smear_block(&self) -> Option<u32> {
        self.smear
    }

    /// The most packets held at one node (working queue plus those still at
    /// their source) when a phase opened, barrier mode.
    pub(crate) fn barrier_load(&self) -> u32 {
        self.barrier_load
    }

    fn note_barrier_load(&mut self, engine: &Engine) {
        let loads = engine.working_queues().iter().zip(engine.waiting_at_source());
        let most = loads.map(|(w, s)| w + s).max().unwrap_or(0);
        self.barrier_load = self.barrier_load.max(most);
    }

    /// The plan.
    pub(crate) fn plan(&self) -> &P {
        &self.plan
    }

    fn enter(&self, engine: &mut Engine, p: u32, phase: PhaseNo) {
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
            self.prioritize(engine);
        } else {
            engine.begin_phase(self.plan.name(0));
            for p in active {
                self.enter(engine, p, 0);
            }
            self.rank_phase(engine);
            self.note_barrier_load(engine);
            self.open_barriers(engine);
        }
    }

    /// Barriers: ranks the packets of the open phase if the plan ranks it
    /// (and then applies the ranks to this step's bids).
    fn rank_phase(&mut self, engine: &mut Engine) {
        self.ranked = self.plan.ranked(self.phase);
        if self.ranked {
            self.packet_phase.resize(engine.packet_count() as usize, 0);
            for p in engine.active() {
                self.packet_phase[p as usize] = self.plan.rank(engine, p, self.phase).into();
            }
            self.prioritize(engine);
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
            self.prioritize(engine);
        } else {
            // Second legs first (re-ranked in a ranked phase), before the
            // bids are ranked and the barrier looks at what is unsettled.
            if self.plan.legs(self.phase) {
                let arrived = engine.arrived_at_target().to_vec();
                for p in arrived {
                    if self.plan.target(engine, p, self.phase) != engine.position(p) {
                        self.enter(engine, p, self.phase);
                        if self.ranked {
                            self.packet_phase[p as usize] = self.plan.rank(engine, p, self.phase).into();
                        }
                    }
                }
            }
            if self.ranked {
                // The eligibility of this step's bids, so that a packet
                // held back in the last step counts as unsettled again.
                self.prioritize(engine);
            }
            self.open_barriers(engine);
        }
    }

    /// Pipelined with the lexicographic priority: of the packets whose next
    /// hop is over the same link, only those in the earliest phase are
    /// eligible this step.
    fn prioritize(&mut self, engine: &mut Engine) {
        if self.pipeline && !self.plan.lexicographic() {
            return;
        }
        let ports = engine.topology().ports();
        if self.link_phase.is_empty() {
            self.link_phase = vec![PhaseNo::MAX; (engine.topology().nodes() * ports) as usize];
        }
        let mut links = std::mem::take(&mut self.links);
        links.clear();
        for p in engine.active() {
            let link = engine.next_hop(p).map(|hop| engine.position(p) * ports + hop.port);
            if let Some(l) = link {
                let earliest = &mut self.link_phase[l as usize];
                *earliest = (*earliest).min(self.packet_phase[p as usize]);
            }
            links.push((p, link));
        }
        for &(p, link) in &links {
            let first = link.is_none_or(|l| self.link_phase[l as usize] == self.packet_phase[p as usize]);
            engine.set_eligible(p, first);
        }
        for &(_, link) in &links {
            if let Some(l) = link {
                self.link_phase[l as usize] = PhaseNo::MAX;
            }
        }
        self.links = links;
    }

    /// The plan, to change (open-loop traffic: the choices for a new packet).
    pub(crate) fn plan_mut(&mut self) -> &mut P {
        &mut self.plan
    }

    /// Pipelined, open-loop traffic (SPEC §6): `p` has just been injected
    /// (its id may be a delivered packet's); it enters the first phase and
    /// moves on through the phases whose targets it is already at.
    pub(crate) fn admit(&mut self, engine: &mut Engine, p: u32) {
        debug_assert!(self.pipeline, "open-loop traffic has no barriers");
        let i = p as usize;
        if self.packet_phase.len() <= i {
            self.packet_phase.resize(i + 1, 0);
        }
        self.packet_phase[i] = 0;
        self.enter(engine, p, 0);
        self.advance(engine, p);
    }

    /// Pipelined: moves `p` on to its next phases while it is at its target.
    fn advance(&mut self, engine: &mut Engine, p: u32) {
        let i = p as usize;
        let last = self.plan.count() - 1;
        while engine.position(p) == engine.target(p) {
            let phase = self.packet_phase[i];
            if self.plan.legs(phase) && self.plan.target(engine, p, phase) != engine.position(p) {
                // The phase's second leg.
                self.enter(engine, p, phase);
                break;
            }
            if phase >= last {
                break;
            }
            self.packet_phase[i] += 1;
            self.enter(engine, p, self.packet_phase[i]);
        }
    }

    /// Barriers: a phase that is over (or empty) gives way to the next,
    /// after the smear between them when smearing.
    fn open_barriers(&mut self, engine: &mut Engine) {
        let last = self.plan.count() - 1;
        loop {
            if let Some(task) = self.smearing.as_mut() {
                if task.poll(engine) {
                    return;
                }
                self.smearing = None;
            } else {
                if self.phase >= last || engine.unsettled() > 0 || engine.finished() || self.plan.hold(self.phase) {
                    return;
                }
                if let Some(task) = self.smear_task(engine) {
                    engine.begin_phase(&format!("smear{}", self.phase + 1));
                    self.smearing = Some(task);
                    continue;
                }
            }
            self.phase += 1;
            engine.begin_phase(self.plan.name(self.phase));
            let active = engine.active();
            let was_ranked = self.ranked;
            for p in active {
                self.enter(engine, p, self.phase);
                if was_ranked {
                    engine.set_eligible(p, true);
                }
            }
            self.rank_phase(engine);
            self.note_barrier_load(engine);
        }
    }

    /// The smear before phase `self.phase + 1`, if smearing on a grid: each
    /// packet along the axis the plan names, placed at its node by its
    /// target coordinate in that phase.
    fn smear_task(&self, engine: &Engine) -> Option<SmearTask> {
        let m = self.smear?;
        let grid = engine.topology().as_grid()?;
        let next = self.phase + 1;
        let items: Vec<Item> = engine
            .active()
            .into_iter()
            .filter_map(|p| {
                let axis = self.plan.smear_axis(p, next)?;
                let key = grid.coord(self.plan.target(engine, p, next), axis);
                Some(Item { packet: p, axis, key })
            })
            .collect();
        Some(SmearTask::new(engine, grid, m, &items))
    }
}

#[cfg(test)]
mod tests {
    use super::{PhaseNo, PhasePlan, Phased};
    use crate::engine::{Engine, EngineConfig};

    /// Two phases on a line: to `first[p]`, then to the destination.
    struct Line {
        first: Vec<u32>,
        lexicographic: bool,
    }

    impl PhasePlan for Line {
        fn count(&self) -> PhaseNo {
            2
        }
        fn name(&self, _phase: PhaseNo) -> &str {
            "phase"
        }
        fn pipelined_name(&self) -> &str {
            "pipelined"
        }
        fn target(&self, engine: &Engine, p: u32, phase: PhaseNo) -> u32 {
            if phase == 0 {
                self.first[p as usize]
            } else {
                engine.destination(p)
            }
        }
        fn class(&self, _p: u32, phase: PhaseNo) -> u8 {
            phase as u8
        }
        fn lexicographic(&self) -> bool {
            self.lexicographic
        }
    }

    /// On linear:5, packet 0 reaches its first target (node 1) in step 1
    /// and bids for 1→2 in phase 2 in step 2, farther from its target (3
    /// hops) than packet 2 (1 hop), which lost step 1 at node 1 to packet 1
    /// and is still in phase 1. Farthest-first alone moves packet 0; with
    /// the lexicographic priority packet 2 goes first.
    #[test]
    fn an_earlier_phase_has_absolute_priority_on_a_link() {
        for lexicographic in [false, true] {
            let topo = "linear:5".parse().unwrap();
            let config = EngineConfig {
                check_invariants: true,
                ..Default::default()
            };
            let mut engine = Engine::new(topo, &[(0, 4), (1, 3), (1, 2)], config);
            let plan = Line {
                first: vec![1, 3, 2],
                lexicographic,
            };
            let mut schedule = Phased::new(plan, true);
            schedule.start(&mut engine);
            for _ in 0..2 {
                schedule.before_step(&mut engine);
                engine.step();
            }
            let (p0, p2) = (engine.position(0), engine.position(2));
            if lexicographic {
                assert_eq!((p0, p2), (1, 2));
                assert!(engine.is_delivered(2));
            } else {
                assert_eq!((p0, p2), (2, 1));
            }
            while !engine.finished() {
                schedule.before_step(&mut engine);
                engine.step();
            }
        }
    }
}
