//! `ks-level --superior` (Kaufmann–Sibeyn §6.1.1, Lemma 15) and LevelRoute's
//! per-pass lemmas (§6, Lemmas 13 and 14) on the phases they speak of.
//!
//! The constants were stated before measuring: c = 1.75 for all three, the
//! constant this family's tests hold Corollary 4 to, in the unit of each
//! lemma's O-term (n the side, natural log):
//!
//! - Lemma 13 (`pass{p}-randomize`, step a, plain runs): ε + c·√(ε ln n);
//! - Lemma 14 (`pass{p}-route`, step b, plain runs): n + c·√(n ln n);
//! - Lemma 15 (`pass{p}-randomize-route`, steps a′ and b′ with superior
//!   regions, passes 2 … k/2, ε ≤ n/6): n + 4ε²/n + c·√(n ln n).
//!
//! Sides 16, 24, 32 (ε = ⌈n/8⌉), k = 6, seeds 1–20. Measured: random
//! k-permutations stay within c (largest 0.97, 0.75 and 1.04); k-PR does
//! not for Lemmas 14 and 15 (2.52 and 2.58, so Lemma 15's ✗ on some k-PR
//! runs), held to a guard of 3.0 set after measuring. Lemma 15's excess
//! grows like n, not √(n log n) (a superior packet's a′ + b′ path is up to
//! ≈ 3n/2 − 2ε long): `scripts/ks-superior-sweep.sh` and docs/data.

use crate::common::topo;
use routesim::algorithms::claim::{Claim, Strength};
use routesim::algorithms::lookup;
use routesim::engine::Policy;
use routesim::explain::{judge_claim, Verdict};
use routesim::report::Report;
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::AlgorithmOptions;
use routesim::{SimConfig, Simulation, Status};

const C: f64 = 1.75;

fn instance(name: &str, w: Workload, k: u32, seed: u64) -> Instance {
    let spec = WorkloadSpec {
        k: Some(k),
        ..WorkloadSpec::new(w, seed)
    };
    generate(&topo(name), &spec).unwrap_or_else(|e| panic!("{w} k={k} on {name}: {e}"))
}

