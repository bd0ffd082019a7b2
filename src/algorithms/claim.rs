//! The claim language: what a paper's claim about an algorithm says, as
//! data — where it holds ([`Scope`]), what it bounds ([`Measure`]), how
//! ([`Strength`]) and the bound itself ([`Formula`]). A family's module
//! writes its claims in this language; [`crate::claims`] evaluates the
//! formulas on an instance and [`crate::explain`] judges a run against them.

use crate::engine::Policy;
use crate::topology::{Kind, Shape};
use crate::workload::Workload;
use serde::Serialize;

mod ks;
mod lines;
pub use ks::{KsLemma, KsTheorem};
pub use lines::LineLemma;
mod phases;
pub use phases::{names_single_phases, phases_named};

/// Where a claim holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Every network the algorithm runs on.
    Any,
    /// A linear array (`linear:N`).
    LinearArray,
    /// A ring (`ring:N`).
    Ring,
    /// A square 2-D mesh (`mesh:SxS`).
    SquareMesh,
    /// A 2-D mesh (`mesh:RxC`).
    Mesh2d,
    /// A hypercube.
    Hypercube,
    /// A square 2-D torus (`torus:SxS`).
    SquareTorus,
    /// A mesh of 3 or more dimensions, every side equal (`mesh:SxSxS`).
    CubeMesh,
    /// A torus of 3 or more dimensions, every side equal.
    CubeTorus,
    /// A 2-D torus (`torus:RxC`).
    Torus2d,
    /// A mesh that `lmrr` routes on Leighton–Maggs–Ranade–Rao §6's
    /// plateaus: 3 or more dimensions, or 2 with Valiant paths (the judge
    /// checks the paths).
    MeshPlateaus,
    /// A shuffle-exchange graph (`shuffle-exchange:D`).
    ShuffleExchange,
    /// A butterfly (`butterfly:D`), any workload.
    Butterfly,
    /// A butterfly, or a hypercube (an algorithm that runs on the butterfly
    /// a hypercube emulates).
    ButterflyOrHypercube,
    /// A mesh of 2 or more dimensions, any sides.
    MeshMultiD,
    /// A torus of 2 or more dimensions, any sides (a formula may ask for
    /// equal sides: WrapRoute(d)'s Lemma 25).
    TorusMultiD,
    /// A permutation from a butterfly's inputs (level 0) to its outputs
    /// (level D), drawn at random (the `random-permutation` workload), on
    /// direct paths (Leighton–Maggs–Ranade–Rao Theorem 4.2).
    ButterflyRandomInputsToOutputs,
}

impl Scope {
    /// The networks the scope names, as kinds and a [`Shape`]; `None` for
    /// [`Scope::Any`]. A butterfly scope's other conditions (its workload
    /// and paths) are the judge's.
    pub const fn network(self) -> Option<(&'static [Kind], Shape)> {
        Some(match self {
            Scope::Any => return None,
            Scope::LinearArray => (&[Kind::Linear], Shape::Any),
            Scope::Ring => (&[Kind::Ring], Shape::Any),
            Scope::SquareMesh => (&[Kind::Mesh], Shape::Square),
            Scope::Mesh2d => (&[Kind::Mesh], Shape::TwoD),
            Scope::Hypercube => (&[Kind::Hypercube], Shape::Any),
            Scope::SquareTorus => (&[Kind::Torus], Shape::Square),
            Scope::CubeMesh => (&[Kind::Mesh], Shape::Cube),
            Scope::CubeTorus => (&[Kind::Torus], Shape::Cube),
            Scope::Torus2d => (&[Kind::Torus], Shape::TwoD),
            Scope::MeshPlateaus => (&[Kind::Mesh], Shape::MultiD),
            Scope::ShuffleExchange => (&[Kind::ShuffleExchange], Shape::Any),
            Scope::Butterfly => (&[Kind::Butterfly], Shape::Any),
            Scope::ButterflyRandomInputsToOutputs => (&[Kind::Butterfly], Shape::Any),
            Scope::ButterflyOrHypercube => (&[Kind::Butterfly, Kind::Hypercube], Shape::Any),
            Scope::MeshMultiD => (&[Kind::Mesh], Shape::MultiD),
            Scope::TorusMultiD => (&[Kind::Torus], Shape::MultiD),
        })
    }
}

