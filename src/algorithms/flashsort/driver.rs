//! Flashsort's phase driver, shared by the butterfly's recursion
//! ([`super::butterfly`]) and the arrays' ([`super::array`]): a queue of
//! named phases, each either steps of control messages (one per directed
//! link per step, the engine checks) or a routing by the §2.2 scheduler;
//! the recursion plans the next group of phases when the queue runs dry,
//! from where the packets stand then.
//!
//! # Complexity
//! O(links of the step) per control step; a routing step is the
//! scheduler's O(nodes + edges) of its levels.

use super::relay::{Relay, Step, Steps};
use crate::algorithms::lmrr::leveled::Description;
use crate::algorithms::lmrr::round;
use crate::algorithms::lmrr::scheduler::{Counts, Problem, Scheduler};
use crate::algorithms::EdgeQueues;
use crate::engine::{ControlKind, Engine};
use crate::report::{FlashsortLevel, LmrrFields};
use crate::rng::{Rng, Stream};
use std::collections::VecDeque;
use std::sync::Arc;

/// The last phase's name (on an array, the first word of each of its
/// per-dimension phases).
pub const FINAL: &str = "final-route";

/// A sort's last routing that does not end the run (each of Columnsort's
/// sorts): every packet to its rank's row, not delivered.
pub const PLACE: &str = "place";

/// Where a sort puts its packets, and how it names its phases.
#[derive(Clone, Default)]
pub struct Target {
    /// The packet of rank g (among the sort's) ends at position lo + g (a
    /// butterfly's level-0 row, a mesh's node).
    pub lo: u32,
    /// Balanced slots (the lightly loaded sort of [`super::columnsort`]).
    pub slots: bool,
    /// Which sort this is, said in every phase's parentheses (Columnsort's
    /// `sort 2 of 4, rows 32-63`; empty for the one sort of all keys).
    pub context: String,
    /// The run's last sort: its final routing delivers (`final-route`);
    /// otherwise it only places the packets (`place`).
    pub last: bool,
}

impl Target {
    /// The sort of all keys, ranks to positions, delivered at the end.
    pub fn all() -> Target {
        Target {
            last: true,
            ..Target::default()
        }
    }

    /// A phase's name: `name (context, what)`, or `name (what)` without a
    /// context (and `name (context)` or `name` without `what`).
    pub fn named(&self, name: &str, what: &str) -> String {
        match (self.context.as_str(), what) {
            ("", "") => name.to_string(),
            ("", w) => format!("{name} ({w})"),
            (c, "") => format!("{name} ({c})"),
            (c, w) => format!("{name} ({c}, {w})"),
        }
    }
}

/// The most packets any one node receives, given where each packet goes
/// (a recursion level's `input_load`; 0 if none goes anywhere).
pub fn most_per_node(places: impl IntoIterator<Item = u32>) -> u32 {
    let mut count = std::collections::HashMap::new();
    for v in places {
        *count.entry(v).or_insert(0u32) += 1;
    }
    count.into_values().max().unwrap_or(0)
}

/// What a phase does, step by step.
#[derive(Clone)]
pub enum Work {
    /// Control messages: the links of each step, and the next step.
    Control(Arc<Steps>, usize),
    /// Control messages of a relay played as the phase runs.
    Relay(Box<Relay>),
    /// A routing by the §2.2 scheduler, the real step of its logical step
    /// (two on a hypercube's final routing), and whether that logical step
    /// changed anything (a step of it that moves nothing is then no stall).
    Route(Box<Scheduler>, u8, bool),
}

#[derive(Clone)]
pub struct Phase {
    pub name: String,
    pub work: Work,
    /// The recursion level it belongs to (an index of `levels`), if any.
    pub level: Option<usize>,
    /// Packets at their rank's node once they know their rank, delivered
    /// in the phase's last step (the last before the final routing).
    pub home: Vec<u32>,
    /// The levels its packets must cross at least (a routing's delay is
    /// its steps minus this).
    pub distance: u32,
}

impl Phase {
    fn finished(&self) -> bool {
        match &self.work {
            Work::Control(steps, at) => *at >= steps.len(),
            Work::Relay(relay) => relay.done(),
            Work::Route(s, sub, _) => s.remaining() == 0 && *sub == 0,
        }
    }
}

