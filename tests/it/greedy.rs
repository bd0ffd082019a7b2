//! Greedy dimension-order routing against the exact and proven bounds of the
//! papers: Lemma 2 of Kaufmann–Sibeyn on linear arrays (exact), 2n−2 for
//! permutations of an n×n mesh with farthest-first, queue growth on
//! bit-reversal.

use crate::common::{mesh, run, run_config};
use proptest::prelude::*;
use routesim::claims::lemma2 as fast_lemma2;
use routesim::engine::Policy;
use routesim::rng::{Rng, Stream};
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::SimConfig;

/// Lemma 2 (Kaufmann–Sibeyn §5.1.1): with farthest-first, routing to the right
/// takes exactly T_r = max over i < j of (j − i + h_r(i, j)), h_r(i, j) =
/// #packets from nodes ≤ i to nodes ≥ j, minus 1, over pairs with such a
/// packet; to the left symmetrically; the two directions use disjoint links.
fn lemma2(n: u32, packets: &[(u32, u32)]) -> u32 {
    let right = |pk: &[(u32, u32)]| -> u32 {
        let mut best = 0;
        for i in 0..n {
            for j in i + 1..n {
                let h = pk.iter().filter(|&&(s, d)| s <= i && d >= j).count() as u32;
                if h > 0 {
                    best = best.max(j - i + h - 1);
                }
            }
        }
        best
    };
    let mirrored: Vec<(u32, u32)> = packets.iter().map(|&(s, d)| (n - 1 - s, n - 1 - d)).collect();
    right(packets).max(right(&mirrored))
}

/// The library's Lemma 2 (`claims::lemma2`, O((n + P) log n), which the
/// page's exact claim evaluates) against the definition above.
#[test]
fn the_library_lemma2_matches_its_definition() {
    let mut rng = Rng::new(7, Stream::Workload);
    for case in 0..300 {
        let n = 1 + case % 23;
        let count = rng.below(40);
        let packets: Vec<(u32, u32)> = (0..count).map(|_| (rng.below(n), rng.below(n))).collect();
        let l = fast_lemma2(n, &packets);
        assert_eq!(l.steps, lemma2(n, &packets), "n={n} {packets:?}");
        if l.packets > 0 {
            // The pair it names attains the maximum.
            let (i, j) = (l.i, l.j);
            let h = packets
                .iter()
                .filter(|&&(s, d)| {
                    if l.rightward {
                        s <= i && d >= j
                    } else {
                        s >= i && d <= j
                    }
                })
                .count() as u32;
            assert_eq!(h, l.packets);
            assert_eq!(i.abs_diff(j) + h - 1, l.steps);
        }
    }
}

/// Every multiset of up to 4 packets on arrays of 1 to 4 nodes: the
/// random cases above missed the ones where the segment tree's query
/// range matters (found by `cargo mutants`: a range that reached i = j
/// gave 3 for two packets 0 → 1 and two 1 → 2, whose time is 2).
#[test]
fn the_library_lemma2_matches_its_definition_on_every_small_instance() {
    fn multisets(
        all: &[(u32, u32)],
        size: usize,
        from: usize,
        cur: &mut Vec<(u32, u32)>,
        out: &mut Vec<Vec<(u32, u32)>>,
    ) {
        out.push(cur.clone());
        if cur.len() == size {
            return;
        }
        for i in from..all.len() {
            cur.push(all[i]);
            multisets(all, size, i, cur, out);
            cur.pop();
        }
    }
    for n in 1..=4u32 {
        let all: Vec<(u32, u32)> = (0..n).flat_map(|s| (0..n).map(move |d| (s, d))).collect();
        let mut cases = Vec::new();
        multisets(&all, 4, 0, &mut Vec::new(), &mut cases);
        for packets in cases {
            assert_eq!(fast_lemma2(n, &packets).steps, lemma2(n, &packets), "n={n} {packets:?}");
        }
    }
    assert_eq!(fast_lemma2(3, &[(0, 1), (0, 1), (1, 2), (1, 2)]).steps, 2);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn linear_farthest_first_time_is_exactly_lemma_2(
        n in 2u32..24,
        raw in proptest::collection::vec((0u32..1000, 0u32..1000), 0..60),
    ) {
        let packets: Vec<(u32, u32)> = raw.iter().map(|&(s, d)| (s % n, d % n)).collect();
        let topo: Topology = format!("linear:{n}").parse().unwrap();
        let inst = Instance::new(topo, packets.clone()).unwrap();
        let r = run(inst, "greedy", Policy::FarthestFirst);
        prop_assert_eq!(r.steps, lemma2(n, &packets));
        prop_assert!(r.steps >= r.bounds.best);
    }

    /// The lecture's lemma: when every node is the destination of at most one
    /// packet, farthest-first finishes within n − 1 steps, however many
    /// packets start at one node.
    #[test]
    fn linear_one_packet_per_destination_within_n_minus_1(
        n in 2u32..40,
        seed in 0u64..1000,
        sources in proptest::collection::vec(0u32..1000, 40),
    ) {
        let topo: Topology = format!("linear:{n}").parse().unwrap();
        let mut dests: Vec<u32> = (0..n).collect();
        routesim::rng::Rng::new(seed, routesim::rng::Stream::Workload).shuffle(&mut dests);
        let packets: Vec<(u32, u32)> = dests.iter().zip(&sources).map(|(&d, &s)| (s % n, d)).collect();
        let inst = Instance::new(topo, packets).unwrap();
        let r = run(inst, "greedy", Policy::FarthestFirst);
        prop_assert!(r.steps < n);
    }
}

