//! What each registry entry says beyond its one-line summary — a
//! description in plain words, what each of its phases does, what its packet
//! classes are, and the claims of its paper as data — so that `routesim
//! list --json`, the docs and the page's explanations read one text.
//! [`crate::explain`] evaluates the claims on an instance and says where a
//! run stands against them.

use super::claim::{ks_claim, Claim, Formula, KsTheorem, Measure, Scope, Strength};
use crate::engine::Policy;
use serde::Serialize;

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

mod levels;
pub use levels::{KS_LEVEL, KS_LOCAL};

/// The teaching text of one algorithm.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Teaching {
    /// What the algorithm does, in a few plain sentences.
    pub description: &'static str,
    /// What each phase (as the report names it) does. Names of the
    /// Pietracaprina–Pucci family carry a colour `c<j>` and a round `r<i>`
    /// before the key listed here (`c0 r1 route columns` → `route columns`).
    pub phases: &'static [PhaseText],
    /// The classes its packets are drawn in.
    pub classes: Classes,
    /// The claims of its paper, evaluated per instance by [`crate::explain`].
    pub claims: &'static [Claim],
}

/// One phase of an algorithm, by its report name.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PhaseText {
    /// The phase's name in the report (without colour and round).
    pub name: &'static str,
    /// What happens in it.
    pub text: &'static str,
}

/// What a packet's class (the engine's `classes`, the page's packet colour) means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "names")]
pub enum Classes {
    /// Class i is `names[i]`.
    Named(&'static [&'static str]),
    /// The class is the packet's colour class (its number).
    Colours,
}

const ROUTE_LINE: &str = "packets move along their row, then along their column, one link per step; \
                          where several want the same link, the policy picks one and the others wait";

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

/// greedy.
pub const GREEDY: Teaching = Teaching {
    description: "Each packet first travels along its row until it reaches its destination's column, then along \
                  that column to its destination (in more dimensions, one coordinate after another). Nothing is \
                  planned ahead: when packets want the same link in the same step, the contention policy lets one \
                  through and the others wait in the node's queue.",
    phases: &[PhaseText {
        name: "route",
        text: ROUTE_LINE,
    }],
    classes: Classes::Named(&["packet"]),
    claims: &[
        Claim {
            name: "Lemma 2",
            text: "on a linear array, farthest-first routing takes exactly T = max over i < j of (j − i + h(i, j)) \
                   steps, h(i, j) = the packets from nodes ≤ i to nodes ≥ j, minus 1 (and the same to the left)",
            scope: Scope::LinearArray,
            permutation: false,
            separated: false,
            policy: Some(Policy::FarthestFirst),
            measure: Measure::Steps,
            strength: Strength::Exact,
            formula: Formula::Lemma2,
        },
        Claim {
            name: "the 2n − 2 bound",
            text: "with farthest-first, any permutation of an n × n mesh is routed in at most 2n − 2 steps, the \
                   diameter — optimal in time, but queues can grow to about 2n/3",
            scope: Scope::SquareMesh,
            permutation: true,
            separated: false,
            policy: Some(Policy::FarthestFirst),
            measure: Measure::Steps,
            strength: Strength::AtMost,
            formula: Formula::MeshDiameter,
        },
    ],
};

/// bit-fixing.
pub const BIT_FIXING: Teaching = Teaching {
    description: "A packet compares its address with its destination's, bit by bit from the most significant, and \
                  crosses the hypercube link of the first bit that differs; after as many hops as there are \
                  differing bits it has arrived. Alone, a packet is never faster. Together, packets can pile up: \
                  on the transpose, all packets whose destinations share the high bits pass through one node.",
    phases: &[PhaseText {
        name: "route",
        text: "each packet fixes its differing bits, most significant first, one hop per bit; \
               where several want the same link, the policy picks one",
    }],
    classes: Classes::Named(&["packet"]),
    claims: &[Claim {
        name: "the oblivious lower bound",
        text: "any deterministic oblivious scheme — bit fixing among them — has permutations (the transpose) that \
               need Ω(√(N/D)) steps",
        scope: Scope::Hypercube,
        permutation: true,
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::Omega,
        formula: Formula::SqrtNOverD,
    }],
};

