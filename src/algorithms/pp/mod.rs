//! Pietracaprina–Pucci, "Optimal many-to-one routing on the mesh with
//! constant queues": (ℓ,k)-routing on a side×side mesh (side a power of two,
//! N = side² nodes; the paper's n) in O(√(ℓkN)) steps with working queues of
//! constant size.
//!
//! - `pp-rand`: §3.1 (ℓ ≤ k) and §3.2 (ℓ > k), random colours (as even per
//!   node as a node's count allows, `Run::colour_randomly`).
//! - `pp-det`: §4, the colouring by pipelined prefix ranking (proof of
//!   Theorem 5; the ranks are the values its counters carry on the links,
//!   [`crate::primitives::ranking`]) — for ℓ ≤ k ranked inside every stripe
//!   of Step 2.(a).i with offsets summed at the stripe's corner, so that a
//!   class has at most one packet per node after the stripe balancing
//!   (`Run::colour_deterministic`) — and, for ℓ ≤ k, that balancing.
//!
//! Every step is simulated on the engine through the primitives of
//! [`crate::primitives`]: sorts by compare-exchange (rounds pipelined),
//! prefix sums as counters on the links, tours and ring balancing as
//! scripted moves, shifts and the routing phases of sorting-based routing by
//! the engine's dimension-order routing. §3.2 Step 2.(a) runs for every
//! colour at once (one counter per colour), and its totals fix each class's
//! bucket; the buckets are reported (`"buckets"`).
//!
//! Tessellations (§2, footnote 1): every parameter t (s, s′, k/ℓ, ℓ/k) is
//! rounded up to t′, the smallest power of 4 ≥ t, capped at N, in integer
//! arithmetic; a t-tile has N/t′ nodes, and the "k/ℓ rounds" are t′ rounds.
//!
//! ℓ and k are known to the nodes (§3): the instance's declared values, or
//! its measured maxima (the larger of the two when both exist, so that the
//! colourings stay valid).
//!
//! Delivery on arrival is off except during tours: packets cross their
//! destinations while being sorted or shifted, and are delivered by the tour
//! of their destination tile (or, if already at the destination when the
//! tour starts, at that step).
//!
//! # Queues
//! [`QUEUE_BOUND`] is the constant the tests hold every run to.
//!
//! # Complexity
//! Per colour O(side) for sorts and scans (≈ 6.8·side per sort) plus the
//! rounds; O(N) simulator work per step.

use super::papers::PP;
use super::{require, Algorithm, AlgorithmOptions};
use super::{Entry, Packets, Shape};
use crate::engine::{Engine, Policy};
use crate::error::{Error, Result};
use crate::options::Field;
use crate::primitives::geometry::{comb_rc, pow4_at_least, pow4_at_least_sqrt, Mesh, Tiles};
use crate::primitives::ranking::PrefixRanking;
use crate::primitives::ring::{stripe_cycles, tile_cycles, RingTask};
use crate::primitives::route::{shift, CcRoute};
use crate::primitives::scan::{blocked_sums, row_major_sums, Order};
use crate::primitives::sort::SortTask;
use crate::primitives::{Nothing, Task};
use crate::report::Extra;
use crate::rng::{Rng, Stream};
use crate::topology::Kind;
use crate::workload::Instance;
pub use teaching::{cc_stage, DET_TEACHING, RAND_TEACHING};
pub use unknown::{allowance, guesses_up_to, ALLOWANCE_C};

/// The working-queue bound the implementation is held to (tests assert
/// `max_queue ≤ QUEUE_BOUND` on every run): stated before measuring, from
/// the analysis — a node holds at most one parked packet of the current
/// colour that is not moving, the O(1) packets per node of a balanced
/// distribution (Lemmas 1 and 3), and O(1) in transit in a sort, a
/// linear-array routing phase or a tour.
pub const QUEUE_BOUND: u32 = 16;

/// Bits of a node id in a sort key.
const NODE_BITS: u32 = 26;

/// `pp-rand` (§3) or `pp-det` (§4).
#[derive(Clone)]
pub struct Pp {
    det: bool,
    seed: u64,
    run: Option<Run>,
    /// `--unknown-lk` (§3): ℓ and k learned, the run in attempts.
    unknown_lk: bool,
    unknown: Option<unknown::Unknown>,
}

