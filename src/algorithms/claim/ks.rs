//! Kaufmann–Sibeyn's theorems ([`KsTheorem`]) and per-phase lemmas
//! ([`KsLemma`]) in the claim language: main terms, one spelling each.

use super::LineLemma;
use serde::Serialize;

/// The Kaufmann–Sibeyn theorems on k-k routing (main terms; each holds
/// with an additive term of its own, e.g. O(√(k·n·log n)), O(d·√(k·n·log
/// n)) in d dimensions, O(√(k·L·log n)) with locality L).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KsTheorem {
    /// Theorem 2 (§7.1), NoWrapRoute on an n×n mesh, farthest-first:
    /// max{3n, 2n + kn/4, kn/2}.
    Theorem2,
    /// Theorem 3 (§7.2), NoWrapRoute, any strategy: max{3n, kn/2 + n/k + 3n/2}.
    Theorem3,
    /// Theorem 4 (§7.3), NoWrapRoute(d): max{(2d − 1)n, kn/2}.
    Theorem4,
    /// Theorem 7 (§8.1), WrapRoute on an n×n torus: max{2n, kn/4}.
    Theorem7,
    /// Theorem 8 (§8.1), WrapRoute on an n×n mesh: max{4n, kn/2}.
    Theorem8,
    /// Theorem 9 (§8.2), WrapRoute on the torus, any strategy: kn/4 + 2n.
    Theorem9,
    /// Theorem 11 (§8.3), WrapRoute(d) on the d-dimensional torus: max{2dn, kn/4}.
    Theorem11,
    /// Corollary 5 (§7.2), NoWrapRoute routing a permutation of worms of F
    /// flits (cut-through) on the n×n mesh: max{3n, Fn/2 + n/F + 3n/2}.
    Corollary5,
    /// Theorem 5 (§7.3), NoWrapRoute(d) with worms of F flits:
    /// max{(2d − 1)n, Fn/2 + (d − 1)n/F + (d − 1/2)n}.
    Theorem5,
    /// Theorem 10 (§8.2), worms of F flits on the n×n torus: Fn/4 + 2n
    /// (the paper names NoWrapRoute; §8.2 is WrapRoute's).
    Theorem10,
    /// Theorem 12 (§8.3), WrapRoute(d) with worms of F flits: Fn/2 + dn.
    Theorem12,
    /// Corollary 4 (§6), LevelRoute on an n×n mesh: (k/2 + 1)·(n + ε) plus
    /// (k/2 + 1)·O(√(n log n)).
    Corollary4,
    /// Theorem 1 (§6), LevelRoute's improved version, for k ≥ 4n/ε:
    /// (k + 1)/2·n + k/8·ε plus k·O(√(n log n)).
    Theorem1,
    /// Theorem 13 (§9.1), LocalRoute on a torus, L known: max{5L/2, kL} +
    /// max{L/2, kL/16} plus O(√(kL log n)).
    Theorem13,
    /// Theorem 14 (§9.1), NoWrapRoute′ on a mesh, L known: max{L, kL/8} +
    /// max{2L, kL} plus O(√(kL log n)).
    Theorem14,
    /// Theorem 15 (§9.2), NoLRoute on an n×n torus, L unknown (the
    /// instance's locality): max{n, kL/16} + kL plus O(√((n + kL) log n)).
    Theorem15,
    /// Corollary 6 (§9.1), LocalRoute on a torus, L known, for k ≥ 8:
    /// 17/16·kL plus O(√(kL log n)) (Theorem 13's main term for k ≥ 8).
    Corollary6,
    /// §8's opening remark: NoWrapRoute used directly on the n×n torus
    /// routes k-permutations in 3kn/8 plus O(√(kn log n)).
    NoWrapOnTorus,
    /// §7.4, average case: NoWrapRoute(d) without its randomizing phases
    /// (`--no-randomize`) routes random k-permutations on the n × … × n mesh
    /// in kn/4 plus O(d·√(kn log n)), spelled as its d routing phases of
    /// kn/(4d) each.
    NoWrapNoRandomize,
    /// §7.4, average case: NoWrapRoute(d) routes random k-permutations in
    /// kn/2 − kn/(4d) plus O(d·√(kn log n)): all 2d − 1 phases take
    /// kn/(4d).
    NoWrapAverage,
    /// §8.1's closing remark, average case: WrapRoute on the n × n mesh
    /// routes random k-permutations in kn/2 plus O(√(kn log n)), spelled as
    /// its four phases of kn/8 each (NoWrapRoute: 3kn/8).
    WrapAverage,
    /// Lemma 13 (§6), LevelRoute's step a in every pass: ε plus
    /// O(√(ε log n)).
    Lemma13,
    /// Lemma 14 (§6), LevelRoute's step b in every pass: n plus
    /// O(√(n log n)).
    Lemma14,
    /// Lemma 15 (§6.1.1), steps a′ and b′ of each pass 2 … k/2 with
    /// superior regions, ε ≤ n/6: n + 4ε²/n as printed; the proof carries
    /// a term O(√(n log n)), whose constant is measured (as Lemmas 13 and
    /// 14's).
    Lemma15,
}

