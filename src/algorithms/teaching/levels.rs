//! The teaching texts of LevelRoute (`ks-level`, §6) and LocalRoute
//! (`ks-local`, §9.1) of Kaufmann–Sibeyn.

use super::{Classes, PhaseText, Teaching};
use super::{KS_COALESCED, KS_NEXT_ROUTES};
use crate::algorithms::claim::{ks_claim, KsTheorem, Scope};
use crate::engine::Policy;

/// ks-level.
pub const KS_LEVEL: Teaching = Teaching {
    description: "A k-k routing in k/2 rounds: every packet draws a level from 1 to k/2 and a colour, green or \
                  blue. In pass l the green packets of level l first spread out inside their strip of ε rows \
                  (a random row of their column, close by), then move along the row to their destination column, \
                  while the green packets of level l − 1 move down or up their column to their destination. Blue \
                  packets do the same 90° out of phase. Each pass routes about one permutation per colour in \
                  about n steps, so the whole takes about (k/2 + 1)·(n + ε) — simple, but k·n/2 + n, not the \
                  bisection bound k·n/2 that NoWrapRoute reaches. When k·ε ≥ 4n the improved version randomizes \
                  all levels together at the start, the highest ones in the spare capacity of pass 1.",
    phases: &[
        PhaseText {
            name: "randomize",
            text: "the packets of every level move inside their strip of ε rows (green) or columns (blue) to a random \
                   row or column, all levels together (the improved version of Theorem 1)",
        },
        PhaseText {
            name: "route",
            text: "this pass's level moves along the row (green) or column (blue) to its destination's column or row, \
                   while the previous level moves along the column (green) or row (blue) to its destination",
        },
        KS_COALESCED,
    ],
    classes: Classes::Colours,
    claims: &[
        ks_claim(
            "Corollary 4",
            "LevelRoute routes k-permutations (k even) with (k/2 + 1)·(n + ε + O(√(n log n))) steps, with very \
             high probability",
            Scope::SquareMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::Corollary4,
        ),
        ks_claim(
            "Theorem 1",
            "for k ≥ 4n/ε the improved version routes k-permutations with (k + 1)/2·n + k/8·ε + k·O(√(n log n)) \
             steps, with very high probability",
            Scope::SquareMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem1,
        ),
    ],
};

/// ks-local.
pub const KS_LOCAL: Teaching = Teaching {
    description: "When no packet has to move more than L along a row or a column (locality L), routing should \
                  take about k·L steps, not k·n. Every packet gets a random colour. A green packet first moves \
                  to a random row near its own (within L/2 on a torus; inside its strip of L rows on a mesh), \
                  then along that row to its destination column, then along the column to its destination; blue \
                  packets do the same 90° out of phase. The short randomization keeps every link's load near \
                  k·L/2 per colour, whatever the pattern, so the time is about k·L — the lower bound for packets \
                  that all move L right and L up. When the nodes are not told L (NoLRoute, on a torus), they \
                  first agree on an estimate with small information packets while the packets already spread out \
                  within 8n/k, and spread further only if the estimate asks for it.",
    phases: &[
        PhaseText {
            name: "phase1-randomize",
            text: "every packet moves along one axis (its colour's first) to a random position near its own: within \
                   L/2 on a torus, inside its strip of L on a mesh",
        },
        PhaseText {
            name: "phase2-randomize",
            text: "every packet moves along its colour's next axis to a random position near its own",
        },
        PhaseText {
            name: "phase2-route",
            text: ks_first_route!(", at most about 1.5·L"),
        },
        KS_NEXT_ROUTES[0],
        KS_NEXT_ROUTES[1],
        KS_NEXT_ROUTES[2],
        KS_COALESCED,
        PhaseText {
            name: "phase1ab-randomize",
            text: "L unknown (NoLRoute): every node sends the largest move of its packets, rounded down to a power of \
                   two, to its four neighbours; a node that hears a larger one adopts it and passes it on (information \
                   packets, first on every link). Meanwhile every packet moves along its colour's first axis to a \
                   random position within 8n/k of its own. After step n every node knows the same estimate L′, the \
                   power of two in (L/2, L]",
        },
        PhaseText {
            name: "phase1d-randomize",
            text: "L unknown, and L′/2 larger than 8n/k: every packet stretches its random offset by L′k/(16n), so it \
                   ends within L′/2 of its own position, as with L known",
        },
    ],
    classes: Classes::Colours,
    claims: &[
        ks_claim(
            "Theorem 13",
            "k-k routing with locality L on a torus takes max{5L/2, kL} + max{L/2, kL/16} + O(√(kL log n)) \
             steps, with very high probability (Corollary 6: 17/16·kL + … for k ≥ 8)",
            Scope::Torus2d,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem13,
        ),
        ks_claim(
            "Theorem 14",
            "k-k routing with locality L on a mesh takes max{L, kL/8} + max{2L, kL} + O(√(kL log n)) steps, \
             with very high probability",
            Scope::Mesh2d,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem14,
        ),
        ks_claim(
            "Theorem 15",
            "k-k routing with unknown locality L (NoLRoute: the nodes estimate it) on an n×n torus takes \
             max{n, kL/16} + kL + O(√((n + kL) log n)) steps, with very high probability",
            Scope::SquareTorus,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem15,
        ),
    ],
};
