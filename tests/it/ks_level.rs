//! `ks-level` (Kaufmann–Sibeyn §6, LevelRoute), `ks-local` (§9.1,
//! LocalRoute) and the `local-kk` workload against the paper. Every run
//! delivers every packet with the engine's invariants checked after every
//! step, never beats `bounds.best`, and its phases sum to its steps. The
//! bounds (n the side; the constants c measured, with a margin):
//!
//! - Corollary 4 (`ks-level`, plain, ε = ⌈n/8⌉): (k/2 + 1)·(n + ε) +
//!   c·(k/2 + 1)·√(n ln n), c = 1.75 (measured ≤ 1.21 on meshes of sides
//!   16–32, k 2–8, random k-permutations, k-LS, k-PR, seeds 1–3);
//! - Theorem 1 (`ks-level`, improved, k·ε ≥ 4n): (k + 1)/2·n + k/8·ε +
//!   c·(k/2 + 1)·√(n ln n), c = 2.25 (measured ≤ 1.68: Lemma 3's max{ε, ·}
//!   floor keeps the start's randomization at ≈ ε, not kε/8 − n/2, when
//!   few levels are left to it);
//! - Theorem 13 (`ks-local`, torus): max{5L/2, kL} + max{L/2, kL/16} +
//!   c·√(kL ln n), c = 2.0 on `local-kk` (measured ≤ 1.34; sides 16, 32,
//!   L 2–8, k 2–8), 3.5 on §9's lower-bound shift (measured ≤ 2.97: every
//!   link is busy, so each phase's largest pile-up adds in full);
//! - Theorem 14 (`ks-local`, mesh): max{L, kL/8} + max{2L, kL} +
//!   c·√(kL ln n), c = 1.75 (measured ≤ 1.07).

use crate::common::{run_config, topo, torus_shift};
use routesim::engine::Policy;
use routesim::report::Report;
use routesim::request::{Field, RunSpec};
use routesim::topology::{Network, Topology};
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::AlgorithmOptions;
use routesim::{SimConfig, Simulation};
use std::process::Command;

const KK: [Workload; 3] = [Workload::RandomKk, Workload::LargeShift, Workload::PointReflection];

fn workload(name: &str, w: Workload, k: u32, locality: Option<u32>, seed: u64) -> Instance {
    let spec = WorkloadSpec {
        k: Some(k),
        locality,
        ..WorkloadSpec::new(w, seed)
    };
    generate(&topo(name), &spec).unwrap_or_else(|e| panic!("{w} k={k} on {name}: {e}"))
}

/// One run, invariants checked; asserts delivery, `best` and the phases.
fn run(algorithm: &str, instance: Instance, seed: u64, epsilon: Option<u32>, locality: Option<u32>) -> Report {
    let packets = instance.packets.len() as u32;
    let r = run_config(
        instance,
        SimConfig {
            algorithm: algorithm.into(),
            policy: Policy::FarthestFirst,
            seed,
            options: AlgorithmOptions {
                epsilon,
                locality,
                ..Default::default()
            },
            ..Default::default()
        },
    );
    assert_eq!(r.delivered, packets, "{algorithm} seed {seed}");
    assert!(
        r.steps >= r.bounds.best,
        "{algorithm}: {} < best {}",
        r.steps,
        r.bounds.best
    );
    assert_eq!(
        r.phases.iter().map(|p| p.steps).sum::<u32>(),
        r.steps,
        "{algorithm}: phases"
    );
    assert_eq!(r.extra.colours.as_ref().map(|c| c.iter().sum::<u32>()), Some(packets));
    r
}

fn root(x: f64, n: u32) -> f64 {
    (x * (n as f64).ln()).sqrt()
}