/// The queue of phases and what the run reports of them.
#[derive(Clone)]
pub struct Driver {
    pub q: u32,
    pub rng: Rng,
    pub queue: VecDeque<Phase>,
    current: Option<Phase>,
    started: u32,
    pub fields: LmrrFields,
    counts: Counts,
    pub levels: Vec<FlashsortLevel>,
}

impl Driver {
    /// An empty driver: edge queues of `q`, the algorithm's random stream of `seed`.
    pub fn new(seed: u64, q: u32) -> Driver {
        Driver {
            q,
            rng: Rng::new(seed, Stream::Algorithm),
            queue: VecDeque::new(),
            current: None,
            started: 0,
            fields: LmrrFields {
                edge_queue_cap: q,
                ..LmrrFields::default()
            },
            counts: Counts::default(),
            levels: Vec::new(),
        }
    }

    /// The routing of `packets` (engine id, path on `desc`) by the §2.2
    /// scheduler, ranks from [1, c + L + ⌈log₂ n⌉]; its c and L. `None`
    /// if no packet moves.
    pub fn routing(
        &mut self,
        engine: &Engine,
        desc: &dyn Description,
        packets: &[(u32, Vec<u32>)],
    ) -> Option<(Scheduler, u32, u32)> {
        let laid = round::lay_out(desc, packets, engine)?;
        let c = laid.paths.congestion(laid.net.edges());
        let l = laid.paths.dilation();
        let log_n = (laid.ids.len() as u32).next_power_of_two().trailing_zeros();
        let r = (c + l + log_n).max(1);
        let rank = (0..laid.ids.len()).map(|_| 1 + self.rng.below(r)).collect();
        let f = &mut self.fields;
        f.congestion = f.congestion.max(c);
        f.leveled_congestion = f.leveled_congestion.max(c);
        f.dilation = f.dilation.max(l);
        f.levels = f.levels.max(laid.hi - laid.lo + 1);
        f.log_n = f.log_n.max(log_n);
        f.ranks = f.ranks.max(r);
        let problem = Problem {
            net: Arc::new(laid.net),
            paths: Arc::new(laid.paths),
            ids: laid.ids,
            rank,
            dest: laid.dest,
            stages: vec![("route", u32::MAX)],
        };
        let check = engine.config().check_invariants;
        Some((Scheduler::new(problem, self.q, false, check), c, l))
    }

    /// Whether every phase queued has been played out (after the step that
    /// closed the last one): for tests that play phases of their own.
    #[cfg(test)]
    pub fn idle(&self) -> bool {
        self.current.is_none() && self.queue.is_empty()
    }

    /// Queues a relay's control phase, played as it runs (none if it has
    /// nothing to send).
    pub fn push_relay(&mut self, name: String, relay: Relay, level: Option<usize>) {
        if !relay.done() {
            self.queue.push_back(Phase {
                name,
                work: Work::Relay(Box::new(relay)),
                level,
                home: Vec::new(),
                distance: 0,
            });
        }
    }

    /// Queues a control phase (none if it has no step).
    pub fn push_control(&mut self, name: String, steps: Steps, level: Option<usize>) {
        if !steps.is_empty() {
            let work = Work::Control(Arc::new(steps), 0);
            self.queue.push_back(Phase {
                name,
                work,
                level,
                home: Vec::new(),
                distance: 0,
            });
        }
    }

    /// Queues a routing phase.
    pub fn push_route(&mut self, name: String, s: Scheduler, level: Option<usize>, distance: u32) {
        self.queue.push_back(Phase {
            name,
            work: Work::Route(Box::new(s), 0, false),
            level,
            home: Vec::new(),
            distance,
        });
    }

    /// Closes the current phase: its steps to its recursion level.
    fn close(&mut self, engine: &Engine) {
        let Some(phase) = self.current.take() else {
            return;
        };
        let steps = engine.step_count() - self.started;
        if let Work::Route(s, ..) = &phase.work {
            let c = s.counts();
            self.counts.ghosts += c.ghosts;
            self.counts.eos += c.eos;
            self.counts.max_edge_queue = self.counts.max_edge_queue.max(c.max_edge_queue);
        }
        if let Some(level) = phase.level.and_then(|i| self.levels.get_mut(i)) {
            level.steps += steps;
            if matches!(phase.work, Work::Route(..)) {
                // A level routed in parts (a mesh's orthants) adds them up.
                level.route_steps += steps;
                level.delay += steps.saturating_sub(phase.distance);
            }
        }
    }

