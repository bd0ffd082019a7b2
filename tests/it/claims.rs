//! Claims say what was checked (issue 25): exact bounds are met or not
//! met; asymptotic claims (O(), Ω(), o(), a main term plus an O() term)
//! are `measured`, with the constant in the claim's unit and no ✓/✗; a
//! claim about one instance does not apply to the others; on a torus the
//! papers' torus theorems are judged, and where no paper bounds an
//! algorithm on a network the explanation says so.

use crate::common::sim_of as sim;
use routesim::algorithms::REGISTRY;
use routesim::catalogue::catalogue;
use routesim::explain::{self, ClaimStatus, Explanation, Verdict};
use routesim::lessons;
use routesim::request::{Field, RunSpec};
use routesim::Status;

/// The run to its end, explained.
fn finished(topology: &str, algorithm: &str, workload: &str, extra: &[(Field, &str)]) -> Explanation {
    let mut s = sim(topology, algorithm, workload, extra);
    s.run();
    explain::explain_run(&s)
}

fn claim<'a>(e: &'a Explanation, name: &str) -> &'a ClaimStatus {
    e.claims.iter().find(|c| c.name == name).unwrap_or_else(|| {
        panic!(
            "no claim {name} in {:?}",
            e.claims.iter().map(|c| c.name).collect::<Vec<_>>()
        )
    })
}

/// A ✓ or ✗ only beside a met or not-met verdict.
fn marks_follow_verdicts(e: &Explanation) {
    for c in &e.claims {
        let marked = [&c.line, &c.check].iter().any(|t| t.contains('✓') || t.contains('✗'));
        let decided = matches!(c.verdict, Verdict::Met | Verdict::NotMet);
        assert!(
            !marked || decided,
            "{} {:?}: {} | {}",
            c.name,
            c.verdict,
            c.line,
            c.check
        );
    }
}

#[test]
fn an_exact_bound_is_met_and_one_is_not_met() {
    let e = finished("mesh:16x16", "greedy", "transpose", &[]);
    let c = claim(&e, "the 2n − 2 bound");
    assert_eq!(c.verdict, Verdict::Met, "{}", c.line);
    assert!(c.line.contains("≤ 30 — met ✓"), "{}", c.line);
    assert_eq!(c.what, "the steps stay within 2n − 2 (the 2n − 2 bound)");
    // The same bound on a run the step limit stopped at step 10: nothing
    // exceeded it, so it is not decided (it said "not met" — a reader's
    // limit is not the algorithm's failure; a stall is, teach.rs).
    let e = finished("mesh:16x16", "greedy", "transpose", &[(Field::MaxSteps, "10")]);
    let c = claim(&e, "the 2n − 2 bound");
    assert_eq!(c.verdict, Verdict::Pending, "{}", c.line);
    assert!(
        c.line.contains("stopped by the step limit") && c.line.ends_with("not yet decided"),
        "{}",
        c.line
    );
    marks_follow_verdicts(&e);
}

/// Theorem 7 on the ks-wrap-torus lesson's preset: the steps above the
/// main term kn/4 = 128, as a constant times √(k·n·ln n) — measured, never
/// met, even when the run ends below the main term.
#[test]
fn an_asymptotic_claim_is_measured_with_its_constant() {
    let k = [(Field::K, "16")];
    let mut s = sim("torus:32x32", "ks-wrap", "point-reflection", &k);
    assert_eq!(s.run(), Status::Finished);
    let steps = s.report().steps;
    let e = explain::explain_run(&s);
    let t7 = claim(&e, "Theorem 7");
    assert_eq!(t7.verdict, Verdict::Measured);
    let unit = (16.0f64 * 32.0 * 32f64.ln()).sqrt();
    let a = (steps as f64 - 128.0) / unit;
    assert!(steps > 128, "{steps}");
    let eq = format!("{steps} = 128 + {a:.2}·√(k·n·ln n)");
    assert!(t7.line.contains(&eq), "{}", t7.line);
    assert!(
        t7.line
            .contains(&format!("{} steps above the main term 128", steps - 128)),
        "{}",
        t7.line
    );
    assert!(
        t7.check
            .ends_with(&format!("measured {eq}, {} steps above the main term 128", steps - 128)),
        "{}",
        t7.check
    );
    assert!(
        t7.what.contains("plus a measured constant times √(k·n·ln n)"),
        "{}",
        t7.what
    );
    marks_follow_verdicts(&e);
    // Below the main term the constant is negative, still measured.
    let e = finished("mesh:16x16", "ks-nowrap", "random-kk", &[(Field::K, "4")]);
    let t3 = claim(&e, "Theorem 3");
    assert_eq!(t3.verdict, Verdict::Measured, "{}", t3.line);
    assert!(
        t3.line.contains("below the main term 60") && t3.line.contains("= 60 − "),
        "{}",
        t3.line
    );
    marks_follow_verdicts(&e);
    // An O() claim: pp's time bound, c·√(ℓkN).
    let e = finished("mesh:16x16", "pp-rand", "random-permutation", &[]);
    assert_eq!(claim(&e, "the time bound").verdict, Verdict::Measured);
    marks_follow_verdicts(&e);
}