/// Runs ks-level on k-permutations of n×n meshes with strip height
/// `eps(n)`; holds each run to `main(n, k, ε) + c·(k/2 + 1)·√(n ln n)` and
/// returns the largest additive term in those units.
fn level_envelope(
    ks: &[u32],
    eps: impl Fn(u32) -> u32,
    improved: bool,
    c: f64,
    main: impl Fn(f64, f64, f64) -> f64,
) -> f64 {
    let mut worst = f64::MIN;
    for n in [16u32, 24, 32] {
        let e = eps(n);
        for &k in ks {
            for w in KK {
                for seed in 1..=3 {
                    let name = format!("mesh:{n}x{n}");
                    let r = run("ks-level", workload(&name, w, k, None, seed), seed, Some(e), None);
                    assert_eq!(r.extra.epsilon, Some(e));
                    let names: Vec<&str> = r.phases.iter().map(|p| p.name.as_str()).collect();
                    let levels = k / 2;
                    if improved {
                        assert_eq!(names.len() as u32, levels + 2, "{names:?}");
                        assert_eq!(names[0], "randomize");
                    } else {
                        assert_eq!(names.len() as u32, 2 * levels + 1, "{names:?}");
                        assert_eq!(names[0], "pass1-randomize");
                        assert_eq!(names[2 * levels as usize - 1], format!("pass{levels}-route"));
                    }
                    assert_eq!(*names.last().unwrap(), format!("pass{}-route", levels + 1));
                    let m = main(n as f64, k as f64, e as f64);
                    let extra = (r.steps as f64 - m) / ((k / 2 + 1) as f64 * root(n as f64, n));
                    worst = worst.max(extra);
                    assert!(
                        extra <= c,
                        "ks-level on {name}, {w} k={k} ε={e} seed {seed}: {} steps, main term {m}, additive {extra:.2} > {c}",
                        r.steps
                    );
                }
            }
        }
    }
    eprintln!("ks-level (improved {improved}) k {ks:?}: largest additive term {worst:.2}·(k/2+1)·√(n ln n)");
    worst
}

#[test]
fn corollary_4_level_route_on_meshes() {
    level_envelope(
        &[2, 4, 6, 8],
        |n| n.div_ceil(8),
        false,
        1.75,
        |n, k, e| (k / 2.0 + 1.0) * (n + e),
    );
}

/// Theorem 1's condition k ≥ 4n/ε with ε = n/2 (k = 8) and ε = n (k = 4, 6, 8).
#[test]
fn theorem_1_the_improved_version() {
    let main = |n: f64, k: f64, e: f64| (k + 1.0) / 2.0 * n + k / 8.0 * e;
    level_envelope(&[8], |n| n / 2, true, 2.25, main);
    level_envelope(&[4, 6, 8], |n| n, true, 2.25, main);
}

#[test]
fn level_route_is_deterministic_and_coalesces() {
    let inst = || workload("mesh:16x16", Workload::RandomKk, 4, None, 5);
    let a = run("ks-level", inst(), 3, None, None);
    assert_eq!(a, run("ks-level", inst(), 3, None, None));
    let b = run("ks-level", inst(), 4, None, None);
    assert_ne!(
        (a.steps, a.phases.clone()),
        (b.steps, b.phases.clone()),
        "the seed draws levels and colours"
    );
    // Coalesced (§3): one phase, every packet delivered, and the torus too.
    let c = run_config(
        inst(),
        SimConfig {
            algorithm: "ks-level".into(),
            options: AlgorithmOptions {
                pipeline: true,
                ..Default::default()
            },
            ..Default::default()
        },
    );
    assert_eq!(c.phases.len(), 1);
    run(
        "ks-level",
        workload("torus:16x16", Workload::LargeShift, 6, None, 1),
        1,
        Some(3),
        None,
    );
    // A non-square mesh and a partial last strip (ε = 5 on 12 rows, 16 columns).
    run(
        "ks-level",
        workload("mesh:12x16", Workload::RandomKk, 4, None, 1),
        1,
        Some(5),
        None,
    );
}

