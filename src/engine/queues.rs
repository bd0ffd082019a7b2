//! Bounded queues (SPEC §1): node queues of capacity q, or with edge
//! queues one queue of capacity q per incoming directed link, and the
//! working-queue counts and their end-of-step maximum.

use super::contest::{EMPTY, RESERVED};
use super::Engine;

impl Engine {
    /// SPEC §1: a node accepts at most q − (start-of-step working queue)
    /// arriving transit packets (or, with edge queues, one per incoming link
    /// with room), chosen by the policy; packets arriving at their
    /// destination are always accepted; refused packets stay put. Node
    /// queues count scripted moves too, before any routed packet: a
    /// schedule cannot wait, so a step whose script moves more packets into
    /// a node than it has room for is not taken — it moves nothing, and the
    /// run stalls ([`Engine::script_refused`] says where). With edge queues
    /// the scripts (flashsort's sorts) are the algorithm's own to bound.
    pub(super) fn apply_queue_capacity(&mut self, cap: u32) {
        let mut transit: Vec<(u32, u64, u32)> = Vec::new(); // (to, best, contest or SCRIPTED | move)
        let sink = self.sink();
        for (k, c) in self.contests[..self.contest_count].iter_mut().enumerate() {
            // Reserved links carry control messages or scripted moves, which
            // are never refused; an `EMPTY` contest has no winner: the sink's,
            // whose non-bidders bid 0, keeps whatever slot its entry last
            // held (possibly none) — only the bid tells.
            if c.best == RESERVED || c.best == EMPTY {
                continue;
            }
            let (link, next) = (self.bid_link[c.winner as usize], self.bid_next[c.winner as usize]);
            if link == sink || (next == self.dest[c.winner as usize] && self.deliver_on_arrival) {
                continue;
            }
            if self.config.edge_queues {
                if self.edge_occupancy[link as usize] >= cap {
                    c.best = EMPTY;
                }
            } else {
                transit.push((next, c.best, k as u32));
            }
        }
        if !self.config.edge_queues {
            for (i, &(s, _, to)) in self.forced.iter().enumerate() {
                if self.takes_room(s, to) {
                    // Above every bid's key: taken first.
                    transit.push((to, RESERVED, SCRIPTED | i as u32));
                }
            }
        }
        let mut refused = None;
        refuse_beyond_room(&mut transit, &self.working, cap, |k| {
            if k & SCRIPTED != 0 {
                refused.get_or_insert(k & !SCRIPTED);
            } else {
                self.contests[k as usize].best = EMPTY;
            }
        });
        if let Some(i) = refused {
            self.refuse_script(cap, self.forced[i as usize].2);
        }
    }

    /// The step's script needs more room at `node` than it has: nothing of
    /// the step moves (no packet, scripted or routed, no control message),
    /// so that the run stalls on it, and the refusal is kept for the reader.
    fn refuse_script(&mut self, cap: u32, node: u32) {
        let arrivals = self
            .forced
            .iter()
            .filter(|&&(s, _, to)| to == node && self.takes_room(s, to))
            .count() as u32;
        let held = self.working[node as usize];
        self.script_refused = Some(ScriptRefusal {
            step: self.step,
            node,
            held,
            room: cap.saturating_sub(held),
            arrivals,
        });
        for (s, _, _) in std::mem::take(&mut self.forced) {
            self.flags[s as usize] &= !super::FORCED;
            if self.flags[s as usize] & super::ELIGIBLE != 0 {
                self.touch(s as usize);
            }
        }
        self.control.clear();
        self.control_kinds.clear();
        self.busy = false;
        for c in &mut self.contests[..self.contest_count] {
            c.best = EMPTY;
        }
    }

    /// Whether the scripted move of the packet in slot `s` to node `to`
    /// takes room there: every arrival but a delivery (SPEC §1).
    fn takes_room(&self, s: u32, to: u32) -> bool {
        to != self.dest[s as usize] || !self.deliver_on_arrival
    }

    /// Where a step's script asked a node for more room than it had under
    /// `--queue-cap`, if one did: the run stalled there.
    pub fn script_refused(&self) -> Option<ScriptRefusal> {
        self.script_refused
    }

