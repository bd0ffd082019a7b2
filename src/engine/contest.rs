//! The contests of a step, one per directed link that is bid for or
//! reserved: the contest list, the per-link index into it, entering the
//! bids (the largest key wins, ties to the smaller id), reservations for
//! control messages and scripted moves, and retiring the step's contests.

use super::bids::random_bid;
use super::{Engine, Policy, NONE};
use std::hint::select_unpredictable;

/// A contest whose winner was refused (bounded queues): nobody crosses.
pub(super) const EMPTY: u64 = 0;
/// A link reserved for a control message or a scripted move.
pub(super) const RESERVED: u64 = u64::MAX;

/// The contest for one directed link in the current step: 12 bytes (the
/// link and the node it leads to are the winner's `bid_link` and
/// `bid_next`, so they are not kept here).
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, packed(4))]
pub(super) struct Contest {
    /// The best bid: the policy key (high 32 bits) with the complement of
    /// the packet id (low 32 bits), so one comparison picks the larger key
    /// and, on a tie, the smaller id; or `RESERVED`, or `EMPTY` if refused.
    pub(super) best: u64,
    /// Slot of the best bidder so far (`NONE` for a control message).
    pub(super) winner: u32,
}

impl Engine {
    /// Phase 1 of a step: every packet in slots `0..n` bids with its
    /// computed bid (under `random` with a fresh draw), and the best bid of
    /// each link wins it (see [`enter_bids`]).
    pub(super) fn bid(&mut self, n: usize) {
        let Engine {
            config,
            policy_salt,
            step,
            id_of,
            tie_of,
            bid_link,
            bid_key,
            link_contest,
            contests,
            contest_count,
            contest_base,
            ..
        } = self;
        // Room for a new contest per link that can be bid for (the sink
        // included), so that a bid writes the entry after the last.
        let room = *contest_count + n.min(link_contest.len()) + 1;
        if contests.len() < room {
            contests.reserve_exact(room - contests.len());
            contests.resize(room, Contest::default());
        }
        let (link, key, ties) = (&bid_link[..n], &bid_key[..n], &super::ties(id_of, tie_of)[..n]);
        let (base, count) = (*contest_base, *contest_count);
        *contest_count = if config.policy == Policy::Random {
            let (salt, step) = (*policy_salt, *step);
            enter_bids(link_contest, base, contests, count, link, |s| {
                random_bid(salt, step, ties[s])
            })
        } else {
            enter_bids(link_contest, base, contests, count, link, |s| key[s])
        };
    }

    /// Reserves link `lid` for the coming step (a contest no bid can win,
    /// entered if packets bid: [`Engine::enter_reservations`]); false,
    /// reserving nothing, if it is reserved already.
    #[inline]
    pub(super) fn reserve_link(&mut self, lid: u32) -> bool {
        let (word, bit) = ((lid / 64) as usize, 1u64 << (lid % 64));
        if self.reserved_bits[word] & bit != 0 {
            return false;
        }
        self.reserved_bits[word] |= bit;
        self.reserved.push(lid);
        true
    }

    /// Reserves the links of `links` that `exist`, in order, as that many
    /// calls of [`Engine::reserve_link`] would, and appends those it
    /// reserved to `kept` (a link that does not exist, is reserved already,
    /// or is named twice is left out). Returns whether it kept them all.
    #[inline(always)]
    pub(super) fn reserve_links(&mut self, links: &[u32], exists: impl Fn(u32) -> bool, kept: &mut Vec<u32>) -> bool {
        let from = kept.len();
        kept.reserve(links.len());
        let bits = &mut self.reserved_bits[..];
        for &lid in links {
            if !exists(lid) {
                continue;
            }
            let (word, bit) = ((lid / 64) as usize, 1u64 << (lid % 64));
            if bits[word] & bit == 0 {
                bits[word] |= bit;
                kept.push(lid);
            }
        }
        self.reserved.extend_from_slice(&kept[from..]);
        kept.len() - from == links.len()
    }

    /// Enters the step's reservations as contests that no bid can win,
    /// before the packets bid (a step in which none bids needs none).
    pub(super) fn enter_reservations(&mut self) {
        let (base, k0) = (self.contest_base, self.contest_count);
        let room = k0 + self.reserved.len();
        if self.contests.len() < room {
            self.contests.resize(room, Contest::default());
        }
        for (j, &lid) in self.reserved.iter().enumerate() {
            self.link_contest[lid as usize] = base + (k0 + j) as u32;
        }
        self.contests[k0..room].fill(Contest {
            best: RESERVED,
            winner: NONE,
        });
        self.contest_count = room;
    }

    /// The sink: the link id one past the last link, which packets that do
    /// not bid bid for (see `link_contest`).
    #[inline]
    pub(super) fn sink(&self) -> u32 {
        self.link_contest.len() as u32 - 1
    }

