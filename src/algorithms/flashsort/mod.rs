//! `flashsort`: Flashsort by routing on the butterfly, Leighton–Maggs–
//! Ranade–Rao §8 (Reif and Valiant's Flashsort with the §2.2 scheduler in
//! place of theirs, so that queues stay constant); the recovered text of
//! §8 is lost, `lmrr-sections-5-10-notes.md` gives its facts, and the
//! decisions below are ours (docs/algorithms/flashsort.md argues them).
//!
//! `butterfly:D`, N = 2^D keys, one per level-0 row; the keys end at level
//! 0 in row order (`level0-row`). The recursion climbs the butterfly:
//! recursion level t works in every subbutterfly B(k, P) (levels k..D, the
//! rows whose top k bits are P, M = 2^(D−k) inputs) at once, in three
//! phases ([`plan::level`]):
//!
//! 1. `candidates t`: each of the 2^h strata of B (h = ⌈m/2⌉, m = D − k)
//!    offers one packet of a node drawn at random — a random sample of
//!    about √M keys — and the candidates are ranked by comparing every
//!    pair: they are broadcast along the high and the low bits, compared
//!    at level D, and the counts summed back down (an all-reduce).
//! 2. `splitters t`: every (K/2^b)-th candidate is a splitter (2^b − 1 of
//!    them, b = h − [`OVERSAMPLE_LOG`], about every fourth); the holders send them down to
//!    level k, so every node there knows them.
//! 3. `intervals t`: splitter-directed routing — a packet's interval is
//!    the number of splitters below its key, and it moves into the
//!    subbutterfly B(k + b, P·interval) of its interval (climbing b levels,
//!    or to its slot), scheduled by the §2.2 scheduler (random ranks,
//!    ghosts, end-of-stream, edge queues of q: `lmrr`'s own).
//!
//! When m ≤ [`LEAF_LEVELS`] (leaves of at most 2^LEAF_LEVELS = 16 inputs) the
//! recursion stops ([`plan::leaf`]): `leaf-sort` ranks every leaf's keys
//! deterministically by all-pairs comparison (a flood up the leaf and the
//! ranks straight back down), `offsets` prefix-sums the leaves' counts down
//! to level 0 and back, and `final-route` takes every packet to its rank's
//! row at level 0 (up the leaf, then down the butterfly: [`updown`]),
//! scheduled as before.
//!
//! Every message of the control phases is a control message on a link
//! ([`relay`]); every packet move is the scheduler's. Nothing is charged by
//! formula. On `hypercube:D` the same runs on the butterfly the hypercube
//! emulates ([`host`]). On a d-dimensional mesh (§10) the
//! recursion runs on subarrays instead ([`array`]): d levels, each an
//! all-gather of the candidates and a routing into the intervals' slabs.
//! The phase driver ([`driver`]) is the same for both.
//!
//! The default is §8's *light loading* ([`columnsort`]): the recursion
//! above sorts N/2 keys at a time, each key sent to an input (on a mesh, a
//! node) of its own (`slots t`, [`plan::level`], [`array_plan::scan`]),
//! four times inside Leighton's Columnsort (with two permutations and one
//! round of odd–even transposition), so that node queues stay constant;
//! `--loading full` runs every key through one recursion, keeping its low
//! row bits (on a mesh, moving along one dimension per level): faster, but
//! keys pile up.
//! Not built (issue #27): the shuffle-exchange (§9). Its embedded
//! butterflies are (`topology::SeButterflies`), and `se_tests.rs` measures
//! the routing inside them; docs/algorithms/flashsort.md says what stops
//! the rest (the split between the butterflies).
//!
//! # Complexity
//! Planning a recursion level is O(N·D) time (the relays' messages); each
//! routing step is the scheduler's O(nodes + edges) of its levels.

mod array;
mod array_plan;
mod butterfly;
mod columnsort;
mod driver;
mod host;
mod plan;
mod relay;
#[cfg(test)]
mod se_tests;
mod updown;

use super::claim::{join, Claim, Formula, Measure, Scope, Strength};
use super::lmrr::DEFAULT_QUEUE_CAP;
use super::papers::LMRR;
use super::teaching::{Classes, PhaseText, Teaching};
use super::{Algorithm, AlgorithmOptions, EdgeQueues, Entry, Mark, Packets, Shape};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::options::{Field, Loading};
use crate::report::{Extra, FlashsortFields};
use crate::topology::{Grid, Kind, Network, Topology};
use crate::workload::Instance;
use array::Array;
use butterfly::Butterfly;
use columnsort::{Columnsort, Space};
use driver::Driver;
use host::Host;

