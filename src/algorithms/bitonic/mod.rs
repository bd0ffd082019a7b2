//! `bitonic`: Batcher's bitonic sorting network (1968), the sorting network
//! Leighton–Maggs–Ranade–Rao §1.1 name as the background of sorting on
//! fixed-connection networks ((log N)(log N + 1)/2 compare rounds), on the
//! hypercube (here), the butterfly ([`butterfly`]) and the shuffle-exchange
//! graph ([`shuffle`]): the same rounds everywhere, only their steps differ.
//!
//! On `hypercube:D` (N = 2^D keys, one per node, sorted into label order):
//! stage k = 1..D merges bitonic sequences of 2^k keys; its rounds compare
//! across dimensions k − 1, k − 2, …, 0: node i and i xor 2^j, the smaller
//! key to the lower label where bit k of i is 0 (ascending block) and to the
//! higher label where it is 1 (descending; stage D is all ascending). So
//! R = 1 + 2 + … + D = D(D + 1)/2 rounds.
//!
//! Steps (SPEC §1: a compare-exchange is 2 steps, keys cross then packets
//! swap; round r + 1's keys may cross in the same step as round r's swaps
//! when their links are disjoint). Consecutive rounds always use different
//! dimensions — within a stage j falls by one, and a stage ending on
//! dimension 0 is followed by one starting on dimension k ≥ 1 — hence
//! disjoint links: round r's keys cross in step r and its packets in step
//! r + 1, so the sort takes exactly R + 1 = D(D + 1)/2 + 1 steps. Every
//! step is simulated by the primitives' sort machinery
//! ([`SortTask::on_network`]), the same code that runs the mesh's snake
//! sort. On the butterfly and the shuffle-exchange the
//! comparators are not links, and the packets walk between rounds
//! ([`crate::primitives::sort_walk`]): (D + 1)² − 1 steps on `butterfly:D`
//! (keys end at level D) and ⌊5D²/4⌋ + max(D − 3, 0) + 1 on
//! `shuffle-exchange:D`, each derived in its module. Other networks are
//! refused by name.

pub mod butterfly;
pub mod shuffle;

use super::claim::{join, Claim, Formula, Scope, Strength};
use super::key_sort::KeySort;
use super::papers::LMRR;
use super::teaching::{Classes, PhaseText, Teaching};
use super::{Algorithm, AlgorithmOptions};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::primitives::sort::{Comparators, SortTask};
use crate::primitives::sort_walk::WalkTask;
use crate::primitives::Task;
use crate::topology::{Kind, Network, Topology};
use crate::workload::sort::Order;
use crate::workload::Instance;
use butterfly::ButterflyWalks;
use shuffle::ShuffleWalks;
use std::sync::Arc;

/// The SPEC §5 name.
pub const NAME: &str = "bitonic";

/// The report's phase of the sort.
pub const PHASE: &str = "bitonic-sort";

/// How many of `rounds` are `kind` (the schedules' compare rounds).
fn count<R>(rounds: &[R], kind: impl Fn(&R) -> bool) -> u32 {
    rounds.iter().filter(|r| kind(r)).count() as u32
}

/// The steps of the sort on `hypercube:dim` (module text); 0 at D = 0
/// (one key, no round).
pub fn cube_steps(dim: u32) -> u32 {
    if dim == 0 {
        return 0; // one key, no round
    }
    dim * (dim + 1) / 2 + 1
}

/// Batcher's network on `hypercube:D`: its rounds as (stage k, dimension j).
#[derive(Debug, Clone)]
pub struct CubeNetwork {
    dim: u32,
    rounds: Vec<(u32, u32)>,
}

impl CubeNetwork {
    /// The network for `hypercube:dim`.
    pub fn new(dim: u32) -> CubeNetwork {
        let rounds = (1..=dim).flat_map(|k| (0..k).rev().map(move |j| (k, j))).collect();
        CubeNetwork { dim, rounds }
    }

    /// Its rounds in order, as (stage k, dimension j).
    pub fn stages(&self) -> &[(u32, u32)] {
        &self.rounds
    }
}

impl Comparators for CubeNetwork {
    fn nodes(&self) -> u32 {
        1 << self.dim
    }

    fn rounds(&self) -> u32 {
        self.rounds.len() as u32
    }

    fn round(&self, i: u32, pairs: &mut Vec<(u32, u32)>, ports: &mut Vec<(u32, u32)>) {
        let (k, j) = self.rounds[i as usize];
        for low in (0..self.nodes()).filter(|v| v & (1 << j) == 0) {
            let high = low | (1 << j);
            let ascending = low & (1 << k) == 0;
            pairs.push(if ascending { (low, high) } else { (high, low) });
            // Hypercube port j flips bit j (SPEC §2), both ways.
            ports.push((j, j));
        }
    }
}

/// The sort of `items` on `topo` (a hypercube, a butterfly or a
/// shuffle-exchange graph) as one task.
fn task(engine: &Engine, topo: &Topology, items: &[(u32, u64)]) -> Box<dyn Task> {
    match topo {
        Topology::Butterfly(net) => Box::new(WalkTask::new(engine, Arc::new(ButterflyWalks::new(net)), items)),
        Topology::ShuffleExchange(net) => Box::new(WalkTask::new(engine, Arc::new(ShuffleWalks::new(net)), items)),
        _ => Box::new(SortTask::on_network(
            engine,
            Arc::new(CubeNetwork::new(topo.ports())),
            items,
        )),
    }
}

/// `bitonic`: the sort as a task on the engine.
#[derive(Clone)]
pub struct Bitonic {
    sort: KeySort,
}