#[test]
fn an_asymptotic_claim_on_a_run_that_does_not_finish_is_still_measured() {
    let k = [(Field::K, "4"), (Field::MaxSteps, "10")];
    let e = finished("torus:16x16", "ks-wrap", "random-kk", &k);
    let t7 = claim(&e, "Theorem 7");
    assert_eq!(t7.verdict, Verdict::Measured, "{}", t7.line);
    assert!(t7.line.contains("hit the step limit at step 10"), "{}", t7.line);
    marks_follow_verdicts(&e);
}

/// Bit fixing's Ω(√(N/D)) is a worst case: the transpose's.
#[test]
fn bit_fixing_worst_case_speaks_of_transpose_only() {
    let e = finished("hypercube:6", "bit-fixing", "random-permutation", &[]);
    let c = claim(&e, "the oblivious lower bound");
    assert_eq!(c.verdict, Verdict::NotApplicable);
    assert_eq!(
        c.line,
        "does not apply: stated for transpose; this run routes random-permutation"
    );
    let e = finished("hypercube:6", "bit-fixing", "transpose", &[]);
    let c = claim(&e, "the oblivious lower bound");
    assert_eq!(c.verdict, Verdict::Measured);
    assert!(c.line.contains("the measured constant is c ="), "{}", c.line);
}

/// Greedy's worst-case queue (the greedy-worst lesson's claim) is
/// `greedy-worst`'s: on another permutation the lesson says it does not apply.
#[test]
fn greedy_worst_queue_is_stated_for_greedy_worst() {
    let lesson = lessons::lookup("greedy-worst").unwrap();
    let mut s = sim("mesh:16x16", "greedy", "transpose", &[]);
    s.run();
    let status = explain::explain(&s, None, Some(lesson)).lesson.unwrap();
    assert!(
        status.checks.iter().all(|c| !c.text.contains("the worst-case queue")),
        "{:?}",
        status.checks
    );
    let json = serde_json::to_value(catalogue()).unwrap();
    let bit_fixing = json["algorithms"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["name"] == "bit-fixing")
        .unwrap();
    assert_eq!(bit_fixing["claims"][0]["instance"], "transpose");
}

/// The papers' torus theorems, judged on tori: §8's 3kn/8 for NoWrapRoute,
/// Theorems 7 and 9 (WrapRoute), 11 (3-D), 12 (worms in 3-D), 13 and
/// Corollary 6 (LocalRoute, L known), 15 (NoLRoute, L unknown).
#[test]
fn torus_theorems_are_evaluated_on_a_torus() {
    let k4 = [(Field::K, "4")];
    let e = finished("torus:16x16", "ks-nowrap", "random-kk", &k4);
    let c = claim(&e, "§8 on the torus");
    assert_eq!(c.bound.as_ref().unwrap().value, 24.0);
    assert_eq!(c.verdict, Verdict::Measured, "{}", c.line);
    assert!(
        c.headline.starts_with("3kn/8 = 24 steps + O(√(k·n·ln n))"),
        "{}",
        c.headline
    );
    assert_eq!(claim(&e, "Theorem 2").verdict, Verdict::NotApplicable);
    let e = finished("mesh:16x16", "ks-nowrap", "random-kk", &k4);
    assert_eq!(claim(&e, "§8 on the torus").verdict, Verdict::NotApplicable);

    let e = finished("torus:16x16", "ks-wrap", "random-kk", &k4);
    assert_eq!(claim(&e, "Theorem 7").verdict, Verdict::Measured);
    assert_eq!(claim(&e, "Theorem 9").verdict, Verdict::Measured);
    let e = finished(
        "torus:16x16",
        "ks-wrap",
        "random-kk",
        &[(Field::K, "4"), (Field::Policy, "fifo")],
    );
    assert_eq!(claim(&e, "Theorem 7").verdict, Verdict::NotApplicable);
    assert_eq!(claim(&e, "Theorem 9").verdict, Verdict::Measured);
    let e = finished("torus:6x6x6", "ks-wrap", "random-kk", &[(Field::K, "3")]);
    assert_eq!(claim(&e, "Theorem 11").verdict, Verdict::Measured);
    let e = finished("torus:6x6x6", "ks-wrap", "random-permutation", &[(Field::Flits, "2")]);
    let t12 = claim(&e, "Theorem 12");
    assert_eq!(t12.verdict, Verdict::Measured, "{}", t12.line);
    // Fn/2 + dn = 2·6/2 + 3·6 = 24.
    assert_eq!(t12.bound.as_ref().unwrap().value, 24.0);

    let local = [(Field::K, "8"), (Field::Locality, "2")];
    let e = finished("torus:16x16", "ks-local", "local-kk", &local);
    assert_eq!(claim(&e, "Theorem 13").verdict, Verdict::Measured);
    let c6 = claim(&e, "Corollary 6");
    assert_eq!(c6.verdict, Verdict::Measured, "{}", c6.line);
    assert_eq!(c6.bound.as_ref().unwrap().value, 17.0);
    let e = finished(
        "torus:16x16",
        "ks-local",
        "local-kk",
        &[(Field::K, "4"), (Field::Locality, "2")],
    );
    assert_eq!(
        claim(&e, "Corollary 6").line,
        "does not apply: stated for k ≥ 8; here k = 4"
    );
    let unknown = [(Field::K, "4"), (Field::Locality, "unknown")];
    let e = finished("torus:16x16", "ks-local", "random-kk", &unknown);
    assert_eq!(claim(&e, "Theorem 15").verdict, Verdict::Measured);
    assert_eq!(claim(&e, "Theorem 13").verdict, Verdict::NotApplicable);
}

