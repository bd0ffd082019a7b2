//! `bitonic`: Batcher's bitonic sorting network (1968), the sorting network
//! Leighton–Maggs–Ranade–Rao §1.1 name as the background of sorting on
//! fixed-connection networks ((log N)(log N + 1)/2 compare rounds), here on
//! the hypercube, where every comparator joins two neighbours.
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
//! r + 1, so the sort takes exactly R + 1 = D(D + 1)/2 + 1 steps (for
//! D ≥ 1; 0 on hypercube:0). Every step is simulated by the primitives'
//! sort machinery ([`SortTask::on_network`]), the same code that runs the
//! mesh's snake sort. The butterfly and the shuffle-exchange are not built
//! yet and refused by name.

use super::claim::{join, Claim, Formula, Measure, Scope, Strength};
use super::key_sort::KeySort;
use super::papers::LMRR;
use super::teaching::{Classes, PhaseText, Teaching};
use super::{Algorithm, AlgorithmOptions};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::primitives::sort::{Comparators, SortTask};
use crate::topology::{Kind, Network, Topology};
use crate::workload::Instance;
use std::sync::Arc;

/// The SPEC §5 name.
pub const NAME: &str = "bitonic";

/// The report's phase of the sort.
pub const PHASE: &str = "bitonic-sort";

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
    fn name(&self) -> &'static str {
        NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let Topology::Hypercube(cube) = &instance.topology else {
            return Err(Error::unsupported(
                NAME,
                format!("runs on hypercubes only, got {}", instance.topology),
            ));
        };
        let network = Arc::new(CubeNetwork::new(cube.ports()));
        self.sort.start(NAME, PHASE, instance, engine, |engine, items| {
            SortTask::on_network(engine, network, items)
        })
    }

    fn before_step(&mut self, engine: &mut Engine) {
        self.sort.before_step(engine);
    }

    fn uses_policy(&self) -> bool {
        false
    }
}

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "Batcher's bitonic sorting network: compare-exchanges across one dimension per round",
    paper: LMRR,
    section: "§1.1 (Batcher's sorting network, the background)",
    kinds: &[Kind::Hypercube],
    shape: Shape::Any,
    packets: Packets::Sort,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    options: &[],
    teaching: &TEACHING,
    factory: |o| Box::new(Bitonic::new(o)),
};

/// bitonic.
pub const TEACHING: Teaching = Teaching {
    description: "Batcher's bitonic sort (1968), the sorting network the LMRR paper starts from: every node holds \
                  one key, and in each round every node compares its key with its neighbour's across one dimension \
                  of the hypercube; the smaller key goes to the lower label in ascending blocks and to the higher \
                  one in descending blocks. Stage k merges bitonic runs of 2^k keys in k rounds (dimensions k − 1 \
                  down to 0), so D stages take D(D + 1)/2 rounds. The keys of a round cross while the previous \
                  round's packets swap (consecutive rounds use different dimensions), one step a round plus one.",
    phases: &[PhaseText {
        name: PHASE,
        text: "rounds of compare-exchanges, one dimension each: keys cross both ways, then the packets swap if out \
               of order, while the next round's keys cross on the next dimension's links",
    }],
    classes: Classes::Named(&["key"]),
    headline: 0,
    claims: &[Claim {
        name: "the bitonic step count",
        text: join!(
            "exactly (log N)(log N + 1)/2 compare rounds, overlapped: ",
            Formula::BitonicSteps.spelled(),
            " steps on a hypercube"
        ),
        scope: Scope::Hypercube,
        permutation: false,
        instance: None,
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::Exact,
        formula: Formula::BitonicSteps,
    }],
};
