//! The lectures' lessons (issue #28): greedy's average case in the
//! permutation-routing lecture's own model.

use super::{preset, Guess, Lesson, Predict, OWN};
use crate::algorithms::papers::LECTURE;

/// `greedy-average`: greedy XY on `random-destinations`, one packet per
/// node; the panel measures the largest delay against log₂ n and draws the
/// delays as a histogram.
pub(super) const GREEDY_AVERAGE: Lesson = Lesson {
    id: "greedy-average",
    title: "Greedy on random destinations: most packets never wait",
    text: "Every node sends one packet to a node chosen uniformly at random, independently of the others — so some \
           nodes receive several packets and some none (a packet that drew its own node is delivered at step 0). \
           This is the lecture's model of an average case, and in it greedy routing rarely waits: a packet's delay \
           (its arrival step minus its distance) exceeds z with probability O(e^(−z/6)), each packet arrives \
           within its distance + O(log n) steps with probability 1 − O(1/n²) (a bound per packet, not for all \
           of them at once), and no node needs more than 4 extra buffers with probability \
           1 − O(log⁴ n / n). Watch the Delays histogram below the check (delay in steps, packets per bar): the \
           bar at 0 is most of the packets, and the bars shrink fast. The check measures the constant c of the \
           largest delay = c·log₂ n. \
           MAX QUEUE counts every packet at a node, also the ones that just arrived; over 40 seeds it stays at 4 to \
           7 from 16 × 16 to 128 × 128, while the worst permutation drives it to about 2n/3.",
    paper: LECTURE,
    section: "Average-case behavior of greedy permutation routing (Lemma)",
    preset: preset("mesh:32x32", "random-destinations", "greedy", 30),
    check: OWN,
    load: None,
    predict: Some(Predict {
        measure: Guess::MaxQueue,
        question: "Before you play: 1,024 packets, each to a random node of this 32 × 32 mesh. How many packets \
                   will the fullest node hold at its largest?",
    }),
};
