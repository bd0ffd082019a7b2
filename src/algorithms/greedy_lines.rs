//! Greedy on a linear array and on a ring: Kaufmann–Sibeyn §5's
//! one-dimensional lemmas as greedy's claims (greedy is §5's routing: every
//! packet goes straight to its destination, the policy settles contention).
//!
//! On a ring greedy takes the shorter way round, a tie (exactly n/2) by the
//! packet id's parity (SPEC §2); §5.2 assumes the same (no packet goes
//! farther than n/2) and leaves ties open. Its "routing to the right" and
//! "to the left" use disjoint links, so the time is the larger of the two.
//!
//! The paper's k in the randomization lemmas (3, 5, 8, 11) is the packets
//! each node sends to independent random destinations — the workload
//! `random-destinations` with its k; the formulas take the most packets any
//! node sends (what a node receives is not bounded there). The cut-through
//! lemmas (6, 12) route one worm of k flits from every node: the workload
//! with k = 1 and `--flits F`, F as their k.

use super::claim::{join, Claim, Formula, LineLemma, Measure, Scope, Strength};
use crate::engine::Policy;
use crate::workload::Workload;

/// A claim of §5 on `scope`'s networks.
const fn line(
    name: &'static str,
    text: &'static str,
    scope: Scope,
    policy: Option<Policy>,
    strength: Strength,
    lemma: LineLemma,
) -> Claim {
    let randomized = matches!(strength, Strength::PlusSqrtKnLogN);
    Claim {
        name,
        text,
        scope,
        permutation: false,
        instance: if randomized {
            Some(Workload::RandomDestinations)
        } else {
            None
        },
        separated: false,
        policy,
        measure: Measure::Steps,
        strength,
        formula: Formula::Line(lemma),
    }
}

const FF: Option<Policy> = Some(Policy::FarthestFirst);
const LINE: Scope = Scope::LinearArray;
const RING: Scope = Scope::Ring;

/// §5's claims, in the paper's order within each network.
pub const CLAIMS: [Claim; 12] = [
    line(
        "Lemma 7",
        join!(
            "on a ring, farthest-first routing takes exactly T = ",
            LineLemma::Lemma7.text(),
            " steps, h(i, j) = the packets whose path covers the arc, minus 1 (and the same to the left); the \
             paper prints h(i, j) − (j − i) mod n, its proof has the sum"
        ),
        RING,
        FF,
        Strength::Exact,
        LineLemma::Lemma7,
    ),
    line(
        "Lemma 4",
        join!(
            "on a linear array, any strategy routes to the right in at most ",
            LineLemma::Lemma4.text(),
            " steps, h(i) = the packets from nodes ≤ i to nodes > i, minus 1 (and the same to the left)"
        ),
        LINE,
        None,
        Strength::AtMost,
        LineLemma::Lemma4,
    ),
    line(
        "Corollary 1",
        join!(
            "on a linear array where any m nodes send and receive at most k·m + α packets, farthest-first takes \
             at most ",
            LineLemma::Corollary1.text(),
            " steps"
        ),
        LINE,
        FF,
        Strength::AtMost,
        LineLemma::Corollary1,
    ),
    line(
        "Corollary 2",
        join!(
            "the same with any strategy: at most ",
            LineLemma::Corollary2.text(),
            " steps"
        ),
        LINE,
        None,
        Strength::AtMost,
        LineLemma::Corollary2,
    ),
    line(
        "Lemma 3",
        join!(
            "k packets from every node of a linear array to random destinations, farthest-first: ",
            LineLemma::Lemma3.text(),
            " + O(√(kn log n)) steps"
        ),
        LINE,
        FF,
        Strength::PlusSqrtKnLogN,
        LineLemma::Lemma3,
    ),
    line(
        "Lemma 5",
        join!(
            "the same with any strategy: ",
            LineLemma::Lemma5.text(),
            " + O(√(kn log n)) steps"
        ),
        LINE,
        None,
        Strength::PlusSqrtKnLogN,
        LineLemma::Lemma5,
    ),
    line(
        "Lemma 6",
        join!(
            "one worm of F flits from every node of a linear array to a random destination (cut-through): ",
            LineLemma::Lemma6.text(),
            " + O(F·√(n log n)) steps"
        ),
        LINE,
        None,
        Strength::PlusSqrtKnLogN,
        LineLemma::Lemma6,
    ),
    line(
        "Lemma 8",
        join!(
            "k packets from every node of a ring to random destinations, farthest-first: ",
            LineLemma::Lemma8.text(),
            " + O(√(kn log n)) steps"
        ),
        RING,
        FF,
        Strength::PlusSqrtKnLogN,
        LineLemma::Lemma8,
    ),
    line(
        "Lemma 10",
        join!(
            "on a ring, any strategy routes to the right in at most ",
            LineLemma::Lemma10.text(),
            " steps, h(i) = the packets that leave node i to the right, minus 1, largest at i_max: no packet \
             waits more than h(i_max) times (Corollary 3) and none goes farther than n/2 (and the same to the left)"
        ),
        RING,
        None,
        Strength::AtMost,
        LineLemma::Lemma10,
    ),
    Claim {
        measure: Measure::MaxDelay,
        ..line(
            "Corollary 3",
            join!(
                "on a ring, with any strategy, no packet waits more than ",
                LineLemma::Corollary3.text(),
                " steps on its way, h(i) = the packets that leave node i the same way, minus 1"
            ),
            RING,
            None,
            Strength::AtMost,
            LineLemma::Corollary3,
        )
    },
    line(
        "Lemma 11",
        join!(
            "k packets from every node of a ring to random destinations, any strategy: ",
            LineLemma::Lemma11.text(),
            " + O(√(kn log n)) steps"
        ),
        RING,
        None,
        Strength::PlusSqrtKnLogN,
        LineLemma::Lemma11,
    ),
    line(
        "Lemma 12",
        join!(
            "one worm of F flits from every node of a ring to a random destination (cut-through): ",
            LineLemma::Lemma12.text(),
            " + O(F·√(n log n)) steps"
        ),
        RING,
        None,
        Strength::PlusSqrtKnLogN,
        LineLemma::Lemma12,
    ),
];

/// `own` claims followed by [`CLAIMS`] (`B` = A + 12, checked when compiled).
pub const fn with_line_claims<const A: usize, const B: usize>(own: [Claim; A]) -> [Claim; B] {
    assert!(B == A + CLAIMS.len(), "B must be A + CLAIMS.len()");
    let mut out = [CLAIMS[0]; B];
    let mut i = 0;
    while i < A {
        out[i] = own[i];
        i += 1;
    }
    while i < B {
        out[i] = CLAIMS[i - A];
        i += 1;
    }
    out
}
