//! Instance lower bounds (SPEC §4): hand-computed values, brute-force
//! references that agree with the fast computation, and soundness against
//! real greedy / bit-fixing runs.

use crate::common::topo;
use proptest::prelude::*;
use routesim::bounds::{compute, compute_with, Bounds, BoundsConfig};
use routesim::topology::{Network, Topology};
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::{SimConfig, Simulation, Status};

fn inst(t: &str, packets: Vec<(u32, u32)>) -> Instance {
    Instance::new(topo(t), packets).unwrap()
}

/// A small deterministic generator (splitmix64), independent of the crate's.
struct Gen(u64);

impl Gen {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u32) -> u32 {
        (self.next() % n as u64) as u32
    }
}

/// Random packets of several shapes: uniform, a hot spot, a hot source, a
/// local cluster, a random permutation.
fn random_packets(t: &Topology, g: &mut Gen) -> Vec<(u32, u32)> {
    let n = t.nodes();
    let count = g.below(3 * n + 4);
    match g.below(5) {
        0 => (0..count).map(|_| (g.below(n), g.below(n))).collect(),
        1 => {
            let hot = g.below(n);
            (0..count)
                .map(|_| (g.below(n), if g.below(3) > 0 { hot } else { g.below(n) }))
                .collect()
        }
        2 => {
            let hot = g.below(n);
            (0..count)
                .map(|_| (if g.below(3) > 0 { hot } else { g.below(n) }, g.below(n)))
                .collect()
        }
        3 => {
            // Sources and destinations drawn from a small window of ids.
            let lo = g.below(n);
            let span = 1 + g.below(n - lo);
            (0..count)
                .map(|_| {
                    (
                        lo + g.below(span),
                        if g.below(4) == 0 {
                            g.below(n)
                        } else {
                            lo + g.below(span)
                        },
                    )
                })
                .collect()
        }
        _ => {
            let mut perm: Vec<u32> = (0..n).collect();
            for i in (1..n as usize).rev() {
                perm.swap(i, g.below(i as u32 + 1) as usize);
            }
            perm.into_iter().enumerate().map(|(s, d)| (s as u32, d)).collect()
        }
    }
}

// ---------------------------------------------------------------------------
// Brute-force references: every bound re-derived from its definition with
// node sets and links counted by enumerating `neighbor`.
// ---------------------------------------------------------------------------

/// ⌈packets leaving S ÷ links leaving S⌉ and the same entering, for a node set S.
fn cut_value(t: &Topology, packets: &[(u32, u32)], inside: &[bool]) -> u32 {
    let (mut links_out, mut links_in) = (0u64, 0u64);
    for v in 0..t.nodes() {
        for p in 0..t.ports() {
            if let Some(w) = t.neighbor(v, p) {
                if inside[v as usize] && !inside[w as usize] {
                    links_out += 1;
                }
                if !inside[v as usize] && inside[w as usize] {
                    links_in += 1;
                }
            }
        }
    }
    let leaving = packets
        .iter()
        .filter(|&&(s, d)| inside[s as usize] && !inside[d as usize])
        .count() as u64;
    let entering = packets
        .iter()
        .filter(|&&(s, d)| !inside[s as usize] && inside[d as usize])
        .count() as u64;
    let mut best = 0;
    for (count, links) in [(leaving, links_out), (entering, links_in)] {
        if count > 0 {
            assert!(links > 0, "packets cross a cut with no links");
            best = best.max(count.div_ceil(links) as u32);
        }
    }
    best
}

fn set(t: &Topology, pred: impl Fn(u32) -> bool) -> Vec<bool> {
    (0..t.nodes()).map(pred).collect()
}

fn brute_distance(t: &Topology, packets: &[(u32, u32)]) -> u32 {
    let mut best = 0;
    for &(s, d) in packets {
        let mut dist = vec![u32::MAX; t.nodes() as usize];
        dist[s as usize] = 0;
        let mut queue = std::collections::VecDeque::from([s]);
        while let Some(v) = queue.pop_front() {
            for p in 0..t.ports() {
                if let Some(w) = t.neighbor(v, p) {
                    if dist[w as usize] == u32::MAX {
                        dist[w as usize] = dist[v as usize] + 1;
                        queue.push_back(w);
                    }
                }
            }
        }
        best = best.max(dist[d as usize]);
    }
    best
}

