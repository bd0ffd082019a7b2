//! `flashsort`: Flashsort by routing on the butterfly, Leighton–Maggs–
//! Ranade–Rao §8 (Reif and Valiant's Flashsort with the §2.2 scheduler in
//! place of theirs, so that queues stay constant); the recovered text of
//! §8 is lost, `lmrr-sections-5-10-notes.md` gives its facts, and the
//! decisions below are ours (docs/algorithms/flashsort.md argues them).
//!
//! `butterfly:D`, N = 2^D keys, one per level-0 row; the keys end at level
//! 0 in row order (`level0-row`). The recursion climbs the butterfly:
//! recursion level t works in every subbutterfly B(k, P) (levels k..D, the
//! rows whose top k bits are P, M = 2^(D−k) inputs) at once, in three
//! phases ([`plan::level`]):
//!
//! 1. `candidates t`: each of the 2^h strata of B (h = ⌈m/2⌉, m = D − k)
//!    offers one packet of a node drawn at random — a random sample of
//!    about √M keys — and the candidates are ranked by comparing every
//!    pair: they are broadcast along the high and the low bits, compared
//!    at level D, and the counts summed back down (an all-reduce).
//! 2. `splitters t`: every (K/2^b)-th candidate is a splitter (2^b − 1 of
//!    them, b = h − [`OVERSAMPLE_LOG`], about every fourth); the holders send them down to
//!    level k, so every node there knows them.
//! 3. `intervals t`: splitter-directed routing — a packet's interval is
//!    the number of splitters below its key, and it climbs b levels into
//!    the subbutterfly B(k + b, P·interval) of its interval, scheduled by
//!    the §2.2 scheduler (random ranks, ghosts, end-of-stream, edge queues
//!    of q: `lmrr`'s own).
//!
//! When m ≤ [`LEAF_LEVELS`] (leaves of at most 2^LEAF_LEVELS = 16 inputs) the
//! recursion stops ([`plan::leaf`]): `leaf-sort` ranks every leaf's keys
//! deterministically by all-pairs comparison (a flood up the leaf and the
//! ranks straight back down), `offsets` prefix-sums the leaves' counts down
//! to level 0 and back, and `final-route` takes every packet to its rank's
//! row at level 0 (up the leaf, then down the butterfly: [`updown`]),
//! scheduled as before.
//!
//! Every message of the control phases is a control message on a link
//! ([`relay`]); every packet move is the scheduler's. Nothing is charged by
//! formula. On `hypercube:D` the same runs on the butterfly the hypercube
//! emulates ([`host`]). Not built (issue #27): the lightly loaded subroutine and
//! Columnsort around it (here every key goes through one recursion, so a
//! subbutterfly may receive more packets than it has inputs — measured
//! as `max_queue`), the shuffle-exchange (§9)
//! and d-dimensional arrays (§10).
//!
//! # Complexity
//! Planning a recursion level is O(N·D) time (the relays' messages); each
//! routing step is the scheduler's O(nodes + edges) of its levels.

mod host;
mod plan;
mod relay;
mod updown;

use super::claim::{Claim, Formula, Measure, Scope, Strength};
use super::lmrr::leveled::Description;
use super::lmrr::round;
use super::lmrr::scheduler::{Counts, Problem, Scheduler};
use super::lmrr::DEFAULT_QUEUE_CAP;
use super::papers::LMRR;
use super::teaching::{Classes, PhaseText, Teaching};
use super::{Algorithm, AlgorithmOptions, EdgeQueues, Entry, Mark, Packets, Shape};
use crate::engine::{ControlKind, Engine};
use crate::error::{Error, Result};
use crate::report::{Extra, FlashsortFields, FlashsortLevel, LmrrFields};
use crate::rng::{Rng, Stream};
use crate::topology::{Kind, Topology};
use crate::workload::Instance;
use host::Host;
use plan::Holdings;
use relay::Steps;
use std::collections::VecDeque;
use std::sync::Arc;

/// The SPEC §5 name.
pub const NAME: &str = "flashsort";

/// The last phase's name.
const FINAL: &str = "final-route";

