//! Permutation routing on 2-D meshes (permutation lecture, Section #9):
//! greedy XY (2n−2 steps, its worst-case buffers on `greedy-worst`, the
//! d-dimensional corollary, the average case), `rand-interval` (2n + o(n)
//! steps, O(log n) queues) and `offline` (≤ 3n−3 steps, max_queue ≤ 3).

use crate::common::{gen, mesh, run_config, topo};
use routesim::engine::Policy;
use routesim::report::Report;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::AlgorithmOptions;
use routesim::SimConfig;

fn config(algorithm: &str, policy: Policy, seed: u64) -> SimConfig {
    SimConfig {
        algorithm: algorithm.into(),
        policy,
        seed,
        ..Default::default()
    }
}

fn go(inst: Instance, algorithm: &str, policy: Policy, seed: u64) -> Report {
    run_config(inst, config(algorithm, policy, seed))
}

/// Runs without the per-step invariant checks (large meshes).
fn go_fast(inst: Instance, algorithm: &str, policy: Policy, seed: u64) -> Report {
    let mut sim = routesim::Simulation::new(
        inst,
        SimConfig {
            check_invariants: false,
            record_series: false,
            ..config(algorithm, policy, seed)
        },
    )
    .unwrap();
    assert_eq!(sim.run(), routesim::Status::Finished);
    sim.report()
}

/// The lecture's test permutations on an n×n mesh (bit-reversal when n is
/// a power of two), with `seeds` random permutations.
fn permutations(n: u32, seeds: u64) -> Vec<(String, Instance)> {
    let t = mesh(n);
    let mut out: Vec<(String, Instance)> = (1..=seeds)
        .map(|s| {
            (
                format!("random-permutation#{s}"),
                gen(&t, Workload::RandomPermutation, s),
            )
        })
        .collect();
    let mut fixed = vec![Workload::Transpose, Workload::PointReflection];
    if n.is_power_of_two() {
        fixed.push(Workload::BitReversal);
    }
    if n >= 5 {
        fixed.push(Workload::GreedyWorst);
    }
    out.extend(fixed.into_iter().map(|w| (w.to_string(), gen(&t, w, 1))));
    out
}

/// SPEC §1's policies all deliver every permutation with greedy XY, and
/// with farthest-first greedy XY takes at most 2n − 2 steps (permutation
/// lecture, "XY greedy permutation routing in 2-D mesh", Lemma).
#[test]
fn greedy_xy_every_policy_delivers_and_farthest_first_is_within_2n_minus_2() {
    for n in [2u32, 3, 4, 5, 7, 8, 12, 16, 21, 32] {
        for (name, inst) in permutations(n, 3) {
            for policy in Policy::ALL {
                let r = go(inst.clone(), "greedy", policy, 3);
                assert!(r.steps >= r.bounds.best, "{name} n={n} {policy}");
                if policy == Policy::FarthestFirst {
                    assert!(r.steps <= 2 * n - 2, "{name} n={n}: {} > {}", r.steps, 2 * n - 2);
                }
            }
        }
    }
}

/// `greedy-worst` (the lecture's worst buffer scenario, our construction in
/// `workload::generators::greedy_worst`): greedy XY holds 2t + 1 packets at
/// (1, c) with t = ⌊(n−2)/3⌋, for every policy — linear in n, about 2n/3,
/// more than bit-reversal's n/2 — and farthest-first still takes ≤ 2n − 2.
#[test]
fn greedy_worst_queues_grow_linearly_with_the_side() {
    let mut queues = Vec::new();
    for n in [5u32, 8, 11, 16, 23, 32, 64, 128] {
        let inst = gen(&mesh(n), Workload::GreedyWorst, 1);
        let t = (n - 2) / 3;
        let policies: &[Policy] = if n <= 32 {
            &Policy::ALL
        } else {
            &[Policy::FarthestFirst]
        };
        for &policy in policies {
            let r = go(inst.clone(), "greedy", policy, 1);
            assert!(r.max_queue > 2 * t, "n={n} {policy}: {} < {}", r.max_queue, 2 * t + 1);
            if policy == Policy::FarthestFirst {
                assert!(r.steps <= 2 * n - 2, "n={n}: {}", r.steps);
                // Measured: exactly the hot node's 2t + 1.
                assert_eq!(r.max_queue, 2 * t + 1, "n={n}");
                queues.push((n, r.max_queue));
            }
        }
    }
    // Linear growth: about 2n/3 at every size, doubling with n.
    for &(n, q) in &queues {
        assert!(3 * q >= 2 * n - 6 && q <= n, "n={n}: max_queue {q}");
    }
    for w in queues.windows(2).filter(|w| w[1].0 == 2 * w[0].0) {
        assert!(w[1].1 >= 2 * w[0].1 - 3, "{queues:?}");
    }
    // Worse than bit-reversal's n/2.
    for n in [32u32, 64, 128] {
        let worst = go(
            gen(&mesh(n), Workload::GreedyWorst, 1),
            "greedy",
            Policy::FarthestFirst,
            1,
        );
        let bitrev = go(
            gen(&mesh(n), Workload::BitReversal, 1),
            "greedy",
            Policy::FarthestFirst,
            1,
        );
        assert!(
            worst.max_queue > bitrev.max_queue,
            "n={n}: {} vs {}",
            worst.max_queue,
            bitrev.max_queue
        );
    }
}

