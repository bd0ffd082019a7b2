//! The invariant checks (`EngineConfig::check_invariants`): after a step,
//! everything the engine keeps incrementally is recounted from the packet
//! columns, and every kept bid is recomputed.

use super::bids::{may_bid, tie_flip, KeyColumns};
use super::{Engine, COMBINED, DELIVERED, DEPARTED, ELIGIBLE, NONE, RANDOM, TOUCHED};
use crate::topology::Network;

impl Engine {
    /// Recounts everything from the packet columns and panics on any
    /// disagreement: no packet lost or duplicated, no link used twice, no
    /// packet moved more than one hop, no queue over capacity; with worms,
    /// the checks of `worms.rs`.
    pub(super) fn check_invariants(&self) {
        let nodes = self.topo.nodes() as usize;
        let mut working = vec![0u32; nodes];
        let mut at_source = vec![0u32; nodes];
        let mut undelivered = 0u32;
        for p in 0..self.src.len() {
            let s = self.slot_of[p] as usize;
            assert_eq!(self.id_of[s] as usize, p, "slot map broken for packet {p}");
            assert_eq!(
                self.flags[s] & DELIVERED != 0,
                self.delivered_at[p] != NONE,
                "delivery records disagree for packet {p}"
            );
            if self.flags[s] & DELIVERED != 0 {
                assert_eq!(
                    self.pos[s], self.dest[s],
                    "delivered packet {p} is not at its destination"
                );
                continue;
            }
            assert!(s < self.scan_len, "undelivered packet {p} outside the scanned slots");
            undelivered += 1;
            if self.flags[s] & COMBINED != 0 {
                // Inside its carrier: in no queue.
                assert!(
                    self.riders
                        .iter()
                        .any(|&(c, r)| r as usize == p && self.delivered_at[c as usize] == NONE),
                    "combined packet {p} has no undelivered carrier"
                );
                continue;
            }
            if self.flags[s] & DEPARTED != 0 {
                working[self.pos[s] as usize] += 1;
            } else {
                assert_eq!(self.pos[s], self.src[p], "packet {p} moved without departing");
                at_source[self.pos[s] as usize] += 1;
            }
        }
        assert_eq!(undelivered, self.in_flight, "packet lost or duplicated");
        // Open loop: the retired packets' ids belong to later packets.
        assert_eq!(undelivered + self.delivered - self.retired, self.src.len() as u32);
        assert_eq!(working, self.working, "working queues disagree with packet positions");
        assert_eq!(
            at_source, self.at_source,
            "source queues disagree with packet positions"
        );
        let mut links = self.last_links.clone();
        links.sort_unstable();
        let before = links.len();
        links.dedup();
        assert_eq!(
            before,
            links.len(),
            "a directed link carried two messages (packets, flits, control) in step {}",
            self.step
        );
        if self.config.edge_queues {
            // Every undelivered packet that has left its source sits in the
            // queue of the link it arrived by.
            let mut occupancy = vec![0u32; self.edge_occupancy.len()];
            for s in 0..self.scan_len {
                if self.flags[s] & (DELIVERED | DEPARTED) == DEPARTED && self.in_link[s] != NONE {
                    occupancy[self.in_link[s] as usize] += 1;
                }
            }
            assert_eq!(
                occupancy, self.edge_occupancy,
                "edge queues disagree with packet positions in step {}",
                self.step
            );
        }
        if let Some(cap) = self.config.queue_cap {
            if self.config.edge_queues {
                assert!(
                    self.edge_occupancy.iter().all(|&o| o <= cap),
                    "edge queue over capacity"
                );
            } else {
                assert!(
                    self.working.iter().all(|&w| w <= cap),
                    "node queue over capacity {cap} in step {}",
                    self.step
                );
            }
        }
        let eligible = (0..self.src.len())
            .filter(|&p| self.flags[p] & (ELIGIBLE | DELIVERED) == ELIGIBLE)
            .count() as u32;
        assert_eq!(eligible, self.eligible, "eligible count drifted");
        let unsettled = (0..self.src.len()).filter(|&p| self.contributes(p)).count() as u32;
        assert_eq!(unsettled, self.unsettled, "unsettled count drifted");
        let max_queue = self.working.iter().copied().max().unwrap_or(0);
        if self.config.record_series {
            assert_eq!(self.current_max_queue, max_queue, "end-of-step max queue drifted");
        } else {
            assert!(self.current_max_queue >= max_queue, "running max queue fell behind");
        }
        monomorphic!(self.check_bids_in());
        self.check_worms();
    }

    /// Checks that every packet's bid, as kept, is the bid computed afresh
    /// (packets the algorithm has touched since are recomputed anyway).
    fn check_bids_in<N: Network, const P: u8>(&self, net: &N) {
        let keys = KeyColumns::new(
            net,
            self.policy_salt,
            self.step,
            &self.pos,
            &self.target,
            &self.phase_start,
            &self.since,
            &self.rank,
            super::ties(&self.id_of, &self.tie_of),
        );
        for s in 0..self.scan_len {
            let f = self.flags[s];
            if f & TOUCHED != 0 {
                continue;
            }
            let (link, next, key) = keys.bid_or_sink::<P>(s, may_bid(f), tie_flip(f), self.order, self.sink());
            let p = self.id_of[s];
            assert_eq!(self.bid_link[s], link, "packet {p} bids for the wrong link");
            if link != self.sink() {
                assert_eq!(self.bid_next[s], next, "packet {p} bids for the wrong node");
                if P != RANDOM {
                    assert_eq!(self.bid_key[s], key, "packet {p} bids with a stale key");
                }
            }
        }
    }
}
