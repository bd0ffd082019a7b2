//! Bounded queues (SPEC §1): node queues of capacity q, or with edge
//! queues one queue of capacity q per incoming directed link, and the
//! working-queue counts with their histogram.

use super::contest::{EMPTY, RESERVED};
use super::Engine;

impl Engine {
    /// SPEC §1: a node accepts at most q − (start-of-step working queue)
    /// arriving transit packets (or, with edge queues, one per incoming link
    /// with room), chosen by the policy; packets arriving at their
    /// destination are always accepted; refused packets stay put. Scripted
    /// moves are the algorithm's responsibility and are never refused.
    pub(super) fn apply_queue_capacity(&mut self, cap: u32) {
        let mut transit: Vec<(u32, u64, u32)> = Vec::new(); // (to, best, contest)
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
        // Per receiving node, the best slots first (larger key, then smaller id).
        transit.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
        let mut k = 0;
        while k < transit.len() {
            let node = transit[k].0;
            let room = cap.saturating_sub(self.working[node as usize]);
            let mut taken = 0;
            while k < transit.len() && transit[k].0 == node {
                if taken < room {
                    taken += 1;
                } else {
                    self.contests[transit[k].2 as usize].best = EMPTY;
                }
                k += 1;
            }
        }
    }

    /// Brings the largest working queue down to this step's end-of-step
    /// maximum when the queue histogram is kept (series on); without it,
    /// `current_max_queue` stays the largest so far (see [`shift_queue`]).
    pub(super) fn settle_max_queue(&mut self) {
        while self.config.record_series
            && self.current_max_queue > 0
            && self.queue_histogram[self.current_max_queue as usize] == 0
        {
            self.current_max_queue -= 1;
        }
    }

    /// Takes one packet off a node's working queue (see [`shift_queue`]).
    #[inline]
    pub(super) fn leave_working(&mut self, node: usize) {
        shift_queue(
            &mut self.working,
            &mut self.queue_histogram,
            self.config.record_series,
            node,
            false,
        );
    }
}

/// Adds one packet to `working[node]` (`grow`) or takes one off (returning
/// the new size), keeping
/// the histogram of queue sizes when the per-step series are on (it makes
/// the end-of-step maximum exact at every step); without it the engine
/// keeps only the largest end-of-step queue so far, which is all
/// `max_queue` needs.
#[inline(always)]
pub(super) fn shift_queue(working: &mut [u32], histogram: &mut Vec<u32>, series: bool, node: usize, grow: bool) -> u32 {
    let old = working[node];
    let value = if grow { old + 1 } else { old - 1 };
    if series {
        histogram[old as usize] -= 1;
        if value as usize >= histogram.len() {
            histogram.resize(value as usize + 1, 0);
        }
        histogram[value as usize] += 1;
    }
    working[node] = value;
    value
}
