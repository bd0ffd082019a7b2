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
//! Each lane moves the winners of its own contests whose slots it scans;
//! an arrival at a node of another lane is kept aside. After the lanes, in
//! a fixed order: the remaining winners (of the strays' contests, and
//! winners whose slot another lane scans), the arrivals kept aside, the
//! lanes' queue-size histogram changes (sums), deliveries and counters
//! (sums), and the largest queue and load from every node that may have
//! passed them (a maximum). Nothing of it depends on which lane ran first.
//!
//! # When the step stays sequential
//! Fewer than `EngineConfig::parallel_min` packets in flight; a step with
//! reserved links (control messages, scripted moves); edge queues, worms
//! (F > 1) and open-loop traffic (their state is per link or per step and
//! ordered); every step of the wasm build.

use super::bids::{random_bid, tie_flip, KeyColumns};
use super::contest::{Contest, EMPTY};
use super::queues::shift_queue;
use super::{Engine, StepSummary, DELIVERED, DEPARTED, ELIGIBLE, FIFO, FORCED};
use crate::topology::{Network, RouteOrder};
use rayon::prelude::*;
use std::hint::select_unpredictable;
use std::sync::Arc;

/// The thread pool and the lanes' scratch of an engine with threads > 1.
#[derive(Debug, Clone)]
pub(super) struct Parallel {
    pool: Arc<rayon::ThreadPool>,
    lanes: Vec<Lane>,
    /// The lane of the winners moved after the others (owns everything).
    rest: Lane,
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
    /// Nodes whose queue or load may pass the maxima so far.
    arrivals: Vec<u32>,
    delivered_slots: Vec<u32>,
    arrived: Vec<u32>,
    /// Changes to the queue-size histogram (wrapping: entries may be negative).
    hist: Vec<u32>,
    moves: u32,
    delivered: u32,
    /// Eligible packets delivered.
    eligible_gone: u32,
    /// Change of `unsettled` (wrapping).
    unsettled: u32,
}

impl Parallel {
    /// The pool and lanes for `threads` threads, or `None` for one thread
    /// (or if no pool can be made: the step then stays sequential).
    pub(super) fn new(threads: usize) -> Option<Box<Parallel>> {
        if threads <= 1 {
            return None;
        }
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().ok()?;
        Some(Box::new(Parallel {
            pool: Arc::new(pool),
            lanes: vec![Lane::default(); threads],
            rest: Lane::default(),
            strays: vec![vec![Vec::new(); threads]; threads],
            slot_cut: Vec::new(),
            node_cut: Vec::new(),
            steps: 0,
            stray_count: 0,
        }))
    }

    /// The pool (a re-sort gathers its columns with it, order.rs).
    pub(super) fn pool(&self) -> Arc<rayon::ThreadPool> {
        Arc::clone(&self.pool)
    }
}

/// The settings a lane's commit reads.
struct Settings<'a, N> {
    net: &'a N,
    salt: u64,
    step: u32,
    order: RouteOrder,
    sink: u32,
    deliver_on_arrival: bool,
    series: bool,
    record_links: bool,
    queue_so_far: u32,
    load_so_far: u32,
}

/// A lane's part of the packet columns (slots `lo..`) and node columns (nodes `nlo..`).
struct Cols<'a> {
    lo: usize,
    nlo: usize,
    pos: &'a mut [u32],
    target: &'a [u32],
    dest: &'a [u32],
    phase_start: &'a [u32],
    since: &'a mut [u32],
    rank: &'a [u32],
    flags: &'a mut [u8],
    id_of: &'a [u32],
    bid_link: &'a mut [u32],
    bid_next: &'a mut [u32],
    bid_key: &'a mut [u64],
    working: &'a mut [u32],
    at_source: &'a mut [u32],
}