impl Pp {
    /// The randomized algorithm of §3.
    pub fn randomized(options: &AlgorithmOptions) -> Self {
        Pp {
            det: false,
            seed: options.seed,
            run: None,
            unknown_lk: options.unknown_lk,
            unknown: None,
        }
    }
    /// The deterministic algorithm of §4.
    pub fn deterministic(options: &AlgorithmOptions) -> Self {
        Pp {
            det: true,
            seed: options.seed,
            run: None,
            unknown_lk: options.unknown_lk,
            unknown: None,
        }
    }
}

/// One stage of the program; `j` is a colour, `i` a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// §4 Step 2.(a).i: spread the j-packets of every stripe one per node
    /// along the stripe's cycle, to the node of their index in the class.
    StripeBalance(u32),
    /// §3.1 Step 2.(a): sort by (destination s-tile, destination).
    Sort(u32),
    /// §3.1 Step 2.(b): rank r to node r div t′ of (k/ℓ)-tile r mod t′.
    Deal(u32),
    /// §3.1 Step 2.(c).i: route to the destination s-tile, spread evenly
    /// ([`Run::spread_target`]).
    Spread(u32, u32),
    /// §3.1 Step 2.(c).ii: the tour of every s-tile.
    Tour(u32, u32),
    /// §3.1 Step 2.(c).iii / §3.2 Step 2.(b).iii: blockwise shift.
    Shift(u32, u32),
    /// §3.2 Step 2.(a) for every colour at once (one counter per colour,
    /// pipelined): ranks in which every s-tile is an interval, and each
    /// colour's total, which fixes its bucket (the most j-packets a node
    /// holds after Step 2.(b) is ⌈total/N⌉; Lemma 3 makes it O(1) w.h.p.,
    /// and a class above N packets sorts with a larger bucket and is never
    /// lost).
    Ranks,
    /// §3.2 Step 2.(b).i: inject and spread over the s-tile (ring balancing).
    Inject(u32, u32),
    /// §3.2 Step 2.(b).ii: ranks inside the (ℓ/k)-tile.
    BalanceRanks(u32, u32),
    /// §3.2 Step 2.(b).ii: balance the (ℓ/k)-tile.
    Balance(u32, u32),
    /// §3.2 Step 2.(c): sort by destination s′-tile.
    SortDest(u32),
    /// §3.2 Step 2.(c): route to the destination s′-tile, spread evenly.
    SpreadDest(u32),
    /// §3.2 Step 2.(d): the tour of every s′-tile.
    TourDest(u32),
}

#[derive(Clone)]
struct Run {
    mesh: Mesh,
    l: u32,
    k: u32,
    /// (k/ℓ)-tiles (ℓ ≤ k) or (ℓ/k)-tiles (ℓ > k): one per round.
    rounds: Tiles,
    /// s-tiles: destinations (ℓ ≤ k) or sources (ℓ > k).
    s_tiles: Tiles,
    /// ℓ > k: the s′-tiles of destinations.
    d_tiles: Tiles,
    /// §4: stripe height for Step 2.(a).i.
    stripe: u32,
    colour: Vec<u32>,
    by_colour: Vec<Vec<u32>>,
    /// ℓ > k: global rank of each packet of the current colour (Step
    /// 2.(a)); `pp-det`, ℓ ≤ k: each packet's index in its colour class and
    /// stripe (§4 Step 1, [`Run::colour_deterministic`]).
    rank: Vec<u32>,
    injected: Vec<bool>,
    /// Bucket size (most j-packets per node) of the current colour.
    c: u32,
    /// ℓ > k: each colour's number of packets (Step 2.(a)'s totals).
    totals: Vec<u64>,
    /// ℓ > k: no node holds more than t′ packets of a colour (`pp-rand`'s
    /// even colours, or k = 1), so every node injects at most one per
    /// round of Step 2.(b) and the injection moves nothing.
    inject_in_place: bool,
    /// The bucket size each colour's sort used.
    buckets: Vec<u32>,
    /// Targets computed by a ranking stage for the next routing stage.
    pending: Vec<(u32, u32)>,
    stages: Vec<Stage>,
    next: usize,
    current: Option<Box<dyn Task>>,
    current_name: String,
    announced: bool,
    /// §4 Step 1 in progress (before every stage): the ranking whose
    /// messages compute the colours.
    colouring: Option<Colouring>,
    /// What every phase name starts with (`guess2 (k=4) `: an attempt of
    /// `--unknown-lk`; empty otherwise).
    prefix: String,
    /// `--unknown-lk`: a node that finds more packets of a class than the
    /// attempt's bucket (its guess of k is too small) aborts the attempt
    /// instead of failing: the nodes that found it.
    overflow: Option<Vec<u32>>,
    abortable: bool,
}