fn brute_sink(t: &Topology, packets: &[(u32, u32)]) -> u32 {
    (0..t.nodes())
        .map(|v| cut_value(t, packets, &set(t, |u| u == v)))
        .max()
        .unwrap_or(0)
}

fn brute_bisection(t: &Topology, packets: &[(u32, u32)]) -> u32 {
    let mut best = 0;
    match t {
        Topology::Grid(g) => {
            for dim in 0..g.dims().len() {
                let side = g.dims()[dim];
                if g.wraps() {
                    // Two positions: after a and after b, the arc a+1..=b.
                    for a in 0..side {
                        for b in a + 1..side {
                            best = best.max(cut_value(
                                t,
                                packets,
                                &set(t, |v| (a + 1..=b).contains(&g.coord(v, dim))),
                            ));
                        }
                    }
                } else {
                    for p in 0..side.saturating_sub(1) {
                        best = best.max(cut_value(t, packets, &set(t, |v| g.coord(v, dim) <= p)));
                    }
                }
            }
        }
        Topology::Hypercube(_) | Topology::ShuffleExchange(_) => {
            for j in 0..t.size_parameters()[0] {
                best = best.max(cut_value(t, packets, &set(t, |v| (v >> j) & 1 == 0)));
            }
        }
        Topology::Butterfly(b) => {
            for i in 0..b.dim() {
                best = best.max(cut_value(t, packets, &set(t, |v| b.split(v).0 <= i)));
            }
            for j in 0..b.dim() {
                best = best.max(cut_value(t, packets, &set(t, |v| (b.split(v).1 >> j) & 1 == 0)));
            }
        }
    }
    best
}

/// Exact region bound (or, with `estimate`, the |#dst − #src| ÷ links
/// estimate) over every cubic submesh of a mesh of any dimension (on a
/// linear array: every interval but the whole).
fn brute_region(t: &Topology, packets: &[(u32, u32)], estimate: bool) -> u32 {
    let g = match t {
        Topology::Grid(g) if !g.wraps() => g,
        _ => return 0,
    };
    let n: Vec<u32> = g.dims().to_vec();
    let d = n.len();
    let mut best = 0;
    for s in 1..=*n.iter().min().unwrap() {
        if n.iter().all(|&v| v == s) {
            continue;
        }
        // Every corner x (x_j from 0 to n_j − s).
        let corners: u32 = n.iter().map(|&v| v - s + 1).product();
        for mut c in 0..corners {
            let mut x = vec![0u32; d];
            for j in (0..d).rev() {
                x[j] = c % (n[j] - s + 1);
                c /= n[j] - s + 1;
            }
            let inside = set(t, |v| (0..d).all(|j| (x[j]..x[j] + s).contains(&g.coord(v, j))));
            if !estimate {
                best = best.max(cut_value(t, packets, &inside));
                continue;
            }
            let open: u64 = (0..d).map(|j| (x[j] > 0) as u64 + (x[j] + s < n[j]) as u64).sum();
            let links = (s as u64).pow(d as u32 - 1) * open;
            let src = packets.iter().filter(|&&(a, b)| a != b && inside[a as usize]).count() as u64;
            let dst = packets.iter().filter(|&&(a, b)| a != b && inside[b as usize]).count() as u64;
            best = best.max(src.abs_diff(dst).div_ceil(links) as u32);
        }
    }
    best
}

fn check_against_brute(t: &Topology, packets: Vec<(u32, u32)>) {
    let name = t.to_string();
    let i = Instance::new(t.clone(), packets).unwrap();
    let b = compute(&i);
    let p = &i.packets;
    let want = (
        brute_distance(t, p),
        brute_bisection(t, p),
        brute_sink(t, p),
        brute_region(t, p, false),
    );
    assert_eq!((b.distance, b.bisection, b.sink, b.region), want, "{name} {p:?}");
    assert_eq!(b.best, want.0.max(want.1).max(want.2).max(want.3));
    assert!(b.reference.region_exact);
    // Forcing the estimate for every size gives exactly the brute estimate,
    // never more than the exact value.
    let est = compute_with(
        &i,
        &BoundsConfig {
            region_exact_work: 0,
            ..Default::default()
        },
    );
    assert_eq!(est.region, brute_region(t, p, true), "{name} estimate {p:?}");
    assert!(est.region <= b.region);
    assert_eq!(
        (est.distance, est.bisection, est.sink),
        (b.distance, b.bisection, b.sink)
    );
}

