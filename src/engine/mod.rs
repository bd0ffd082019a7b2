//! The synchronous store-and-forward step (SPEC §1).
//!
//! The engine owns the packets and moves them; algorithms only say which
//! packets are eligible, where each is headed (its current target), and may
//! reserve links for control messages or scripted moves. Every step is two
//! phases: first every link's winner is decided on start-of-step state, then
//! all winners move at once, so what arrives in step t leaves in step t+1 at
//! the earliest.
//!
//! Packet state is kept column-wise (one `Vec` per field) so that a step
//! touches only what it needs; see `bytes_per_packet`.

mod policy;
mod stats;

pub use policy::Policy;
pub use stats::{PhaseSteps, Stats};

use crate::rng::{Rng, Stream};
use crate::topology::{Network, RouteOrder, Topology};

const NONE: u32 = u32::MAX;
/// A link slot holding no candidate.
const EMPTY: u64 = 0;
/// A link slot reserved for a control message or a scripted move.
const RESERVED: u64 = u64::MAX;

const ELIGIBLE: u8 = 1;
const DEPARTED: u8 = 2;
const DELIVERED: u8 = 4;
const FORCED: u8 = 8;

/// How the engine runs, independent of the algorithm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// The contention policy.
    pub policy: Policy,
    /// Seed of the `random` policy's stream.
    pub seed: u64,
    /// Queue capacity q (SPEC §1 "Bounded queues"); `None` is unbounded.
    pub queue_cap: Option<u32>,
    /// LMRR's option: one queue of capacity q per incoming directed link.
    pub edge_queues: bool,
    /// Check the invariants after every step (on by default in debug builds and tests).
    pub check_invariants: bool,
    /// Keep the per-step series (in flight, max queue, links used).
    pub record_series: bool,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            policy: Policy::FarthestFirst,
            seed: 1,
            queue_cap: None,
            edge_queues: false,
            check_invariants: cfg!(debug_assertions),
            record_series: true,
        }
    }
}

/// What one call to [`Engine::step`] did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StepSummary {
    /// Packets that crossed a link.
    pub packet_moves: u32,
    /// Control messages that crossed a link.
    pub control_messages: u32,
    /// Packets delivered in this step.
    pub delivered: u32,
    /// The algorithm declared the step part of its protocol ([`Engine::mark_busy`]):
    /// a step that moves nothing is then not a stall.
    pub busy: bool,
}

/// The network state of one run.
#[derive(Debug, Clone)]
pub struct Engine {
    topo: Topology,
    config: EngineConfig,
    order: RouteOrder,
    policy_rng: Rng,
    step: u32,
    deliver_on_arrival: bool,
    busy: bool,

    // Packet columns.
    src: Vec<u32>,
    dest: Vec<u32>,
    pos: Vec<u32>,
    target: Vec<u32>,
    phase_start: Vec<u32>,
    since: Vec<u32>,
    rank: Vec<u32>,
    class: Vec<u8>,
    flags: Vec<u8>,
    delivered_at: Vec<u32>,
    /// Incoming link a packet holds a slot of (edge-queue mode only).
    in_link: Vec<u32>,
    /// Undelivered packet ids, ascending.
    active: Vec<u32>,

    // Node columns.
    working: Vec<u32>,
    at_source: Vec<u32>,
    queue_histogram: Vec<u32>,
    current_max_queue: u32,
    edge_occupancy: Vec<u32>,

    // Per-link scratch, reset after each step. A slot packs the best
    // candidate's policy key (high 32 bits) with the complement of its id
    // (low 32 bits), so one comparison picks the larger key and, on a tie,
    // the smaller id.
    link_slot: Vec<u64>,
    /// Links with a routed candidate this step, with the node each leads to.
    touched: Vec<(u32, u32)>,
    forced: Vec<(u32, u32, u32)>,
    control: Vec<u32>,
    arrivals: Vec<(u32, u32, u32)>,
    moves: Vec<(u32, u32, u32)>,
    /// This step's bids: (packed slot value, link, node the link leads to).
    bids: Vec<(u64, u32, u32)>,
    /// Scratch: nodes whose counters change in this step.
    node_updates: Vec<(u32, bool)>,

