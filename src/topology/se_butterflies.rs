//! The wrapped butterflies inside the shuffle-exchange (Leighton–Maggs–
//! Ranade–Rao §9: "many butterflies embed in the shuffle-exchange with
//! load 2, constant congestion and dilation 3; a node of butterfly i is
//! mapped by interleaving its row bits with the bits of butterfly i's
//! necklace representative" — `lmrr-sections-5-10-notes.md`; the
//! paper's HTML keeps the proof's prose without its formulas — interleave
//! the row with the representative, the level is the number of shifts, an
//! edge at most three hops — so the exact map below is ours, and
//! docs/algorithms/flashsort.md, "The paper's own text", compares them).
//!
//! `shuffle-exchange:D` with D = 2m even. Split a label x into its *even*
//! part E (bits 0, 2, …, 2m − 2) and its *odd* part O (bits 1, 3, …,
//! 2m − 1), m bits each: x = interleave(E, O). Two shuffles rotate x left
//! by two bits, which rotates E and O left by one bit each (as m-bit
//! words); the exchange flips bit 0 of x, which is bit 0 of E.
//!
//! For every *aperiodic* m-bit necklace (its m rotations distinct) with
//! representative n (the least rotation) there is one wrapped butterfly
//! W(n): levels 0..m − 1 (level m is level 0 again), 2^m rows, and the
//! edge between levels p and p + 1 (mod m) flips row bit m − 1 − p —
//! `topology::butterfly`'s convention, level 0 flipping the top bit. Its
//! node ⟨p, r⟩ lives at
//!
//! > host(n, p, r) = interleave(rotl^(p+1)(r), rotl^p(n)),
//!
//! so that:
//! - the **straight** edge ⟨p, r⟩ → ⟨p + 1, r⟩ is two shuffles;
//! - the **cross** edge ⟨p, r⟩ → ⟨p + 1, r xor 2^(m−1−p)⟩ is an exchange
//!   (bit 0 of E at level p is bit m − 1 − p of r) and two shuffles:
//!   dilation 3;
//! - a label hosts at most one node of all the wrapped butterflies: its
//!   odd part O fixes the necklace (n = the least rotation of O) and the
//!   level (O = rotl^p(n), unique since the necklace is aperiodic), and
//!   then E fixes the row. Load 1 on the wrapped butterflies — load 2 on
//!   the unwrapped ones of m + 1 levels (levels m and 0 share a host),
//!   the paper's figure;
//! - the labels whose odd part is periodic host nothing: a fraction of
//!   (2^m − A(m))/2^m of the nodes, A(m) = Σ_{d | m} μ(d)·2^(m/d) the
//!   aperiodic words (1/2 at m = 2, 1/4 at m = 3, 1/16 at m = 6);
//! - congestion: an exchange link carries one cross edge each way; the
//!   shuffle link out of a label z carries the first shuffles of z's own
//!   straight edge and of the cross edge that exchanged into z, and the
//!   second shuffles of the two edges out of rotr(z): at most four.
//!
//! A logical edge as [`Hops`]: the four hosts it visits, one per hop, a
//! straight edge waiting on its first hop — so every edge of a level takes
//! three hops, aligned: first the exchanges (or waits), then the first
//! shuffles, then the second.

use super::shuffle_exchange::{EXCHANGE, SHUFFLE};
use super::{Network, ShuffleExchange};

/// The hosts a logical edge visits: the tail, then one per hop (a
/// straight edge's first hop is a wait: its first two hosts are equal).
pub type Hops = [u32; 4];

/// Where a label sits among the wrapped butterflies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ButterflyNode {
    /// Index of the butterfly in [`SeButterflies::butterflies`].
    pub butterfly: u32,
    /// Its level, 0..m.
    pub level: u32,
    /// Its row, 0..2^m.
    pub row: u32,
}

/// The wrapped butterflies of `shuffle-exchange:2m` (see the module doc).
#[derive(Debug, Clone)]
pub struct SeButterflies {
    se: ShuffleExchange,
    m: u32,
    /// The aperiodic necklaces' representatives, ascending.
    reps: Vec<u32>,
    /// Per m-bit word: (index of its necklace in `reps`, its rotation),
    /// or `u32::MAX` in the index for a periodic word.
    word: Vec<(u32, u32)>,
}

