//! All N keys sorted by the lightly loaded sort, as LMRR §8 finishes
//! Flashsort (`lmrr-sections-5-10-notes.md`, §8: "the lightly loaded sort
//! as a subroutine, then rows sorted by odd–even transposition and a
//! constant number of row sorts and permutations (Leighton's Columnsort)");
//! `flashsort --loading light`, the default on butterflies and hypercubes.
//!
//! The paper's constant queues rest on light loading: N/c packets on the
//! N-input butterfly, so that no subbutterfly receives more packets than it
//! has inputs and each packet can be given an input of its own (balanced
//! slots, [`super::plan::level`]). We take c = 2 and Leighton's Columnsort
//! on an r × s matrix with s = 2 columns of r = N/2 keys: column j is the
//! level-0 rows [j·r, (j + 1)·r), and column-major order is row order, so
//! the sorted matrix is the sorted butterfly. Its steps, each a run of the
//! lightly loaded sort (N/2 keys on the whole butterfly), a fixed
//! permutation routed by the §2.2 scheduler (up to level D and back,
//! `up_down`), or one round of odd–even transposition:
//!
//! 1. sort column 0, then column 1;
//! 2. `transpose`: the key at column-major position i goes to position
//!    (i mod 2)·r + ⌊i/2⌋ (the row label rotated right by one bit);
//! 3. sort both columns;
//! 4. `untranspose` (rotated left);
//! 5. `compare-exchange`: rows 2j + 1 and 2j + 2 exchange their keys (up
//!    to level D and back down), and `final-route` swaps the pairs out of
//!    order — one odd round of odd–even transposition.
//!
//! Why step 5 suffices (Columnsort's steps 5–8 are not needed with s = 2),
//! by the 0-1 principle (every step is oblivious): let a 0-1 input's
//! columns hold z₀ and z₁ zeros after step 1. The transpose deals the even
//! column-major positions to column 0 and the odd ones to column 1; with r
//! even, column 0 gets Z₀ = ⌈z₀/2⌉ + ⌈z₁/2⌉ zeros and column 1 Z₁ =
//! ⌊z₀/2⌋ + ⌊z₁/2⌋, so Z₀ − Z₁ ∈ {0, 1, 2}. After step 3 and the
//! untranspose, row 2j holds column 0's j-th key and row 2j + 1 column 1's:
//! zeros on rows 2j for j < Z₀ and 2j + 1 for j < Z₁. That is sorted when
//! Z₀ − Z₁ ≤ 1 and has one inversion, rows 2Z₁ + 1 and 2Z₁ + 2, when it is
//! 2 — an odd pair, which step 5 mends. (The unit test below plays the
//! stages on 0-1 inputs of 32 keys and random keys up to D = 10.)
//!
//! Four sorts of N/2 keys, two permutations and one exchange: about five
//! times the steps of one sort of all keys, the price of the constant
//! queues (docs/algorithms/flashsort.md measures both). On D ≤ 4 the
//! butterfly is one leaf (below B = 16 inputs the recursion sorts
//! deterministically) and the one sort of all keys runs instead.

use super::butterfly::{Butterfly, Target};
use super::driver::{Driver, FINAL};
use super::host::Host;
use super::plan::UP;
use super::relay::relay;
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
    /// Rows 2j + 1 and 2j + 2 compare their keys and swap them if out of
    /// order; the run's end.
    Exchange,
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
        Stage::Exchange,
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

    /// The lightly loaded sorts the run makes (4, or 1 on D ≤ 4).
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
                    let inside: Vec<u32> = (engine.active().into_iter())
                        .filter(|&p| (lo..hi).contains(&row(p)))
                        .collect();
                    self.sorts += 1;
                    let context = match d <= LEAF_LEVELS {
                        true => String::new(),
                        false => format!("sort {} of {}, rows {lo}-{}", self.sorts, self.total(), hi - 1),
                    };
                    let target = Target {
                        lo,
                        slots: true,
                        context,
                        last,
                    };
                    self.current = Some(Butterfly::sort(self.host.clone(), self.keys.clone(), inside, target));
                }
                Stage::Exchange => {
                    self.exchange(dr, engine);
                    return true;
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

    /// Step 5: rows 2j + 1 and 2j + 2 send each other their keys (one
    /// control message each, up to level D fixing the partner's bits and
    /// straight back down), and the packets of a pair out of order swap
    /// rows by the scheduler (`final-route`); the others are delivered
    /// where they stand at the end of the exchange.
    fn exchange(&mut self, dr: &mut Driver, engine: &Engine) {
        let d = self.host.dim();
        let n = 1u32 << d;
        let mut at = vec![u32::MAX; n as usize];
        for p in engine.active() {
            at[(engine.position(p) % n) as usize] = p;
        }
        let key = |p: u32| (self.keys[p as usize], p);
        // Message 2i goes from row 2i + 1 up to its partner, 2i + 1 back.
        let pairs: Vec<(u32, u32)> = (1..n - 1).step_by(2).map(|x| (x, x + 1)).collect();
        let partner: Vec<u32> = pairs.iter().flat_map(|&(x, y)| [y, x]).collect();
        let items: Vec<(u32, u32)> = (pairs.iter())
            .flat_map(|&(x, y)| [x, y])
            .enumerate()
            .map(|(i, row)| (i as u32, self.host.node(0, row)))
            .collect();
        let host = &self.host;
        let steps = relay(
            host.logical(),
            &items,
            |item, node, arrived| {
                let (level, row) = (node >> d, node & (n - 1));
                let climbing = arrived.is_none_or(|port| UP.contains(&port));
                let ports: &[u32] = match (climbing && level < d, level) {
                    (true, l) => {
                        let bit = 1 << (d - 1 - l);
                        if (row ^ partner[item as usize]) & bit == 0 {
                            &[0]
                        } else {
                            &[1]
                        }
                    }
                    (false, 0) => &[],
                    (false, _) => &[2],
                };
                ports.iter().copied()
            },
            |v, port| host.link_key(v, port),
        );
        let net = host.up_down(0, 0);
        let mut moves = Vec::new();
        for &(x, y) in &pairs {
            let (p, q) = (at[x as usize], at[y as usize]);
            if key(p) > key(q) {
                moves.push((p, net.path(x, y)));
                moves.push((q, net.path(y, x)));
            }
        }
        let moving: std::collections::HashSet<u32> = moves.iter().map(|&(p, _)| p).collect();
        dr.push_control(EXCHANGE.into(), steps, None);
        if let Some(last) = dr.queue.back_mut() {
            last.home = (at.iter().copied()).filter(|p| !moving.contains(p)).collect();
        }
        if let Some((s, _, _)) = dr.routing(engine, &net, &moves) {
            dr.push_route(FINAL.into(), s, None, 2 * d);
        }
    }
}

/// Columnsort's step 2 (a phase name).
pub const TRANSPOSE: &str = "transpose";
/// Columnsort's step 4 (a phase name).
pub const UNTRANSPOSE: &str = "untranspose";
/// Step 5's exchange of keys (a phase name).
pub const EXCHANGE: &str = "compare-exchange";

#[cfg(test)]
mod tests {
    use super::*;

    /// This module's stages played on a list (a sort sorts its rows, a
    /// rotation moves every key, the exchange swaps the odd pairs out of
    /// order): 0-1 inputs of 32 keys (D = 5, the
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
                    Stage::Exchange => {
                        for x in (1..a.len() - 1).step_by(2) {
                            if a[x] > a[x + 1] {
                                a.swap(x, x + 1);
                            }
                        }
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