    unsettled: u32,
    /// Undelivered packets with the eligible flag: when 0, the contention
    /// pass of a step is skipped (steps of control messages and scripted moves).
    eligible: u32,
    delivered: u32,
    arrived_at_target: Vec<u32>,
    last_links: Vec<u32>,
    last_control: usize,
    stats: Stats,
}

impl Engine {
    /// Puts every packet at its source. Packets whose source is their
    /// destination are delivered at step 0. Every packet starts eligible with
    /// its destination as target, in phase "route"; algorithms change that.
    pub fn new(topo: Topology, packets: &[(u32, u32)], config: EngineConfig) -> Engine {
        let n = packets.len();
        let nodes = topo.nodes() as usize;
        let links = nodes * topo.ports() as usize;
        let src: Vec<u32> = packets.iter().map(|p| p.0).collect();
        let dest: Vec<u32> = packets.iter().map(|p| p.1).collect();
        let mut e = Engine {
            policy_rng: Rng::new(config.seed, Stream::Policy),
            order: RouteOrder::Standard,
            step: 0,
            deliver_on_arrival: true,
            busy: false,
            pos: src.clone(),
            target: dest.clone(),
            phase_start: src.clone(),
            since: vec![0; n],
            rank: (0..n as u32).collect(),
            class: vec![0; n],
            flags: vec![ELIGIBLE; n],
            delivered_at: vec![NONE; n],
            in_link: if config.edge_queues { vec![NONE; n] } else { Vec::new() },
            active: Vec::with_capacity(n),
            working: vec![0; nodes],
            at_source: vec![0; nodes],
            queue_histogram: vec![nodes as u32],
            current_max_queue: 0,
            edge_occupancy: if config.edge_queues { vec![0; links] } else { Vec::new() },
            link_slot: vec![EMPTY; links],
            touched: Vec::new(),
            forced: Vec::new(),
            control: Vec::new(),
            arrivals: Vec::new(),
            moves: Vec::new(),
            bids: Vec::new(),
            node_updates: Vec::new(),
            unsettled: 0,
            eligible: 0,
            delivered: 0,
            arrived_at_target: Vec::new(),
            last_links: Vec::new(),
            last_control: 0,
            stats: Stats::new(config.record_series),
            src,
            dest,
            topo,
            config,
        };
        for p in 0..n as u32 {
            let (s, d) = (e.src[p as usize], e.dest[p as usize]);
            if s == d {
                e.flags[p as usize] |= DELIVERED;
                e.delivered_at[p as usize] = 0;
                e.delivered += 1;
            } else {
                e.active.push(p);
                e.at_source[s as usize] += 1;
                e.unsettled += 1;
                e.eligible += 1;
            }
        }
        let initial_load = e.at_source.iter().copied().max().unwrap_or(0);
        e.stats.begin(initial_load);
        e
    }

    // ---- what algorithms read -------------------------------------------

