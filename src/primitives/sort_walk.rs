//! Sorting networks whose packets walk (SPEC §1): compare-exchanges
//! between nodes that are not neighbours (on a butterfly two rows meet
//! only through the next level) and rounds that only move packets (the
//! shuffle-exchange's rotations, the butterfly's walks between stages).
//! [`SortTask::on_network`](super::sort::SortTask::on_network) runs the
//! networks whose comparators are links (the hypercube's); this runs the
//! others, with the same model.
//!
//! A schedule ([`Walks`]) is a list of rounds, each a list of [`Op`]s on
//! disjoint nodes:
//! - [`Op::Meet`]: the packets at nodes a and b go to nodes c and d, the
//!   smaller key to c. Each of a, b sends its key to each of c, d other
//!   than itself (one step, over links). With {c, d} = {a, b} this is the
//!   compare-exchange across a link of SPEC §1: both ends now hold both
//!   keys, and the packets swap if out of order (the next step). With c, d
//!   other nodes (the two next-level neighbours of a and b on a butterfly)
//!   only c and d hold both keys, and a node sends its packet only where
//!   it knows to: so c and d tell a and b (`tell`: the node that tells
//!   each, a control message over a link, the step after the keys), and
//!   each packet moves to the node that must hold it the step after that.
//! - [`Op::Go`]: the packet at a moves to b over a link, or stays (a = b).
//!
//! Timing (the rule of SPEC §1: once a round's keys have crossed, every
//! node knows which packet it will hold). A round of Meets always sends
//! keys; a round of Gos sends its packets' keys ahead of them over the same
//! links when the schedule says so ([`Walks::sends_keys`]), so that the
//! next round's keys can leave in the step its packets arrive; otherwise
//! each packet carries its key, and a node knows it once the packet is
//! there. Round r's keys cross in step k_r = K_{r−1} + 1, where K_{r−1} is
//! the step after which every node knows the key it will hold after round
//! r − 1 (k_{r−1} if that round sent keys, its packet step p_{r−1} if not;
//! K_0 = 0); a round of meets that tell sends its telling in step k_r + 1;
//! and its packets move in step p_r = max(p_{r−1}, k_r + t_r) + 1 (t_r = 1
//! when the round tells, else 0; p_0 = 0). So every round costs one step,
//! a round with keys one more when the round before it sent none (or it is
//! the first), and a telling round one more when the packets were not
//! already a step behind the keys ([`steps`] follows the rule round by
//! round). Keys of round r then share a step with round r − 1's telling and
//! with the packets of an earlier round, and the schedule must put them on
//! other directed links (every message and move is checked to get its
//! link). A step counts even when nothing moves in it.

use super::sort::{key, EMPTY};
use super::Task;
use crate::engine::Engine;
use crate::topology::{Network, Topology};
use std::collections::VecDeque;
use std::sync::Arc;

/// One move of a round (see the module text).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// The packets at `from` go to `to`, the smaller key to `to[0]`.
    Meet {
        /// The two nodes holding the packets compared.
        from: [u32; 2],
        /// Where the smaller and the larger key go.
        to: [u32; 2],
        /// Which of `to` tells `from[0]` and `from[1]` where their packets
        /// go (a neighbour of each): required when `to` is not `from`
        /// (the sources do not both hold both keys), `None` otherwise.
        tell: Option<[u32; 2]>,
    },
    /// The packet at `from` goes to `to` (a neighbour, or `from`: it stays).
    Go {
        /// Where the packet is.
        from: u32,
        /// Where it goes.
        to: u32,
    },
}

/// A sorting schedule of walking packets: its rounds.
pub trait Walks: Send + Sync {
    /// The number of rounds.
    fn rounds(&self) -> u32;
    /// Whether round `i` sends keys (every round with a [`Op::Meet`]; a
    /// round of [`Op::Go`]s when its keys go ahead of its packets).
    fn sends_keys(&self, i: u32) -> bool;
    /// Round `i`'s ops into `ops` (empty on entry).
    fn round(&self, i: u32, ops: &mut Vec<Op>);
}

/// The steps the schedule takes by the timing rule (module text), round
/// by round: the last round's packet step.
pub fn steps(walks: &dyn Walks) -> u32 {
    let mut clock = Clock::default();
    let mut ops = Vec::new();
    for i in 0..walks.rounds() {
        ops.clear();
        walks.round(i, &mut ops);
        clock.lay_out(walks.sends_keys(i), tells(&ops));
    }
    clock.packets
}

