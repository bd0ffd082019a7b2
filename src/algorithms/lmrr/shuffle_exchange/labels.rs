//! Good and bad labels of the shuffle-exchange graph (Leighton–Maggs–
//! Ranade–Rao §5.1, §5.2, §5.4), their levels, flip edges, and where each
//! bad label's packet goes.
//!
//! Positions of a label are counted from the left (the most significant
//! bit) from 0. A label is **good** if its cyclic runs of 0s have a unique
//! longest one, of length m ≥ t = ⌊log₂ D⌋ (the paper's log log N, N = 2^D;
//! `docs/algorithms/lmrr.md` argues the rounding). Bad: type 1, no run of t
//! 0s; type 2, two or more longest runs; type 3, the all-0s label (a
//! necklace of one node). A good necklace has D distinct labels; its
//! *representative* (frame) is the rotation that starts with the longest
//! run — the least one — and always ends with a 1. The **level** of a good
//! label is the position, in its representative, of its current bit (its
//! least significant one): x = rotl^(ℓ+1)(rep) is on level ℓ, so a shuffle
//! (rotl) climbs one level and the representative is on level D − 1.

use crate::topology::{Network, ShuffleExchange};

/// Kinds of labels.
pub const GOOD: u8 = 0;
/// Bad, type 1: no run of t 0s.
pub const NO_RUN: u8 = 1;
/// Bad, type 2: two or more longest runs.
pub const TIE: u8 = 2;
/// Bad, type 3: all 0s.
pub const ZERO: u8 = 3;

/// t, the least length of a good label's longest run: ⌊log₂ D⌋, at least 1.
pub fn threshold(dim: u32) -> u32 {
    dim.ilog2().max(1)
}

/// Every label's kind, and a good label's level and longest run.
#[derive(Debug, Clone)]
pub struct Labels {
    /// The graph.
    pub g: ShuffleExchange,
    /// D.
    pub dim: u32,
    /// t.
    pub t: u32,
    kind: Vec<u8>,
    level: Vec<u8>,
    block: Vec<u8>,
    /// The good necklaces' representatives, ascending.
    pub good_reps: Vec<u32>,
}

impl Labels {
    /// Classifies every label of `g`: O(N·D).
    pub fn new(g: &ShuffleExchange) -> Labels {
        let (n, dim) = (g.nodes() as usize, g.dim());
        let t = threshold(dim);
        const UNSET: u8 = u8::MAX;
        let (mut kind, mut level, mut block) = (vec![UNSET; n], vec![0u8; n], vec![0u8; n]);
        let mut good_reps = Vec::new();
        for x in 0..n as u32 {
            if kind[x as usize] != UNSET {
                continue;
            }
            let (rep, _) = g.necklace(x);
            // The least rotation of a label with a 0 and a 1 ends with a 1,
            // so its runs read left to right are the cyclic runs.
            let (mut longest, mut ties, mut run) = (0u32, 0u32, 0u32);
            for p in 0..dim {
                if rep >> (dim - 1 - p) & 1 == 0 {
                    run += 1;
                } else if run > 0 {
                    match run.cmp(&longest) {
                        std::cmp::Ordering::Greater => (longest, ties) = (run, 1),
                        std::cmp::Ordering::Equal => ties += 1,
                        std::cmp::Ordering::Less => {}
                    }
                    run = 0;
                }
            }
            let k = if rep == 0 {
                ZERO
            } else if longest < t {
                NO_RUN
            } else if ties >= 2 {
                TIE
            } else {
                GOOD
            };
            if k == GOOD {
                good_reps.push(rep);
            }
            let mut y = rep;
            for r in 0..dim {
                kind[y as usize] = k;
                level[y as usize] = ((r + dim - 1) % dim) as u8;
                block[y as usize] = longest as u8;
                y = g.rotl(y);
                if y == rep {
                    break;
                }
            }
        }
        good_reps.sort_unstable();
        Labels {
            g: g.clone(),
            dim,
            t,
            kind,
            level,
            block,
            good_reps,
        }
    }

    /// The kind of `x` ([`GOOD`], [`NO_RUN`], [`TIE`], [`ZERO`]).
    pub fn kind(&self, x: u32) -> u8 {
        self.kind[x as usize]
    }

    /// Whether `x` is good.
    pub fn good(&self, x: u32) -> bool {
        self.kind[x as usize] == GOOD
    }

