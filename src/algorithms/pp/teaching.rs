//! The teaching text of the Pietracaprina–Pucci family (`pp-rand`, `pp-det`)
//! (see [`crate::algorithms::teaching`]).

use crate::algorithms::claim::{join, Claim, Formula, Measure, Scope, Strength};
use crate::algorithms::teaching::{Classes, PhaseText, Teaching};

/// The (c,c)-routing-by-sorting stages the Pietracaprina–Pucci phases
/// `deal`, `route` and `balance` go through.
const CC: &[PhaseText] = &[
    PhaseText {
        name: "sort",
        text: "sort the packets by the node they are headed for (rounds of compare-exchanges between neighbours, \
               about one step a round), so that the moves that follow never collide",
    },
    PhaseText {
        name: "columns",
        text: "move along the columns to the target row",
    },
    PhaseText {
        name: "rows",
        text: "move along the rows to the target node",
    },
];

const PP_PHASES: &[PhaseText] = &[
    PhaseText {
        name: "colouring",
        text: "every packet gets a colour; the colour classes are routed one after another, so that the packets \
               of one class are few and spread out",
    },
    PhaseText {
        name: "sort",
        text: "this colour's packets are sorted by destination tile (a snake merge sort of compare-exchanges: \
               keys cross, then packets swap, and the next round's keys cross while this round's packets do, \
               so a round costs about one step)",
    },
    PhaseText {
        name: "stripe-balance",
        text: "packets move along their stripe's cycle to the node of their number in the colouring, so that \
               every node holds at most one",
    },
    PhaseText {
        name: "deal",
        text: "the sorted packets are dealt out over the tiles of the tessellation, each tile an equal share",
    },
    PhaseText {
        name: "route",
        text: "packets spread evenly over their destination tile, each to a node fixed by where it stands in the \
               sorted order (no ranks, no second sort)",
    },
    PhaseText {
        name: "tour",
        text: "packets ride their tile's Hamiltonian cycle and drop off at their destinations (delivered)",
    },
    PhaseText {
        name: "shift",
        text: "every tile passes its remaining packets on to the next tile, so each packet visits every tile once \
               over the rounds",
    },
    PhaseText {
        name: "ranks",
        text: "prefix sums number every colour's packets at once (one counter per colour, control messages), to \
               decide in which round each is injected, and tell every node each colour's total: the bucket size \
               of its sort",
    },
    PhaseText {
        name: "inject",
        text: "the packets whose number falls in this round step onto their tile's cycle",
    },
    PhaseText {
        name: "balance-ranks",
        text: "prefix sums number the injected packets of each tile",
    },
    PhaseText {
        name: "balance",
        text: "the injected packets spread evenly over their tile, along the rows and then the columns",
    },
    PhaseText {
        name: "learn ℓ",
        text: "the nodes are not told ℓ and k: counters along the rows and then the columns (control messages) \
               carry the largest number of packets a node sends, so every node learns ℓ",
    },
    PhaseText {
        name: "abort",
        text: "the attempt failed (its time was up, a queue was full, or a class was too big for its guess of k): \
               an abort message floods the mesh; each node it reaches drops the packets in transit and those the \
               attempt delivered, while the sources keep their copies, and the next attempt doubles the guess",
    },
];

const PP_RAND_DESCRIPTION: &str = "Every packet draws a random colour, and the colour classes are routed one \
                                   after another, so that each class is small and well spread. A class is sorted \
                                   by destination tile, dealt out over the tiles of a tessellation of the mesh, and \
                                   moved tile to tile in rounds; in its destination tile a Hamiltonian tour \
                                   delivers it. Every move is a sort, a scan of counters or a shift without \
                                   contention, so no node ever holds more than a few packets — at the price of a \
                                   constant factor in time (6.4–10.6 × √(ℓkN) measured at sides 64–256 for the six (ℓ,k) of \
                                   the docs' figure, up to 14.7 where k/ℓ is 2 or 1/2, whose rounds the tiling \
                                   rounds up to a power of 4; greedy is about 1).";

const PP_DET_DESCRIPTION: &str = "The deterministic version: instead of random colours, counters carried along the \
                                  rows and columns (control messages) rank the packets, and the ranks give every \
                                  packet a colour so that each class is small and well spread. Each class is then \
                                  sorted by destination tile, dealt out over the tiles of a tessellation, moved \
                                  tile to tile in rounds and delivered by a Hamiltonian tour of its destination \
                                  tile. No node ever holds more than a few packets — at the price of a \
                                  constant factor in time (6.4–12.4 × √(ℓkN) measured at sides 64–256 for the six (ℓ,k) \
                                  of the docs' figure, up to 17.0 where k/ℓ is 2 or 1/2, whose rounds the tiling \
                                  rounds up to a power of 4).";

const PP_CLAIMS: &[Claim] = &[
    Claim {
        name: "the time bound",
        text: "(ℓ,k)-routing in O(√(ℓkN)) steps — the lower bound up to a constant",
        scope: Scope::SquareMesh,
        permutation: false,
        instance: None,
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::Order,
        formula: Formula::SqrtLkn,
    },
    Claim {
        name: "constant queues",
        text: "with working queues of constant size (Theorems 2, 4–6 state no constant: the largest queue is the \
               measured constant; the tests hold this implementation to B = 16)",
        scope: Scope::SquareMesh,
        permutation: false,
        instance: None,
        separated: false,
        policy: None,
        measure: Measure::MaxQueue,
        strength: Strength::Order,
        formula: Formula::Constant(1),
    },
    Claim {
        name: "ℓ and k unknown",
        text: join!(
            "with ℓ and k unknown to the nodes (option unknown-lk, §3): ℓ learned by prefix maxima, k by guesses \
             kᵢ = 1, 2, 4, …, each attempt aborted (a broadcast; the sources keep copies) past 24·√(ℓ·kᵢ·N) steps, \
             on a full queue or on a class above its bucket — all within ",
            Formula::UnknownLkAllowance.spelled(),
            " steps (c = 24, this implementation's abort threshold): O(√(ℓkN)) — §3 gives each attempt a time \
             proportional to √(ℓ·kᵢ·n), no constant, so the constant of the sum is measured"
        ),
        scope: Scope::SquareMesh,
        permutation: false,
        instance: None,
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::Order,
        formula: Formula::UnknownLkAllowance,
    },
];

/// pp-rand.
pub const RAND_TEACHING: Teaching = Teaching {
    description: PP_RAND_DESCRIPTION,
    phases: PP_PHASES,
    classes: Classes::Colours,
    headline: 0,
    claims: PP_CLAIMS,
};

/// pp-det.
pub const DET_TEACHING: Teaching = Teaching {
    description: PP_DET_DESCRIPTION,
    phases: PP_PHASES,
    classes: Classes::Colours,
    headline: 0,
    claims: PP_CLAIMS,
};

/// What a stage of (c,c)-routing by sorting does (`deal sort`, `route columns`, …).
pub fn cc_stage(name: &str) -> Option<&'static str> {
    CC.iter().find(|p| p.name == name).map(|p| p.text)
}