impl KsTheorem {
    /// Every theorem, in the order of the enum.
    pub const ALL: [KsTheorem; 24] = [
        KsTheorem::Theorem2,
        KsTheorem::Theorem3,
        KsTheorem::Theorem4,
        KsTheorem::Theorem7,
        KsTheorem::Theorem8,
        KsTheorem::Theorem9,
        KsTheorem::Theorem11,
        KsTheorem::Corollary5,
        KsTheorem::Theorem5,
        KsTheorem::Theorem10,
        KsTheorem::Theorem12,
        KsTheorem::Corollary4,
        KsTheorem::Theorem1,
        KsTheorem::Theorem13,
        KsTheorem::Theorem14,
        KsTheorem::Theorem15,
        KsTheorem::Corollary6,
        KsTheorem::NoWrapOnTorus,
        KsTheorem::NoWrapNoRandomize,
        KsTheorem::NoWrapAverage,
        KsTheorem::WrapAverage,
        KsTheorem::Lemma13,
        KsTheorem::Lemma14,
        KsTheorem::Lemma15,
    ];

    /// The theorem's main term, its one spelling: [`crate::claims`] shows
    /// it beside its value and the families' texts join it in with
    /// [`join!`](crate::algorithms::claim::join).
    pub const fn text(self) -> &'static str {
        match self {
            KsTheorem::Theorem2 => "max{3n, 2n + kn/4, kn/2}",
            KsTheorem::Theorem3 => "max{3n, kn/2 + n/k + 3n/2}",
            KsTheorem::Theorem4 => "max{(2d − 1)n, kn/2}",
            KsTheorem::Theorem7 => "max{2n, kn/4}",
            KsTheorem::Theorem8 => "max{4n, kn/2}",
            KsTheorem::Theorem9 => "kn/4 + 2n",
            KsTheorem::Theorem11 => "max{2dn, kn/4}",
            KsTheorem::Corollary5 => "max{3n, Fn/2 + n/F + 3n/2}",
            KsTheorem::Theorem5 => "max{(2d − 1)n, Fn/2 + (d − 1)n/F + (d − 1/2)n}",
            KsTheorem::Theorem10 => "Fn/4 + 2n",
            KsTheorem::Theorem12 => "Fn/2 + dn",
            KsTheorem::Corollary4 => "(k/2 + 1)·(n + ε)",
            KsTheorem::Theorem1 => "(k + 1)/2·n + k/8·ε",
            KsTheorem::Theorem13 => "max{5L/2, kL} + max{L/2, kL/16}",
            KsTheorem::Theorem14 => "max{L, kL/8} + max{2L, kL}",
            KsTheorem::Theorem15 => "max{n, kL/16} + kL",
            KsTheorem::Corollary6 => "17/16·kL",
            KsTheorem::NoWrapOnTorus => "3kn/8",
            KsTheorem::NoWrapNoRandomize => "d·kn/(4d)",
            KsTheorem::NoWrapAverage => "(2d − 1)·kn/(4d)",
            KsTheorem::WrapAverage => "4·kn/8",
            KsTheorem::Lemma13 => "ε",
            KsTheorem::Lemma14 => "n",
            KsTheorem::Lemma15 => "n + 4ε²/n",
        }
    }

    /// For the locality theorems: whether the nodes know L (Theorems 13
    /// and 14: `--locality L` or the instance's own) or estimate it
    /// (Theorem 15: `--locality unknown`); `None` for the others.
    pub const fn locality_known(self) -> Option<bool> {
        match self {
            KsTheorem::Theorem13 | KsTheorem::Theorem14 | KsTheorem::Corollary6 => Some(true),
            KsTheorem::Theorem15 => Some(false),
            _ => None,
        }
    }

    /// Whether the theorem is about the average case: random
    /// k-permutations (the workloads `random-kk` and `random-permutation`)
    /// only, never a worst-case instance.
    pub const fn average(self) -> bool {
        matches!(
            self,
            KsTheorem::NoWrapNoRandomize | KsTheorem::NoWrapAverage | KsTheorem::WrapAverage
        )
    }

    /// Whether its additive term is O(d·√(…)) (the theorems of d
    /// dimensions), its unit d times the 2-D one's.
    pub const fn d_unit(self) -> bool {
        matches!(
            self,
            KsTheorem::Theorem4
                | KsTheorem::Theorem11
                | KsTheorem::Theorem5
                | KsTheorem::Theorem12
                | KsTheorem::NoWrapNoRandomize
                | KsTheorem::NoWrapAverage
        )
    }

    /// The least k the theorem is stated for (Corollary 6: k ≥ 8), if any.
    pub const fn min_k(self) -> Option<u32> {
        match self {
            KsTheorem::Corollary6 => Some(8),
            _ => None,
        }
    }

    /// Whether the theorem is about cut-through worms (`--flits F`, F > 1):
    /// its k is F, its additive term O(F·√(n log n)).
    pub const fn cut_through(self) -> bool {
        matches!(
            self,
            KsTheorem::Corollary5 | KsTheorem::Theorem5 | KsTheorem::Theorem10 | KsTheorem::Theorem12
        )
    }
}

