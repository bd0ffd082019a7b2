//! The O(c + L + log N) scheduler of Leighton–Maggs–Ranade–Rao §2.2 on a
//! leveled network with fixed paths.
//!
//! Every packet has a rank drawn uniformly from [1, R]; packets are ordered
//! by their *key* (rank, destination, id): ties in rank go by destination
//! as in the paper, and the id makes the order total. Every node keeps an
//! *initial queue* (its packets, sorted by key, closed by an end-of-stream
//! marker) and one *edge queue* per incoming edge. In every step each node
//! looks at the heads of its initial queue and of its edge queues:
//!
//! - if one of them is empty, the node does nothing;
//! - otherwise it selects the head with the smallest key (a packet before a
//!   ghost of the same key); a packet is sent on the next edge of its path
//!   if that edge's queue held fewer than q messages at the start of the
//!   step (its last edge needs no room: the packet is delivered, SPEC §1,
//!   and leaves a ghost of its key in the queue if there is room, standing
//!   for the packet the node would otherwise have seen); on every *other*
//!   outgoing edge with room the node sends a **ghost** of the selected key
//!   (also when the packet itself is blocked: §2.2 sends ghosts "whenever a
//!   node selects a packet"); a selected ghost is consumed and sends ghosts
//!   of its key on every outgoing edge with room. A ghost carries the whole
//!   key, not only the rank the paper names: with ties broken by
//!   destination, a ghost of rank r alone would not bound the destinations
//!   of the rank-r packets that follow it;
//! - ghosts live one step: at the end of a step a node destroys the ghosts
//!   that were in its edge queues at its start;
//! - end-of-stream (**EOS**, rank R + 1) is selected only when it heads
//!   every queue; the node then sends EOS on each outgoing edge as soon as
//!   that edge has room, and nothing more on that edge.
//!
//! So each node sends in nondecreasing key order (Lemma 2.1), every queue is
//! sorted, and a ghost's key bounds what will follow it on its edge.
//!
//! Capacity. The paper bounds an edge queue by q "packets" and sends a
//! packet or a ghost only into a queue that held fewer than q at the start
//! of the step. Ghosts hold no data and die within a step, so here, with
//! q ≥ 2, the ghost that arrived in the last step (always its queue's tail,
//! destroyed at this step's end) takes no place at this step's start: a
//! packet, EOS or ghost is sent on an edge whose queue held fewer than q
//! messages besides that dying ghost, and the ghost is gone before the new
//! message is in, so at every step's end an edge queue holds at most q
//! messages, ghosts and EOS counted. A ghost is *not* sent into a queue
//! that holds q (it would only wait behind them and die unseen; sending it
//! anyway, as an earlier version did, changed no packet's move but
//! inflated `ghosts`). Counting the dying ghost against q = 2 lets a ghost that
//! merely waits to die block a packet behind it, and measured on random
//! permutations of side × side meshes, steps/(c + L + log N) then grows with
//! the side (7.8, 9.8, 12.4 at sides 32, 64, 128) where it levels off when
//! ghosts take no place (5.4, 5.5, 5.8). With q = 1 the paper's rule is
//! kept for packets and EOS: they enter only a queue that was empty at the
//! start of the step, ghost included (letting ghosts pass there measured
//! slower and growing: 10.8, 16.7, 31.3 at sides 32, 64, 128, against 7.9,
//! 8.2, 8.6 with ghosts counted). A ghost, though, may replace the ghost
//! that dies in that step (the paper's "minor modifications" for q = 1,
//! §2.1): if it had to wait for the queue to empty, a node sending only
//! ghosts would fill its edge every other step, and a node whose two
//! incoming edges are filled on alternate steps never sees both non-empty
//! and never selects again — a livelock (4×4 mesh, 4 packets per node,
//! seed 2: 33 of 64 delivered after 10⁷ steps). With the replacement a node
//! that selects in every step fills each of its outgoing edges in every
//! step but the one after a ghost that a blocked packet waits behind, and
//! each such gap moves a packet on. Either way the global smallest key
//! always moves (its queue holds nothing smaller, and at most one ghost),
//! so no configuration deadlocks.
//!
//! Decisions are taken on start-of-step state and applied at once: the
//! scheduler's step is one *logical* step, simulated as `substeps` real
//! steps by the caller (see [`super::leveled`]).
//!
//! # Complexity
//! One logical step is O(nodes + edges of the leveled network); the run
//! takes O(c + L + log N) logical steps with high probability (Theorem 2.9).

