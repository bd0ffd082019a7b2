//! The parallel step (native builds, `EngineConfig::threads` > 1; see
//! "Parallel step" in docs/architecture.md): the contest pass and the commit
//! of a step split over *lanes*, one per thread, with every result equal to
//! the sequential step's, at every thread count.
//!
//! # Partition
//! Lane t scans a contiguous range of slots and owns a contiguous range of
//! nodes, and with them the links that leave them (a link's id is its
//! source node times the ports, plus the port). The ranges are cut afresh
//! every step: the slots into equal parts, each node cut at the position of
//! the first slot of the next part (the slots are sorted by position at a
//! re-sort and decay slowly, see "Memory order"). Every bidder for a link
//! sits at the link's source node, so the contests of a lane's own bids
//! for its own links never cross another lane's: each lane writes only its
//! own part of `link_contest`, its own contest list and its own nodes.
//! A bid for a link of another lane (a *stray*: its packet moved out of
//! the node range of its slot range since the last re-sort) is kept aside
//! and entered after the lanes, in slot order.
//!
//! # Order
//! The sequential step lists its contests in the order of their first bid
//! (by slot), and that order is the order of `last_links`. Every contest
//! here remembers its first bidder's slot; the lanes' lists, concatenated,
//! are in that order, and so are the contests the strays open (or take
//! over, when a stray bids before the owner lane's first bidder); the
//! links used are merged by it. Which bid wins (the largest, see
//! `Contest::best`) does not depend on the order at all.
//!
//! # Commit
//! Each lane moves the winners of its own contests whose slots it scans,
//! then (after all lanes did) the winners of other lanes' contests whose
//! slots it scans; a departure from or an arrival at a node of another
//! lane is kept aside. After the lanes, in a fixed order: the departures,
//! then the arrivals kept aside, deliveries and counters (sums), and the
//! largest queue and load
//! from every node that may have passed them (a maximum). Nothing of it
//! depends on which lane ran first.
//!
//! # When the step stays sequential
//! Fewer than `EngineConfig::parallel_min` packets in flight; a step with
//! reserved links (control messages, scripted moves); edge queues, worms
//! (F > 1) and open-loop traffic (their state is per link or per step and
//! ordered); every step of the wasm build.

mod commit;
mod runner;
pub(super) use runner::Runner;

use super::bids::random_bid;
use super::contest::{enter_bid, prefetch, prefetch_below, Contest, AHEAD, EMPTY};
use super::queues::refuse_beyond_room;
use super::Engine;
use crate::topology::Network;
use std::sync::Arc;

/// The lanes' threads and scratch of an engine with threads > 1.
#[derive(Debug, Clone)]
pub(super) struct Parallel {
    /// Shared by the engine's clones (a clone steps on the same threads).
    runner: Arc<Runner>,
    lanes: Vec<Lane>,
    /// `strays[t][u]`: the slots lane t scans whose bids are for lane u's links.
    strays: Vec<Vec<Vec<u32>>>,
    /// Slot and node cuts of this step: lane t scans slots
    /// `slot_cut[t]..slot_cut[t + 1]` and owns nodes `node_cut[t]..node_cut[t + 1]`.
    slot_cut: Vec<usize>,
    node_cut: Vec<usize>,
    /// Parallel steps so far, and strays entered in them (for tests).
    steps: u64,
    stray_count: u64,
}

/// One lane's part of a step.
#[derive(Debug, Clone, Default)]
struct Lane {
    contests: Vec<Contest>,
    /// The slot of each contest's first bidder.
    first: Vec<u32>,
    count: usize,
    /// Contests for this lane's links opened or taken over by strays (bids
    /// from other lanes' slots), in the order of their first bid.
    extras: Vec<Contest>,
    extras_first: Vec<u32>,
    out: LaneOut,
}