    /// Names the first phase from step 0 on, planning until one is queued.
    pub fn begin(&mut self, engine: &mut Engine, mut plan: impl FnMut(&mut Driver, &Engine) -> bool) {
        while self.queue.is_empty() && plan(self, engine) {}
        if let Some(first) = self.queue.front() {
            engine.begin_phase(&first.name);
        }
    }

    /// Plays the coming step: the current phase's, or the next one's
    /// (`plan` queues more when the queue is empty; false when the sort
    /// is planned out). `real` maps a control message's (node, port) to
    /// the real link, `None` for an edge inside a node.
    pub fn step(
        &mut self,
        engine: &mut Engine,
        mut plan: impl FnMut(&mut Driver, &Engine) -> bool,
        real: impl Fn(u32, u32) -> Option<(u32, u32)>,
    ) {
        loop {
            if self.current.as_ref().is_some_and(|p| !p.finished()) {
                break;
            }
            self.close(engine);
            if let Some(phase) = self.queue.pop_front() {
                engine.begin_phase(&phase.name);
                if phase.name.starts_with(FINAL) {
                    engine.set_deliver_on_arrival(true);
                }
                self.started = engine.step_count();
                self.current = Some(phase);
            } else if !plan(self, engine) {
                return;
            }
        }
        let Some(phase) = self.current.as_mut() else {
            return;
        };
        let send = |engine: &mut Engine, step: &Step| {
            for (v, port) in step.sends() {
                // A straight edge inside a hypercube node takes no link.
                if let Some((node, port)) = real(v, port) {
                    let ok = engine.send_control_as(node, port, ControlKind::Message);
                    assert!(ok, "flashsort: link ({node}, port {port}) taken twice in one step");
                }
            }
            engine.mark_busy();
        };
        match &mut phase.work {
            Work::Control(steps, at) => {
                send(engine, &steps[*at]);
                *at += 1;
                if *at == steps.len() {
                    engine.deliver_in_coming_step(&phase.home);
                }
            }
            Work::Relay(relay) => {
                if let Some(step) = relay.next_step() {
                    send(engine, &step);
                }
                if relay.done() {
                    engine.deliver_in_coming_step(&phase.home);
                }
            }
            Work::Route(s, sub, progress) => {
                if *sub == 0 {
                    *progress = s.step();
                    engine.note_control_queue(s.counts().max_ctrl_queue);
                }
                round::carry_out(s, *sub, engine);
                if *progress {
                    engine.mark_busy();
                }
                *sub = (*sub + 1) % s.problem().net.substeps;
            }
        }
    }

    /// The packets in the current routing's edge queues, per directed link
    /// of a real network of `nodes` × `ports` links.
    pub fn edge_queues(&self, nodes: u32, ports: u32) -> EdgeQueues {
        let mut queues = EdgeQueues::empty(self.q, nodes * ports);
        if let Some(Phase {
            work: Work::Route(s, ..),
            ..
        }) = &self.current
        {
            round::add_edge_occupancy(s, ports, &mut queues);
        }
        queues
    }

    /// The lmrr fields of the report (the routings' together), the routing
    /// under way included: the sort's last routing is never closed (the
    /// run ends in it), and its ghosts, end-of-stream messages and edge
    /// queues were once left out of the report.
    pub fn lmrr_fields(&self) -> LmrrFields {
        let mut counts = self.counts;
        if let Some(Phase {
            work: Work::Route(s, ..),
            ..
        }) = &self.current
        {
            let c = s.counts();
            counts.ghosts += c.ghosts;
            counts.eos += c.eos;
            counts.max_edge_queue = counts.max_edge_queue.max(c.max_edge_queue);
        }
        LmrrFields {
            ghosts: counts.ghosts,
            eos: counts.eos,
            max_edge_queue: counts.max_edge_queue,
            ..self.fields.clone()
        }
    }
}
