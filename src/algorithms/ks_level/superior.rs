//! LevelRoute's superior and inferior regions (`ks-level --superior`,
//! Kaufmann–Sibeyn §6.1.1, Lemma 15), on the basic loop (never the
//! improved version). Superior packets are those
//! whose source lies in one of the four ε × ε corner squares; in step a′ a
//! superior packet of colour 0 goes along its column to a uniformly random
//! row of the paper's range ε + 1 … n/2 (from the lower squares) or
//! n − ε … n/2 + 1 (from the upper ones) — 0-based here ε … ⌈s/2⌉ − 1 and
//! ⌊s/2⌋ … s − 1 − ε, s the side ([`superior_range`]) — colour 1 the same
//! along its row; the others randomize in their strip as in step a. Their
//! draws come after all others from the same stream, so levels, colours and
//! the inferior packets' rows are those of the run without `--superior`.
//! Where the paper leaves the choice open we decide:
//! 1. *a′ and b′ are one phase* per pass, `pass{p}-randomize-route` (then
//!    `pass{k/2+1}-route`): a packet goes on along the row the step after it
//!    reached its row (two legs, `PhasePlan::legs`), with barriers between
//!    passes only. Lemma 15 bounds a′ and b′ *together* by n + 4ε²/n, less
//!    than step b alone plus a barrier after a′ (a′ alone takes ≈ n/2 − ε
//!    for the superior packets), and its proof has the late superior packets
//!    join the stream to the left: no barrier.
//! 2. *Where streams meet*: a packet still doing a′ goes first on a link
//!    (§3's rule that an earlier step has absolute priority, through the
//!    ranked phases of `phased.rs`), and the run's policy settles the rest.
//!    The proof assumes "all the packets reach the position to which they
//!    randomize with 0 routing steps"; giving a′ priority over the column
//!    streams of b′ (the previous level going home, the other colour
//!    crossing) is the nearest a simulated run comes (measured: 10–20 %
//!    fewer steps per pass than leaving it to farthest-first).
//! 3. An odd side's middle line belongs to both ranges (they mirror), a
//!    non-square mesh uses each axis's own side, and `--superior` is refused
//!    on a torus (no corners) and unless 2ε < the shorter side.
//!
//! What we find: a pass takes at least the longest a′ + b′ path, and a
//! superior packet starting in a right-hand corner square, drawn near row
//! n/2 and bound for the left edge travels ≈ n/2 − ε + n − 1; so the excess
//! over n + 4ε²/n is Θ(n) on random instances, not O(√(n log n)): the proof
//! counts the superior packets' delay on the row but not the column they
//! came up. The page measures Lemma 15's constant (the paper states none:
//! its printed bound is n + 4ε²/n, the proof's term O(√(n log n))); the
//! tests hold it to c = 1.75 (docs/algorithms/kaufmann-sibeyn.md): random
//! k-permutations stay within it at sides 16–96 and exceed it at 128; k-PR
//! exceeds it on some seeds already at sides 16–32.

use super::NAME;
use crate::error::{Error, Result};
use crate::topology::Grid;

/// `--superior` (§6.1.1): the range a superior packet starting at `source`
/// is randomized in along `axis` (0-based, both ends included), or `None`
/// for an inferior packet. Superior packets start in one of the four ε × ε
/// corner squares; the paper's rows ε + 1 … n/2 (lower squares) and
/// n − ε … n/2 + 1 (upper ones), 1-based, are ε … ⌈s/2⌉ − 1 and
/// ⌊s/2⌋ … s − 1 − ε here, s the side along `axis` (an odd side's middle
/// line belongs to both halves, so the two ranges mirror each other).
pub(crate) fn superior_range(grid: &Grid, source: u32, axis: usize, epsilon: u32) -> Option<(u32, u32)> {
    let near = |a: usize| {
        let (x, s) = (grid.coord(source, a), grid.dims()[a]);
        (x < epsilon || x + epsilon >= s).then_some((x, s))
    };
    let (x, s) = near(axis)?;
    near(1 - axis)?;
    Some(if x < epsilon {
        (epsilon, s.div_ceil(2) - 1)
    } else {
        (s / 2, s - 1 - epsilon)
    })
}

/// `--superior` needs corners: a mesh (a torus has none; `ks_grid`
/// leaves 2-D grids) whose corner squares do not meet, 2ε < every side.
pub(super) fn check_superior(grid: &Grid, epsilon: u32) -> Result<()> {
    if grid.wraps() {
        return Err(Error::unsupported(
            NAME,
            "--superior: superior regions are the corner squares of a mesh (§6.1.1), and a torus has no corners; use a mesh",
        ));
    }
    let side = grid.dims().iter().copied().min().unwrap_or(1);
    if 2 * epsilon >= side {
        return Err(Error::invalid(
            "epsilon",
            epsilon,
            format!(
                "--superior needs the four ε × ε corner squares apart and a row between them to randomize to: 2ε < {side} (the shorter side)"
            ),
        ));
    }
    Ok(())
}
