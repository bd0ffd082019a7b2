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
//!
//! # Cut-through worms
//! With `EngineConfig::flits` F > 1 every packet is the head of a worm of
//! F flits (SPEC §5 `--flits`; Kaufmann–Sibeyn §7.2, §8.2): the links a
//! head crossed stay reserved while its flits follow, so that no other
//! message crosses them. The exact rules are in `worms.rs`; with F = 1
//! nothing of it runs.

mod policy;
mod stats;

pub use deadlock::canonical_cycle;

pub use policy::Policy;
pub use queues::ScriptRefusal;
pub use stats::{PhaseSteps, Stats};
pub use worms::{check_flits, MAX_FLITS};

use crate::error::{try_collect, try_filled, try_headroom, try_zeros, Result};
use crate::rng::{Rng, Stream};
use crate::topology::{Network, RouteOrder, Topology};
use contest::Contest;
use std::collections::VecDeque;
use std::sync::Arc;
use worms::Crossing;

const NONE: u32 = u32::MAX;
/// Default hops per packet in flight between two re-sorts of the packet
/// slots by position (16 steps when every packet moves every step).
pub const RESORT_INTERVAL: u32 = 16;

const ELIGIBLE: u8 = 1;
const DEPARTED: u8 = 2;
const DELIVERED: u8 = 4;
const FORCED: u8 = 8;
/// The packet is on the `requeue` list: the algorithm changed its target,
/// eligibility, rank or route order (or scripted or delivered it), so its
/// bid is recomputed before the next contest.
const TOUCHED: u8 = 16;
/// On a ring tie (SPEC §2) the packet goes the other way than its id's
/// parity says ([`Engine::set_tie_direction`]).
const TIE_FLIP: u8 = 32;
/// The packet was combined into another ([`Engine::combine`]): it holds no
/// place in any queue and is delivered with the packet that carries it.
const COMBINED: u8 = 64;

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
        use $crate::engine::{
            Policy, FARTHEST_FIRST, FARTHEST_ORIGIN, FARTHEST_TOTAL, FIFO, NEAREST_FIRST, RANDOM, RANK,
        };
        use $crate::topology::Topology;
        let topo = std::sync::Arc::clone(&$engine.topo);
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
            Topology::ShuffleExchange(net) => with_policy!(net),
        }
    }};
}

// What algorithms read (`read`) and what they may set or send (`control`);
// then the stages of a step, in the order `Engine::step` runs them: the
// bids and their keys (`bids`), the contest per link (`contest`), bounded
// queues (`queues`), the commit (`commit`), the memory order (`order`), the
// flits' reservations (`worms`), the invariant checks (`check`); and
// between steps, open-loop packets entering (`admit`).
mod admit;
mod bids;
mod check;
mod commit;
mod contest;
mod control;
mod deadlock;
mod order;
#[cfg(not(target_arch = "wasm32"))]
mod parallel;
mod queues;
mod read;
mod worms;

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
    /// Flits per worm (SPEC §5 `--flits`; see "Cut-through worms"): 1 is
    /// store-and-forward, at most [`MAX_FLITS`].
    pub flits: u32,
    /// Threads of a step (see "Parallel step" in docs/architecture.md):
    /// 1 is the sequential step; more split the contests and the commit
    /// over a pool of that many threads, with every result unchanged. Not
    /// part of any result. The wasm build always runs one.
    pub threads: usize,
    /// The fewest packets in flight for a parallel step (below it, a step
    /// runs sequentially); tests set 0 to force the parallel path.
    pub parallel_min: usize,
}

/// Default [`EngineConfig::parallel_min`]: below it, a step is too short
/// for the threads' start and the merge to pay.
pub const PARALLEL_MIN: usize = 16_384;

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
            flits: 1,
            threads: 1,
            parallel_min: PARALLEL_MIN,
        }
    }
}