/// valiant.
pub const VALIANT: Teaching = Teaching {
    description: "Every packet first goes to a node chosen uniformly at random, then on to its real destination, \
                  each leg by the base route (bit fixing on the hypercube, row then column on grids). The random \
                  detour turns any permutation — even the worst — into two random ones, on which queues stay \
                  short. It costs about twice the distance.",
    phases: &[
        PhaseText {
            name: "phase1-random-intermediate",
            text: "every packet travels to its own random intermediate node",
        },
        PhaseText {
            name: "phase2-destination",
            text: "after a barrier, every packet travels from its intermediate node to its destination",
        },
        PhaseText {
            name: "pipelined",
            text: "no barrier: each packet heads for its destination as soon as it reaches its intermediate node",
        },
    ],
    classes: Classes::Named(&["phase 1: to a random node", "phase 2: to the destination"]),
    claims: &[Claim {
        name: "the 8D bound",
        text: "on the hypercube each phase delivers every packet to its target within 4D steps with probability at \
               least 1 − 2^(−1.5D), so every packet arrives within 8D steps with high probability (at least \
               1 − 2·2^(−1.5D))",
        scope: Scope::Hypercube,
        permutation: true,
        separated: true,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::AtMostWhp,
        formula: Formula::EightD,
    }],
};

/// rand-interval.
pub const RAND_INTERVAL: Teaching = Teaching {
    description: "Every column is cut into about log₂ n intervals. A packet first moves, inside its column, to a \
                  random row of its interval; then along that row to its destination column; then along the column \
                  to its destination. The random first move spreads the packets that want the same column over \
                  many rows, so queues stay small.",
    phases: &[
        PhaseText {
            name: "randomize-in-interval",
            text: "every packet moves inside its column to a random row of its interval",
        },
        PhaseText {
            name: "route-row",
            text: "along the row to the destination column",
        },
        PhaseText {
            name: "route-column",
            text: "along the destination column to the destination row",
        },
        PhaseText {
            name: "pipelined",
            text: "no barriers: each packet starts its next phase as soon as it finishes the current one",
        },
    ],
    classes: Classes::Named(&[
        "phase 1: to a random row",
        "phase 2: along the row",
        "phase 3: along the column",
    ]),
    claims: &[
        Claim {
            name: "the time bound",
            text: "any permutation of an n × n mesh in 2n + o(n) steps with probability at least 1 − O(1/n²), \
                   contention settled farthest-first",
            scope: Scope::SquareMesh,
            permutation: true,
            separated: false,
            policy: Some(Policy::FarthestFirst),
            measure: Measure::Steps,
            strength: Strength::PlusLowerOrder,
            formula: Formula::TwoSide,
        },
        Claim {
            name: "the queue bound",
            text: "with queues of O(log n) packets, contention settled farthest-first",
            scope: Scope::SquareMesh,
            permutation: true,
            separated: false,
            policy: Some(Policy::FarthestFirst),
            measure: Measure::MaxQueue,
            strength: Strength::Order,
            formula: Formula::LogSide,
        },
    ],
};

