//! The snake sort of `routesim::primitives::sort` (the "standard sorting"
//! of Pietracaprina–Pucci and the lecture's sorting-based routing): the
//! comparator network sorts (0-1 exhaustively on small meshes, every merge
//! level on every 0-1 input with roughly sorted quadrants for k ≤ 8 and a
//! random sample up to k = 64, random keys on every power-of-two side); the
//! engine task sorts too, in both snake orders, with buckets, inside tiles,
//! with consecutive rounds on disjoint links, in flat steps per side.

use crate::common::{drive, engine, engine_checked};
use routesim::primitives::geometry::Mesh;
use routesim::primitives::sort::{
    consecutive_rounds_share_no_link, level_round, rounds_in_level, sort_buckets_offline, sort_offline, RoundKind,
    SortTask, EMPTY,
};
use routesim::rng::{Rng, Stream};

/// The keys of the m×m region at (r0, c0) of a side×side mesh holding c
/// keys per node, in row-major snake order (column-major if `transposed`).
fn snake_sequence(side: u32, m: u32, (r0, c0): (u32, u32), c: usize, transposed: bool, slots: &[u128]) -> Vec<u128> {
    (0..m * m)
        .flat_map(|i| {
            let (line, x) = (i / m, i % m);
            let along = if line % 2 == 0 { x } else { m - 1 - x };
            let (r, col) = if transposed { (along, line) } else { (line, along) };
            let v = ((r0 + r) * side + c0 + col) as usize * c;
            slots[v..v + c].to_vec()
        })
        .collect()
}

fn snake_sorted(side: u32, m: u32, keys: &[u128]) -> bool {
    (0..side).step_by(m as usize).all(|r0| {
        (0..side).step_by(m as usize).all(|c0| {
            snake_sequence(side, m, (r0, c0), 1, false, keys)
                .windows(2)
                .all(|w| w[0] <= w[1])
        })
    })
}

#[test]
fn sort_network_sorts_every_0_1_input_of_4x4() {
    for bits in 0u32..1 << 16 {
        let mut keys: Vec<u128> = (0..16).map(|i| ((bits >> i) & 1) as u128).collect();
        sort_offline(4, 4, &mut keys);
        assert!(snake_sorted(4, 4, &keys), "input {bits:#x}");
    }
}

#[test]
fn sort_network_sorts_random_keys_on_every_power_of_two_side() {
    let mut rng = Rng::new(7, Stream::Workload);
    for side in [1u32, 2, 4, 8, 16, 32, 64] {
        for m in (0..=side.ilog2()).map(|i| 1u32 << i) {
            for trial in 0..6 {
                let n = (side * side) as usize;
                let mut keys: Vec<u128> = (0..n)
                    .map(|_| match trial {
                        0 => rng.below(2) as u128,
                        1 => rng.below(4) as u128,
                        2 if rng.below(3) == 0 => EMPTY,
                        _ => rng.below(1000) as u128,
                    })
                    .collect();
                let mut want = keys.clone();
                sort_offline(side, m, &mut keys);
                assert!(snake_sorted(side, m, &keys), "side {side} m {m} trial {trial}");
                want.sort_unstable();
                let mut got = keys.clone();
                got.sort_unstable();
                assert_eq!(got, want);
            }
        }
    }
}