#[test]
fn mesh_permutations_within_2n_minus_2_with_farthest_first() {
    for n in [2u32, 3, 5, 8, 13, 16, 32] {
        let mut workloads = vec![
            Workload::RandomPermutation,
            Workload::Transpose,
            Workload::PointReflection,
        ];
        if n.is_power_of_two() {
            workloads.push(Workload::BitReversal);
        }
        for w in workloads {
            for seed in 1..=3 {
                let inst = generate(&mesh(n), &WorkloadSpec::new(w, seed)).unwrap();
                let r = run(inst, "greedy", Policy::FarthestFirst);
                assert_eq!(r.delivered, n * n);
                assert!(r.steps <= 2 * n - 2, "{w} n={n}: {} > {}", r.steps, 2 * n - 2);
                assert!(r.steps >= r.bounds.best);
            }
        }
    }
}

#[test]
fn bit_reversal_queues_grow_with_the_side() {
    let q: Vec<u32> = [8u32, 16, 32, 64]
        .iter()
        .map(|&n| {
            run(
                generate(&mesh(n), &WorkloadSpec::new(Workload::BitReversal, 1)).unwrap(),
                "greedy",
                Policy::FarthestFirst,
            )
            .max_queue
        })
        .collect();
    // Packets of a row bound for one column pile up where they turn: Θ(n).
    for w in q.windows(2) {
        assert!(w[1] >= w[0] * 3 / 2, "max_queue does not grow: {q:?}");
    }
    assert!(q[3] >= 16, "{q:?}");
}

#[test]
fn every_policy_delivers_every_permutation_and_respects_the_bounds() {
    for policy in Policy::ALL {
        for topo in ["mesh:9x7", "torus:6x6", "ring:11", "mesh:3x4x5"] {
            let topo: Topology = topo.parse().unwrap();
            let inst = generate(&topo, &WorkloadSpec::new(Workload::RandomPermutation, 5)).unwrap();
            let r = run(inst, "greedy", policy);
            assert_eq!(r.delivered, r.packets, "{policy} {topo}");
            assert!(r.steps >= r.bounds.best, "{policy} {topo}");
        }
    }
}

#[test]
fn d_dimensional_mesh_permutation_within_d_times_side_minus_1() {
    for (topo, d, m) in [("mesh:4x4x4", 3u32, 4u32), ("mesh:5x5x5", 3, 5), ("mesh:3x3x3x3", 4, 3)] {
        let topo: Topology = topo.parse().unwrap();
        for seed in 1..=4 {
            let inst = generate(&topo, &WorkloadSpec::new(Workload::RandomPermutation, seed)).unwrap();
            let r = run(inst, "greedy", Policy::FarthestFirst);
            assert!(r.steps <= d * (m - 1), "{topo}: {}", r.steps);
        }
    }
}

#[test]
fn same_seed_same_report_and_random_policy_depends_on_seed() {
    let inst = generate(&mesh(16), &WorkloadSpec::new(Workload::RandomPermutation, 9)).unwrap();
    let cfg = |seed| SimConfig {
        policy: Policy::Random,
        seed,
        ..Default::default()
    };
    let a = serde_json::to_string(&run_config(inst.clone(), cfg(4))).unwrap();
    let b = serde_json::to_string(&run_config(inst.clone(), cfg(4))).unwrap();
    assert_eq!(a, b);
    let differs = (5..15).any(|s| {
        let r = run_config(inst.clone(), cfg(s));
        serde_json::to_string(&r.latency).unwrap()
            != serde_json::to_string(&run_config(inst.clone(), cfg(4)).latency).unwrap()
    });
    assert!(differs, "the random policy ignores the seed");
}