/// What a lane's commit leaves to be merged.
#[derive(Debug, Clone, Default)]
struct LaneOut {
    /// (first bidder's slot, link) of every move, when links are recorded:
    /// of the lane's own contests, then of its extras.
    links: Vec<(u32, u32)>,
    links_extra: Vec<(u32, u32)>,
    /// (first bidder's slot, winner) of the contests whose winner another lane scans.
    deferred: Vec<(u32, u32)>,
    /// Arrivals at nodes of other lanes.
    remote: Vec<u32>,
    /// Departures from nodes of other lanes: from a working queue, from a
    /// source queue (winners of other lanes' contests).
    remote_leave: Vec<u32>,
    remote_source: Vec<u32>,
    /// Nodes whose queue or load may pass the maxima so far.
    arrivals: Vec<u32>,
    delivered_slots: Vec<u32>,
    arrived: Vec<u32>,
    moves: u32,
    delivered: u32,
    /// Eligible packets delivered.
    eligible_gone: u32,
    /// Change of `unsettled` (wrapping).
    unsettled: u32,
}

impl Parallel {
    /// The threads and lanes for `threads` threads, or `None` for one
    /// thread (or if no thread can be started: the step then stays
    /// sequential).
    pub(super) fn new(threads: usize) -> Option<Box<Parallel>> {
        if threads <= 1 {
            return None;
        }
        Some(Box::new(Parallel {
            runner: Arc::new(Runner::new(threads)?),
            lanes: vec![Lane::default(); threads],
            strays: vec![vec![Vec::new(); threads]; threads],
            slot_cut: Vec::new(),
            node_cut: Vec::new(),
            steps: 0,
            stray_count: 0,
        }))
    }

    /// The lanes' threads (a re-sort gathers its columns with them, order.rs).
    pub(super) fn runner(&self) -> Arc<Runner> {
        Arc::clone(&self.runner)
    }
}

/// `column` cut at `cuts` (absolute, increasing): one slice per part; an
/// empty column (unused by the policy) gives empty slices.
pub(super) fn split<'a, T>(column: &'a mut [T], cuts: &[usize]) -> Vec<&'a mut [T]> {
    let parts = cuts.len() - 1;
    if column.is_empty() {
        return (0..parts).map(|_| <&mut [T]>::default()).collect();
    }
    let mut rest = &mut column[cuts[0]..cuts[parts]];
    let mut out = Vec::with_capacity(parts);
    for t in 0..parts {
        let (head, tail) = std::mem::take(&mut rest).split_at_mut(cuts[t + 1] - cuts[t]);
        out.push(head);
        rest = tail;
    }
    out
}

/// As [`split`] for a column only read.
pub(super) fn split_ref<'a, T>(column: &'a [T], cuts: &[usize]) -> Vec<&'a [T]> {
    let parts = cuts.len() - 1;
    if column.is_empty() {
        return vec![&[]; parts];
    }
    (0..parts).map(|t| &column[cuts[t]..cuts[t + 1]]).collect()
}

/// Enters the bids of slots `lo..hi` for links `klo..klo + links.len()`
/// (`links`: that part of `link_contest`) into `lane`'s contests, as
/// `enter_bids` does; a bid for a link of lane u (not the sink) goes to
/// `strays[u]` (`node_cut` and `ports` tell u).
#[allow(clippy::too_many_arguments)]
fn lane_bid<const RAND: bool>(
    lane: &mut Lane,
    strays: &mut [Vec<u32>],
    (node_cut, ports): (&[usize], usize),
    links: &mut [u32],
    klo: u32,
    (lo, hi): (usize, usize),
    base: u32,
    sink: u32,
    (bid_link, bid_key, ties): (&[u32], &[u64], &[u32]),
    (salt, step): (u64, u32),
) {
    let need = hi - lo + 1;
    if lane.contests.len() < need {
        lane.contests.resize(need, Contest::default());
        lane.first.resize(need, 0);
    }
    strays.iter_mut().for_each(Vec::clear);
    let (contests, first) = (&mut lane.contests[..need], &mut lane.first[..need]);
    let len = links.len() as u32;
    let mut count = 0usize;
    // The lane's slots only, each column cut to their number, so that one
    // loop bound stands for every column's bounds check.
    let m = hi - lo;
    let (bid_link, bid_key, ties) = (&bid_link[lo..hi], &bid_key[lo..hi], &ties[lo..hi]);
    let ahead = prefetch_below(m, sink as usize + 1);
    for j in 0..m {
        if j < ahead {
            // A stray's link is another lane's: outside `links`, skipped.
            prefetch(links, bid_link[j + AHEAD].wrapping_sub(klo) as usize);
        }
        let (lid, s) = (bid_link[j], (lo + j) as u32);
        let rel = lid.wrapping_sub(klo);
        if rel < len {
            let candidate = if RAND {
                random_bid(salt, step, ties[j])
            } else {
                bid_key[j]
            };
            // The next free entry: kept if this bid opens it.
            first[count] = s;
            count += enter_bid(&mut links[rel as usize], base, contests, count, s, candidate) as usize;
        } else if lid != sink {
            let node = lid as usize / ports;
            strays[node_cut.partition_point(|&v| v <= node) - 1].push(s);
        }
    }
    lane.count = count;
}