/// The SPEC §5 name.
pub const NAME: &str = "flashsort";

/// The recursion stops at subbutterflies of at most 2^LEAF_LEVELS = 16 inputs.
pub const LEAF_LEVELS: u32 = 4;

/// Oversampling: 2^OVERSAMPLE_LOG = 4 candidates per interval, on average
/// (with LEAF_LEVELS = 4, the fastest of the pairs measured at D = 10, 12,
/// 14: docs/algorithms/flashsort.md).
pub const OVERSAMPLE_LOG: u32 = 2;

/// The lightly loaded sort ([`columnsort`]) draws its strata on
/// ⌈m/2⌉ + LIGHT_STRATA_EXTRA high bits: about half the drawn nodes hold a
/// packet, and the all-pairs grid then ranks about 2^(m/2 + 1) candidates
/// (four times as many as ⌈m/2⌉ strata would give), each level-D node of
/// the grid comparing its row's candidate with about eight others.
pub const LIGHT_STRATA_EXTRA: u32 = 2;

/// The lightly loaded sort's oversampling: 2^3 = 8 candidates per interval
/// on average, so that an interval rarely outgrows its subbutterfly's
/// inputs (twice its mean at load 1/2: P ≈ 0.4 % for 8 candidates, 9 % for
/// 2). Chosen by measurement (docs/algorithms/flashsort.md).
pub const LIGHT_OVERSAMPLE_LOG: u32 = 3;

/// The lightly loaded sort on a mesh draws a key as a candidate with
/// probability min(1, s·M/K): s = 8 candidates per interval, on average,
/// as on the butterfly (`LIGHT_OVERSAMPLE_LOG`), so that at load 1/2 an
/// interval rarely outgrows its slab (measured: docs/algorithms/flashsort.md).
pub const LIGHT_ARRAY_OVERSAMPLE: u32 = 8;

/// The network the recursion runs on, and its state.
#[derive(Clone)]
enum Net {
    /// `butterfly:D`, or `hypercube:D` through its emulated butterfly.
    Butterfly(Butterfly),
    /// A d-dimensional mesh (§10).
    Array(Array),
    /// Light loading: Columnsort of lightly loaded sorts on the butterfly (§8).
    Columnsort(Box<Columnsort>),
}

/// `flashsort`: the recursion's phases, planned one group at a time.
#[derive(Clone)]
pub struct Flashsort {
    seed: u64,
    q: u32,
    loading: Option<Loading>,
    driver: Driver,
    net: Option<Net>,
}

impl Flashsort {
    /// Reads the seed and `queue_cap` (q).
    pub fn new(options: &AlgorithmOptions) -> Self {
        let q = options.queue_cap.unwrap_or(DEFAULT_QUEUE_CAP);
        Flashsort {
            seed: options.seed,
            q,
            loading: options.loading,
            driver: Driver::new(options.seed, q),
            net: None,
        }
    }
}

impl Net {
    /// The butterfly's host or the mesh the sort runs on.
    fn network(&self) -> std::result::Result<&Host, &Grid> {
        match self {
            Net::Butterfly(b) => Ok(&b.host),
            Net::Array(a) => Err(&a.grid),
            Net::Columnsort(c) => match &c.space {
                Space::Butterfly(host) => Ok(host),
                Space::Mesh(grid) => Err(grid),
            },
        }
    }

    /// The butterfly's host (`None` on a mesh).
    fn host(&self) -> Option<&Host> {
        self.network().ok()
    }
}

/// Plans `net`'s next group of phases on `driver`.
fn plan(net: &mut Option<Net>, driver: &mut Driver, engine: &Engine) -> bool {
    match net {
        Some(Net::Butterfly(b)) => b.plan_next(driver, engine),
        Some(Net::Array(a)) => a.plan_next(driver, engine),
        Some(Net::Columnsort(c)) => c.plan_next(driver, engine),
        None => false,
    }
}

