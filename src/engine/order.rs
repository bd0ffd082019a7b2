//! The memory order of the packet columns (see "Memory order" in the
//! module's docs): the re-sort by position, slot swaps that drop delivered
//! packets from the scanned slots, and the bytes held per packet.

use super::contest::Contest;
use super::{Engine, DELIVERED};

#[cfg(not(target_arch = "wasm32"))]
type Pool = std::sync::Arc<super::parallel::Runner>;
/// No pool in the wasm build.
#[cfg(target_arch = "wasm32")]
type Pool = std::convert::Infallible;

/// `out` := `column` permuted by `perm` (out[i] = column[perm[i]]), split
/// over the threads of `pool` if given.
fn gather<T: Copy + Default + Send + Sync>(out: &mut Vec<T>, column: &[T], perm: &[u32], pool: Option<&Pool>) {
    out.clear();
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(runner) = pool {
        // One contiguous part per lane.
        let lanes = runner.lanes();
        out.resize(perm.len(), T::default());
        let cuts: Vec<usize> = (0..=lanes).map(|t| t * perm.len() / lanes).collect();
        let outs = super::parallel::split(out, &cuts);
        let perms = super::parallel::split_ref(perm, &cuts);
        runner.for_each(outs.into_iter().zip(perms), |_, (out, perm)| {
            for (o, &s) in out.iter_mut().zip(perm.iter()) {
                *o = column[s as usize];
            }
        });
        return;
    }
    #[cfg(target_arch = "wasm32")]
    let _ = pool;
    out.extend(perm.iter().map(|&s| column[s as usize]));
}

impl Engine {
    /// Moves the packets the step delivered out of the scanned slots, each
    /// swapped with the last scanned one, so that later steps do not bid
    /// for them (until the next re-sort, which restores the order). Called
    /// when no slot is held in a scratch list.
    pub(super) fn drop_delivered(&mut self) {
        let mut slots = std::mem::take(&mut self.delivered_slots);
        if self.open_loop {
            self.last_delivered.clear();
            self.last_delivered
                .extend(slots.iter().map(|&s| self.id_of[s as usize]));
        }
        // From the highest slot down: the slots above the current one are
        // then all undelivered, the last scanned one included.
        slots.sort_unstable_by(|a, b| b.cmp(a));
        for &s in &slots {
            let last = self.scan_len - 1;
            if s as usize != last {
                self.swap_slots(s as usize, last);
            }
            self.scan_len = last;
        }
        slots.clear();
        self.delivered_slots = slots;
    }

    /// The 4-byte packet columns indexed by slot (empty if unused).
    fn slot_word_columns(&mut self) -> [&mut Vec<u32>; 10] {
        [
            &mut self.pos,
            &mut self.target,
            &mut self.dest,
            &mut self.phase_start,
            &mut self.since,
            &mut self.rank,
            &mut self.id_of,
            &mut self.in_link,
            &mut self.bid_link,
            &mut self.bid_next,
        ]
    }

    /// Exchanges the packets in slots `a` and `b`.
    pub(super) fn swap_slots(&mut self, a: usize, b: usize) {
        for column in self.slot_word_columns() {
            if !column.is_empty() {
                column.swap(a, b);
            }
        }
        self.bid_key.swap(a, b);
        self.flags.swap(a, b);
        self.slot_of[self.id_of[a] as usize] = a as u32;
        self.slot_of[self.id_of[b] as usize] = b as u32;
    }