/// Bits 0..m of `w` spread to the even bits 0, 2, …, 2m − 2.
fn spread(w: u32, m: u32) -> u32 {
    (0..m).fold(0, |x, i| x | ((w >> i) & 1) << (2 * i))
}

/// The even bits 0, 2, …, 2m − 2 of `x` gathered into bits 0..m.
fn gather(x: u32, m: u32) -> u32 {
    (0..m).fold(0, |w, i| w | ((x >> (2 * i)) & 1) << i)
}

/// The m-bit word `w` rotated left by `t` bits (0 ≤ t ≤ m).
fn rotl(w: u32, t: u32, m: u32) -> u32 {
    let t = t % m;
    if t == 0 {
        w
    } else {
        ((w << t) | (w >> (m - t))) & ((1 << m) - 1)
    }
}

impl SeButterflies {
    /// The wrapped butterflies of `se`; the error says why there are none
    /// (D odd, or D < 4).
    pub fn new(se: &ShuffleExchange) -> Result<SeButterflies, String> {
        let d = se.dim();
        if d % 2 == 1 || d < 4 {
            return Err(format!(
                "the butterflies of §9 interleave two halves of a label: D must be even and at least 4 (got {d})"
            ));
        }
        let m = d / 2;
        let mut word = vec![(u32::MAX, 0); 1 << m];
        let mut reps = Vec::new();
        for w in 0..1u32 << m {
            // The least rotation, and whether all m rotations differ.
            let aperiodic = (1..m).all(|t| rotl(w, t, m) != w);
            if aperiodic && (1..m).all(|t| rotl(w, t, m) > w) {
                for t in 0..m {
                    word[rotl(w, t, m) as usize] = (reps.len() as u32, t);
                }
                reps.push(w);
            }
        }
        Ok(SeButterflies {
            se: se.clone(),
            m,
            reps,
            word,
        })
    }

    /// m = D/2: the levels of each wrapped butterfly and its row bits.
    pub fn levels(&self) -> u32 {
        self.m
    }

    /// The aperiodic necklaces' representatives (m-bit words), ascending:
    /// one wrapped butterfly each.
    pub fn butterflies(&self) -> &[u32] {
        &self.reps
    }

    /// The labels that host a node: 2^m per level per butterfly.
    pub fn hosts(&self) -> u32 {
        (self.reps.len() as u32 * self.m) << self.m
    }

    /// The label hosting ⟨level, row⟩ of butterfly `b` (level m is level 0).
    pub fn host(&self, b: u32, level: u32, row: u32) -> u32 {
        let m = self.m;
        spread(rotl(row, level + 1, m), m) | spread(rotl(self.reps[b as usize], level, m), m) << 1
    }

    /// The butterfly node label `x` hosts, if any.
    pub fn guest(&self, x: u32) -> Option<ButterflyNode> {
        let m = self.m;
        let (b, level) = self.word[gather(x >> 1, m) as usize];
        (b != u32::MAX).then(|| ButterflyNode {
            butterfly: b,
            level,
            row: rotl(gather(x, m), m - (level + 1) % m, m),
        })
    }

    /// The row bit the cross edge between levels `level` and `level` + 1 flips.
    pub fn flipped_bit(&self, level: u32) -> u32 {
        self.m - 1 - level % self.m
    }

    /// The hosts of the edge out of ⟨level, row⟩ of butterfly `b`, straight
    /// or cross, one per hop: (wait or exchange, shuffle, shuffle).
    pub fn edge(&self, b: u32, level: u32, row: u32, cross: bool) -> Hops {
        let x = self.host(b, level, row);
        let first = if cross {
            self.se
                .neighbor(x, EXCHANGE)
                .expect("every label has its exchange link")
        } else {
            x
        };
        let second = self.shuffle(first);
        [x, first, second, self.shuffle(second)]
    }

    /// rotl of a label that hosts or relays an edge (never a label equal
    /// to its rotation: its odd and even parts would both be periodic).
    fn shuffle(&self, x: u32) -> u32 {
        self.se
            .neighbor(x, SHUFFLE)
            .expect("a label an edge shuffles out of has its shuffle link")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interleaving_round_trips() {
        for m in 2..8 {
            for w in 0..1u32 << m {
                assert_eq!(gather(spread(w, m), m), w);
                assert_eq!(rotl(rotl(w, 1, m), m - 1, m), w);
            }
        }
    }
}