#[test]
fn greedy_worst_on_rectangular_meshes_and_refusals() {
    for (r, c) in [(5u32, 3u32), (20, 9), (9, 20), (14, 14), (30, 7)] {
        let t = ((r - 2) / 3).min((c - 1) / 2);
        let inst = gen(&topo(&format!("mesh:{r}x{c}")), Workload::GreedyWorst, 1);
        // An involution: a permutation.
        let mut dest = vec![u32::MAX; (r * c) as usize];
        for &(s, d) in &inst.packets {
            dest[s as usize] = d;
        }
        for (s, &d) in dest.iter().enumerate() {
            assert_eq!(dest[d as usize], s as u32);
        }
        let moving = inst.packets.iter().filter(|(s, d)| s != d).count() as u32;
        assert_eq!(moving, 6 * t);
        let rep = go(inst, "greedy", Policy::FarthestFirst, 1);
        assert!(rep.max_queue > 2 * t, "{r}x{c}: {}", rep.max_queue);
        assert!(rep.steps < r + c - 1);
    }
    for t in [
        "mesh:4x9",
        "mesh:9x2",
        "torus:9x9",
        "mesh:3x3x3",
        "linear:9",
        "hypercube:4",
    ] {
        let e = generate(&topo(t), &WorkloadSpec::new(Workload::GreedyWorst, 1)).unwrap_err();
        assert!(e.to_string().contains("greedy-worst"), "{t}: {e}");
    }
}

/// The lecture's Corollary (side-m d-dimensional mesh, d ≥ 3: greedy
/// dimension-order routing in ≤ d(m − 1) steps). It holds for coordinatewise
/// permutations — every packet of a line enters it in the same step and the
/// line routes a permutation without contention, so each dimension costs
/// ≤ m − 1 — and in every random permutation we tried, but **not for every
/// permutation**: bit-reversal sends the m² packets of a plane x = x0 into
/// the one line (x0, *, rev x0) in the first phase, so ≈ m²/4 of them cross
/// its middle link — Θ(m²) steps with any policy.
#[test]
fn d_dimensional_greedy_within_d_times_side_minus_1_except_for_plane_concentrating_permutations() {
    for (t, d, m) in [
        ("mesh:3x3x3", 3u32, 3u32),
        ("mesh:4x4x4", 3, 4),
        ("mesh:5x5x5", 3, 5),
        ("mesh:7x7x7", 3, 7),
        ("mesh:8x8x8", 3, 8),
        ("mesh:12x12x12", 3, 12),
        ("mesh:3x3x3x3", 4, 3),
        ("mesh:4x4x4x4", 4, 4),
        ("mesh:6x6x6x6", 4, 6),
        ("mesh:2x2x2x2x2", 5, 2),
    ] {
        let t = topo(t);
        let mut ws = vec![Workload::PointReflection, Workload::Tornado, Workload::LargeShift];
        if m.is_power_of_two() {
            ws.push(Workload::BitComplement);
        }
        let mut insts: Vec<Instance> = ws.into_iter().map(|w| gen(&t, w, 1)).collect();
        insts.extend((1..=5).map(|s| gen(&t, Workload::RandomPermutation, s)));
        for inst in insts {
            let name = inst.name.clone().unwrap();
            let r = go(inst, "greedy", Policy::FarthestFirst, 1);
            assert!(r.steps <= d * (m - 1), "{name} on {t}: {} > {}", r.steps, d * (m - 1));
        }
    }
    // The counterexample: bit-reversal. On 16×16×16 the line (x0, *, rev x0)
    // holds 256 packets after the first phase, and the 16 of each odd y
    // (rev y ≥ 8) cross its middle link: ≥ m²/4 = 64 > 45 steps, any policy.
    let m = 16;
    let inst = gen(&topo("mesh:16x16x16"), Workload::BitReversal, 1);
    for policy in Policy::ALL {
        let r = go_fast(inst.clone(), "greedy", policy, 1);
        assert!(r.steps >= m * m / 4 && r.steps > 3 * (m - 1), "{policy}: {}", r.steps);
    }
    let r = go(
        gen(&topo("mesh:8x8x8"), Workload::BitReversal, 1),
        "greedy",
        Policy::FarthestFirst,
        1,
    );
    assert!(r.steps > 3 * 7, "{}", r.steps);
}