/// Kaufmann–Sibeyn's k is the most packets a node sends *or* receives
/// (every theorem of the paper is for a partial k-k routing): eight nodes
/// of torus:16x16 each send 8 packets to 8 distinct nodes at most 2 rows
/// and 2 columns on (ℓ = 8, k = 1) — the locality theorems and Corollary 6
/// take k = 8, not the receiving k = 1 (they did until 2026-11-30).
#[test]
fn the_locality_theorems_take_k_as_the_most_sent_or_received() {
    use routesim::algorithms::claim::{Formula, KsTheorem};
    use routesim::workload::Instance;
    let topo: routesim::topology::Topology = "torus:16x16".parse().unwrap();
    let offsets = [(0, 1), (0, 2), (1, 0), (2, 0), (1, 1), (1, 2), (2, 1), (2, 2)];
    let packets: Vec<(u32, u32)> = [0u32, 4]
        .iter()
        .flat_map(|&r| [0u32, 4, 8, 12].map(move |c| (r, c)))
        .flat_map(|(r, c)| offsets.map(|(dr, dc)| (r * 16 + c, (r + dr) * 16 + c + dc)))
        .collect();
    let instance = Instance::new(topo, packets).unwrap();
    assert_eq!(instance.measured_lk(), (8, 1));
    let t13 = routesim::claims::evaluate(Formula::Ks(KsTheorem::Theorem13), &instance).unwrap();
    assert!(t13.parameters.contains("k = 8"), "{}", t13.parameters);
    // L = 2: max{2.5L, kL} + max{L/2, kL/16} = 16 + 1.
    assert!(t13.parameters.contains("L = 2"), "{}", t13.parameters);
    assert_eq!(t13.value, 17.0);
    let mut s = routesim::Simulation::new(
        instance,
        routesim::SimConfig {
            algorithm: "ks-local".into(),
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(s.run(), Status::Finished);
    let e = explain::explain_run(&s);
    let c6 = claim(&e, "Corollary 6");
    assert_eq!(c6.verdict, Verdict::Measured, "{}", c6.line);
    assert_eq!(c6.bound.as_ref().unwrap().value, 17.0);
}

/// The locality theorems' main terms, exactly, where each of their
/// maxima is decided by its other side: with k ≤ 2 the first term of
/// Theorem 13 is 2.5·L (not k·L) and its second L/2; with k = 32 they are
/// k·L and k·L/16 (Kaufmann–Sibeyn §9: max{2.5L, kL} + max{L/2, kL/16} on
/// the torus). Theorem 14 (the mesh): max{L, kL/8} + max{2L, kL}.
#[test]
fn the_locality_theorems_main_terms_take_each_side_of_their_maxima() {
    let value = |topology: &str, theorem: &str, k: &str, locality: &str| {
        let e = finished(
            topology,
            "ks-local",
            "local-kk",
            &[(Field::K, k), (Field::Locality, locality)],
        );
        let c = claim(&e, theorem);
        c.bound
            .as_ref()
            .unwrap_or_else(|| panic!("{theorem} with k = {k}: {}", c.line))
            .value
    };
    // L = 2: 2.5·2 + 2/2 = 6 (k = 1 and 2); 32·2 + 32·2/16 = 68; L = 4,
    // k = 1: 2.5·4 + 4/2 = 12.
    assert_eq!(value("torus:16x16", "Theorem 13", "1", "2"), 6.0);
    assert_eq!(value("torus:16x16", "Theorem 13", "2", "2"), 6.0);
    assert_eq!(value("torus:16x16", "Theorem 13", "32", "2"), 68.0);
    assert_eq!(value("torus:16x16", "Theorem 13", "1", "4"), 12.0);
    // 2 + 2·2 = 6 (k = 1); 32·2/8 + 32·2 = 72; L = 4, k = 1: 4 + 2·4 = 12.
    assert_eq!(value("mesh:16x16", "Theorem 14", "1", "2"), 6.0);
    assert_eq!(value("mesh:16x16", "Theorem 14", "32", "2"), 72.0);
    assert_eq!(value("mesh:16x16", "Theorem 14", "1", "4"), 12.0);
}

/// The locality theorems' parameters and additive terms: Theorems 13 and
/// 14 add multiples of √(k·L·ln n), Theorem 15 (L unknown to the nodes,
/// the instance's own locality) max{n, kL/16} + kL plus multiples of
/// √((n + k·L)·ln n) — each recomputed here from the run's n, k and L
/// (local traffic for k ≤ 3, random traffic for k = 40).
#[test]
fn the_locality_theorems_units_and_theorem_15_follow_from_n_k_and_l() {
    let bound = |topology: &str, theorem: &str, extra: &[(Field, &str)]| {
        let workload = if extra.contains(&(Field::K, "40")) {
            "random-kk"
        } else {
            "local-kk"
        };
        let e = finished(topology, "ks-local", workload, extra);
        let c = claim(&e, theorem);
        c.bound.clone().unwrap_or_else(|| panic!("{theorem}: {}", c.line))
    };
    let close = |a: f64, b: f64| (a - b).abs() < 1e-9 * b.max(1.0);
    let ln16 = 16f64.ln();
    for (topology, theorem) in [("torus:16x16", "Theorem 13"), ("mesh:16x16", "Theorem 14")] {
        let b = bound(topology, theorem, &[(Field::K, "3"), (Field::Locality, "4")]);
        assert_eq!(b.parameters, "n = 16, k = 3, L = 4", "{theorem}");
        let (name, unit) = b.unit.expect("an additive term");
        assert_eq!(name, "√(k·L·ln n)");
        assert!(close(unit, (3.0 * 4.0 * ln16).sqrt()), "{theorem}: {unit}");
    }
    for k in ["2", "40"] {
        let b = bound(
            "torus:16x16",
            "Theorem 15",
            &[(Field::K, k), (Field::Locality, "unknown")],
        );
        let l: f64 = b.parameters.rsplit("L = ").next().unwrap().parse().unwrap();
        let kf: f64 = k.parse().unwrap();
        // Each side of the maximum once: n with k = 2 (local traffic, L = 2),
        // k·L/16 with k = 40 (random traffic, L near the torus's diameter).
        assert_eq!(kf * l / 16.0 > 16.0, k == "40", "k = {k}, L = {l}");
        assert!(
            close(b.value, 16f64.max(kf * l / 16.0) + kf * l),
            "k = {k}, L = {l}: {}",
            b.value
        );
        let (name, unit) = b.unit.expect("an additive term");
        assert_eq!(name, "√((n + k·L)·ln n)");
        assert!(close(unit, ((16.0 + kf * l) * ln16).sqrt()), "k = {k}: {unit}");
    }
}

/// A random permutation (k = 1) or a random k-k instance on `topology`.
fn kk_instance(topology: &str, k: u32) -> routesim::workload::Instance {
    use routesim::workload::{generate, Workload, WorkloadSpec};
    let topo: routesim::topology::Topology = topology.parse().unwrap();
    let workload = if k == 1 {
        Workload::RandomPermutation
    } else {
        Workload::RandomKk
    };
    let spec = WorkloadSpec {
        k: Some(k),
        l: Some(k),
        ..WorkloadSpec::new(workload, 1)
    };
    generate(&topo, &spec).unwrap()
}

/// Kaufmann–Sibeyn's theorems are stated for n × … × n meshes and tori of
/// two or more dimensions: on a mesh with unequal sides, or a line, they
/// have no value; on the square mesh of the same packets' kind they have.
#[test]
fn the_ks_theorems_have_no_value_off_square_grids() {
    use routesim::algorithms::claim::{Formula, KsTheorem};
    let kk = |topology: &str| kk_instance(topology, 4);
    for theorem in [KsTheorem::Theorem2, KsTheorem::Theorem3, KsTheorem::Theorem8] {
        let formula = Formula::Ks(theorem);
        assert!(
            routesim::claims::evaluate(formula, &kk("mesh:16x16")).is_some(),
            "{theorem:?} on 16x16"
        );
        assert!(
            routesim::claims::evaluate(formula, &kk("mesh:16x8")).is_none(),
            "{theorem:?} on 16x8"
        );
        assert!(
            routesim::claims::evaluate(formula, &kk("mesh:8x16")).is_none(),
            "{theorem:?} on 8x16"
        );
    }
}

/// Kaufmann–Sibeyn's main terms, as the paper states them, on both sides
/// of their maxima: a permutation (k = 1), k = 6 and k = 16 on n × n grids
/// (n = 16), and in three dimensions (n = 6); the cut-through theorems
/// with worms of F = 2 and 16 flits, and no value for F = 1
/// (store-and-forward).
#[test]
fn the_ks_theorems_main_terms_are_the_papers_on_both_sides_of_their_maxima() {
    use routesim::algorithms::claim::{Formula, KsTheorem as T};
    use routesim::claims::evaluate_run;
    use routesim::report::Extra;
    let instance = kk_instance;
    let value = |theorem: T, topology: &str, k: u32, flits: Option<u32>| {
        evaluate_run(
            Formula::Ks(theorem),
            &instance(topology, k),
            None,
            None,
            flits,
            &Extra::default(),
        )
        .map(|b| b.value)
    };
    type Main = fn(f64, f64, f64) -> f64;
    let stored: [(T, Main); 8] = [
        (T::Theorem2, |n, k, _| {
            (3.0 * n).max(2.0 * n + k * n / 4.0).max(k * n / 2.0)
        }),
        (T::Theorem3, |n, k, _| (3.0 * n).max(k * n / 2.0 + n / k + 1.5 * n)),
        (T::Theorem4, |n, k, d| ((2.0 * d - 1.0) * n).max(k * n / 2.0)),
        (T::Theorem7, |n, k, _| (2.0 * n).max(k * n / 4.0)),
        (T::Theorem8, |n, k, _| (4.0 * n).max(k * n / 2.0)),
        (T::Theorem9, |n, k, _| k * n / 4.0 + 2.0 * n),
        (T::Theorem11, |n, k, d| (2.0 * d * n).max(k * n / 4.0)),
        (T::NoWrapAverage, |n, k, d| (2.0 * d - 1.0) * k * n / (4.0 * d)),
    ];
    for (theorem, main) in stored {
        for (topology, n, d) in [("mesh:16x16", 16.0, 2.0), ("mesh:6x6x6", 6.0, 3.0)] {
            for k in [1, 6, 16] {
                let got = value(theorem, topology, k, None);
                assert_eq!(got, Some(main(n, k as f64, d)), "{theorem:?} on {topology}, k = {k}");
            }
        }
    }
    let worms: [(T, Main); 4] = [
        (T::Corollary5, |n, f, _| (3.0 * n).max(f * n / 2.0 + n / f + 1.5 * n)),
        (T::Theorem5, |n, f, d| {
            ((2.0 * d - 1.0) * n).max(f * n / 2.0 + (d - 1.0) * n / f + (d - 0.5) * n)
        }),
        (T::Theorem10, |n, f, _| f * n / 4.0 + 2.0 * n),
        (T::Theorem12, |n, f, d| f * n / 2.0 + d * n),
    ];
    for (theorem, main) in worms {
        for (topology, n, d) in [("mesh:16x16", 16.0, 2.0), ("mesh:6x6x6", 6.0, 3.0)] {
            for f in [2, 16] {
                let got = value(theorem, topology, 1, Some(f));
                assert_eq!(got, Some(main(n, f as f64, d)), "{theorem:?} on {topology}, F = {f}");
            }
            assert_eq!(
                value(theorem, topology, 1, Some(1)),
                None,
                "{theorem:?}: F = 1 is store-and-forward"
            );
            assert_eq!(value(theorem, topology, 1, None), None);
        }
    }
}

/// Every algorithm on every kind of network it accepts: some claim judges
/// the run, or the explanation says why none does (on a torus, greedy:
/// no paper in the collection bounds it there).
#[test]
fn every_algorithm_on_every_kind_has_a_claim_or_a_reason() {
    let listed = catalogue();
    for entry in REGISTRY {
        for kind in entry.kinds {
            let topology = format!("{}:{}", kind.name(), kind.default_size());
            let ks = entry.name.starts_with("ks-");
            let (workload, k) = if ks {
                ("random-kk", "4")
            } else if entry.packets == routesim::algorithms::Packets::Sort {
                ("sort-random", "1")
            } else {
                ("random-permutation", "1")
            };
            let mut run = sim(&topology, entry.name, workload, &[(Field::K, k)]);
            run.run();
            // Without q, the run bounds the queues the catalogue (the page's
            // q box) says: its own edge queues at their default, or none.
            let own = listed["algorithms"]
                .as_array()
                .unwrap()
                .iter()
                .find(|a| a["name"] == entry.name)
                .map(|a| a["own_queue_cap"].as_u64().map(|q| q as u32))
                .unwrap();
            let report = run.report();
            assert_eq!(report.queue_cap, own, "{} on {topology}", entry.name);
            let lmrr = run.report_extra().lmrr;
            match own {
                Some(q) => {
                    let fields = lmrr.expect("an algorithm with edge queues reports them");
                    assert_eq!(fields.edge_queue_cap, q, "{} on {topology}", entry.name);
                    assert!(fields.max_edge_queue <= q, "{} on {topology}", entry.name);
                }
                None => assert!(lmrr.is_none(), "{} on {topology}", entry.name),
            }
            let e = explain::explain_run(&run);
            let applies = e.claims.iter().any(|c| c.verdict != Verdict::NotApplicable);
            assert!(
                applies != e.unclaimed.is_some(),
                "{} on {topology}: {:?}",
                entry.name,
                e.unclaimed
            );
            for c in e.claims.iter().filter(|c| c.verdict == Verdict::NotApplicable) {
                assert!(c.line.len() > "does not apply: ".len(), "{}: {}", entry.name, c.name);
            }
            marks_follow_verdicts(&e);
        }
    }
    let e = finished("torus:16x16", "greedy", "random-permutation", &[]);
    let why = e.unclaimed.unwrap();
    assert!(
        why.starts_with("No paper in this collection bounds greedy on a torus"),
        "{why}"
    );
    let e = finished("torus:16x16", "ks-local", "random-kk", &[(Field::K, "4")]);
    assert_eq!(e.unclaimed, None);
}

/// The ks-wrap-torus lesson: its Theorem 7 and 9 checks are measured, so
/// the lesson reads "measured", never "met", and says what it checked.
#[test]
fn a_lesson_with_measured_checks_does_not_read_met() {
    let lesson = lessons::lookup("ks-wrap-torus").unwrap();
    let spec = lesson.spec(RunSpec::default()).unwrap();
    let mut main = spec.build().unwrap();
    let mut other = spec.beside(main.instance(), "greedy").unwrap().build().unwrap();
    main.run();
    other.run();
    let status = explain::explain(&main, Some(&other), Some(lesson)).lesson.unwrap();
    assert_eq!(status.verdict, Verdict::Measured, "{:?}", status.checks);
    assert!(
        status.title.starts_with(
            "Checked on this run: ks-wrap — the steps against Theorem 7's max{2n, kn/4} as main term, plus a \
             measured constant times √(k·n·ln n)"
        ),
        "{}",
        status.title
    );
    assert!(
        status.title.contains("ks-wrap is faster but greedy needs less room"),
        "{}",
        status.title
    );
    assert!(!status.verdict_text.starts_with("met"), "{}", status.verdict_text);
    assert!(status.verdict_text.contains("measured"), "{}", status.verdict_text);
    for c in &status.checks {
        let marked = c.text.contains('✓') || c.text.contains('✗');
        assert!(!marked || matches!(c.verdict, Verdict::Met | Verdict::NotMet), "{c:?}");
    }
    assert!(status.checks.iter().any(|c| c.verdict == Verdict::Measured));
}

/// Every formula with a closed form takes the paper's value, recomputed
/// here from the network's and the instance's parameters, on networks that
/// take each side of its cases (square or not, which term of a minimum is
/// smaller) and none where it is not defined.
#[test]
fn every_closed_form_formula_takes_its_value_and_exists_only_where_defined() {
    use routesim::algorithms::claim::Formula;
    use routesim::claims::{evaluate, evaluate_run};
    use routesim::report::{Extra, LmrrFields};
    use routesim::workload::Instance;
    // A shift by one on each network (ℓ = k = 1), or the given packets.
    let on = |topology: &str, packets: Option<Vec<(u32, u32)>>| {
        let topo: routesim::topology::Topology = topology.parse().unwrap();
        let n = routesim::topology::Network::nodes(&topo);
        let packets = packets.unwrap_or_else(|| (0..n).map(|i| (i, (i + 1) % n)).collect());
        Instance::new(topo, packets).unwrap()
    };
    let value = |formula: Formula, topology: &str| evaluate(formula, &on(topology, None)).map(|b| b.value);
    let close = |got: Option<f64>, want: f64, what: &str| {
        let got = got.unwrap_or_else(|| panic!("{what}: not defined"));
        assert!((got - want).abs() < 1e-9, "{what}: {got}, want {want}");
    };
    // Meshes: R × C, and n × n.
    for (mesh, r, c) in [("mesh:5x7", 5.0, 7.0), ("mesh:6x6", 6.0, 6.0), ("mesh:14x7", 14.0, 7.0)] {
        close(value(Formula::MeshDiameter, mesh), r + c - 2.0, mesh);
        close(value(Formula::ThreeLines, mesh), 2.0 * r + c - 3.0, mesh);
    }
    // The paper's spelling: n on square meshes, R and C on the others.
    let spelled = |formula: Formula, topology: &str| {
        let b = evaluate(formula, &on(topology, None)).unwrap();
        (b.formula, b.parameters)
    };
    for (formula, on_square, on_oblong) in [
        (Formula::MeshDiameter, "2n − 2", "R + C − 2"),
        (Formula::ThreeLines, "3n − 3", "2R + C − 3"),
        (
            Formula::GreedyWorstQueue,
            "2⌊(n − 2)/3⌋ + 1",
            "2·min(⌊(R − 2)/3⌋, ⌊(C − 1)/2⌋) + 1",
        ),
    ] {
        let want = |text: &str, parameters: &str| (text.to_string(), parameters.to_string());
        assert_eq!(spelled(formula, "mesh:6x6"), want(on_square, "n = 6"));
        assert_eq!(spelled(formula, "mesh:5x7"), want(on_oblong, "R = 5, C = 7"));
    }
    for mesh in ["torus:6x6", "hypercube:4"] {
        assert_eq!(value(Formula::MeshDiameter, mesh), None, "{mesh}");
        assert_eq!(value(Formula::ThreeLines, mesh), None, "{mesh}");
    }
    // 2·min(⌊(R − 2)/3⌋, ⌊(C − 1)/2⌋) + 1: the row term smaller, then the column term.
    close(value(Formula::GreedyWorstQueue, "mesh:5x7"), 3.0, "5x7");
    close(value(Formula::GreedyWorstQueue, "mesh:14x11"), 9.0, "14x11");
    close(value(Formula::GreedyWorstQueue, "mesh:14x7"), 7.0, "14x7");
    close(value(Formula::GreedyWorstQueue, "mesh:8x8"), 5.0, "8x8");
    // Square sides only.
    close(value(Formula::TwoSide, "mesh:6x6"), 12.0, "2n");
    close(value(Formula::SevenSide, "mesh:6x6"), 42.0, "7n");
    close(value(Formula::LogSide, "mesh:16x16"), 4.0, "log n");
    close(value(Formula::LogSide, "torus:8x8"), 3.0, "log n on a torus");
    for f in [Formula::TwoSide, Formula::SevenSide, Formula::LogSide] {
        assert_eq!(value(f, "mesh:5x7"), None, "{f:?}");
    }
    // Hypercubes.
    close(value(Formula::EightD, "hypercube:5"), 40.0, "8D");
    close(
        value(Formula::SqrtNOverD, "hypercube:6"),
        (64.0f64 / 6.0).sqrt(),
        "√(N/D)",
    );
    close(
        value(Formula::BitonicSteps, "hypercube:5"),
        5.0 * 6.0 / 2.0 + 1.0,
        "bitonic",
    );
    for f in [Formula::EightD, Formula::SqrtNOverD, Formula::BitonicSteps] {
        assert_eq!(value(f, "mesh:8x8"), None, "{f:?}");
    }
    // The shuffle-exchange and the butterfly.
    close(
        value(Formula::SqrtNOverThree, "shuffle-exchange:6"),
        (64.0f64 / 3.0).sqrt(),
        "√(N/3)",
    );
    assert_eq!(value(Formula::SqrtNOverThree, "hypercube:6"), None);
    close(value(Formula::LogInputs, "butterfly:4"), 4.0, "log n inputs");
    // The butterfly a hypercube emulates (flashsort §8): 2^D inputs.
    close(value(Formula::LogInputs, "hypercube:4"), 4.0, "log n inputs");
    assert_eq!(value(Formula::LogInputs, "mesh:4x4"), None);
    close(value(Formula::LogNodesSquared, "shuffle-exchange:6"), 36.0, "log² N");
    close(value(Formula::Side, "mesh:6x6"), 6.0, "n");
    close(
        value(Formula::BitonicButterflySteps, "butterfly:4"),
        24.0,
        "(D + 1)² − 1",
    );
    assert_eq!(value(Formula::BitonicButterflySteps, "hypercube:4"), None);
    close(
        value(Formula::BitonicShuffleExchangeSteps, "shuffle-exchange:6"),
        (5 * 36 / 4 + 3 + 1) as f64,
        "5D²/4 + D − 2",
    );
    assert_eq!(value(Formula::BitonicShuffleExchangeSteps, "butterfly:4"), None);
    // Any network: log N, d·M on meshes of any dimension.
    close(value(Formula::LogNodes, "mesh:4x8"), 5.0, "log N");
    close(value(Formula::DimsTimesSide, "mesh:4x5x6"), 18.0, "dM");
    close(value(Formula::DimsTimesSide, "mesh:7x3"), 14.0, "dM");
    assert_eq!(value(Formula::DimsTimesSide, "torus:4x4"), None);
    close(value(Formula::Constant(7), "ring:5"), 7.0, "a constant");
    // ℓ and k from the packets: node 0 sends 2, node 1 receives 3.
    let lk = on("mesh:4x4", Some(vec![(0, 1), (0, 1), (2, 1), (3, 5)]));
    close(
        evaluate(Formula::SqrtLkn, &lk).map(|b| b.value),
        (2.0f64 * 3.0 * 16.0).sqrt(),
        "√(ℓkN)",
    );
    close(
        evaluate(Formula::PacketsPerNode, &lk).map(|b| b.value),
        3.0,
        "max(ℓ, k)",
    );
    let swapped = on("mesh:4x4", Some(vec![(1, 0), (1, 0), (1, 2), (1, 3), (5, 3)]));
    close(
        evaluate(Formula::PacketsPerNode, &swapped).map(|b| b.value),
        4.0,
        "max(ℓ, k)",
    );
    // lmrr's c + L + log N and q come from the run's report, and only from it.
    let extra = Extra {
        lmrr: Some(LmrrFields {
            leveled_congestion: 5,
            // L is the depth (levels − 1 = 7), not the longest path.
            dilation: 2,
            levels: 8,
            log_n: 3,
            edge_queue_cap: 2,
            ..LmrrFields::default()
        }),
        ..Extra::default()
    };
    let inst = on("butterfly:3", None);
    let with = |f| evaluate_run(f, &inst, None, None, None, &extra).map(|b| b.value);
    close(with(Formula::CongestionDilationLogN), 15.0, "c + L + log N");
    close(with(Formula::EdgeQueueCap), 2.0, "q");
    assert_eq!(evaluate(Formula::CongestionDilationLogN, &inst), None);
    assert_eq!(evaluate(Formula::EdgeQueueCap, &inst), None);
}

/// Theorem 15 is for nodes that do not know L: its bound takes the
/// instance's own locality even when the run is given one (`--locality`),
/// while Theorems 13 and 14 take the run's.
#[test]
fn theorem_15_takes_the_instances_own_locality_and_theorems_13_and_14_the_runs() {
    use routesim::algorithms::claim::{Formula, KsTheorem as T};
    use routesim::claims::evaluate_run;
    use routesim::report::Extra;
    let inst = crate::common::torus_shift(16, 2, 3);
    let at = |theorem, locality| {
        let b = evaluate_run(Formula::Ks(theorem), &inst, None, locality, None, &Extra::default()).unwrap();
        (b.value, b.parameters)
    };
    assert_eq!(at(T::Theorem15, Some(6)), at(T::Theorem15, None));
    assert!(
        at(T::Theorem15, None).1.ends_with("L = 3"),
        "{:?}",
        at(T::Theorem15, None)
    );
    for theorem in [T::Theorem13, T::Theorem14] {
        let (own, given) = (at(theorem, None), at(theorem, Some(6)));
        assert!(
            own.1.ends_with("L = 3") && given.1.ends_with("L = 6"),
            "{own:?} {given:?}"
        );
        assert!(given.0 > own.0, "{theorem:?}: {own:?} {given:?}");
    }
}

/// LevelRoute's Corollary 4, (k/2 + 1)·(n + ε), and Theorem 1,
/// (k + 1)/2·n + k/8·ε, with their units (k/2 + 1)·√(n ln n) and
/// k·√(n ln n), ε the run's or ⌈n/8⌉; Theorem 1 exactly where k·ε ≥ 4n.
#[test]
fn level_routes_theorems_take_their_values_and_units_and_theorem_1_its_condition() {
    use routesim::algorithms::claim::{Formula, KsTheorem as T};
    use routesim::claims::evaluate_run;
    use routesim::report::Extra;
    let root = (16.0f64 * 16.0f64.ln()).sqrt();
    let at = |theorem, k, epsilon| {
        evaluate_run(
            Formula::Ks(theorem),
            &kk_instance("mesh:16x16", k),
            epsilon,
            None,
            None,
            &Extra::default(),
        )
        .map(|b| (b.value, b.unit.map(|(_, u)| u)))
    };
    let close = |got: Option<(f64, Option<f64>)>, value: f64, unit: f64| {
        let (v, u) = got.expect("defined");
        assert!(
            (v - value).abs() < 1e-9 && (u.unwrap() - unit).abs() < 1e-9,
            "{v} {u:?}: want {value} {unit}"
        );
    };
    close(at(T::Corollary4, 4, Some(2)), 3.0 * 18.0, 3.0 * root);
    close(at(T::Corollary4, 4, None), 3.0 * 18.0, 3.0 * root);
    close(at(T::Corollary4, 8, Some(5)), 5.0 * 21.0, 5.0 * root);
    // k·ε = 4n = 64 exactly: defined; one less: not.
    close(at(T::Theorem1, 4, Some(16)), 2.5 * 16.0 + 0.5 * 16.0, 4.0 * root);
    close(at(T::Theorem1, 8, Some(8)), 4.5 * 16.0 + 8.0, 8.0 * root);
    assert_eq!(at(T::Theorem1, 4, Some(15)), None);
    assert_eq!(at(T::Theorem1, 8, Some(7)), None);
    assert_eq!(at(T::Theorem1, 8, None), None, "ε = ⌈16/8⌉ = 2: k·ε = 16 < 64");
}