/// The recursion stops at subbutterflies of at most 2^LEAF_LEVELS = 16 inputs.
pub const LEAF_LEVELS: u32 = 4;

/// Oversampling: 2^OVERSAMPLE_LOG = 4 candidates per interval, on average
/// (with LEAF_LEVELS = 4, the fastest of the pairs measured at D = 10, 12,
/// 14: docs/algorithms/flashsort.md).
pub const OVERSAMPLE_LOG: u32 = 2;

/// What a phase does, step by step.
#[derive(Clone)]
enum Work {
    /// Control messages: the links of each step, and the next step.
    Control(Arc<Steps>, usize),
    /// A routing by the §2.2 scheduler, and the real step of its logical
    /// step (two on a hypercube's final routing).
    Route(Box<Scheduler>, u8),
}

#[derive(Clone)]
struct Phase {
    name: String,
    work: Work,
    /// The recursion level it belongs to (an index of `levels`), if any.
    level: Option<usize>,
    /// Packets at their rank's node once they know their rank, delivered
    /// in the phase's last step (the last before the final routing): on a
    /// hypercube, or a butterfly of at most 2^LEAF_LEVELS rows, a key may
    /// stand at its rank's node already.
    home: Vec<u32>,
}

impl Phase {
    fn finished(&self) -> bool {
        match &self.work {
            Work::Control(steps, at) => *at >= steps.len(),
            Work::Route(s, sub) => s.remaining() == 0 && *sub == 0,
        }
    }
}

/// Where the recursion goes next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// A recursion level at level k of the butterfly.
    Level(u32),
    /// The leaves at level k.
    Leaf(u32),
    Done,
}

/// `flashsort`: the recursion's phases, planned one group at a time.
#[derive(Clone)]
pub struct Flashsort {
    seed: u64,
    q: u32,
    rng: Rng,
    dim: u32,
    host: Option<Host>,
    keys: Vec<u64>,
    active: Vec<u32>,
    next: Next,
    queue: VecDeque<Phase>,
    current: Option<Phase>,
    started: u32,
    fields: LmrrFields,
    counts: Counts,
    levels: Vec<FlashsortLevel>,
}

impl Flashsort {
    /// Reads the seed and `queue_cap` (q).
    pub fn new(options: &AlgorithmOptions) -> Self {
        Flashsort {
            seed: options.seed,
            q: options.queue_cap.unwrap_or(DEFAULT_QUEUE_CAP),
            rng: Rng::new(options.seed, Stream::Algorithm),
            dim: 0,
            host: None,
            keys: Vec::new(),
            active: Vec::new(),
            next: Next::Done,
            queue: VecDeque::new(),
            current: None,
            started: 0,
            fields: LmrrFields::default(),
            counts: Counts::default(),
            levels: Vec::new(),
        }
    }

    /// The routing of `packets` (engine id, path on `desc`) by the §2.2
    /// scheduler, ranks from [1, c + L + ⌈log₂ n⌉]; its c. `None` if no
    /// packet moves.
    fn routing(
        &mut self,
        engine: &Engine,
        desc: &dyn Description,
        packets: &[(u32, Vec<u32>)],
    ) -> Option<(Scheduler, u32)> {
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
        Some((Scheduler::new(problem, self.q, false, check), c))
    }

    fn push_control(&mut self, name: String, steps: Steps, level: Option<usize>) {
        if !steps.is_empty() {
            let work = Work::Control(Arc::new(steps), 0);
            self.queue.push_back(Phase {
                name,
                work,
                level,
                home: Vec::new(),
            });
        }
    }