/// Lemma "Average-case behavior of greedy permutation routing": on random
/// permutations greedy XY keeps β ≤ 4 w.h.p.; here max_queue ≤ 8 up to
/// n = 256 and its median over 20 seeds does not grow from n = 32 to 256.
#[test]
fn greedy_average_case_queues_stay_small() {
    let mut medians = Vec::new();
    for n in [32u32, 64, 128, 256] {
        let mut q: Vec<u32> = (1..=20)
            .map(|seed| {
                let inst = gen(&mesh(n), Workload::RandomPermutation, 100 + seed);
                let r = if n <= 64 {
                    go(inst, "greedy", Policy::FarthestFirst, 1)
                } else {
                    go_fast(inst, "greedy", Policy::FarthestFirst, 1)
                };
                assert!(r.steps <= 2 * n - 2);
                r.max_queue
            })
            .collect();
        q.sort_unstable();
        println!("greedy, random permutations, n={n}: max_queue over 20 seeds {q:?}");
        assert!(q[19] <= 8, "n={n}: {q:?}");
        medians.push((n, q[10]));
    }
    assert!(medians[3].1 <= medians[0].1, "{medians:?}");
}

/// Lemma "Randomized permutation routing" (2n + o(n) steps, β = O(log n)):
/// steps − (2n − 2) ≤ ⌈n/⌊log₂ n⌋⌉ + 4⌊log₂ n⌋ (phase 1 crosses one
/// interval, phase 3 is a one-per-destination line routing, ≤ n − 1),
/// max_queue ≤ 4⌊log₂ n⌋ + 4, and the excess over 2n − 2 shrinks relative to n.
#[test]
fn rand_interval_is_2n_plus_little_with_logarithmic_queues() {
    let mut excess = Vec::new();
    for n in [2u32, 3, 4, 5, 7, 8, 12, 16, 23, 32, 50, 64, 128, 256] {
        let lg = n.ilog2().max(1);
        let (seeds, instances) = if n <= 64 {
            (4, permutations(n, 3))
        } else {
            (2, permutations(n, 1))
        };
        let mut worst = 0i64;
        for (name, inst) in instances {
            for seed in 1..=seeds {
                let r = if n <= 64 {
                    go(inst.clone(), "rand-interval", Policy::FarthestFirst, seed)
                } else {
                    go_fast(inst.clone(), "rand-interval", Policy::FarthestFirst, seed)
                };
                let extra = r.steps as i64 - (2 * n as i64 - 2);
                let allowed = (n.div_ceil(lg) + 4 * lg) as i64;
                assert!(extra <= allowed, "{name} n={n} seed {seed}: {} steps", r.steps);
                assert!(
                    r.max_queue <= 4 * lg + 4,
                    "{name} n={n} seed {seed}: max_queue {}",
                    r.max_queue
                );
                let phases: Vec<&str> = r.phases.iter().map(|p| p.name.as_str()).collect();
                assert!(phases.len() <= 3, "{phases:?}");
                assert_eq!(r.phases.iter().map(|p| p.steps).sum::<u32>(), r.steps);
                // Phase 3 routes at most one packet to each node of a column:
                // ≤ n − 1 with farthest-first (the lecture's first Lemma).
                if let Some(p) = r.phases.iter().find(|p| p.name == "route-column") {
                    assert!(p.steps < n, "{name} n={n}: phase 3 took {}", p.steps);
                }
                worst = worst.max(extra);
            }
        }
        excess.push((n, worst));
    }
    // o(n): the excess per unit of side falls from n = 32 to n = 256.
    let at = |n: u32| excess.iter().find(|e| e.0 == n).unwrap().1 as f64 / n as f64;
    assert!(at(256) < at(32) && at(256) < 0.25, "{excess:?}");
}

