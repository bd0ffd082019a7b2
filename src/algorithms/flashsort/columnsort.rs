//! All N keys sorted by the lightly loaded sort, as LMRR §8 finishes
//! Flashsort (`lmrr-sections-5-10-notes.md`, §8: "the lightly loaded sort
//! as a subroutine, then rows sorted by odd–even transposition and a
//! constant number of row sorts and permutations (Leighton's Columnsort)");
//! `flashsort --loading light`, the default. §10 sorts arrays "lightly
//! loaded" too: the same Columnsort runs on meshes, around the array
//! recursion's lightly loaded sort ([`super::array`]).
//!
//! The paper's constant queues rest on light loading: N/c packets on the
//! N-input butterfly, so that no subbutterfly receives more packets than it
//! has inputs and each packet can be given an input of its own (balanced
//! slots, [`super::plan::level`]; on a mesh a node of its own in its
//! interval's slab). We take c = 2 and Leighton's Columnsort on a matrix
//! of s = 2 columns: column 0 is the positions [0, r), column 1 [r, N),
//! r = ⌈N/2⌉ — a butterfly's level-0 rows, a mesh's nodes in row-major
//! order — and column-major order is position order, so the sorted matrix
//! is the sorted network. Its steps, each a run of the
//! lightly loaded sort (N/2 keys on the whole network), a fixed
//! permutation routed by the §2.2 scheduler (on a butterfly up to level D
//! and back, `up_down`; on a mesh monotonely, [`super::array_plan::Orthants`]),
//! or one round of odd–even transposition:
//!
//! 1. sort column 0, then column 1;
//! 2. `transpose`: the key at column-major position i goes to position
//!    (i mod 2)·r + ⌊i/2⌋ (on a butterfly, the row label rotated right by
//!    one bit; the even positions fill column 0, the odd ones column 1);
//! 3. sort both columns;
//! 4. `untranspose` (its inverse; rotated left);
//! 5. `compare-exchange`: positions 2j + 1 and 2j + 2 (r even) or 2j and
//!    2j + 1 (r odd) exchange their keys (up to level D and back down; on a
//!    mesh along the dimensions in order), and `final-route` swaps the
//!    pairs out of order — one round of odd–even transposition.
//!
//! Why step 5 suffices (Columnsort's steps 5–8 are not needed with s = 2),
//! by the 0-1 principle (every step is oblivious): let a 0-1 input's
//! columns hold z₀ and z₁ zeros after step 1. The transpose deals the even
//! column-major positions to column 0 and the odd ones to column 1; column
//! 1's zeros start at position r, so with r even column 0 gets Z₀ =
//! ⌈z₀/2⌉ + ⌈z₁/2⌉ zeros and column 1 Z₁ = ⌊z₀/2⌋ + ⌊z₁/2⌋, Z₀ − Z₁ ∈
//! {0, 1, 2}, and with r odd Z₀ = ⌈z₀/2⌉ + ⌊z₁/2⌋ and Z₁ = ⌊z₀/2⌋ +
//! ⌈z₁/2⌉, Z₀ − Z₁ ∈ {−1, 0, 1}. After step 3 and the untranspose, position
//! 2j holds column 0's j-th key and 2j + 1 column 1's: zeros on 2j for j <
//! Z₀ and 2j + 1 for j < Z₁. That is sorted when Z₀ − Z₁ is 0 or 1; when it
//! is 2 the one inversion is positions 2Z₁ + 1 and 2Z₁ + 2, an odd pair,
//! and when it is −1 positions 2Z₀ and 2Z₀ + 1, an even pair — step 5's
//! pairs for r even and r odd. (The unit test below plays the stages on
//! 0-1 inputs of 32 keys and of every N from 4 to 20, and on random keys.)
//!
//! Four sorts of N/2 keys, two permutations and one exchange: about five
//! times the steps of one sort of all keys, the price of the constant
//! queues (docs/algorithms/flashsort.md measures both). On D ≤ 4 the
//! butterfly is one leaf (below B = 16 inputs the recursion sorts
//! deterministically) and the one sort of all keys runs instead.