/// The colouring of §4 Step 1 in progress.
#[derive(Clone)]
struct Colouring {
    task: PrefixRanking,
    /// The ranked packets, and the group inside which each one's rank is
    /// unique: its stripe (ℓ ≤ k) or its destination tile (ℓ > k).
    packets: Vec<u32>,
    groups: Vec<u32>,
    /// The number of groups.
    count: u32,
    modulus: u32,
}

impl Algorithm for Pp {
    fn keeps_edge_queues(&self) -> bool {
        false
    }

    fn report_extra(&self) -> Extra {
        let run = self.run.as_ref().or(self.unknown.as_ref().and_then(|u| u.run()));
        Extra {
            buckets: run.map(|r| r.buckets.clone()),
            guesses: self.unknown.as_ref().map(|u| u.guesses()),
            ..Extra::default()
        }
    }

    fn name(&self) -> &'static str {
        if self.det {
            DET_NAME
        } else {
            RAND_NAME
        }
    }

    fn start(&mut self, instance: &Instance, e: &mut Engine) -> Result<()> {
        let topo = &instance.topology;
        let mesh = Mesh::of(topo);
        require(
            self.name(),
            mesh.is_ok(),
            topo,
            "a square mesh whose side is a power of two (mesh:SxS)",
        )?;
        let mesh = mesh.expect("checked");
        if self.det && e.config().policy == Policy::Random {
            return Err(Error::unsupported(
                self.name(),
                "it is deterministic and refuses --policy random (any other policy gives the same run for every seed)",
            ));
        }
        let (dl, dk) = instance.lk();
        let (ml, mk) = instance.measured_lk();
        let (l, k) = (dl.max(ml).max(1), dk.max(mk).max(1));
        e.set_deliver_on_arrival(false);
        for p in 0..e.packet_count() {
            if !e.is_delivered(p) {
                e.set_eligible(p, false);
            }
        }
        if e.finished() {
            return Ok(());
        }
        if self.unknown_lk {
            self.unknown = Some(unknown::Unknown::start(mesh, self.det, self.seed, e));
            return Ok(());
        }
        let mut run = Run::new(mesh, l, k, self.det, self.seed, String::new(), e);
        // Name the phase that step 1 belongs to already at step 0, as every
        // other algorithm does (the page's phase counter): the colouring, or
        // the first stage, built now — nothing moves before step 1, so it is
        // built on the state it would see then. A stage that takes no step
        // is replaced by the next one at step 0 (`begin_phase`).
        if run.colouring.is_some() {
            e.begin_phase("colouring");
        } else if let Some(&stage) = run.stages.first() {
            run.next = 1;
            let (name, task) = run.build(stage, e);
            e.begin_phase(&name);
            run.current = Some(task);
            run.current_name = name;
        }
        self.run = Some(run);
        Ok(())
    }

    fn before_step(&mut self, e: &mut Engine) {
        if let Some(unknown) = self.unknown.as_mut() {
            unknown.before_step(e);
        } else if let Some(run) = self.run.as_mut() {
            run.advance(e);
        }
    }

    fn hand_over(&mut self, e: &mut Engine) {
        if let Some(unknown) = self.unknown.as_ref() {
            unknown.hand_over(e);
        } else if let Some(run) = self.run.as_ref() {
            run.hand_over(e);
        }
    }
}