/// Enters the strays' bids for lane `u`'s links (`links`, from `klo`), in
/// slot order (lane by lane), into the lane's contests (those opened at
/// `base + off`) or its extras (opened at `base + off_x`): a bid after the
/// contest's first bid joins it; a bid before it (from an earlier lane)
/// takes the contest over into the extras with the earlier first bid; a
/// link without a contest gets one in the extras.
#[allow(clippy::too_many_arguments)]
fn lane_strays<const RAND: bool>(
    lane: &mut Lane,
    strays: &[Vec<Vec<u32>>],
    u: usize,
    links: &mut [u32],
    klo: u32,
    (base, off, off_x): (u32, usize, usize),
    (bid_link, bid_key, ties): (&[u32], &[u64], &[u32]),
    (salt, step): (u64, u32),
) {
    let Lane {
        contests,
        first,
        count,
        extras,
        extras_first,
        ..
    } = lane;
    extras.clear();
    extras_first.clear();
    for row in strays {
        for &s in &row[u] {
            let lid = bid_link[s as usize];
            let candidate = if RAND {
                random_bid(salt, step, ties[s as usize])
            } else {
                bid_key[s as usize]
            };
            let entry = &mut links[(lid - klo) as usize];
            let c = entry.wrapping_sub(base) as usize;
            let (x, k) = (c.wrapping_sub(off_x), c.wrapping_sub(off));
            let contest = if x < extras.len() {
                &mut extras[x]
            } else if k < *count && first[k] < s {
                &mut contests[k]
            } else {
                let empty = Contest { best: EMPTY, winner: 0 };
                // The owner's contest, if any, leaves the lane's list (its
                // entry stays `EMPTY`, which no step moves or refuses).
                let open = if k < *count {
                    std::mem::replace(&mut contests[k], empty)
                } else {
                    empty
                };
                extras.push(open);
                extras_first.push(s);
                *entry = base.wrapping_add((off_x + extras.len() - 1) as u32);
                extras.last_mut().expect("just pushed")
            };
            if candidate > contest.best {
                *contest = Contest {
                    best: candidate,
                    winner: s,
                };
            }
        }
    }
}

impl Engine {
    /// How many steps ran in parallel, and how many bids in them were
    /// strays (for tests: that the parallel path and its merge ran).
    pub fn parallel_counts(&self) -> (u64, u64) {
        self.par.as_ref().map_or((0, 0), |p| (p.steps, p.stray_count))
    }

    /// Whether this step runs in parallel (see the module's docs).
    pub(super) fn parallel_now(&self) -> bool {
        self.par.is_some()
            && self.eligible > 0
            && self.scan_len >= self.config.parallel_min.max(1)
            && self.contest_count == 0
            && self.reserved.is_empty()
            && self.forced.is_empty()
            && self.control.is_empty()
            && self.crossings.is_empty()
            && !self.config.edge_queues
            && self.config.flits == 1
            && !self.open_loop
    }