/// What a control message is, for drawing: a plain message (a key,
/// counter or token), or one of LMRR's ghosts or end-of-stream markers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum ControlKind {
    /// A key, counter or token.
    #[default]
    Message = 0,
    /// A ghost packet (LMRR §2.2): a rank announced on a link.
    Ghost = 1,
    /// An end-of-stream marker (LMRR §2.2).
    EndOfStream = 2,
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
    /// Flits (of worms, F > 1) that crossed a link behind their heads.
    pub flit_moves: u32,
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
    /// The number that breaks a tie between bids in each slot (SPEC §1:
    /// "the smaller packet id"; the way round a ring on a tie by its
    /// parity): empty in a batch run, where the id is that number (see
    /// [`ties`]); in open loop, where ids are reused, the packet's number
    /// in the order packets were generated (admit.rs), so that an older
    /// packet wins a tie as in a batch run.
    tie_of: Vec<u32>,
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
    /// Every class a packet has held, a bit each (a finished run's legend).
    classes_seen: [u64; 4],
    delivered_at: Vec<u32>,
    /// Undelivered packets.
    in_flight: u32,

    // Node columns.
    working: Vec<u32>,
    at_source: Vec<u32>,
    /// With series: the end-of-step largest working queue (exact); without,
    /// the largest so far. See [`Engine::settle_max_queue`].
    current_max_queue: u32,
    /// With series: a node whose working queue was `current_max_queue` at
    /// the last step's end (checked first when the maximum is settled).
    max_witness: u32,
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
    /// The links reserved for the coming step (control messages, scripted
    /// moves, flits), one bit per link: a reservation is a bit (a step's
    /// script touches 8 KB at mesh:128x128, not the 256 KB of
    /// `link_contest`), entered as a contest only in a step in which
    /// packets bid (`enter_reservations`).
    reserved_bits: Vec<u64>,
    /// The links that exist, a bit each (`control.rs`, `link_map`): built
    /// at the first batch of control messages, shared by clones.
    links_present: Option<Arc<[u64]>>,
    /// Those links, in the order reserved.
    reserved: Vec<u32>,
    /// Grows by the number of contests of every step (see `link_contest`).
    contest_base: u32,
    forced: Vec<(u32, u32, u32)>,
    control: Vec<u32>,
    /// The kind of each of `control`'s messages.
    control_kinds: Vec<ControlKind>,
    /// Scratch of a step: the nodes that received a transit packet and may
    /// thereby pass the largest queue or load so far.
    arrivals: Vec<u32>,
    /// Scratch of a step: the slots of the packets it delivered.
    delivered_slots: Vec<u32>,
    /// Worms (F > 1): the heads' crossings whose links some flit has yet
    /// to cross, in step order (see `worms.rs`); always empty with F = 1.
    crossings: VecDeque<Crossing>,

    /// Open-loop traffic (admit.rs): packets are injected between steps.
    open_loop: bool,
    /// Open loop: the ids of the packets the last step delivered.
    last_delivered: Vec<u32>,
    /// Open loop: delivered packets whose slot and id a later packet took
    /// (they count in `delivered` but no longer have a slot).
    retired: u32,
    /// Open loop: the tie-breaking number the next injected packet gets
    /// (`tie_of`; admit.rs).
    next_tie: u32,

    unsettled: u32,
    /// Undelivered packets with the eligible flag: when 0, the contention
    /// pass of a step is skipped (steps of control messages and scripted moves).
    eligible: u32,
    delivered: u32,
    arrived_at_target: Vec<u32>,
    /// Packets to deliver as the coming step opens, stamped with it
    /// ([`Engine::deliver_in_coming_step`]); a step the run never takes
    /// (its step limit) delivers none of them.
    due: Vec<u32>,
    /// The step whose script a node had no room for, once one had none.
    script_refused: Option<ScriptRefusal>,
    last_links: Vec<u32>,
    /// Whether the commit records every move's link in `last_links` (with
    /// the series or the checks on, unless the caller turned it off for
    /// steps nobody draws: [`Engine::set_record_links`]).
    record_links: bool,
    last_control: usize,
    last_control_kinds: Vec<ControlKind>,
    /// Packets combined into others and not yet delivered, as (carrier,
    /// rider) ids ([`Engine::combine`]); empty unless an algorithm combines.
    riders: Vec<(u32, u32)>,
    stats: Stats,
    /// The pool and scratch of the parallel step (threads > 1).
    #[cfg(not(target_arch = "wasm32"))]
    par: Option<Box<parallel::Parallel>>,
}

