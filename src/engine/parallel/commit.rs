//! The parallel step's commit (phase 3; see the parent module's "Commit").

use super::super::bids::{tie_flip, KeyColumns};
use super::super::contest::{Contest, EMPTY};
use super::super::queues::{raise_maxima, shift_queue};
use super::super::{Engine, StepSummary, DELIVERED, DEPARTED, ELIGIBLE, FIFO, FORCED};
use super::{split, split_ref, Lane, LaneOut, Parallel};
use crate::topology::{Network, RouteOrder};

/// The settings a lane's commit reads.
struct Settings<'a, N> {
    net: &'a N,
    salt: u64,
    step: u32,
    sink: u32,
    deliver_on_arrival: bool,
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
    /// The tie-breaking numbers (`super::super::ties`).
    ties: &'a [u32],
    bid_link: &'a mut [u32],
    bid_next: &'a mut [u32],
    bid_key: &'a mut [u64],
    working: &'a mut [u32],
    at_source: &'a mut [u32],
}

impl Cols<'_> {
    /// The same columns reborrowed with every packet column cut to the
    /// length of `pos` (they all have it) and every node column to that of
    /// `working`, so that one test of a slot stands for all columns.
    #[inline(always)]
    fn same_length(&mut self) -> Cols<'_> {
        let (n, nodes) = (self.pos.len(), self.working.len());
        Cols {
            lo: self.lo,
            nlo: self.nlo,
            pos: &mut self.pos[..n],
            target: &self.target[..n],
            dest: &self.dest[..n],
            phase_start: self.phase_start,
            since: self.since,
            rank: self.rank,
            flags: &mut self.flags[..n],
            id_of: &self.id_of[..n],
            ties: &self.ties[..n],
            bid_link: &mut self.bid_link[..n],
            bid_next: &mut self.bid_next[..n],
            bid_key: &mut self.bid_key[..n],
            working: &mut self.working[..nodes],
            at_source: &mut self.at_source[..nodes],
        }
    }
}

/// Moves the winner in slot `g` (of the contest first bid for from slot
/// `first`) as `Engine::commit_in` does, within a lane's columns.
#[inline(always)]
fn move_winner<N: Network, const P: u8, const R: bool>(
    out: &mut LaneOut,
    c: &mut Cols,
    set: &Settings<N>,
    g: usize,
    first: u32,
) {
    let i = g - c.lo;
    assert!(i < c.pos.len(), "slot {g} out of the lane's range");
    let (lid, to) = (c.bid_link[i], c.bid_next[i]);
    if set.record_links {
        out.links.push((first, lid));
    }
    out.moves += 1;
    let from = (c.pos[i] as usize).wrapping_sub(c.nlo);
    let f = c.flags[i];
    if from < c.working.len() {
        if f & DEPARTED != 0 {
            shift_queue(c.working, from, false);
        } else {
            c.at_source[from] -= 1;
        }
    } else if f & DEPARTED != 0 {
        out.remote_leave.push(c.pos[i]);
    } else {
        out.remote_source.push(c.pos[i]);
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
            let queue = shift_queue(c.working, local, true);
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
        c.ties,
    );
    (c.bid_link[i], c.bid_next[i], c.bid_key[i]) =
        keys.bid_or_sink::<P>(i, after, tie_flip(f), route_order::<R>(), set.sink);
    c.flags[i] = f;
    // A winner bid, so it counted as unsettled before its move.
    out.unsettled = out.unsettled.wrapping_add(after as u32).wrapping_sub(1);
}

/// The route order `R` names (reversed: true).
#[inline(always)]
fn route_order<const R: bool>() -> RouteOrder {
    if R {
        RouteOrder::Reversed
    } else {
        RouteOrder::Standard
    }
}

/// Moves the winner of contest `c` (first bid for from slot `first`) if
/// the lane scans its slot, else defers it to the lane that does.
#[inline(always)]
fn commit_contest<N: Network, const P: u8, const R: bool>(
    out: &mut LaneOut,
    cols: &mut Cols,
    set: &Settings<N>,
    c: &Contest,
    first: u32,
) {
    if c.best == EMPTY {
        return;
    }
    let w = c.winner as usize;
    if w.wrapping_sub(cols.lo) < cols.pos.len() {
        move_winner::<N, P, R>(out, cols, set, w, first);
    } else {
        out.deferred.push((first, c.winner));
    }
}

/// A lane's commit: the winners of its contests whose slots it scans.
///
/// The columns are cut to one length here, once, and the per-contest work
/// inlined into the two loops: a lane's commit then tests a slot once for
/// all its columns, as the sequential commit does. (Called through a
/// closure and with a bounds check per column, it ran about 1.25 times
/// the sequential commit's instructions: docs/architecture.md.)
fn lane_commit<N: Network, const P: u8, const R: bool>(lane: &mut Lane, cols: &mut Cols, set: &Settings<N>) {
    let Lane {
        contests,
        first,
        count,
        extras,
        extras_first,
        out,
    } = lane;
    let mut cols = cols.same_length();
    for (c, &f) in contests[..*count].iter().zip(&first[..*count]) {
        commit_contest::<N, P, R>(out, &mut cols, set, c, f);
    }
    // The extras' links apart: their first bids lie in other lanes' ranges.
    std::mem::swap(&mut out.links, &mut out.links_extra);
    for (c, &f) in extras.iter().zip(extras_first.iter()) {
        commit_contest::<N, P, R>(out, &mut cols, set, c, f);
    }
    std::mem::swap(&mut out.links, &mut out.links_extra);
}

