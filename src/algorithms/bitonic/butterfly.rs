//! Batcher's bitonic sort on `butterfly:D` (N = 2^D keys, one per row,
//! starting at level 0 and ending at **level D**, order `levelD-row`).
//!
//! Rows r and r xor 2^j meet only through the edge level i = D − 1 − j
//! whose cross links flip bit j (SPEC §2): a compare-exchange across bit j
//! takes the two packets from level i to level i + 1 — both keys climb the
//! straight and the cross link to both nodes of level i + 1 (one step);
//! those two nodes now hold both keys, but the two senders do not, so
//! each level-(i + 1) node tells the other row's sender, down its cross
//! link, where its packet goes (the next step); then each packet climbs to
//! the node that must hold it (the step after). The smaller key goes to
//! the lower row in an ascending block (bit k of the row 0 in stage k), to
//! the higher one otherwise, as on the hypercube. So the packet of logical
//! position h always sits in row h, and a round moves every packet one
//! level.
//!
//! Stage k compares across bits k − 1, …, 0, in that order: edge levels
//! D − k, …, D − 1, a climb from level D − k to level D. The order of the
//! bits is Batcher's and a row is its position, so every stage climbs
//! (a stage could descend only in the bit-reversed layout, whose rows are
//! not the final order, and the layout is the same for every stage:
//! a sorted half is in row order). Between stages the packets walk down
//! the straight links. Rounds:
//! - *climb*: D − 1 moves up straight links, level 0 to level D − 1;
//! - stage 1: one compare round across edge level D − 1 (to level D);
//! - stage k = 2..D: k moves down (level D to D − k), then k compare rounds
//!   up (edge levels D − k, …, D − 1).
//!
//! R = (D − 1) + 1 + Σ_{k=2..D} 2k = D² + 2D − 2 rounds, of which
//! 1 + 2 + … + D = D(D + 1)/2 compare rounds (the hypercube's network).
//! Every round sends keys — a move's keys go one step ahead of its
//! packets (the next round's keys must leave as its packets arrive) — so
//! the keys climb or descend one edge level a step; from the first
//! compare on, the packets follow two steps behind (a compare's telling
//! between them), and a move keeps that distance. In a step, then, round
//! r's keys, round r − 1's telling and round r − 2's packets cross, on
//! different directed links: climbing rounds are on different edge
//! levels (keys up on level i, telling down on i − 1, packets up on i −
//! 2); where a stage's last compare climbs edge level D − 1 the first
//! move's keys descend it on the straight links while the telling
//! descends the cross links; and the last move's packets descend edge
//! level D − k on the straight links while the first compare's keys climb
//! it and then its telling descends the cross links. So by the walk's
//! timing rule ([`crate::primitives::sort_walk`]) the sort takes **R + 2
//! = (D + 1)² − 1 steps** ([`steps`]): the first round's key step and the
//! first telling's step over the rounds. (Before 2026-12-01 the sources
//! sent their packets in the step after the keys climbed, a step before
//! they could know where: (D + 1)² − 2.)

use crate::primitives::sort_walk::{Op, Walks};
use crate::topology::Butterfly;

/// The steps of the sort on `butterfly:dim` (module text).
pub fn steps(dim: u32) -> u32 {
    if dim == 0 {
        return 0; // one key, no round
    }
    (dim + 1) * (dim + 1) - 1
}

/// A round: a move across an edge level (up or down, straight links) or a
/// compare-exchange of stage k across an edge level (climbing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Round {
    Up(u32),
    Down(u32),
    Compare { stage: u32, edge: u32 },
}

/// The schedule on `butterfly:D`.
pub struct ButterflyWalks {
    net: Butterfly,
    rounds: Vec<Round>,
}

impl ButterflyWalks {
    /// The schedule for `net`.
    pub fn new(net: &Butterfly) -> ButterflyWalks {
        let d = net.dim();
        // butterfly:0 (one node, one key) has no round.
        let mut rounds: Vec<Round> = (0..d.saturating_sub(1)).map(Round::Up).collect();
        for k in 1..=d {
            if k > 1 {
                rounds.extend((d - k..d).rev().map(Round::Down));
            }
            rounds.extend((d - k..d).map(|edge| Round::Compare { stage: k, edge }));
        }
        ButterflyWalks {
            net: net.clone(),
            rounds,
        }
    }

    /// The number of compare rounds (D(D + 1)/2).
    pub fn compare_rounds(&self) -> u32 {
        super::count(&self.rounds, |r| matches!(r, Round::Compare { .. }))
    }
}

impl Walks for ButterflyWalks {
    fn rounds(&self) -> u32 {
        self.rounds.len() as u32
    }

    fn sends_keys(&self, _i: u32) -> bool {
        true
    }

    fn round(&self, i: u32, ops: &mut Vec<Op>) {
        let net = &self.net;
        let rows = net.rows();
        match self.rounds[i as usize] {
            Round::Up(edge) => ops.extend((0..rows).map(|r| Op::Go {
                from: net.node_at(edge, r),
                to: net.node_at(edge + 1, r),
            })),
            Round::Down(edge) => ops.extend((0..rows).map(|r| Op::Go {
                from: net.node_at(edge + 1, r),
                to: net.node_at(edge, r),
            })),
            Round::Compare { stage, edge } => {
                let bit = 1 << (net.dim() - 1 - edge);
                for low in (0..rows).filter(|r| r & bit == 0) {
                    let high = low | bit;
                    let ascending = (low >> stage) & 1 == 0;
                    let (small, large) = if ascending { (low, high) } else { (high, low) };
                    // Each source is told over its cross link, from the
                    // other row's node: the straight links down stay free
                    // for the keys of the walk down after a stage.
                    ops.push(Op::Meet {
                        from: [net.node_at(edge, low), net.node_at(edge, high)],
                        to: [net.node_at(edge + 1, small), net.node_at(edge + 1, large)],
                        tell: Some([net.node_at(edge + 1, high), net.node_at(edge + 1, low)]),
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
        for d in 1..=12 {
            let w = ButterflyWalks::new(&Butterfly::new(d).unwrap());
            assert_eq!(w.compare_rounds(), d * (d + 1) / 2, "D={d}");
            assert_eq!(w.rounds(), d * d + 2 * d - 2, "D={d}");
            assert_eq!(sort_walk::steps(&w), steps(d), "D={d}");
        }
    }
}