/// ks-local on `local-kk` (and the instance's own locality when none is given).
fn local_envelope(kind: &str, c: f64, main: impl Fn(f64, f64) -> f64) -> f64 {
    let mut worst = f64::MIN;
    for n in [16u32, 32] {
        let name = format!("{kind}:{n}x{n}");
        for l in [2u32, 4, 8] {
            for k in [2u32, 4, 8] {
                for seed in 1..=3 {
                    let r = run(
                        "ks-local",
                        workload(&name, Workload::LocalKk, k, Some(l), seed),
                        seed,
                        None,
                        Some(l),
                    );
                    assert_eq!(r.extra.locality, Some(l));
                    let names: Vec<&str> = r.phases.iter().map(|p| p.name.as_str()).collect();
                    assert_eq!(names, ["phase1-randomize", "phase2-route", "phase3-route"]);
                    let m = main(l as f64, k as f64);
                    let extra = (r.steps as f64 - m) / root((k * l) as f64, n);
                    worst = worst.max(extra);
                    assert!(
                        extra <= c,
                        "ks-local on {name}, L={l} k={k} seed {seed}: {} steps, main term {m}, additive {extra:.2} > {c}",
                        r.steps
                    );
                }
            }
        }
    }
    eprintln!("ks-local on {kind}: largest additive term {worst:.2}·√(kL ln n)");
    worst
}

#[test]
fn theorem_13_local_route_on_tori() {
    local_envelope("torus", 2.0, |l, k| (2.5 * l).max(k * l) + (l / 2.0).max(k * l / 16.0));
}

#[test]
fn theorem_14_local_route_on_meshes() {
    local_envelope("mesh", 1.75, |l, k| l.max(k * l / 8.0) + (2.0 * l).max(k * l));
}

/// §9's lower-bound instance: on a torus every packet moves exactly L right
/// and L up, so the k·n² packets need 2L·k·n² hops over the 2n² links that
/// bring them closer: ≥ kL steps for any algorithm. ks-local stays within
/// Theorem 13 on it, and without `--locality` takes L from the instance.
#[test]
fn the_lower_bound_instance_of_section_9() {
    for (n, l, k) in [(16u32, 2u32, 4u32), (16, 4, 8), (32, 8, 2)] {
        let r = run("ks-local", torus_shift(n, k, l), 1, None, None);
        assert_eq!(r.extra.locality, Some(l));
        let (lf, kf) = (l as f64, k as f64);
        assert!(r.steps as f64 >= kf * lf, "{} < kL", r.steps);
        let main = (2.5 * lf).max(kf * lf) + (lf / 2.0).max(kf * lf / 16.0);
        let extra = (r.steps as f64 - main) / root(kf * lf, n);
        eprintln!(
            "lower-bound instance n {n} L {l} k {k}: {} steps, main term {main}, additive {extra:.2}",
            r.steps
        );
        assert!(extra <= 3.5, "n {n} L {l} k {k}: {} steps", r.steps);
    }
}

#[test]
fn local_route_in_three_dimensions_and_coalesced() {
    let r = run(
        "ks-local",
        workload("mesh:8x8x8", Workload::LocalKk, 4, Some(2), 1),
        1,
        None,
        Some(2),
    );
    assert_eq!(r.phases.len(), 5);
    assert_eq!(r.extra.colours.unwrap().len(), 3);
    let c = run_config(
        workload("torus:16x16", Workload::LocalKk, 4, Some(4), 2),
        SimConfig {
            algorithm: "ks-local".into(),
            options: AlgorithmOptions {
                pipeline: true,
                locality: Some(4),
                ..Default::default()
            },
            ..Default::default()
        },
    );
    assert_eq!(c.phases.len(), 1);
}

/// Per axis: the ring distance on a torus, else the difference.
fn moves(t: &Topology, s: u32, d: u32) -> Vec<u32> {
    let g = t.as_grid().unwrap();
    (0..g.dims().len())
        .map(|a| {
            let (x, y, side) = (g.coord(s, a), g.coord(d, a), g.dims()[a]);
            let diff = x.abs_diff(y);
            if g.wraps() {
                diff.min(side - diff)
            } else {
                diff
            }
        })
        .collect()
}