impl Run {
    /// The colour whose tour (§3.1 Step 2.(c).ii and 2.(d)) opens with the
    /// next step, if the step just taken ended the stage before it.
    fn tour_next(&self, e: &Engine) -> Option<u32> {
        if self.colouring.is_some() || self.overflow.is_some() || !self.current.as_ref().is_some_and(|t| t.over(e)) {
            return None;
        }
        match self.stages.get(self.next) {
            Some(&(Stage::TourDest(j) | Stage::Tour(j, _))) => Some(j),
            _ => None,
        }
    }

    /// The step that ends the stage before a colour's tour hands over that
    /// colour's packets already at their destinations, as the tour would
    /// as it opens (a tour of round i takes the packets in their
    /// destination's s′-tile: every packet at its destination is).
    fn hand_over(&self, e: &mut Engine) {
        if let Some(j) = self.tour_next(e) {
            self.deliver_home(e, j);
        }
    }

    /// Delivers colour j's packets that sit at their destinations.
    fn deliver_home(&self, e: &mut Engine, j: u32) {
        let home = e.at_destination(&self.live(e, j));
        e.deliver_many(&home);
    }

    /// The run for ℓ and k (known, or an attempt's guess), its colouring
    /// begun and its stages listed; its phase names start with `prefix`.
    fn new(mesh: Mesh, l: u32, k: u32, det: bool, seed: u64, prefix: String, e: &mut Engine) -> Run {
        let n = mesh.nodes();
        let nn = n as u64;
        let le = l <= k;
        let (rounds, s_tiles, d_tiles) = if le {
            let s = Tiles::new(mesh, pow4_at_least_sqrt(nn * k as u64, l as u64, n));
            (Tiles::new(mesh, pow4_at_least(k as u64, l as u64, n)), s, s)
        } else {
            (
                Tiles::new(mesh, pow4_at_least(l as u64, k as u64, n)),
                Tiles::new(mesh, pow4_at_least_sqrt(nn * l as u64, k as u64, n)),
                Tiles::new(mesh, pow4_at_least_sqrt(nn * k as u64, l as u64, n)),
            )
        };
        debug_assert!(s_tiles.count() >= rounds.count());
        // Stripes of §4 Step 2.(a).i: 2 rows (a stripe of len = 2·side
        // nodes has a Hamiltonian cycle, its comb). The paper takes ⌈s/side⌉
        // rows so that its colouring leaves O(s) packets of a class in a
        // stripe; the colouring here ranks inside each stripe
        // ([`Run::colour_deterministic`]), which leaves at most len for any
        // height, and the height only enters the count of a class's packets
        // for one s-tile T, n_T/ℓ + side/2 ≤ 3·(k/ℓ)·N/s′ (as side ≤
        // 4·(k/ℓ)·N/s′ for s′ < 4√(Nk/ℓ)): Lemma 1's bound. Two rows make
        // the ring, and so the balancing (about len/2 steps per class), as
        // short as it can be: at the paper's height len is s′, which the
        // rounding of s′ up to a power of 4 makes up to 4·side.
        let stripe = 2.min(mesh.side());
        let colours = if le { l } else { k };
        let mut run = Run {
            mesh,
            l,
            k,
            rounds,
            s_tiles,
            d_tiles,
            stripe,
            colour: vec![u32::MAX; e.packet_count() as usize],
            by_colour: vec![Vec::new(); colours as usize],
            rank: vec![0; e.packet_count() as usize],
            injected: vec![false; e.packet_count() as usize],
            c: 1,
            totals: vec![0; colours as usize],
            inject_in_place: !det || k == 1,
            buckets: vec![0; colours as usize],
            pending: Vec::new(),
            stages: Vec::new(),
            next: 0,
            current: None,
            current_name: String::new(),
            announced: false,
            colouring: None,
            abortable: !prefix.is_empty(),
            prefix,
            overflow: None,
        };
        if det {
            run.colour_deterministic(e);
        } else {
            run.colour_randomly(e, seed);
        }
        if !le {
            run.stages.push(Stage::Ranks);
        }
        for j in 0..colours {
            if le {
                if det && l > 1 {
                    run.stages.push(Stage::StripeBalance(j));
                }
                run.stages.extend([Stage::Sort(j), Stage::Deal(j)]);
                let t = rounds.count();
                for i in 0..t {
                    run.stages.extend([Stage::Spread(j, i), Stage::Tour(j, i)]);
                    if i + 1 < t {
                        run.stages.push(Stage::Shift(j, i));
                    }
                }
            } else {
                for i in 0..rounds.count() {
                    run.stages.extend([
                        Stage::Inject(j, i),
                        Stage::BalanceRanks(j, i),
                        Stage::Balance(j, i),
                        Stage::Shift(j, i),
                    ]);
                }
                run.stages
                    .extend([Stage::SortDest(j), Stage::SpreadDest(j), Stage::TourDest(j)]);
            }
        }
        run
    }