    /// Re-sorts the slots by the packets' current nodes (see "Memory
    /// order"): undelivered packets first, by node and then by their old
    /// slot, delivered ones after them. Called between steps, when no slot
    /// is held in a scratch list.
    pub(super) fn resort(&mut self) {
        let n = self.id_of.len();
        let live = self.in_flight as usize;
        // The permutation perm[new slot] = old slot, by a counting sort of
        // the undelivered slots on their nodes.
        let mut start = vec![0u32; self.working.len() + 1];
        let undelivered = |s: usize| self.flags[s] & DELIVERED == 0;
        for s in (0..self.scan_len).filter(|&s| undelivered(s)) {
            start[self.pos[s] as usize + 1] += 1;
        }
        for v in 1..start.len() {
            start[v] += start[v - 1];
        }
        let mut perm = vec![0u32; n];
        for s in (0..self.scan_len).filter(|&s| undelivered(s)) {
            let at = &mut start[self.pos[s] as usize];
            perm[*at as usize] = s as u32;
            *at += 1;
        }
        debug_assert_eq!(start[start.len() - 1] as usize, live);
        for (k, s) in (live..n).zip((0..n).filter(|&s| !undelivered(s))) {
            perm[k] = s as u32;
        }
        // With threads, each column is gathered by all of them (parallel/).
        let pool = self.resort_pool();
        let pool = pool.as_ref();
        let mut scratch = std::mem::take(&mut self.resort_scratch);
        for column in self.slot_word_columns() {
            if column.is_empty() {
                continue;
            }
            gather(&mut scratch, column, &perm, pool);
            std::mem::swap(column, &mut scratch);
        }
        self.resort_scratch = scratch;
        let (mut keys, mut flags) = (Vec::new(), Vec::new());
        gather(&mut keys, &self.bid_key, &perm, pool);
        gather(&mut flags, &self.flags, &perm, pool);
        (self.bid_key, self.flags) = (keys, flags);
        for (s, &id) in self.id_of.iter().enumerate() {
            self.slot_of[id as usize] = s as u32;
        }
        // The requeue list holds slots too (it is empty between steps, but
        // not before the first).
        if !self.requeue.is_empty() {
            let mut new_slot = vec![0u32; n];
            for (new, &old) in perm.iter().enumerate() {
                new_slot[old as usize] = new as u32;
            }
            self.requeue.iter_mut().for_each(|s| *s = new_slot[*s as usize]);
        }
        self.scan_len = live;
        self.hops_since_resort = 0;
    }

    /// The pool that gathers the columns of a re-sort: the parallel step's,
    /// when its threshold is met (the order is the same either way).
    #[cfg(not(target_arch = "wasm32"))]
    fn resort_pool(&self) -> Option<Pool> {
        let par = self.par.as_ref()?;
        (self.scan_len >= self.config.parallel_min.max(1)).then(|| par.runner())
    }

    #[cfg(target_arch = "wasm32")]
    fn resort_pool(&self) -> Option<Pool> {
        None
    }

    /// Engine bytes held per packet, for the benchmark report: what is
    /// allocated for the packets, divided by their number. By slot pos,
    /// target, dest, id_of, the bid (link, next node, key) and flags, and
    /// one of phase_start, since and rank if the policy reads it; by id
    /// slot_of, src, delivered_at and class; in_link with edge queues; the
    /// contest list (12 bytes per packet or per link, whichever is fewer)
    /// once a step has run; the requeue and delivered-slot lists as
    /// allocated; with worms (F > 1), the live crossings as allocated (12
    /// bytes each, at most one per directed link, none with F = 1). (Node
    /// and link columns are not per packet; a re-sort holds 12 bytes per
    /// packet while it runs.)
    pub fn bytes_per_packet(&self) -> usize {
        let n = self.src.len();
        if n == 0 {
            return 0;
        }
        let words = [
            &self.pos,
            &self.target,
            &self.dest,
            &self.phase_start,
            &self.since,
            &self.rank,
            &self.id_of,
            &self.in_link,
            &self.bid_link,
            &self.bid_next,
            &self.slot_of,
            &self.src,
            &self.delivered_at,
        ];
        let bytes = words.iter().map(|c| c.len() * 4).sum::<usize>()
            + self.contests.capacity() * std::mem::size_of::<Contest>()
            + (self.requeue.capacity() + self.delivered_slots.capacity()) * 4
            + self.crossings.capacity() * std::mem::size_of::<super::worms::Crossing>()
            + self.bid_key.len() * 8
            + self.flags.len()
            + self.class.len();
        bytes.div_ceil(n)
    }
}