fn config(seed: u64, superior: bool, epsilon: Option<u32>, check: bool) -> SimConfig {
    SimConfig {
        algorithm: "ks-level".into(),
        policy: Policy::FarthestFirst,
        seed,
        check_invariants: check,
        options: AlgorithmOptions {
            superior,
            epsilon,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// The 0-based range of §6.1.1 along an axis of `s` nodes, lower or upper.
fn range(lower: bool, s: u32, eps: u32) -> (u32, u32) {
    if lower {
        (eps, s.div_ceil(2) - 1)
    } else {
        (s / 2, s - 1 - eps)
    }
}

/// Runs step by step with the invariants checked; every packet delivered,
/// and every packet's pass follows a′ then b′: along its first axis (its
/// colour's: class 0 the column) to a coordinate in its strip, or in
/// §6.1.1's range for a superior packet, then along the other axis only;
/// then, in the next pass, along its first axis home.
fn check_paths(name: &str, w: Workload, k: u32, eps: u32, seed: u64) -> Report {
    let inst = instance(name, w, k, seed);
    let t: Topology = name.parse().unwrap();
    let dims = t.size_parameters();
    let (rows, cols) = (dims[0], dims[1]);
    let coord = |v: u32, axis: usize| if axis == 0 { v / cols } else { v % cols };
    let side = |axis: usize| if axis == 0 { rows } else { cols };
    let mut sim = Simulation::new(inst, config(seed, true, Some(eps), true)).unwrap();
    let mut trail = vec![sim.engine().positions()];
    while sim.status() == Status::Running {
        sim.step();
        trail.push(sim.engine().positions());
    }
    assert_eq!(sim.status(), Status::Finished);
    let r = sim.report();
    assert_eq!(r.delivered, r.packets);
    // Phase boundaries: phase i covers steps ends[i]..ends[i + 1].
    let mut ends = vec![0u32];
    for p in &r.phases {
        ends.push(ends.last().unwrap() + p.steps);
    }
    let levels = (k / 2) as usize;
    assert_eq!(r.phases.len(), levels + 1);
    let classes = sim.engine().classes().to_vec();
    let mut superior = 0;
    for p in 0..r.packets as usize {
        let (src, dst) = (sim.engine().source(p as u32), sim.engine().destination(p as u32));
        let a = classes[p] as usize;
        let b = 1 - a;
        let corner = |axis: usize| coord(src, axis) < eps || coord(src, axis) + eps >= side(axis);
        let is_sup = corner(0) && corner(1);
        let (x, s) = (coord(src, a), side(a));
        let (lo, hi) = if is_sup {
            superior += 1;
            range(x < eps, s, eps)
        } else {
            // Its strip (a last partial strip joins the one before).
            let count = (s / eps).max(1);
            let first = (x / eps).min(count - 1) * eps;
            (
                first,
                if (x / eps).min(count - 1) == count - 1 {
                    s - 1
                } else {
                    first + eps - 1
                },
            )
        };
        // The pass in which it first moves (a packet may not move at all).
        let moved = |i: usize| {
            trail[ends[i] as usize..=ends[i + 1] as usize]
                .windows(2)
                .any(|w| w[0][p] != w[1][p])
        };
        let Some(pass) = (0..levels).find(|&i| moved(i)) else {
            continue;
        };
        for i in 0..=levels {
            if i != pass && i != pass + 1 {
                assert!(
                    !moved(i),
                    "{name} seed {seed}: packet {p} moves in phase {i} (its pass {pass})"
                );
            }
        }
        let during = &trail[ends[pass] as usize..=ends[pass + 1] as usize];
        let mut turned = false;
        for w in during.windows(2) {
            let (u, v) = (w[0][p], w[1][p]);
            if u == v {
                continue;
            }
            if coord(u, b) != coord(v, b) {
                if !turned {
                    let at = coord(u, a);
                    assert!(
                        (lo..=hi).contains(&at),
                        "{name} seed {seed}: packet {p} (superior {is_sup}) turns at {at}, not in {lo}..={hi}"
                    );
                }
                turned = true;
            } else {
                assert!(
                    !turned,
                    "{name} seed {seed}: packet {p} moves along its first axis after turning"
                );
            }
        }
        let end = during.last().unwrap()[p];
        if end != dst {
            assert!(
                (lo..=hi).contains(&coord(end, a)),
                "{name} seed {seed}: packet {p} ends a′b′ off range"
            );
            assert_eq!(
                coord(end, b),
                coord(dst, b),
                "{name} seed {seed}: packet {p} ends b′ off its column"
            );
        }
    }
    assert!(superior > 0);
    r
}

#[test]
fn superior_packets_turn_in_the_stated_rows_and_every_packet_arrives() {
    check_paths("mesh:16x16", Workload::RandomKk, 6, 2, 1);
    check_paths("mesh:16x16", Workload::PointReflection, 4, 5, 2);
    // An odd side (the middle line in both ranges) and a non-square mesh.
    check_paths("mesh:15x12", Workload::RandomKk, 4, 3, 3);
    check_paths("mesh:13x13", Workload::LargeShift, 2, 6, 4);
}

#[test]
fn superior_is_refused_where_it_has_no_corners() {
    let torus = instance("torus:16x16", Workload::RandomKk, 4, 1);
    let refused = |inst, eps| match Simulation::new(inst, config(1, true, eps, false)) {
        Ok(_) => panic!("--superior accepted"),
        Err(e) => e.to_string(),
    };
    let e = refused(torus, None);
    assert!(e.contains("torus") && e.contains("superior"), "{e}");
    let mesh = instance("mesh:16x16", Workload::RandomKk, 4, 1);
    let e = refused(mesh, Some(8));
    assert!(e.contains("epsilon") && e.contains("2ε < 16"), "{e}");
    // The same run without the option: levels and colours as drawn, so the
    // superior run differs only by its corner packets and its phases.
    let mesh = || instance("mesh:16x16", Workload::RandomKk, 4, 1);
    let plain = Simulation::new(mesh(), config(1, false, Some(7), false))
        .unwrap()
        .report_extra();
    let sup = Simulation::new(mesh(), config(1, true, Some(7), false))
        .unwrap()
        .report_extra();
    assert_eq!(plain.colours, sup.colours);
    // Coalesced (§3's priority): a′, b′ and the passes overlap; every
    // packet arrives, the invariants checked on every step.
    let mut coalesced = config(2, true, None, true);
    coalesced.options.phases = routesim::options::Phases::Coalesced;
    let mut sim = Simulation::new(instance("mesh:16x16", Workload::RandomKk, 6, 2), coalesced).unwrap();
    assert_eq!(sim.run(), Status::Finished);
    assert_eq!(sim.report().phases.len(), 1);
}

fn root(x: f64, n: f64) -> f64 {
    (x * n.ln()).sqrt()
}

/// ks-level's registry claim `name`.
fn claim(name: &str) -> &'static Claim {
    let entry = lookup("ks-level").unwrap();
    entry.teaching.claims.iter().find(|c| c.name == name).unwrap()
}

/// The c the random k-permutations must stay within (stated before
/// measuring), and the guard for k-PR, set after measuring: the stated c
/// was exceeded there (largest 2.52 for Lemma 14 and 2.58 for Lemma 15 over
/// these runs; see docs/algorithms/kaufmann-sibeyn.md).
const PR_GUARD: f64 = 3.0;

/// Every run of sides 16, 24, 32 × seeds 1–20 × (random k-permutation,
/// k-PR), k = 6: the registry claim `name` judged on it by the explain
/// panel's judge, and each named phase (ending in `suffix`, passes
/// `passes(k/2)`) against `main(n, ε) + c·unit(n, ε)`; returns the largest
/// c measured on each workload.
fn per_pass(
    name: &str,
    superior: bool,
    suffix: &str,
    passes: impl Fn(usize) -> std::ops::RangeInclusive<usize>,
    main: impl Fn(f64, f64) -> f64,
    unit: impl Fn(f64, f64) -> f64,
) -> [f64; 2] {
    let k = 6;
    let mut worst = [f64::MIN; 2];
    for n in [16u32, 24, 32] {
        let eps = n.div_ceil(8);
        let name_n = format!("mesh:{n}x{n}");
        for (wi, w) in [Workload::RandomKk, Workload::PointReflection].into_iter().enumerate() {
            for seed in 1..=20 {
                let mut sim =
                    Simulation::new(instance(&name_n, w, k, seed), config(seed, superior, None, false)).unwrap();
                assert_eq!(sim.run(), Status::Finished);
                let r = sim.report();
                assert_eq!(r.extra.epsilon, Some(eps));
                let (nf, ef) = (n as f64, eps as f64);
                let (mut most, mut longest) = (f64::MIN, 0);
                for p in passes(k as usize / 2) {
                    let phase = format!("pass{p}-{suffix}");
                    let got = r.phases.iter().find(|x| x.name == phase);
                    let steps = got
                        .unwrap_or_else(|| panic!("{name_n}: no {phase} in {:?}", r.phases))
                        .steps;
                    let c = (steps as f64 - main(nf, ef)) / unit(nf, ef);
                    most = most.max(c);
                    longest = longest.max(steps);
                    let limit = if wi == 0 { C } else { PR_GUARD };
                    assert!(
                        c <= limit,
                        "{name_n} {w} seed {seed}: {phase} took {steps} steps, constant {c:.2} > {limit}"
                    );
                }
                worst[wi] = worst[wi].max(most);
                // The explain panel's judge reads the same phases.
                let status = judge_claim(claim(name), &sim);
                match status.strength {
                    Strength::PlusSqrtKnLogN => {
                        assert_eq!(status.verdict, Verdict::Measured, "{}", status.line);
                        // The judge measures the longest named phase and its constant.
                        assert_eq!(status.measured, Some(longest as f64), "{}", status.line);
                        let shown = format!("{:.2}·", most.abs());
                        assert!(status.line.contains(&shown), "{most:.2}: {}", status.line);
                    }
                    _ => {
                        let met = if most <= C { Verdict::Met } else { Verdict::NotMet };
                        assert_eq!(status.verdict, met, "{name} {name_n} {w} seed {seed}: {}", status.line);
                    }
                }
            }
        }
    }
    eprintln!(
        "ks-level {name} (superior {superior}): largest constant {:.2} (random-kk), {:.2} (k-PR)",
        worst[0], worst[1]
    );
    worst
}

#[test]
fn lemma_13_and_14_step_a_and_step_b_of_every_pass() {
    per_pass("Lemma 13", false, "randomize", |h| 1..=h, |_, e| e, |n, e| root(e, n));
    per_pass("Lemma 14", false, "route", |h| 1..=h + 1, |n, _| n, |n, _| root(n, n));
}

#[test]
fn lemma_15_steps_a_and_b_of_passes_2_to_k_over_2_with_superior_regions() {
    per_pass(
        "Lemma 15",
        true,
        "randomize-route",
        |h| 2..=h,
        |n, e| n + 4.0 * e * e / n,
        |n, _| root(n, n),
    );
    // k·ε ≥ 4n: the plain run is Theorem 1's improved version, without
    // Lemma 15's phases; the superior run is not judged by Theorem 1 (it
    // never runs the improved version) nor by Lemma 13 (it has no step a).
    let plain = Simulation::new(
        instance("mesh:16x16", Workload::RandomKk, 10, 1),
        config(1, false, Some(7), false),
    );
    let mut plain = plain.unwrap();
    plain.run();
    assert_eq!(judge_claim(claim("Lemma 15"), &plain).verdict, Verdict::NotApplicable);
    let sup = Simulation::new(
        instance("mesh:16x16", Workload::RandomKk, 10, 1),
        config(1, true, Some(7), false),
    );
    let mut sup = sup.unwrap();
    sup.run();
    let t1 = judge_claim(claim("Theorem 1"), &sup);
    assert_eq!(t1.verdict, Verdict::NotApplicable, "{}", t1.line);
    assert_eq!(judge_claim(claim("Lemma 13"), &sup).verdict, Verdict::NotApplicable);
}

/// The lessons `ks-level` and `cut-through`: their live checks pass on
/// their presets, the numbers their texts quote are their runs', and
/// neither text gives the steps its question asks for.
#[test]
fn the_ks_level_and_cut_through_lessons_quote_their_runs() {
    use routesim::explain;
    use routesim::lessons;
    use routesim::request::{Field, RunSpec};
    let run = |id: &str, changes: &[(Field, &str, &str)]| {
        let lesson = lessons::lookup(id).unwrap();
        let spec = lesson
            .spec(RunSpec::default())
            .unwrap()
            .apply(changes.iter().copied())
            .unwrap();
        let mut sim = spec.build().unwrap();
        assert_eq!(sim.run(), Status::Finished);
        let status = explain::explain(&sim, None, Some(lesson)).lesson.unwrap();
        let question = lesson.predict.map_or("", |p| p.question);
        (sim.report(), status, format!("{} {question}", lesson.text))
    };
    let (sup, status, text) = run("ks-level", &[]);
    assert_eq!(status.verdict, Verdict::Measured, "{:?}", status.checks);
    let lemma15 = status
        .checks
        .iter()
        .find(|c| c.text.starts_with("Lemma 15"))
        .expect("Lemma 15 is checked");
    // The paper gives no constant for the proof's O(√(n log n)): measured.
    assert_eq!(lemma15.verdict, Verdict::Measured, "{}", lemma15.text);
    let steps = |r: &Report, name: &str| r.phases.iter().find(|p| p.name == name).unwrap().steps;
    let (plain, _, _) = run("ks-level", &[(Field::Superior, "superior", "false")]);
    // The lesson asks for this run's steps: its text does not give them
    // (the page's check does, after the guess).
    assert!(!text.contains(&format!("the run {}", sup.steps)), "{text}");
    assert!(
        !text.contains(&format!(" {} ", sup.steps)),
        "the answer {} is in: {text}",
        sup.steps
    );
    // Each pass as it is: passes 2 and 3 alike, pass 1 shorter, pass 4 a
    // route alone (it said "per pass", which 4 × 53 ≠ 183 contradicted).
    let quoted = format!(
        "the plain loop takes {} + {} steps in passes 2 and 3 ({} + {} in pass 1, a {}-step route in pass 4) and {} in all",
        steps(&plain, "pass2-randomize"),
        steps(&plain, "pass2-route"),
        steps(&plain, "pass1-randomize"),
        steps(&plain, "pass1-route"),
        steps(&plain, "pass4-route"),
        plain.steps
    );
    assert!(text.contains(&quoted), "{quoted:?} is not in: {text}");
    assert_eq!(steps(&plain, "pass2-route"), steps(&plain, "pass3-route"));
    assert_eq!(steps(&plain, "pass2-randomize"), steps(&plain, "pass3-randomize"));

    let (worms, status, text) = run("cut-through", &[]);
    assert_eq!(worms.extra.flits, Some(4));
    assert!(status
        .checks
        .iter()
        .any(|c| c.text.starts_with("Corollary 5") && c.verdict == Verdict::Measured));
    let (packets, _, _) = run("cut-through", &[(Field::Flits, "flits", "1"), (Field::K, "k", "4")]);
    assert_eq!(packets.packets, 4 * worms.packets);
    for quoted in [
        format!("that takes {} steps", packets.steps),
        format!("while its largest queue stays at {}", worms.max_queue),
        format!("half the store-and-forward run's {}", packets.max_queue),
        format!("store-and-forward needs {} steps", packets.steps),
    ] {
        let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
        let q = quoted.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(&q), "{q:?} is not in: {flat}");
    }
    // Nor does cut-through's give the steps it asks for.
    assert!(
        !text.contains(&format!(" {} steps", worms.steps)),
        "the answer {} is in: {text}",
        worms.steps
    );
}