/// A lane's commit, second part: the winners of other lanes' contests
/// (`deferred`, per lane) whose slots it scans.
fn lane_commit_deferred<N: Network, const P: u8, const R: bool>(
    out: &mut LaneOut,
    cols: &mut Cols,
    set: &Settings<N>,
    deferred: &[Vec<(u32, u32)>],
) {
    let (lo, hi) = (cols.lo, cols.lo + cols.pos.len());
    // Their first bids lie in other lanes' ranges: their links go apart.
    std::mem::swap(&mut out.links, &mut out.links_extra);
    for &(f, w) in deferred.iter().flatten() {
        if (lo..hi).contains(&(w as usize)) {
            move_winner::<N, P, R>(out, cols, set, w as usize, f);
        }
    }
    std::mem::swap(&mut out.links, &mut out.links_extra);
}

impl LaneOut {
    fn clear(&mut self) {
        self.links.clear();
        self.links_extra.clear();
        self.deferred.clear();
        self.remote.clear();
        self.remote_leave.clear();
        self.remote_source.clear();
        self.arrivals.clear();
        self.delivered_slots.clear();
        self.arrived.clear();
        (self.moves, self.delivered, self.eligible_gone, self.unsettled) = (0, 0, 0, 0);
    }
}

impl Engine {
    /// Phase 3 in parallel.
    pub(in crate::engine) fn par_commit(&mut self, summary: &mut StepSummary) {
        monomorphic!(self.par_commit_route(summary))
    }

    /// [`Engine::par_commit_in`] compiled per route order, as the
    /// sequential commit is (the next hop's rule then inlines).
    fn par_commit_route<N: Network + Sync, const P: u8>(&mut self, net: &N, summary: &mut StepSummary) {
        match self.order {
            RouteOrder::Standard => self.par_commit_in::<N, P, false>(net, summary),
            RouteOrder::Reversed => self.par_commit_in::<N, P, true>(net, summary),
        }
    }

    fn par_commit_in<N: Network + Sync, const P: u8, const R: bool>(&mut self, net: &N, summary: &mut StepSummary) {
        let sink = self.sink();
        let record_links = self.record_links;
        let set = Settings {
            net,
            salt: self.policy_salt,
            step: self.step,
            sink,
            deliver_on_arrival: self.deliver_on_arrival,
            record_links,
            queue_so_far: self.current_max_queue,
            load_so_far: self.stats.max_load,
        };
        let mut par = self.par.take().expect("parallel step");
        let Parallel {
            runner,
            lanes,
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
                tie_of,
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
            let tie_p = split_ref(crate::engine::ties(id_of, tie_of), slot_cut);
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
                    ties: tie_p[t],
                    bid_link: link_p.next().unwrap(),
                    bid_next: next_p.next().unwrap(),
                    bid_key: key_p.next().unwrap(),
                    working: working_p.next().unwrap(),
                    at_source: source_p.next().unwrap(),
                });
            }
            {
                runner.for_each(lanes.iter_mut().zip(cols.iter_mut()), |_, (lane, cols)| {
                    lane.out.clear();
                    lane_commit::<N, P, R>(lane, cols, &set);
                });
            }
            // Winners of one lane's contests whose slots another scans.
            if lanes.iter().any(|l| !l.out.deferred.is_empty()) {
                let deferred: Vec<Vec<(u32, u32)>> =
                    lanes.iter_mut().map(|l| std::mem::take(&mut l.out.deferred)).collect();
                {
                    runner.for_each(lanes.iter_mut().zip(cols.iter_mut()), |_, (lane, cols)| {
                        lane_commit_deferred::<N, P, R>(&mut lane.out, cols, &set, &deferred);
                    });
                }
                for (lane, list) in lanes.iter_mut().zip(deferred) {
                    lane.out.deferred = list;
                }
            }
        }
        // Sums: the arrivals kept aside.
        self.arrivals.clear();
        self.delivered_slots.clear();
        let (mut moves, mut delivered_now, mut eligible_gone, mut unsettled) = (0u32, 0u32, 0u32, self.unsettled);
        // Departures from other lanes' nodes first, then arrivals: a node's
        // value at its last arrival is then at least its end-of-step value.
        for out in lanes.iter().map(|l| &l.out) {
            for &from in &out.remote_leave {
                shift_queue(&mut self.working, from as usize, false);
            }
            for &from in &out.remote_source {
                self.at_source[from as usize] -= 1;
            }
        }
        for out in lanes.iter().map(|l| &l.out) {
            for &to in &out.remote {
                let queue = shift_queue(&mut self.working, to as usize, true);
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
            // order; those of the extras and of other lanes' winners are
            // sorted into it.
            let mut others: Vec<(u32, u32)> = lanes.iter().flat_map(|l| l.out.links_extra.iter()).copied().collect();
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
        raise_maxima(
            &self.arrivals,
            &self.working,
            &self.at_source,
            &mut self.current_max_queue,
            &mut self.stats.max_load,
        );
        self.par = Some(par);
    }
}
