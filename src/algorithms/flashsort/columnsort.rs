//! All N keys sorted by the lightly loaded sort, as LMRR §8 finishes
//! Flashsort (`lmrr-sections-5-10-notes.md`, §8: "the lightly loaded sort
//! as a subroutine, then … a constant number of row sorts and permutations
//! (Leighton's Columnsort)"); `flashsort --light`.
//!
//! The paper's constant queues rest on light loading: N/c packets on the
//! N-input butterfly, so that no subbutterfly receives more packets than it
//! has inputs and each packet can be given an input of its own (balanced
//! slots, [`super::plan::level`]). We take c = 2 and Leighton's Columnsort
//! on an r × s matrix with s = 2 columns of r = N/2 keys: column j is the
//! level-0 rows [j·r, (j + 1)·r), and column-major order is row order, so
//! the sorted matrix is the sorted butterfly. Columnsort needs r ≥ 2(s − 1)²
//! = 2, which every D ≥ 2 meets. Its steps, each a run of the lightly
//! loaded sort (N/2 keys on the whole butterfly) or a fixed permutation
//! routed by the §2.2 scheduler (up to level D and back, `up_down`):
//!
//! 1. sort column 0, then column 1;
//! 2. `transpose`: the key at column-major position i goes to position
//!    (i mod 2)·r + ⌊i/2⌋ (the row label rotated right by one bit);
//! 3. sort both columns;
//! 4. `untranspose` (rotated left);
//! 5. sort both columns;
//! 6. sort the rows [r/2, 3r/2): Columnsort's shift, sort and unshift,
//!    whose first and last shifted columns are already sorted after step 5.
//!
//! Seven sorts of N/2 keys and two permutations: about seven times the
//! steps of one sort of all keys, the price of the constant queues
//! (docs/algorithms/flashsort.md measures both). "Rows sorted by odd–even
//! transposition" in the notes belongs to the paper's own matrix shape,
//! which the recovered text loses; with s = 2 every row of the matrix is
//! two keys and Columnsort needs no row sort. On D ≤ 4 the butterfly is
//! one leaf (below B = 16 inputs the recursion sorts deterministically)
//! and the one sort of all keys runs instead.

use super::butterfly::{Butterfly, Target};
use super::driver::Driver;
use super::host::Host;
use super::LEAF_LEVELS;
use crate::engine::Engine;
use std::collections::VecDeque;

/// A step of Columnsort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The lightly loaded sort of the packets at level-0 rows lo..hi into
    /// those rows; `last` ends the run.
    Sort { lo: u32, hi: u32, last: bool },
    /// Every packet from its row to the row rotated right (`true`) or left
    /// by one bit.
    Rotate { right: bool },
}

/// Columnsort's steps on butterfly:`dim` (the module doc's list).
fn stages(dim: u32) -> Vec<Stage> {
    let n = 1u32 << dim;
    let r = n / 2;
    let sort = |lo, hi| Stage::Sort { lo, hi, last: false };
    if dim <= LEAF_LEVELS {
        return vec![Stage::Sort {
            lo: 0,
            hi: n,
            last: true,
        }];
    }
    vec![
        sort(0, r),
        sort(r, n),
        Stage::Rotate { right: true },
        sort(0, r),
        sort(r, n),
        Stage::Rotate { right: false },
        sort(0, r),
        sort(r, n),
        Stage::Sort {
            lo: r / 2,
            hi: r + r / 2,
            last: true,
        },
    ]
}

/// Row `x` of butterfly:`dim` rotated right (`transpose`: column-major
/// position x to (x mod 2)·r + ⌊x/2⌋) or left (`untranspose`) by one bit.
fn turn(x: u32, dim: u32, right: bool) -> u32 {
    let n = 1u32 << dim;
    if right {
        (x >> 1) | (x & 1) << (dim - 1)
    } else {
        (x << 1 | x >> (dim - 1)) & (n - 1)
    }
}

/// Columnsort's state: its steps to come and the sort under way.
#[derive(Clone)]
pub struct Columnsort {
    pub host: Host,
    keys: Vec<u64>,
    stages: VecDeque<Stage>,
    current: Option<Butterfly>,
    sorts: u32,
}

impl Columnsort {
    /// Columnsort on `host`'s butterfly for `keys` (or the one sort of all
    /// keys on D ≤ [`LEAF_LEVELS`]).
    pub fn new(host: Host, keys: Vec<u64>) -> Columnsort {
        let stages = stages(host.dim()).into();
        Columnsort {
            host,
            keys,
            stages,
            current: None,
            sorts: 0,
        }
    }

