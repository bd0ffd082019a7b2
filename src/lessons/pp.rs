//! The Pietracaprina–Pucci lessons beyond `pp-constant-queues` (in
//! `table.rs`): `pp-det-colouring`, §4's deterministic colouring.

use super::{preset, Guess, Lesson, Predict, Relation, OWN};
use crate::algorithms::papers::PP;

/// §4's colouring by counters (proof of Theorem 5) beside §3's random one.
pub(super) const PP_DET_COLOURING: Lesson = Lesson {
    id: "pp-det-colouring",
    title: "Colours without coin flips: the deterministic colouring (Pietracaprina–Pucci §4)",
    text: "Both runs split the packets into ℓ = 4 colour classes and route one class after another: sort, deal, \
           route, tour. pp-rand, the second run, draws each packet's colour at random, so its packets are blue, \
           green and the rest from step 0. pp-det draws nothing. In its first phase, colouring, no packet moves: \
           counters (control messages on the links) run along every stripe of two rows and count, tile after \
           tile, the packets headed for each destination tile; a packet's colour is its number in that count \
           modulo ℓ (the paper counts over the whole mesh, which leaves O(s) packets of a class per stripe; \
           counting inside each stripe is this simulator's choice, docs/algorithms/pp.md). Until the phase ends every packet of pp-det is blue; then the legend fills with the same \
           classes as pp-rand's. Counting guarantees what chance only makes likely: a class has at most one \
           packet per node of a stripe once its stripe-balance phase has moved them along the stripe, so every \
           sort starts with one packet per node. The price is time: the colouring (48 steps here) and one \
           stripe-balance phase per class (16 steps each), which pp-rand does not pay (the check below sets \
           the two runs' steps side by side once they are over).",
    paper: PP,
    section: "§4 (Theorem 5 and its proof)",
    preset: preset("mesh:16x16", "worst-lk", "pp-det", 36)
        .lk(Some(4), Some(4))
        .beside("pp-rand"),
    // Both runs' own claims, and pp-det needs more steps than pp-rand.
    check: OWN.and_second_own().and(Relation::MoreSteps),
    load: None,
    predict: Some(Predict {
        measure: Guess::Steps,
        question: "Before you play: pp-rand, the second run, needs 564 steps here. How many will pp-det need, \
                   with its colouring by counters?",
    }),
};