#[test]
fn engine_sort_sorts_every_power_of_two_side_with_buckets_and_empty_slots() {
    let mut rng = Rng::new(3, Stream::Workload);
    for side in [2u32, 4, 8, 16, 32, 64] {
        let mesh = Mesh::new(side).unwrap();
        for c in [1u32, 2] {
            let n = side * side;
            // Up to c packets per node (some nodes empty), random keys.
            let mut packets = Vec::new();
            for v in 0..n {
                for _ in 0..rng.below(c + 1) {
                    packets.push((v, (v + 1 + rng.below(n - 1)) % n));
                }
            }
            let mut e = engine(side, &packets);
            let keys: Vec<u64> = (0..packets.len()).map(|_| rng.below(50) as u64).collect();
            let items: Vec<(u32, u64)> = (0..packets.len() as u32).map(|p| (p, keys[p as usize])).collect();
            let mut task = SortTask::new(&e, mesh, side, c, &items);
            let steps = drive(&mut e, &mut task);
            assert_eq!(steps, SortTask::duration(side, c), "side {side} c {c}");
            // Node i of the snake holds ranks c·i .. c·i + c − 1: the keys in
            // snake order of nodes (local order inside a node) are sorted and compact.
            let mut at: Vec<Vec<(u64, u32)>> = vec![Vec::new(); n as usize];
            for p in 0..packets.len() as u32 {
                at[e.position(p) as usize].push((keys[p as usize], p));
            }
            let mut seq = Vec::new();
            let mut filled = true;
            for i in 0..n {
                let v = mesh.snake_node(0, 0, side, i);
                let mut here = at[v as usize].clone();
                here.sort_unstable();
                assert!(here.len() <= c as usize);
                if here.len() < c as usize && i < packets.len() as u32 / c {
                    filled = false;
                }
                seq.extend(here);
            }
            assert!(seq.windows(2).all(|w| w[0] <= w[1]), "side {side} c {c}: not sorted");
            assert!(filled, "side {side} c {c}: sorted items are not compact");
            assert!(e.stats().max_queue <= 2 * c, "queue {}", e.stats().max_queue);
        }
    }
}

/// The engine task itself (pipelined rounds, scripted moves and control
/// messages, invariant checks on) sorts every 0-1 input of a 2×2 and a
/// 4×4 mesh, one packet per node, in both snake orders, in exactly
/// `duration` steps (0-1 principle: then it sorts every input).
#[test]
fn engine_sort_sorts_every_0_1_input_of_4x4() {
    for side in [2u32, 4] {
        let mesh = Mesh::new(side).unwrap();
        let n = side * side;
        let packets: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
        for bits in 0u32..1 << n {
            for column_major in [false, true] {
                let mut e = engine_checked(side, &packets, bits % 97 == 0);
                let items: Vec<(u32, u64)> = (0..n).map(|p| (p, ((bits >> p) & 1) as u64)).collect();
                let task = SortTask::new(&e, mesh, side, 1, &items);
                let mut task = if column_major { task.column_major() } else { task };
                assert_eq!(drive(&mut e, &mut task), SortTask::duration(side, 1));
                let mut key_at = vec![0u64; n as usize];
                for p in 0..n {
                    key_at[e.position(p) as usize] = (bits >> p) as u64 & 1;
                }
                let seq: Vec<u64> = (0..n)
                    .map(|i| {
                        let (a, x) = (i / side, i % side);
                        let b = if a % 2 == 0 { x } else { side - 1 - x };
                        let v = if column_major { mesh.node(b, a) } else { mesh.node(a, b) };
                        key_at[v as usize]
                    })
                    .collect();
                assert!(seq.windows(2).all(|w| w[0] <= w[1]), "side {side} input {bits:#x}");
            }
        }
    }
}