    /// Plans the next group of phases; false when the sort is planned out.
    fn plan_next(&mut self, engine: &Engine) -> bool {
        let d = self.dim;
        let n = 1u32 << d;
        let Some(host) = self.host.clone() else {
            return false;
        };
        match self.next {
            Next::Done => false,
            Next::Level(k) if d - k <= LEAF_LEVELS => {
                self.next = Next::Leaf(k);
                true
            }
            Next::Level(k) => {
                let m = d - k;
                let h = m.div_ceil(2);
                let b = h.saturating_sub(OVERSAMPLE_LOG).clamp(1, m - LEAF_LEVELS);
                let lv = plan::Level { dim: d, k, h, b };
                let hold = Holdings::of(engine, &host, k, &self.active, &self.keys);
                let plan = plan::level(lv, &host, &hold, &mut self.rng);
                let t = self.levels.len() + 1;
                let count = match k {
                    0 => "1 subbutterfly".to_string(),
                    _ => format!("{} subbutterflies", 1u32 << k),
                };
                let what = format!("recursion level {t}: {count} of {} inputs", 1u32 << m);
                let net = host.climb();
                let packets: Vec<(u32, Vec<u32>)> = plan
                    .moves
                    .iter()
                    .map(|&(p, row)| (p, host.climb_path(k, engine.position(p) % n, k + b, row)))
                    .collect();
                let routing = self.routing(engine, &net, &packets);
                self.levels.push(FlashsortLevel {
                    level: k,
                    inputs: 1 << m,
                    candidates: plan.candidates,
                    intervals: 1 << b,
                    congestion: routing.as_ref().map_or(0, |r| r.1),
                    route_steps: 0,
                    delay: 0,
                    steps: 0,
                });
                let at = Some(self.levels.len() - 1);
                self.push_control(format!("candidates {t} ({what})"), plan.rank_steps, at);
                self.push_control(format!("splitters {t} ({what})"), plan.spread_steps, at);
                if let Some((s, _)) = routing {
                    let name = format!("intervals {t} ({what}, into {} intervals each)", 1u32 << b);
                    self.queue.push_back(Phase {
                        name,
                        work: Work::Route(Box::new(s), 0),
                        level: at,
                        home: Vec::new(),
                    });
                }
                self.next = Next::Level(k + b);
                true
            }
            Next::Leaf(k) => {
                let hold = Holdings::of(engine, &host, k, &self.active, &self.keys);
                let plan = plan::leaf(k, &host, &hold);
                self.push_control("leaf-sort".into(), plan.rank_steps, None);
                self.push_control("offsets".into(), plan.offset_steps, None);
                let net = host.final_route(k);
                let packets: Vec<(u32, Vec<u32>)> = plan
                    .ranks
                    .iter()
                    .map(|&(p, g)| {
                        debug_assert_eq!(engine.destination(p), g, "the rank's row at level 0");
                        (p, net.path(engine.position(p) % n, g))
                    })
                    .collect();
                let home = plan
                    .ranks
                    .iter()
                    .filter(|&&(p, _)| engine.position(p) == engine.destination(p))
                    .map(|&(p, _)| p)
                    .collect();
                if let Some(last) = self.queue.back_mut() {
                    last.home = home;
                }
                if let Some((s, _)) = self.routing(engine, &net, &packets) {
                    self.queue.push_back(Phase {
                        name: FINAL.into(),
                        work: Work::Route(Box::new(s), 0),
                        level: None,
                        home: Vec::new(),
                    });
                }
                self.next = Next::Done;
                true
            }
        }
    }

    /// Closes the current phase: its steps to its recursion level.
    fn close(&mut self, engine: &Engine) {
        let Some(phase) = self.current.take() else {
            return;
        };
        let steps = engine.step_count() - self.started;
        if let Work::Route(s, _) = &phase.work {
            let c = s.counts();
            self.counts.ghosts += c.ghosts;
            self.counts.eos += c.eos;
            self.counts.max_edge_queue = self.counts.max_edge_queue.max(c.max_edge_queue);
        }
        if let Some(level) = phase.level.and_then(|i| self.levels.get_mut(i)) {
            level.steps += steps;
            if matches!(phase.work, Work::Route(..)) {
                level.route_steps = steps;
                let b = level.intervals.trailing_zeros();
                level.delay = steps.saturating_sub(b);
            }
        }
    }
}