use super::leveled::{Leveled, Paths, NONE};
use crate::engine::ControlKind;
use std::sync::Arc;

const GHOST: u32 = 1 << 31;
const EOS: u32 = u32::MAX;
/// Marks a pop from a node's initial queue in the list of pops.
const INIT: u32 = 1 << 31;

/// A message the caller must put on the real network in one substep.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Message {
    /// The real node it leaves from.
    pub node: u32,
    /// The port it leaves by.
    pub port: u32,
    /// The packet (engine id) for a packet move, else [`NONE`].
    pub packet: u32,
    /// Ghost or EOS for control messages.
    pub kind: ControlKind,
}

/// The problem a scheduler solves: a leveled network, the paths, and each
/// packet's engine id, rank and destination.
#[derive(Debug, Clone)]
pub struct Problem {
    /// The leveled network.
    pub net: Arc<Leveled>,
    /// One path per packet.
    pub paths: Arc<Paths>,
    /// Engine id of each packet.
    pub ids: Vec<u32>,
    /// Rank of each packet, in [1, R].
    pub rank: Vec<u32>,
    /// Destination (real node) of each packet.
    pub dest: Vec<u32>,
    /// Named stages: the phase is `stages[k].0` while some undelivered
    /// packet is at a node whose stage key (its level, or its plateau on
    /// §6's network: [`Leveled::stage_key`]) is below `stages[k].1` (the
    /// last bound is `u32::MAX`).
    pub stages: Vec<(&'static str, u32)>,
}

/// What the scheduler counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Packets combined into another (§2.3.1).
    pub combined: u64,
    /// Ghost messages that crossed a real link.
    pub ghosts: u64,
    /// End-of-stream messages that crossed a real link.
    pub eos: u64,
    /// The most packets held in one edge queue at a step's end.
    pub max_edge_queue: u32,
    /// The most control messages (ghosts and EOS) held at one real node at
    /// a step's end, in the queues of its logical nodes' edges that are
    /// real links (SPEC §1 `max_ctrl_queue`). An EOS is held until its node
    /// selects EOS; a ghost until it is consumed or dies.
    pub max_ctrl_queue: u32,
}

/// The §2.2 scheduler's state.
#[derive(Debug, Clone)]
pub struct Scheduler {
    p: Problem,
    q: u32,
    /// Packet combining (§2.3.1): keys are (rank, destination) without the
    /// id, and packets with equal keys that meet are combined.
    combine: bool,
    /// Combinings of the last logical step: (absorbed, carrier), packet indices.
    absorbed: Vec<(u32, u32)>,
    /// With checks and combining: the last packet key sent on each edge.
    last_packet: Vec<(u32, u32, u32)>,
    ghosts_take_room: bool,
    slots: u32,
    /// Next edge index of each packet along its path.
    hop: Vec<u32>,
    init_start: Vec<u32>,
    init: Vec<u32>,
    init_head: Vec<u32>,
    queue: Vec<u32>,
    queue_head: Vec<u8>,
    queue_len: Vec<u8>,
    /// The node has selected EOS.
    done: Vec<bool>,
    /// … and sent it on every outgoing edge.
    finished: Vec<bool>,
    eos_sent: Vec<bool>,
    ghosts_last_step: Vec<u32>,
    /// Control messages held at each real node (see [`Counts::max_ctrl_queue`]).
    ctrl_held: Vec<u32>,
    /// The real node whose count a control message in each edge's queue
    /// adds to: its head's host, [`NONE`] for an edge inside a node.
    held_at: Vec<u32>,
    /// Nodes that selected EOS in the last logical step.
    closed: Vec<u32>,
    remaining: u32,
    behind: Vec<u32>,
    /// Messages of the last logical step, per substep.
    out: Vec<Vec<Message>>,
    counts: Counts,
    check: bool,
    /// With checks on: the last key sent on each edge, and selected at each node.
    last_sent: Vec<(u32, u32, u32)>,
    last_selected: Vec<(u32, u32, u32)>,
    pops: Vec<u32>,
    sends: Vec<(u32, u32, bool)>,
}