impl Algorithm for Flashsort {
    fn name(&self) -> &'static str {
        NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        if !(1..=super::lmrr::MAX_QUEUE_CAP).contains(&self.q) {
            return Err(Error::invalid(
                "queue-cap",
                self.q,
                format!(
                    "flashsort's edge queues hold 1 to {} packets",
                    super::lmrr::MAX_QUEUE_CAP
                ),
            ));
        }
        let topo = &instance.topology;
        let grid = mesh(topo);
        if let Some(why) = grid.and_then(Array::refusal) {
            return Err(Error::unsupported(NAME, why));
        }
        let host = Host::of(topo);
        if host.is_none() && grid.is_none() {
            return Err(Error::unsupported(
                NAME,
                format!("runs on butterflies, hypercubes (by emulation) and meshes only, got {topo}"),
            ));
        }
        let light = self.loading != Some(Loading::Full);
        let keys = instance
            .keys
            .as_ref()
            .ok_or_else(|| Error::unsupported(NAME, "needs a sorting instance (keys)"))?;
        if keys.len() < 2 {
            // hypercube:0 and butterfly:0: no splitter, no routing, no step.
            return Err(Error::unsupported(
                NAME,
                format!("{topo} holds one key: nothing to sort (flashsort needs two keys or more)"),
            ));
        }
        // On a hypercube a climb may pass through a packet's rank's node,
        // on a mesh any routing may: packets are delivered only in the
        // final routing.
        // Columnsort's sorts before its last move packets through their
        // destinations too.
        engine.set_deliver_on_arrival(matches!(topo, Topology::Butterfly(_)) && !light);
        let active = engine.active();
        for &p in &active {
            engine.set_eligible(p, false);
        }
        self.driver = Driver::new(self.seed, self.q);
        self.net = Some(match (host, grid) {
            (Some(host), _) if light => {
                Net::Columnsort(Box::new(Columnsort::new(Space::Butterfly(host), keys.clone())))
            }
            (Some(host), _) => Net::Butterfly(Butterfly::new(host, keys.clone(), active)),
            (None, Some(grid)) if light => {
                Net::Columnsort(Box::new(Columnsort::new(Space::Mesh(grid.clone()), keys.clone())))
            }
            (None, Some(grid)) => Net::Array(Array::new(grid.clone(), keys.clone(), active, 1 << OVERSAMPLE_LOG)),
            (None, None) => unreachable!("refused above"),
        });
        let net = &mut self.net;
        self.driver.begin(engine, |d, e| plan(net, d, e));
        Ok(())
    }

    fn before_step(&mut self, engine: &mut Engine) {
        let (net, driver) = (&mut self.net, &mut self.driver);
        let real = net.as_ref().and_then(Net::host).cloned();
        driver.step(
            engine,
            |d, e| plan(net, d, e),
            |v, port| match &real {
                Some(host) => host.real(v, port),
                None => Some((v, port)),
            },
        );
    }

    fn uses_policy(&self) -> bool {
        false
    }

    fn queue_cap(&self) -> Option<u32> {
        Some(self.q)
    }

    fn marks(&self) -> &'static [Mark] {
        &[Mark::Ghost, Mark::EndOfStream, Mark::EdgeQueue]
    }

    fn edge_queues(&self) -> Option<EdgeQueues> {
        let (nodes, ports) = match self.net.as_ref()?.network() {
            Ok(host) => host.real_links(),
            Err(grid) => (grid.nodes(), 2 * grid.dims().len() as u32),
        };
        Some(self.driver.edge_queues(nodes, ports))
    }

    fn report_extra(&self) -> Extra {
        let leaf = |host: &Host| 1 << LEAF_LEVELS.min(host.dim());
        let line = |grid: &Grid| grid.dims().last().copied().unwrap_or(1);
        let (leaf_inputs, oversampling, loading, sorts) = match &self.net {
            Some(Net::Columnsort(c)) => match &c.space {
                Space::Butterfly(host) => (leaf(host), 1 << LIGHT_OVERSAMPLE_LOG, Some(Loading::Light), c.total()),
                Space::Mesh(grid) => (line(grid), LIGHT_ARRAY_OVERSAMPLE, Some(Loading::Light), c.total()),
            },
            Some(Net::Butterfly(b)) => (leaf(&b.host), 1 << OVERSAMPLE_LOG, Some(Loading::Full), 1),
            Some(Net::Array(a)) => (line(&a.grid), 1 << OVERSAMPLE_LOG, Some(Loading::Full), 1),
            None => (1, 1 << OVERSAMPLE_LOG, None, 1),
        };
        Extra {
            lmrr: Some(self.driver.lmrr_fields()),
            flashsort: Some(FlashsortFields {
                recursion: self.driver.levels.clone(),
                leaf_inputs,
                oversampling,
                loading: loading.map(Loading::name),
                sorts,
            }),
            ..Extra::default()
        }
    }
}

