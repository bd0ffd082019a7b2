//! `lmrr`'s teaching text: what it does, its phases, its packet classes
//! (see [`crate::algorithms::teaching`]).

use crate::algorithms::claim::{join, Claim, Formula, Measure, Scope, Strength};
use crate::algorithms::teaching::{Classes, PhaseText, Teaching};

/// What the phases of `lmrr` do, by report name.
const PHASES: &[PhaseText] = &[
    PhaseText {
        name: "up-right",
        text: "packets bound up and to the right climb their column to the destination row, then go right; \
               the links pointing up and right form a leveled network, levels counted from the bottom-left corner",
    },
    PhaseText {
        name: "up-left",
        text: "packets bound up and to the left: their column to the destination row, then left along it; the up \
               and left links form the leveled network, levels counted from the bottom-right corner",
    },
    PhaseText {
        name: "down-right",
        text: "packets bound down and to the right: their column to the destination row, then right along it; \
               the down and right links form the leveled network, levels counted from the top-left corner",
    },
    PhaseText {
        name: "down-left",
        text: "packets bound down and to the left: their column to the destination row, then left along it; the \
               down and left links form the leveled network, levels counted from the top-right corner",
    },
    PhaseText {
        name: "route",
        text: "the leveled network is the butterfly itself, level i to level i + 1 (a cube network emulates \
               one, one dimension per level); every node forwards the smallest rank among the heads of its \
               queues once every queue shows something, with a ghost of that rank on its other links, and \
               end-of-stream when it is done",
    },
    PhaseText {
        name: "to-level-0",
        text: "packets climb their row's straight links back to level 0 (the first quarter of the logical network)",
    },
    PhaseText {
        name: "to-random-row",
        text: "packets cross the butterfly to a uniformly random row at level D (Valiant's paradigm)",
    },
    PhaseText {
        name: "to-destination-row",
        text: "packets cross the butterfly backwards, from the random row to their destination's row at level 0",
    },
    PhaseText {
        name: "to-destination-level",
        text: "packets go along their destination's row to its level",
    },
    PhaseText {
        name: "to-random-node",
        text: "packets fix their bits towards a uniformly random node (an emulated butterfly)",
    },
    PhaseText {
        name: "to-destination",
        text: "packets fix their bits towards their destination, least significant first (a second butterfly)",
    },
    PhaseText {
        name: "plateau",
        text: "the slowest packets are on this plateau of §6's leveled network (copies of the mesh: d + 1 on \
               direct paths, 2d + 1 with valiant paths; each with the links of one or two dimensions): they move along the dimensions named, up (towards larger \
               coordinates) or down, and wait one step on their node to pass to the next plateau; pass 1 takes \
               each dimension down to 0, then up to the intermediate's (the destination's, on direct paths) \
               coordinate, pass 2 up to the top, then down to the destination's",
    },
    PhaseText {
        name: "bad-to-good",
        text: "on the shuffle-exchange, packets at bad labels (no unique longest run of 0s, long enough) go to the \
               good label they are associated with: a few exchanges and shuffles, then along that good necklace",
    },
    PhaseText {
        name: "around-necklace",
        text: "packets go around their own necklace (by unshuffles) to its level 0, where the good labels' \
               leveled network begins",
    },
    PhaseText {
        name: "to-random-necklace",
        text: "packets climb the good labels' leveled network and come back down it, correcting one bit of their \
               label per level (shuffle, then exchange or wait), to level 0 of a random good necklace",
    },
    PhaseText {
        name: "to-destination-necklace",
        text: "packets climb and descend the leveled network again, from the random necklace to their \
               destination's necklace",
    },
    PhaseText {
        name: "along-necklace",
        text: "packets go along their destination's necklace (by shuffles) from its level 0 to the destination",
    },
    PhaseText {
        name: "good-to-bad",
        text: "packets bound for bad labels go from the good label associated with them back along the way a packet \
               from there came",
    },
];