impl Scheduler {
    /// A scheduler with edge queues of capacity `q` (≥ 1); `check`: assert
    /// the invariants after every step.
    pub fn new(p: Problem, q: u32, combine: bool, check: bool) -> Scheduler {
        let net = Arc::clone(&p.net);
        let (nodes, edges) = (net.nodes() as usize, net.edges() as usize);
        let ghosts_take_room = q == 1;
        // A dying ghost leaves before a message enters (`apply`), and every
        // message enters a queue with fewer than q others: q slots suffice.
        let slots = q;
        // Initial queues: packets by start node, sorted by key.
        let mut init_start = vec![0u32; nodes + 1];
        for &s in &p.paths.start {
            init_start[s as usize + 1] += 1;
        }
        for i in 0..nodes {
            init_start[i + 1] += init_start[i];
        }
        let mut fill = init_start.clone();
        let mut init = vec![0u32; p.ids.len()];
        for (i, &s) in p.paths.start.iter().enumerate() {
            init[fill[s as usize] as usize] = i as u32;
            fill[s as usize] += 1;
        }
        let key = |i: u32| (p.rank[i as usize], p.dest[i as usize], i);
        for v in 0..nodes {
            init[init_start[v] as usize..init_start[v + 1] as usize].sort_unstable_by_key(|&i| key(i));
        }
        let mut behind = vec![0u32; p.stages.len()];
        for i in 0..p.ids.len() {
            let key = net.stage_key(p.paths.start[i]);
            for (k, &(_, bound)) in p.stages.iter().enumerate() {
                behind[k] += (key < bound) as u32;
            }
        }
        Scheduler {
            hop: vec![0; p.ids.len()],
            init_head: init_start[..nodes].to_vec(),
            init_start,
            init,
            queue: vec![0; edges * slots as usize],
            queue_head: vec![0; edges],
            queue_len: vec![0; edges],
            done: vec![false; nodes],
            finished: vec![false; nodes],
            eos_sent: vec![false; edges],
            ghosts_last_step: Vec::new(),
            ctrl_held: vec![0; net.host.iter().max().map_or(0, |&h| h as usize + 1)],
            held_at: (0..edges)
                .map(|e| match net.port[e] {
                    NONE => NONE,
                    _ => net.host[net.head[e] as usize],
                })
                .collect(),
            closed: Vec::new(),
            remaining: p.ids.len() as u32,
            behind,
            out: vec![Vec::new(); net.substeps as usize],
            counts: Counts::default(),
            check,
            last_sent: if check { vec![(0, 0, 0); edges] } else { Vec::new() },
            last_selected: if check { vec![(0, 0, 0); nodes] } else { Vec::new() },
            pops: Vec::new(),
            sends: Vec::new(),
            absorbed: Vec::new(),
            last_packet: if check && combine {
                vec![(0, 0, 0); edges]
            } else {
                Vec::new()
            },
            p,
            q,
            combine,
            ghosts_take_room,
            slots,
        }
    }

    /// Packets not yet delivered.
    pub fn remaining(&self) -> u32 {
        self.remaining
    }

    /// What was counted so far.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The problem.
    pub fn problem(&self) -> &Problem {
        &self.p
    }

