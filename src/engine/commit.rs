//! The commit (phase 3 of a step): every contest winner and every
//! scripted move crosses its link at once, and each moved packet's next bid
//! is computed on the spot. With worms (F > 1) each crossing is kept, for
//! the flits that follow (worms.rs).

use super::bids::{tie_flip, KeyColumns};
use super::contest::{EMPTY, RESERVED};
use super::queues::{raise_maxima, shift_queue};
use super::worms::Crossing;
use super::{counts_unsettled, Engine, StepSummary, DELIVERED, DEPARTED, ELIGIBLE, FIFO, FORCED, NONE};
use crate::topology::{Network, RouteOrder};

impl Engine {
    /// Phase 3 of a step: moves every contest winner and every scripted
    /// move over its link. Every packet moves at most once and queue counts
    /// only add up, so departures and arrivals are applied in one pass; the
    /// maxima are read after it, from the receiving nodes that may raise them.
    pub(super) fn commit_moves(&mut self, summary: &mut StepSummary) {
        let config = &self.config;
        if config.edge_queues || config.check_invariants || config.flits > 1 {
            monomorphic!(self.commit_full(summary))
        } else if self.record_links {
            monomorphic!(self.commit_plain_links(summary))
        } else {
            monomorphic!(self.commit_plain(summary))
        }
    }

    /// [`Engine::commit_in`] without edge queues, series, checks or worms
    /// (sweeps and the CLI), compiled apart so that it tests none of them.
    fn commit_plain<N: Network, const P: u8>(&mut self, net: &N, summary: &mut StepSummary) {
        match self.order {
            RouteOrder::Standard => self.commit_in::<N, P, true, false, false>(net, summary),
            RouteOrder::Reversed => self.commit_in::<N, P, true, true, false>(net, summary),
        }
    }

    /// [`Engine::commit_plain`] recording the links (the page's runs, at
    /// the steps it draws).
    fn commit_plain_links<N: Network, const P: u8>(&mut self, net: &N, summary: &mut StepSummary) {
        match self.order {
            RouteOrder::Standard => self.commit_in::<N, P, true, false, true>(net, summary),
            RouteOrder::Reversed => self.commit_in::<N, P, true, true, true>(net, summary),
        }
    }

    /// [`Engine::commit_in`] for any configuration.
    fn commit_full<N: Network, const P: u8>(&mut self, net: &N, summary: &mut StepSummary) {
        self.commit_in::<N, P, false, false, false>(net, summary)
    }