/// The bytes Flashsort's plans hold at their peak on `topo` beyond the
/// generic per-node state of [`crate::memory`] (issue #29: a run too large
/// is refused before it starts, not aborted by a failed allocation).
/// Measured as whole CLI peaks (`/usr/bin/time -f %M`, `sort-random`,
/// docs/algorithms/flashsort.md "Memory"): per level-0 row of a butterfly
/// (a hypercube node) 350–390·D bytes at D = 12–16; per mesh node, light
/// loading, 1.3, 1.4 and 2.1 KB at sides 64, 128 and 256, 1.8–1.9 KB on
/// 16³ and 32³, 3.0 KB on 8⁴ (full loading 0.6–1.4 KB). The bound: 512·D
/// bytes per row, and per mesh node 1 KB per dimension and 8 bytes per
/// node of the longest side (the leveled networks of the routings along
/// it).
pub fn plan_bytes(topo: &Topology) -> u64 {
    let nodes = u64::from(topo.nodes());
    match topo {
        Topology::Butterfly(b) => (512 * u64::from(b.dim())) << b.dim(),
        Topology::Hypercube(h) => 512 * u64::from(h.ports()) * nodes,
        _ => match mesh(topo) {
            Some(grid) => {
                let side = u64::from(grid.dims().iter().copied().max().unwrap_or(1));
                nodes.saturating_mul(1024 * grid.dims().len() as u64 + 8 * side)
            }
            None => 0,
        },
    }
}

/// The grid of a mesh (§10's arrays; not a torus, a ring or a line).
fn mesh(topo: &Topology) -> Option<&Grid> {
    topo.as_grid().filter(|_| topo.kind() == Kind::Mesh)
}

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "Flashsort by routing: random splitters ranked by all-pairs comparison, splitter-directed routing by lmrr's scheduler, recursion on subbutterflies (on a mesh, on subarrays, one dimension per level)",
    paper: LMRR,
    section: "§8 (Flashsort on the butterfly and, by emulation, the hypercube; after Reif and Valiant) and §10 (on d-dimensional arrays)",
    kinds: &[Kind::Butterfly, Kind::Hypercube, Kind::Mesh],
    shape: Shape::GridsMultiDSides2,
    packets: Packets::Sort,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[(
        Kind::ShuffleExchange,
        join!(
            SECTION_9,
            " (docs/algorithms/flashsort.md, \"What stops the rest\"); bitonic sorts there"
        ),
    )],
    options: &[Field::Loading],
    teaching: &TEACHING,
    factory: |o| Box::new(Flashsort::new(o)),
    state_bytes: Some(plan_bytes),
    size_check: None,
};

/// Why §9 is not built, said where it is asked for (a refusal on the
/// shuffle-exchange) and in the teaching text.
const SECTION_9: &str = "the paper's §9 (Flashsort on the shuffle-exchange, through butterflies embedded in \
                         it) is not built: the split of the keys between the butterflies costs more, in order, \
                         than the bitonic sort it should beat";