/// The quantity a claim bounds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Measure {
    /// The running time (SPEC §1 `steps`).
    Steps,
    /// The largest working queue (`max_queue`).
    MaxQueue,
    /// The steps after the named phase (e.g. after sort-route's sort).
    StepsAfter(&'static str),
    /// The most packets in one of the algorithm's own edge queues (`lmrr`'s
    /// report field `max_edge_queue`).
    MaxEdgeQueue,
    /// The most packets one node held when a phase opened (the report
    /// field `max_barrier_load` of a smeared Kaufmann–Sibeyn run, §7.5).
    MaxBarrierLoad,
    /// The most steps a packet waited: its delivery step minus its distance
    /// (Kaufmann–Sibeyn's delays, Corollary 3), over the packets delivered.
    MaxDelay,
    /// Every packet's delay: its delivery step minus its distance (the
    /// steps it waited), judged packet by packet as each arrives
    /// ([`crate::simulation::Simulation::packet_delays`]).
    PacketDelay,
    /// The steps of each report phase the patterns name (a per-phase
    /// lemma, Kaufmann–Sibeyn §7–§9): the claim speaks of every such phase
    /// on its own, and the measured value is the most steps of one of them
    /// (the judge names which). A pattern is a phase name as the report
    /// prints it, with three rules ([`phases_named`]):
    /// - `*` stands for a number, one or more digits: `pass*-randomize` is
    ///   every pass's step a (`pass1-randomize`, `pass2-randomize`, …),
    ///   `phase*-route` every routing phase;
    /// - a leading `^` names only the first phase of the report the rest
    ///   matches: `^phase*-route` is NoWrapRoute(d)'s phase d, its first
    ///   routing phase;
    /// - a leading `!` leaves out the phases the rest matches (before or
    ///   with `^`): `["pass*-randomize", "!^pass*-randomize"]` is every
    ///   pass's step a but the first pass's.
    ///
    /// A phase is named when a pattern without `!` matches it and none with
    /// `!` does. A run with no such phase (e.g. coalesced phases) is not
    /// judged by the claim.
    PhaseSteps(&'static [&'static str]),
    /// The most packets that crossed one directed link during one of the
    /// phases the patterns name ([`Measure::PhaseSteps`]'s rules), from the
    /// report field `phase_link_load` (Lemma 27: LocalRoute's phase 2).
    PhaseLinkLoad(&'static [&'static str]),
}

impl Measure {
    /// The phase patterns of a per-phase measure; `None` for the others.
    pub const fn phase_patterns(self) -> Option<&'static [&'static str]> {
        match self {
            Measure::PhaseSteps(patterns) | Measure::PhaseLinkLoad(patterns) => Some(patterns),
            _ => None,
        }
    }
}

/// How a claim bounds its measure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strength {
    /// Exactly the formula.
    Exact,
    /// At most the formula, always.
    AtMost,
    /// At most the formula, with high probability.
    AtMostWhp,
    /// O(formula): the constant is not stated; the run measures it.
    Order,
    /// Ω(formula) on some instances (a lower bound for a class of algorithms).
    Omega,
    /// The formula plus an O(·) term of the kind O(√(k·n·log n)), with very
    /// high probability: Kaufmann–Sibeyn's theorems ([`Formula::Ks`]). Each
    /// theorem has its own unit ([`crate::claims::Bound::unit`]):
    /// √(k·n·ln n) (d·√(k·n·ln n) in d dimensions), F·√(n·ln n) for worms,
    /// (k/2 + 1)·√(n·ln n) and k·√(n·ln n) for LevelRoute, √(k·L·ln n) and
    /// √((n + k·L)·ln n) for the locality theorems. The run measures the
    /// additive term's constant in that unit.
    PlusSqrtKnLogN,
    /// The formula plus a lower-order term, o(formula).
    PlusLowerOrder,
    /// The formula plus O(1), with very high probability: the run measures
    /// the constant (the measure minus the formula).
    PlusConstant,
}

impl Strength {
    /// Whether the claim is asymptotic (O(), Ω(), o(), a main term plus an
    /// O() term): a run measures its constant and never meets or misses it.
    pub const fn asymptotic(self) -> bool {
        !matches!(self, Strength::Exact | Strength::AtMost | Strength::AtMostWhp)
    }
}

