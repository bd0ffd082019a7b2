//! The teaching text of NoWrapRoute (`ks-nowrap`) and WrapRoute (`ks-wrap`),
//! and the phase texts LevelRoute and LocalRoute share (see
//! [`crate::algorithms::teaching`]).

use crate::algorithms::claim::{
    join, ks_claim, ks_lemma_claim, Claim, Formula, KsLemma, KsTheorem, Measure, Scope, Strength,
};
use crate::algorithms::teaching::{Classes, PhaseText, Teaching};
use crate::engine::Policy;
use crate::palette::word;

/// The text of the Kaufmann–Sibeyn family's first routing phase, with
/// `$how_far` (LocalRoute says how far) before its last clause.
macro_rules! ks_first_route {
    ($how_far:literal) => {
        concat!(
            "every packet moves along one axis to its destination's coordinate",
            $how_far,
            "; the colours use different axes at once"
        )
    };
}
pub(crate) use ks_first_route;

/// What the phases of the Kaufmann–Sibeyn algorithms do, by report name
/// (`phase<i>-randomize` / `phase<i>-route`; `coalesced` when coalesced).
/// LocalRoute's list (`levels.rs`) shares every text it does not change.
const KS_PHASES: &[PhaseText] = &[
    PhaseText {
        name: "phase1-randomize",
        text: "every packet moves along one axis (its colour's first) to a uniformly random position, \
               so the packets that want the same line are spread out",
    },
    PhaseText {
        name: "phase2-randomize",
        text: KS_NEXT_RANDOMIZE,
    },
    PhaseText {
        name: "phase3-randomize",
        text: KS_NEXT_RANDOMIZE,
    },
    PhaseText {
        name: "phase2-route",
        text: ks_first_route!(""),
    },
    PhaseText {
        name: "phase1-route",
        text: ks_first_route!(" (no randomizing phases: option no-randomize)"),
    },
    KS_NEXT_ROUTES[0],
    KS_NEXT_ROUTES[1],
    KS_NEXT_ROUTES[2],
    PhaseText {
        name: "phase6-route",
        text: "every packet moves along its last axis to its destination",
    },
    KS_COALESCED,
    KS_SMEAR[0],
    KS_SMEAR[1],
    KS_SMEAR[2],
    KS_SMEAR[3],
    KS_SMEAR[4],
];

/// The smears between phases (option smear, §7.5): `smear<i>` comes
/// after the i-th phase of the report and before the next.
const KS_SMEAR: [PhaseText; 5] = {
    const TEXT: &str = "queue smearing (§7.5): before the next phase, the packets of every m adjacent nodes along \
                        that phase's axis are spread evenly over those m nodes, so that no node opens the phase \
                        holding many more than k";
    [
        PhaseText {
            name: "smear1",
            text: TEXT,
        },
        PhaseText {
            name: "smear2",
            text: TEXT,
        },
        PhaseText {
            name: "smear3",
            text: TEXT,
        },
        PhaseText {
            name: "smear4",
            text: TEXT,
        },
        PhaseText {
            name: "smear5",
            text: TEXT,
        },
    ]
};

const KS_NEXT_RANDOMIZE: &str = "every packet moves along its colour's next axis to a uniformly random position";

/// The routing phases after the first but the sixth.
pub(in crate::algorithms) const KS_NEXT_ROUTES: [PhaseText; 3] = {
    const TEXT: &str = "every packet moves along its next axis to its destination's coordinate";
    [
        PhaseText {
            name: "phase3-route",
            text: TEXT,
        },
        PhaseText {
            name: "phase4-route",
            text: TEXT,
        },
        PhaseText {
            name: "phase5-route",
            text: TEXT,
        },
    ]
};

/// The family's single phase when coalesced (`--phases coalesced`).
pub(in crate::algorithms) const KS_COALESCED: PhaseText = PhaseText {
    name: "coalesced",
    text: "phases coalesced: a packet starts its next phase as soon as it finishes one; on a link a packet \
           in an earlier phase goes first",
};

