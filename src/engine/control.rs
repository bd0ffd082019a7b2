//! Everything an algorithm may set or send: targets, eligibility, classes,
//! ranks, phases, the route order, control messages, scripted moves and
//! explicit deliveries. This file is the whole answer to "what may an
//! algorithm touch": every public method that changes the engine is here,
//! but for `Engine::new` and `Engine::step` (in `mod.rs`).

use super::{counts_unsettled, ControlKind, Engine, COMBINED, DELIVERED, DEPARTED, ELIGIBLE, FORCED, NONE, TIE_FLIP};
use crate::topology::{Network, RouteOrder, Topology};
use std::sync::Arc;

impl Engine {
    /// Sets the route order of the canonical routes (default: SPEC §5's).
    pub fn set_route_order(&mut self, order: RouteOrder) {
        if order != self.order {
            for s in 0..self.scan_len {
                self.touch(s);
            }
        }
        self.order = order;
    }

    /// Whether arriving at its destination delivers a packet (default true,
    /// SPEC §1). Algorithms that move packets through their destinations in
    /// an earlier phase (sorting) turn it off and deliver explicitly.
    pub fn set_deliver_on_arrival(&mut self, on: bool) {
        self.deliver_on_arrival = on;
    }

    /// Sets the target of `p` and starts a new phase for it (the origin of
    /// `farthest-origin` becomes its current node).
    pub fn set_target(&mut self, p: u32, target: u32) {
        let s = self.slot(p);
        self.update(s, |e| {
            e.target[s] = target;
            if let Some(start) = e.phase_start.get_mut(s) {
                *start = e.pos[s];
            }
        });
    }

    /// Lets `p` compete for links, or holds it back.
    pub fn set_eligible(&mut self, p: u32, eligible: bool) {
        let s = self.slot(p);
        if (self.flags[s] & ELIGIBLE != 0) == eligible {
            return;
        }
        if self.flags[s] & DELIVERED == 0 {
            if eligible {
                self.eligible += 1;
            } else {
                self.eligible -= 1;
            }
        }
        self.update(s, |e| {
            if eligible {
                e.flags[s] |= ELIGIBLE;
            } else {
                e.flags[s] &= !ELIGIBLE;
            }
        });
    }

    /// Chooses which way `p` goes round a ring (a torus's line) when both
    /// ways are equally short: the negative way if `negative`. SPEC §2's
    /// default (by the parity of the id) holds until an algorithm calls
    /// this (ks-wrap chooses at random); it matters only on such ties.
    pub fn set_tie_direction(&mut self, p: u32, negative: bool) {
        let s = self.slot(p);
        let flip = (p & 1 == 1) != negative;
        if (self.flags[s] & TIE_FLIP != 0) != flip {
            self.flags[s] ^= TIE_FLIP;
            self.touch(s);
        }
    }

    /// Sets the drawing class (colour, phase) of `p`.
    pub fn set_class(&mut self, p: u32, class: u8) {
        self.class[p as usize] = class;
        self.classes_seen[usize::from(class / 64)] |= 1 << (class % 64);
    }

    /// Sets the rank of `p` for the `rank` policy (default: its id; kept
    /// only under that policy).
    pub fn set_rank(&mut self, p: u32, rank: u32) {
        let s = self.slot(p);
        if let Some(r) = self.rank.get_mut(s) {
            *r = rank;
            self.touch(s);
        }
    }

    /// Starts a named phase at the current step (SPEC §1: each phase is reported).
    pub fn begin_phase(&mut self, name: &str) {
        self.stats.begin_phase(name, self.step);
    }

    /// Reserves the link `(node, port)` for a control message in the next
    /// step; it carries no packet then. Returns false (and reserves nothing)
    /// if the link does not exist or is already taken this step.
    pub fn send_control(&mut self, node: u32, port: u32) -> bool {
        self.send_control_as(node, port, ControlKind::Message)
    }

