//! The lessons on Kaufmann–Sibeyn's routing with respect to locality
//! (§9): `locality` (LocalRoute, Theorem 13, against greedy on a local
//! instance) and `nol-estimate` (NoLRoute, the nodes' estimate of L,
//! Theorem 15). Listed in [`super::LESSONS`].

use super::{preset, Guess, Lesson, Predict, Preset, Relation, OWN};
use crate::algorithms::claim::{join, KsTheorem};
use crate::algorithms::papers::KAUFMANN_SIBEYN;
use crate::palette::word;
use crate::request::Field;

/// ks-local on local-kk, torus:32x32, k = 8, with `options`, played in about 30 s.
const fn local(options: &'static [(Field, &'static str)]) -> Preset {
    preset("torus:32x32", "local-kk", "ks-local", 30)
        .lk(None, Some(8))
        .with(options)
}

/// LocalRoute on a local instance, greedy beside it (measured on this
/// preset: greedy 12 steps, ks-local 21, ks-wrap 104).
pub(super) const LOCALITY: Lesson = Lesson {
    id: "locality",
    title: "Locality: k·L steps, not k·n (LocalRoute) — and why greedy wins here",
    text: join!(
        "In local-kk every packet moves at most L = 2 along a row and along a column. WrapRoute (ks-wrap) \
         ignores that: it sends every packet to a random node first and needs 104 steps on this 32 × 32 torus \
         with k = 8. LocalRoute (ks-local) keeps the randomization local: a ",
        word(0),
        " packet first moves to a random row within L/2 of its own (the band phase1-randomize), then along \
         its row (phase2-route), then along its column (phase3-route); ",
        word(1),
        " packets do the same 90° out of phase. Theorem 13 promises ",
        KsTheorem::Theorem13.text(),
        " plus O(√(kL log n)) steps, whatever the pattern, and the panel judges Lemmas 26, 28 and 29 on each \
         phase and Lemma 27 on the most packets over one link in phase 2. Greedy, beside it, is faster on this \
         instance: its packets go straight, at most L along each axis, and with random local destinations no \
         link carries many of them, so it pays neither the randomizing phase nor the waits at the phase \
         boundaries. LocalRoute's bound holds for every pattern of locality L, including those on which \
         many packets share a row and greedy's queues pile up; the price is a few steps on an easy one."
    ),
    paper: KAUFMANN_SIBEYN,
    section: "§9.1 (Theorem 13; Lemmas 26–29)",
    preset: local(&[(Field::Locality, "2")]).beside("greedy"),
    check: OWN.and(Relation::MoreSteps),
    load: None,
    predict: Some(Predict {
        measure: Guess::Steps,
        question: "Before you play: ks-wrap needs 104 steps on this instance. How many will ks-local take?",
    }),
};

/// NoLRoute: the nodes are not told L (`--locality unknown:4`).
pub(super) const NOL_ESTIMATE: Lesson = Lesson {
    id: "nol-estimate",
    title: "Locality unknown: NoLRoute estimates L (Theorem 15)",
    text: join!(
        "Here no node is told L (the option locality is unknown; the instance has L = 4). In the band \
         phase1ab-randomize every node sends the largest move of its own packets, rounded down to a power of \
         two, to its neighbours in small information packets, and passes on any larger value it hears; \
         meanwhile the packets already spread out within 8n/k of their row. After step n = 32 every node knows \
         the same estimate, between L/2 and L, and the packets are routed on as if L were known (phase2-route, \
         phase3-route; a band phase1d-randomize appears only when the estimate asks for a wider spread). \
         Theorem 15 promises ",
        KsTheorem::Theorem15.text(),
        " plus O(√((n + kL) log n)) steps: the n is the estimate's price, which a large k·L hides. With L \
         known (locality 4) the same instance takes 30 steps; watch how long the first band lasts here."
    ),
    paper: KAUFMANN_SIBEYN,
    section: "§9.2 (NoLRoute, Theorem 15)",
    preset: local(&[(Field::Locality, "unknown:4")]),
    check: OWN,
    load: None,
    predict: Some(Predict {
        measure: Guess::Steps,
        question: "Before you play: with L known this run takes 30 steps. How many when the nodes must estimate L?",
    }),
};