    /// Brings the largest working queue down to this step's end-of-step
    /// maximum when the series are on; without them `current_max_queue`
    /// stays the largest so far, which is all `max_queue` needs. After the
    /// commit it is at least the maximum (it was exact at the last step's
    /// end, queues grow only by the commit's arrivals, and the commit
    /// raises it to every arrival that passes it), so it is the maximum as
    /// soon as one node holds it: the witness of the last step, else a
    /// node of this step's arrivals, else a scan of the node column finds
    /// the maximum and its witness. (A histogram of queue sizes kept on
    /// every move did the same at a cost of every move; the page's runs
    /// record series.)
    pub(super) fn settle_max_queue(&mut self) {
        let max = self.current_max_queue;
        if !self.config.record_series || max == 0 || self.working[self.max_witness as usize] == max {
            return;
        }
        if let Some(&node) = self.arrivals.iter().find(|&&node| self.working[node as usize] == max) {
            self.max_witness = node;
            return;
        }
        let max = self.working.iter().copied().max().unwrap_or(0);
        self.current_max_queue = max;
        self.max_witness = self.working.iter().position(|&w| w == max).unwrap_or(0) as u32;
    }

    /// Restates the current step's end in the series after packets were
    /// delivered at it between steps ([`crate::Simulation::step`]: a run
    /// whose last packets are delivered where they stand): its packets in
    /// flight and its largest queue, as the step's end now holds them.
    pub fn restate_step_end(&mut self) {
        self.settle_max_queue();
        self.stats.restate_step_end(self.current_max_queue, self.in_flight);
    }

    /// Takes one packet off a node's working queue (see [`shift_queue`]).
    #[inline]
    pub(super) fn leave_working(&mut self, node: usize) {
        shift_queue(&mut self.working, node, false);
    }
}

/// Marks a scripted move among a step's transit bids (`apply_queue_capacity`).
const SCRIPTED: u32 = 1 << 31;

/// A step whose scripted moves needed more room at a node than its queue
/// capacity left ([`Engine::script_refused`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptRefusal {
    /// The step not taken.
    pub step: u32,
    /// The node.
    pub node: u32,
    /// Its working queue at the start of that step.
    pub held: u32,
    /// The arrivals it could accept (q − held).
    pub room: u32,
    /// The scripted arrivals the step would have brought it.
    pub arrivals: u32,
}

/// The node-queue rule of SPEC §1 on a step's transit bids `(to, key,
/// which)`: per receiving node, the best bids first (larger key, then —
/// the key holds it — smaller id), as many as the node has room for at the
/// start of the step (`cap` − its working queue); `refuse` gets the `which`
/// of every other bid. Shared by the sequential and the parallel step.
pub(super) fn refuse_beyond_room<T: Copy>(
    transit: &mut [(u32, u64, T)],
    working: &[u32],
    cap: u32,
    mut refuse: impl FnMut(T),
) {
    transit.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut k = 0;
    while k < transit.len() {
        let node = transit[k].0;
        let room = cap.saturating_sub(working[node as usize]);
        let mut taken = 0;
        while k < transit.len() && transit[k].0 == node {
            if taken < room {
                taken += 1;
            } else {
                refuse(transit[k].2);
            }
            k += 1;
        }
    }
}

/// The end-of-step largest queue and load, raised by the step's `arrivals`
/// (the only nodes that can have passed them; a node may be listed more
/// than once). Shared by the sequential and the parallel commit.
pub(super) fn raise_maxima(
    arrivals: &[u32],
    working: &[u32],
    at_source: &[u32],
    max_queue: &mut u32,
    max_load: &mut u32,
) {
    for &to in arrivals {
        let w = working[to as usize];
        *max_queue = (*max_queue).max(w);
        *max_load = (*max_load).max(w + at_source[to as usize]);
    }
}

/// Adds one packet to `working[node]` (`grow`) or takes one off, and
/// returns the new size.
#[inline(always)]
pub(super) fn shift_queue(working: &mut [u32], node: usize, grow: bool) -> u32 {
    let old = working[node];
    let value = if grow { old + 1 } else { old - 1 };
    working[node] = value;
    value
}