/// Against greedy: on transpose-like worst cases rand-interval's queues are
/// logarithmic where greedy's are linear.
#[test]
fn rand_interval_beats_greedy_queues_on_bad_permutations() {
    for (n, w) in [
        (64u32, Workload::BitReversal),
        (128, Workload::BitReversal),
        (96, Workload::GreedyWorst),
    ] {
        let inst = gen(&mesh(n), w, 1);
        let g = go(inst.clone(), "greedy", Policy::FarthestFirst, 1);
        let r = go(inst, "rand-interval", Policy::FarthestFirst, 1);
        assert!(
            2 * r.max_queue < g.max_queue,
            "{w} n={n}: {} vs {}",
            r.max_queue,
            g.max_queue
        );
    }
}

/// Phase 1 keeps every packet in its column and inside its source row's
/// interval (⌊log₂ R⌋ intervals, sizes within 1), drawn from the seed.
#[test]
fn rand_interval_phase_1_stays_in_the_interval() {
    for (t, seed) in [
        ("mesh:16x16", 1u64),
        ("mesh:23x9", 2),
        ("mesh:40x40", 3),
        ("mesh:7x30", 4),
    ] {
        let t = topo(t);
        let (rows, cols) = t.mesh2d().unwrap();
        let iv = routesim::algorithms::Intervals::for_column(rows);
        assert_eq!(iv.count(), rows.ilog2());
        let w = if rows == cols {
            Workload::Transpose
        } else {
            Workload::RandomPermutation
        };
        let inst = gen(&t, w, seed);
        let mut sim =
            routesim::Simulation::new(inst.clone(), config("rand-interval", Policy::FarthestFirst, seed)).unwrap();
        let mut seen_barrier = false;
        while sim.status() == routesim::Status::Running {
            sim.step();
            let e = sim.engine();
            if e.active().iter().all(|&p| e.classes()[p as usize] == 0) && e.unsettled() == 0 {
                seen_barrier = true;
                for p in e.active() {
                    let (src, pos) = (e.source(p), e.position(p));
                    assert_eq!(pos % cols, src % cols, "packet {p} left its column");
                    let (first, len) = iv.of(src / cols);
                    assert!(
                        (first..first + len).contains(&(pos / cols)),
                        "packet {p} left its interval"
                    );
                }
            }
        }
        assert!(seen_barrier);
        // Same seed, same run; another seed, other intermediate rows.
        let a = go(inst.clone(), "rand-interval", Policy::FarthestFirst, seed);
        let b = go(inst.clone(), "rand-interval", Policy::FarthestFirst, seed);
        assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
        let differs = (seed + 1..seed + 6)
            .any(|s| go(inst.clone(), "rand-interval", Policy::FarthestFirst, s).packet_hops != a.packet_hops);
        assert!(differs);
    }
}

#[test]
fn rand_interval_pipelined_and_other_policies_deliver() {
    for n in [8u32, 13, 32] {
        for (name, inst) in permutations(n, 2) {
            for policy in Policy::ALL {
                let cfg = SimConfig {
                    options: AlgorithmOptions {
                        pipeline: true,
                        ..Default::default()
                    },
                    ..config("rand-interval", policy, 2)
                };
                let r = run_config(inst.clone(), cfg);
                assert_eq!(r.phases.len(), 1, "{name}");
                assert!(r.steps >= r.bounds.best);
                let r = go(inst.clone(), "rand-interval", policy, 2);
                assert!(r.steps >= r.bounds.best, "{name} {policy}");
            }
        }
    }
    // Not only permutations: many-to-one instances are routed too.
    let hot = gen(&mesh(12), Workload::Hotspot, 3);
    go(hot, "rand-interval", Policy::FarthestFirst, 1);
}

/// Lemma "Off-line permutation routing": ≤ 3n − 3 steps on n×n, each phase
/// ≤ (line length − 1), no auxiliary buffers: max_queue ≤ 3 in SPEC §1
/// counting; the precomputation is declared.
#[test]
fn offline_within_3n_minus_3_with_queues_of_at_most_3() {
    for n in [1u32, 2, 3, 4, 5, 7, 8, 12, 16, 27, 32, 64] {
        let mut insts = if n >= 2 { permutations(n, 3) } else { Vec::new() };
        insts.push(("tornado".into(), gen(&mesh(n), Workload::Tornado, 1)));
        for (name, inst) in insts {
            let r = go(inst, "offline", Policy::FarthestFirst, 1);
            check_offline(&r, n, n, &name);
        }
    }
}