impl Algorithm for Flashsort {
    fn name(&self) -> &'static str {
        NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        if !(1..=super::lmrr::MAX_QUEUE_CAP).contains(&self.q) {
            return Err(Error::invalid(
                "queue-cap",
                self.q,
                format!(
                    "flashsort's edge queues hold 1 to {} packets",
                    super::lmrr::MAX_QUEUE_CAP
                ),
            ));
        }
        let Some(host) = Host::of(&instance.topology) else {
            return Err(Error::unsupported(
                NAME,
                format!(
                    "runs on butterflies and hypercubes (by emulation) only, got {}",
                    instance.topology
                ),
            ));
        };
        let keys = instance
            .keys
            .as_ref()
            .ok_or_else(|| Error::unsupported(NAME, "needs a sorting instance (keys)"))?;
        self.dim = host.dim();
        // On a hypercube a climb may pass through a packet's rank's node:
        // packets are delivered only in the final routing.
        let cube = matches!(instance.topology, Topology::Hypercube(_));
        engine.set_deliver_on_arrival(!cube);
        self.host = Some(host);
        self.keys = keys.clone();
        self.active = engine.active();
        self.rng = Rng::new(self.seed, Stream::Algorithm);
        self.fields = LmrrFields {
            edge_queue_cap: self.q,
            ..LmrrFields::default()
        };
        for &p in &self.active {
            engine.set_eligible(p, false);
        }
        self.next = Next::Level(0);
        // The first phase is named from step 0 on.
        while self.queue.is_empty() && self.plan_next(engine) {}
        if let Some(first) = self.queue.front() {
            engine.begin_phase(&first.name);
        }
        Ok(())
    }

    fn before_step(&mut self, engine: &mut Engine) {
        loop {
            if self.current.as_ref().is_some_and(|p| !p.finished()) {
                break;
            }
            self.close(engine);
            if let Some(phase) = self.queue.pop_front() {
                engine.begin_phase(&phase.name);
                if phase.name == FINAL {
                    engine.set_deliver_on_arrival(true);
                }
                self.started = engine.step_count();
                self.current = Some(phase);
            } else if !self.plan_next(engine) {
                return;
            }
        }
        let Some(phase) = self.current.as_mut() else {
            return;
        };
        match &mut phase.work {
            Work::Control(steps, at) => {
                let host = self.host.as_ref().expect("started");
                for &(v, port) in &steps[*at] {
                    // A straight edge inside a hypercube node takes no link.
                    if let Some((node, port)) = host.real(v, port) {
                        let ok = engine.send_control_as(node, port, ControlKind::Message);
                        assert!(ok, "flashsort: link ({node}, port {port}) taken twice in one step");
                    }
                }
                *at += 1;
                if *at == steps.len() {
                    engine.deliver_in_coming_step(&phase.home);
                }
                engine.mark_busy();
            }
            Work::Route(s, sub) => {
                if *sub == 0 && s.step() {
                    engine.mark_busy();
                }
                round::carry_out(s, *sub, engine);
                *sub = (*sub + 1) % s.problem().net.substeps;
                engine.mark_busy();
            }
        }
    }

    fn uses_policy(&self) -> bool {
        false
    }

    fn queue_cap(&self) -> Option<u32> {
        Some(self.q)
    }

    fn marks(&self) -> &'static [Mark] {
        &[Mark::Ghost, Mark::EndOfStream, Mark::EdgeQueue]
    }

    fn edge_queues(&self) -> Option<EdgeQueues> {
        let (nodes, ports) = self.host.as_ref()?.real_links();
        let mut occupancy = vec![0u32; (nodes * ports) as usize];
        if let Some(Phase {
            work: Work::Route(s, _),
            ..
        }) = &self.current
        {
            let net = &s.problem().net;
            for e in 0..net.edges() {
                let port = net.port[e as usize];
                if port != super::lmrr::leveled::NONE {
                    let link = net.host[net.tail[e as usize] as usize] * ports + port;
                    occupancy[link as usize] += s.packets_in(e);
                }
            }
        }
        Some(EdgeQueues { cap: self.q, occupancy })
    }

    fn report_extra(&self) -> Extra {
        Extra {
            lmrr: Some(LmrrFields {
                ghosts: self.counts.ghosts,
                eos: self.counts.eos,
                max_edge_queue: self.counts.max_edge_queue,
                ..self.fields.clone()
            }),
            flashsort: Some(FlashsortFields {
                recursion: self.levels.clone(),
                leaf_inputs: 1 << LEAF_LEVELS.min(self.dim),
                oversampling: 1 << OVERSAMPLE_LOG,
            }),
            ..Extra::default()
        }
    }
}

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "Flashsort by routing: random splitters ranked by all-pairs comparison, splitter-directed routing by lmrr's scheduler, recursion on subbutterflies",
    paper: LMRR,
    section: "§8 (Flashsort on the butterfly and, by emulation, the hypercube; after Reif and Valiant)",
    kinds: &[Kind::Butterfly, Kind::Hypercube],
    shape: Shape::Any,
    packets: Packets::Sort,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    options: &[],
    teaching: &TEACHING,
    factory: |o| Box::new(Flashsort::new(o)),
};