/// offline.
pub const OFFLINE: Teaching = Teaching {
    description: "The whole permutation is known in advance. Hall's matching theorem splits it so that after each \
                  column permutes its packets, no row holds two packets for the same column; then every row routes \
                  its packets to their columns and every column to their rows, each a conflict-free permutation of a \
                  line. The planning is done off-line and not charged.",
    phases: &[
        PhaseText {
            name: "permute-columns",
            text: "each column permutes its packets so that no row holds two packets for the same column \
                   (the permutation comes from a perfect matching)",
        },
        PhaseText {
            name: "route-row",
            text: "along the row to the destination column: no two packets of a row want the same column",
        },
        PhaseText {
            name: "route-column",
            text: "along the destination column to the destination row",
        },
        PhaseText {
            name: "pipelined",
            text: "no barriers: each packet starts its next phase as soon as it finishes the current one",
        },
    ],
    classes: Classes::Named(&[
        "phase 1: within the column",
        "phase 2: along the row",
        "phase 3: along the column",
    ]),
    claims: &[
        Claim {
            name: "the 3n − 3 bound",
            text: "any permutation of an n × n mesh in at most 3n − 3 steps (three line permutations)",
            scope: Scope::Mesh2d,
            permutation: true,
            separated: true,
            policy: None,
            measure: Measure::Steps,
            strength: Strength::AtMost,
            formula: Formula::ThreeLines,
        },
        Claim {
            name: "the queue bound",
            text: "with no queue above 3 packets",
            scope: Scope::Mesh2d,
            permutation: true,
            separated: true,
            policy: None,
            measure: Measure::MaxQueue,
            strength: Strength::AtMost,
            formula: Formula::Constant(3),
        },
    ],
};

/// sort-route.
pub const SORT_ROUTE: Teaching = Teaching {
    description: "The packets are first sorted by destination column into column-major snake order, by \
                  compare-exchanges between neighbours (no node ever holds more than its own packets). Every second \
                  column is then reversed; after that no row holds two packets for the same column, so rows and then \
                  columns route without any contention. On-line and with no buffers — but the sort takes most of \
                  the time.",
    phases: &[
        PhaseText {
            name: "sort-column-major-snake",
            text: "sort the packets by destination column into column-major snake order: in each round neighbours \
                   exchange keys and then swap their packets if out of order, while the next round's keys cross \
                   on other links — about one step a round, 7n − 9 − log₂ n steps in all",
        },
        PhaseText {
            name: "reverse-odd-columns",
            text: "every second column is reversed, giving column-major order",
        },
        PhaseText {
            name: "route-row",
            text: "along the row to the destination column, without contention",
        },
        PhaseText {
            name: "route-column",
            text: "along the destination column to the destination row, without contention",
        },
        PhaseText {
            name: "pipelined",
            text: "no barriers: each packet starts its next phase as soon as it finishes the current one",
        },
    ],
    classes: Classes::Named(&[
        "sorting, then reversing the column",
        "along the row",
        "along the column",
    ]),
    claims: &[
        Claim {
            name: "the routing phases",
            text: "after the sort, three line permutations of at most n − 1 steps each",
            scope: Scope::SquareMesh,
            permutation: true,
            separated: true,
            policy: None,
            measure: Measure::StepsAfter(super::sort_route::SORT_PHASE),
            strength: Strength::AtMost,
            formula: Formula::ThreeLines,
        },
        Claim {
            name: "no buffers",
            text: "no auxiliary buffers: no queue above 3 packets",
            scope: Scope::SquareMesh,
            permutation: true,
            separated: true,
            policy: None,
            measure: Measure::MaxQueue,
            strength: Strength::AtMost,
            formula: Formula::Constant(3),
        },
    ],
};

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
];

const PP_RAND_DESCRIPTION: &str = "Every packet draws a random colour, and the colour classes are routed one \
                                   after another, so that each class is small and well spread. A class is sorted \
                                   by destination tile, dealt out over the tiles of a tessellation of the mesh, and \
                                   moved tile to tile in rounds; in its destination tile a Hamiltonian tour \
                                   delivers it. Every move is a sort, a scan of counters or a shift without \
                                   contention, so no node ever holds more than a few packets — at the price of a \
                                   constant factor in time (6.4–10.6 × √(ℓkN) measured at sides 64–256, where greedy is about 1).";

const PP_DET_DESCRIPTION: &str = "The deterministic version: instead of random colours, counters carried along the \
                                  rows and columns (control messages) rank the packets, and the ranks give every \
                                  packet a colour so that each class is small and well spread. Each class is then \
                                  sorted by destination tile, dealt out over the tiles of a tessellation, moved \
                                  tile to tile in rounds and delivered by a Hamiltonian tour of its destination \
                                  tile. No node ever holds more than a few packets — at the price of a \
                                  constant factor in time (6.4–12.4 × √(ℓkN) measured at sides 64–256).";