fn check_offline(r: &Report, rows: u32, cols: u32, name: &str) {
    let what = format!("{name} on {}", r.topology);
    assert!(r.steps <= 2 * rows + cols - 3, "{what}: {} steps", r.steps);
    assert!(r.max_queue <= 3, "{what}: max_queue {}", r.max_queue);
    assert!(r.offline_precompute);
    let json = serde_json::to_string(r).unwrap();
    assert!(json.contains("\"offline_precompute\":true"), "{json}");
    let limit = |phase: &str| if phase == "route-row" { cols - 1 } else { rows - 1 };
    for p in &r.phases {
        assert!(
            ["permute-columns", "route-row", "route-column"].contains(&p.name.as_str()),
            "{}",
            p.name
        );
        assert!(p.steps <= limit(&p.name), "{what}: phase {} took {}", p.name, p.steps);
    }
    assert_eq!(r.phases.iter().map(|p| p.steps).sum::<u32>(), r.steps, "{what}");
}

/// Rectangular meshes (the lecture's M(m,n) argument), partial permutations
/// padded with dummies, tori, and every policy (which cannot matter: with
/// barriers no two packets ever want one link).
#[test]
fn offline_on_rectangles_partial_permutations_tori_and_any_policy() {
    for (r, c) in [(1u32, 9u32), (9, 1), (3, 7), (8, 5), (6, 10), (17, 4), (2, 30)] {
        let t = topo(&format!("mesh:{r}x{c}"));
        for seed in 1..=3 {
            let full = gen(&t, Workload::RandomPermutation, seed);
            let rep = go(full.clone(), "offline", Policy::FarthestFirst, 1);
            check_offline(&rep, r, c, "random-permutation");
            // A partial permutation: every third packet dropped.
            let part: Vec<(u32, u32)> = full
                .packets
                .iter()
                .copied()
                .enumerate()
                .filter(|(i, _)| i % 3 != 1)
                .map(|(_, p)| p)
                .collect();
            let inst = Instance::new(t.clone(), part).unwrap();
            let rep = go(inst, "offline", Policy::FarthestFirst, 1);
            check_offline(&rep, r, c, "partial");
        }
        let pr = go(
            gen(&t, Workload::PointReflection, 1),
            "offline",
            Policy::FarthestFirst,
            1,
        );
        check_offline(&pr, r, c, "point-reflection");
    }
    // A single packet, and the empty instance.
    let one = Instance::new(topo("mesh:5x6"), vec![(29, 0)]).unwrap();
    assert_eq!(go(one, "offline", Policy::FarthestFirst, 1).steps, 9);
    let none = Instance::new(topo("mesh:5x6"), vec![]).unwrap();
    assert_eq!(go(none, "offline", Policy::FarthestFirst, 1).steps, 0);
    // Tori: each phase is a ring permutation, ≤ ⌊L/2⌋ steps.
    for (r, c) in [(5u32, 5u32), (6, 8), (9, 4)] {
        let t = topo(&format!("torus:{r}x{c}"));
        for seed in 1..=3 {
            let rep = go(
                gen(&t, Workload::RandomPermutation, seed),
                "offline",
                Policy::FarthestFirst,
                1,
            );
            assert!(rep.steps <= 2 * (r / 2) + c / 2 && rep.max_queue <= 3, "{t}: {rep:?}");
        }
    }
    // The policy cannot change anything.
    let inst = gen(&mesh(16), Workload::RandomPermutation, 4);
    let base = go(inst.clone(), "offline", Policy::FarthestFirst, 1);
    for policy in Policy::ALL {
        let r = go(inst.clone(), "offline", policy, 9);
        assert_eq!(
            (r.steps, r.max_queue, r.packet_hops),
            (base.steps, base.max_queue, base.packet_hops),
            "{policy}"
        );
    }
}