impl Engine {
    /// Puts every packet at its source. Packets whose source is their
    /// destination are delivered at step 0. Every packet starts eligible with
    /// its destination as target, in phase "route"; algorithms change that.
    /// Panics if the columns cannot be allocated ([`Engine::try_new`] says so instead).
    pub fn new(topo: Topology, packets: &[(u32, u32)], config: EngineConfig) -> Engine {
        Self::build(topo, packets, config, true).unwrap_or_else(|e| panic!("{e}"))
    }

    /// As [`Engine::new`], but a failed allocation of a column is an
    /// [`Error::Memory`](crate::error::Error::Memory) naming it, not an abort.
    pub fn try_new(topo: Topology, packets: &[(u32, u32)], config: EngineConfig) -> Result<Engine> {
        Self::build(topo, packets, config, true)
    }

    /// As [`Engine::new`], but a packet whose source is its destination is
    /// not delivered at step 0: it stays at its source, undelivered, until
    /// the algorithm delivers it (a sort, SPEC §5, moves every key, even one
    /// that starts at its rank's node; see [`Engine::deliver`]).
    pub fn new_holding(topo: Topology, packets: &[(u32, u32)], config: EngineConfig) -> Engine {
        Self::build(topo, packets, config, false).unwrap_or_else(|e| panic!("{e}"))
    }

    /// [`Engine::new_holding`], with a failed allocation as an error ([`Engine::try_new`]).
    pub fn try_new_holding(topo: Topology, packets: &[(u32, u32)], config: EngineConfig) -> Result<Engine> {
        Self::build(topo, packets, config, false)
    }

