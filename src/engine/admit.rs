//! Open-loop traffic (SPEC §6): packets that enter the network between
//! steps and leave it when delivered, their slots and ids reused, so that
//! the packet columns stay as long as the most packets ever in flight at
//! once, not as the packets ever injected.
//!
//! A run that never calls [`Engine::set_open_loop`] takes none of these
//! paths: batch runs are unchanged (the corpus of `scripts/corpus.sh`
//! checks it byte for byte).
//!
//! # Slots and ids
//! Delivered packets leave the scanned slots at the end of the step that
//! delivered them (order.rs), so every slot from `scan_len` on holds a
//! delivered packet. A new packet takes the first of them *and its id*:
//! the ids of the packets in flight are always distinct, and an id is
//! reused only after its packet was delivered and the step that delivered
//! it was reported ([`Engine::last_delivered`]). Only when every slot holds
//! a packet in flight do the columns grow, by one.
//!
//! # Ties
//! SPEC §1 gives a tie between bids to the smaller packet id, and §6 has a
//! new packet compete like any other; a reused id would make that order
//! arbitrary, and a packet with a large reused id could lose every tie to
//! younger packets for as long as the load lasts (mesh:3x3 transpose at
//! rate 1 left measured packets undelivered after 200 steps of drain). So
//! in open loop a packet's id for ties (and for the way round a ring on a
//! tie, by its parity) is its number in the order of generation
//! (`tie_of`): the instance's packets keep their ids, and each injected
//! packet gets the next number. Should the numbers reach 2^32 − 1, the
//! packets in flight are renumbered 0, 1, … in their order, which keeps
//! every comparison between them. Under the `rank` policy (smallest rank
//! first) a packet's rank is that number too, as a batch packet's is its
//! id: the older packet goes first, and the renumbering renumbers ranks.

use super::{Engine, Policy, ELIGIBLE, NONE};

impl Engine {
    /// Switches the engine to open-loop traffic: packets may be injected
    /// ([`Engine::inject`]) and the ids of the packets each step delivers
    /// are listed ([`Engine::last_delivered`]). Call before the first step.
    pub fn set_open_loop(&mut self) {
        self.open_loop = true;
        self.tie_of = self.id_of.clone();
        self.next_tie = self.id_of.len() as u32;
    }

    /// Whether the engine takes open-loop traffic.
    pub fn is_open_loop(&self) -> bool {
        self.open_loop
    }

    /// The ids of the packets the last step delivered (open loop only; in
    /// slot order). Their ids may be reused by the next injection, so read
    /// what belongs to them (their source, delivery step) before injecting.
    pub fn last_delivered(&self) -> &[u32] {
        &self.last_delivered
    }

    /// Packet slots allocated: the most packets in flight at once so far
    /// (open loop), or the instance's packets (batch). The engine's packet
    /// memory is proportional to it (see [`Engine::bytes_per_packet`]).
    pub fn slot_capacity(&self) -> usize {
        self.id_of.len()
    }

    /// Injects a packet at node `src` bound for node `dest` ≠ `src`, before
    /// the next step, and returns its id. It joins its source's queue,
    /// eligible, with its destination as target; it may move in the next
    /// step (SPEC §6: a packet generated in step t may move in step t), and
    /// under `fifo` it counts as arrived in that step. The algorithm then
    /// sets its route ([`crate::algorithms::Algorithm::admit`]).
    ///
    /// # Panics
    /// If the engine is not open-loop, a node is out of range or
    /// `src == dest` (the load driver never asks for such a packet).
    pub fn inject(&mut self, src: u32, dest: u32) -> u32 {
        assert!(self.open_loop, "inject: the engine is not open-loop");
        let nodes = self.working.len() as u32;
        assert!(
            src < nodes && dest < nodes && src != dest,
            "inject: bad packet {src} -> {dest}"
        );
        let generated = self.step + 1;
        let (s, id) = if self.scan_len < self.id_of.len() {
            // A delivered packet's slot and id (see "Slots and ids").
            self.retired += 1;
            (self.scan_len, self.id_of[self.scan_len])
        } else {
            self.grow_slot();
            (self.scan_len, self.scan_len as u32)
        };
        if self.next_tie == u32::MAX {
            self.renumber_ties();
        }
        self.tie_of[s] = self.next_tie;
        self.next_tie += 1;
        self.scan_len += 1;
        self.pos[s] = src;
        self.target[s] = dest;
        self.dest[s] = dest;
        if let Some(start) = self.phase_start.get_mut(s) {
            *start = src;
        }
        if let Some(since) = self.since.get_mut(s) {
            *since = generated;
        }
        if let Some(rank) = self.rank.get_mut(s) {
            *rank = self.tie_of[s];
        }
        if let Some(link) = self.in_link.get_mut(s) {
            *link = NONE;
        }
        self.flags[s] = ELIGIBLE;
        self.bid_link[s] = self.sink();
        self.bid_next[s] = NONE;
        self.bid_key[s] = 0;
        let i = id as usize;
        self.slot_of[i] = s as u32;
        self.src[i] = src;
        self.class[i] = 0;
        self.classes_seen[0] |= 1;
        self.delivered_at[i] = NONE;
        self.in_flight += 1;
        self.unsettled += 1;
        self.eligible += 1;
        self.at_source[src as usize] += 1;
        let load = self.working[src as usize] + self.at_source[src as usize];
        self.stats.max_load = self.stats.max_load.max(load);
        self.touch(s);
        id
    }

    /// Numbers the packets in flight (slots `0..scan_len`) 0, 1, … in the
    /// order of their tie-breaking numbers, and the next one after them
    /// (see "Ties"), their bids to be computed again with the new numbers:
    /// run once per 2^32 − 1 injections at most.
    fn renumber_ties(&mut self) {
        let live = self.scan_len;
        let mut order: Vec<u32> = (0..live as u32).collect();
        order.sort_unstable_by_key(|&s| self.tie_of[s as usize]);
        for (number, &s) in order.iter().enumerate() {
            self.tie_of[s as usize] = number as u32;
            if let Some(rank) = self.rank.get_mut(s as usize) {
                *rank = number as u32;
            }
            // Its bid carries the old number: computed again before the next step.
            self.touch(s as usize);
        }
        self.next_tie = live as u32;
    }

    /// Sets the next injected packet's tie-breaking number (tests of the
    /// renumbering at 2^32 − 1).
    #[doc(hidden)]
    pub fn set_next_tie(&mut self, next: u32) {
        self.next_tie = next;
    }

    /// The tie-breaking number of packet `id` (its id in a batch run).
    pub fn tie_number(&self, id: u32) -> u32 {
        super::ties(&self.id_of, &self.tie_of)[self.slot(id)]
    }

    /// Adds one slot (and id) at the end of every packet column in use.
    fn grow_slot(&mut self) {
        let n = self.id_of.len() as u32;
        let policy = self.config.policy;
        for (column, used) in [
            (&mut self.phase_start, policy == Policy::FarthestOrigin),
            (&mut self.since, policy == Policy::Fifo),
            (&mut self.rank, policy == Policy::Rank),
            (&mut self.in_link, self.config.edge_queues),
            (&mut self.tie_of, true),
        ] {
            if used {
                column.push(0);
            }
        }
        for column in [
            &mut self.pos,
            &mut self.target,
            &mut self.dest,
            &mut self.bid_link,
            &mut self.bid_next,
            &mut self.slot_of,
            &mut self.src,
            &mut self.delivered_at,
        ] {
            column.push(0);
        }
        self.id_of.push(n);
        self.bid_key.push(0);
        self.flags.push(0);
        self.class.push(0);
    }
}
