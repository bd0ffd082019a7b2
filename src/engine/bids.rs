//! A packet's bid: the link of its next hop, the node it leads to and its
//! policy key (SPEC §1 "Contention"), computed when the packet moves or the
//! algorithm changes it, never while it waits.

use super::{
    Engine, DELIVERED, ELIGIBLE, FARTHEST_FIRST, FARTHEST_ORIGIN, FARTHEST_TOTAL, FIFO, FORCED, NEAREST_FIRST, NONE,
    RANDOM, TIE_FLIP, TOUCHED,
};
use crate::rng::mix64;
use crate::topology::{Network, RouteOrder};

impl Engine {
    /// Puts the packet in slot `s` on the `requeue` list (once): its bid
    /// is recomputed before the next contest.
    #[inline]
    pub(super) fn touch(&mut self, s: usize) {
        if self.flags[s] & TOUCHED == 0 {
            self.flags[s] |= TOUCHED;
            self.requeue.push(s as u32);
        }
    }

    /// Recomputes the bid of every `TOUCHED` packet: the link of its next
    /// hop and its key if it is eligible, not scripted, undelivered and away
    /// from its target, else the sink.
    pub(super) fn rebid_touched(&mut self) {
        monomorphic!(self.rebid_in())
    }

    /// [`Engine::rebid_touched`] on network `net` (the engine's own) under
    /// policy `P`.
    fn rebid_in<N: Network, const P: u8>(&mut self, net: &N) {
        let sink = self.sink();
        let Engine {
            order,
            policy_salt,
            step,
            pos,
            target,
            phase_start,
            since,
            rank,
            flags,
            id_of,
            tie_of,
            bid_link,
            bid_next,
            bid_key,
            requeue,
            ..
        } = self;
        let ties = super::ties(id_of, tie_of);
        let keys = KeyColumns::new(net, *policy_salt, *step, pos, target, phase_start, since, rank, ties);
        for &s in requeue.iter() {
            let s = s as usize;
            flags[s] &= !TOUCHED;
            (bid_link[s], bid_next[s], bid_key[s]) =
                keys.bid_or_sink::<P>(s, may_bid(flags[s]), tie_flip(flags[s]), *order, sink);
        }
        requeue.clear();
    }
}

/// The columns and settings a policy key is computed from (SPEC §1 "Contention").
pub(super) struct KeyColumns<'a, N> {
    topo: &'a N,
    salt: u64,
    step: u32,
    pos: &'a [u32],
    target: &'a [u32],
    phase_start: &'a [u32],
    since: &'a [u32],
    rank: &'a [u32],
    /// The tie-breaking numbers ([`super::ties`]): the ids in a batch run.
    ties: &'a [u32],
}

impl<'a, N: Network> KeyColumns<'a, N> {
    /// The key columns as the re-bid, the commit and the check all build
    /// them: the engine's columns of these names (whole, or as the commit's
    /// slices of known length) and the `random` policy's salt and step.
    /// Field by field, so that the commit can build it per moved packet
    /// while it holds the other columns mutably; inlined, it costs nothing.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)] // one per column, each under its engine name
    pub(super) fn new(
        topo: &'a N,
        salt: u64,
        step: u32,
        pos: &'a [u32],
        target: &'a [u32],
        phase_start: &'a [u32],
        since: &'a [u32],
        rank: &'a [u32],
        ties: &'a [u32],
    ) -> Self {
        KeyColumns {
            topo,
            salt,
            step,
            pos,
            target,
            phase_start,
            since,
            rank,
            ties,
        }
    }

    /// The bid of the packet in slot `s` as `(link, next node, key)`: its
    /// [`KeyColumns::next_bid`] if it `bids`, else (and at its target) the
    /// `sink`'s, which no packet can win over. `tie` is its [`tie_flip`].
    #[inline(always)]
    pub(super) fn bid_or_sink<const P: u8>(
        &self,
        s: usize,
        bids: bool,
        tie: u32,
        order: RouteOrder,
        sink: u32,
    ) -> (u32, u32, u64) {
        let bid = if bids { self.next_bid::<P>(s, tie, order) } else { None };
        bid.unwrap_or((sink, NONE, 0))
    }

    /// The bid of the packet in slot `s` from where it is: the link of its
    /// next hop, the node that link leads to and its bid (see
    /// [`KeyColumns::bid`]); `None` at its target. On a ring tie (SPEC §2)
    /// the route goes the way of the parity of its id xor `tie`.
    #[inline(always)]
    fn next_bid<const P: u8>(&self, s: usize, tie: u32, order: RouteOrder) -> Option<(u32, u32, u64)> {
        let at = self.pos[s];
        let hop = self.topo.next_hop(at, self.target[s], self.ties[s] ^ tie, order)?;
        let link = at * self.topo.ports() + hop.port;
        Some((link, hop.next, self.bid::<P>(s, hop.remaining_in_dim, hop.port)))
    }

    /// The bid of the packet in slot `s` under policy `P` for a hop over
    /// `port` with `remaining_in_dim` hops left in its dimension: the
    /// policy key (larger wins, below `u32::MAX`) in the high 32 bits and
    /// the complement of the packet id in the low 32 bits, so one
    /// comparison picks the larger key and, on a tie, the smaller id.
    #[inline(always)]
    fn bid<const P: u8>(&self, s: usize, remaining_in_dim: u32, port: u32) -> u64 {
        const TOP: u32 = u32::MAX - 1;
        let id = self.ties[s];
        let key = match P {
            FARTHEST_FIRST => remaining_in_dim,
            NEAREST_FIRST => TOP - remaining_in_dim,
            FARTHEST_TOTAL => self.topo.distance(self.pos[s], self.target[s]),
            FARTHEST_ORIGIN => {
                let dim = self.topo.port_dim(port);
                self.topo.dim_distance(self.phase_start[s], self.pos[s], dim)
            }
            FIFO => TOP - self.since[s],
            // Drawn afresh at every step (see `random_bid`).
            RANDOM => return random_bid(self.salt, self.step, id),
            _ => TOP.saturating_sub(self.rank[s]),
        };
        // Every key is at most TOP by construction (distances are below
        // the number of nodes), so the top value stays free for RESERVED.
        debug_assert!(key <= TOP);
        ((key as u64) << 32) | (!id) as u64
    }
}

/// The `random` policy's bid of packet `id` in `step`: one independent
/// draw per (step, packet), whatever the order packets are visited in.
#[inline(always)]
pub(super) fn random_bid(salt: u64, step: u32, id: u32) -> u64 {
    let draw = mix64(salt ^ ((step as u64) << 32 | id as u64));
    (draw >> 33) << 32 | (!id) as u64
}

/// 1 if the algorithm reversed the way a packet with `flags` goes on a
/// ring tie ([`Engine::set_tie_direction`]), else 0.
#[inline(always)]
pub(super) fn tie_flip(flags: u8) -> u32 {
    (flags & TIE_FLIP != 0) as u32
}

/// Whether a packet with `flags` bids for a link at all: eligible, not
/// scripted, undelivered.
#[inline(always)]
pub(super) fn may_bid(flags: u8) -> bool {
    flags & (ELIGIBLE | FORCED | DELIVERED) == ELIGIBLE
}