/// The main terms of Kaufmann–Sibeyn's per-phase lemmas, one variant per
/// formula (n the side, d the dimension, k the most packets a node sends
/// or receives, L the locality), each with an additive O(√(k·n·log n))
/// (§7, §8) or O(√(k·L·log n)) (§9). Lemmas 16–25 are stated for the
/// coloured algorithms (each colour carries k/d packets per node); §9's
/// Lemmas 26–29 for the uniaxial LocalRoute with k packets per node, so on
/// `ks-local`, whose two colours carry k/2 each (Theorem 13 sums the
/// lemmas so), they are evaluated with k/2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KsLemma {
    /// Lemmas 16 and 18 (§7.1): NoWrapRoute's phases 1 and 3,
    /// farthest-first: max{n, kn/8}.
    NoWrapOuter,
    /// Lemma 17: NoWrapRoute's phase 2, farthest-first: max{n, kn/4}.
    NoWrapMiddle,
    /// Lemma 20 (§7.2): phases 1 and 3, any strategy:
    /// max{n, kn/8 + n/(2k) + n/2}.
    NoWrapOuterAny,
    /// Lemma 21: phase 2, any strategy: max{n, kn/4 + n/2}.
    NoWrapMiddleAny,
    /// Lemma 22 (§7.3): phases 1 … d − 1 and d + 1 … 2d − 1 of
    /// NoWrapRoute(d): max{n, kn/(4d)}.
    PerDimension,
    /// Lemma 25 (§8.3): every phase of WrapRoute(d), as its proof derives
    /// it — Lemma 8 on a ring loaded k/d: max{n, kn/(8d)}. The paper
    /// prints kn/(4d), which its Theorems 7 and 11 contradict: their 2d
    /// such phases add up to kn/4, not kn/2.
    WrapPerDimension,
    /// Lemma 23: phase d of NoWrapRoute(d): max{n, kn/(2d)}.
    NoWrapRouteFirst,
    /// Lemma 26 (§9.1), per colour (k/2 packets per node): LocalRoute's
    /// phase 1, max{L/2, (k/2)·L/8} (Theorem 13's second term).
    LocalFirst,
    /// Lemma 27, per colour: the packets over one connection in phase 2, (k/2)·L.
    LocalLinkLoad,
    /// Lemma 28, per colour: phase 2, (k/2)·L, and at least L, the longest
    /// move (the proof's "the maximum distance packets go is L").
    LocalSecond,
    /// Lemma 29, per colour: phase 3, max{3L/2, (k/2)·L}.
    LocalThird,
}

impl KsLemma {
    /// The lemma's main term, its one spelling.
    pub const fn text(self) -> &'static str {
        match self {
            KsLemma::NoWrapOuter => "max{n, kn/8}",
            // Lemma 17 has §5's Lemma 3 main term: one spelling.
            KsLemma::NoWrapMiddle => LineLemma::Lemma3.text(),
            KsLemma::NoWrapOuterAny => "max{n, kn/8 + n/(2k) + n/2}",
            KsLemma::NoWrapMiddleAny => "max{n, kn/4 + n/2}",
            KsLemma::PerDimension => "max{n, kn/(4d)}",
            KsLemma::WrapPerDimension => "max{n, kn/(8d)}",
            KsLemma::NoWrapRouteFirst => "max{n, kn/(2d)}",
            KsLemma::LocalFirst => "max{L/2, k/2·L/8}",
            KsLemma::LocalLinkLoad => "(k/2)·L",
            KsLemma::LocalSecond => "max{L, k/2·L}",
            KsLemma::LocalThird => "max{3L/2, k/2·L}",
        }
    }

    /// Whether it is one of §9's locality lemmas (a torus, L known to the
    /// nodes, PUs at least L from a boundary).
    pub const fn locality(self) -> bool {
        matches!(
            self,
            KsLemma::LocalFirst | KsLemma::LocalLinkLoad | KsLemma::LocalSecond | KsLemma::LocalThird
        )
    }
}