    fn build(topo: Topology, packets: &[(u32, u32)], mut config: EngineConfig, deliver_fixed: bool) -> Result<Engine> {
        // A worm has at least its head (the request refuses 0 by name).
        config.flits = config.flits.clamp(1, MAX_FLITS);
        let n = packets.len();
        let nodes = topo.nodes() as usize;
        let links = nodes * topo.ports() as usize;
        // The large columns are allocated fallibly, so that a run too large
        // for the memory ends in a message, not in the allocator's abort.
        let t = &topo;
        let words = |what: &str, items: &mut dyn Iterator<Item = u32>| try_collect(n, items, what, t);
        let filled = |len: usize, value: u32, what: &str| try_filled(len, value, what, t);
        let optional = |on: bool, column: &dyn Fn() -> Result<Vec<u32>>| if on { column() } else { Ok(Vec::new()) };
        let src = words("the packets' sources", &mut packets.iter().map(|p| p.0))?;
        let dest = words("the packets' destinations", &mut packets.iter().map(|p| p.1))?;
        let pos = words("the packets' positions", &mut src.iter().copied())?;
        let target = words("the packets' targets", &mut dest.iter().copied())?;
        let phase_start = optional(config.policy == Policy::FarthestOrigin, &|| {
            words("the packets' phase starts", &mut src.iter().copied())
        })?;
        let since = optional(config.policy == Policy::Fifo, &|| {
            try_zeros(n, "the packets' arrival steps", t)
        })?;
        let rank = optional(config.policy == Policy::Rank, &|| {
            words("the packets' ranks", &mut (0..n as u32))
        })?;
        let flags = try_filled(n, ELIGIBLE, "the packets' flags", t)?;
        let bid_link = filled(n, links as u32, "the packets' bids")?;
        let bid_next = filled(n, NONE, "the packets' bids")?;
        let bid_key = try_zeros::<u64>(n, "the packets' bid keys", t)?;
        let id_of = words("the packets' slots", &mut (0..n as u32))?;
        let in_link = optional(config.edge_queues, &|| filled(n, NONE, "the packets' incoming links"))?;
        let slot_of = words("the packets' slots", &mut (0..n as u32))?;
        let class = try_zeros::<u8>(n, "the packets' classes", t)?;
        let delivered_at = filled(n, NONE, "the packets' delivery steps")?;
        let working = try_zeros(nodes, "the nodes' queues", t)?;
        let at_source = try_zeros(nodes, "the nodes' queues", t)?;
        let edge_occupancy = optional(config.edge_queues, &|| try_zeros(links, "the links' queues", t))?;
        let link_contest = try_zeros(links + 1, "the engine's link table", t)?;
        // What the steps allocate as they go — the contest list (at the
        // first step) and a re-sort's scratch — is tried in one block now.
        let later = n.min(links + 1) * std::mem::size_of::<Contest>() + 16 * n;
        try_headroom(later as u64, "the engine's contest list and re-sort scratch", t)?;
        let mut e = Engine {
            policy_salt: Rng::new(config.seed, Stream::Policy).next_u64(),
            order: RouteOrder::Standard,
            step: 0,
            deliver_on_arrival: true,
            busy: false,
            pos,
            target,
            dest,
            phase_start,
            since,
            rank,
            flags,
            bid_link,
            bid_next,
            bid_key,
            id_of,
            tie_of: Vec::new(),
            in_link,
            scan_len: n,
            resort_scratch: Vec::new(),
            requeue: Vec::new(),
            hops_since_resort: 0,
            slot_of,
            class,
            classes_seen: [u64::from(n > 0), 0, 0, 0],
            delivered_at,
            in_flight: 0,
            working,
            at_source,
            current_max_queue: 0,
            max_witness: 0,
            edge_occupancy,
            contests: Vec::new(),
            contest_count: 0,
            link_contest,
            reserved_bits: vec![0; (links + 1).div_ceil(64)],
            links_present: None,
            reserved: Vec::new(),
            contest_base: 1,
            forced: Vec::new(),
            control: Vec::new(),
            control_kinds: Vec::new(),
            arrivals: Vec::new(),
            delivered_slots: Vec::new(),
            crossings: VecDeque::new(),
            open_loop: false,
            last_delivered: Vec::new(),
            retired: 0,
            next_tie: 0,
            unsettled: 0,
            eligible: 0,
            delivered: 0,
            arrived_at_target: Vec::new(),
            due: Vec::new(),
            script_refused: None,
            last_links: Vec::new(),
            record_links: control::records_links(&config, true),
            last_control: 0,
            last_control_kinds: Vec::new(),
            riders: Vec::new(),
            stats: Stats::new(config.record_series),
            #[cfg(not(target_arch = "wasm32"))]
            par: parallel::Parallel::new(config.threads),
            src,
            topo: Arc::new(topo),
            config,
        };
        for p in 0..n as u32 {
            let (s, d) = (e.src[p as usize], e.dest[p as usize]);
            if s == d && deliver_fixed {
                e.flags[p as usize] |= DELIVERED;
                e.delivered_at[p as usize] = 0;
                e.delivered += 1;
            } else {
                e.in_flight += 1;
                e.at_source[s as usize] += 1;
                if s != d {
                    e.unsettled += 1;
                }
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
        // Those at their destination are delivered at step 0 (SPEC §1): the
        // latency counts them, as the delay histogram does.
        let home = e.delivered;
        e.stats.delivered_many_at_step(0, home);
        Ok(e)
    }

    /// Simulates one step: every link's winner is chosen on start-of-step
    /// state, bounded queues refuse what they cannot take, then every winner
    /// crosses its link at once.
    pub fn step(&mut self) -> StepSummary {
        self.step_here()
    }

    /// [`Engine::step`] on the current thread.
    fn step_here(&mut self) -> StepSummary {
        self.step += 1;
        self.arrived_at_target.clear();
        if !self.due.is_empty() {
            let due = std::mem::take(&mut self.due);
            self.deliver_in(&due, self.step);
        }

        // Phase 1: contention, on start-of-step state: the packets the
        // algorithm changed recompute their bids (bids.rs), then every
        // eligible packet, in slot order, bids for the link of its next hop
        // (contest.rs).
        if !self.requeue.is_empty() {
            self.rebid_touched();
        }
        // With threads, the contests and the commit may be split over
        // them (parallel/), with the same results; a step with reserved
        // links (contest.rs) stays sequential.
        let parallel = self.parallel_now();
        if parallel {
            self.par_bid();
        } else if self.eligible > 0 {
            self.enter_reservations();
            self.bid(self.scan_len);
        }

        // Phase 2: bounded queues refuse transit packets they have no room
        // for (queues.rs).
        if let Some(cap) = self.config.queue_cap {
            if parallel {
                self.par_queue_capacity(cap);
            } else {
                self.apply_queue_capacity(cap);
            }
        }

        // Phase 3: commit all moves at once (commit.rs), control messages
        // first in the links used; the flits that follow their heads cross
        // the links reserved for them (worms.rs), one per crossing kept
        // from earlier steps.
        let mut summary = StepSummary {
            control_messages: self.control.len() as u32,
            busy: std::mem::replace(&mut self.busy, false),
            flit_moves: self.crossings.len() as u32,
            ..Default::default()
        };
        self.last_links.clear();
        self.last_links.extend_from_slice(&self.control);
        self.last_control = self.control.len();
        self.control.clear();
        std::mem::swap(&mut self.last_control_kinds, &mut self.control_kinds);
        self.control_kinds.clear();
        if parallel {
            self.par_commit(&mut summary);
        } else {
            self.commit_moves(&mut summary);
        }
        // Combined packets arrive with their carriers (control.rs).
        if !self.riders.is_empty() {
            summary.delivered += self.deliver_riders();
        }
        if summary.flit_moves > 0 {
            if self.record_links {
                let flits = self.crossings.iter().take(summary.flit_moves as usize);
                self.last_links.extend(flits.map(|c| c.link));
            }
            self.stats.last_flit = self.step;
        }
        self.retire_contests();
        // Reserve the links the flits cross next step, before the algorithm
        // may reserve any (worms.rs).
        if !self.crossings.is_empty() {
            self.reserve_flit_links();
        }
        // The packets just delivered leave the scanned slots (order.rs);
        // in open loop always, so that new packets can take their slots.
        if self.config.resort_interval > 0 || self.open_loop {
            self.drop_delivered();
        }
        self.arrived_at_target.sort_unstable();

        // The step's end: its largest queue and its statistics, then the
        // invariant checks (check.rs).
        self.settle_max_queue();
        self.stats.add_hops(summary.packet_moves);
        self.stats.end_step(
            self.current_max_queue,
            self.in_flight,
            summary.packet_moves + summary.control_messages + summary.flit_moves,
        );
        if self.config.check_invariants {
            self.check_invariants();
        }
        // The memory order (order.rs) decays with the hops made, not with
        // the steps: re-sort after `resort_interval` hops per packet in flight.
        self.hops_since_resort += summary.packet_moves as u64;
        let interval = self.config.resort_interval as u64;
        if interval > 0 && self.hops_since_resort >= interval * self.in_flight.max(1) as u64 {
            self.resort();
        }
        summary
    }

    /// The slot of packet `p`.
    #[inline]
    fn slot(&self, p: u32) -> usize {
        self.slot_of[p as usize] as usize
    }
}

/// The wasm build has no threads: every step is sequential.
#[cfg(target_arch = "wasm32")]
impl Engine {
    fn parallel_now(&self) -> bool {
        false
    }
    fn par_bid(&mut self) {}
    fn par_queue_capacity(&mut self, _cap: u32) {}
    fn par_commit(&mut self, _summary: &mut StepSummary) {}
}

/// Whether a packet with `flags` at `pos`, headed for `target`, counts in
/// `Engine::unsettled`: eligible, undelivered and away from its target.
#[inline(always)]
fn counts_unsettled(flags: u8, pos: u32, target: u32) -> bool {
    flags & (ELIGIBLE | DELIVERED) == ELIGIBLE && pos != target
}

/// The tie-breaking numbers of the slots: `tie_of` in open loop, else the
/// ids (`id_of`); see [`Engine`]'s `tie_of`.
#[inline(always)]
pub(super) fn ties<'a>(id_of: &'a [u32], tie_of: &'a [u32]) -> &'a [u32] {
    if tie_of.is_empty() {
        id_of
    } else {
        tie_of
    }
}