const PP_CLAIMS: &[Claim] = &[
    Claim {
        name: "the time bound",
        text: "(ℓ,k)-routing in O(√(ℓkN)) steps — the lower bound up to a constant",
        scope: Scope::SquareMesh,
        permutation: false,
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::Order,
        formula: Formula::SqrtLkn,
    },
    Claim {
        name: "constant queues",
        text: "with working queues of constant size (this implementation is held to QUEUE_BOUND)",
        scope: Scope::SquareMesh,
        permutation: false,
        separated: false,
        policy: None,
        measure: Measure::MaxQueue,
        strength: Strength::AtMost,
        formula: Formula::QueueBound,
    },
];

/// pp-rand.
pub const PP_RAND: Teaching = Teaching {
    description: PP_RAND_DESCRIPTION,
    phases: PP_PHASES,
    classes: Classes::Colours,
    claims: PP_CLAIMS,
};

/// pp-det.
pub const PP_DET: Teaching = Teaching {
    description: PP_DET_DESCRIPTION,
    phases: PP_PHASES,
    classes: Classes::Colours,
    claims: PP_CLAIMS,
};

/// What a stage of (c,c)-routing by sorting does (`deal sort`, `route columns`, …).
pub fn cc_stage(name: &str) -> Option<&'static str> {
    CC.iter().find(|p| p.name == name).map(|p| p.text)
}

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
    KS_NEXT_ROUTES[0],
    KS_NEXT_ROUTES[1],
    KS_NEXT_ROUTES[2],
    PhaseText {
        name: "phase6-route",
        text: "every packet moves along its last axis to its destination",
    },
    KS_COALESCED,
];

const KS_NEXT_RANDOMIZE: &str = "every packet moves along its colour's next axis to a uniformly random position";