/// A bound as a formula of the instance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Formula {
    /// Kaufmann–Sibeyn Lemma 2 on a linear array: max over i < j of
    /// (j − i + h(i, j)), both directions ([`crate::claims::lemma2`]).
    Lemma2,
    /// The 2-D mesh's diameter R + C − 2 (2n − 2 on n × n).
    MeshDiameter,
    /// Three line permutations: 2R + C − 3 (3n − 3 on n × n).
    ThreeLines,
    /// 8D on a D-dimensional hypercube.
    EightD,
    /// 2n on an n × n mesh.
    TwoSide,
    /// √(ℓ·k·N).
    SqrtLkn,
    /// √(N/D) on a hypercube.
    SqrtNOverD,
    /// √(N/3) on a shuffle-exchange graph (3 links out of each node).
    SqrtNOverThree,
    /// log₂ n on an n × n mesh.
    LogSide,
    /// 2⌊(R − 2)/3⌋ + 1: greedy's queue on `greedy-worst` (R × C mesh,
    /// with t = min(⌊(R−2)/3⌋, ⌊(C−1)/2⌋)).
    GreedyWorstQueue,
    /// A constant.
    Constant(u32),
    /// k: the most packets a node sends or receives (Kaufmann–Sibeyn's k).
    PacketsPerNode,
    /// [`crate::algorithms::pp::QUEUE_BOUND`].
    QueueBound,
    /// c + L + log N of Leighton–Maggs–Ranade–Rao's Theorem 2.9: c the
    /// congestion of the paths on the leveled network, L the network's
    /// depth (levels − 1), N the number of packets. They depend on the
    /// network and paths the algorithm chose, so the values are the run's
    /// (the report fields `leveled_congestion`, `levels`, `log_n`); not
    /// defined for an algorithm that reports none.
    CongestionDilationLogN,
    /// q, the capacity of the algorithm's own edge queues (the report field
    /// `edge_queue_cap`); not defined without such queues.
    EdgeQueueCap,
    /// log₂ n on an n-input butterfly (`butterfly:D`: log n = D).
    LogInputs,
    /// 4q + λ: a butterfly node's load under `flashsort`'s lightly loaded
    /// sort — two logical nodes (climbing and descending) of two in-edges
    /// each, q packets per edge queue, and λ packets resting or starting,
    /// λ the run's largest `input_load` (1 when every interval fits its
    /// subbutterfly). Not defined with `--loading full`.
    FlashsortNodeQueue,
    /// 2d·q + 2λ + 1: a mesh node's load under `flashsort`'s lightly
    /// loaded sort on a d-dimensional mesh — each monotone routing's two
    /// copies give it at most 2d in-edges of q packets, λ keys start and λ
    /// end a routing on it (λ the run's largest `input_load`), and one key
    /// of the other column rests on it. Not defined with `--loading full`.
    FlashsortArrayQueue,
    /// d·M on a d-dimensional mesh whose largest side is M
    /// (Leighton–Maggs–Ranade–Rao §6).
    DimsTimesSide,
    /// log₂ N, N the number of nodes (D on `shuffle-exchange:D`).
    LogNodes,
    /// log² N, N the number of nodes (D² on `shuffle-exchange:D`).
    LogNodesSquared,
    /// 7n on an n × n mesh (the snake sort's steps, at most).
    SevenSide,
    /// n, the side of an n × n mesh.
    Side,
    /// Batcher's bitonic sort on `hypercube:D` (log N = D): D(D + 1)/2
    /// compare rounds, overlapped (SPEC §1), take D(D + 1)/2 + 1 steps.
    BitonicSteps,
    /// The same network on `butterfly:D` (N = 2^D inputs, log N = D),
    /// packets climbing through the levels: (D + 1)² − 1 steps
    /// (`algorithms::bitonic::butterfly`).
    BitonicButterflySteps,
    /// The same network on `shuffle-exchange:D` by Stone's scheme:
    /// ⌊5D²/4⌋ + max(D − 3, 0) + 1 steps (`algorithms::bitonic::shuffle`).
    BitonicShuffleExchangeSteps,
    /// Pietracaprina–Pucci §3 with ℓ and k unknown to the nodes: the sum
    /// of the allowances c·√(ℓ·k_i·N) of the guesses k_i = 1, 2, 4, … up
    /// to the first k_i ≥ k (ℓ and k measured: what the nodes learn and
    /// what the guesses must reach), c = [`crate::algorithms::pp::ALLOWANCE_C`].
    UnknownLkAllowance,
    /// The main term of one of Kaufmann–Sibeyn's k-k routing theorems, with
    /// n the side, d the dimension and k the most packets a node sends or
    /// receives (ε the run's strip height, L its locality).
    Ks(KsTheorem),
    /// One of Kaufmann–Sibeyn §5's one-dimensional lemmas (linear array, ring).
    Line(LineLemma),
    /// The permutation-routing lecture's buffer lemma: greedy XY routing
    /// of a permutation of the n × n mesh needs β = max(2, 2n/3 − 1).
    GreedyBuffer,
    /// Its corollary for the d-dimensional mesh of side n (d ≥ 3; the
    /// lecture's k-ary n-dimensional mesh M(k, …, k)).
    GreedyBufferCube,
    /// Per packet, |S|: the other packets whose routes share a directed
    /// link with its route (the hypercube lecture's theorem, bit fixing);
    /// spelled and evaluated per packet by the judge.
    RoutesMet,
    /// The main term of one of Kaufmann–Sibeyn's per-phase lemmas (§7–§9),
    /// a bound on one phase ([`Measure::PhaseSteps`]) or on one phase's
    /// link load.
    KsLemma(KsLemma),
}