/// Invalid use is refused with `Error::Unsupported` naming the algorithm and
/// the reason, never a panic.
#[test]
fn refusals_are_clean() {
    let refuse = |inst: Instance, algorithm: &str| -> String {
        match routesim::Simulation::new(inst, config(algorithm, Policy::FarthestFirst, 1)) {
            Err(e @ routesim::Error::Unsupported { .. }) => e.to_string(),
            Err(e) => panic!("{algorithm}: wrong error {e}"),
            Ok(_) => panic!("{algorithm}: accepted"),
        }
    };
    let hot = gen(&mesh(8), Workload::Hotspot, 1);
    let e = refuse(hot, "offline");
    assert!(
        e.contains("'offline'") && e.contains("permutation") && e.contains("destination of"),
        "{e}"
    );
    let two = generate(
        &mesh(6),
        &WorkloadSpec {
            k: Some(2),
            ..WorkloadSpec::new(Workload::RandomKk, 1)
        },
    )
    .unwrap();
    let e = refuse(two, "offline");
    assert!(e.contains("permutation") && e.contains("source of 2 packets"), "{e}");
    for t in ["mesh:4x4x4", "hypercube:4", "linear:8", "butterfly:3", "ring:9"] {
        let inst = gen(&topo(t), Workload::RandomPermutation, 1);
        let e = refuse(inst, "offline");
        assert!(e.contains("'offline'") && e.contains(t), "{e}");
    }
    for t in ["torus:8x8", "mesh:4x4x4", "hypercube:4", "linear:8"] {
        let inst = gen(&topo(t), Workload::RandomPermutation, 1);
        let e = refuse(inst, "rand-interval");
        assert!(e.contains("'rand-interval'") && e.contains("2-D mesh"), "{e}");
    }
}

/// The figures of the report: for each n and permutation, greedy's steps and
/// max_queue, rand-interval's steps − (2n − 2) beside n/⌊log₂ n⌋ and its
/// max_queue beside ⌊log₂ n⌋ (barrier and pipelined), offline's steps beside
/// 3n − 3 and its max_queue.
#[test]
#[ignore = "prints the measured figures; run with --ignored --nocapture"]
fn figures() {
    println!("n | workload | greedy steps q | rand-interval excess (n/lg) q (lg) phases | pipelined excess q | offline steps (3n-3) q");
    for n in [8u32, 16, 32, 64, 128, 256] {
        let lg = n.ilog2();
        for (name, inst) in permutations(n, 1) {
            let g = go_fast(inst.clone(), "greedy", Policy::FarthestFirst, 1);
            let r = go_fast(inst.clone(), "rand-interval", Policy::FarthestFirst, 1);
            let mut sim = routesim::Simulation::new(
                inst.clone(),
                SimConfig {
                    check_invariants: false,
                    options: AlgorithmOptions {
                        pipeline: true,
                        ..Default::default()
                    },
                    ..config("rand-interval", Policy::FarthestFirst, 1)
                },
            )
            .unwrap();
            sim.run();
            let rp = sim.report();
            let o = go_fast(inst, "offline", Policy::FarthestFirst, 1);
            let excess = |steps: u32| steps as i64 - (2 * n as i64 - 2);
            let phases: Vec<u32> = r.phases.iter().map(|p| p.steps).collect();
            println!(
                "{n} | {name} | {} {} | {} ({}) {} ({lg}) {phases:?} | {} {} | {} ({}) {}",
                g.steps,
                g.max_queue,
                excess(r.steps),
                n.div_ceil(lg),
                r.max_queue,
                excess(rp.steps),
                rp.max_queue,
                o.steps,
                3 * n - 3,
                o.max_queue
            );
        }
    }
}

/// rand-interval over several seeds: the worst excess over 2n − 2 and the
/// worst max_queue per n.
#[test]
#[ignore = "prints the measured figures; run with --ignored --nocapture"]
fn figures_rand_interval_seeds() {
    println!("n | lg | n/lg | worst steps-(2n-2) (instance, phases) | worst max_queue");
    for n in [5u32, 8, 12, 16, 24, 31, 32, 48, 64, 100, 128, 200, 256] {
        let lg = n.ilog2();
        let (mut worst, mut worst_q, mut at) = (i64::MIN, 0, String::new());
        for (name, inst) in permutations(n, 3) {
            for seed in 1..=8 {
                let r = go_fast(inst.clone(), "rand-interval", Policy::FarthestFirst, seed);
                let extra = r.steps as i64 - (2 * n as i64 - 2);
                if extra > worst {
                    worst = extra;
                    let phases: Vec<u32> = r.phases.iter().map(|p| p.steps).collect();
                    at = format!("{name} seed {seed} {phases:?}");
                }
                worst_q = worst_q.max(r.max_queue);
            }
        }
        println!("{n} | {lg} | {} | {worst} ({at}) | {worst_q}", n.div_ceil(lg));
    }
}