#[test]
fn engine_sort_sorts_both_snake_orders_with_buckets_and_duplicates_up_to_side_128() {
    let mut rng = Rng::new(17, Stream::Workload);
    for side in [2u32, 4, 8, 16, 32, 64, 128] {
        let mesh = Mesh::new(side).unwrap();
        let n = side * side;
        // Side 128 with c = 1 only, to keep the test fast (every c at 128 is
        // checked off the engine below).
        let cs: &[u32] = if side == 128 { &[1] } else { &[1, 2, 3] };
        for &c in cs {
            for column_major in [false, true] {
                // Full and partly empty buckets; keys with many duplicates.
                let mut packets = Vec::new();
                for v in 0..n {
                    let here = if rng.below(2) == 0 { c } else { rng.below(c + 1) };
                    for _ in 0..here {
                        packets.push((v, (v + 1 + rng.below(n - 1)) % n));
                    }
                }
                // Invariant checks up to side 32 (they cost O(N) per step).
                let mut e = engine_checked(side, &packets, side <= 32);
                let spread = [2, side, 4 * n][rng.below(3) as usize];
                let keys: Vec<u64> = (0..packets.len()).map(|_| rng.below(spread) as u64).collect();
                let items: Vec<(u32, u64)> = (0..packets.len() as u32).map(|p| (p, keys[p as usize])).collect();
                let task = SortTask::new(&e, mesh, side, c, &items);
                let mut task = if column_major { task.column_major() } else { task };
                let steps = drive(&mut e, &mut task);
                let what = format!("side {side} c {c} column-major {column_major}");
                assert_eq!(steps, SortTask::duration(side, c), "{what}");
                let mut at: Vec<Vec<u64>> = vec![Vec::new(); n as usize];
                for p in 0..packets.len() as u32 {
                    at[e.position(p) as usize].push(keys[p as usize]);
                }
                let mut seq = Vec::new();
                for i in 0..n {
                    let v = if column_major {
                        let (col, x) = (i / side, i % side);
                        mesh.node(if col % 2 == 0 { x } else { side - 1 - x }, col)
                    } else {
                        mesh.snake_node(0, 0, side, i)
                    };
                    let mut here = at[v as usize].clone();
                    // Compact: node i of the order holds ranks c·i .. c·i + c − 1.
                    let want = (packets.len() as u32).saturating_sub(c * i).min(c);
                    assert_eq!(here.len() as u32, want, "{what}: node {i} of the order");
                    here.sort_unstable();
                    seq.extend(here);
                }
                assert!(seq.windows(2).all(|w| w[0] <= w[1]), "{what}: not sorted");
                assert!(e.stats().max_queue <= 2 * c, "{what}: queue {}", e.stats().max_queue);
            }
        }
    }
}

#[test]
fn bucket_sort_network_sorts_both_snake_orders_on_every_side_up_to_128() {
    let mut rng = Rng::new(23, Stream::Workload);
    for side in [1u32, 2, 4, 8, 16, 32, 64, 128] {
        // Every region side up to side 32; past it regions of 4 and the whole mesh.
        let regions: Vec<u32> = if side <= 32 {
            (0..=side.ilog2()).map(|i| 1u32 << i).collect()
        } else {
            vec![4, side]
        };
        for m in regions {
            for c in [1usize, 2, 3] {
                for transposed in [false, true] {
                    let n = (side * side) as usize;
                    let spread = [2, side, 1 << 20][rng.below(3) as usize];
                    let empty = rng.below(3);
                    let mut slots: Vec<u128> = (0..n * c)
                        .map(|_| {
                            if rng.below(4) < empty {
                                EMPTY
                            } else {
                                rng.below(spread) as u128
                            }
                        })
                        .collect();
                    for bucket in slots.chunks_mut(c) {
                        bucket.sort_unstable();
                    }
                    let mut want = slots.clone();
                    sort_buckets_offline(side, m, c, transposed, &mut slots);
                    let what = format!("side {side} m {m} c {c} transposed {transposed}");
                    for r0 in (0..side).step_by(m as usize) {
                        for c0 in (0..side).step_by(m as usize) {
                            let seq = snake_sequence(side, m, (r0, c0), c, transposed, &slots);
                            assert!(seq.windows(2).all(|w| w[0] <= w[1]), "{what}: region ({r0}, {c0})");
                        }
                    }
                    want.sort_unstable();
                    slots.sort_unstable();
                    assert_eq!(slots, want, "{what}");
                }
            }
        }
    }
}

#[test]
fn sort_steps_per_side_are_flat_and_below_7() {
    let per_side: Vec<f64> = [16u32, 32, 64, 128, 256]
        .iter()
        .map(|&m| SortTask::duration(m, 1) as f64 / m as f64)
        .collect();
    for w in per_side.windows(2) {
        assert!(w[1] <= w[0] * 1.1, "{per_side:?}");
    }
    assert!(per_side.iter().all(|&x| (6.0..7.0).contains(&x)), "{per_side:?}");
    // The documented count: R = 7m − 10 − log₂ m rounds for m ≥ 8, pipelined
    // (SPEC §1): (R + 1)·c steps.
    for m in [8u32, 16, 32, 64, 128, 256, 512, 1024] {
        for c in 1..=3 {
            assert_eq!(SortTask::duration(m, c), (7 * m - 9 - m.ilog2()) * c, "m {m} c {c}");
        }
    }
}

