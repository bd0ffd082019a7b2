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
fn gather<T: Copy + Send + Sync>(out: &mut Vec<T>, column: &[T], perm: &[u32], pool: Option<&Pool>) {
    out.clear();
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(runner) = pool {
        // One contiguous part per lane, written once: into the spare
        // capacity, not over a zero-filled vector (filling it was a
        // sequential pass of its own, and it faulted the pages in on one
        // thread).
        out.reserve_exact(perm.len());
        let cuts = lane_cuts(runner, perm.len());
        let outs = super::parallel::split(&mut out.spare_capacity_mut()[..perm.len()], &cuts);
        let perms = super::parallel::split_ref(perm, &cuts);
        runner.for_each(outs.into_iter().zip(perms), |_, (out, perm)| {
            for (o, &s) in out.iter_mut().zip(perm.iter()) {
                o.write(column[s as usize]);
            }
        });
        // SAFETY: the lanes wrote every element of 0..perm.len() (the
        // parts cover it), and the capacity holds it.
        unsafe { out.set_len(perm.len()) };
        return;
    }
    #[cfg(target_arch = "wasm32")]
    let _ = pool;
    out.extend(perm.iter().map(|&s| column[s as usize]));
}

/// 0..len cut into one contiguous part per lane of `runner`.
#[cfg(not(target_arch = "wasm32"))]
fn lane_cuts(runner: &Pool, len: usize) -> Vec<usize> {
    let lanes = runner.lanes();
    (0..=lanes).map(|t| t * len / lanes).collect()
}

/// slot_of[id_of[s]] = s for every slot s (`id_of` a permutation of the
/// ids), split over the threads of `pool` if given.
fn slots_of_ids(slot_of: &mut [u32], id_of: &[u32], pool: Option<&Pool>) {
    assert_eq!(slot_of.len(), id_of.len(), "one slot per id");
    #[cfg(not(target_arch = "wasm32"))]
    if let Some(runner) = pool {
        // Lane t writes the ids of its own part of `slot_of` (reading all
        // of `id_of`): cutting the slots instead would have both lanes
        // write all over `slot_of`, sharing its cache lines.
        let cuts = lane_cuts(runner, slot_of.len());
        let parts = super::parallel::split(slot_of, &cuts);
        runner.for_each(parts.into_iter().zip(cuts.windows(2)), |_, (part, ids)| {
            let (lo, len, base) = (ids[0], part.len(), part.as_mut_ptr());
            // The ids of other parts are written to `spare`, without a
            // branch (half of them would be mispredicted).
            let mut spare = 0u32;
            let spare: *mut u32 = &mut spare;
            for (s, &id) in id_of.iter().enumerate() {
                let off = (id as usize).wrapping_sub(lo);
                // SAFETY: `off < len` is within the part; else `spare`.
                let at = std::hint::select_unpredictable(off < len, unsafe { base.add(off.min(len)) }, spare);
                unsafe { *at = s as u32 };
            }
        });
        return;
    }
    #[cfg(target_arch = "wasm32")]
    let _ = pool;
    for (s, &id) in id_of.iter().enumerate() {
        slot_of[id as usize] = s as u32;
    }
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
    fn slot_word_columns(&mut self) -> [&mut Vec<u32>; 11] {
        [
            &mut self.pos,
            &mut self.target,
            &mut self.dest,
            &mut self.phase_start,
            &mut self.since,
            &mut self.rank,
            &mut self.id_of,
            &mut self.tie_of,
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
        slots_of_ids(&mut self.slot_of, &self.id_of, pool);
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
            &self.tie_of,
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

#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::{gather, slots_of_ids, Pool};
    use crate::engine::parallel::Runner;
    use crate::rng::{Rng, Stream};
    use std::sync::Arc;

    /// The lanes' gather and slot inverse equal the sequential ones, for
    /// 2 and 3 lanes and every length from 0 to 40 (parts of 0 or 1 slots
    /// included) and one long column.
    #[test]
    fn split_gather_and_inverse_equal_sequential() {
        for lanes in [2, 3] {
            let pool: Pool = Arc::new(Runner::new(lanes).expect("threads"));
            for n in (0..=40).chain([100_003]) {
                let mut perm: Vec<u32> = (0..n).collect();
                Rng::new(n as u64, Stream::Workload).shuffle(&mut perm);
                let column: Vec<u64> = (0..n as u64).map(|v| v * 7 + 1).collect();
                let (mut seq, mut par) = (Vec::new(), vec![9u64; 5]);
                gather(&mut seq, &column, &perm, None);
                gather(&mut par, &column, &perm, Some(&pool));
                assert_eq!(par, seq, "gather, {lanes} lanes, n = {n}");
                let (mut seq, mut par) = (vec![0u32; n as usize], vec![u32::MAX; n as usize]);
                slots_of_ids(&mut seq, &perm, None);
                slots_of_ids(&mut par, &perm, Some(&pool));
                assert_eq!(par, seq, "slot of id, {lanes} lanes, n = {n}");
                assert!(seq.iter().enumerate().all(|(id, &s)| perm[s as usize] as usize == id));
            }
        }
    }
}