    /// [`Engine::commit_moves`] on network `net` (the engine's own) under
    /// policy `P`; `PLAIN`: no edge queues, no checks, no worms, and the
    /// links recorded exactly when `LINKS`.
    #[inline(always)]
    fn commit_in<N: Network, const P: u8, const PLAIN: bool, const REVERSED: bool, const LINKS: bool>(
        &mut self,
        net: &N,
        summary: &mut StepSummary,
    ) {
        let sink = self.sink();
        let Engine {
            config,
            order,
            policy_salt,
            step,
            deliver_on_arrival,
            pos,
            target,
            dest,
            phase_start,
            since,
            rank,
            flags,
            id_of,
            tie_of,
            in_link,
            bid_link,
            bid_next,
            bid_key,
            contest_count,
            delivered_at,
            working,
            at_source,
            current_max_queue,
            edge_occupancy,
            contests,
            forced,
            crossings,
            arrivals,
            delivered_slots,
            unsettled,
            eligible,
            delivered,
            in_flight,
            arrived_at_target,
            last_links,
            record_links: self_record_links,
            stats,
            ..
        } = self;
        let (step, deliver_on_arrival) = (*step, *deliver_on_arrival);
        let order = match (PLAIN, REVERSED) {
            (true, false) => RouteOrder::Standard,
            (true, true) => RouteOrder::Reversed,
            _ => *order,
        };
        let record_links = if PLAIN { LINKS } else { *self_record_links };
        let edge_queues = !PLAIN && config.edge_queues;
        let contests = &contests[..*contest_count];
        // Slices of known lengths rather than vectors: their bounds stay in
        // registers, and one test of a slot (or node) against the length
        // stands for the bounds checks of all the columns it indexes.
        let (n, nodes) = (pos.len(), working.len());
        let (pos, target, dest, flags, id_of) = (&mut pos[..n], &target[..n], &dest[..n], &mut flags[..n], &id_of[..n]);
        let ties = &super::ties(id_of, tie_of)[..n];
        let (phase_start, since, rank) = (&phase_start[..], &mut since[..], &rank[..]);
        let (bid_link, bid_next, bid_key) = (&mut bid_link[..n], &mut bid_next[..n], &mut bid_key[..n]);
        let (working, at_source) = (&mut working[..nodes], &mut at_source[..nodes]);
        let delivered_at = &mut delivered_at[..];
        let (in_link, edge_occupancy) = (&mut in_link[..], &mut edge_occupancy[..]);
        let (mut moves, mut delivered_now) = (0u32, 0u32);
        let worms = !PLAIN && config.flits > 1;
        // Nodes whose queue or load may pass the maxima so far: a node's
        // value right after its last arrival of the step is at least its
        // end-of-step value, so a node not noted here cannot raise them.
        let (queue_so_far, load_so_far) = (*current_max_queue, stats.max_load);
        arrivals.clear();
        delivered_slots.clear();
        let (mut unsettled_now, mut eligible_now) = (*unsettled, *eligible);
        // `winner`: a contest winner, which goes where it bid for (nowhere
        // if that is the sink) and, bidding, was eligible and away from its
        // target (counted in `unsettled`); else a scripted move over
        // `scripted_link` to `scripted_to`. A macro rather than a closure:
        // expanded once in the winners' loop and once in the scripted
        // moves', so that `winner` is a constant in each (the winners' loop
        // then picks no link and tests no `counts_unsettled`); one closure
        // called from both loops would not be inlined, and one loop over
        // both lists chained tested `winner` per move (greedy at
        // mesh:256x256, one thread: 5–12 % faster in paired runs,
        // docs/architecture.md).
        macro_rules! move_packet {
            ($i:expr, $scripted_link:expr, $scripted_to:expr, $winner:expr) => {
                'moved: {
                    let (i, scripted_link, scripted_to, winner): (usize, u32, u32, bool) =
                        ($i, $scripted_link, $scripted_to, $winner);
                    assert!(i < n, "slot {i} out of range");
                    let (lid, to) = if winner {
                        (bid_link[i], bid_next[i])
                    } else {
                        (scripted_link, scripted_to)
                    };
                    if lid == sink {
                        break 'moved;
                    }
                    let before = winner || counts_unsettled(flags[i], pos[i], target[i]);
                    if record_links {
                        last_links.push(lid);
                    }
                    if worms {
                        crossings.push_back(Crossing {
                            step,
                            link: lid,
                            packet: id_of[i],
                        });
                    }
                    moves += 1;
                    let from = pos[i] as usize;
                    let f = flags[i];
                    if f & DEPARTED != 0 {
                        shift_queue(working, from, false);
                        if edge_queues && in_link[i] != NONE {
                            edge_occupancy[in_link[i] as usize] -= 1;
                        }
                    } else {
                        at_source[from] -= 1;
                    }
                    assert!((to as usize) < nodes, "node {to} out of range");
                    pos[i] = to;
                    if P == FIFO {
                        since[i] = step;
                    }
                    let mut f = (f | DEPARTED) & !FORCED;
                    let mut after = false;
                    if to == dest[i] && deliver_on_arrival {
                        if f & ELIGIBLE != 0 {
                            eligible_now -= 1;
                        }
                        f |= DELIVERED;
                        delivered_at[id_of[i] as usize] = step;
                        delivered_now += 1;
                        delivered_slots.push(i as u32);
                    } else {
                        let queue = shift_queue(working, to as usize, true);
                        if queue > queue_so_far || queue + at_source[to as usize] > load_so_far {
                            arrivals.push(to);
                        }
                        if edge_queues {
                            in_link[i] = lid;
                            edge_occupancy[lid as usize] += 1;
                        }
                        let at_target = to == target[i];
                        if at_target {
                            arrived_at_target.push(id_of[i]);
                        }
                        after = f & ELIGIBLE != 0 && !at_target;
                    }
                    // The bid from here (the sink if the packet has no hop to make).
                    let keys = KeyColumns::new(
                        net,
                        *policy_salt,
                        step,
                        pos,
                        target,
                        phase_start,
                        since,
                        rank,
                        ties,
                    );
                    (bid_link[i], bid_next[i], bid_key[i]) = keys.bid_or_sink::<P>(i, after, tie_flip(f), order, sink);
                    flags[i] = f;
                    unsettled_now = unsettled_now + after as u32 - before as u32;
                }
            };
        }
        for c in contests {
            if c.best != EMPTY && c.best != RESERVED {
                move_packet!(c.winner as usize, NONE, NONE, true);
            }
        }
        for &(s, lid, to) in forced.iter() {
            move_packet!(s as usize, lid, to, false);
        }
        forced.clear();
        summary.packet_moves += moves;
        summary.delivered += delivered_now;
        stats.delivered_many_at_step(step, delivered_now);
        *unsettled = unsettled_now;
        *eligible = eligible_now;
        *delivered += summary.delivered;
        *in_flight -= summary.delivered;
        // End-of-step maxima: only the nodes noted in `arrivals` can raise them.
        raise_maxima(arrivals, working, at_source, current_max_queue, &mut stats.max_load);
    }
}