/// ks-nowrap.
pub const NOWRAP_TEACHING: Teaching = Teaching {
    description: join!(
        "Every packet gets a random colour, one per axis (",
        word(0),
        " and ",
        word(1),
        " on a 2-D mesh). A ",
        word(0),
        " packet first moves inside its column to a random row, then along that row to its destination \
         column, then along the column to its destination; a ",
        word(1),
        " packet does the same 90° out of phase, so while ",
        word(0),
        " packets move vertically ",
        word(1),
        " ones move horizontally and both halves of the links are busy. Randomizing first spreads k packets \
         per node evenly, so the routing phases meet the bisection bound kn/2 up to lower-order terms."
    ),
    phases: KS_PHASES,
    classes: Classes::Colours,
    headline: 0,
    claims: &[
        ks_claim(
            "Theorem 2",
            join!(
                "NoWrapRoute routes k-permutations on the n×n mesh in ",
                KsTheorem::Theorem2.text(),
                " + O(√(kn log n)) \
             steps, with very high probability (farthest-first)"
            ),
            Scope::SquareMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem2,
        ),
        ks_claim(
            "Theorem 3",
            join!(
                "with any contention strategy, NoWrapRoute routes k-permutations on the n×n mesh in \
             ",
                KsTheorem::Theorem3.text(),
                " + O(√(kn log n)) steps, with very high probability"
            ),
            Scope::SquareMesh,
            None,
            KsTheorem::Theorem3,
        ),
        ks_claim(
            "Theorem 4",
            join!(
                "NoWrapRoute(d) routes k-permutations on the d-dimensional mesh in ",
                KsTheorem::Theorem4.text(),
                " + \
             O(d·√(kn log n)) steps, with very high probability (farthest-first)"
            ),
            Scope::CubeMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem4,
        ),
        ks_claim(
            "Corollary 5",
            join!(
                "NoWrapRoute routes a permutation of worms of F flits (cut-through) on the n×n mesh in \
             ",
                KsTheorem::Corollary5.text(),
                " + O(F·√(n log n)) steps, with very high probability (any strategy)"
            ),
            Scope::SquareMesh,
            None,
            KsTheorem::Corollary5,
        ),
        ks_claim(
            "Theorem 5",
            join!(
                "NoWrapRoute(d) routes a permutation of worms of F flits on the d-dimensional mesh in \
             ",
                KsTheorem::Theorem5.text(),
                " + O(d·F·√(n log n)) steps, with very high probability"
            ),
            Scope::CubeMesh,
            None,
            KsTheorem::Theorem5,
        ),
        ks_claim(
            "§8 on the torus",
            join!(
                "used directly on the n×n torus (mesh with wrap-around connections), NoWrapRoute routes \
             k-permutations in ",
                KsTheorem::NoWrapOnTorus.text(),
                " + O(√(kn log n)) steps (§8's opening remark; WrapRoute's kn/4 is the better bound there)"
            ),
            Scope::SquareTorus,
            Some(Policy::FarthestFirst),
            KsTheorem::NoWrapOnTorus,
        ),
        KS_SMEAR_CLAIM,
        ks_claim(
            "§7.4 without randomizing",
            join!(
                "on the average, for random k-permutations the randomizing phases can be left away (option \
                 no-randomize): NoWrapRoute(d) then routes them on the n × … × n mesh in kn/4 = ",
                KsTheorem::NoWrapNoRandomize.text(),
                " (its d routing phases) + O(d·√(kn log n)) steps (farthest-first)"
            ),
            Scope::MeshMultiD,
            Some(Policy::FarthestFirst),
            KsTheorem::NoWrapNoRandomize,
        ),
        ks_claim(
            "§7.4 on average",
            join!(
                "NoWrapRoute(d) routes random k-permutations on the n × … × n mesh in kn/2 − kn/(4d) = ",
                KsTheorem::NoWrapAverage.text(),
                " (each of its 2d − 1 phases kn/(4d)) + O(d·√(kn log n)) steps (farthest-first)"
            ),
            Scope::MeshMultiD,
            Some(Policy::FarthestFirst),
            KsTheorem::NoWrapAverage,
        ),
        NOWRAP_LEMMAS[0],
        NOWRAP_LEMMAS[1],
        NOWRAP_LEMMAS[2],
        NOWRAP_LEMMAS[3],
        NOWRAP_LEMMAS[4],
        NOWRAP_LEMMAS[5],
        NOWRAP_LEMMAS[6],
    ],
};