/// `offline`'s G_π as the page draws it (`Simulation::routing_graph`): one
/// edge per packet from its source column to its destination column, padded
/// by dummies to R-regular; every colour class a perfect matching of the
/// padded multigraph (every vertex of each side meets it exactly once), one
/// palette colour per class, all distinct; and the run follows it: when
/// `permute-columns` ends, every packet of colour i is in row i.
#[test]
fn offline_routing_graph_is_split_into_perfect_matchings_that_the_first_phase_follows() {
    let partial = |t: &str| {
        let full = gen(&topo(t), Workload::RandomPermutation, 2);
        let part: Vec<(u32, u32)> = full.packets.iter().copied().step_by(2).collect();
        Instance::new(topo(t), part).unwrap()
    };
    let cases = [
        gen(&topo("mesh:8x8"), Workload::RandomPermutation, 1),
        gen(&topo("mesh:6x10"), Workload::RandomPermutation, 3),
        gen(&topo("mesh:16x16"), Workload::GreedyWorst, 1),
        gen(&topo("mesh:16x16"), Workload::Transpose, 1),
        gen(&topo("torus:5x7"), Workload::RandomPermutation, 1),
        partial("mesh:7x9"),
    ];
    for inst in cases {
        let name = inst.topology.to_string();
        let (rows, cols) = inst.topology.mesh2d().unwrap();
        let packets = inst.packets.clone();
        let mut sim = routesim::Simulation::new(inst, config("offline", Policy::FarthestFirst, 1)).unwrap();
        let g = sim.routing_graph().expect("offline plans with G_π");
        assert_eq!((g.vertices, g.colours), (cols, rows), "{name}");
        // The union of the edges is the packets, one each.
        assert_eq!(g.from.len(), packets.len(), "{name}");
        for (p, &(s, d)) in packets.iter().enumerate() {
            assert_eq!((g.from[p], g.to[p]), (s % cols, d % cols), "{name}: packet {p}");
        }
        let dummies = (rows * cols) as usize - packets.len();
        assert_eq!(g.dummy_from.len(), dummies, "{name}");
        assert_eq!(g.dummy_to.len(), dummies, "{name}");
        // Every class is a perfect matching of the padded multigraph.
        let mut left = vec![0u32; (rows * cols) as usize];
        let mut right = vec![0u32; (rows * cols) as usize];
        let all = g
            .from
            .iter()
            .zip(&g.to)
            .zip(&g.colour)
            .chain(g.dummy_from.iter().zip(&g.dummy_to).zip(&g.dummy_colour));
        for ((&a, &b), &c) in all {
            assert!(c < rows, "{name}: colour {c}");
            left[(c * cols + a) as usize] += 1;
            right[(c * cols + b) as usize] += 1;
        }
        assert!(
            left.iter().all(|&n| n == 1),
            "{name}: a colour meets a source column twice or never"
        );
        assert!(
            right.iter().all(|&n| n == 1),
            "{name}: a colour meets a destination column twice or never"
        );
        // One colour per class, all distinct.
        assert_eq!(g.palette.len(), rows as usize);
        let distinct: std::collections::HashSet<&String> = g.palette.iter().collect();
        assert_eq!(distinct.len(), rows as usize, "{name}: {:?}", g.palette);
        assert!(g.caption.contains("Hall's theorem") && g.caption.contains("permute-columns"));
        // The plan is the run's: after permute-columns (phase 2 moves along
        // rows only) every packet not delivered on the way is in row colour[p].
        while sim.engine().stats().current_phase() == Some("permute-columns")
            && sim.status() == routesim::Status::Running
        {
            sim.step();
        }
        assert!(sim.summary().step > 0, "{name}: permute-columns never ran");
        let positions = sim.engine().positions();
        for (p, &c) in g.colour.iter().enumerate() {
            if sim.engine().delivery_steps()[p] == u32::MAX {
                assert_eq!(
                    positions[p] / cols,
                    c,
                    "{name}: packet {p} not in the row of its colour"
                );
            }
        }
    }
    // Not every algorithm plans with a graph.
    assert!(crate::common::sim_of("mesh:8x8", "greedy", "random-permutation", &[])
        .routing_graph()
        .is_none());
}
