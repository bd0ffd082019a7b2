//! The teaching texts of LevelRoute (`ks-level`, §6) and LocalRoute
//! (`ks-local`, §9.1) of Kaufmann–Sibeyn.

use super::{Claim, Classes, Formula, Measure, PhaseText, Scope, Strength, Teaching};
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
    ],
    classes: Classes::Colours,
    claims: &[
        Claim {
            name: "Corollary 4",
            text: "LevelRoute routes k-permutations (k even) with (k/2 + 1)·(n + ε + O(√(n log n))) steps, with very \
                   high probability",
            scope: Scope::SquareMesh,
            permutation: false,
            policy: Some(Policy::FarthestFirst),
            measure: Measure::Steps,
            strength: Strength::PlusLowerOrder,
            formula: Formula::LevelRoute,
        },
        Claim {
            name: "Theorem 1",
            text: "for k ≥ 4n/ε the improved version routes k-permutations with (k + 1)/2·n + k/8·ε + k·O(√(n log n)) \
                   steps, with very high probability",
            scope: Scope::SquareMesh,
            permutation: false,
            policy: Some(Policy::FarthestFirst),
            measure: Measure::Steps,
            strength: Strength::PlusLowerOrder,
            formula: Formula::LevelRouteImproved,
        },
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
                  that all move L right and L up.",
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
            text: "every packet moves along one axis to its destination's coordinate, at most about 1.5·L; the \
                   colours use different axes at once",
        },
        PhaseText {
            name: "phase3-route",
            text: "every packet moves along its next axis to its destination's coordinate",
        },
        PhaseText {
            name: "phase4-route",
            text: "every packet moves along its next axis to its destination's coordinate",
        },
        PhaseText {
            name: "phase5-route",
            text: "every packet moves along its next axis to its destination's coordinate",
        },
    ],
    classes: Classes::Colours,
    claims: &[
        Claim {
            name: "Theorem 13",
            text: "k-k routing with locality L on a torus takes max{5L/2, kL} + max{L/2, kL/16} + O(√(kL log n)) \
                   steps, with very high probability (Corollary 6: 17/16·kL + … for k ≥ 8)",
            scope: Scope::Torus2d,
            permutation: false,
            policy: Some(Policy::FarthestFirst),
            measure: Measure::Steps,
            strength: Strength::PlusLowerOrder,
            formula: Formula::LocalTorus,
        },
        Claim {
            name: "Theorem 14",
            text: "k-k routing with locality L on a mesh takes max{L, kL/8} + max{2L, kL} + O(√(kL log n)) steps, \
                   with very high probability",
            scope: Scope::Mesh2d,
            permutation: false,
            policy: Some(Policy::FarthestFirst),
            measure: Measure::Steps,
            strength: Strength::PlusLowerOrder,
            formula: Formula::LocalMesh,
        },
    ],
};