/// NoWrapRoute's per-phase lemmas (§7.1–§7.3), each on the phases it
/// speaks of ([`Measure::PhaseSteps`]): in 2-D, phase 1 is
/// `phase1-randomize`, 2 `phase2-route`, 3 `phase3-route`; in d
/// dimensions phases 1 … d − 1 randomize and phase d is the first routing
/// phase.
const NOWRAP_LEMMAS: [Claim; 7] = {
    const FF: Option<Policy> = Some(Policy::FarthestFirst);
    const OUTER: &[&str] = &["phase1-randomize", "phase3-route"];
    const MIDDLE: &[&str] = &["phase2-route"];
    [
        ks_lemma_claim(
            "Lemma 16",
            join!(
                "phase 1 of NoWrapRoute (randomizing along the column) takes ",
                KsLemma::NoWrapOuter.text(),
                " + O(√(kn log n)) routing steps, with very high probability (farthest-first)"
            ),
            Scope::SquareMesh,
            FF,
            Measure::PhaseSteps(&["phase1-randomize"]),
            KsLemma::NoWrapOuter,
        ),
        ks_lemma_claim(
            "Lemma 17",
            join!(
                "phase 2 of NoWrapRoute (along the row to the destination column) takes ",
                KsLemma::NoWrapMiddle.text(),
                " + O(√(kn log n)) routing steps, with very high probability (farthest-first)"
            ),
            Scope::SquareMesh,
            FF,
            Measure::PhaseSteps(MIDDLE),
            KsLemma::NoWrapMiddle,
        ),
        ks_lemma_claim(
            "Lemma 18",
            join!(
                "phase 3 of NoWrapRoute (along the column to the destination row) takes ",
                KsLemma::NoWrapOuter.text(),
                " + O(√(kn log n)) routing steps, with very high probability (farthest-first)"
            ),
            Scope::SquareMesh,
            FF,
            Measure::PhaseSteps(&["phase3-route"]),
            KsLemma::NoWrapOuter,
        ),
        ks_lemma_claim(
            "Lemma 20",
            join!(
                "with any contention strategy, phases 1 and 3 of NoWrapRoute take at most ",
                KsLemma::NoWrapOuterAny.text(),
                " + O(√(kn log n)) routing steps each, with very high probability"
            ),
            Scope::SquareMesh,
            None,
            Measure::PhaseSteps(OUTER),
            KsLemma::NoWrapOuterAny,
        ),
        ks_lemma_claim(
            "Lemma 21",
            join!(
                "with any contention strategy, phase 2 of NoWrapRoute takes at most ",
                KsLemma::NoWrapMiddleAny.text(),
                " + O(√(kn log n)) routing steps, with very high probability"
            ),
            Scope::SquareMesh,
            None,
            Measure::PhaseSteps(MIDDLE),
            KsLemma::NoWrapMiddleAny,
        ),
        ks_lemma_claim(
            "Lemma 22",
            join!(
                "phases 1, …, d − 1 (randomizing) and d + 1, …, 2d − 1 of NoWrapRoute(d) take ",
                KsLemma::PerDimension.text(),
                " + O(√(kn log n)) routing steps each, with very high probability (farthest-first; the paper \
                 prints the second range as d + 1, …, 2·d, but NoWrapRoute(d) has 2d − 1 phases: read as 2d − 1)"
            ),
            Scope::CubeMesh,
            FF,
            Measure::PhaseSteps(&["phase*-randomize", "phase*-route", "!^phase*-route"]),
            KsLemma::PerDimension,
        ),
        ks_lemma_claim(
            "Lemma 23",
            join!(
                "phase d of NoWrapRoute(d) (the first routing phase) takes ",
                KsLemma::NoWrapRouteFirst.text(),
                " + O(√(kn log n)) routing steps, with very high probability (farthest-first)"
            ),
            Scope::CubeMesh,
            FF,
            Measure::PhaseSteps(&["^phase*-route"]),
            KsLemma::NoWrapRouteFirst,
        ),
    ]
};

/// Lemma 25 (§8.3): every phase of WrapRoute(d) on the torus.
const WRAP_LEMMA: Claim = ks_lemma_claim(
    "Lemma 25",
    join!(
        "on the torus (n × … × n), every phase of WrapRoute(d) takes ",
        KsLemma::WrapPerDimension.text(),
        " + O(√(kn log n)) routing steps, with very high probability (farthest-first; by Lemma 8 on a ring \
         loaded k/d, as the proof says: the paper prints kn/(4d), but its Theorems 7 and 11 add 2d such phases \
         up to kn/4, which kn/(8d) gives)"
    ),
    Scope::TorusMultiD,
    Some(Policy::FarthestFirst),
    Measure::PhaseSteps(&["phase*-randomize", "phase*-route"]),
    KsLemma::WrapPerDimension,
);

