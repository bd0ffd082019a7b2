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
//!
//! # Bids
//! A packet's bid (the link of its next hop and its policy key) changes
//! only when it moves or the algorithm changes it, so it is computed then:
//! by the commit for a packet that moved, and at the start of the next step
//! for a packet the algorithm changed (the `requeue` list). A packet that
//! does not bid (delivered, held back, scripted, at its target) bids for
//! the *sink*, a link that does not exist. The contention pass is then one
//! loop over all packets with no data-dependent branch (see
//! `enter_bids`): on a loaded network most packets wait, and a
//! mispredicted branch per waiting packet was most of a step's time.
//!
//! # Memory order
//! The columns a step reads are indexed by a *slot*, not by the packet id,
//! and after every [`RESORT_INTERVAL`] hops per packet in flight (by
//! default) the slots are re-sorted by the packets' current nodes. A step
//! scans the slots in order, so the link and node entries it touches lie in
//! a window that sweeps through memory instead of jumping at random (packets
//! move one hop per step, so between re-sorts the order decays only slowly;
//! it decays with the hops made, so a run where most packets wait in queues
//! re-sorts less often). A packet delivered by a step leaves the scanned
//! slots at once (swapped with the last one), so that it costs nothing
//! until the next re-sort. Which packet wins a link never depends on this
//! order: the key and then the smaller *id* decide.

mod policy;
mod stats;

pub use policy::Policy;
pub use stats::{PhaseSteps, Stats};

use crate::rng::{mix64, Rng, Stream};
use crate::topology::{Network, RouteOrder, Topology};
use std::hint::select_unpredictable;
use std::sync::Arc;

const NONE: u32 = u32::MAX;
/// Default hops per packet in flight between two re-sorts of the packet
/// slots by position (16 steps when every packet moves every step).
pub const RESORT_INTERVAL: u32 = 16;
/// A contest whose winner was refused (bounded queues): nobody crosses.
const EMPTY: u64 = 0;
/// A link reserved for a control message or a scripted move.
const RESERVED: u64 = u64::MAX;

/// The contest for one directed link in the current step: 12 bytes (the
/// link and the node it leads to are the winner's `bid_link` and
/// `bid_next`, so they are not kept here).
#[derive(Debug, Clone, Copy, Default)]
#[repr(C, packed(4))]
struct Contest {
    /// The best bid: the policy key (high 32 bits) with the complement of
    /// the packet id (low 32 bits), so one comparison picks the larger key
    /// and, on a tie, the smaller id; or `RESERVED`, or `EMPTY` if refused.
    best: u64,
    /// Slot of the best bidder so far (`NONE` for a control message).
    winner: u32,
}

const ELIGIBLE: u8 = 1;
const DEPARTED: u8 = 2;
const DELIVERED: u8 = 4;
const FORCED: u8 = 8;
/// The packet is on the `requeue` list: the algorithm changed its target,
/// eligibility, rank or route order (or scripted or delivered it), so its
/// bid is recomputed before the next contest.
const TOUCHED: u8 = 16;

// The policies as constants, so that the loops that compute bids are
// compiled once per policy (and topology kind, see `monomorphic!`).
const FARTHEST_FIRST: u8 = Policy::FarthestFirst as u8;
const NEAREST_FIRST: u8 = Policy::NearestFirst as u8;
const FARTHEST_TOTAL: u8 = Policy::FarthestTotal as u8;
const FARTHEST_ORIGIN: u8 = Policy::FarthestOrigin as u8;
const FIFO: u8 = Policy::Fifo as u8;
const RANDOM: u8 = Policy::Random as u8;
const RANK: u8 = Policy::Rank as u8;