    /// The level of good label `x`.
    pub fn level(&self, x: u32) -> u32 {
        self.level[x as usize] as u32
    }

    /// The length of the longest run of 0s of good label `x`.
    pub fn block(&self, x: u32) -> u32 {
        self.block[x as usize] as u32
    }

    /// The representative of good label `x`.
    pub fn rep(&self, x: u32) -> u32 {
        let k = (self.level(x) + 1) % self.dim;
        self.g.rotl_by(x, (self.dim - k) % self.dim)
    }

    /// The label on level `level` of the necklace whose frame (representative) is `rep`.
    pub fn node(&self, rep: u32, level: u32) -> u32 {
        self.g.rotl_by(rep, (level + 1) % self.dim)
    }

    /// The mask of the first `k` positions (the k most significant bits).
    pub fn top(&self, k: u32) -> u32 {
        if k == 0 {
            0
        } else {
            ((1u32 << k) - 1) << (self.dim - k)
        }
    }

    /// The bit of position `p` (from the left).
    pub fn bit(&self, p: u32) -> u32 {
        1 << (self.dim - 1 - p)
    }

    /// Whether the flip edge rotr(y) → y xor 1 of network A exists: both
    /// ends good and on consecutive levels of one frame (y xor 1 on y's
    /// level, so its representative is y's with the bit at y's level
    /// flipped). It is emulated by the shuffle rotr(y) → y and the exchange
    /// y → y xor 1. §5.2 also leaves out flips of a bit in the leading run
    /// of rotr(y); the level condition alone keeps A leveled, and without
    /// that restriction a frame can be corrected into another one bit by
    /// bit far more often (`docs/algorithms/lmrr.md`). The relation is
    /// symmetric: flip(y) = flip(y xor 1).
    pub fn flip(&self, y: u32) -> bool {
        let z = y ^ 1;
        self.good(y) && self.good(z) && self.level(z) == self.level(y)
    }

    /// Whether A has the path from level 0 of frame `s` to level D − 1 of
    /// frame `t` that corrects the bits in level order: on every level p
    /// the label with t's bits on positions 0..=p and s's after is a good
    /// representative (its longest run unique and first), so the node on
    /// level p of that frame is on level p.
    pub fn corrects(&self, s: u32, t: u32) -> bool {
        (0..self.dim).all(|p| {
            let frame = (t & self.top(p + 1)) | (s & !self.top(p + 1));
            let h = self.node(frame, p);
            self.good(h) && self.level(h) == p
        })
    }

    /// The top of the *merged* leg from frame `x` to frame `i` (both
    /// representatives), the planner's fallback: Z = 0^m′ 1 (X or I) on the
    /// positions after m′, m′ the first position, from the longer of the
    /// two longest runs on, where both X and I have a 1 (the last position
    /// at the latest). Up from X, the label on level p is 0^(p+1) then X's
    /// bits (its leading run contains X's, its other runs are X's) or, from
    /// m′ on, 0^m′ 1, bits that are 0 only where X's are, then X's: every
    /// other run is part of a run of X, shorter than the leading run, so
    /// the label is a good representative on level p; down to I the same
    /// with I's runs. Choosing m′ where both have a 1 also keeps every flip
    /// out of its tail's leading run. Always good, but Z has many 1s: many
    /// packets share it (`docs/algorithms/lmrr.md`).
    pub fn merge(&self, x: u32, i: u32) -> u32 {
        let m = self.block(x).max(self.block(i));
        let both = x & i & !self.top(m);
        // The first such position: the highest set bit of `both`.
        let m = both.leading_zeros() - (32 - self.dim);
        ((x | i) & !self.top(m + 1)) | self.bit(m)
    }