/// flashsort.
pub const TEACHING: Teaching = Teaching {
    description: join!(
        "Flashsort by routing (Reif and Valiant; Leighton–Maggs–Ranade–Rao §8, §10). On a butterfly \
                  every subbutterfly draws a \
                  random sample of its keys, ranks them by comparing every pair, and keeps every eighth one \
                  as a splitter; each key then moves into the subbutterfly of its interval between two \
                  splitters, to an input of its own, scheduled by lmrr's random ranks with ghosts and edge \
                  queues of q, and the recursion goes on in every subbutterfly until it has at most 16 inputs. \
                  There the keys are ranked by comparing every pair, the leaves' counts are prefix-summed, and \
                  every key is routed to its rank's row. This sort is lightly loaded: it sorts half the keys \
                  at a time on the whole butterfly, so intervals fit their subbutterflies and node queues stay \
                  constant; Leighton's Columnsort puts four such sorts, two permutations (transpose, \
                  untranspose) and one round of odd–even transposition together into a sort of all keys. With \
                  the option loading set to full every key goes through one recursion instead, keeping its low \
                  row bits (every fourth candidate a splitter): a sixth of the steps, but keys pile up on the \
                  inputs. On a d-dimensional mesh the recursion \
                  has d levels: in every subarray \
                  a random sample of about eight keys per interval floods the subarray (every node learns them \
                  all, ranks them and picks M − 1 splitters) and every key moves to a node of its own in the \
                  slab of its interval, routed monotonely in all the subarray's dimensions; on the last level, a \
                  line, every key learns its exact rank in the line. The lines' counts are prefix-summed and \
                  every key is routed to its place. Lightly loaded as on the butterfly: Columnsort around four \
                  sorts of half the keys. With loading full every key goes \
                  through one recursion, moving along one dimension per level (about four keys per interval), \
                  and is routed to its rank's node one dimension after the other: a tenth of the steps, but \
                  keys of one line pile up on one node. Note: ",
        SECTION_9,
        "; bitonic sorts on the shuffle-exchange."
    ),
    phases: &[
        PhaseText {
            name: "candidates",
            text: "on a butterfly, every stratum of the subbutterfly offers one random key; the candidates are \
                   broadcast along the high and the low row bits, compared in pairs at the top level (the right-hand column), and the \
                   counts summed back down: each candidate learns its rank. On a mesh, every key of a subarray \
                   is a candidate with probability 8M / its keys (4M with loading full; on a line, every key), \
                   and the candidates \
                   flood the subarray along its lines: every node learns them all, their ranks and the \
                   splitters",
        },
        PhaseText {
            name: "splitters",
            text: "every eighth ranked candidate is a splitter (every fourth with loading full); the splitters \
                   travel down to the subbutterfly's inputs, so every node there knows them",
        },
        PhaseText {
            name: "slots",
            text: "the lightly loaded sort gives every key an input of its own in its interval's \
                   subbutterfly: each node's counts per interval are scanned up the subbutterfly (a \
                   multi-prefix, one count per link per step) and each key's slot is sent back down; on a mesh \
                   the counts run along every dimension in turn, both ways at once, and each key's slot is a \
                   node of its own in its interval's slab",
        },
        PhaseText {
            name: "intervals",
            text: "splitter-directed routing: each key climbs into the subbutterfly of its interval (on a mesh: \
                   to its slot in its interval's slab, monotonely, an orthant and its opposite in each part — \
                   with loading full along the level's dimension only — or on a line to its rank's place), \
                   moved by lmrr's scheduler (random ranks, smallest first, ghosts, end-of-stream, edge queues \
                   of q)",
        },
        PhaseText {
            name: "leaf-sort",
            text: "in every leaf (at most 16 inputs) each key floods up the leaf; the top level (the right-hand column), knowing them all, \
                   sends each key's rank in the leaf back down",
        },
        PhaseText {
            name: "offsets",
            text: "the leaves' counts are prefix-summed down to level 0 and the offsets carried back up (on a \
                   mesh, the lines' counts along every dimension, both ways at once): each key knows its rank \
                   among all keys",
        },
        PhaseText {
            name: "place",
            text: "one of Columnsort's sorts ends: every key of it climbs its leaf and descends to its rank's \
                   row among the rows it sorts (on a mesh, moves monotonely to its rank's node among the nodes \
                   it sorts), by lmrr's scheduler; the keys stay there for Columnsort's next step",
        },
        PhaseText {
            name: "transpose",
            text: "Columnsort's transpose: the keys, read as two sorted columns of ⌈N/2⌉ and ⌊N/2⌋ positions, \
                   are dealt out position by position — position x to (x mod 2)·⌈N/2⌉ + ⌊x/2⌋, on a butterfly row x \
                   rotated right by one bit — routed by lmrr's scheduler (up the butterfly and back down; on a \
                   mesh monotonely)",
        },
        PhaseText {
            name: "untranspose",
            text: "Columnsort's untranspose: the inverse dealing (on a butterfly, row x to row x rotated left \
                   by one bit)",
        },
        PhaseText {
            name: "compare-exchange",
            text: "Columnsort's last step: after the untranspose every key is at most one position from its \
                   place, so positions 2j + 1 and 2j + 2 (2j and 2j + 1 when ⌈N/2⌉ is odd) send each other their keys (up the butterfly and back \
                   down; on a mesh along the dimensions) and compare them — one round of odd–even transposition; the pairs out of order swap in the \
                   final routing, every other key is delivered where it stands",
        },
        PhaseText {
            name: "final-route",
            text: "the last routing, by lmrr's scheduler: lightly loaded, the two keys of every pair of rows \
                   found out of order swap places (up the butterfly and back down; on a mesh monotonely); \
                   with loading full every key climbs its leaf and descends the butterfly to its rank's row at \
                   level 0, and on a mesh moves to its rank's node, one dimension per phase",
        },
    ],
    classes: Classes::Named(&["key"]),
    headline: 0,
    claims: &[
        Claim {
            name: "Flashsort's running time",
            text: "O(log N) steps with high probability, N = 2^D keys on butterfly:D (§8); the constant is not \
                   stated, the run measures steps / log N",
            scope: Scope::ButterflyOrHypercube,
            permutation: false,
            instance: None,
            separated: false,
            policy: None,
            measure: Measure::Steps,
            strength: Strength::Order,
            formula: Formula::LogInputs,
        },
        Claim {
            name: "§10 arrays",
            text: join!(
                "on a d-dimensional array whose largest side is M, one key per node is sorted in O(",
                Formula::DimsTimesSide.spelled(),
                ") steps with high probability (§10): d levels of the recursion, each an all-gather of the \
                 candidates and a routing into the intervals' slabs (lightly loaded: four sorts of half the \
                 keys inside Columnsort); the constant is not stated, the run measures steps / (",
                Formula::DimsTimesSide.spelled(),
                ")"
            ),
            scope: Scope::MeshMultiD,
            permutation: false,
            instance: None,
            separated: false,
            policy: None,
            measure: Measure::Steps,
            strength: Strength::Order,
            formula: Formula::DimsTimesSide,
        },
        Claim {
            name: "node queues stay constant",
            text: "with light loading (the default), a butterfly node holds at most 4q + λ packets: it hosts a \
                   climbing and a descending node of each routing's leveled network, each with two in-edges of \
                   at most q packets, and λ packets starting or resting on it, λ the most keys any routing \
                   brought to one input — 1 when every interval fits its subbutterfly, which light loading \
                   makes likely. §8 states constant queues with no constant: 4q + λ is this implementation's \
                   bound, derived from its construction and checked here",
            scope: Scope::Butterfly,
            permutation: false,
            instance: None,
            separated: false,
            policy: None,
            measure: Measure::MaxQueue,
            strength: Strength::AtMost,
            formula: Formula::FlashsortNodeQueue,
        },
        Claim {
            name: "node queues stay constant (arrays)",
            text: "with light loading (the default), a node of a d-dimensional mesh holds at most \
                   2d·q + 2λ + 1 packets: each routing is monotone and routes an orthant with its opposite, two \
                   copies of at most d in-edges of q packets each; λ keys start and λ end a routing on the node, λ \
                   the most keys any routing brought to one node — 1 when every interval fits its slab; and one key \
                   of the other column rests there while a column is sorted. §10 (lightly loaded) states \
                   constant queues with no constant: 2d·q + 2λ + 1 is this implementation's bound, derived from \
                   its construction and checked here",
            scope: Scope::MeshMultiD,
            permutation: false,
            instance: None,
            separated: false,
            policy: None,
            measure: Measure::MaxQueue,
            strength: Strength::AtMost,
            formula: Formula::FlashsortArrayQueue,
        },
        Claim {
            name: "edge queues ≤ q",
            text: "the scheduler sends a packet on an edge only when that edge's queue holds fewer than q, in \
                   every routing of the recursion (§2.2)",
            scope: Scope::Any,
            permutation: false,
            instance: None,
            separated: false,
            policy: None,
            measure: Measure::MaxEdgeQueue,
            strength: Strength::AtMost,
            formula: Formula::EdgeQueueCap,
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_teaching_text_says_the_constants() {
        let text = TEACHING.description;
        assert!(text.contains(&format!("at most {} inputs", 1 << LEAF_LEVELS)), "{text}");
        let word = |log: u32| ["", "second", "fourth", "eighth"][log as usize];
        // The light loading's oversampling (the default), then the full's.
        assert!(
            text.contains(&format!("every {} one", word(LIGHT_OVERSAMPLE_LOG))),
            "{text}"
        );
        assert!(
            text.contains(&format!("every {} candidate", word(OVERSAMPLE_LOG))),
            "{text}"
        );
    }
}
