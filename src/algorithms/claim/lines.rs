//! Kaufmann–Sibeyn §5's one-dimensional lemmas, as formulas of the claim
//! language ([`super::Formula::Line`]): routing on a linear array and on a
//! ring, farthest-first (§5.1.1, §5.2.1), any strategy (§5.1.2, §5.2.2)
//! and cut-through. [`crate::claims`] evaluates them on an instance.
//!
//! The paper's k of the randomization lemmas (3, 5, 8, 11) is the packets
//! each node sends (`random-destinations` sends exactly k from every node;
//! what a node receives is not bounded): the formulas take the most packets
//! any node sends. The cut-through lemmas' k (6, 12) is the worm's flits F.

use serde::Serialize;

/// One of §5's lemmas or corollaries.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineLemma {
    /// Lemma 7 (§5.2.1), ring, farthest-first, exact: T_r = max over arcs
    /// i → j that some packet's path covers of ((j − i) mod n + h_r(i, j)),
    /// h_r(i, j) = the packets whose path covers the arc, minus 1; the
    /// paper prints h_r(i, j) − (j − i) mod n, but its proof (and Lemma 2)
    /// has the sum. Both directions: T = max(T_r, T_l).
    Lemma7,
    /// Lemma 4 (§5.1.2), linear array, any strategy: T_r ≤ max_i {h_r(i) +
    /// n − 1 − i}, h_r(i) = the packets from nodes ≤ i to nodes > i, minus 1
    /// (over the i some packet crosses); mirrored to the left.
    Lemma4,
    /// Lemma 10 (§5.2.2), ring, any strategy: T_r ≤ h_r(i_max) + n/2,
    /// h_r(i) = the packets that leave node i to the right, minus 1, i_max
    /// the node where it is largest.
    Lemma10,
    /// Corollary 3 (§5.2.2), ring, any strategy: a packet waits at most
    /// max_i h(i) steps (the larger of the two directions').
    Corollary3,
    /// Corollary 1 (§5.1.1), linear array, farthest-first: when any m nodes
    /// send and receive at most k·m + α packets, T ≤ max{n − 1, kn/2} + α.
    Corollary1,
    /// Corollary 2 (§5.1.2), the same for any strategy: max{n − 1, kn/2 + n/2} + α.
    Corollary2,
    /// Lemma 3 (§5.1.1), linear array, farthest-first, k random
    /// destinations per node: max{n, kn/4} + O(√(kn log n)).
    Lemma3,
    /// Lemma 5 (§5.1.2), the same with any strategy:
    /// max{n, kn/4 + n/(4k) + n/2} + O(√(kn log n)).
    Lemma5,
    /// Lemma 6 (§5.1.2), one worm of F flits from every node of a linear
    /// array to a random destination: max{n, Fn/4 + n/(4F) + n/2} + O(F·√(n log n)).
    Lemma6,
    /// Lemma 8 (§5.2.1), ring, farthest-first: max{n/2, kn/8} + O(√(kn log n)).
    Lemma8,
    /// Lemma 11 (§5.2.2), ring, any strategy: kn/8 + n/2 + O(√(kn log n)).
    Lemma11,
    /// Lemma 12 (§5.2.2), one worm of F flits from every node of a ring:
    /// Fn/8 + n/2 + O(F·√(n log n)).
    Lemma12,
}

impl LineLemma {
    /// Every lemma, in the order of the enum.
    pub const ALL: [LineLemma; 12] = [
        LineLemma::Lemma7,
        LineLemma::Lemma4,
        LineLemma::Lemma10,
        LineLemma::Corollary3,
        LineLemma::Corollary1,
        LineLemma::Corollary2,
        LineLemma::Lemma3,
        LineLemma::Lemma5,
        LineLemma::Lemma6,
        LineLemma::Lemma8,
        LineLemma::Lemma11,
        LineLemma::Lemma12,
    ];

    /// The formula's one spelling.
    pub const fn text(self) -> &'static str {
        match self {
            LineLemma::Lemma7 => "max over covered arcs i → j of ((j − i) mod n + h(i, j))",
            LineLemma::Lemma4 => "max_i {h(i) + n − 1 − i}",
            LineLemma::Lemma10 => "h(i_max) + n/2",
            LineLemma::Corollary3 => "max_i h(i)",
            LineLemma::Corollary1 => "max{n − 1, kn/2} + α",
            LineLemma::Corollary2 => "max{n − 1, kn/2 + n/2} + α",
            LineLemma::Lemma3 => "max{n, kn/4}",
            LineLemma::Lemma5 => "max{n, kn/4 + n/(4k) + n/2}",
            LineLemma::Lemma6 => "max{n, Fn/4 + n/(4F) + n/2}",
            LineLemma::Lemma8 => "max{n/2, kn/8}",
            LineLemma::Lemma11 => "kn/8 + n/2",
            LineLemma::Lemma12 => "Fn/8 + n/2",
        }
    }

    /// Whether the lemma is about cut-through worms (`--flits F`, F > 1,
    /// one worm from every node): its k is F.
    pub const fn cut_through(self) -> bool {
        matches!(self, LineLemma::Lemma6 | LineLemma::Lemma12)
    }

    /// Whether the lemma is on a ring (else on a linear array).
    pub const fn ring(self) -> bool {
        matches!(
            self,
            LineLemma::Lemma7
                | LineLemma::Lemma10
                | LineLemma::Corollary3
                | LineLemma::Lemma8
                | LineLemma::Lemma11
                | LineLemma::Lemma12
        )
    }
}
