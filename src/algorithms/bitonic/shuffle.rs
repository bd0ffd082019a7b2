//! Batcher's bitonic sort on `shuffle-exchange:D` by Stone's scheme (1971,
//! "Parallel processing with the perfect shuffle"): packets rotate along
//! the shuffle links and compare-exchange across the exchange link (bit 0);
//! N = 2^D keys end in label order.
//!
//! Layout: after t net left rotations the packet of logical position h
//! sits at node rotl^t(h) (t mod D), so bit j of h is at bit (j + t) mod D
//! and the exchange link of node x joins h and h xor 2^j exactly when
//! t ≡ −j (mod D). A compare-exchange across bit j is then SPEC §1's: the
//! keys cross the exchange link both ways, then the packets swap if out
//! of order (the smaller key to the position with bit j = 0 in an
//! ascending block, bit k of h = 0 in stage k, to the other otherwise).
//! A rotation moves every packet one shuffle link, rotl (*shuffle*) or
//! rotr (*unshuffle*); a label equal to its rotation (0…0, 1…1) has no
//! such link and its packet stays.
//!
//! Stage k compares bits k − 1, …, 0, so t must step −(k − 1), …, −1, 0:
//! one shuffle between compares, and the stage ends at t = 0 (home). Stone
//! reaches t = −(k − 1) with D − k + 1 shuffles (a packet rotates D times
//! per stage); here the pre-rotation takes the shorter way round the
//! necklace, m_k = min(k − 1, D − k + 1) moves (unshuffles if k − 1 is the
//! smaller, ties too; shuffles otherwise). Rounds of stage k: m_k moves,
//! the compare of bit k − 1, then k − 1 times (shuffle, compare). Stage 1
//! is one compare (m_1 = 0). Rounds: D(D + 1)/2 compares (the hypercube's
//! network) and Σ_k (m_k + k − 1) = ⌊D²/4⌋ + D(D − 1)/2 moves, R =
//! D² + ⌊D²/4⌋ (Σ_{j=1..D−1} min(j, D − j) = ⌊D²/4⌋).
//!
//! Keys (the walk's timing rule, [`crate::primitives::sort_walk`]): every
//! compare sends keys; a move sends its keys ahead only when a compare
//! follows it. A move after a compare then costs one step (its keys cross
//! the shuffle links while the compare's packets cross the exchange
//! links) and the compare after it one step (its keys cross the exchange
//! links while the move's packets rotate). Two moves in a row cannot
//! overlap that way — the second one's keys would need the shuffle links
//! that the first one's packets use — so the first m_k − 1 moves of a
//! pre-rotation go without keys (one step each, the packets carry their
//! keys) and the last one's keys wait for its packets: one step more for
//! every stage with m_k ≥ 2, that is k = 3..D − 1. With the first round's
//! key step:
//! **steps = R + 1 + max(D − 3, 0) = ⌊5D²/4⌋ + max(D − 3, 0) + 1**
//! ([`steps`]; Stone's D − k + 1 shuffles would take (3D² + D)/2 − 1).

use crate::primitives::sort_walk::{Op, Walks};
use crate::topology::Network;
use crate::topology::ShuffleExchange;

/// The steps of the sort on `shuffle-exchange:dim` (module text).
pub fn steps(dim: u32) -> u32 {
    if dim == 0 {
        return 0; // one key, no round
    }
    5 * dim * dim / 4 + dim.saturating_sub(3) + 1
}

/// A round: a compare-exchange of stage k across bit j (then at bit 0), or
/// a rotation (left: shuffle) with or without keys ahead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Round {
    Compare { stage: u32, bit: u32 },
    Rotate { left: bool, keys: bool },
}

/// The schedule on `shuffle-exchange:D`.
pub struct ShuffleWalks {
    net: ShuffleExchange,
    rounds: Vec<Round>,
}

impl ShuffleWalks {
    /// The schedule for `net`.
    pub fn new(net: &ShuffleExchange) -> ShuffleWalks {
        let d = net.dim();
        let mut rounds = Vec::new();
        for k in 1..=d {
            let (back, forth) = (k - 1, (d - k + 1) % d);
            let (m, left) = if back <= forth { (back, false) } else { (forth, true) };
            rounds.extend((0..m).map(|i| Round::Rotate { left, keys: i + 1 == m }));
            rounds.push(Round::Compare { stage: k, bit: k - 1 });
            for bit in (0..k - 1).rev() {
                rounds.push(Round::Rotate { left: true, keys: true });
                rounds.push(Round::Compare { stage: k, bit });
            }
        }
        ShuffleWalks {
            net: net.clone(),
            rounds,
        }
    }

    /// The number of compare rounds (D(D + 1)/2).
    pub fn compare_rounds(&self) -> u32 {
        super::count(&self.rounds, |r| matches!(r, Round::Compare { .. }))
    }
}

impl Walks for ShuffleWalks {
    fn rounds(&self) -> u32 {
        self.rounds.len() as u32
    }

    fn sends_keys(&self, i: u32) -> bool {
        match self.rounds[i as usize] {
            Round::Compare { .. } => true,
            Round::Rotate { keys, .. } => keys,
        }
    }

    fn round(&self, i: u32, ops: &mut Vec<Op>) {
        let net = &self.net;
        match self.rounds[i as usize] {
            Round::Rotate { left, .. } => ops.extend((0..net.nodes()).map(|x| Op::Go {
                from: x,
                to: if left { net.rotl(x) } else { net.rotr(x) },
            })),
            Round::Compare { stage, bit } => {
                for x in (0..net.nodes()).step_by(2) {
                    // x holds position h = rotl^j(x) (t ≡ −j), x xor 1 holds h xor 2^j.
                    let h = net.rotl_by(x, bit);
                    let (low, high) = if h & (1 << bit) == 0 { (x, x ^ 1) } else { (x ^ 1, x) };
                    let ascending = (h >> stage) & 1 == 0;
                    let (small, large) = if ascending { (low, high) } else { (high, low) };
                    ops.push(Op::Meet {
                        from: [x, x ^ 1],
                        to: [small, large],
                        tell: None,
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::primitives::sort_walk;

    #[test]
    fn the_rounds_are_batchers_and_the_timing_rule_gives_the_formula() {
        for d in 2..=14 {
            let w = ShuffleWalks::new(&ShuffleExchange::new(d).unwrap());
            assert_eq!(w.compare_rounds(), d * (d + 1) / 2, "D={d}");
            assert_eq!(w.rounds(), d * d + d * d / 4, "D={d}");
            assert_eq!(sort_walk::steps(&w), steps(d), "D={d}");
        }
    }
}