    /// [`Engine::send_control`] for a message of a named kind (LMRR's
    /// ghosts and end-of-stream markers), which the page draws apart
    /// ([`Engine::last_control_kinds`]).
    pub fn send_control_as(&mut self, node: u32, port: u32, kind: ControlKind) -> bool {
        let Some(lid) = self.link_id(node, port) else {
            return false;
        };
        if !self.reserve_link(lid) {
            return false;
        }
        self.control.push(lid);
        self.control_kinds.push(kind);
        true
    }

    /// [`Engine::send_control`] for a whole step's messages at once, given
    /// by their links' ids (`node · ports + port`, as in
    /// [`Engine::last_links`]), in order: the same links reserved and the
    /// same messages as that many calls. That each link exists is read
    /// from a bitmap of the network's links, built at the first call
    /// ([`Engine::link_map`]): one bit test instead of the topology's
    /// `neighbor` per message. Returns false if any message could not be
    /// sent (it is skipped, as by `send_control`).
    pub fn send_control_links(&mut self, links: &[u32]) -> bool {
        let present = self.link_map();
        let mut control = std::mem::take(&mut self.control);
        let all = self.reserve_links(links, |l| link_present(&present, l), &mut control);
        self.control_kinds.resize(control.len(), ControlKind::Message);
        self.control = control;
        all
    }

    /// The bitmap of the links that exist (bit `lid` set for link `lid =
    /// node · ports + port` when `node` has a neighbour over `port`),
    /// built once per engine, at its first use, and shared by its clones.
    ///
    /// # Complexity
    /// O(links) the first time (one `neighbor` per link), O(1) after.
    fn link_map(&mut self) -> Arc<[u64]> {
        if let Some(map) = &self.links_present {
            return Arc::clone(map);
        }
        let topo = Arc::clone(&self.topo);
        let map: Arc<[u64]> = match &*topo {
            Topology::Grid(net) => present_links(net),
            Topology::Hypercube(net) => present_links(net),
            Topology::Butterfly(net) => present_links(net),
            Topology::ShuffleExchange(net) => present_links(net),
        }
        .into();
        self.links_present = Some(Arc::clone(&map));
        map
    }

    /// Whether the coming steps record their packets' links in
    /// [`Engine::last_links`]: a run with the series on records them by
    /// default, and a caller that draws only some steps (the page's
    /// timeline: the step it shows, and its checkpoints) turns them off for
    /// the others. With the invariant checks on they are always recorded
    /// (the checks read them); without the series they never are. Nothing
    /// else of a run depends on it.
    pub fn set_record_links(&mut self, on: bool) {
        self.record_links = records_links(&self.config, on);
    }

    /// Declares that the coming step belongs to the algorithm's protocol even
    /// if nothing crosses a link — e.g. the swap half of a compare-exchange
    /// (SPEC §1: 2 steps) in which no pair is out of order. SPEC §1 ends a run
    /// as stalled only when a step moves nothing *and* the algorithm has
    /// nothing left to change; this is how an algorithm says it has.
    pub fn mark_busy(&mut self) {
        self.busy = true;
    }

    /// Records that some node holds `size` control messages (for `max_ctrl_queue`).
    pub fn note_control_queue(&mut self, size: u32) {
        self.stats.max_ctrl_queue = self.stats.max_ctrl_queue.max(size);
    }

    /// Moves `p` over `port` in the next step whatever its target and
    /// eligibility (a scripted move, e.g. a compare-exchange swap). Returns
    /// false if the link does not exist, is already taken this step, or `p`
    /// is delivered or already scripted.
    pub fn force_move(&mut self, p: u32, port: u32) -> bool {
        let s = self.slot(p);
        let from = self.pos[s];
        let Some(to) = self.topo.neighbor(from, port) else {
            return false;
        };
        self.force_slot(s, from * self.topo.ports() + port, to)
    }