/// SPEC §1: round r + 1's keys may cross while round r's packets do only
/// if the two rounds use disjoint links; the network is built so that every
/// two consecutive rounds do (the engine task also asserts it on every
/// message and move).
#[test]
fn consecutive_rounds_of_the_sort_share_no_link() {
    for m in [2u32, 4, 8, 16, 32, 64] {
        assert_eq!(consecutive_rounds_share_no_link(m), None, "m {m}");
    }
}

/// A k×k block of 0-1 keys for 64 inputs at once: bit i of a cell is its key
/// in input i.
type Lanes = Vec<u64>;

/// The rounds of merge level k as (kind, pairs of cell indices).
fn level_network(k: u32, last: bool) -> Vec<(RoundKind, Vec<(usize, usize)>)> {
    let mut pairs = Vec::new();
    (0..rounds_in_level(k, last))
        .map(|q| {
            let kind = level_round(k, last, q, &mut pairs);
            let at = |(r, c): (u32, u32)| (r * k + c) as usize;
            (kind, pairs.iter().map(|&(x, y)| (at(x), at(y))).collect())
        })
        .collect()
}

/// Runs a level's rounds on the lanes (a compare-exchange of 0-1 keys is
/// (min, max) = (and, or)).
fn run_level(network: &[(RoundKind, Vec<(usize, usize)>)], cells: &mut Lanes) {
    for (kind, pairs) in network {
        for &(a, b) in pairs {
            if *kind == RoundKind::Exchange {
                cells.swap(a, b);
            } else {
                let (x, y) = (cells[a], cells[b]);
                cells[a] = x & y;
                cells[b] = x | y;
            }
        }
    }
}

/// Lanes whose block is not roughly sorted: a column with a 1 above a 0, or
/// a row holding a 0 below a row holding a 1 (two dirty rows).
fn not_roughly_sorted(k: u32, cells: &Lanes) -> u64 {
    let at = |r: u32, c: u32| cells[(r * k + c) as usize];
    let mut bad = 0;
    for r in 1..k {
        let (mut zero_here, mut one_above) = (0u64, 0u64);
        for c in 0..k {
            bad |= at(r - 1, c) & !at(r, c);
            zero_here |= !at(r, c);
            one_above |= at(r - 1, c);
        }
        bad |= zero_here & one_above;
    }
    bad
}

/// Lanes whose block is not in snake order.
fn not_snake_sorted(k: u32, cells: &Lanes) -> u64 {
    let seq: Vec<u64> = (0..k * k)
        .map(|i| {
            let (r, x) = (i / k, i % k);
            cells[(r * k + if r % 2 == 0 { x } else { k - 1 - x }) as usize]
        })
        .collect();
    seq.windows(2).fold(0, |bad, w| bad | (w[0] & !w[1]))
}

/// Every roughly sorted h×h 0-1 block, row-major bits (bit = 1 is a 1):
/// rows above the dirty row a are 0, rows below 1, row a is any pattern.
fn roughly_sorted_quadrants(h: u32) -> Vec<Vec<bool>> {
    let mut out = Vec::new();
    for a in 0..h {
        for bits in 0u32..1 << h {
            out.push(
                (0..h * h)
                    .map(|i| {
                        let r = i / h;
                        r > a || (r == a && (bits >> (i % h)) & 1 == 1)
                    })
                    .collect(),
            );
        }
    }
    out
}

/// Merge level k and its last-level form.
struct Level {
    k: u32,
    inner: Vec<(RoundKind, Vec<(usize, usize)>)>,
    last: Vec<(RoundKind, Vec<(usize, usize)>)>,
}

impl Level {
    fn new(k: u32) -> Level {
        Level {
            k,
            inner: level_network(k, false),
            last: level_network(k, true),
        }
    }
}