const SMALL_TOPOLOGIES: &[&str] = &[
    "linear:1",
    "linear:2",
    "linear:7",
    "ring:3",
    "ring:4",
    "ring:8",
    "mesh:1x1",
    "mesh:1x5",
    "mesh:2x2",
    "mesh:3x3",
    "mesh:4x4",
    "mesh:5x5",
    "mesh:6x6",
    "mesh:7x7",
    "mesh:3x6",
    "mesh:5x2",
    "mesh:2x3x2",
    "mesh:3x4x5",
    "mesh:4x4x4",
    "mesh:1x3x4",
    "mesh:2x3x2x3",
    "torus:3x3",
    "torus:4x4",
    "torus:5x4",
    "torus:6x6",
    "torus:3x4x3",
    "hypercube:1",
    "hypercube:3",
    "hypercube:5",
    "butterfly:1",
    "butterfly:2",
    "butterfly:3",
    "shuffle-exchange:2",
    "shuffle-exchange:3",
    "shuffle-exchange:5",
];

// ---------------------------------------------------------------------------
// Hand-computed values.
// ---------------------------------------------------------------------------

#[test]
fn empty_and_self_packets_give_zero() {
    for t in [
        "mesh:4x4",
        "torus:4x4",
        "hypercube:3",
        "butterfly:2",
        "ring:5",
        "mesh:1x1",
    ] {
        for packets in [vec![], vec![(0, 0), (0, 0)]] {
            let b = compute(&inst(t, packets));
            assert_eq!(
                (b.distance, b.bisection, b.sink, b.region, b.best),
                (0, 0, 0, 0, 0),
                "{t}"
            );
        }
    }
}

#[test]
fn left_half_to_right_half_of_a_4x4_mesh() {
    // (r, c) → (r, c + 2): all 8 packets cross the middle column cut, 4 links.
    let packets = (0..4)
        .flat_map(|r| (0..2).map(move |c| (r * 4 + c, r * 4 + c + 2)))
        .collect();
    let b = compute(&inst("mesh:4x4", packets));
    assert_eq!((b.distance, b.bisection, b.sink), (2, 2, 1));
    // Region: the 2×2 square in rows 0..2, cols 0..2 has 4 packets leaving
    // over its 2 open sides = 4 links (1); the 3×3 square at (0,0) has 6
    // packets with destination outside... (2 with c=0 stay inside rows 0..2
    // → col 2) checked by brute force elsewhere; here: at most the bisection.
    assert!(b.region <= 2);
    assert_eq!(b.best, 2);
}

#[test]
fn transpose_16x16_spec_example() {
    let t = topo("mesh:16x16");
    let i = generate(&t, &WorkloadSpec::new(Workload::Transpose, 1)).unwrap();
    let b = compute(&i);
    // SPEC §4: distance 30, bisection 4 (64 packets over the 16 links of
    // the middle cut), sink 1, best 30.
    assert_eq!((b.distance, b.bisection, b.sink, b.best), (30, 4, 1, 30));
    // SPEC §4 prints region 4, but with ⌈·⌉ the exact value is 5: the 9×9
    // square in rows 0..9, columns 7..16 holds 81 sources, of which only the
    // 4 with row and column in 7..9 stay inside, so 77 packets leave over
    // its 2 open sides = 18 links, and ⌈77/18⌉ = 5 (72 < 77 in 4 steps).
    assert_eq!(b.region, 5);
    assert_eq!(brute_region(&t, &i.packets, false), 5);
    assert_eq!(b.sqrt_lkn, 16.0);
    assert_eq!(b.reference.sqrt_lkn, 16.0);
    assert_eq!(b.reference.diameter, 30);
    assert_eq!(b.reference.k_side_over_2, Some(8.0));
    assert_eq!(b.reference.k_side_over_4, None);
    let json = serde_json::to_value(&b).unwrap();
    for key in ["distance", "bisection", "sink", "region", "sqrt_lkn", "best"] {
        assert!(json.get(key).is_some(), "{key}");
    }
    assert_eq!(json["reference"]["k_side_over_4"], serde_json::Value::Null);
    assert_eq!(json["reference"]["k_side_over_2"], 8.0);
}