/// Whether a round's meets tell their sources where to send (module text).
fn tells(ops: &[Op]) -> bool {
    ops.iter().any(|op| matches!(op, Op::Meet { tell: Some(_), .. }))
}

/// The timing rule's state: K and p of the last round laid out.
#[derive(Debug, Clone, Copy, Default)]
struct Clock {
    known: u32,
    packets: u32,
}

impl Clock {
    /// The key step (if it sends keys) of the next round.
    fn keys(&self, keys: bool) -> Option<u32> {
        keys.then_some(self.known + 1)
    }

    /// Lays out the next round: its key, telling and packet steps.
    fn lay_out(&mut self, keys: bool, tells: bool) -> (Option<u32>, Option<u32>, u32) {
        let k = self.keys(keys);
        let tell = k.filter(|_| tells).map(|k| k + 1);
        let p = self.packets.max(tell.or(k).unwrap_or(0)) + 1;
        self.known = k.unwrap_or(p);
        self.packets = p;
        (k, tell, p)
    }
}

/// A round laid out, with its key step (`None` without keys), its telling
/// step (`None` if its meets do not tell) and its packet step.
#[derive(Clone)]
struct Pending {
    ops: Vec<Op>,
    keys: Option<u32>,
    tell: Option<u32>,
    packets: u32,
}

/// The schedule as a task on the engine: every participating packet (one
/// per node) walks and meets as the rounds say.
#[derive(Clone)]
pub struct WalkTask {
    walks: Arc<dyn Walks>,
    /// Per node of the topology, the key of the packet it holds once the
    /// rounds planned so far are done (EMPTY: none); a key's low 32 bits
    /// are its packet.
    held: Vec<u128>,
    /// The step the next poll schedules (1 for the first).
    step: u32,
    /// The next round to lay out.
    next: u32,
    /// K and p of the last round laid out (module text).
    clock: Clock,
    /// Rounds laid out whose packets have not moved yet (at most three).
    pending: VecDeque<Pending>,
}

/// The port from `a` to its neighbour `b`.
fn port(t: &Topology, a: u32, b: u32) -> u32 {
    (0..t.ports())
        .find(|&p| t.neighbor(a, p) == Some(b))
        .unwrap_or_else(|| panic!("sort walk: {a} and {b} are not neighbours on {t}"))
}

impl WalkTask {
    /// Runs `walks` on the keys `items` (packet, primary key) where the
    /// packets are; every node must hold at most one of them.
    pub fn new(e: &Engine, walks: Arc<dyn Walks>, items: &[(u32, u64)]) -> WalkTask {
        let mut held = vec![EMPTY; e.topology().nodes() as usize];
        for &(p, primary) in items {
            let v = e.position(p) as usize;
            assert!(held[v] == EMPTY, "node {v} holds more than one key to sort");
            held[v] = key(primary, p);
        }
        WalkTask {
            walks,
            held,
            step: 1,
            next: 0,
            clock: Clock::default(),
            pending: VecDeque::new(),
        }
    }

    /// Lays out the rounds whose first step is at most `step`.
    fn lay_out(&mut self, step: u32) {
        while self.next < self.walks.rounds() {
            let keys = self.walks.sends_keys(self.next);
            // The round's first step: its keys', else its packets'.
            if self.clock.keys(keys).unwrap_or(self.clock.packets + 1) > step {
                return;
            }
            let mut ops = Vec::new();
            self.walks.round(self.next, &mut ops);
            let (keys, tell, packets) = self.clock.lay_out(keys, tells(&ops));
            self.pending.push_back(Pending {
                ops,
                keys,
                tell,
                packets,
            });
            self.next += 1;
        }
    }

    /// Sends the keys of `ops` over their links; true if any message left.
    fn send_keys(e: &mut Engine, ops: &[Op]) -> bool {
        let t = e.topology();
        let (mut links, mut most) = (Vec::with_capacity(4 * ops.len()), 0);
        for op in ops {
            match *op {
                Op::Meet { from, to, tell } => {
                    let apart = !(to.contains(&from[0]) && to.contains(&from[1]));
                    assert_eq!(
                        apart,
                        tell.is_some(),
                        "sort walk: a meet of {from:?} at {to:?} tells iff it is apart"
                    );
                    for c in to {
                        for a in from.into_iter().filter(|&a| a != c) {
                            links.push((a, c, port(t, a, c)));
                        }
                        most = most.max(from.iter().filter(|&&a| a != c).count() as u32);
                    }
                }
                Op::Go { from, to } if from != to => {
                    links.push((from, to, port(t, from, to)));
                    most = most.max(1);
                }
                Op::Go { .. } => {}
            }
        }
        Self::send(e, &links, most)
    }