impl Bitonic {
    /// A new run.
    pub fn new(_options: &AlgorithmOptions) -> Self {
        Bitonic {
            sort: KeySort::default(),
        }
    }
}

impl Algorithm for Bitonic {
    /// Its compare-exchanges move packets by script (SPEC §1: a swap is an
    /// arrival), keeping node queues, not link queues: `--edge-queues` is
    /// refused (an audit saw full link queues take swaps).
    fn keeps_edge_queues(&self) -> bool {
        false
    }

    fn name(&self) -> &'static str {
        NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let topo = &instance.topology;
        if !matches!(
            topo,
            Topology::Hypercube(_) | Topology::Butterfly(_) | Topology::ShuffleExchange(_)
        ) {
            return Err(Error::unsupported(
                NAME,
                format!("runs on hypercubes, butterflies and shuffle-exchange graphs only, got {topo}"),
            ));
        }
        let steps = match topo {
            Topology::Butterfly(b) => butterfly::steps(b.dim()),
            Topology::ShuffleExchange(g) => shuffle::steps(g.dim()),
            _ => cube_steps(topo.ports()),
        };
        self.sort.start(NAME, PHASE, instance, engine, steps, |engine, items| {
            task(engine, topo, items)
        })
    }

    fn before_step(&mut self, engine: &mut Engine) {
        self.sort.before_step(engine);
    }

    fn uses_policy(&self) -> bool {
        false
    }

    /// On a butterfly the keys end at level D (the last compare climbs to it).
    fn sort_order(&self, topology: &Topology) -> Option<Order> {
        matches!(topology, Topology::Butterfly(_)).then_some(Order::LevelDRow)
    }
}

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "Batcher's bitonic sorting network: compare-exchanges across one bit of the position per round",
    paper: LMRR,
    section: "§1.1 (Batcher's sorting network, the background)",
    kinds: &[Kind::Hypercube, Kind::Butterfly, Kind::ShuffleExchange],
    shape: Shape::Any,
    packets: Packets::Sort,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[],
    teaching: &TEACHING,
    factory: |o| Box::new(Bitonic::new(o)),
    state_bytes: None,
    size_check: None,
};

/// The rounds, the same network on every topology (every claim's opening).
const ROUNDS: &str = "Batcher's network has exactly (log N)(log N + 1)/2 compare rounds; this schedule's exact count \
                      of SPEC §1 steps (derived in docs/algorithms/sorting.md, not a count the paper states): the \
                      rounds";

/// bitonic.
pub const TEACHING: Teaching = Teaching {
    description: "Batcher's bitonic sort (1968), the sorting network the LMRR paper starts from: N = 2^D keys, one \
                  per position, and in each round every key is compared with the key whose position differs in \
                  one bit; the smaller goes to the lower position in ascending blocks and to the higher one in \
                  descending blocks. Stage k merges bitonic runs of 2^k keys in k rounds (bits k − 1 down to 0), so \
                  D stages take D(D + 1)/2 rounds on every network; only their steps differ. Where the two \
                  positions are neighbours (one dimension apart), the keys of a round cross while the previous \
                  round's packets swap: one step a round plus one. On a butterfly two rows meet only through the \
                  next level: both keys climb (towards level D, drawn to the right) to both nodes of the next level, \
                  each packet climbs to the node that must hold it, and the packets walk back between stages; the \
                  keys end at the last level, D (the right-hand column). On a \
                  shuffle-exchange graph (Stone's scheme) the packets rotate along the shuffle links until the bit \
                  compared is the last one, and compare across the exchange link.",
    phases: &[PhaseText {
        name: PHASE,
        text: "rounds of compare-exchanges, one bit of the position each: the keys of the two packets cross (on a \
               butterfly they climb to both nodes of the next level, to the right), then the packets move if out of order while the next \
               round's keys go ahead; on a butterfly and a shuffle-exchange graph the packets also walk between \
               rounds",
    }],
    classes: Classes::Named(&["key"]),
    headline: 0,
    claims: &[
        Claim::on_steps(
            "the bitonic step count",
            join!(
                ROUNDS,
                ", overlapped: ",
                Formula::BitonicSteps.spelled(),
                " steps on a hypercube"
            ),
            Scope::Hypercube,
            Strength::Exact,
            Formula::BitonicSteps,
        ),
        Claim::on_steps(
            "the bitonic step count on a butterfly",
            join!(
                ROUNDS,
                ", each climbing one level, with walks down between stages: ",
                Formula::BitonicButterflySteps.spelled(),
                " steps on a butterfly, the keys ending at level log N"
            ),
            Scope::Butterfly,
            Strength::Exact,
            Formula::BitonicButterflySteps,
        ),
        Claim::on_steps(
            "the bitonic step count on a shuffle-exchange graph",
            join!(
                ROUNDS,
                " across the exchange links, the packets rotating along the shuffle links between them (Stone): ",
                Formula::BitonicShuffleExchangeSteps.spelled(),
                " steps on a shuffle-exchange graph"
            ),
            Scope::ShuffleExchange,
            Strength::Exact,
            Formula::BitonicShuffleExchangeSteps,
        ),
        Claim::on_steps(
            "Batcher on the shuffle-exchange (§1.1)",
            join!(
                "Batcher's network sorts N packets on the N-node shuffle-exchange graph in ",
                Formula::LogNodesSquared.spelled(),
                " steps with queues of size 1 (§1.1, where a compare-exchange is one step); in SPEC §1's steps \
                 (keys cross, then packets swap) the run measures the constant"
            ),
            Scope::ShuffleExchange,
            Strength::Order,
            Formula::LogNodesSquared,
        ),
    ],
};