#[test]
fn local_kk_is_exactly_k_k_and_every_move_is_at_most_l_per_axis() {
    let topologies = [
        "mesh:16x16",
        "torus:16x16",
        "mesh:7x11",
        "torus:5x9",
        "mesh:6x6x6",
        "torus:4x5x6",
        "linear:13",
        "ring:10",
    ];
    let mut far = 0;
    for name in topologies {
        let t = topo(name);
        for l in [1u32, 2, 3, 4, 8, 20] {
            for k in [1u32, 2, 5] {
                for seed in 1..=6 {
                    let inst = workload(name, Workload::LocalKk, k, Some(l), seed);
                    let what = format!("{name} L={l} k={k} seed {seed}");
                    assert_eq!((inst.l, inst.k), (Some(k), Some(k)), "{what}");
                    let nodes = t.nodes() as usize;
                    let (mut out, mut inn) = (vec![0u32; nodes], vec![0u32; nodes]);
                    for (i, &(s, d)) in inst.packets.iter().enumerate() {
                        out[s as usize] += 1;
                        inn[d as usize] += 1;
                        assert_eq!(s as usize, i / k as usize, "{what}: source-major");
                        let m = moves(&t, s, d);
                        assert!(m.iter().all(|&x| x <= l), "{what}: {s} -> {d} moves {m:?}");
                        far = far.max(*m.iter().max().unwrap());
                    }
                    assert!(out.iter().chain(&inn).all(|&x| x == k), "{what}: not k-k");
                }
            }
        }
    }
    assert!(far >= 8, "the blocks let packets move far: {far}");
    // The default L is 2; a seed changes the instance.
    let a = workload("torus:8x8", Workload::LocalKk, 3, None, 1);
    assert!(a
        .packets
        .iter()
        .all(|&(s, d)| moves(&topo("torus:8x8"), s, d).iter().all(|&x| x <= 2)));
    assert_ne!(a, workload("torus:8x8", Workload::LocalKk, 3, None, 2));
    // Refusals name the field or the workload.
    for (name, l, want) in [
        ("mesh:4x4", Some(0), "invalid locality '0'"),
        ("hypercube:3", None, "invalid workload 'local-kk'"),
    ] {
        let spec = WorkloadSpec {
            locality: l,
            ..WorkloadSpec::new(Workload::LocalKk, 1)
        };
        let e = generate(&topo(name), &spec).unwrap_err().to_string();
        assert!(e.contains(want), "{name}: {e}");
    }
}