/// Calls `$engine.$method::<N, P>(net, args…)` with the engine's topology
/// kind `N` and policy constant `P`, so that the route and the key of a
/// bid are inlined into the loop that needs them.
macro_rules! monomorphic {
    ($engine:ident . $method:ident ( $($arg:expr),* )) => {{
        let topo = Arc::clone(&$engine.topo);
        macro_rules! with_policy {
            ($net:expr) => {
                match $engine.config.policy {
                    Policy::FarthestFirst => $engine.$method::<_, FARTHEST_FIRST>($net $(, $arg)*),
                    Policy::NearestFirst => $engine.$method::<_, NEAREST_FIRST>($net $(, $arg)*),
                    Policy::FarthestTotal => $engine.$method::<_, FARTHEST_TOTAL>($net $(, $arg)*),
                    Policy::FarthestOrigin => $engine.$method::<_, FARTHEST_ORIGIN>($net $(, $arg)*),
                    Policy::Fifo => $engine.$method::<_, FIFO>($net $(, $arg)*),
                    Policy::Random => $engine.$method::<_, RANDOM>($net $(, $arg)*),
                    Policy::Rank => $engine.$method::<_, RANK>($net $(, $arg)*),
                }
            };
        }
        match &*topo {
            Topology::Grid(net) => with_policy!(net),
            Topology::Hypercube(net) => with_policy!(net),
            Topology::Butterfly(net) => with_policy!(net),
        }
    }};
}

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
    /// Keep the per-step series (in flight, max queue, links used) and the
    /// links of the last step ([`Engine::last_links`]).
    pub record_series: bool,
    /// Hops per packet in flight between re-sorts of the packet slots by
    /// position, the first at the start (0: never; slots stay in id order).
    /// Only speed depends on it, never a result (a test checks).
    pub resort_interval: u32,
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
            resort_interval: RESORT_INTERVAL,
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
    /// Shared so that a step can borrow it alongside the engine's columns.
    topo: Arc<Topology>,
    config: EngineConfig,
    order: RouteOrder,
    /// Salt of the `random` policy's draws (from the run's seed).
    policy_salt: u64,
    step: u32,
    deliver_on_arrival: bool,
    busy: bool,

    // Packet columns indexed by slot (see "Memory order").
    pos: Vec<u32>,
    target: Vec<u32>,
    dest: Vec<u32>,
    /// Where the packet's current phase began (`farthest-origin` only;
    /// empty under the other policies, which never read it).
    phase_start: Vec<u32>,
    /// The step the packet arrived at its node (`fifo` only, else empty).
    since: Vec<u32>,
    /// The packet's rank (`rank` only, else empty).
    rank: Vec<u32>,
    flags: Vec<u8>,
    /// The packet in each slot.
    id_of: Vec<u32>,
    /// Incoming link a packet holds a place of (edge-queue mode only).
    in_link: Vec<u32>,
    /// The link the packet bids for, or the sink link (see `sink`) if it
    /// does not bid (delivered, held back, scripted, or at its target).
    /// Computed when the packet moves or the algorithm changes it: a
    /// waiting packet's bid does not change from step to step.
    bid_link: Vec<u32>,
    /// The node `bid_link` leads to.
    bid_next: Vec<u32>,
    /// The bid (see `Contest::best`); unused by the `random` policy, whose
    /// key is drawn afresh every step.
    bid_key: Vec<u64>,
    /// Slots `0..scan_len` hold every undelivered packet.
    scan_len: usize,
    /// Scratch of the re-sort.
    resort_scratch: Vec<u32>,
    /// Slots of the `TOUCHED` packets.
    requeue: Vec<u32>,
    /// Packet moves since the last re-sort.
    hops_since_resort: u64,

    // Packet columns indexed by id.
    slot_of: Vec<u32>,
    src: Vec<u32>,
    class: Vec<u8>,
    delivered_at: Vec<u32>,
    /// Undelivered packets.
    in_flight: u32,

    // Node columns.
    working: Vec<u32>,
    at_source: Vec<u32>,
    queue_histogram: Vec<u32>,
    current_max_queue: u32,
    edge_occupancy: Vec<u32>,

    /// This step's contests, one per link that is bid for or reserved: the
    /// first `contest_count` entries. The vector is kept long enough that
    /// a bid can always write the entry after the last.
    contests: Vec<Contest>,
    contest_count: usize,
    /// Per link, `contest_base` plus the index of its contest in `contests`;
    /// an entry below `contest_base` is from an earlier step. The array is
    /// therefore never reset, and telling a stale entry from a live one
    /// needs no access to `contests` (one 4-byte access per bid is all the
    /// per-link memory a step touches). One entry more than there are
    /// links: the *sink*, which packets that do not bid bid for, so that
    /// the bid loop has no branch on whether a packet bids.
    link_contest: Vec<u32>,
    /// Grows by the number of contests of every step (see `link_contest`).
    contest_base: u32,
    forced: Vec<(u32, u32, u32)>,
    control: Vec<u32>,
    /// Scratch of a step: the nodes that received a transit packet and may
    /// thereby pass the largest queue or load so far.
    arrivals: Vec<u32>,
    /// Scratch of a step: the slots of the packets it delivered.
    delivered_slots: Vec<u32>,

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
            policy_salt: Rng::new(config.seed, Stream::Policy).next_u64(),
            order: RouteOrder::Standard,
            step: 0,
            deliver_on_arrival: true,
            busy: false,
            pos: src.clone(),
            target: dest.clone(),
            dest: dest.clone(),
            phase_start: if config.policy == Policy::FarthestOrigin {
                src.clone()
            } else {
                Vec::new()
            },
            since: if config.policy == Policy::Fifo {
                vec![0; n]
            } else {
                Vec::new()
            },
            rank: if config.policy == Policy::Rank {
                (0..n as u32).collect()
            } else {
                Vec::new()
            },
            flags: vec![ELIGIBLE; n],
            bid_link: vec![links as u32; n],
            bid_next: vec![NONE; n],
            bid_key: vec![0; n],
            id_of: (0..n as u32).collect(),
            in_link: if config.edge_queues { vec![NONE; n] } else { Vec::new() },
            scan_len: n,
            resort_scratch: Vec::new(),
            requeue: Vec::new(),
            hops_since_resort: 0,
            slot_of: (0..n as u32).collect(),
            class: vec![0; n],
            delivered_at: vec![NONE; n],
            in_flight: 0,
            working: vec![0; nodes],
            at_source: vec![0; nodes],
            queue_histogram: vec![nodes as u32],
            current_max_queue: 0,
            edge_occupancy: if config.edge_queues { vec![0; links] } else { Vec::new() },
            contests: Vec::new(),
            contest_count: 0,
            link_contest: vec![0; links + 1],
            contest_base: 1,
            forced: Vec::new(),
            control: Vec::new(),
            arrivals: Vec::new(),
            delivered_slots: Vec::new(),
            unsettled: 0,
            eligible: 0,
            delivered: 0,
            arrived_at_target: Vec::new(),
            last_links: Vec::new(),
            last_control: 0,
            stats: Stats::new(config.record_series),
            src,
            topo: Arc::new(topo),
            config,
        };
        for p in 0..n as u32 {
            let (s, d) = (e.src[p as usize], e.dest[p as usize]);
            if s == d {
                e.flags[p as usize] |= DELIVERED;
                e.delivered_at[p as usize] = 0;
                e.delivered += 1;
            } else {
                e.in_flight += 1;
                e.at_source[s as usize] += 1;
                e.unsettled += 1;
                e.eligible += 1;
            }
        }
        if e.config.resort_interval > 0 {
            e.resort();
        }
        // Every packet's first bid; the list of all slots is not kept.
        for s in 0..e.scan_len {
            if e.flags[s] & DELIVERED == 0 {
                e.touch(s);
            }
        }
        e.rebid_touched();
        e.requeue = Vec::new();
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
        self.dest[self.slot(p)]
    }
    /// Current node of packet `p` (its destination once delivered).
    pub fn position(&self, p: u32) -> u32 {
        self.pos[self.slot(p)]
    }
    /// Current target of packet `p`.
    pub fn target(&self, p: u32) -> u32 {
        self.target[self.slot(p)]
    }
    /// Whether `p` has been delivered.
    pub fn is_delivered(&self, p: u32) -> bool {
        self.delivered_at[p as usize] != NONE
    }
    /// Whether `p` competes for links this step.
    pub fn is_eligible(&self, p: u32) -> bool {
        self.flags[self.slot(p)] & ELIGIBLE != 0
    }
    /// Packets delivered so far.
    pub fn delivered(&self) -> u32 {
        self.delivered
    }
    /// Undelivered packet ids, ascending, listed afresh (a pass over all
    /// packets: for phase changes, not for every step).
    pub fn active(&self) -> Vec<u32> {
        (0..self.packet_count())
            .filter(|&p| self.delivered_at[p as usize] == NONE)
            .collect()
    }
    /// Number of undelivered packets.
    pub fn in_flight(&self) -> u32 {
        self.in_flight
    }
    /// Whether every packet has been delivered.
    pub fn finished(&self) -> bool {
        self.in_flight == 0
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
    /// Current node of every packet, by id.
    pub fn positions(&self) -> Vec<u32> {
        self.slot_of.iter().map(|&s| self.pos[s as usize]).collect()
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
    /// Recorded only with the per-step series or the invariant checks on
    /// (the page draws them; a sweep does not need them).
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

    /// The slot of packet `p`.
    #[inline]
    fn slot(&self, p: u32) -> usize {
        self.slot_of[p as usize] as usize
    }

    /// Whether the packet in slot `s` counts in [`Engine::unsettled`].
    #[inline]
    fn contributes(&self, s: usize) -> bool {
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

    /// Puts the packet in slot `s` on the `requeue` list (once): its bid
    /// is recomputed before the next contest.
    #[inline]
    fn touch(&mut self, s: usize) {
        if self.flags[s] & TOUCHED == 0 {
            self.flags[s] |= TOUCHED;
            self.requeue.push(s as u32);
        }
    }

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

    /// Sets the drawing class (colour, phase) of `p`.
    pub fn set_class(&mut self, p: u32, class: u8) {
        self.class[p as usize] = class;
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
        let Some(lid) = self.link_id(node, port) else {
            return false;
        };
        if !self.reserve_link(lid) {
            return false;
        }
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
        let s = self.slot(p);
        let Some(lid) = self.link_id(self.pos[s], port) else {
            return false;
        };
        if self.flags[s] & (DELIVERED | FORCED) != 0 || !self.reserve_link(lid) {
            return false;
        }
        self.flags[s] |= FORCED;
        self.touch(s);
        let to = self.topo.neighbor(self.pos[s], port).expect("link exists");
        self.forced.push((s as u32, lid, to));
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
            } else {
                self.at_source[node] -= 1;
            }
            self.delivered_at[p as usize] = self.step;
            self.delivered += 1;
            self.in_flight -= 1;
            self.stats.delivered_at_step(self.step);
        }
    }

    /// Reserves link `lid` for the coming step (a contest no bid can win);
    /// false, reserving nothing, if it is reserved already.
    fn reserve_link(&mut self, lid: u32) -> bool {
        let k = self.contest_count;
        // Taken if its index entry, less the base, names one of this step's contests.
        if (self.link_contest[lid as usize].wrapping_sub(self.contest_base) as usize) < k {
            return false;
        }
        if self.contests.len() <= k {
            self.contests.resize(k + 1, Contest::default());
        }
        self.contests[k] = Contest {
            best: RESERVED,
            winner: NONE,
        };
        self.link_contest[lid as usize] = self.contest_base + k as u32;
        self.contest_count += 1;
        true
    }

    /// The sink: the link id one past the last link, which packets that do
    /// not bid bid for (see `link_contest`).
    fn sink(&self) -> u32 {
        self.link_contest.len() as u32 - 1
    }

    fn link_id(&self, node: u32, port: u32) -> Option<u32> {
        self.topo.neighbor(node, port)?;
        Some(node * self.topo.ports() + port)
    }

    // ---- the step -------------------------------------------------------

    /// Recomputes the bid of every `TOUCHED` packet: the link of its next
    /// hop and its key if it is eligible, not scripted, undelivered and away
    /// from its target, else the sink.
    fn rebid_touched(&mut self) {
        monomorphic!(self.rebid_in())
    }

    /// [`Engine::rebid_touched`] on network `net` (the engine's own) under
    /// policy `P`.
    fn rebid_in<N: Network, const P: u8>(&mut self, net: &N) {
        let sink = self.sink();
        let Engine {
            order,
            policy_salt,
            step,
            pos,
            target,
            phase_start,
            since,
            rank,
            flags,
            id_of,
            bid_link,
            bid_next,
            bid_key,
            requeue,
            ..
        } = self;
        let keys = KeyColumns {
            topo: net,
            salt: *policy_salt,
            step: *step,
            pos,
            target,
            phase_start,
            since,
            rank,
            id_of,
        };
        for &s in requeue.iter() {
            let s = s as usize;
            flags[s] &= !TOUCHED;
            (bid_link[s], bid_next[s], bid_key[s]) = keys.bid_or_sink::<P>(s, may_bid(flags[s]), *order, sink);
        }
        requeue.clear();
    }

    /// Phase 1 of a step: every packet in slots `0..n` bids with its
    /// computed bid (under `random` with a fresh draw), and the best bid of
    /// each link wins it (see [`enter_bids`]).
    fn bid(&mut self, n: usize) {
        let Engine {
            config,
            policy_salt,
            step,
            id_of,
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
        let (link, key, id_of) = (&bid_link[..n], &bid_key[..n], &id_of[..n]);
        let (base, count) = (*contest_base, *contest_count);
        *contest_count = if config.policy == Policy::Random {
            let (salt, step) = (*policy_salt, *step);
            let bids = link.iter().zip(id_of).map(|(&l, &id)| (l, random_bid(salt, step, id)));
            enter_bids(link_contest, base, contests, count, bids)
        } else {
            enter_bids(
                link_contest,
                base,
                contests,
                count,
                link.iter().copied().zip(key.iter().copied()),
            )
        };
    }

    /// Takes one packet off a node's working queue (see [`shift_queue`]).
    fn leave_working(&mut self, node: usize) {
        shift_queue(
            &mut self.working,
            &mut self.queue_histogram,
            self.config.record_series,
            node,
            false,
        );
    }

    /// Phase 3 of a step: moves every contest winner and every scripted
    /// move over its link. Every packet moves at most once and queue counts
    /// only add up, so departures and arrivals are applied in one pass; the
    /// maxima are read after it, from the receiving nodes that may raise them.
    fn commit_moves(&mut self, summary: &mut StepSummary) {
        let config = &self.config;
        if config.edge_queues || config.record_series || config.check_invariants {
            monomorphic!(self.commit_full(summary))
        } else {
            monomorphic!(self.commit_plain(summary))
        }
    }

    /// [`Engine::commit_in`] without edge queues, series or checks (sweeps
    /// and the CLI), compiled apart so that it tests none of them.
    fn commit_plain<N: Network, const P: u8>(&mut self, net: &N, summary: &mut StepSummary) {
        match self.order {
            RouteOrder::Standard => self.commit_in::<N, P, true, false>(net, summary),
            RouteOrder::Reversed => self.commit_in::<N, P, true, true>(net, summary),
        }
    }

    /// [`Engine::commit_in`] for any configuration.
    fn commit_full<N: Network, const P: u8>(&mut self, net: &N, summary: &mut StepSummary) {
        self.commit_in::<N, P, false, false>(net, summary)
    }

    /// [`Engine::commit_moves`] on network `net` (the engine's own) under
    /// policy `P`; `PLAIN`: no edge queues, no series, no checks.
    #[inline(always)]
    fn commit_in<N: Network, const P: u8, const PLAIN: bool, const REVERSED: bool>(
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
            in_link,
            bid_link,
            bid_next,
            bid_key,
            contest_count,
            delivered_at,
            working,
            at_source,
            queue_histogram,
            current_max_queue,
            edge_occupancy,
            contests,
            forced,
            arrivals,
            delivered_slots,
            unsettled,
            eligible,
            delivered,
            in_flight,
            arrived_at_target,
            last_links,
            stats,
            ..
        } = self;
        let (step, deliver_on_arrival) = (*step, *deliver_on_arrival);
        let order = match (PLAIN, REVERSED) {
            (true, false) => RouteOrder::Standard,
            (true, true) => RouteOrder::Reversed,
            _ => *order,
        };
        let (series, edge_queues) = (!PLAIN && config.record_series, !PLAIN && config.edge_queues);
        let contests = &contests[..*contest_count];
        // Slices of known lengths rather than vectors: their bounds stay in
        // registers, and one test of a slot (or node) against the length
        // stands for the bounds checks of all the columns it indexes.
        let (n, nodes) = (pos.len(), working.len());
        let (pos, target, dest, flags, id_of) = (&mut pos[..n], &target[..n], &dest[..n], &mut flags[..n], &id_of[..n]);
        let (phase_start, since, rank) = (&phase_start[..], &mut since[..], &rank[..]);
        let (bid_link, bid_next, bid_key) = (&mut bid_link[..n], &mut bid_next[..n], &mut bid_key[..n]);
        let (working, at_source) = (&mut working[..nodes], &mut at_source[..nodes]);
        let delivered_at = &mut delivered_at[..];
        let (in_link, edge_occupancy) = (&mut in_link[..], &mut edge_occupancy[..]);
        let (mut moves, mut delivered_now) = (0u32, 0u32);
        let record_links = !PLAIN && (series || config.check_invariants);
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
        // `scripted_link` to `scripted_to`.
        let mut move_packet = |i: usize, scripted_link: u32, scripted_to: u32, winner: bool| {
            assert!(i < n, "slot {i} out of range");
            let (lid, to) = if winner {
                (bid_link[i], bid_next[i])
            } else {
                (scripted_link, scripted_to)
            };
            if lid == sink {
                return;
            }
            let before = winner || counts_unsettled(flags[i], pos[i], target[i]);
            if record_links {
                last_links.push(lid);
            }
            moves += 1;
            let from = pos[i] as usize;
            let f = flags[i];
            if f & DEPARTED != 0 {
                shift_queue(working, queue_histogram, series, from, false);
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
                let queue = shift_queue(working, queue_histogram, series, to as usize, true);
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
            let keys = KeyColumns {
                topo: net,
                salt: *policy_salt,
                step,
                pos,
                target,
                phase_start,
                since,
                rank,
                id_of,
            };
            (bid_link[i], bid_next[i], bid_key[i]) = keys.bid_or_sink::<P>(i, after, order, sink);
            flags[i] = f;
            unsettled_now = unsettled_now + after as u32 - before as u32;
        };
        // One call site, so the closure is inlined.
        let winners = contests
            .iter()
            .filter(|c| c.best != EMPTY && c.best != RESERVED)
            .map(|c| (c.winner, NONE, NONE, true));
        for (s, lid, to, winner) in winners.chain(forced.iter().map(|&(s, lid, to)| (s, lid, to, false))) {
            move_packet(s as usize, lid, to, winner);
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
        let (mut max_queue, mut max_load) = (*current_max_queue, stats.max_load);
        for &to in arrivals.iter() {
            let w = working[to as usize];
            max_queue = max_queue.max(w);
            max_load = max_load.max(w + at_source[to as usize]);
        }
        *current_max_queue = max_queue;
        stats.max_load = max_load;
    }

    /// Simulates one step: every link's winner is chosen on start-of-step
    /// state, bounded queues refuse what they cannot take, then every winner
    /// crosses its link at once.
    pub fn step(&mut self) -> StepSummary {
        self.step += 1;
        self.arrived_at_target.clear();

        // Phase 1: contention, on start-of-step state: the packets the
        // algorithm changed recompute their bids, then every eligible
        // packet, in slot order, bids for the link of its next hop.
        if !self.requeue.is_empty() {
            self.rebid_touched();
        }
        if self.eligible > 0 {
            self.bid(self.scan_len);
        }

        // Phase 2: bounded queues refuse transit packets they have no room for.
        if let Some(cap) = self.config.queue_cap {
            self.apply_queue_capacity(cap);
        }

        // Phase 3: commit all moves at once.
        let mut summary = StepSummary {
            control_messages: self.control.len() as u32,
            busy: std::mem::replace(&mut self.busy, false),
            ..Default::default()
        };
        self.last_links.clear();
        self.last_links.extend_from_slice(&self.control);
        self.last_control = self.control.len();
        self.control.clear();
        self.commit_moves(&mut summary);
        self.retire_contests();
        if self.config.resort_interval > 0 {
            self.drop_delivered();
        }
        self.arrived_at_target.sort_unstable();

        while self.config.record_series
            && self.current_max_queue > 0
            && self.queue_histogram[self.current_max_queue as usize] == 0
        {
            self.current_max_queue -= 1;
        }
        self.stats.add_hops(summary.packet_moves);
        self.stats.end_step(
            self.current_max_queue,
            self.in_flight,
            summary.packet_moves + summary.control_messages,
        );
        if self.config.check_invariants {
            self.check_invariants();
        }
        // The order decays with the hops made, not with the steps: re-sort
        // after `resort_interval` hops per packet in flight.
        self.hops_since_resort += summary.packet_moves as u64;
        let interval = self.config.resort_interval as u64;
        if interval > 0 && self.hops_since_resort >= interval * self.in_flight.max(1) as u64 {
            self.resort();
        }
        summary
    }

    /// Ends the step's contests: their `link_contest` entries become stale by
    /// raising `contest_base` past them (restarting from a cleared array
    /// before the counter could wrap).
    fn retire_contests(&mut self) {
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

    /// Moves the packets the step delivered out of the scanned slots, each
    /// swapped with the last scanned one, so that later steps do not bid
    /// for them (until the next re-sort, which restores the order). Called
    /// when no slot is held in a scratch list.
    fn drop_delivered(&mut self) {
        let mut slots = std::mem::take(&mut self.delivered_slots);
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
    fn slot_word_columns(&mut self) -> [&mut Vec<u32>; 10] {
        [
            &mut self.pos,
            &mut self.target,
            &mut self.dest,
            &mut self.phase_start,
            &mut self.since,
            &mut self.rank,
            &mut self.id_of,
            &mut self.in_link,
            &mut self.bid_link,
            &mut self.bid_next,
        ]
    }

    /// Exchanges the packets in slots `a` and `b`.
    fn swap_slots(&mut self, a: usize, b: usize) {
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
    fn resort(&mut self) {
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
        let mut scratch = std::mem::take(&mut self.resort_scratch);
        for column in self.slot_word_columns() {
            if column.is_empty() {
                continue;
            }
            scratch.clear();
            scratch.extend(perm.iter().map(|&s| column[s as usize]));
            std::mem::swap(column, &mut scratch);
        }
        self.resort_scratch = scratch;
        self.bid_key = perm.iter().map(|&s| self.bid_key[s as usize]).collect();
        self.flags = perm.iter().map(|&s| self.flags[s as usize]).collect();
        for (s, &id) in self.id_of.iter().enumerate() {
            self.slot_of[id as usize] = s as u32;
        }
        // The requeue list holds slots too (it is empty between steps, but
        // not before the first).
        let mut new_slot = vec![0u32; n];
        for (new, &old) in perm.iter().enumerate() {
            new_slot[old as usize] = new as u32;
        }
        self.requeue.iter_mut().for_each(|s| *s = new_slot[*s as usize]);
        self.scan_len = live;
        self.hops_since_resort = 0;
    }

    /// SPEC §1: a node accepts at most q − (start-of-step working queue)
    /// arriving transit packets (or, with edge queues, one per incoming link
    /// with room), chosen by the policy; packets arriving at their
    /// destination are always accepted; refused packets stay put. Scripted
    /// moves are the algorithm's responsibility and are never refused.
    fn apply_queue_capacity(&mut self, cap: u32) {
        let mut transit: Vec<(u32, u64, u32)> = Vec::new(); // (to, best, contest)
        let sink = self.sink();
        for (k, c) in self.contests[..self.contest_count].iter_mut().enumerate() {
            if c.best == RESERVED {
                continue;
            }
            let (link, next) = (self.bid_link[c.winner as usize], self.bid_next[c.winner as usize]);
            if link == sink || (next == self.dest[c.winner as usize] && self.deliver_on_arrival) {
                continue;
            }
            if self.config.edge_queues {
                if self.edge_occupancy[link as usize] >= cap {
                    c.best = EMPTY;
                }
            } else {
                transit.push((next, c.best, k as u32));
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
                    self.contests[transit[k].2 as usize].best = EMPTY;
                }
                k += 1;
            }
        }
    }

    /// Recounts everything from the packet columns and panics on any
    /// disagreement: no packet lost or duplicated, no link used twice, no
    /// packet moved more than one hop, no queue over capacity.
    fn check_invariants(&self) {
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
            if self.flags[s] & DEPARTED != 0 {
                working[self.pos[s] as usize] += 1;
            } else {
                assert_eq!(self.pos[s], self.src[p], "packet {p} moved without departing");
                at_source[self.pos[s] as usize] += 1;
            }
        }
        assert_eq!(undelivered, self.in_flight, "packet lost or duplicated");
        assert_eq!(undelivered + self.delivered, self.src.len() as u32);
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
        let max_queue = self.working.iter().copied().max().unwrap_or(0);
        if self.config.record_series {
            assert_eq!(self.current_max_queue, max_queue, "queue histogram drifted");
        } else {
            assert!(self.current_max_queue >= max_queue, "running max queue fell behind");
        }
        monomorphic!(self.check_bids_in());
    }

    /// Checks that every packet's bid, as kept, is the bid computed afresh
    /// (packets the algorithm has touched since are recomputed anyway).
    fn check_bids_in<N: Network, const P: u8>(&self, net: &N) {
        let keys = KeyColumns {
            topo: net,
            salt: self.policy_salt,
            step: self.step,
            pos: &self.pos,
            target: &self.target,
            phase_start: &self.phase_start,
            since: &self.since,
            rank: &self.rank,
            id_of: &self.id_of,
        };
        for s in 0..self.scan_len {
            let f = self.flags[s];
            if f & TOUCHED != 0 {
                continue;
            }
            let (link, next, key) = keys.bid_or_sink::<P>(s, may_bid(f), self.order, self.sink());
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

    /// Engine bytes held per packet, for the benchmark report: what is
    /// allocated for the packets, divided by their number. By slot pos,
    /// target, dest, id_of, the bid (link, next node, key) and flags, and
    /// one of phase_start, since and rank if the policy reads it; by id
    /// slot_of, src, delivered_at and class; in_link with edge queues; the
    /// contest list (12 bytes per packet or per link, whichever is fewer)
    /// once a step has run; the requeue and delivered-slot lists as
    /// allocated. (Node and link columns are not per packet; a re-sort
    /// holds 12 bytes per packet while it runs.)
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
            + self.bid_key.len() * 8
            + self.flags.len()
            + self.class.len();
        bytes.div_ceil(n)
    }
}

/// The columns and settings a policy key is computed from (SPEC §1 "Contention").
struct KeyColumns<'a, N> {
    topo: &'a N,
    salt: u64,
    step: u32,
    pos: &'a [u32],
    target: &'a [u32],
    phase_start: &'a [u32],
    since: &'a [u32],
    rank: &'a [u32],
    id_of: &'a [u32],
}

impl<N: Network> KeyColumns<'_, N> {
    /// The bid of the packet in slot `s` as `(link, next node, key)`: its
    /// [`KeyColumns::next_bid`] if it `bids`, else (and at its target) the
    /// `sink`'s, which no packet can win over.
    #[inline(always)]
    fn bid_or_sink<const P: u8>(&self, s: usize, bids: bool, order: RouteOrder, sink: u32) -> (u32, u32, u64) {
        let bid = if bids { self.next_bid::<P>(s, order) } else { None };
        bid.unwrap_or((sink, NONE, 0))
    }

    /// The bid of the packet in slot `s` from where it is: the link of its
    /// next hop, the node that link leads to and its bid (see
    /// [`KeyColumns::bid`]); `None` at its target.
    #[inline(always)]
    fn next_bid<const P: u8>(&self, s: usize, order: RouteOrder) -> Option<(u32, u32, u64)> {
        let at = self.pos[s];
        let hop = self.topo.next_hop(at, self.target[s], self.id_of[s], order)?;
        let link = at * self.topo.ports() + hop.port;
        Some((link, hop.next, self.bid::<P>(s, hop.remaining_in_dim, hop.port)))
    }

    /// The bid of the packet in slot `s` under policy `P` for a hop over
    /// `port` with `remaining_in_dim` hops left in its dimension: the
    /// policy key (larger wins, below `u32::MAX`) in the high 32 bits and
    /// the complement of the packet id in the low 32 bits, so one
    /// comparison picks the larger key and, on a tie, the smaller id.
    #[inline(always)]
    fn bid<const P: u8>(&self, s: usize, remaining_in_dim: u32, port: u32) -> u64 {
        const TOP: u32 = u32::MAX - 1;
        let id = self.id_of[s];
        let key = match P {
            FARTHEST_FIRST => remaining_in_dim,
            NEAREST_FIRST => TOP - remaining_in_dim,
            FARTHEST_TOTAL => self.topo.distance(self.pos[s], self.target[s]),
            FARTHEST_ORIGIN => {
                let dim = self.topo.port_dim(port);
                self.topo.dim_distance(self.phase_start[s], self.pos[s], dim)
            }
            FIFO => TOP - self.since[s],
            // Drawn afresh at every step (see `random_bid`).
            RANDOM => return random_bid(self.salt, self.step, id),
            _ => TOP.saturating_sub(self.rank[s]),
        };
        // Every key is at most TOP by construction (distances are below
        // the number of nodes), so the top value stays free for RESERVED.
        debug_assert!(key <= TOP);
        ((key as u64) << 32) | (!id) as u64
    }
}

/// The `random` policy's bid of packet `id` in `step`: one independent
/// draw per (step, packet), whatever the order packets are visited in.
#[inline(always)]
fn random_bid(salt: u64, step: u32, id: u32) -> u64 {
    let draw = mix64(salt ^ ((step as u64) << 32 | id as u64));
    (draw >> 33) << 32 | (!id) as u64
}

/// Enters the bids `(link, bid)` of slots 0, 1, … into this
/// step's contests (`list`, the first `count` of them open, indexed by
/// `of_link` less `base`; see `Engine::link_contest`): the link's contest
/// keeps the larger bid (a reservation is larger than any bid), and a link
/// without a contest gets one, in the entry after the last. `list` must
/// have room for one new contest per distinct link. Returns the new count.
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
    bids: impl Iterator<Item = (u32, u64)>,
) -> usize {
    for (s, (lid, candidate)) in bids.enumerate() {
        let entry = &mut of_link[lid as usize];
        let c = entry.wrapping_sub(base) as usize;
        let fresh = c >= count;
        let k = c.min(count);
        let contest = &mut list[k];
        // Every bid is above `EMPTY` (its low half is the complement of an id).
        let best = select_unpredictable(fresh, EMPTY, contest.best);
        let better = candidate > best;
        *contest = Contest {
            best: select_unpredictable(better, candidate, best),
            winner: select_unpredictable(better, s as u32, contest.winner),
        };
        *entry = base + k as u32;
        count += fresh as usize;
    }
    count
}

/// Whether a packet with `flags` bids for a link at all: eligible, not
/// scripted, undelivered.
#[inline(always)]
fn may_bid(flags: u8) -> bool {
    flags & (ELIGIBLE | FORCED | DELIVERED) == ELIGIBLE
}

/// Whether a packet with `flags` at `pos`, headed for `target`, counts in
/// `Engine::unsettled`: eligible, undelivered and away from its target.
#[inline(always)]
fn counts_unsettled(flags: u8, pos: u32, target: u32) -> bool {
    flags & (ELIGIBLE | DELIVERED) == ELIGIBLE && pos != target
}

/// Adds one packet to `working[node]` (`grow`) or takes one off (returning
/// the new size), keeping
/// the histogram of queue sizes when the per-step series are on (it makes
/// the end-of-step maximum exact at every step); without it the engine
/// keeps only the largest end-of-step queue so far, which is all
/// `max_queue` needs.
#[inline(always)]
fn shift_queue(working: &mut [u32], histogram: &mut Vec<u32>, series: bool, node: usize, grow: bool) -> u32 {
    let old = working[node];
    let value = if grow { old + 1 } else { old - 1 };
    if series {
        histogram[old as usize] -= 1;
        if value as usize >= histogram.len() {
            histogram.resize(value as usize + 1, 0);
        }
        histogram[value as usize] += 1;
    }
    working[node] = value;
    value
}