/// The routing phases after the first but the sixth.
pub(super) const KS_NEXT_ROUTES: [PhaseText; 3] = {
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
pub(super) const KS_COALESCED: PhaseText = PhaseText {
    name: "coalesced",
    text: "phases coalesced: a packet starts its next phase as soon as it finishes one; on a link a packet \
           in an earlier phase goes first",
};

/// ks-nowrap.
pub const KS_NOWRAP: Teaching = Teaching {
    description: "Every packet gets a random colour, one per axis (green and blue on a 2-D mesh). A green packet \
                  first moves inside its column to a random row, then along that row to its destination column, \
                  then along the column to its destination; a blue packet does the same 90° out of phase, so \
                  while green packets move vertically blue ones move horizontally and both halves of the links \
                  are busy. Randomizing first spreads k packets per node evenly, so the routing phases meet the \
                  bisection bound kn/2 up to lower-order terms.",
    phases: KS_PHASES,
    classes: Classes::Colours,
    claims: &[
        ks_claim(
            "Theorem 2",
            "NoWrapRoute routes k-permutations on the n×n mesh in max{3n, 2n + kn/4, kn/2} + O(√(kn log n)) \
             steps, with very high probability (farthest-first)",
            Scope::SquareMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem2,
        ),
        ks_claim(
            "Theorem 3",
            "with any contention strategy, NoWrapRoute routes k-permutations on the n×n mesh in \
             max{3n, kn/2 + n/k + 3n/2} + O(√(kn log n)) steps, with very high probability",
            Scope::SquareMesh,
            None,
            KsTheorem::Theorem3,
        ),
        ks_claim(
            "Theorem 4",
            "NoWrapRoute(d) routes k-permutations on the d-dimensional mesh in max{(2d − 1)n, kn/2} + \
             O(d·√(kn log n)) steps, with very high probability (farthest-first)",
            Scope::CubeMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem4,
        ),
        ks_claim(
            "Corollary 5",
            "NoWrapRoute routes a permutation of worms of F flits (cut-through) on the n×n mesh in \
             max{3n, Fn/2 + n/F + 3n/2} + O(F·√(n log n)) steps, with very high probability (any strategy)",
            Scope::SquareMesh,
            None,
            KsTheorem::Corollary5,
        ),
        ks_claim(
            "Theorem 5",
            "NoWrapRoute(d) routes a permutation of worms of F flits on the d-dimensional mesh in \
             max{(2d − 1)n, Fn/2 + (d − 1)n/F + (d − 1/2)n} + O(d·F·√(n log n)) steps, with very high probability",
            Scope::CubeMesh,
            None,
            KsTheorem::Theorem5,
        ),
        KS_SMEAR_CLAIM,
    ],
};

/// Theorem 6 (§7.5): with the packets of m = k·log n adjacent PUs smeared
/// out after every phase, a PU holds k + O(1) packets (for k ≤ n^α; the
/// paper: "in the same way the queue size of all algorithms in this paper
/// can be bounded"). Measured on the packets held when a phase opens —
/// the quantity its proof counts ([`Measure::MaxBarrierLoad`]).
pub(super) const KS_SMEAR_CLAIM: Claim = Claim {
    name: "Theorem 6",
    text: "smearing out the packets of m = k·log n adjacent PUs after each phase (O(m) extra steps) bounds \
           the packets a PU holds to k + O(1), with very high probability, for k ≤ n^α (α < 1)",
    scope: Scope::Any,
    permutation: false,
    separated: false,
    policy: None,
    measure: Measure::MaxBarrierLoad,
    strength: Strength::PlusConstant,
    formula: Formula::PacketsPerNode,
};

/// ks-wrap.
pub const KS_WRAP: Teaching = Teaching {
    description: "On the torus, every packet gets a random colour, one per axis. A green packet moves to a random \
                  column along its row, to a random row along its column, then to its destination column and \
                  its destination row; blue packets do the same 90° out of phase. With the wrap-around links the \
                  connection-availability bound is kn/4, and WrapRoute comes within lower-order terms of it.",
    phases: KS_PHASES,
    classes: Classes::Colours,
    claims: &[
        ks_claim(
            "Theorem 7",
            "WrapRoute routes k-permutations on the n×n torus in max{2n, kn/4} + O(√(kn log n)) steps, \
             with very high probability (farthest-first)",
            Scope::SquareTorus,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem7,
        ),
        ks_claim(
            "Theorem 9",
            "with any contention strategy, WrapRoute routes k-permutations on the n×n torus in \
             kn/4 + 2n + O(√(kn log n)) steps, with very high probability",
            Scope::SquareTorus,
            None,
            KsTheorem::Theorem9,
        ),
        ks_claim(
            "Theorem 8",
            "on the n×n mesh without wrap-around, WrapRoute routes k-permutations in max{4n, kn/2} + \
             O(√(kn log n)) steps, with very high probability (farthest-first)",
            Scope::SquareMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem8,
        ),
        ks_claim(
            "Theorem 11",
            "WrapRoute(d) routes k-permutations on the d-dimensional torus in max{2dn, kn/4} + \
             O(d·√(kn log n)) steps, with very high probability (farthest-first)",
            Scope::CubeTorus,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem11,
        ),
        ks_claim(
            "Theorem 10",
            "worms of F flits (cut-through) are routed on the n×n torus in Fn/4 + 2n + O(F·√(n log n)) \
             steps, with very high probability (§8.2, WrapRoute)",
            Scope::SquareTorus,
            None,
            KsTheorem::Theorem10,
        ),
        ks_claim(
            "Theorem 12",
            "WrapRoute(d) routes a permutation of worms of F flits on the d-dimensional torus in \
             Fn/2 + dn + O(d·F·√(n log n)) steps, with very high probability",
            Scope::CubeTorus,
            None,
            KsTheorem::Theorem12,
        ),
        KS_SMEAR_CLAIM,
    ],
};