fn refusal(topology: &str, algorithm: &str, w: &str, fields: &[(Field, &str)]) -> String {
    let mut all = vec![
        (Field::Topology, "topology", topology),
        (Field::Algorithm, "algorithm", algorithm),
        (Field::Workload, "workload", w),
    ];
    all.extend(fields.iter().map(|&(f, v)| (f, f.cli(), v)));
    match RunSpec::default().apply(all).and_then(|s| s.build()) {
        Ok(_) => panic!("{algorithm} on {topology} {w} {fields:?} was accepted"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn refusals_say_what_and_why() {
    let odd = refusal("mesh:8x8", "ks-level", "random-kk", &[(Field::K, "3")]);
    assert!(
        odd.contains("ks-level") && odd.contains("even k") && odd.contains("k = 3"),
        "{odd}"
    );
    let perm = refusal("mesh:8x8", "ks-level", "random-permutation", &[]);
    assert!(perm.contains("k = 1"), "{perm}");
    for (t, a) in [
        ("mesh:4x4x4", "ks-level"),
        ("hypercube:4", "ks-level"),
        ("ring:8", "ks-local"),
    ] {
        let e = refusal(t, a, "random-permutation", &[]);
        assert!(e.contains(a) && e.contains(t), "{e}");
    }
    for (value, want) in [
        ("0", "invalid epsilon '0'"),
        ("9", "invalid epsilon '9'"),
        ("-2", "invalid epsilon '-2'"),
    ] {
        let e = refusal(
            "mesh:8x8",
            "ks-level",
            "random-kk",
            &[(Field::K, "2"), (Field::Epsilon, value)],
        );
        assert!(e.contains(want), "{e}");
    }
    let e = refusal(
        "mesh:8x8",
        "ks-level",
        "random-kk",
        &[(Field::K, "2"), (Field::Epsilon, "9")],
    );
    assert!(e.contains("at most the side 8"), "{e}");
    let e = refusal(
        "torus:16x16",
        "ks-local",
        "random-kk",
        &[(Field::K, "2"), (Field::Locality, "3")],
    );
    assert!(e.contains("invalid locality '3'") && e.contains("moves 8"), "{e}");
    // The same through the CLI: exit 2, one line naming the option, nothing on stdout.
    let out = Command::new(env!("CARGO_BIN_EXE_routesim"))
        .args([
            "run",
            "--topology",
            "mesh:8x8",
            "--algorithm",
            "ks-level",
            "--workload",
            "random-kk",
        ])
        .args(["--k", "2", "--epsilon", "-1"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("invalid epsilon '-1'"));
    // ks-local with an instance takes --locality (and refuses too small a one).
    let inst = workload("mesh:8x8", Workload::LocalKk, 2, Some(3), 1);
    let spec = RunSpec::default().apply([
        (Field::Algorithm, "algorithm", "ks-local"),
        (Field::Instance, "instance", inst.to_json().as_str()),
        (Field::Locality, "locality", "4"),
    ]);
    let mut sim: Simulation = spec.unwrap().build().unwrap();
    sim.run();
    assert_eq!(sim.report().extra.locality, Some(4));
}

/// The library refuses a strip height outside 1..=side itself, not only
/// the parsers (which never pass 0): a caller that fills
/// `AlgorithmOptions` directly gets the same message, by name.
#[test]
fn the_library_refuses_strip_heights_outside_one_to_the_side() {
    let mesh = topo("mesh:8x12");
    for bad in [0, 9] {
        let e = routesim::algorithms::check_epsilon(bad, &mesh).unwrap_err().to_string();
        assert!(e.contains(&format!("epsilon '{bad}'")), "{e}");
    }
    assert!(routesim::algorithms::check_epsilon(0, &mesh)
        .unwrap_err()
        .to_string()
        .contains("at least 1"));
    for good in [1, 8] {
        assert!(routesim::algorithms::check_epsilon(good, &mesh).is_ok(), "{good}");
    }
    // Other networks have no strips: any ε from 1 on is unused there.
    assert!(routesim::algorithms::check_epsilon(100, &topo("hypercube:4")).is_ok());
    let config = SimConfig {
        algorithm: "ks-level".into(),
        options: AlgorithmOptions {
            epsilon: Some(0),
            ..AlgorithmOptions::default()
        },
        ..SimConfig::default()
    };
    let e = Simulation::new(workload("mesh:8x8", Workload::RandomKk, 2, None, 1), config)
        .err()
        .expect("ε = 0 refused")
        .to_string();
    assert!(e.contains("epsilon '0'") && e.contains("at least 1"), "{e}");
}

/// More levels than a byte numbers: LevelRoute has k + 1 phases (basic) or
/// k/2 + 2 (improved), and from k = 508 a phase's index wrapped, so the run
/// stalled at the first phase past 255 (a declared k of 5000 on mesh:4x4:
/// nothing delivered; a 520-520 routing on mesh:24x24: 5,582 of 299,520).
/// Every packet arrives now; past the numbered phases the run is refused.
#[test]
fn a_k_of_hundreds_of_levels_routes_every_packet() {
    let packets = "[[0, 5], [3, 12], [15, 0], [6, 9], [9, 6], [10, 1]]";
    for (k, seed) in [(600, 1), (5000, 1), (5000, 2)] {
        let text = format!(r#"{{"topology": "mesh:4x4", "packets": {packets}, "l": {k}, "k": {k}}}"#);
        let r = run("ks-level", Instance::from_json(&text).unwrap(), seed, None, None);
        assert!(!r.stalled, "k = {k}");
        assert!(r.phases.len() > 1, "k = {k}: {:?}", r.phases);
    }
    let text = format!(r#"{{"topology": "mesh:4x4", "packets": {packets}, "l": 65536, "k": 65536}}"#);
    let err = Simulation::new(
        Instance::from_json(&text).unwrap(),
        SimConfig {
            algorithm: "ks-level".into(),
            ..Default::default()
        },
    )
    .err()
    .expect("k = 65536 is refused")
    .to_string();
    assert!(err.contains("k = 65536") && err.contains("phases"), "{err}");
}