/// Checks merge level k (and its last-level form) on up to 64 inputs given
/// by their four quadrants: roughly sorted out, or snake order out if last.
fn check_level_batch(level: &Level, quads: &[[&[bool]; 4]]) {
    let k = level.k;
    let h = k / 2;
    let mut cells: Lanes = vec![0; (k * k) as usize];
    for (q, (r0, c0)) in [(0, 0), (0, h), (h, 0), (h, h)].into_iter().enumerate() {
        let uniform = quads.iter().all(|x| std::ptr::eq(x[q], quads[0][q]));
        for i in 0..h * h {
            let v = ((r0 + i / h) * k + c0 + i % h) as usize;
            cells[v] = if uniform {
                if quads[0][q][i as usize] {
                    u64::MAX
                } else {
                    0
                }
            } else {
                quads
                    .iter()
                    .enumerate()
                    .fold(0, |m, (lane, x)| m | (x[q][i as usize] as u64) << lane)
            };
        }
    }
    let used = if quads.len() == 64 {
        u64::MAX
    } else {
        (1u64 << quads.len()) - 1
    };
    for (last, network) in [(false, &level.inner), (true, &level.last)] {
        let mut out = cells.clone();
        run_level(network, &mut out);
        let bad = used
            & if last {
                not_snake_sorted(k, &out)
            } else {
                not_roughly_sorted(k, &out)
            };
        if bad != 0 {
            let lane = bad.trailing_zeros() as usize;
            panic!("k {k} last {last}: input quadrants {:?}", quads[lane]);
        }
    }
}

#[test]
fn every_merge_level_sorts_every_0_1_input_with_roughly_sorted_quadrants() {
    // Exhaustive for k = 2, 4, 8 (16.8 million inputs at k = 8), by the
    // 0-1 principle all inputs whose quadrants are roughly sorted.
    for k in [2u32, 4, 8] {
        let level = Level::new(k);
        let all = roughly_sorted_quadrants(k / 2);
        let p = all.len();
        let total = p.pow(4);
        let mut batch: Vec<[&[bool]; 4]> = Vec::with_capacity(64);
        for i in 0..total {
            let (a, b, c, d) = (i / (p * p * p), i / (p * p) % p, i / p % p, i % p);
            batch.push([&all[a], &all[b], &all[c], &all[d]]);
            if batch.len() == 64 || i + 1 == total {
                check_level_batch(&level, &batch);
                batch.clear();
            }
        }
    }
}

#[test]
fn every_merge_level_sorts_random_0_1_inputs_with_roughly_sorted_quadrants() {
    let mut rng = Rng::new(11, Stream::Workload);
    for (k, batches) in [(16u32, 1500), (32, 300), (64, 40)] {
        let level = Level::new(k);
        let h = k / 2;
        for _ in 0..batches {
            // Skewed zero counts too: the dirty row near the top, the middle or the bottom.
            let quads: Vec<[Vec<bool>; 4]> = (0..64)
                .map(|_| {
                    std::array::from_fn(|_| {
                        let a = match rng.below(3) {
                            0 => rng.below(h.min(3)),
                            1 => h - 1 - rng.below(h.min(3)),
                            _ => rng.below(h),
                        };
                        let density = rng.below(5);
                        (0..h * h)
                            .map(|i| {
                                let r = i / h;
                                r > a || (r == a && rng.below(4) < density)
                            })
                            .collect()
                    })
                })
                .collect();
            let refs: Vec<[&[bool]; 4]> = quads
                .iter()
                .map(|q| [&q[0][..], &q[1][..], &q[2][..], &q[3][..]])
                .collect();
            check_level_batch(&level, &refs);
        }
    }
}

#[test]
fn sort_inside_tiles_sorts_each_tile() {
    let side = 16;
    let mesh = Mesh::new(side).unwrap();
    let packets: Vec<(u32, u32)> = (0..side * side).map(|v| (v, (v + 1) % (side * side))).collect();
    let mut e = engine(side, &packets);
    let mut rng = Rng::new(5, Stream::Workload);
    let keys: Vec<u64> = (0..packets.len()).map(|_| rng.below(1000) as u64).collect();
    let items: Vec<(u32, u64)> = (0..packets.len() as u32).map(|p| (p, keys[p as usize])).collect();
    let mut task = SortTask::new(&e, mesh, 4, 1, &items);
    drive(&mut e, &mut task);
    let mut key_at = vec![0u128; (side * side) as usize];
    for p in 0..packets.len() as u32 {
        key_at[e.position(p) as usize] = keys[p as usize] as u128;
    }
    assert!(snake_sorted(side, 4, &key_at));
}