/// `column` cut at `cuts` (absolute, increasing): one slice per part; an
/// empty column (unused by the policy) gives empty slices.
fn split<'a, T>(column: &'a mut [T], cuts: &[usize]) -> Vec<&'a mut [T]> {
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
fn split_ref<'a, T>(column: &'a [T], cuts: &[usize]) -> Vec<&'a [T]> {
    let parts = cuts.len() - 1;
    if column.is_empty() {
        return vec![&[]; parts];
    }
    (0..parts).map(|t| &column[cuts[t]..cuts[t + 1]]).collect()
}

/// [`shift_queue`] into a lane's histogram of changes.
#[inline(always)]
fn shift_local(working: &mut [u32], hist: &mut Vec<u32>, series: bool, node: usize, grow: bool) -> u32 {
    let old = working[node];
    let value = if grow { old + 1 } else { old - 1 };
    if series {
        let top = old.max(value) as usize;
        if top >= hist.len() {
            hist.resize(top + 1, 0);
        }
        hist[old as usize] = hist[old as usize].wrapping_sub(1);
        hist[value as usize] = hist[value as usize].wrapping_add(1);
    }
    working[node] = value;
    value
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
    (bid_link, bid_key, id_of): (&[u32], &[u64], &[u32]),
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
    for s in lo..hi {
        let lid = bid_link[s];
        let rel = lid.wrapping_sub(klo);
        if rel < len {
            let candidate = if RAND {
                random_bid(salt, step, id_of[s])
            } else {
                bid_key[s]
            };
            let entry = &mut links[rel as usize];
            let c = entry.wrapping_sub(base) as usize;
            let fresh = c >= count;
            let k = c.min(count);
            // The next free entry: kept if this bid opens it.
            first[count] = s as u32;
            let contest = &mut contests[k];
            let best = select_unpredictable(fresh, EMPTY, contest.best);
            let better = candidate > best;
            *contest = Contest {
                best: select_unpredictable(better, candidate, best),
                winner: select_unpredictable(better, s as u32, contest.winner),
            };
            *entry = base + k as u32;
            count += fresh as usize;
        } else if lid != sink {
            let node = lid as usize / ports;
            strays[node_cut.partition_point(|&v| v <= node) - 1].push(s as u32);
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
    (bid_link, bid_key, id_of): (&[u32], &[u64], &[u32]),
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
                random_bid(salt, step, id_of[s as usize])
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

/// Moves the winner in slot `g` (of the contest first bid for from slot
/// `first`) as `Engine::commit_in` does, within a lane's columns.
#[inline(always)]
fn move_winner<N: Network, const P: u8>(out: &mut LaneOut, c: &mut Cols, set: &Settings<N>, g: usize, first: u32) {
    let i = g - c.lo;
    let (lid, to) = (c.bid_link[i], c.bid_next[i]);
    if set.record_links {
        out.links.push((first, lid));
    }
    out.moves += 1;
    let from = c.pos[i] as usize - c.nlo;
    let f = c.flags[i];
    if f & DEPARTED != 0 {
        shift_local(c.working, &mut out.hist, set.series, from, false);
    } else {
        c.at_source[from] -= 1;
    }
    c.pos[i] = to;
    if P == FIFO {
        c.since[i] = set.step;
    }
    let mut f = (f | DEPARTED) & !FORCED;
    let mut after = false;
    if to == c.dest[i] && set.deliver_on_arrival {
        out.eligible_gone += (f & ELIGIBLE != 0) as u32;
        f |= DELIVERED;
        out.delivered += 1;
        out.delivered_slots.push(g as u32);
    } else {
        let local = (to as usize).wrapping_sub(c.nlo);
        if local < c.working.len() {
            let queue = shift_local(c.working, &mut out.hist, set.series, local, true);
            if queue > set.queue_so_far || queue + c.at_source[local] > set.load_so_far {
                out.arrivals.push(to);
            }
        } else {
            out.remote.push(to);
        }
        let at_target = to == c.target[i];
        if at_target {
            out.arrived.push(c.id_of[i]);
        }
        after = f & ELIGIBLE != 0 && !at_target;
    }
    let keys = KeyColumns::new(
        set.net,
        set.salt,
        set.step,
        c.pos,
        c.target,
        c.phase_start,
        c.since,
        c.rank,
        c.id_of,
    );
    (c.bid_link[i], c.bid_next[i], c.bid_key[i]) = keys.bid_or_sink::<P>(i, after, tie_flip(f), set.order, set.sink);
    c.flags[i] = f;
    // A winner bid, so it counted as unsettled before its move.
    out.unsettled = out.unsettled.wrapping_add(after as u32).wrapping_sub(1);
}

/// A lane's commit: the winners of its contests whose slots it scans.
fn lane_commit<N: Network, const P: u8>(lane: &mut Lane, mut cols: Cols, set: &Settings<N>) {
    let Lane {
        contests,
        first,
        count,
        extras,
        extras_first,
        out,
    } = lane;
    let hi = cols.lo + cols.pos.len();
    let mut each = |out: &mut LaneOut, c: &Contest, f: u32| {
        if c.best == EMPTY {
            return;
        }
        let w = c.winner as usize;
        if w < cols.lo || w >= hi {
            out.deferred.push((f, c.winner));
        } else {
            move_winner::<N, P>(out, &mut cols, set, w, f);
        }
    };
    for (c, &f) in contests[..*count].iter().zip(&first[..*count]) {
        each(out, c, f);
    }
    // The extras' links apart: their first bids lie in other lanes' ranges.
    std::mem::swap(&mut out.links, &mut out.links_extra);
    for (c, &f) in extras.iter().zip(extras_first.iter()) {
        each(out, c, f);
    }
    std::mem::swap(&mut out.links, &mut out.links_extra);
}

impl LaneOut {
    fn clear(&mut self) {
        self.links.clear();
        self.links_extra.clear();
        self.deferred.clear();
        self.remote.clear();
        self.arrivals.clear();
        self.delivered_slots.clear();
        self.arrived.clear();
        self.hist.fill(0);
        (self.moves, self.delivered, self.eligible_gone, self.unsettled) = (0, 0, 0, 0);
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
        let columns = (&self.bid_link[..], &self.bid_key[..], &self.id_of[..]);
        let draw = (self.policy_salt, self.step);
        let random = self.config.policy == super::Policy::Random;
        let (slot_cut, node_cut) = (&par.slot_cut, &par.node_cut);
        let parts = split(&mut self.link_contest[..], &link_cuts);
        par.pool.install(|| {
            par.lanes
                .par_iter_mut()
                .zip(par.strays.par_iter_mut())
                .zip(parts)
                .enumerate()
                .for_each(|(t, ((lane, strays), links))| {
                    let klo = (node_cut[t] * ports) as u32;
                    let range = (slot_cut[t], slot_cut[t + 1]);
                    let lane_base = base.wrapping_add(range.0 as u32);
                    let cut = (&node_cut[..], ports);
                    if random {
                        lane_bid::<true>(lane, strays, cut, links, klo, range, lane_base, sink, columns, draw);
                    } else {
                        lane_bid::<false>(lane, strays, cut, links, klo, range, lane_base, sink, columns, draw);
                    }
                })
        });
        // The strays, each by the lane that owns its link; each lane's
        // extras are opened at entries after those of the lanes before it.
        let mut off_x = Vec::with_capacity(lanes);
        let mut total = n;
        for u in 0..lanes {
            off_x.push(total);
            total += par.strays.iter().map(|row| row[u].len()).sum::<usize>();
        }
        par.steps += 1;
        par.stray_count += (total - n) as u64;
        let parts = split(&mut self.link_contest[..], &link_cuts);
        let strays = &par.strays;
        par.pool.install(|| {
            par.lanes
                .par_iter_mut()
                .zip(parts)
                .enumerate()
                .for_each(|(u, (lane, links))| {
                    let klo = (node_cut[u] * ports) as u32;
                    let offsets = (base, slot_cut[u], off_x[u]);
                    if random {
                        lane_strays::<true>(lane, strays, u, links, klo, offsets, columns, draw);
                    } else {
                        lane_strays::<false>(lane, strays, u, links, klo, offsets, columns, draw);
                    }
                })
        });
        // Retiring the step's contests raises the base past every entry.
        self.contest_count = total;
    }

    /// Phase 2 in parallel mode (node queues; edge queues stay sequential):
    /// `apply_queue_capacity` over the lanes' and the strays' contests.
    pub(super) fn par_queue_capacity(&mut self, cap: u32) {
        let par = self.par.as_mut().expect("parallel step");
        let mut transit: Vec<(u32, u64, u32, u32)> = Vec::new(); // (to, best, lane, contest)
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
                transit.push((next, c.best, t as u32, k as u32));
            }
        }
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
                    let (_, _, t, c) = transit[k];
                    let lane = &mut par.lanes[t as usize / 2];
                    let list = if t % 2 == 1 {
                        &mut lane.extras
                    } else {
                        &mut lane.contests
                    };
                    list[c as usize].best = EMPTY;
                }
                k += 1;
            }
        }
    }

    /// Phase 3 in parallel.
    pub(super) fn par_commit(&mut self, summary: &mut StepSummary) {
        monomorphic!(self.par_commit_in(summary))
    }

    fn par_commit_in<N: Network + Sync, const P: u8>(&mut self, net: &N, summary: &mut StepSummary) {
        let sink = self.sink();
        let record_links = self.config.record_series || self.config.check_invariants;
        let set = Settings {
            net,
            salt: self.policy_salt,
            step: self.step,
            order: self.order,
            sink,
            deliver_on_arrival: self.deliver_on_arrival,
            series: self.config.record_series,
            record_links,
            queue_so_far: self.current_max_queue,
            load_so_far: self.stats.max_load,
        };
        let mut par = self.par.take().expect("parallel step");
        let Parallel {
            pool,
            lanes,
            rest,
            slot_cut,
            node_cut,
            ..
        } = &mut *par;
        {
            let Engine {
                pos,
                target,
                dest,
                phase_start,
                since,
                rank,
                flags,
                id_of,
                bid_link,
                bid_next,
                bid_key,
                working,
                at_source,
                ..
            } = self;
            let mut pos_p = split(pos, slot_cut).into_iter();
            let target_p = split_ref(target, slot_cut);
            let dest_p = split_ref(dest, slot_cut);
            let phase_p = split_ref(phase_start, slot_cut);
            let mut since_p = split(since, slot_cut).into_iter();
            let rank_p = split_ref(rank, slot_cut);
            let mut flags_p = split(flags, slot_cut).into_iter();
            let id_p = split_ref(id_of, slot_cut);
            let mut link_p = split(bid_link, slot_cut).into_iter();
            let mut next_p = split(bid_next, slot_cut).into_iter();
            let mut key_p = split(bid_key, slot_cut).into_iter();
            let mut working_p = split(working, node_cut).into_iter();
            let mut source_p = split(at_source, node_cut).into_iter();
            let mut cols: Vec<Cols> = Vec::with_capacity(lanes.len());
            for t in 0..lanes.len() {
                cols.push(Cols {
                    lo: slot_cut[t],
                    nlo: node_cut[t],
                    pos: pos_p.next().unwrap(),
                    target: target_p[t],
                    dest: dest_p[t],
                    phase_start: phase_p[t],
                    since: since_p.next().unwrap(),
                    rank: rank_p[t],
                    flags: flags_p.next().unwrap(),
                    id_of: id_p[t],
                    bid_link: link_p.next().unwrap(),
                    bid_next: next_p.next().unwrap(),
                    bid_key: key_p.next().unwrap(),
                    working: working_p.next().unwrap(),
                    at_source: source_p.next().unwrap(),
                });
            }
            pool.install(|| {
                lanes.par_iter_mut().zip(cols).for_each(|(lane, cols)| {
                    lane.out.clear();
                    lane_commit::<N, P>(lane, cols, &set);
                })
            });
        }
        // The remaining winners, in the order of their contests' first bids.
        let mut remaining: Vec<(u32, u32)> = Vec::new();
        for lane in lanes.iter() {
            remaining.extend_from_slice(&lane.out.deferred);
        }
        remaining.sort_unstable();
        rest.out.clear();
        {
            let n = self.pos.len();
            let mut cols = Cols {
                lo: 0,
                nlo: 0,
                pos: &mut self.pos[..n],
                target: &self.target[..n],
                dest: &self.dest[..n],
                phase_start: &self.phase_start[..],
                since: &mut self.since[..],
                rank: &self.rank[..],
                flags: &mut self.flags[..n],
                id_of: &self.id_of[..n],
                bid_link: &mut self.bid_link[..n],
                bid_next: &mut self.bid_next[..n],
                bid_key: &mut self.bid_key[..n],
                working: &mut self.working[..],
                at_source: &mut self.at_source[..],
            };
            for &(first, w) in &remaining {
                move_winner::<N, P>(&mut rest.out, &mut cols, &set, w as usize, first);
            }
        }
        // Sums: the histogram's changes, then the arrivals kept aside.
        let series = self.config.record_series;
        if series {
            for out in lanes.iter().map(|l| &l.out).chain([&rest.out]) {
                if out.hist.len() > self.queue_histogram.len() {
                    self.queue_histogram.resize(out.hist.len(), 0);
                }
                for (h, &d) in self.queue_histogram.iter_mut().zip(&out.hist) {
                    *h = h.wrapping_add(d);
                }
            }
        }
        self.arrivals.clear();
        self.delivered_slots.clear();
        let (mut moves, mut delivered_now, mut eligible_gone, mut unsettled) = (0u32, 0u32, 0u32, self.unsettled);
        for out in lanes.iter().map(|l| &l.out).chain([&rest.out]) {
            for &to in &out.remote {
                let queue = shift_queue(&mut self.working, &mut self.queue_histogram, series, to as usize, true);
                if queue > set.queue_so_far || queue + self.at_source[to as usize] > set.load_so_far {
                    self.arrivals.push(to);
                }
            }
            self.arrivals.extend_from_slice(&out.arrivals);
            self.delivered_slots.extend_from_slice(&out.delivered_slots);
            self.arrived_at_target.extend_from_slice(&out.arrived);
            moves += out.moves;
            delivered_now += out.delivered;
            eligible_gone += out.eligible_gone;
            unsettled = unsettled.wrapping_add(out.unsettled);
        }
        for &s in &self.delivered_slots {
            self.delivered_at[self.id_of[s as usize] as usize] = self.step;
        }
        if record_links {
            // The lanes' own links, lane after lane, are in first-bid
            // order; the extras' and the rest's are sorted into it.
            let mut others: Vec<(u32, u32)> = lanes.iter().flat_map(|l| l.out.links_extra.iter()).copied().collect();
            others.extend_from_slice(&rest.out.links);
            others.sort_unstable();
            let mut lane_links = lanes.iter().flat_map(|l| l.out.links.iter()).peekable();
            let mut rest_links = others.iter().peekable();
            loop {
                let next = match (lane_links.peek(), rest_links.peek()) {
                    (Some(a), Some(b)) if a.0 < b.0 => lane_links.next(),
                    (Some(_), Some(_)) => rest_links.next(),
                    (Some(_), None) => lane_links.next(),
                    (None, Some(_)) => rest_links.next(),
                    (None, None) => break,
                };
                self.last_links.push(next.expect("peeked").1);
            }
        }
        summary.packet_moves += moves;
        summary.delivered += delivered_now;
        self.stats.delivered_many_at_step(self.step, delivered_now);
        self.unsettled = unsettled;
        self.eligible -= eligible_gone;
        self.delivered += summary.delivered;
        self.in_flight -= summary.delivered;
        let (mut max_queue, mut max_load) = (self.current_max_queue, self.stats.max_load);
        for &to in &self.arrivals {
            let w = self.working[to as usize];
            max_queue = max_queue.max(w);
            max_load = max_load.max(w + self.at_source[to as usize]);
        }
        self.current_max_queue = max_queue;
        self.stats.max_load = max_load;
        self.par = Some(par);
    }
}