    /// The path of a bad label's packet to its good label (§5.4), as hosts,
    /// and the level (of the phase's hop-leveled network) it starts on:
    /// - type 1: the good label is the representative g = x with its least
    ///   significant bit set and its t most significant bits cleared; the
    ///   packet sets the current bit, then t times shuffles and clears the
    ///   current bit (a branch of the binary tree of g), arriving at
    ///   rotl^t(g), then shuffles j more times, j its rank
    ///   among the type-1 labels of g modulo D, so that a node of g's
    ///   necklace receives at most ⌈2^(t+1)/D⌉ ≤ 2 of them. The all-1s label
    ///   has no shuffle link: it (and 1…10, whose tree branch would pass
    ///   through it) takes the exchange and then clears the bits from the
    ///   other side, arriving at the same node on the same level;
    /// - type 2: R the representative (longest runs of m), x = rotl^r(R):
    ///   the good necklace is R with the two bits after its first run set
    ///   to 01 (the run grows by one); the packet goes along its necklace
    ///   to rotl^(m+1)(R), exchanges (position m to 0), shuffles, exchanges
    ///   if needed (position m + 1 to 1) and goes along the good necklace to
    ///   rotl^r of it, its own rotation (so a good node receives at most
    ///   one label from each of the two bad necklaces that map to its
    ///   necklace);
    /// - type 3 (all 0s): its exchange neighbour 0…01.
    ///
    /// Levels (of the phase's hop-leveled network) are aligned so that
    /// every packet reaches rotl^k(g) of a good necklace g on level
    /// D + 1 + k: paths that share a link then mostly share its logical
    /// edge (2 substeps for D ≥ 7, 1 below).
    ///
    /// The last host is the good label.
    pub fn bad_path(&self, x: u32) -> (u32, Vec<u32>) {
        let (g, dim, t) = (&self.g, self.dim, self.t);
        let ones = self.top(dim);
        match self.kind(x) {
            // 0…01 is a representative (k = 0): reached on level D + 1.
            ZERO => (dim, vec![x, x ^ 1]),
            NO_RUN => {
                let target = (x | 1) & !self.top(t);
                let mut hosts;
                let start;
                if x | 1 == ones {
                    // 1^D has only its exchange link: 1^D → 1…10, then t − 1
                    // times shuffle and clear: 1^(D−1−k) 0^(k+1).
                    hosts = if x == ones { vec![x, x ^ 1] } else { vec![x] };
                    start = dim - t + 2 * t + 1 - 2 * (t - 1) - (hosts.len() as u32 - 1);
                    let mut y = ones ^ 1;
                    for _ in 1..t {
                        y = g.rotl(y);
                        hosts.push(y);
                        y &= !1;
                        hosts.push(y);
                    }
                } else {
                    start = dim - t;
                    let mut y = x | 1;
                    hosts = vec![x, y];
                    for _ in 0..t {
                        y = g.rotl(y);
                        hosts.push(y);
                        y &= !1;
                        hosts.push(y);
                    }
                }
                debug_assert_eq!(*hosts.last().unwrap(), g.rotl_by(target, t % dim));
                // Rank among the type-1 labels of `target`: the t top bits
                // and the least significant bit, read as a number.
                let key = |y: u32| ((y >> (dim - t)) << 1) | (y & 1);
                let base = target & !1;
                let rank = (0..key(x))
                    .filter(|&u| {
                        let y = base | ((u >> 1) << (dim - t)) | (u & 1);
                        self.kind(y) == NO_RUN
                    })
                    .count() as u32;
                let mut y = *hosts.last().unwrap();
                for _ in 0..rank % dim {
                    y = g.rotl(y);
                    hosts.push(y);
                }
                (start, hosts)
            }
            TIE => {
                let (rep, r) = g.necklace(x);
                let m = (rep.leading_zeros() - (32 - dim)).min(dim);
                let good = (rep & !self.bit(m)) | self.bit(m + 1);
                let mut hosts = vec![x];
                let mut y = x;
                let at = g.rotl_by(rep, (m + 1) % dim);
                while y != at {
                    y = g.rotl(y);
                    hosts.push(y);
                }
                // It exchanges on level D + m (m + 1 the good run), so that
                // it reaches rotl^k of the good necklace on level D + 1 + k,
                // as a type-1 label's packet does.
                let start = dim + m - (hosts.len() as u32 - 1);
                y ^= 1;
                hosts.push(y);
                y = g.rotl(y);
                hosts.push(y);
                y |= 1;
                hosts.push(y);
                let end = g.rotl_by(good, r);
                while y != end {
                    y = g.rotl(y);
                    hosts.push(y);
                }
                (start, hosts)
            }
            _ => (0, vec![x]),
        }
    }

    /// The good label a bad label's packet goes to (the end of [`Labels::bad_path`]).
    pub fn associate(&self, x: u32) -> u32 {
        *self.bad_path(x).1.last().expect("a path has a host")
    }
}
