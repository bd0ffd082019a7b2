//! The lessons on LevelRoute's passes and superior packets (`ks-level`,
//! Kaufmann–Sibeyn §6, §6.1.1) and on cut-through worms against
//! store-and-forward (`cut-through`, §7.2 Corollary 5). The numbers in the
//! texts are those of the presets' runs (seed 1), pinned by
//! `tests/it/teach.rs`.

use super::{preset, Guess, Lesson, Predict, Preset, OWN};
use crate::algorithms::claim::{join, KsTheorem};
use crate::algorithms::papers::KAUFMANN_SIBEYN;
use crate::palette::word;
use crate::request::Field;

/// A 32 × 32 mesh's point reflection by `algorithm`, played in about 30 s,
/// with `options`.
const fn reflection(algorithm: &'static str, k: Option<u32>, options: &'static [(Field, &'static str)]) -> Preset {
    preset("mesh:32x32", "point-reflection", algorithm, 30)
        .lk(None, k)
        .with(options)
}

/// `ks-level`: Corollary 4 and Lemma 15's superior packets.
pub(super) const KS_LEVEL: Lesson = Lesson {
    id: "ks-level",
    title: "LevelRoute: one permutation per pass, and the packets in the corners",
    text: join!(
        "Every node sends k = 6 packets and receives 6; here each node's packets all go to the opposite point \
         of the mesh (k-PR). LevelRoute gives every packet a level from 1 to k/2 and a colour, ",
        word(0),
        " or ",
        word(1),
        ", and routes one level per pass, so each pass moves about one permutation per colour in about n \
         steps: Corollary 4 promises ",
        KsTheorem::Corollary4.text(),
        " plus a lower-order term (n = 32, ε = 4). This run has the option superior on (§6.1.1): the packets \
         that start in the four corner squares of ε × ε nodes spread out towards the middle of their column (",
        word(0),
        ") or row (",
        word(1),
        "), not just inside their strip of ε, and every pass spreads and routes in one phase \
         (pass2-randomize-route). Click a packet in a corner to follow its route: in its pass it first heads \
         for the middle, then turns. Lemma 15 bounds \
         passes 2 and 3 by ",
        KsTheorem::Lemma15.text(),
        " = 34 steps plus a lower-order term whose constant the paper does not give; the panel's Lemma 15 \
         line measures it (the check gives what they take here once the run is over); untick the option superior and the plain loop takes 5 + 48 steps in passes 2 and 3 (5 + 38 in pass 1, a 34-step route in pass 4) and 183 in all."
    ),
    paper: KAUFMANN_SIBEYN,
    section: "§6 (Corollary 4), §6.1.1 (Lemma 15)",
    preset: reflection("ks-level", Some(6), &[(Field::Superior, "true")]),
    check: OWN,
    load: None,
    predict: Some(Predict {
        measure: Guess::Steps,
        question: "Before you play: how many steps will this run take? (4 passes on a 32 × 32 mesh)",
    }),
};

/// `cut-through`: Corollary 5, worms of F flits against k-k routing at k = F.
pub(super) const CUT_THROUGH: Lesson = Lesson {
    id: "cut-through",
    title: "Cut-through worms against store-and-forward (Kaufmann–Sibeyn Corollary 5)",
    text: join!(
        "With the option flits set to 4 every packet is a worm of 4 flits: once its head crosses a link, its \
         other 3 flits follow over that link in the next 3 steps and nothing else uses it meanwhile. Here \
         every node sends one worm to the opposite point of the mesh. Kaufmann and Sibeyn read a node's k \
         packets for one destination as the k flits of one worm, so this run is the same traffic as k-k \
         routing with k = 4 sent store-and-forward (workload point-reflection, k = 4, flits 1): that takes \
         108 steps with NoWrapRoute. Corollary 5 promises ",
        KsTheorem::Corollary5.text(),
        " = 120 steps plus a lower-order term for the worms (F = 4, n = 32); the panel measures that term. \
         The main terms agree, but a worm's 4 flits move together, so every random fluctuation counts 4 \
         times (the check gives this run's steps once it is over), while its largest queue stays at 7, \
         half the store-and-forward run's 15."
    ),
    paper: KAUFMANN_SIBEYN,
    section: "§7.2 (Corollary 5)",
    preset: reflection("ks-nowrap", None, &[(Field::Flits, "4")]),
    check: OWN,
    load: None,
    predict: Some(Predict {
        measure: Guess::Steps,
        question: "Before you play: store-and-forward needs 108 steps for these 4 flits per node as separate \
                   packets. How many will the worms take?",
    }),
};