    /// Ends the step's contests: their `link_contest` entries become stale by
    /// raising `contest_base` past them (restarting from a cleared array
    /// before the counter could wrap).
    pub(super) fn retire_contests(&mut self) {
        // The reservations end with the step (the words they set, or all
        // words if that is fewer stores).
        if self.reserved.len() > self.reserved_bits.len() / 8 {
            self.reserved_bits.fill(0);
        } else {
            for &lid in &self.reserved {
                self.reserved_bits[(lid / 64) as usize] = 0;
            }
        }
        self.reserved.clear();
        let used = self.contest_count as u32;
        self.contest_count = 0;
        let links = self.link_contest.len() as u32;
        match self
            .contest_base
            .checked_add(used)
            .filter(|b| b.checked_add(links).is_some())
        {
            Some(base) => self.contest_base = base,
            None => {
                self.link_contest.fill(0);
                self.contest_base = 1;
            }
        }
    }
}

/// Enters the bids of slots 0, 1, … (slot s bids `bid(s)` for link
/// `links[s]`) into this step's contests (`list`, the first `count` of
/// them open, indexed by `of_link` less `base`; see `Engine::link_contest`):
/// the link's contest keeps the larger bid (a reservation is larger than
/// any bid), and a link without a contest gets one, in the entry after the
/// last. `list` must have room for one new contest per distinct link.
/// Returns the new count.
///
/// Written without branches: whether a link already has a contest, and
/// whether a bid beats the best so far, are data the processor cannot
/// predict, and this runs once per waiting packet per step.
#[inline(always)]
fn enter_bids(
    of_link: &mut [u32],
    base: u32,
    list: &mut [Contest],
    mut count: usize,
    links: &[u32],
    bid: impl Fn(usize) -> u64,
) -> usize {
    let ahead = prefetch_below(links.len(), of_link.len());
    for (s, &lid) in links.iter().enumerate() {
        if s < ahead {
            prefetch(of_link, links[s + AHEAD] as usize);
        }
        count += enter_bid(&mut of_link[lid as usize], base, list, count, s as u32, bid(s)) as usize;
    }
    count
}

/// How many slots ahead the bid loops ask for a link's entry ([`prefetch`]):
/// measured at mesh:1024x1024, one thread, 74, 79, 86, 88 and 87 M
/// packet-hops/s with 16, 32, 64, 128 and 256 (docs/architecture.md).
pub(super) const AHEAD: usize = 64;

/// The fewest link entries for which the bid loops prefetch: a table of
/// 1 MB (mesh:256x256 has 2^18 links). A smaller one stays in the caches,
/// where the prefetches only cost (mesh:64x64, random-kk k = 8: 4 % slower).
const PREFETCH_MIN_LINKS: usize = 1 << 18;

/// The slots below which a bid loop over `slots` slots prefetches the
/// entry [`AHEAD`] slots on, in a table of `links` entries: none if the
/// table is small.
#[inline(always)]
pub(super) fn prefetch_below(slots: usize, links: usize) -> usize {
    if links >= PREFETCH_MIN_LINKS {
        slots.saturating_sub(AHEAD)
    } else {
        0
    }
}

/// Asks the processor to bring `table[i]` into the cache, if there is
/// such an entry (a hint: it reads nothing the program sees and never
/// faults; nothing where the target has no such instruction). The bid
/// loops name the link entry of the bid [`AHEAD`] slots on: the entries lie
/// near the scan's sweep but not in order, and the loop's own loads come
/// too late to overlap.
#[inline(always)]
pub(super) fn prefetch(table: &[u32], i: usize) {
    let Some(entry) = table.get(i) else {
        return;
    };
    // SAFETY: SSE is part of every x86-64 processor, and a prefetch only
    // hints at an address it is given from a live reference.
    #[cfg(target_arch = "x86_64")]
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((entry as *const u32).cast())
    };
    // wasm has no prefetch: a plain load whose value is dropped starts the
    // same miss early (volatile, so that it is not removed as dead).
    // SAFETY: a read of a live reference.
    #[cfg(target_arch = "wasm32")]
    unsafe {
        std::ptr::read_volatile(entry)
    };
    #[cfg(not(any(target_arch = "x86_64", target_arch = "wasm32")))]
    let _ = entry;
}

/// Enters slot `s`'s bid `candidate` into the contest its link's
/// `link_contest` entry points to (see [`enter_bids`]), or opens one at
/// `list[count]`; returns whether it opened one. Without branches; shared
/// by the sequential and the parallel step.
#[inline(always)]
pub(super) fn enter_bid(
    entry: &mut u32,
    base: u32,
    list: &mut [Contest],
    count: usize,
    s: u32,
    candidate: u64,
) -> bool {
    let c = entry.wrapping_sub(base) as usize;
    let fresh = c >= count;
    let k = c.min(count);
    let contest = &mut list[k];
    // Every bid is above `EMPTY` (its low half is the complement of an id).
    let best = select_unpredictable(fresh, EMPTY, contest.best);
    let better = candidate > best;
    *contest = Contest {
        best: select_unpredictable(better, candidate, best),
        winner: select_unpredictable(better, s, contest.winner),
    };
    *entry = base + k as u32;
    fresh
}