    /// Phase 1 in parallel: the cuts, the lanes' contests, then the strays.
    pub(super) fn par_bid(&mut self) {
        let par = self.par.as_mut().expect("parallel step");
        let n = self.scan_len;
        let lanes = par.lanes.len();
        let ports = self.topo.ports() as usize;
        let nodes = self.working.len();
        // Entries of this step go up to base + 2n (lanes and strays' contests).
        if (self.contest_base as u64) + 2 * n as u64 + 2 > u32::MAX as u64 {
            self.link_contest.fill(0);
            self.contest_base = 1;
        }
        // The cuts: equal slot parts, each node cut at the next part's first
        // slot's node, moved back over the slots at that node.
        par.slot_cut.clear();
        par.node_cut.clear();
        par.slot_cut.push(0);
        par.node_cut.push(0);
        for t in 1..lanes {
            let (prev_slot, prev_node) = (par.slot_cut[t - 1], par.node_cut[t - 1]);
            let mut s = (t * n / lanes).max(prev_slot);
            let node = if s < n {
                (self.pos[s] as usize).max(prev_node)
            } else {
                nodes
            };
            let mut back = 0;
            while s > prev_slot && back < 64 && (self.pos[s - 1] as usize) == node {
                s -= 1;
                back += 1;
            }
            par.slot_cut.push(s);
            par.node_cut.push(node);
        }
        par.slot_cut.push(n);
        par.node_cut.push(nodes);
        let sink = self.link_contest.len() as u32 - 1;
        let base = self.contest_base;
        let link_cuts: Vec<usize> = par.node_cut.iter().map(|&v| v * ports).collect();
        let columns = (
            &self.bid_link[..],
            &self.bid_key[..],
            super::ties(&self.id_of, &self.tie_of),
        );
        let draw = (self.policy_salt, self.step);
        let random = self.config.policy == super::Policy::Random;
        let parts = split(&mut self.link_contest[..], &link_cuts);
        let Parallel {
            runner,
            lanes: all,
            strays,
            slot_cut,
            node_cut,
            steps,
            stray_count,
        } = &mut **par;
        let (slot_cut, node_cut) = (&*slot_cut, &*node_cut);
        runner.for_each(
            all.iter_mut().zip(strays.iter_mut()).zip(parts),
            |t, ((lane, strays), links)| {
                let klo = (node_cut[t] * ports) as u32;
                let range = (slot_cut[t], slot_cut[t + 1]);
                let lane_base = base.wrapping_add(range.0 as u32);
                let cut = (&node_cut[..], ports);
                if random {
                    lane_bid::<true>(lane, strays, cut, links, klo, range, lane_base, sink, columns, draw);
                } else {
                    lane_bid::<false>(lane, strays, cut, links, klo, range, lane_base, sink, columns, draw);
                }
            },
        );
        // The strays, each by the lane that owns its link; each lane's
        // extras are opened at entries after those of the lanes before it.
        let mut off_x = Vec::with_capacity(lanes);
        let mut total = n;
        for u in 0..lanes {
            off_x.push(total);
            total += strays.iter().map(|row| row[u].len()).sum::<usize>();
        }
        *steps += 1;
        *stray_count += (total - n) as u64;
        let parts = split(&mut self.link_contest[..], &link_cuts);
        let strays = &*strays;
        runner.for_each(all.iter_mut().zip(parts), |u, (lane, links)| {
            let klo = (node_cut[u] * ports) as u32;
            let offsets = (base, slot_cut[u], off_x[u]);
            if random {
                lane_strays::<true>(lane, strays, u, links, klo, offsets, columns, draw);
            } else {
                lane_strays::<false>(lane, strays, u, links, klo, offsets, columns, draw);
            }
        });
        // Retiring the step's contests raises the base past every entry.
        self.contest_count = total;
    }

    /// Phase 2 in parallel mode (node queues; edge queues stay sequential):
    /// `apply_queue_capacity` over the lanes' and the strays' contests.
    pub(super) fn par_queue_capacity(&mut self, cap: u32) {
        let par = self.par.as_mut().expect("parallel step");
        let mut transit: Vec<(u32, u64, (u32, u32))> = Vec::new(); // (to, best, (list, contest))
        let lists = par.lanes.iter().flat_map(|l| [&l.contests[..l.count], &l.extras[..]]);
        for (t, list) in lists.enumerate() {
            for (k, c) in list.iter().enumerate() {
                if c.best == EMPTY {
                    continue;
                }
                let w = c.winner as usize;
                let next = self.bid_next[w];
                if next == self.dest[w] && self.deliver_on_arrival {
                    continue;
                }
                transit.push((next, c.best, (t as u32, k as u32)));
            }
        }
        refuse_beyond_room(&mut transit, &self.working, cap, |(t, c)| {
            let lane = &mut par.lanes[t as usize / 2];
            let list = if t % 2 == 1 {
                &mut lane.extras
            } else {
                &mut lane.contests
            };
            list[c as usize].best = EMPTY;
        });
    }
}