    /// Schedules the coming step: the colouring, then stage after stage.
    /// Returns false when every stage is over.
    fn advance(&mut self, e: &mut Engine) -> bool {
        let run = self;
        if let Some(colouring) = run.colouring.as_mut() {
            if colouring.task.poll(e) {
                if !run.announced {
                    run.announced = true;
                    e.begin_phase(&format!("{}colouring", run.prefix));
                }
                return true;
            }
            let colouring = run.colouring.take().expect("colouring");
            run.apply_colours(e, colouring);
            run.announced = false;
        }
        loop {
            if let Some(task) = run.current.as_mut() {
                if task.poll(e) {
                    if !run.announced {
                        run.announced = true;
                        if !task.names_phases() {
                            e.begin_phase(&run.current_name);
                        }
                    }
                    return true;
                }
                run.current = None;
            }
            if run.overflow.is_some() {
                return false;
            }
            let Some(&stage) = run.stages.get(run.next) else {
                return false;
            };
            run.next += 1;
            let (name, task) = run.build(stage, e);
            run.current = Some(task);
            run.current_name = name;
            run.announced = false;
        }
    }
}

mod run;
mod teaching;
mod unknown;

/// The SPEC §5 name of the randomized version.
pub const RAND_NAME: &str = "pp-rand";
/// The SPEC §5 name of the deterministic version.
pub const DET_NAME: &str = "pp-det";

/// The registry entry.
pub const RAND: Entry = Entry {
    name: RAND_NAME,
    summary: "Pietracaprina-Pucci randomized (l,k)-routing in O(sqrt(lkN)) steps with constant queues",
    paper: PP,
    section: "§3 (Theorems 2 and 4: ℓ ≤ k and ℓ > k)",
    kinds: &[Kind::Mesh],
    shape: Shape::SquarePowerOfTwo,
    packets: Packets::Any,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::UnknownLk],
    teaching: &RAND_TEACHING,
    factory: |o| Box::new(Pp::randomized(o)),
    state_bytes: None,
    size_check: None,
};