#[test]
fn torus_and_ring_cuts_use_two_positions() {
    // ring:8, i → i+4 for i in 0..4: the arc {0..3} sends 4 packets over its
    // 2 outgoing links.
    let b = compute(&inst("ring:8", (0..4).map(|i| (i, i + 4)).collect()));
    assert_eq!((b.distance, b.bisection, b.sink), (4, 2, 1));
    // torus:4x4, every node of columns 0,1 → same row, column + 2: the arc of
    // columns {0,1} sends 8 packets over 2·4 links.
    let packets = (0..4)
        .flat_map(|r| (0..2).map(move |c| (r * 4 + c, r * 4 + c + 2)))
        .collect();
    let b = compute(&inst("torus:4x4", packets));
    assert_eq!((b.distance, b.bisection, b.region), (2, 1, 0));
    assert_eq!(b.reference.k_side_over_4, Some(1.0));
    assert_eq!(b.reference.k_side_over_2, None);
}

#[test]
fn long_ring_uses_bucketed_positions_and_stays_valid() {
    // ring:5000: a packet from each of 0..2500 to +2500. The exact bound is
    // ⌈2500 / 2⌉ = 1250 (arc 0..2499); bucketed positions see nearly that.
    let b = compute(&inst("ring:5000", (0..2500).map(|i| (i, i + 2500)).collect()));
    assert!(b.bisection <= 1250 && b.bisection >= 1240, "{}", b.bisection);
    assert_eq!(b.distance, 2500);
}

#[test]
fn hypercube_and_butterfly_cuts() {
    // Everyone to its complement on hypercube:3: per bit 4 packets over 4 links.
    let b = compute(&inst("hypercube:3", (0..8).map(|v| (v, v ^ 7)).collect()));
    assert_eq!((b.distance, b.bisection, b.sink, b.region, b.best), (3, 1, 1, 0, 3));
    // 12 packets from node 0 to node 7 of hypercube:3: sink ⌈12/3⌉ = 4, bit
    // cuts 12/4 = 3.
    let b = compute(&inst("hypercube:3", vec![(0, 7); 12]));
    assert_eq!((b.sink, b.bisection), (4, 3));
    // butterfly:2, 3 packets from every level-0 node straight up to level 2:
    // each level cut carries 12 over 2·4 = 8 links upward.
    let packets = (0..4).flat_map(|r| [(r, 8 + r); 3]).collect();
    let b = compute(&inst("butterfly:2", packets));
    assert_eq!((b.distance, b.bisection, b.sink), (2, 2, 2));
    // butterfly:2, 8 packets level-0 row 0 → level-2 row 2 (bit 1 flips 0→1):
    // the bit-1 cut has 4 links from the 0-half: 2 up + 2 down.
    let b = compute(&inst("butterfly:2", vec![(0, 8 + 2); 8]));
    assert_eq!((b.bisection, b.sink), (2, 4));
}

#[test]
fn sink_counts_degree_at_borders() {
    // 10 packets into a mesh corner (degree 2) and into the centre (degree 4).
    let corner = compute(&inst("mesh:5x5", (1..11).map(|v| (v, 0)).collect()));
    assert_eq!(corner.sink, 5);
    let centre = compute(&inst("mesh:5x5", (0..10).map(|v| (v, 12)).collect()));
    assert_eq!(centre.sink, 3);
}

// ---------------------------------------------------------------------------
// Fast = brute force.
// ---------------------------------------------------------------------------

#[test]
fn fast_matches_brute_force_on_small_topologies() {
    let mut g = Gen(7);
    for &name in SMALL_TOPOLOGIES {
        let t = topo(name);
        for _ in 0..12 {
            let packets = random_packets(&t, &mut g);
            check_against_brute(&t, packets);
        }
    }
}