use super::array::{orthant_routings, push_parts, Array};
use super::butterfly::Butterfly;
use super::driver::{Driver, Target, FINAL};
use super::host::Host;
use super::plan::UP;
use super::relay::relay;
use super::{LEAF_LEVELS, LIGHT_ARRAY_OVERSAMPLE};
use crate::engine::Engine;
use crate::topology::{Grid, Network, Topology};
use std::collections::VecDeque;

/// A step of Columnsort.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// The lightly loaded sort of the packets at positions lo..hi into
    /// those positions; `last` ends the run.
    Sort { lo: u32, hi: u32, last: bool },
    /// Every packet from position x to [`turn`]`(x)`, right (`transpose`)
    /// or left (`untranspose`).
    Rotate { right: bool },
    /// Positions 2j + 1 and 2j + 2 compare their keys and swap them if out
    /// of order; the run's end.
    Exchange,
}

/// The positions of column 0, c = ⌈n/2⌉ (column 1 has the other ⌊n/2⌋).
fn column(n: u32) -> u32 {
    n.div_ceil(2)
}

/// The pairs of positions step 5 compares: (2j + 1, 2j + 2) if c is even,
/// (2j, 2j + 1) if c is odd (the module doc's proof).
fn pairs(n: u32) -> Vec<(u32, u32)> {
    let first = u32::from(column(n).is_multiple_of(2));
    (first..n.saturating_sub(1)).step_by(2).map(|x| (x, x + 1)).collect()
}