    /// [`Engine::force_move`] for a whole step's scripted moves `(packet,
    /// port)` at once, in order (the same as that many calls), with the
    /// topology's kind dispatched once (its `neighbor` inlined into the
    /// loop). Returns false if any move could not be made (it is skipped,
    /// as by `force_move`).
    pub fn force_moves(&mut self, moves: &[(u32, u32)]) -> bool {
        let topo = Arc::clone(&self.topo);
        self.forced.reserve(moves.len());
        match &*topo {
            Topology::Grid(net) => self.force_moves_on(net, moves),
            Topology::Hypercube(net) => self.force_moves_on(net, moves),
            Topology::Butterfly(net) => self.force_moves_on(net, moves),
            Topology::ShuffleExchange(net) => self.force_moves_on(net, moves),
        }
    }

    #[inline(always)]
    fn force_moves_on<N: Network>(&mut self, net: &N, moves: &[(u32, u32)]) -> bool {
        let ports = net.ports();
        // The slots and then the nodes of the packets first, each in a loop
        // of its own (`forced` holds them meanwhile): the packets of a step's
        // script lie all over the columns, and short loops keep many of
        // those loads in flight.
        let from = self.forced.len();
        let slot_of = &self.slot_of[..];
        self.forced
            .extend(moves.iter().map(|&(p, port)| (slot_of[p as usize], port, 0)));
        for m in &mut self.forced[from..] {
            m.2 = self.pos[m.0 as usize];
        }
        let mut kept = from;
        for i in from..self.forced.len() {
            let (s, port, at) = self.forced[i];
            let Some(to) = net.neighbor(at, port) else {
                continue;
            };
            let s = s as usize;
            let lid = at * ports + port;
            if self.flags[s] & (DELIVERED | FORCED) != 0 || !self.reserve_link(lid) {
                continue;
            }
            self.mark_forced(s);
            self.forced[kept] = (s as u32, lid, to);
            kept += 1;
        }
        self.forced.truncate(kept);
        kept - from == moves.len()
    }

    /// Scripts the packet in slot `s` over link `lid` (which exists) to
    /// `to`, unless it is delivered or scripted already or the link is
    /// taken.
    #[inline(always)]
    fn force_slot(&mut self, s: usize, lid: u32, to: u32) -> bool {
        if self.flags[s] & (DELIVERED | FORCED) != 0 || !self.reserve_link(lid) {
            return false;
        }
        self.mark_forced(s);
        self.forced.push((s as u32, lid, to));
        true
    }

    /// Flags the packet in slot `s` as scripted; its bid is recomputed
    /// (becoming the sink's) if it is eligible — a held-back packet bids
    /// for the sink already, or is on the `requeue` list.
    #[inline(always)]
    fn mark_forced(&mut self, s: usize) {
        self.flags[s] |= FORCED;
        if self.flags[s] & ELIGIBLE != 0 {
            self.touch(s);
        }
    }

    /// Delivers `p`, which must be at its destination (for algorithms that
    /// turned delivery on arrival off). Counts as delivered in the current step.
    pub fn deliver(&mut self, p: u32) {
        self.deliver_many(&[p]);
    }

    /// Delivers every packet of `packets` (each at its destination) with one
    /// pass over the active list; see [`Engine::deliver`].
    pub fn deliver_many(&mut self, packets: &[u32]) {
        self.deliver_in(packets, self.step);
    }

    /// As [`Engine::deliver_many`], called before a step (from an
    /// algorithm's `before_step`): the packets are delivered as the step
    /// about to be simulated opens, and count in it — a sort's last step,
    /// which moves the others home (SPEC §5: a sort ends in the last step
    /// of its schedule). Not before: a run its step limit stops first
    /// delivers none of them (it reported them delivered in a step it
    /// never took).
    pub fn deliver_in_coming_step(&mut self, packets: &[u32]) {
        self.due.extend_from_slice(packets);
    }