    /// The network.
    pub fn topology(&self) -> &Topology {
        &self.topo
    }
    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }
    /// Steps simulated so far.
    pub fn step_count(&self) -> u32 {
        self.step
    }
    /// Number of packets.
    pub fn packet_count(&self) -> u32 {
        self.src.len() as u32
    }
    /// Source of packet `p`.
    pub fn source(&self, p: u32) -> u32 {
        self.src[p as usize]
    }
    /// Destination of packet `p`.
    pub fn destination(&self, p: u32) -> u32 {
        self.dest[p as usize]
    }
    /// Current node of packet `p` (its destination once delivered).
    pub fn position(&self, p: u32) -> u32 {
        self.pos[p as usize]
    }
    /// Current target of packet `p`.
    pub fn target(&self, p: u32) -> u32 {
        self.target[p as usize]
    }
    /// Whether `p` has been delivered.
    pub fn is_delivered(&self, p: u32) -> bool {
        self.flags[p as usize] & DELIVERED != 0
    }
    /// Whether `p` competes for links this step.
    pub fn is_eligible(&self, p: u32) -> bool {
        self.flags[p as usize] & ELIGIBLE != 0
    }
    /// Packets delivered so far.
    pub fn delivered(&self) -> u32 {
        self.delivered
    }
    /// Undelivered packet ids, ascending.
    pub fn active(&self) -> &[u32] {
        &self.active
    }
    /// Whether every packet has been delivered.
    pub fn finished(&self) -> bool {
        self.active.is_empty()
    }
    /// Eligible undelivered packets not yet at their target: 0 means the
    /// current phase has nothing left to route (a barrier may open).
    pub fn unsettled(&self) -> u32 {
        self.unsettled
    }
    /// Packets that reached their (non-final) target in the last step.
    pub fn arrived_at_target(&self) -> &[u32] {
        &self.arrived_at_target
    }
    /// Colour/phase class of each packet (for drawing).
    pub fn classes(&self) -> &[u8] {
        &self.class
    }
    /// Current node of every packet.
    pub fn positions(&self) -> &[u32] {
        &self.pos
    }
    /// Working-queue size of every node.
    pub fn working_queues(&self) -> &[u32] {
        &self.working
    }
    /// Packets still waiting at their source, per node.
    pub fn waiting_at_source(&self) -> &[u32] {
        &self.at_source
    }
    /// Directed link ids (`node * ports + port`) used in the last step,
    /// control messages first (see [`Engine::last_control_count`]).
    pub fn last_links(&self) -> &[u32] {
        &self.last_links
    }
    /// How many of [`Engine::last_links`] (the first ones) carried a control
    /// message rather than a packet.
    pub fn last_control_count(&self) -> usize {
        self.last_control
    }
    /// Step in which each packet was delivered (`u32::MAX` if not yet).
    pub fn delivery_steps(&self) -> &[u32] {
        &self.delivered_at
    }
    /// What has been recorded so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    // ---- what algorithms set --------------------------------------------

    #[inline]
    fn contributes(&self, p: usize) -> bool {
        self.flags[p] & (ELIGIBLE | DELIVERED) == ELIGIBLE && self.pos[p] != self.target[p]
    }

    #[inline]
    fn update<F: FnOnce(&mut Self)>(&mut self, p: u32, f: F) {
        let before = self.contributes(p as usize);
        f(self);
        let after = self.contributes(p as usize);
        self.unsettled = self.unsettled + after as u32 - before as u32;
    }

    /// Sets the route order of the canonical routes (default: SPEC §5's).
    pub fn set_route_order(&mut self, order: RouteOrder) {
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
        self.update(p, |e| {
            e.target[p as usize] = target;
            e.phase_start[p as usize] = e.pos[p as usize];
        });
    }

    /// Lets `p` compete for links, or holds it back.
    pub fn set_eligible(&mut self, p: u32, eligible: bool) {
        let i = p as usize;
        if self.flags[i] & DELIVERED == 0 && (self.flags[i] & ELIGIBLE != 0) != eligible {
            if eligible {
                self.eligible += 1;
            } else {
                self.eligible -= 1;
            }
        }
        self.update(p, |e| {
            if eligible {
                e.flags[p as usize] |= ELIGIBLE;
            } else {
                e.flags[p as usize] &= !ELIGIBLE;
            }
        });
    }

    /// Sets the drawing class (colour, phase) of `p`.
    pub fn set_class(&mut self, p: u32, class: u8) {
        self.class[p as usize] = class;
    }

    /// Sets the rank of `p` for the `rank` policy (default: its id).
    pub fn set_rank(&mut self, p: u32, rank: u32) {
        self.rank[p as usize] = rank;
    }

    /// Starts a named phase at the current step (SPEC §1: each phase is reported).
    pub fn begin_phase(&mut self, name: &str) {
        self.stats.begin_phase(name, self.step);
    }

    /// Reserves the link `(node, port)` for a control message in the next
    /// step; it carries no packet then. Returns false (and reserves nothing)
    /// if the link does not exist or is already taken this step.
    pub fn send_control(&mut self, node: u32, port: u32) -> bool {
        let Some(lid) = self.link_id(node, port) else {
            return false;
        };
        if self.link_slot[lid as usize] != EMPTY {
            return false;
        }
        self.link_slot[lid as usize] = RESERVED;
        self.control.push(lid);
        true
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
        let Some(lid) = self.link_id(self.pos[p as usize], port) else {
            return false;
        };
        if self.link_slot[lid as usize] != EMPTY || self.flags[p as usize] & (DELIVERED | FORCED) != 0 {
            return false;
        }
        self.link_slot[lid as usize] = RESERVED;
        self.flags[p as usize] |= FORCED;
        let to = self.topo.neighbor(self.pos[p as usize], port).expect("link exists");
        self.forced.push((p, lid, to));
        true
    }

    /// Delivers `p`, which must be at its destination (for algorithms that
    /// turned delivery on arrival off). Counts as delivered in the current step.
    pub fn deliver(&mut self, p: u32) {
        self.deliver_many(&[p]);
    }

    /// Delivers every packet of `packets` (each at its destination) with one
    /// pass over the active list; see [`Engine::deliver`].
    pub fn deliver_many(&mut self, packets: &[u32]) {
        let mut any = false;
        for &p in packets {
            let i = p as usize;
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
            self.update(p, |e| e.flags[i] |= DELIVERED);
            let node = self.pos[i] as usize;
            if self.flags[i] & DEPARTED != 0 {
                self.set_working(node, self.working[node] - 1);
            } else {
                self.at_source[node] -= 1;
            }
            self.delivered_at[i] = self.step;
            self.delivered += 1;
            self.stats.delivered_at_step(self.step);
            any = true;
        }
        if any {
            let flags = &self.flags;
            self.active.retain(|&q| flags[q as usize] & DELIVERED == 0);
        }
    }

    fn link_id(&self, node: u32, port: u32) -> Option<u32> {
        self.topo.neighbor(node, port)?;
        Some(node * self.topo.ports() + port)
    }

    // ---- the step -------------------------------------------------------

    /// The policy's key of `p` for a link (larger wins), below `u32::MAX`.
    #[inline]
    fn key(&mut self, p: usize, remaining_in_dim: u32, port: u32) -> u32 {
        const TOP: u32 = u32::MAX - 1;
        let (pos, target) = (self.pos[p], self.target[p]);
        let key = match self.config.policy {
            Policy::FarthestFirst => remaining_in_dim,
            Policy::NearestFirst => TOP - remaining_in_dim,
            Policy::FarthestTotal => self.topo.distance(pos, target),
            Policy::FarthestOrigin => {
                let dim = self.topo.port_dim(port);
                self.topo.dim_distance(self.phase_start[p], pos, dim)
            }
            Policy::Fifo => TOP - self.since[p],
            Policy::Random => (self.policy_rng.next_u64() >> 33) as u32,
            Policy::Rank => TOP.saturating_sub(self.rank[p]),
        };
        key.min(TOP)
    }

    #[inline]
    fn set_working(&mut self, node: usize, value: u32) {
        let old = self.working[node];
        self.queue_histogram[old as usize] -= 1;
        if value as usize >= self.queue_histogram.len() {
            self.queue_histogram.resize(value as usize + 1, 0);
        }
        self.queue_histogram[value as usize] += 1;
        self.working[node] = value;
        if value > self.current_max_queue {
            self.current_max_queue = value;
        }
    }

    /// Simulates one step: every link's winner is chosen on start-of-step
    /// state, bounded queues refuse what they cannot take, then every winner
    /// crosses its link at once.
    pub fn step(&mut self) -> StepSummary {
        self.step += 1;
        self.arrived_at_target.clear();
        let ports = self.topo.ports();

        // Phase 1: contention, on start-of-step state. First every eligible
        // packet's bid is computed from its own columns (sequential reads);
        // then the bids are applied to the link slots in a tight loop, so the
        // slot accesses, which are scattered over the network, overlap.
        let mut bids = std::mem::take(&mut self.bids);
        bids.clear();
        let contenders = if self.eligible > 0 { self.active.len() } else { 0 };
        for i in 0..contenders {
            let p = self.active[i] as usize;
            if self.flags[p] & (ELIGIBLE | FORCED) != ELIGIBLE {
                continue;
            }
            let (pos, target) = (self.pos[p], self.target[p]);
            let Some(hop) = self.topo.next_hop(pos, target, p as u32, self.order) else {
                continue;
            };
            let candidate = ((self.key(p, hop.remaining_in_dim, hop.port) as u64) << 32) | (!(p as u32)) as u64;
            bids.push((candidate, pos * ports + hop.port, hop.next));
        }
        for &(candidate, lid, next) in &bids {
            let slot = self.link_slot[lid as usize];
            if slot == RESERVED {
                continue;
            }
            if slot == EMPTY {
                self.touched.push((lid, next));
            }
            if candidate > slot {
                self.link_slot[lid as usize] = candidate;
            }
        }
        self.bids = bids;

        // Phase 2: bounded queues refuse transit packets they have no room for.
        if let Some(cap) = self.config.queue_cap {
            self.apply_queue_capacity(cap);
        }

        // Phase 3: commit all moves at once (departures, then arrivals).
        let mut summary = StepSummary {
            control_messages: self.control.len() as u32,
            busy: std::mem::replace(&mut self.busy, false),
            ..Default::default()
        };
        self.last_links.clear();
        self.last_links.extend_from_slice(&self.control);
        self.last_control = self.control.len();
        let mut arrivals = std::mem::take(&mut self.arrivals);
        arrivals.clear();
        let mut moves = std::mem::take(&mut self.moves);
        moves.clear();
        for &(lid, to) in &self.touched {
            let slot = std::mem::replace(&mut self.link_slot[lid as usize], EMPTY);
            if slot != EMPTY {
                moves.push((!(slot as u32), lid, to));
            }
        }
        moves.extend_from_slice(&self.forced);
        for &lid in self.forced.iter().map(|(_, l, _)| l).chain(&self.control) {
            self.link_slot[lid as usize] = EMPTY;
        }
        // Node counters are updated in tight loops of their own (departures,
        // then arrivals) so that their scattered accesses overlap.
        let mut nodes = std::mem::take(&mut self.node_updates);
        nodes.clear();
        for &(p, lid, to) in &moves {
            self.last_links.push(lid);
            let i = p as usize;
            let departed = self.flags[i] & DEPARTED != 0;
            nodes.push((self.pos[i], departed));
            if departed && self.config.edge_queues && self.in_link[i] != NONE {
                self.edge_occupancy[self.in_link[i] as usize] -= 1;
            }
            arrivals.push((p, to, lid));
        }
        for &(from, departed) in &nodes {
            if departed {
                self.set_working(from as usize, self.working[from as usize] - 1);
            } else {
                self.at_source[from as usize] -= 1;
            }
        }
        nodes.clear();
        self.touched.clear();
        self.forced.clear();
        self.control.clear();
        summary.packet_moves = arrivals.len() as u32;
        for &(p, to, lid) in &arrivals {
            let i = p as usize;
            let before = self.contributes(i);
            self.pos[i] = to;
            self.since[i] = self.step;
            self.flags[i] = (self.flags[i] | DEPARTED) & !FORCED;
            if to == self.dest[i] && self.deliver_on_arrival {
                if self.flags[i] & ELIGIBLE != 0 {
                    self.eligible -= 1;
                }
                self.flags[i] |= DELIVERED;
                self.delivered_at[i] = self.step;
                self.delivered += 1;
                summary.delivered += 1;
                self.stats.delivered_at_step(self.step);
            } else {
                nodes.push((to, true));
                if self.config.edge_queues {
                    self.in_link[i] = lid;
                    self.edge_occupancy[lid as usize] += 1;
                }
                if to == self.target[i] {
                    self.arrived_at_target.push(p);
                }
            }
            let after = self.contributes(i);
            self.unsettled = self.unsettled + after as u32 - before as u32;
        }
        for &(to, _) in &nodes {
            self.set_working(to as usize, self.working[to as usize] + 1);
            let load = self.working[to as usize] + self.at_source[to as usize];
            self.stats.max_load = self.stats.max_load.max(load);
        }
        self.node_updates = nodes;
        if summary.delivered > 0 {
            let flags = &self.flags;
            self.active.retain(|&p| flags[p as usize] & DELIVERED == 0);
        }
        while self.current_max_queue > 0 && self.queue_histogram[self.current_max_queue as usize] == 0 {
            self.current_max_queue -= 1;
        }
        self.stats.add_hops(summary.packet_moves);
        self.stats.end_step(
            self.current_max_queue,
            self.active.len() as u32,
            summary.packet_moves + summary.control_messages,
        );
        if self.config.check_invariants {
            self.check_invariants(&arrivals);
        }
        self.arrivals = arrivals;
        self.moves = moves;
        summary
    }

    /// SPEC §1: a node accepts at most q − (start-of-step working queue)
    /// arriving transit packets (or, with edge queues, one per incoming link
    /// with room), chosen by the policy; packets arriving at their
    /// destination are always accepted; refused packets stay put. Scripted
    /// moves are the algorithm's responsibility and are never refused.
    fn apply_queue_capacity(&mut self, cap: u32) {
        let mut transit: Vec<(u32, u64, u32)> = Vec::new(); // (to, slot, link)
        for &(lid, to) in &self.touched {
            let slot = self.link_slot[lid as usize];
            let i = !(slot as u32) as usize;
            if to == self.dest[i] && self.deliver_on_arrival {
                continue;
            }
            if self.config.edge_queues {
                if self.edge_occupancy[lid as usize] >= cap {
                    self.link_slot[lid as usize] = EMPTY;
                }
            } else {
                transit.push((to, slot, lid));
            }
        }
        // Per receiving node, the best slots first (larger key, then smaller id).
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
                    self.link_slot[transit[k].2 as usize] = EMPTY;
                }
                k += 1;
            }
        }
    }

    /// Recounts everything from the packet columns and panics on any
    /// disagreement: no packet lost or duplicated, no link used twice, no
    /// packet moved more than one hop, no queue over capacity.
    fn check_invariants(&self, arrivals: &[(u32, u32, u32)]) {
        let nodes = self.topo.nodes() as usize;
        let mut working = vec![0u32; nodes];
        let mut at_source = vec![0u32; nodes];
        let mut undelivered = 0u32;
        for p in 0..self.src.len() {
            if self.flags[p] & DELIVERED != 0 {
                assert_eq!(
                    self.pos[p], self.dest[p],
                    "delivered packet {p} is not at its destination"
                );
                continue;
            }
            undelivered += 1;
            if self.flags[p] & DEPARTED != 0 {
                working[self.pos[p] as usize] += 1;
            } else {
                assert_eq!(self.pos[p], self.src[p], "packet {p} moved without departing");
                at_source[self.pos[p] as usize] += 1;
            }
        }
        assert_eq!(undelivered as usize, self.active.len(), "packet lost or duplicated");
        assert_eq!(undelivered + self.delivered, self.src.len() as u32);
        assert_eq!(working, self.working, "working queues disagree with packet positions");
        assert_eq!(
            at_source, self.at_source,
            "source queues disagree with packet positions"
        );
        let mut links: Vec<u32> = arrivals.iter().map(|a| a.2).collect();
        links.sort_unstable();
        let before = links.len();
        links.dedup();
        assert_eq!(
            before,
            links.len(),
            "a directed link carried two packets in step {}",
            self.step
        );
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
        assert_eq!(self.current_max_queue, self.working.iter().copied().max().unwrap_or(0));
    }

    /// Engine bytes held per packet (the packet columns), for the benchmark report.
    pub fn bytes_per_packet(&self) -> usize {
        let per = 4 * 8 + 2; // src, dest, pos, target, phase_start, since, rank, delivered_at; class, flags
        per + 4 /* active */ + if self.config.edge_queues { 4 } else { 0 }
    }
}