/// flashsort.
pub const TEACHING: Teaching = Teaching {
    description: "Flashsort by routing (Reif and Valiant; Leighton–Maggs–Ranade–Rao §8): every subbutterfly draws a \
                  random sample of about √M of its keys, ranks them by comparing every pair, and keeps every fourth one \
                  as a splitter; each key then climbs into the subbutterfly of its interval between two \
                  splitters, scheduled by lmrr's random ranks with ghosts and edge queues of q, and the recursion \
                  goes on in every subbutterfly until it has at most 16 inputs. There the keys are ranked by \
                  comparing every pair, the leaves' counts are prefix-summed, and every key is routed to its \
                  rank's row at level 0.",
    phases: &[
        PhaseText {
            name: "candidates",
            text: "every stratum of the subbutterfly offers one random key; the candidates are broadcast along \
                   the high and the low row bits, compared in pairs at the top level, and the counts summed back \
                   down: each candidate learns its rank",
        },
        PhaseText {
            name: "splitters",
            text: "every fourth ranked candidate is a splitter; the splitters travel down to the subbutterfly's \
                   inputs, so every node there knows them",
        },
        PhaseText {
            name: "intervals",
            text: "splitter-directed routing: each key climbs into the subbutterfly of its interval, moved by \
                   lmrr's scheduler (random ranks, smallest first, ghosts, end-of-stream, edge queues of q)",
        },
        PhaseText {
            name: "leaf-sort",
            text: "in every leaf (at most 16 inputs) each key floods up the leaf; the top level, knowing them all, \
                   sends each key's rank in the leaf back down",
        },
        PhaseText {
            name: "offsets",
            text: "the leaves' counts are prefix-summed down to level 0 and the offsets carried back up: each key \
                   knows its rank among all keys",
        },
        PhaseText {
            name: "final-route",
            text: "every key climbs its leaf and descends the butterfly to its rank's row at level 0, by lmrr's \
                   scheduler",
        },
    ],
    classes: Classes::Named(&["key"]),
    headline: 0,
    claims: &[
        Claim {
            name: "Flashsort's running time",
            text: "O(log N) steps with high probability, N = 2^D keys on butterfly:D (§8); the constant is not \
                   stated, the run measures steps / log N",
            scope: Scope::Any,
            permutation: false,
            instance: None,
            separated: false,
            policy: None,
            measure: Measure::Steps,
            strength: Strength::Order,
            formula: Formula::LogInputs,
        },
        Claim {
            name: "edge queues ≤ q",
            text: "the scheduler sends a packet on an edge only when that edge's queue holds fewer than q, in \
                   every routing of the recursion (§2.2)",
            scope: Scope::Any,
            permutation: false,
            instance: None,
            separated: false,
            policy: None,
            measure: Measure::MaxEdgeQueue,
            strength: Strength::AtMost,
            formula: Formula::EdgeQueueCap,
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_teaching_text_says_the_constants() {
        let text = TEACHING.description;
        assert!(text.contains(&format!("at most {} inputs", 1 << LEAF_LEVELS)), "{text}");
        let word = ["", "second", "fourth", "eighth"][OVERSAMPLE_LOG as usize];
        assert!(text.contains(&format!("every {word} one")), "{text}");
    }
}