    /// Sends the tellings of `ops` (each source of a meet apart learns from
    /// its `tell` node where its packet goes); true if any message left.
    fn send_tellings(e: &mut Engine, ops: &[Op]) -> bool {
        let t = e.topology();
        let mut links = Vec::with_capacity(2 * ops.len());
        for op in ops {
            if let Op::Meet {
                from, tell: Some(tell), ..
            } = *op
            {
                for (a, c) in from.into_iter().zip(tell) {
                    links.push((c, a, port(t, c, a)));
                }
            }
        }
        let most = u32::from(!links.is_empty());
        Self::send(e, &links, most)
    }

    /// Sends one control message over each link (from, to, port); a link
    /// taken twice in a step breaks SPEC §1 and is a bug of the schedule.
    fn send(e: &mut Engine, links: &[(u32, u32, u32)], most: u32) -> bool {
        for &(a, c, p) in links {
            let ok = e.send_control(a, p);
            assert!(ok, "sort walk: link {a}→{c} taken twice in a step");
        }
        e.note_control_queue(most);
        !links.is_empty()
    }

    /// Decides and moves the packets of `ops` (their keys have crossed);
    /// true if any packet moved.
    fn move_packets(&mut self, e: &mut Engine, ops: &[Op]) -> bool {
        let mut arrivals: Vec<(u32, u128)> = Vec::with_capacity(2 * ops.len());
        let mut moves: Vec<(u32, u32, u32)> = Vec::new();
        let mut go = |at: u32, to: u32, key: u128, arrivals: &mut Vec<(u32, u128)>| {
            arrivals.push((to, key));
            if at != to && key != EMPTY {
                moves.push((key as u32, at, to));
            }
        };
        for op in ops {
            match *op {
                Op::Meet {
                    from: [a, b],
                    to: [c, d],
                    ..
                } => {
                    let (x, y) = (self.held[a as usize], self.held[b as usize]);
                    let (to_x, to_y) = if x < y { (c, d) } else { (d, c) };
                    go(a, to_x, x, &mut arrivals);
                    go(b, to_y, y, &mut arrivals);
                }
                Op::Go { from, to } => go(from, to, self.held[from as usize], &mut arrivals),
            }
        }
        for op in ops {
            let from: &[u32] = match op {
                Op::Meet { from, .. } => from,
                Op::Go { from, .. } => std::slice::from_ref(from),
            };
            for &a in from {
                self.held[a as usize] = EMPTY;
            }
        }
        for (v, k) in arrivals {
            let slot = &mut self.held[v as usize];
            assert!(*slot == EMPTY || k == EMPTY, "sort walk: two packets end at node {v}");
            *slot = (*slot).min(k);
        }
        let t = e.topology();
        let moves: Vec<(u32, u32, u32, u32)> = moves
            .into_iter()
            .map(|(p, at, to)| (p, at, to, port(t, at, to)))
            .collect();
        for &(p, at, to, port) in &moves {
            let ok = e.force_move(p, port);
            assert!(ok, "sort walk: link {at}→{to} taken twice in a step");
        }
        !moves.is_empty()
    }
}

impl Task for WalkTask {
    fn poll(&mut self, e: &mut Engine) -> bool {
        let step = self.step;
        self.lay_out(step);
        if self.pending.is_empty() {
            return false;
        }
        let mut any = false;
        // The packets of the round whose keys crossed (and, if it tells,
        // whose tellings arrived) before: planned now, the senders know
        // where; then a later round's tellings and the next round's keys.
        if self.pending.front().is_some_and(|r| r.packets == step) {
            let round = self.pending.pop_front().expect("a round");
            any |= self.move_packets(e, &round.ops);
        }
        for round in &self.pending {
            if round.tell == Some(step) {
                any |= Self::send_tellings(e, &round.ops);
            }
            if round.keys == Some(step) {
                any |= Self::send_keys(e, &round.ops);
            }
        }
        if !any {
            e.mark_busy();
        }
        self.step += 1;
        true
    }
}