    /// The stage the slowest packet is in (the phase name to report).
    pub fn stage(&self) -> &'static str {
        let k = self.behind.iter().position(|&b| b > 0).unwrap_or(self.behind.len() - 1);
        self.p.stages[k].0
    }

    /// The packets held in the queue of edge `e` (ghosts and EOS not
    /// counted), after the last logical step.
    pub fn packets_in(&self, e: u32) -> u32 {
        let len = self.queue_len[e as usize] as u32;
        (0..len).filter(|&k| self.at(e, k) & GHOST == 0).count() as u32
    }

    /// The messages of the last logical step for substep `s`.
    pub fn messages(&self, s: usize) -> &[Message] {
        &self.out[s]
    }

    /// Counts substep `s`'s control messages as sent: the engine carries
    /// them in this real step. (They were counted when the logical step
    /// was decided, so a report ran ahead of the messages that had
    /// crossed, and a run ending at its last delivery counted the EOS of
    /// substeps never carried out: the lmrr audit of 2026-12-01,
    /// shuffle-exchange:3 transpose seed 2 q = 1, 28 EOS against 26.)
    pub fn count_sent(&mut self, s: usize) {
        for m in &self.out[s] {
            if m.packet == NONE {
                match m.kind {
                    ControlKind::EndOfStream => self.counts.eos += 1,
                    _ => self.counts.ghosts += 1,
                }
            }
        }
    }

    /// The combinings of the last logical step: (absorbed, carrier), as
    /// indices of the problem's packets.
    pub fn absorbed(&self) -> &[(u32, u32)] {
        &self.absorbed
    }

    /// The ordering key of a queue item: (rank, destination, id, kind),
    /// a packet before its ghosts, EOS after everything. With combining the
    /// id is left out (0): packets for one destination are equal.
    #[inline]
    fn key(&self, item: u32) -> (u32, u32, u32, u8) {
        if item == EOS {
            return (u32::MAX, u32::MAX, u32::MAX, 2);
        }
        let i = (item & !GHOST) as usize;
        let id = if self.combine { 0 } else { i as u32 };
        (self.p.rank[i], self.p.dest[i], id, (item & GHOST != 0) as u8)
    }

    /// Whether `item` is a packet (not a ghost, not EOS) of key `k`.
    #[inline]
    fn is_packet_of(&self, item: u32, k: (u32, u32)) -> bool {
        item & GHOST == 0 && (self.p.rank[item as usize], self.p.dest[item as usize]) == k
    }

    /// The order of Lemma 2.1: the key without the kind (a ghost and its
    /// packet are equal).
    #[inline]
    fn order(&self, item: u32) -> (u32, u32, u32) {
        let (r, d, i, _) = self.key(item);
        (r, d, i)
    }

    #[inline]
    fn at(&self, e: u32, k: u32) -> u32 {
        let slot = (self.queue_head[e as usize] as u32 + k) % self.slots;
        self.queue[(e * self.slots + slot) as usize]
    }

    /// Messages in the queue of `e` that take a place this step: not its
    /// tail ghost, which arrived in the last step and is gone by this
    /// step's end (consumed or destroyed) whatever q is.
    #[inline]
    fn occupancy(&self, e: u32) -> u32 {
        let len = self.queue_len[e as usize] as u32;
        if len > 0 && self.at(e, len - 1) & GHOST != 0 && self.at(e, len - 1) != EOS {
            len - 1
        } else {
            len
        }
    }

    /// Whether a message (a ghost if `ghost`) may be sent on `e` this step.
    /// §2.2 sends a packet, and a ghost, only on an edge whose queue "contained
    /// fewer than q packets at the beginning of the step": here a ghost or,
    /// with q ≥ 2, a packet or EOS if fewer than q messages take a place (the
    /// tail ghost that dies in this step takes none); with q = 1 a packet or
    /// EOS only into an empty queue (module notes).
    #[inline]
    fn room(&self, e: u32, ghost: bool) -> bool {
        if self.eos_sent[e as usize] {
            return false;
        }
        if !ghost && self.ghosts_take_room {
            (self.queue_len[e as usize] as u32) < self.q
        } else {
            self.occupancy(e) < self.q
        }
    }

    /// One logical step: every node decides on start-of-step state, then
    /// all decisions take effect. Returns whether anything happened (if not,
    /// nothing ever will: the state is unchanged).
    pub fn step(&mut self) -> bool {
        let net = Arc::clone(&self.p.net);
        let mut pops = std::mem::take(&mut self.pops);
        let mut sends = std::mem::take(&mut self.sends);
        pops.clear();
        sends.clear();
        self.absorbed.clear();
        let mut changed = false;
        'nodes: for v in 0..net.nodes() {
            if self.finished[v as usize] {
                continue;
            }
            if !self.done[v as usize] {
                // The heads: the initial queue's (EOS once empty), then each edge queue's.
                let (ih, iend) = (self.init_head[v as usize], self.init_start[v as usize + 1]);
                let mut best = if ih < iend { self.init[ih as usize] } else { EOS };
                let mut from = INIT | v;
                for &e in net.ins(v) {
                    if self.queue_len[e as usize] == 0 {
                        continue 'nodes;
                    }
                    let head = self.at(e, 0);
                    if self.key(head) < self.key(best) {
                        best = head;
                        from = e;
                    }
                }
                if self.check {
                    let k = self.order(best);
                    assert!(
                        k >= self.last_selected[v as usize],
                        "lmrr: node {v} selected key {k:?} after {:?} (Lemma 2.1)",
                        self.last_selected[v as usize]
                    );
                    self.last_selected[v as usize] = k;
                }
                if best == EOS {
                    self.done[v as usize] = true;
                    self.closed.push(v);
                } else if best & GHOST != 0 {
                    pops.push(from);
                    for e in net.out(v) {
                        if self.room(e, true) {
                            sends.push((e, best, false));
                        }
                    }
                    continue;
                } else {
                    let i = best as usize;
                    let path = self.p.paths.of(i);
                    let hop = self.hop[i] as usize;
                    let next = path[hop];
                    let last = hop + 1 == path.len();
                    let sent = last || self.room(next, false);
                    if sent {
                        pops.push(from);
                        sends.push((next, best, last && self.room(next, true)));
                        if self.combine {
                            self.combine_at(v, best, from, ih, iend, &mut pops);
                        }
                    }
                    for e in net.out(v) {
                        if e != next && self.room(e, true) {
                            sends.push((e, best | GHOST, false));
                        }
                    }
                    continue;
                }
            }
            // EOS selected: close every outgoing stream as soon as it has room.
            let mut all = true;
            for e in net.out(v) {
                if !self.eos_sent[e as usize] {
                    if self.room(e, false) {
                        sends.push((e, EOS, false));
                        self.eos_sent[e as usize] = true;
                    } else {
                        all = false;
                    }
                }
            }
            self.finished[v as usize] = all;
            changed = true;
        }
        changed |= !pops.is_empty() || !sends.is_empty();
        self.apply(&net, &pops, &sends);
        self.pops = pops;
        self.sends = sends;
        if self.check {
            self.check_queues(&net);
        }
        changed
    }

    /// Packet combining (§2.3.1) at node `v`, which sends packet `best`
    /// (taken from `from`): every other packet for the same destination at
    /// the head of a queue of `v` — the initial queue's run of them, and
    /// the head of each edge queue — is combined into it. Keys leave the id
    /// out, so `best` is selected only when every queue's head is at least
    /// its (rank, destination): a queue headed by a larger key or by a
    /// ghost of this key will bring no more packets for this destination
    /// (ghosts of a key are sent only once its packets have been combined),
    /// so at most one packet for each destination crosses an edge.
    fn combine_at(&mut self, v: u32, best: u32, from: u32, ih: u32, iend: u32, pops: &mut Vec<u32>) {
        let k = (self.p.rank[best as usize], self.p.dest[best as usize]);
        let before = self.absorbed.len();
        let mut i = ih + (from == INIT | v) as u32;
        while i < iend && self.is_packet_of(self.init[i as usize], k) {
            pops.push(INIT | v);
            self.absorbed.push((self.init[i as usize], best));
            i += 1;
        }
        let net = Arc::clone(&self.p.net);
        for &e in net.ins(v) {
            if e != from && self.queue_len[e as usize] > 0 && self.is_packet_of(self.at(e, 0), k) {
                pops.push(e);
                self.absorbed.push((self.at(e, 0), best));
            }
        }
        // The absorbed packets leave the network here, at v's level.
        let count = (self.absorbed.len() - before) as u32;
        let key = net.stage_key(v);
        self.remaining -= count;
        self.counts.combined += count as u64;
        for (k, &(_, bound)) in self.p.stages.iter().enumerate() {
            if bound > key {
                self.behind[k] -= count;
            }
        }
    }

    /// Applies one step's decisions: pops, ghost expiry, arrivals.
    fn apply(&mut self, net: &Leveled, pops: &[u32], sends: &[(u32, u32, bool)]) {
        // A node that selected EOS has taken in the EOS heading each of its
        // edge queues: they are no longer held.
        for v in std::mem::take(&mut self.closed) {
            for &e in net.ins(v) {
                self.release_control(e);
            }
        }
        for &from in pops {
            if from & INIT != 0 {
                self.init_head[(from & !INIT) as usize] += 1;
            } else {
                let e = from as usize;
                // The head (`at(from, 0)` without its modulo: the head is a slot).
                if self.queue[e * self.slots as usize + self.queue_head[e] as usize] & GHOST != 0 {
                    self.release_control(from);
                }
                self.queue_head[e] = ((self.queue_head[e] as u32 + 1) % self.slots) as u8;
                self.queue_len[e] -= 1;
            }
        }
        // Ghosts that were in a queue at the start of the step and were not
        // consumed die (a ghost is always its queue's tail).
        let expiring = std::mem::take(&mut self.ghosts_last_step);
        for &e in &expiring {
            let len = self.queue_len[e as usize] as u32;
            if len > 0 {
                let tail = self.at(e, len - 1);
                if tail != EOS && tail & GHOST != 0 {
                    self.queue_len[e as usize] -= 1;
                    self.release_control(e);
                }
            }
        }
        let mut ghosts_now = expiring;
        ghosts_now.clear();
        for out in &mut self.out {
            out.clear();
        }
        for &(e, item, marker) in sends {
            let (eu, tail) = (e as usize, net.tail[e as usize]);
            let port = net.port[eu];
            if self.check {
                let k = self.order(item);
                assert!(
                    k >= self.last_sent[eu],
                    "lmrr: edge {e} carried key {k:?} after {:?}",
                    self.last_sent[eu]
                );
                self.last_sent[eu] = k;
                if self.combine && item != EOS && item & GHOST == 0 {
                    assert!(
                        k > self.last_packet[eu],
                        "lmrr: edge {e} carried two packets for destination {} (combining)",
                        k.1
                    );
                    self.last_packet[eu] = k;
                }
            }
            let kind = if item == EOS {
                ControlKind::EndOfStream
            } else {
                ControlKind::Ghost
            };
            let is_packet = item != EOS && item & GHOST == 0;
            if port != NONE {
                let message = Message {
                    node: net.host[tail as usize],
                    port,
                    packet: if is_packet { self.p.ids[item as usize] } else { NONE },
                    kind,
                };
                self.out[net.substep[eu] as usize].push(message);
            }
            let mut arriving = item;
            if is_packet {
                let i = item as usize;
                let (from, to) = (net.stage_key(tail), net.stage_key(net.head[eu]));
                let delivered = self.hop[i] as usize + 1 == self.p.paths.of(i).len();
                // Past a bound (on levels, one level per edge: to == bound).
                for (k, &(_, bound)) in self.p.stages.iter().enumerate() {
                    if bound > from && (delivered || bound <= to) {
                        self.behind[k] -= 1;
                    }
                }
                if delivered {
                    self.remaining -= 1;
                    if !marker {
                        continue;
                    }
                    arriving = item | GHOST;
                } else {
                    self.hop[i] += 1;
                }
            }
            let len = self.queue_len[eu] as u32;
            assert!(len < self.slots, "lmrr: edge queue {e} overflows");
            let slot = (self.queue_head[eu] as u32 + len) % self.slots;
            self.queue[(e * self.slots + slot) as usize] = arriving;
            self.queue_len[eu] += 1;
            if arriving != EOS && arriving & GHOST != 0 {
                ghosts_now.push(e);
            }
            if arriving & GHOST != 0 && port != NONE {
                let held = &mut self.ctrl_held[self.held_at[eu] as usize];
                *held += 1;
                self.counts.max_ctrl_queue = self.counts.max_ctrl_queue.max(*held);
            }
            let packets = (0..len + 1).filter(|&k| self.at(e, k) & GHOST == 0).count() as u32;
            self.counts.max_edge_queue = self.counts.max_edge_queue.max(packets);
        }
        self.ghosts_last_step = ghosts_now;
    }

    /// A control message leaves the queue of `e` (counted only when `e`
    /// is a real link, as it was when it arrived).
    #[inline]
    fn release_control(&mut self, e: u32) {
        let at = self.held_at[e as usize];
        if at != NONE {
            self.ctrl_held[at as usize] -= 1;
        }
    }

    /// Asserts, after a step, that every edge queue is sorted by key
    /// (Lemma 2.1) and holds at most q messages, ghosts and EOS counted,
    /// and that each node's count of held control messages is its queues'.
    fn check_queues(&self, net: &Leveled) {
        let mut held = vec![0u32; self.ctrl_held.len()];
        for e in 0..net.edges() {
            let head = net.head[e as usize] as usize;
            if net.port[e as usize] != NONE && !self.done[head] {
                let len = self.queue_len[e as usize] as u32;
                held[net.host[head] as usize] += (0..len).filter(|&k| self.at(e, k) & GHOST != 0).count() as u32;
            }
        }
        assert_eq!(held, self.ctrl_held, "lmrr: control messages held per node");
        for e in 0..net.edges() {
            let len = self.queue_len[e as usize] as u32;
            assert!(
                len <= self.q,
                "lmrr: edge queue {e} holds {len} > q = {} messages",
                self.q
            );
            for k in 1..len {
                assert!(
                    self.order(self.at(e, k - 1)) <= self.order(self.at(e, k)),
                    "lmrr: edge queue {e} out of order (Lemma 2.1)"
                );
            }
        }
    }
}

mod bytes;
#[cfg(test)]
mod tests;