    pub(super) fn deliver_in(&mut self, packets: &[u32], step: u32) {
        for &p in packets {
            let i = self.slot(p);
            assert_eq!(
                self.pos[i], self.dest[i],
                "deliver: packet {p} is not at its destination"
            );
            if self.is_delivered(p) {
                continue;
            }
            if self.flags[i] & ELIGIBLE != 0 {
                self.eligible -= 1;
            }
            self.update(i, |e| e.flags[i] |= DELIVERED);
            let node = self.pos[i] as usize;
            if self.flags[i] & DEPARTED != 0 {
                self.leave_working(node);
                // It leaves the queue of the link it arrived by, too.
                if self.config.edge_queues && self.in_link[i] != NONE {
                    self.edge_occupancy[self.in_link[i] as usize] -= 1;
                    self.in_link[i] = NONE;
                }
            } else {
                self.at_source[node] -= 1;
            }
            self.delivered_at[p as usize] = step;
            self.delivered += 1;
            self.in_flight -= 1;
            self.stats.delivered_at_step(step);
        }
    }

    /// An aborted attempt (Pietracaprina–Pucci §3, ℓ and k unknown): the
    /// copy of `p` in transit is dropped and the copy its source kept
    /// becomes `p` again — at its source, not departed, held back (the
    /// algorithm makes it eligible again). If `p` was delivered, the
    /// delivery is withdrawn: its destination drops that copy, because the
    /// source, which cannot know of it, sends `p` again (each packet is
    /// counted delivered once, by the attempt that completes). Panics on
    /// a scripted or combined packet, a worm, or open loop (a bug of the
    /// algorithm: none of them can be recalled).
    pub fn recall(&mut self, p: u32) {
        assert!(
            !self.open_loop && self.config.flits == 1,
            "recall: not with open loop or worms"
        );
        let mut s = self.slot(p);
        assert!(
            self.flags[s] & (FORCED | COMBINED) == 0,
            "recall: packet {p} is scripted or combined"
        );
        let src = self.src[p as usize];
        if self.flags[s] & DELIVERED != 0 {
            // Back into the scanned slots (their requeue list settled first:
            // it holds slots).
            if s >= self.scan_len {
                if !self.requeue.is_empty() {
                    self.rebid_touched();
                }
                let to = self.scan_len;
                self.swap_slots(s, to);
                self.scan_len += 1;
                s = to;
            }
            self.flags[s] &= !ELIGIBLE;
            self.stats.withdraw_delivery(self.delivered_at[p as usize]);
            self.delivered_at[p as usize] = NONE;
            self.delivered -= 1;
            self.in_flight += 1;
        } else {
            self.set_eligible(p, false);
            if self.flags[s] & DEPARTED == 0 {
                return;
            }
            self.leave_working(self.pos[s] as usize);
            if self.config.edge_queues && self.in_link[s] != NONE {
                self.edge_occupancy[self.in_link[s] as usize] -= 1;
                self.in_link[s] = NONE;
            }
        }
        self.at_source[src as usize] += 1;
        let load = self.working[src as usize] + self.at_source[src as usize];
        self.stats.max_load = self.stats.max_load.max(load);
        self.update(s, |e| {
            e.flags[s] &= !(DELIVERED | DEPARTED);
            e.pos[s] = src;
            if let Some(start) = e.phase_start.get_mut(s) {
                *start = src;
            }
        });
    }