/// Columnsort's steps on `n` positions (the module doc's list), or the one
/// sort of all keys if `single`.
fn stages(n: u32, single: bool) -> Vec<Stage> {
    let r = column(n);
    let sort = |lo, hi| Stage::Sort { lo, hi, last: false };
    if single {
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

/// Position `x` of `n` after the transpose (`right`: column-major position
/// x to (x mod 2)·c + ⌊x/2⌋, c = ⌈n/2⌉) or the untranspose (its inverse). On
/// butterfly:D (n = 2^D) they rotate the row label right and left by one bit.
fn turn(x: u32, n: u32, right: bool) -> u32 {
    let r = column(n);
    match (right, x < r) {
        (true, _) => (x % 2) * r + x / 2,
        (false, true) => 2 * x,
        (false, false) => 2 * (x - r) + 1,
    }
}

/// The network Columnsort runs on: positions are a butterfly's level-0
/// rows (or a hypercube's nodes), or a mesh's nodes in row-major order.
#[derive(Clone)]
pub enum Space {
    Butterfly(Host),
    Mesh(Grid),
}

impl Space {
    /// N, the positions.
    pub fn positions(&self) -> u32 {
        match self {
            Space::Butterfly(host) => 1 << host.dim(),
            Space::Mesh(grid) => grid.nodes(),
        }
    }

    /// Whether the one sort of all keys runs instead of Columnsort: a
    /// butterfly of one leaf (D ≤ [`LEAF_LEVELS`]).
    fn single(&self) -> bool {
        matches!(self, Space::Butterfly(host) if host.dim() <= LEAF_LEVELS)
    }

    /// What the positions are called in a phase's name.
    fn unit(&self) -> &'static str {
        match self {
            Space::Butterfly(_) => "rows",
            Space::Mesh(_) => "nodes",
        }
    }
}

/// A sort under way.
#[derive(Clone)]
enum Current {
    Butterfly(Butterfly),
    Array(Array),
}

/// Columnsort's state: its steps to come and the sort under way.
#[derive(Clone)]
pub struct Columnsort {
    pub space: Space,
    keys: Vec<u64>,
    stages: VecDeque<Stage>,
    current: Option<Current>,
    sorts: u32,
}

impl Columnsort {
    /// Columnsort on `space` for `keys` (or the one sort of all keys on a
    /// butterfly of D ≤ [`LEAF_LEVELS`]).
    pub fn new(space: Space, keys: Vec<u64>) -> Columnsort {
        let stages = stages(space.positions(), space.single()).into();
        Columnsort {
            space,
            keys,
            stages,
            current: None,
            sorts: 0,
        }
    }

    /// The lightly loaded sorts the run makes (4, or 1 on D ≤ 4).
    pub fn total(&self) -> u32 {
        let all = stages(self.space.positions(), self.space.single());
        all.iter().filter(|s| matches!(s, Stage::Sort { .. })).count() as u32
    }

    /// The position of packet `p` (between Columnsort's steps every packet
    /// is at one: on a butterfly, level 0).
    fn position(&self, engine: &Engine, p: u32) -> u32 {
        engine.position(p) % self.space.positions()
    }

    /// Plans the next group of phases; false when the sort is planned out.
    pub fn plan_next(&mut self, dr: &mut Driver, engine: &Engine) -> bool {
        let n = self.space.positions();
        loop {
            let planned = match &mut self.current {
                Some(Current::Butterfly(sort)) => sort.plan_next(dr, engine),
                Some(Current::Array(sort)) => sort.plan_next(dr, engine),
                None => false,
            };
            if planned {
                return true;
            }
            self.current = None;
            let Some(stage) = self.stages.pop_front() else {
                return false;
            };
            match stage {
                Stage::Sort { lo, hi, last } => {
                    let inside: Vec<u32> = (engine.active().into_iter())
                        .filter(|&p| (lo..hi).contains(&self.position(engine, p)))
                        .collect();
                    self.sorts += 1;
                    let context = match self.space.single() {
                        true => String::new(),
                        false => format!(
                            "sort {} of {}, {} {lo}-{}",
                            self.sorts,
                            self.total(),
                            self.space.unit(),
                            hi - 1
                        ),
                    };
                    let target = Target {
                        lo,
                        slots: true,
                        context,
                        last,
                    };
                    let keys = self.keys.clone();
                    self.current = Some(match &self.space {
                        Space::Butterfly(host) => {
                            Current::Butterfly(Butterfly::sort(host.clone(), keys, inside, target))
                        }
                        Space::Mesh(grid) => {
                            Current::Array(Array::sort(grid.clone(), keys, inside, LIGHT_ARRAY_OVERSAMPLE, target))
                        }
                    });
                }
                Stage::Exchange => {
                    self.exchange(dr, engine);
                    return true;
                }
                Stage::Rotate { right } => {
                    let name = if right { TRANSPOSE } else { UNTRANSPOSE };
                    let moves: Vec<(u32, u32)> = (engine.active().into_iter())
                        .map(|p| (p, turn(self.position(engine, p), n, right)))
                        .collect();
                    if self.route(dr, engine, &moves, name) {
                        return true;
                    }
                }
            }
        }
    }

    /// Queues the routing of every (packet, position) of `moves` from its
    /// position as phases named `name`: on a butterfly up to level D and
    /// back down; on a mesh monotonely, one routing per pair of opposite
    /// orthants. False if nothing moves.
    fn route(&self, dr: &mut Driver, engine: &Engine, moves: &[(u32, u32)], name: &str) -> bool {
        match &self.space {
            Space::Butterfly(host) => {
                let d = host.dim();
                let net = host.up_down(0, 0);
                let packets: Vec<(u32, Vec<u32>)> = (moves.iter())
                    .map(|&(p, to)| (p, net.path(self.position(engine, p), to)))
                    .collect();
                let Some((s, _, _)) = dr.routing(engine, &net, &packets) else {
                    return false;
                };
                dr.push_route(name.into(), s, None, 2 * d);
            }
            Space::Mesh(grid) => {
                let routings = orthant_routings(dr, engine, grid, 0, moves);
                if routings.is_empty() {
                    return false;
                }
                push_parts(dr, &Target::default(), name, "", routings, None);
            }
        }
        true
    }

    /// Step 5: positions 2j + 1 and 2j + 2 send each other their keys (one
    /// control message each: on a butterfly up to level D fixing the
    /// partner's bits and straight back down; on a mesh along the
    /// dimensions in order), and the packets of a pair out of order swap
    /// places by the scheduler (`final-route`); the others are delivered
    /// where they stand at the end of the exchange.
    fn exchange(&mut self, dr: &mut Driver, engine: &Engine) {
        let n = self.space.positions();
        let mut at = vec![u32::MAX; n as usize];
        for p in engine.active() {
            at[self.position(engine, p) as usize] = p;
        }
        let key = |p: u32| (self.keys[p as usize], p);
        // Message 2i goes from a pair's first position to its second, 2i + 1 back.
        let pairs = pairs(n);
        let partner: Vec<u32> = pairs.iter().flat_map(|&(x, y)| [y, x]).collect();
        let from = (pairs.iter()).flat_map(|&(x, y)| [x, y]).enumerate();
        let steps = match &self.space {
            Space::Butterfly(host) => {
                let d = host.dim();
                let items: Vec<(u32, u32)> = from.map(|(i, row)| (i as u32, host.node(0, row))).collect();
                relay(
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
                )
            }
            Space::Mesh(grid) => {
                let items: Vec<(u32, u32)> = from.map(|(i, v)| (i as u32, v)).collect();
                let ports = 2 * grid.dims().len() as u64;
                relay(
                    &Topology::Grid(grid.clone()),
                    &items,
                    |item, node, _| {
                        // Along the first dimension where the partner differs.
                        let to = partner[item as usize];
                        (0..grid.dims().len())
                            .find(|&j| grid.coord(node, j) != grid.coord(to, j))
                            .map(|j| 2 * j as u32 + u32::from(grid.coord(to, j) < grid.coord(node, j)))
                    },
                    |v, port| u64::from(v) * ports + u64::from(port),
                )
            }
        };
        let mut moves = Vec::new();
        for &(x, y) in &pairs {
            let (p, q) = (at[x as usize], at[y as usize]);
            if key(p) > key(q) {
                moves.push((p, y));
                moves.push((q, x));
            }
        }
        let moving: std::collections::HashSet<u32> = moves.iter().map(|&(p, _)| p).collect();
        dr.push_control(EXCHANGE.into(), steps, None);
        if let Some(last) = dr.queue.back_mut() {
            last.home = (at.iter().copied()).filter(|p| !moving.contains(p)).collect();
        }
        self.route(dr, engine, &moves, FINAL);
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

    /// This module's stages played on a list (a sort sorts its positions,
    /// a rotation moves every key, the exchange swaps the odd pairs out of
    /// order): 0-1 inputs of 32 keys (D = 5, the smallest butterfly
    /// Columnsort runs on), random keys up to D = 10, and for meshes every
    /// 0-1 input of 12 and 20 keys and random keys on other N with N/2
    /// even, end sorted.
    #[test]
    fn the_stages_sort_every_0_1_input_and_random_keys() {
        let play = |mut a: Vec<u32>| {
            let n = a.len() as u32;
            for stage in stages(n, false) {
                match stage {
                    Stage::Sort { lo, hi, .. } => a[lo as usize..hi as usize].sort_unstable(),
                    Stage::Rotate { right } => {
                        let mut b = a.clone();
                        for (x, &v) in a.iter().enumerate() {
                            b[turn(x as u32, n, right) as usize] = v;
                        }
                        a = b;
                    }
                    Stage::Exchange => {
                        for (x, y) in pairs(n) {
                            if a[x as usize] > a[y as usize] {
                                a.swap(x as usize, y as usize);
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
            assert_eq!(play(a.clone()), want, "{a:?}");
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
        // `times` random inputs of n keys (duplicates likely) end sorted.
        let mut x = 12345u64;
        let mut random = |n: usize, times: u32| {
            for _ in 0..times {
                let a: Vec<u32> = (0..n)
                    .map(|_| {
                        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                        (x >> 40) as u32 % (n as u32)
                    })
                    .collect();
                let mut want = a.clone();
                want.sort_unstable();
                assert_eq!(play(a.clone()), want);
            }
        };
        for d in 5..=10 {
            random(1 << d, 100);
        }
        // Meshes: any N, c = ⌈N/2⌉ even or odd — every 0-1 input of 4 to 20
        // keys, random keys on N = 21, 24, 35, 60, 99, 100, 148.
        for n in 4usize..=20 {
            for bits in 0u32..1 << n {
                let a: Vec<u32> = (0..n).map(|i| bits >> i & 1).collect();
                let mut want = a.clone();
                want.sort_unstable();
                assert_eq!(play(a.clone()), want, "{a:?}");
            }
        }
        for n in [21usize, 24, 35, 60, 99, 100, 148] {
            random(n, 200);
        }
        assert_eq!(
            stages(16, true),
            [Stage::Sort {
                lo: 0,
                hi: 16,
                last: true
            }]
        );
    }
}
