//! Lessons of the permutation lecture's randomized routing and of
//! Leighton–Maggs–Ranade–Rao on the mesh and with combining (issue 28):
//! `rand-interval`, `lmrr-mesh`, `combining`. Listed in
//! [`super::LESSONS`]; like every file of `src/lessons/`, part of the one
//! lessons home where an algorithm's name may be spelled.

use super::{preset, Guess, Lesson, Predict, Preset, Relation, OWN};
use crate::algorithms::claim::{join, Formula};
use crate::algorithms::papers::{LECTURE, LMRR};
use crate::request::Field;

/// `algorithm` on `workload` on `topology` beside `compare`, seed 1,
/// farthest-first, played in about 30 s.
const fn beside(
    topology: &'static str,
    workload: &'static str,
    algorithm: &'static str,
    compare: &'static str,
) -> Preset {
    preset(topology, workload, algorithm, 30).beside(compare)
}

/// rand-interval beside greedy on greedy's worst case (permutation lecture,
/// "Randomized permutation routing").
pub(super) const RAND_INTERVAL: Lesson = Lesson {
    id: "rand-interval",
    title: "A random row first: small queues on greedy's worst case",
    text: "This 32 × 32 permutation is greedy's worst case: greedy (the second run) turns streams of packets into \
           one column at one node, whose queue grows to 21, about 2n/3. rand-interval cuts every column into \
           ⌊log₂ n⌋ = 5 intervals of about n/log n rows. In randomize-in-interval every packet moves inside its \
           column to a random row of its interval; then route-row takes it along that row to its destination \
           column, and route-column along the column (the phase counter names each). The packets that want one \
           column are now spread over many rows, so only about log n of them turn at one node: the lecture \
           promises 2n + o(n) steps with queues of O(log n), with high probability. Watch the darkest node of \
           each run, then compare the largest queues — and the steps, the price of the detour.",
    paper: LECTURE,
    section: "Randomized permutation routing (Lemma: 2n + o(n) steps, β = O(log n))",
    preset: beside("mesh:32x32", "greedy-worst", "rand-interval", "greedy"),
    check: OWN.and(Relation::SmallerQueue),
    load: None,
    predict: Some(Predict {
        measure: Guess::MaxQueue,
        question: "Before you play: greedy's fullest node will hold 21 packets on this 32 × 32 mesh. How many will \
                   rand-interval's fullest node hold at its largest?",
    }),
};

/// lmrr on a 2-D mesh: Theorem 3.1's four leveled phases, beside greedy.
pub(super) const LMRR_MESH: Lesson = Lesson {
    id: "lmrr-mesh",
    title: "The mesh as four leveled networks (Leighton–Maggs–Ranade–Rao)",
    text: join!(
        "lmrr needs a leveled network, in which every link climbs one level; a mesh is not one, but it holds \
           four. Packets are split by the way they go: up-right packets (to a row at or above theirs and a \
           column at or right of theirs) are routed first, on the up and right links only, a node's level being \
           its distance from the bottom-left corner; then up-left, down-right and down-left, each in a phase of \
           its own (the phase counter and the bands under the scrubber name them). Inside a phase each node \
           forwards the smallest rank among the heads of its queues, sends ghosts (hollow circles) on its other \
           links and end-of-stream (squares) when done, and no edge queue (the bars on the links) ever holds \
           more than q = 2 packets. Theorem 2.9 promises O(",
        Formula::CongestionDilationLogN.spelled(),
        ") steps per phase, here each about the side; the panel \
           measures the whole run, all four phases, against one phase's, so its constant is about four times a \
           phase's. On greedy's worst case greedy (the second run) is much faster but its fullest \
           node climbs to 9 packets; compare the largest queues."
    ),
    paper: LMRR,
    section: "§2.2, §2.3, §3 (Theorems 2.9, 3.1)",
    preset: beside("mesh:16x16", "greedy-worst", "lmrr", "greedy"),
    check: OWN.and(Relation::SmallerQueue),
    load: None,
    predict: Some(Predict {
        measure: Guess::Steps,
        question: "Before you play: greedy needs 15 steps here. lmrr routes the four phases one after the other, \
                   each on the levels its packets use of a network of 2n − 1 = 31 levels (at most 17 here: few \
                   packets move, none far). How many steps will lmrr need in all?",
    }),
};

/// lmrr with packet combining (§2.3.1) on a hot spot, beside bit fixing.
pub(super) const COMBINING: Lesson = Lesson {
    id: "combining",
    title: "Packet combining: a hot spot that costs nothing (Leighton–Maggs–Ranade–Rao §2.3.1)",
    text: "Half of the 64 inputs of this butterfly send to one hot output, and only two links lead into it: bit \
           fixing (the second run) must bring the 32 packets in one by one, two per step, so it needs at least 16 \
           steps. With combining (the option combine, checked under Options of lmrr), a packet's rank is a hash \
           of its destination, so all packets for one destination share their rank: a node forwards a packet only \
           when nothing smaller can still come, and packets for the same destination that meet at the head of its \
           queues travel on as one, which delivers them all. At most one packet per destination crosses a link, \
           so Theorem 2.9's congestion c counts destinations, not packets — and lmrr's lower bound counts one packet \
           per destination too (6 here, against bit fixing's 16: the counter shows each run's own). Watch lmrr's delivered counter jump by many at once as a merged packet \
           arrives, and lmrr finish in fewer steps than the 16 bit fixing cannot beat.",
    paper: LMRR,
    section: "§2.3.1 (combining), §2.3 (Theorem 2.9)",
    preset: beside("butterfly:6", "hotspot", "lmrr", "bit-fixing")
        .with(&[(Field::Hotspot, "50"), (Field::Combine, "true")]),
    check: OWN.and(Relation::FewerSteps),
    load: None,
    predict: Some(Predict {
        measure: Guess::Steps,
        question: "Before you play: bit fixing (the second run) needs 22 steps, and nothing that brings the 32 \
                   packets into the hot output one by one can take fewer than 16. How many steps will lmrr with \
                   combining need?",
    }),
};
