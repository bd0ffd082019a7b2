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
//!   than itself (one step, over links), then each packet moves to the
//!   node that must hold it, or stays if it is there (the next step). With
//!   {c, d} = {a, b} this is the compare-exchange across a link of SPEC §1
//!   (keys cross both ways, then the packets swap if out of order); with c,
//!   d the two next-level neighbours of a and b on a butterfly, both keys
//!   reach both, and each packet climbs to its node.
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
//! K_0 = 0), and its packets move in step p_r = max(p_{r−1}, k_r) + 1
//! (p_0 = 0). So every round costs one step, and a round with keys one
//! more when the round before it sent none (or it is the first):
//! **steps = R + the number of rounds with keys whose predecessor has
//! none** ([`steps`]); keys of round r then share step p_{r−1} with round
//! r − 1's packets, and the schedule must put them on other directed links
//! (every message and move is checked to get its link). A step counts
//! even when nothing moves in it.

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

/// The steps the schedule takes by the timing rule (module text): R plus
/// the rounds with keys whose predecessor has none.
pub fn steps(walks: &dyn Walks) -> u32 {
    let (mut steps, mut keys_before) = (0, false);
    for i in 0..walks.rounds() {
        let keys = walks.sends_keys(i);
        steps += 1 + u32::from(keys && !keys_before);
        keys_before = keys;
    }
    steps
}

/// A round laid out, with its key step (`None` without keys) and its packet step.
#[derive(Clone)]
struct Pending {
    ops: Vec<Op>,
    keys: Option<u32>,
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
    known: u32,
    packets: u32,
    /// Rounds laid out whose packets have not moved yet (at most two).
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
            known: 0,
            packets: 0,
            pending: VecDeque::new(),
        }
    }

    /// Lays out the rounds whose first step is at most `step`.
    fn lay_out(&mut self, step: u32) {
        while self.next < self.walks.rounds() {
            let keys = self.walks.sends_keys(self.next);
            let k = keys.then_some(self.known + 1);
            let p = self.packets.max(k.unwrap_or(0)) + 1;
            if k.unwrap_or(p) > step {
                return;
            }
            let mut ops = Vec::new();
            self.walks.round(self.next, &mut ops);
            self.pending.push_back(Pending {
                ops,
                keys: k,
                packets: p,
            });
            self.known = k.unwrap_or(p);
            self.packets = p;
            self.next += 1;
        }
    }

    /// Sends the keys of `ops` over their links; true if any message left.
    fn send_keys(e: &mut Engine, ops: &[Op]) -> bool {
        let t = e.topology();
        let (mut links, mut most) = (Vec::with_capacity(4 * ops.len()), 0);
        for op in ops {
            match *op {
                Op::Meet { from, to } => {
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
        for &(a, c, p) in &links {
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
        // The packets of the round whose keys crossed before (planned now:
        // the nodes know both keys), then the keys of the next round.
        if self.pending.front().is_some_and(|r| r.packets == step) {
            let round = self.pending.pop_front().expect("a round");
            any |= self.move_packets(e, &round.ops);
        }
        for round in &self.pending {
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