    /// The lightly loaded sorts the run makes (7, or 1 on D ≤ 4).
    pub fn total(&self) -> u32 {
        let all = stages(self.host.dim());
        all.iter().filter(|s| matches!(s, Stage::Sort { .. })).count() as u32
    }

    /// Plans the next group of phases; false when the sort is planned out.
    pub fn plan_next(&mut self, dr: &mut Driver, engine: &Engine) -> bool {
        let d = self.host.dim();
        let n = 1u32 << d;
        loop {
            if let Some(sort) = &mut self.current {
                if sort.plan_next(dr, engine) {
                    return true;
                }
                self.current = None;
            }
            let Some(stage) = self.stages.pop_front() else {
                return false;
            };
            // Between Columnsort's steps every packet is at level 0.
            let row = |p: u32| engine.position(p) % n;
            match stage {
                Stage::Sort { lo, hi, last } => {
                    let (inside, settled): (Vec<u32>, Vec<u32>) =
                        engine.active().into_iter().partition(|&p| (lo..hi).contains(&row(p)));
                    self.sorts += 1;
                    let context = match d <= LEAF_LEVELS {
                        true => String::new(),
                        false => format!("sort {} of {}, rows {lo}-{}", self.sorts, self.total(), hi - 1),
                    };
                    let settled = if last { settled } else { Vec::new() };
                    let target = Target {
                        lo,
                        slots: true,
                        context,
                        last,
                        settled,
                    };
                    self.current = Some(Butterfly::sort(self.host.clone(), self.keys.clone(), inside, target));
                }
                Stage::Rotate { right } => {
                    let net = self.host.up_down(0, 0);
                    let packets: Vec<(u32, Vec<u32>)> = (engine.active().into_iter())
                        .map(|p| (p, net.path(row(p), turn(row(p), d, right))))
                        .collect();
                    if let Some((s, _, _)) = dr.routing(engine, &net, &packets) {
                        let name = if right { TRANSPOSE } else { UNTRANSPOSE };
                        dr.push_route(name.into(), s, None, 2 * d);
                        return true;
                    }
                }
            }
        }
    }
}

/// Columnsort's step 2 (a phase name).
pub const TRANSPOSE: &str = "transpose";
/// Columnsort's step 4 (a phase name).
pub const UNTRANSPOSE: &str = "untranspose";

#[cfg(test)]
mod tests {
    use super::*;

    /// This module's stages played on a list (a sort sorts its rows, a
    /// rotation moves every key): 0-1 inputs of 32 keys (D = 5, the
    /// smallest Columnsort runs on) and random keys up to D = 10 end
    /// sorted.
    #[test]
    fn the_stages_sort_every_0_1_input_and_random_keys() {
        let play = |mut a: Vec<u32>, d: u32| {
            for stage in stages(d) {
                match stage {
                    Stage::Sort { lo, hi, .. } => a[lo as usize..hi as usize].sort_unstable(),
                    Stage::Rotate { right } => {
                        let mut b = a.clone();
                        for (x, &v) in a.iter().enumerate() {
                            b[turn(x as u32, d, right) as usize] = v;
                        }
                        a = b;
                    }
                }
            }
            a
        };
        // Every 0-1 input of 32 keys with at most 3 ones or at most 3
        // zeros (the hard cases of a merge), and 20,000 random ones.
        let check = |a: Vec<u32>| {
            let mut want = a.clone();
            want.sort_unstable();
            assert_eq!(play(a.clone(), 5), want, "{a:?}");
        };
        let bits = |set: &[usize], one: u32| (0..32).map(|i| if set.contains(&i) { one } else { 1 - one }).collect();
        for i in 0..32 {
            for j in i..32 {
                for k in j..32 {
                    for one in [0, 1] {
                        check(bits(&[i, j, k], one));
                        check(bits(&[i, j], one));
                        check(bits(&[i], one));
                    }
                }
            }
        }
        let mut x = 999u64;
        for _ in 0..20_000 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            check(
                (0..32)
                    .map(|i| (x >> (i + 16) & 1) as u32 ^ (x >> 60 & 1) as u32)
                    .collect(),
            );
        }
        let mut x = 12345u64;
        for d in 5..=10 {
            let n = 1usize << d;
            for _ in 0..100 {
                let a: Vec<u32> = (0..n)
                    .map(|_| {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        (x >> 40) as u32 % (n as u32)
                    })
                    .collect();
                let mut want = a.clone();
                want.sort_unstable();
                assert_eq!(play(a.clone(), d), want);
            }
        }
        assert_eq!(
            stages(4),
            [Stage::Sort {
                lo: 0,
                hi: 16,
                last: true
            }]
        );
    }
}