/// Theorem 6 (§7.5): with the packets of m = k·log n adjacent nodes smeared
/// out after every phase, a node holds k + O(1) packets (for k ≤ n^α; the
/// paper: "in the same way the queue size of all algorithms in this paper
/// can be bounded"). Measured on the packets held when a phase opens —
/// the quantity its proof counts ([`Measure::MaxBarrierLoad`]).
pub(in crate::algorithms) const KS_SMEAR_CLAIM: Claim = Claim {
    name: "Theorem 6",
    text: "smearing out the packets of m = k·log n adjacent nodes after each phase (O(m) extra steps) bounds \
           the packets a node holds to k + O(1), with very high probability, for k ≤ n^α (α < 1)",
    scope: Scope::Any,
    permutation: false,
    instance: None,
    separated: false,
    policy: None,
    measure: Measure::MaxBarrierLoad,
    strength: Strength::PlusConstant,
    formula: Formula::PacketsPerNode,
};

/// ks-wrap.
pub const WRAP_TEACHING: Teaching = Teaching {
    description: join!(
        "On the torus, every packet gets a random colour, one per axis. A ",
        word(0),
        " packet moves to a random column along its row, to a random row along its column, then to its \
         destination column and its destination row; ",
        word(1),
        " packets do the same 90° out of phase. With the wrap-around links the connection-availability bound \
         is kn/4, and WrapRoute comes within lower-order terms of it."
    ),
    phases: KS_PHASES,
    classes: Classes::Colours,
    headline: 0,
    claims: &[
        ks_claim(
            "Theorem 7",
            join!(
                "WrapRoute routes k-permutations on the n×n torus in ",
                KsTheorem::Theorem7.text(),
                " + O(√(kn log n)) steps, \
             with very high probability (farthest-first)"
            ),
            Scope::SquareTorus,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem7,
        ),
        ks_claim(
            "Theorem 9",
            join!(
                "with any contention strategy, WrapRoute routes k-permutations on the n×n torus in \
             ",
                KsTheorem::Theorem9.text(),
                " + O(√(kn log n)) steps, with very high probability"
            ),
            Scope::SquareTorus,
            None,
            KsTheorem::Theorem9,
        ),
        ks_claim(
            "Theorem 8",
            join!(
                "on the n×n mesh without wrap-around, WrapRoute routes k-permutations in ",
                KsTheorem::Theorem8.text(),
                " + \
             O(√(kn log n)) steps, with very high probability (farthest-first)"
            ),
            Scope::SquareMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem8,
        ),
        ks_claim(
            "Theorem 11",
            join!(
                "WrapRoute(d) routes k-permutations on the d-dimensional torus in ",
                KsTheorem::Theorem11.text(),
                " + \
             O(d·√(kn log n)) steps, with very high probability (farthest-first)"
            ),
            Scope::CubeTorus,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem11,
        ),
        ks_claim(
            "Theorem 10",
            join!(
                "worms of F flits (cut-through) are routed on the n×n torus in ",
                KsTheorem::Theorem10.text(),
                " + O(F·√(n log n)) \
             steps, with very high probability (§8.2, WrapRoute)"
            ),
            Scope::SquareTorus,
            None,
            KsTheorem::Theorem10,
        ),
        ks_claim(
            "Theorem 12",
            join!(
                "WrapRoute(d) routes a permutation of worms of F flits on the d-dimensional torus in \
             ",
                KsTheorem::Theorem12.text(),
                " + O(d·F·√(n log n)) steps, with very high probability"
            ),
            Scope::CubeTorus,
            None,
            KsTheorem::Theorem12,
        ),
        KS_SMEAR_CLAIM,
        WRAP_LEMMA,
        ks_claim(
            "§8.1 on average",
            join!(
                "on the n×n mesh, WrapRoute's average case, random k-permutations, is kn/2 = ",
                KsTheorem::WrapAverage.text(),
                " (its four phases) + O(√(kn log n)) steps, higher than NoWrapRoute's ",
                KsTheorem::NoWrapAverage.text(),
                " (farthest-first)"
            ),
            Scope::SquareMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::WrapAverage,
        ),
    ],
};