/// lmrr.
pub const TEACHING: Teaching = Teaching {
    description: join!(
        "Every packet draws a random rank. The network is read as a leveled network — every link used \
                  climbs one level — and each node forwards packets in increasing rank: it waits until each of its \
                  queues (its own packets and one small queue per incoming link) shows something at its head, then \
                  sends the smallest. On its other links it sends a ghost of that rank, a promise that nothing \
                  smaller will follow, so that nodes downstream need not wait; ghosts live one step. When a node \
                  has nothing left it sends end-of-stream. Ghosts and end-of-stream use the links like packets. \
                  The edge queues never hold more than q packets, yet the time is O(",
        Formula::CongestionDilationLogN.spelled(),
        "): the \
                  congestion plus the depth. The 2-D mesh is routed in four such phases, one per direction; a \
                  mesh of 3 or more dimensions (or a 2-D one with valiant paths) on §6's plateaus, one dimension \
                  corrected per plateau: d + 1 of them on direct paths, 2d + 1 through a random intermediate node \
                  with valiant paths; the butterfly \
                  along its levels; the shuffle-exchange on its good labels, through a random good necklace."
    ),
    phases: PHASES,
    classes: Classes::Named(&[
        "ranks in the lowest quarter of [1, R]",
        "ranks in the second quarter",
        "ranks in the third quarter",
        "ranks in the highest quarter",
    ]),
    headline: 0,
    claims: CLAIMS,
};

/// lmrr's claims: Theorem 2.9 on any leveled network (its c and L are the
/// run's: they depend on the paths), the edge queues' capacity,
/// Theorem 4.2 on the butterfly, §6's O(d·M) on meshes routed on
/// plateaus and §5's bound on the shuffle-exchange.
const CLAIMS: &[Claim] = &[
    Claim {
        name: "Theorem 2.9",
        text: join!(
            "on a leveled network with fixed paths of congestion c and depth L, the rank scheduler with ghosts \
               delivers N packets in O(",
            Formula::CongestionDilationLogN.spelled(),
            ") steps with edge queues of constant size, with high \
               probability (the mesh's four phases: Theorem 3.1; the butterfly's logical network: Theorem 4.1)"
        ),
        scope: Scope::Any,
        permutation: false,
        instance: None,
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::Order,
        formula: Formula::CongestionDilationLogN,
    },
    Claim {
        name: "edge queues ≤ q",
        text: "a node sends a packet on an edge only when that edge's queue holds fewer than q packets, so no \
               edge queue ever holds more than q, whatever the instance and the ranks (§2.2)",
        scope: Scope::Any,
        permutation: false,
        instance: None,
        separated: false,
        policy: None,
        measure: Measure::MaxEdgeQueue,
        strength: Strength::AtMost,
        formula: Formula::EdgeQueueCap,
    },
    Claim {
        name: "Theorem 4.2",
        text: "with high probability an n-input butterfly routes a random permutation from its inputs to its \
               outputs in log n + o(log n) steps (direct paths: the congestion is O(log n / log log n))",
        scope: Scope::ButterflyRandomInputsToOutputs,
        permutation: true,
        instance: None,
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::PlusLowerOrder,
        formula: Formula::LogInputs,
    },
    Claim {
        name: "§6 arrays",
        text: join!(
            "on a d-dimensional array whose largest side is M, d·N packets (every node sending and receiving up \
             to d) are routed in O(",
            Formula::DimsTimesSide.spelled(),
            ") steps with edge queues of constant size, with high probability: the array emulates a leveled \
             network of 2d + 1 plateaus, one dimension corrected per plateau, twice, through a random \
             intermediate (the view of meshes of 3 or more dimensions, and of 2-D meshes with valiant paths; \
             direct paths use its first d + 1 plateaus, once, to the destination)"
        ),
        scope: Scope::MeshPlateaus,
        permutation: false,
        instance: None,
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::Order,
        formula: Formula::DimsTimesSide,
    },
    Claim {
        name: "§5",
        text: join!(
            "on an N-node shuffle-exchange graph any permutation is routed in O(",
            Formula::LogNodes.spelled(),
            ") steps with edge queues of constant size, with high probability: the good labels emulate a leveled \
             network of depth O(log N), and paths through a random good necklace have congestion O(log N)"
        ),
        scope: Scope::ShuffleExchange,
        permutation: true,
        instance: None,
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::Order,
        formula: Formula::LogNodes,
    },
];