impl Formula {
    /// The formula's one spelling, where it has one; `None` where
    /// [`crate::claims`] spells it per instance (Lemma 2, the mesh's
    /// diameter and three lines, greedy's worst queue: n × n or R × C) or
    /// it is a number.
    pub const fn text(self) -> Option<&'static str> {
        Some(match self {
            Formula::EightD => "8D",
            Formula::TwoSide => "2n",
            Formula::SqrtLkn => SQRT_LKN,
            Formula::SqrtNOverD => "√(N/D)",
            Formula::SqrtNOverThree => "√(N/3)",
            Formula::LogSide => "log₂ n",
            Formula::PacketsPerNode => "k",
            // B: pp's stated queue bound (QUEUE_BOUND in the code).
            Formula::QueueBound => "B",
            Formula::CongestionDilationLogN => "c + L + log N",
            Formula::EdgeQueueCap => "q",
            Formula::LogInputs => "log n",
            Formula::FlashsortNodeQueue => "4q + λ",
            Formula::FlashsortArrayQueue => "2d·q + 2λ + 1",
            Formula::DimsTimesSide => "d·M",
            Formula::LogNodes => "log₂ N",
            Formula::LogNodesSquared => "log² N",
            Formula::SevenSide => "7n",
            Formula::Side => "n",
            Formula::BitonicSteps => "(log N)(log N + 1)/2 + 1",
            Formula::BitonicButterflySteps => "(log N + 1)² − 1",
            Formula::BitonicShuffleExchangeSteps => "⌊5(log N)²/4⌋ + max(log N − 3, 0) + 1",
            Formula::UnknownLkAllowance => "Σᵢ 24·√(ℓ·kᵢ·N) over kᵢ = 1, 2, 4, … up to the first kᵢ ≥ k",
            Formula::Ks(theorem) => theorem.text(),
            Formula::Line(lemma) => lemma.text(),
            Formula::GreedyBuffer => "max(2, 2n/3 − 1)",
            Formula::GreedyBufferCube => "max(2d − 2, n − 2 − (n − 3)/(2d − 1))",
            Formula::KsLemma(lemma) => lemma.text(),
            Formula::Lemma2
            | Formula::RoutesMet
            | Formula::MeshDiameter
            | Formula::ThreeLines
            | Formula::GreedyWorstQueue
            | Formula::Constant(_) => return None,
        })
    }

    /// Whether the formula is about cut-through worms (`--flits F`, F > 1).
    pub const fn cut_through(self) -> bool {
        match self {
            Formula::Ks(theorem) => theorem.cut_through(),
            Formula::Line(lemma) => lemma.cut_through(),
            _ => false,
        }
    }

    /// [`Formula::text`] for a formula that has one, in a constant
    /// ([`join!`]); a formula without one does not compile there.
    pub const fn spelled(self) -> &'static str {
        match self.text() {
            Some(text) => text,
            None => panic!("this formula is spelled per instance"),
        }
    }
}

/// √(ℓ·k·N), the (ℓ,k)-routing lower bound's quantity: [`Formula::SqrtLkn`]'s
/// text and the unit the page, the bound counter and the experiment measure
/// steps in. A notation, like n or k, written plainly wherever it is used.
pub const SQRT_LKN: &str = "√(ℓkN)";