fn small_topology() -> impl Strategy<Value = Topology> {
    prop_oneof![
        (1u32..=7, 1u32..=7).prop_map(|(r, c)| topo(&format!("mesh:{r}x{c}"))),
        (3u32..=6, 3u32..=6).prop_map(|(r, c)| topo(&format!("torus:{r}x{c}"))),
        (1u32..=9).prop_map(|n| topo(&format!("linear:{n}"))),
        (3u32..=9).prop_map(|n| topo(&format!("ring:{n}"))),
        (1u32..=4, 1u32..=4, 1u32..=4).prop_map(|(a, b, c)| topo(&format!("mesh:{a}x{b}x{c}"))),
        (1u32..=3, 1u32..=3, 1u32..=3, 1u32..=3).prop_map(|(a, b, c, e)| topo(&format!("mesh:{a}x{b}x{c}x{e}"))),
        (1u32..=5).prop_map(|d| topo(&format!("hypercube:{d}"))),
        (1u32..=3).prop_map(|d| topo(&format!("butterfly:{d}"))),
        (2u32..=6).prop_map(|d| topo(&format!("shuffle-exchange:{d}"))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn fast_matches_brute_force_random(t in small_topology(), raw in prop::collection::vec((any::<u32>(), any::<u32>()), 0..80)) {
        let n = t.nodes();
        let packets = raw.into_iter().map(|(s, d)| (s % n, d % n)).collect();
        check_against_brute(&t, packets);
    }

    #[test]
    fn fast_matches_brute_force_hot_spots(t in small_topology(), seed in any::<u64>()) {
        let packets = random_packets(&t, &mut Gen(seed));
        check_against_brute(&t, packets);
    }
}

#[test]
fn region_work_limits_stay_between_estimate_and_exact() {
    // Any budget: estimate-only ≤ partly exact ≤ exact (sizes scanned in full);
    // with a scan budget that skips sizes, still ≤ exact and flagged inexact.
    let mut g = Gen(99);
    for name in ["mesh:7x7", "mesh:6x6", "mesh:5x7", "mesh:12x12"] {
        let t = topo(name);
        for _ in 0..20 {
            let i = Instance::new(t.clone(), random_packets(&t, &mut g)).unwrap();
            let exact = compute(&i);
            let brute = brute_region(&t, &i.packets, false);
            assert_eq!(exact.region, brute);
            let estimate = compute_with(
                &i,
                &BoundsConfig {
                    region_exact_work: 0,
                    ..Default::default()
                },
            )
            .region;
            for work in [1, 10, 40, 100, 300, 1000] {
                let b = compute_with(
                    &i,
                    &BoundsConfig {
                        region_exact_work: work,
                        ..Default::default()
                    },
                );
                assert!(estimate <= b.region && b.region <= exact.region, "{name} work {work}");
                assert_eq!(
                    (b.distance, b.bisection, b.sink),
                    (exact.distance, exact.bisection, exact.sink)
                );
            }
            for scan in [1, 20, 60] {
                let b = compute_with(
                    &i,
                    &BoundsConfig {
                        region_scan_work: scan,
                        ..Default::default()
                    },
                );
                assert!(b.region <= exact.region, "{name} scan {scan}");
                let nothing_moves = i.packets.iter().all(|(s, d)| s == d);
                assert!(!b.reference.region_exact || nothing_moves);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Soundness: no run beats `best`.
// ---------------------------------------------------------------------------

fn greedy_steps(i: &Instance) -> u32 {
    let algorithm = if matches!(i.topology, Topology::Grid(_)) {
        "greedy"
    } else {
        "bit-fixing"
    };
    let config = SimConfig {
        algorithm: algorithm.into(),
        check_invariants: false,
        record_series: false,
        ..Default::default()
    };
    let mut sim = Simulation::new(i.clone(), config).unwrap();
    assert_eq!(sim.run(), Status::Finished, "{}", i.topology);
    sim.report().steps
}

fn assert_sound(i: &Instance) -> Bounds {
    let b = compute(i);
    let steps = greedy_steps(i);
    assert!(
        b.best <= steps,
        "{} best {} > steps {steps}: {b:?} {:?}",
        i.topology,
        b.best,
        i.packets
    );
    b
}

#[test]
fn best_never_exceeds_a_real_run() {
    let topologies = [
        "linear:9",
        "ring:7",
        "ring:10",
        "mesh:4x4",
        "mesh:7x7",
        "mesh:8x8",
        "mesh:3x9",
        "mesh:3x3x3",
        "torus:5x5",
        "torus:6x4",
        "torus:3x4x3",
        "hypercube:4",
        "hypercube:6",
        "butterfly:2",
        "butterfly:3",
        "shuffle-exchange:4",
        "shuffle-exchange:7",
    ];
    let mut g = Gen(2024);
    let mut tight = 0;
    for name in topologies {
        let t = topo(name);
        for _ in 0..25 {
            let packets = random_packets(&t, &mut g);
            let i = Instance::new(t.clone(), packets).unwrap();
            let b = assert_sound(&i);
            tight += (b.best == greedy_steps(&i)) as u32;
        }
    }
    assert!(tight > 0, "no instance met its bound: the test is not probing");
}

#[test]
fn best_never_exceeds_a_real_run_on_adversarial_shapes() {
    // Hot spots in corners and centres, half-to-half shifts, transposes.
    for side in [4u32, 6, 9] {
        let n = side * side;
        let t = format!("mesh:{side}x{side}");
        for hot in [0, n / 2 + side / 2, n - 1] {
            assert_sound(&inst(&t, (0..n).filter(|&v| v != hot).map(|v| (v, hot)).collect()));
            assert_sound(&inst(&t, (0..n).filter(|&v| v != hot).map(|v| (hot, v)).collect()));
        }
        let shift = (0..n)
            .map(|v| (v, (v % side + side / 2) % side + v / side * side))
            .collect();
        assert_sound(&inst(&t, shift));
        let b = assert_sound(&generate(&topo(&t), &WorkloadSpec::new(Workload::Transpose, 1)).unwrap());
        assert_eq!(b.distance, 2 * side - 2);
        // A corner square receiving from everywhere: the region bound bites.
        let mut packets = vec![];
        for v in 0..n {
            let (r, c) = (v / side, v % side);
            if r >= 2 || c >= 2 {
                packets.push((v, (v % 2) * side + (v / 2) % 2));
            }
        }
        let b = assert_sound(&inst(&t, packets));
        assert!(b.region >= b.bisection, "{t}: {b:?}");
    }
}

// ---------------------------------------------------------------------------
// Speed (timings printed with --nocapture; release numbers in the report).
// ---------------------------------------------------------------------------

fn random_permutation(t: &Topology, seed: u64) -> Instance {
    let n = t.nodes();
    let mut g = Gen(seed);
    let mut perm: Vec<u32> = (0..n).collect();
    for i in (1..n as usize).rev() {
        perm.swap(i, g.below(i as u32 + 1) as usize);
    }
    Instance::new(
        t.clone(),
        perm.into_iter().enumerate().map(|(s, d)| (s as u32, d)).collect(),
    )
    .unwrap()
}

#[test]
fn mesh_256_is_fast_and_exact() {
    let i = random_permutation(&topo("mesh:256x256"), 5);
    let start = std::time::Instant::now();
    let b = compute(&i);
    let elapsed = start.elapsed();
    println!("mesh:256x256 random permutation: {elapsed:?} {b:?}");
    assert!(b.reference.region_exact);
    assert!(elapsed.as_secs_f64() < 5.0, "{elapsed:?}");
}

/// Every node sends to a node at most `reach` rows and columns away.
fn local_traffic(side: u32, reach: u32, seed: u64) -> Instance {
    let mut g = Gen(seed);
    let packets = (0..side * side)
        .map(|v| {
            let (r, c) = (v / side, v % side);
            let mut step = |x: u32| {
                let off = g.below(2 * reach + 1) as i64 - reach as i64;
                let y = x as i64 + off;
                (if (0..side as i64).contains(&y) {
                    y
                } else {
                    x as i64 - off
                })
                .clamp(0, side as i64 - 1) as u32
            };
            let (r2, c2) = (step(r), step(c));
            (v, r2 * side + c2)
        })
        .collect();
    Instance::new(topo(&format!("mesh:{side}x{side}")), packets).unwrap()
}

#[test]
#[ignore = "large; run with --release -- --ignored --nocapture"]
fn large_instances_timing() {
    let mut cases: Vec<(String, Instance)> = vec![];
    for (t, seed) in [
        ("mesh:256x256", 7),
        ("mesh:512x512", 3),
        ("mesh:1024x1024", 1),
        ("torus:1024x1024", 2),
        ("ring:100000", 4),
        ("hypercube:20", 5),
        ("butterfly:16", 6),
    ] {
        cases.push((format!("{t} random permutation"), random_permutation(&topo(t), seed)));
    }
    cases.push(("mesh:256x256 local 8".into(), local_traffic(256, 8, 1)));
    cases.push(("mesh:1024x1024 local 8".into(), local_traffic(1024, 8, 1)));
    cases.push(("mesh:1024x1024 local 100".into(), local_traffic(1024, 100, 1)));
    for (name, i) in cases {
        let start = std::time::Instant::now();
        let b = compute(&i);
        println!("{name} ({} packets): {:?} {b:?}", i.packets.len(), start.elapsed());
    }
}

#[test]
#[ignore = "profiling"]
fn region_profile() {
    use routesim::bounds::region_bound;
    for (t, seed) in [("mesh:512x512", 3), ("mesh:1024x1024", 1)] {
        let i = random_permutation(&topo(t), seed);
        for (ew, sw) in [(0, u64::MAX), (u64::MAX, u64::MAX), (1 << 28, 1 << 29)] {
            let start = std::time::Instant::now();
            let r = region_bound(
                &i.topology,
                &i.packets,
                &BoundsConfig {
                    region_exact_work: ew,
                    region_scan_work: sw,
                },
            );
            println!("{t} exact_work {ew} scan {sw}: {:?} {r:?}", start.elapsed());
        }
    }
}

/// The shuffle-exchange's bit cuts: the closed form of the links from the
/// 0-side to the 1-side agrees with counting them, both ways, D 1..10.
#[test]
fn shuffle_exchange_cut_links_are_counted_exactly() {
    use routesim::bounds::shuffle_exchange_cut_links;
    use routesim::topology::{Network, Topology};
    for dim in 1..=10u32 {
        let topo: Topology = format!("shuffle-exchange:{dim}").parse().unwrap();
        for j in 0..dim {
            let bit = |v: u32| (v >> j) & 1;
            let (mut up, mut down) = (0u64, 0u64);
            for v in 0..topo.nodes() {
                for p in 0..topo.ports() {
                    if let Some(w) = topo.neighbor(v, p) {
                        match (bit(v), bit(w)) {
                            (0, 1) => up += 1,
                            (1, 0) => down += 1,
                            _ => {}
                        }
                    }
                }
            }
            assert_eq!((up, down), (shuffle_exchange_cut_links(dim, j), up), "D={dim} j={j}");
        }
    }
}

/// A ring or torus past `TORUS_CUT_BUCKETS` positions tries a sub-family of
/// its cuts, and says so (the bounds audit of 2026-12-01): 50 packets from
/// 1 to 3 and 50 from 2 to 0 cross both links of the arc {1, 2} outward,
/// 100 packets over 2 links; ring:2049's evenly spread cut positions miss it.
#[test]
fn bisection_says_when_it_tried_only_some_torus_cuts() {
    let packets = |_| [vec![(1, 3); 50], vec![(2, 0); 50]].concat();
    let exact = compute(&inst("ring:2048", packets(())));
    assert_eq!(exact.bisection, 50);
    assert!(exact.reference.bisection_exact);
    let wide = compute(&inst("ring:2049", packets(())));
    assert!(!wide.reference.bisection_exact);
    assert!(wide.bisection <= 50, "a sub-family of cuts gives at most the bound");
    let json = serde_json::to_value(&exact).unwrap();
    assert!(
        json["reference"].get("bisection_exact").is_none(),
        "written only when false"
    );
    assert_eq!(
        serde_json::to_value(&wide).unwrap()["reference"]["bisection_exact"],
        false
    );
    assert!(compute(&inst("mesh:3000x2", vec![(0, 5999)])).reference.bisection_exact);
}