/// The registry entry.
pub const DET: Entry = Entry {
    name: DET_NAME,
    summary: "Pietracaprina-Pucci deterministic (l,k)-routing: pipelined prefix colouring, stripe balancing",
    paper: PP,
    section: "§4 (Theorems 5 and 6: ℓ ≤ k and ℓ > k)",
    kinds: &[Kind::Mesh],
    shape: Shape::SquarePowerOfTwo,
    packets: Packets::Any,
    open_loop: false,
    refused_policies: &[Policy::Random],
    policy_note: "it is deterministic: any other policy gives the same run for every seed",
    not_built: &[],
    options: &[Field::UnknownLk],
    teaching: &DET_TEACHING,
    factory: |o| Box::new(Pp::deterministic(o)),
    state_bytes: None,
    size_check: None,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineConfig;
    use crate::workload::{generate, Workload, WorkloadSpec};

    /// The test oracle: the colouring computed sequentially. ℓ ≤ k: sort
    /// each stripe's packets by (destination s-tile, source, id) and count
    /// inside the stripe; ℓ > k: sort the packets by (destination s′-tile,
    /// position of the source in the blocked order, id) and count inside
    /// each tile. Returns each packet's colour, each colour's list (by
    /// group, then rank) and each packet's rank div the modulus.
    fn sequential_colours(run: &Run, e: &Engine) -> (Vec<u32>, Vec<Vec<u32>>, Vec<u32>) {
        let mesh = run.mesh;
        let le = run.l <= run.k;
        let (dest_tiles, u, modulus) = if le {
            (run.s_tiles, 1, run.l)
        } else {
            (run.d_tiles, run.s_tiles.tile_side(), run.k)
        };
        let order_key = |v: u32| -> u64 {
            let (r, c) = mesh.rc(v);
            let blocks = (mesh.side() / u) as u64;
            let b = (r / u) as u64 * blocks + (c / u) as u64;
            b * (u as u64 * u as u64) + ((r % u) * u + c % u) as u64
        };
        // (group, destination tile, source order, id): the group restarts the count.
        let mut list: Vec<(u32, u32, u64, u32)> = e
            .active()
            .iter()
            .map(|&p| {
                let t = dest_tiles.tile_of(e.destination(p));
                let group = if le { mesh.rc(e.source(p)).0 / run.stripe } else { t };
                (group, t, order_key(e.source(p)), p)
            })
            .collect();
        list.sort_unstable();
        let mut colour = vec![u32::MAX; e.packet_count() as usize];
        let mut index = vec![0; e.packet_count() as usize];
        let mut by_colour = vec![Vec::new(); run.by_colour.len()];
        let mut rank = 0u32;
        for i in 0..list.len() {
            if i > 0 && list[i].0 != list[i - 1].0 {
                rank = 0;
            }
            let (p, j) = (list[i].3, rank % modulus);
            colour[p as usize] = j;
            index[p as usize] = rank / modulus;
            by_colour[j as usize].push(p);
            rank += 1;
        }
        (colour, by_colour, index)
    }

    /// pp-det's colouring, played on an engine with its invariant checks on
    /// (the ranking task itself asserts that every link it uses is free),
    /// gives the sequential colours, in the same lists, for ℓ ≤ k (ranks
    /// inside stripes, tile after tile) and ℓ > k (blocks of one s-tile),
    /// on random and worst-case instances; with one colour (ℓ = 1 ≤ k or
    /// k = 1 < ℓ) nothing is ranked and every packet has colour 0.
    #[test]
    fn the_colours_from_the_messages_are_the_sequential_prefix_ranks() {
        for side in [16u32, 32, 64] {
            let topo: crate::topology::Topology = format!("mesh:{side}x{side}").parse().unwrap();
            for (l, k) in [(1, 16), (2, 8), (4, 4), (16, 16), (16, 1), (8, 2), (4, 1)] {
                for w in [Workload::RandomLk, Workload::WorstLk] {
                    let spec = WorkloadSpec {
                        l: Some(l),
                        k: Some(k),
                        ..WorkloadSpec::new(w, 3)
                    };
                    let inst = generate(&topo, &spec).unwrap();
                    let config = EngineConfig {
                        check_invariants: true,
                        ..Default::default()
                    };
                    let mut e = Engine::new(inst.topology.clone(), &inst.packets, config);
                    let mut pp = Pp::deterministic(&AlgorithmOptions::default());
                    pp.start(&inst, &mut e).unwrap();
                    let what = format!("side {side} l {l} k {k} {w}");
                    if l.min(k) == 1 {
                        let run = pp.run.as_ref().unwrap();
                        assert!(run.colouring.is_none(), "{what}");
                        assert!(e.active().iter().all(|&p| run.colour[p as usize] == 0), "{what}");
                        assert_eq!(run.by_colour[0].len(), e.active().len(), "{what}");
                        continue;
                    }
                    let (want, want_lists, want_index) = sequential_colours(pp.run.as_ref().unwrap(), &e);
                    let mut steps = 0;
                    loop {
                        pp.before_step(&mut e);
                        if pp.run.as_ref().unwrap().colouring.is_none() {
                            break;
                        }
                        e.step();
                        steps += 1;
                    }
                    let run = pp.run.as_ref().unwrap();
                    assert!(steps > 0, "{what}");
                    assert_eq!(e.stats().phases(e.step_count())[0].name, "colouring", "{what}");
                    assert_eq!(run.colour, want, "{what}");
                    assert_eq!(run.by_colour, want_lists, "{what}");
                    if l <= k {
                        // Each class's index in its stripe, below the stripe's length.
                        for &p in &e.active() {
                            assert_eq!(run.rank[p as usize], want_index[p as usize], "{what}");
                            assert!(want_index[p as usize] < run.stripe * side, "{what}");
                        }
                    }
                    assert!(e.stats().max_ctrl_queue <= 4, "{what}");
                }
            }
        }
    }
}