    /// Combines packet `p` into packet `into` (packet combining,
    /// Leighton–Maggs–Ranade–Rao §2.3.1): two packets for the same
    /// destination that meet at a node become one. From now on `p` holds no
    /// place in any queue (it leaves its node's working or source queue at
    /// once), never moves or bids, and is delivered — at `into`'s
    /// destination, which is its own — in the step in which `into` is; a
    /// packet combined into `p` before travels on inside `into`. It still
    /// counts as in flight until then. Panics if the two are not at the
    /// same node, have different destinations, are the same packet, or one
    /// is delivered or combined already (a bug of the algorithm).
    pub fn combine(&mut self, p: u32, into: u32) {
        let (s, t) = (self.slot(p), self.slot(into));
        assert!(
            p != into && self.dest[s] == self.dest[t] && self.pos[s] == self.pos[t],
            "combine: packets {p} and {into} are not at one node with one destination"
        );
        assert!(
            (self.flags[s] | self.flags[t]) & (DELIVERED | COMBINED | FORCED) == 0,
            "combine: packet {p} or {into} is delivered, combined or scripted"
        );
        self.set_eligible(p, false);
        let node = self.pos[s] as usize;
        if self.flags[s] & DEPARTED != 0 {
            self.leave_working(node);
            if self.config.edge_queues && self.in_link[s] != NONE {
                self.edge_occupancy[self.in_link[s] as usize] -= 1;
                self.in_link[s] = NONE;
            }
        } else {
            self.at_source[node] -= 1;
        }
        self.flags[s] |= COMBINED;
        self.touch(s);
        for rider in self.riders.iter_mut().filter(|r| r.0 == p) {
            rider.0 = into;
        }
        self.riders.push((into, p));
    }

    /// Delivers the combined packets whose carriers are delivered (in this
    /// step: a carrier is delivered when it arrives); returns how many.
    pub(super) fn deliver_riders(&mut self) -> u32 {
        let mut riders = std::mem::take(&mut self.riders);
        let before = riders.len();
        riders.retain(|&(carrier, p)| {
            if self.delivered_at[carrier as usize] == NONE {
                return true;
            }
            let s = self.slot(p);
            self.flags[s] = (self.flags[s] & !COMBINED) | DELIVERED;
            self.pos[s] = self.dest[s];
            self.delivered_at[p as usize] = self.step;
            self.delivered += 1;
            self.in_flight -= 1;
            self.stats.delivered_at_step(self.step);
            self.delivered_slots.push(s as u32);
            false
        });
        let done = (before - riders.len()) as u32;
        self.riders = riders;
        done
    }

    /// Whether the packet in slot `s` counts in [`Engine::unsettled`].
    #[inline]
    pub(super) fn contributes(&self, s: usize) -> bool {
        counts_unsettled(self.flags[s], self.pos[s], self.target[s])
    }

    /// Applies `f` to the packet in slot `s`, keeping `unsettled` right,
    /// and has its bid recomputed.
    #[inline]
    fn update<F: FnOnce(&mut Self)>(&mut self, s: usize, f: F) {
        let before = self.contributes(s);
        f(self);
        let after = self.contributes(s);
        self.unsettled = self.unsettled + after as u32 - before as u32;
        self.touch(s);
    }

    fn link_id(&self, node: u32, port: u32) -> Option<u32> {
        self.topo.neighbor(node, port)?;
        Some(node * self.topo.ports() + port)
    }
}

/// Whether an engine of `config` records its packets' links, asked to
/// (`on`) or not ([`Engine::set_record_links`]).
pub(super) fn records_links(config: &super::EngineConfig, on: bool) -> bool {
    (on && config.record_series) || config.check_invariants
}

/// The bitmap of `net`'s links ([`Engine::link_map`]).
fn present_links<N: Network>(net: &N) -> Vec<u64> {
    let ports = net.ports();
    let links = net.nodes() as usize * ports as usize;
    let mut map = vec![0u64; links.div_ceil(64)];
    for node in 0..net.nodes() {
        for port in 0..ports {
            if net.neighbor(node, port).is_some() {
                let lid = (node * ports + port) as usize;
                map[lid / 64] |= 1 << (lid % 64);
            }
        }
    }
    map
}

/// Whether link `lid` is set in `map` (an id past the last link is not).
#[inline(always)]
fn link_present(map: &[u64], lid: u32) -> bool {
    map.get((lid / 64) as usize).is_some_and(|w| w & (1 << (lid % 64)) != 0)
}