/// Joins `&'static str` constants into one at compile time, so a text can
/// name a formula by its [`KsTheorem::text`] or [`Formula::text`] instead
/// of spelling it again: `join!("in ", KsTheorem::Theorem7.text(), " steps")`.
macro_rules! join {
    ($($part:expr),+ $(,)?) => {{
        const PARTS: &[&str] = &[$($part),+];
        const BYTES: [u8; $crate::algorithms::claim::joined_len(PARTS)] =
            $crate::algorithms::claim::join_bytes(PARTS);
        const JOINED: &str = match ::core::str::from_utf8(&BYTES) {
            Ok(s) => s,
            Err(_) => panic!("joined text is not UTF-8"),
        };
        JOINED
    }};
}
pub(crate) use join;

/// The length of `parts` joined ([`join!`]).
pub const fn joined_len(parts: &[&str]) -> usize {
    let mut len = 0;
    let mut i = 0;
    while i < parts.len() {
        len += parts[i].len();
        i += 1;
    }
    len
}

/// The bytes of `parts` joined ([`join!`]); `N` is [`joined_len`].
pub const fn join_bytes<const N: usize>(parts: &[&str]) -> [u8; N] {
    let mut out = [0u8; N];
    let mut at = 0;
    let mut i = 0;
    while i < parts.len() {
        let bytes = parts[i].as_bytes();
        let mut j = 0;
        while j < bytes.len() {
            out[at] = bytes[j];
            at += 1;
            j += 1;
        }
        i += 1;
    }
    out
}

/// One claim of a paper about an algorithm.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Claim {
    /// A short name for it ("Lemma 2", "the 2n − 2 bound").
    pub name: &'static str,
    /// The claim in words, as the paper states it.
    pub text: &'static str,
    /// The networks it is stated for.
    pub scope: Scope,
    /// Stated for (partial) permutations only.
    pub permutation: bool,
    /// Stated for one instance only (bit fixing's worst case is the
    /// transpose; greedy's worst queue is `greedy-worst`'s): on any other
    /// workload the claim does not apply.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "workload_name")]
    pub instance: Option<Workload>,
    /// Stated for the paper's algorithm with its phases separated by
    /// barriers: it does not apply to a pipelined run (`--pipeline`),
    /// whose phases overlap.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub separated: bool,
    /// Stated for this contention policy only.
    #[serde(skip_serializing_if = "Option::is_none", serialize_with = "policy_name")]
    pub policy: Option<Policy>,
    /// What it bounds.
    pub measure: Measure,
    /// How.
    pub strength: Strength,
    /// The bound.
    pub formula: Formula,
}

impl Claim {
    /// A claim about the number of steps stated for every workload and
    /// policy on `scope`, without barriers or a single instance.
    pub const fn on_steps(
        name: &'static str,
        text: &'static str,
        scope: Scope,
        strength: Strength,
        formula: Formula,
    ) -> Claim {
        Claim {
            name,
            text,
            scope,
            permutation: false,
            instance: None,
            separated: false,
            policy: None,
            measure: Measure::Steps,
            strength,
            formula,
        }
    }
}

fn policy_name<S: serde::Serializer>(policy: &Option<Policy>, s: S) -> Result<S::Ok, S::Error> {
    match policy {
        Some(p) => s.serialize_str(p.name()),
        None => s.serialize_none(),
    }
}

fn workload_name<S: serde::Serializer>(w: &Option<Workload>, s: S) -> Result<S::Ok, S::Error> {
    match w {
        Some(w) => s.serialize_str(w.name()),
        None => s.serialize_none(),
    }
}

/// A Kaufmann–Sibeyn theorem as a claim on `steps`.
pub const fn ks_claim(
    name: &'static str,
    text: &'static str,
    scope: Scope,
    policy: Option<Policy>,
    theorem: KsTheorem,
) -> Claim {
    Claim {
        name,
        text,
        scope,
        // The cut-through results are for permutations of worms.
        permutation: theorem.cut_through(),
        instance: None,
        separated: false,
        policy,
        measure: Measure::Steps,
        strength: Strength::PlusSqrtKnLogN,
        formula: Formula::Ks(theorem),
    }
}

/// A Kaufmann–Sibeyn per-phase lemma as a claim on `measure` (the steps of
/// the phases it names, or their link loads), for separated phases: the
/// main term `lemma` plus O(√(k·n·log n)) (§9: O(√(k·L·log n))), with very
/// high probability.
pub const fn ks_lemma_claim(
    name: &'static str,
    text: &'static str,
    scope: Scope,
    policy: Option<Policy>,
    measure: Measure,
    lemma: KsLemma,
) -> Claim {
    Claim {
        separated: true,
        policy,
        measure,
        ..Claim::on_steps(name, text, scope, Strength::PlusSqrtKnLogN, Formula::KsLemma(lemma))
    }
}
