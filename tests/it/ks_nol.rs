//! NoLRoute (Kaufmann–Sibeyn §9.2, Theorem 15): `ks-local --locality
//! unknown` on n×n tori. Every run delivers every packet with the engine's
//! invariants checked after every step, never beats `bounds.best`, and its
//! phases sum to its steps; every step's links are recounted here too (no
//! directed link carries two messages in a step), and the information
//! packets (the control messages) are tallied per directed link.
//!
//! - After step 1.c every node's estimate L′ satisfies L/2 < L′ ≤ L, L the
//!   instance's locality: the report's `locality_estimate` is the smallest
//!   L′ of any node, every L′ is 2^⌊log₂ L_P⌋ for some node's own L_P ≤ L,
//!   and only one power of two lies in (L/2, L] — so the check proves
//!   that all nodes agree.
//! - No connection carries more than ⌊log₂ n⌋ information packets, and
//!   none is sent after step n.
//! - Theorem 15: max{n, kL/16} + kL + O(√((n + kL)·log n)). The paper's
//!   sum leaves out that phase 3 undoes step 1.b's randomization within
//!   ±8n/k (Lemma 29 counts a move of 3L/2 in phase 3; after 1.b a packet
//!   may be 8n/k + L from its row): about max{n/2, min{n, kn/16}} more
//!   steps — the move of up to min{8n/k, n/2} rows, or the load n of
//!   ±8n/k strips (kn/16 when the strip is the whole ring), the same count
//!   as step 1.b's by symmetry — unless step 1.d re-randomized within
//!   ±L′/2 (L′k > 16n), where Lemma 29 holds as it stands. Held to the
//!   main term plus that E plus c·√((n + kL)·ln n): c = 1.5 on `local-kk`
//!   (measured ≤ 0.45 at sides 16–64, k 4–16, L 2–n/4, seeds 1–3 — the
//!   table of docs/algorithms/kaufmann-sibeyn.md — and ≤ 0.80 at this test's seeds 4–5), 3.5 on
//!   §9's lower-bound instance (every packet L right and L up; measured
//!   ≤ 2.9). Without E the additive term grows with n at small kL (6.1 at
//!   n = 64, k = 16, L = 2 on the lower-bound instance), as a missing
//!   linear term does.

use crate::common::torus_shift;
use routesim::algorithms::instance_locality;
use routesim::engine::Policy;
use routesim::report::Report;
use routesim::request::{Field, RunSpec};
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::AlgorithmOptions;
use routesim::{SimConfig, Simulation, Status};
use std::collections::{HashMap, HashSet};
use std::process::Command;

fn local_kk(n: u32, k: u32, l: u32, seed: u64) -> Instance {
    let spec = WorkloadSpec {
        k: Some(k),
        locality: Some(l),
        ..WorkloadSpec::new(Workload::LocalKk, seed)
    };
    let topo: Topology = format!("torus:{n}x{n}").parse().unwrap();
    generate(&topo, &spec).unwrap_or_else(|e| panic!("local-kk n={n} k={k} L={l}: {e}"))
}

fn config(seed: u64, unknown: bool) -> SimConfig {
    SimConfig {
        algorithm: "ks-local".into(),
        policy: Policy::FarthestFirst,
        seed,
        options: AlgorithmOptions {
            locality_unknown: unknown,
            ..Default::default()
        },
        check_invariants: true,
        ..Default::default()
    }
}

/// One NoLRoute run, stepped here.
struct Observed {
    report: Report,
    /// The most information packets over one directed link.
    per_link: u32,
    /// Information packets in all.
    total: u64,
    /// The last step with an information packet on a link.
    last: u32,
}

fn observe(instance: Instance, seed: u64) -> Observed {
    let n = instance.topology.square_side().unwrap();
    let l = instance_locality(instance.topology.as_grid().unwrap(), &instance.packets);
    let packets = instance.packets.len() as u32;
    let mut sim = Simulation::new(instance, config(seed, true)).expect("runs");
    let (mut counts, mut total, mut last) = (HashMap::<u32, u32>::new(), 0u64, 0);
    while sim.status() == Status::Running {
        sim.step();
        let e = sim.engine();
        let links = e.last_links();
        let mut seen = HashSet::new();
        for &link in links {
            assert!(
                seen.insert(link),
                "step {}: link {link} carried two messages",
                e.step_count()
            );
        }
        for &link in &links[..e.last_control_count()] {
            *counts.entry(link).or_default() += 1;
            total += 1;
            last = e.step_count();
        }
    }
    assert_eq!(sim.status(), Status::Finished);
    let r = sim.report();
    let what = format!("n={n} L={l} k={} seed {seed}", r.k);
    assert_eq!(r.delivered, packets, "{what}");
    assert!(r.steps >= r.bounds.best, "{what}: {} < best {}", r.steps, r.bounds.best);
    assert_eq!(r.phases.iter().map(|p| p.steps).sum::<u32>(), r.steps, "{what}: phases");
    assert_eq!(r.extra.colours.as_ref().map(|c| c.iter().sum::<u32>()), Some(packets));
    // The nodes are not told L; the report gives it beside their estimate
    // (SPEC §5: `locality`, and `locality_estimate`).
    assert_eq!(
        r.extra.locality,
        Some(l.max(1)),
        "{what}: the report's L is the instance's"
    );
    let per_link = counts.values().copied().max().unwrap_or(0);
    assert!(
        per_link <= n.ilog2(),
        "{what}: {per_link} information packets on one link"
    );
    assert!(last <= n, "{what}: an information packet in step {last}");
    assert_eq!(total > 0, l > 0, "{what}: {total} information packets");
    let names: Vec<&str> = r.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names[0], "phase1ab-randomize", "{what}");
    if r.steps > n {
        // 1.c runs after step n: phase 1 lasts that long.
        assert!(r.phases[0].steps >= n, "{what}: {names:?}");
    }
    if names.contains(&"phase1d-randomize") {
        let e = r.extra.locality_estimate.expect("1.d follows 1.c");
        assert!(e as u64 * r.k as u64 > 16 * n as u64, "{what}: {names:?}");
    }
    Observed {
        report: r,
        per_link,
        total,
        last,
    }
}

/// L/2 < L′ ≤ L with L′ a power of two: the estimate every node agreed on.
fn assert_estimate(r: &Report, l: u32, what: &str) {
    let e = r
        .extra
        .locality_estimate
        .unwrap_or_else(|| panic!("{what}: no estimate"));
    assert!(e.is_power_of_two() && 2 * e > l && e <= l, "{what}: L′ = {e}, L = {l}");
}

#[test]
fn every_node_s_estimate_is_the_power_of_two_in_half_l_to_l() {
    let mut links = 0;
    for n in [8u32, 9, 12, 16, 24] {
        for l in [1u32, 2, 3, 4, 5, 7] {
            if 2 * l > n {
                continue;
            }
            for k in [1u32, 2, 4] {
                for seed in 1..=3 {
                    let inst = local_kk(n, k, l, seed);
                    let own = instance_locality(inst.topology.as_grid().unwrap(), &inst.packets);
                    let o = observe(inst, seed);
                    assert_estimate(&o.report, own, &format!("n={n} L={l} k={k} seed {seed}"));
                    links = links.max(o.per_link);
                }
            }
        }
    }
    // Some connection carried more than one (the doubling rule forwards).
    assert!(links >= 2, "{links}");
    // The lower-bound shift: L exactly; a power of two is found exactly.
    for (n, l, want) in [(16u32, 4u32, 4u32), (16, 3, 2), (20, 5, 4), (32, 8, 8)] {
        let o = observe(torus_shift(n, 2, l), 1);
        assert_eq!(o.report.extra.locality_estimate, Some(want), "n={n} L={l}");
        // SPEC §5: `locality` beside the estimate — the instance's own L,
        // which the nodes were not told.
        assert_eq!(o.report.extra.locality, Some(l), "n={n} L={l}");
    }
}

/// One value sent from one node: it reaches every node, each connection
/// carries it at most once, and a node with no packet adopts it too.
#[test]
fn information_packets_flood_once_per_value_and_stop_after_step_n() {
    let n = 16;
    // One packet, from (0, 0) to (5, 5) (it cannot arrive in phase 1, which
    // moves it along one axis): L = 5, L′ = 4.
    let inst = Instance::new(format!("torus:{n}x{n}").parse().unwrap(), vec![(0, 5 * n + 5)]).unwrap();
    let o = observe(inst, 1);
    assert_eq!(o.report.extra.locality_estimate, Some(4));
    assert_eq!(o.per_link, 1);
    // Every node sends the value once in all four directions — but for the
    // one n/2 + n/2 = n hops away: it hears it in step n, and the flood
    // stops after step n. The last ones are sent in step n.
    assert_eq!(o.total, 4 * (n as u64 * n as u64 - 1));
    assert_eq!(o.last, n);
    // The packet waits for 1.c (after step n), then goes on.
    assert_eq!(o.report.phases[0].steps, n);
    assert!(o.report.steps > n);
}

fn theorem_15(n: u32, k: u32, l: u32) -> (f64, f64) {
    let (nf, kf, lf) = (n as f64, k as f64, l as f64);
    (nf.max(kf * lf / 16.0) + kf * lf, ((nf + kf * lf) * nf.ln()).sqrt())
}

/// Phase 3's undoing of step 1.b's ±8n/k randomization, which Theorem 15's
/// sum leaves out (see the module doc); none after step 1.d.
fn undo(n: u32, k: u32, estimate: u32) -> f64 {
    if estimate as u64 * k as u64 > 16 * n as u64 {
        return 0.0;
    }
    let (nf, kf) = (n as f64, k as f64);
    (nf / 2.0).max(nf.min(kf * nf / 16.0))
}

/// Holds a run to Theorem 15's main term + E + c·√((n + kL)·ln n); returns
/// the additive term with E and without.
fn envelope(r: &Report, n: u32, k: u32, l: u32, c: f64, what: &str) -> (f64, f64) {
    let (main, unit) = theorem_15(n, k, l);
    let e = undo(n, k, r.extra.locality_estimate.unwrap());
    let steps = r.steps as f64;
    let with = (steps - main - e) / unit;
    assert!(
        with <= c,
        "{what}: {} steps, Theorem 15's main term {main} + E {e}, additive {with:.2} > {c}",
        r.steps
    );
    (with, (steps - main) / unit)
}

/// The sweep's (n, k, L): sides 16–64, k 4–16, L 2 … n/4 (powers of two).
fn sweep() -> Vec<(u32, u32, u32)> {
    let mut out = vec![];
    for n in [16u32, 32, 64] {
        for k in [4u32, 8, 16] {
            out.extend((1..).map(|i| 1u32 << i).take_while(|&l| 4 * l <= n).map(|l| (n, k, l)));
        }
    }
    out
}

#[test]
fn theorem_15_on_local_kk() {
    let (mut worst, mut plain) = (f64::MIN, f64::MIN);
    for (n, k, l) in sweep() {
        for seed in 4..=5 {
            let inst = local_kk(n, k, l, seed);
            let own = instance_locality(inst.topology.as_grid().unwrap(), &inst.packets);
            let what = format!("n={n} k={k} L={l} seed {seed}");
            let o = observe(inst, seed);
            assert_estimate(&o.report, own, &what);
            let (a, b) = envelope(&o.report, n, k, own, 1.5, &what);
            worst = worst.max(a);
            plain = plain.max(b);
        }
    }
    eprintln!("NoLRoute on local-kk: additive term ≤ {worst:.2} with E, ≤ {plain:.2} without (√((n + kL)·ln n))");
}

/// kL > 16n: step 1.d stretches the randomization to ±L′/2.
#[test]
fn step_1d_runs_when_the_estimate_asks_for_it() {
    for (n, k, l) in [(16u32, 64u32, 8u32), (16, 48, 8), (32, 64, 16)] {
        for seed in 1..=2 {
            let inst = local_kk(n, k, l, seed);
            let own = instance_locality(inst.topology.as_grid().unwrap(), &inst.packets);
            let what = format!("n={n} k={k} L={l} seed {seed}");
            let o = observe(inst, seed);
            assert_estimate(&o.report, own, &what);
            let names: Vec<&str> = o.report.phases.iter().map(|p| p.name.as_str()).collect();
            assert_eq!(
                names,
                [
                    "phase1ab-randomize",
                    "phase1d-randomize",
                    "phase2-route",
                    "phase3-route"
                ],
                "{what}"
            );
            envelope(&o.report, n, k, own, 1.5, &what);
        }
    }
}

/// §9's lower-bound instance: ≥ kL steps for any algorithm; NoLRoute
/// within the envelope, and slower than LocalRoute told L where kL is
/// small against n (the wait for step n and phase 3's undoing).
#[test]
fn theorem_15_on_the_lower_bound_instance() {
    let (mut worst, mut plain) = (f64::MIN, f64::MIN);
    for (n, k, l) in sweep() {
        let what = format!("shift n={n} k={k} L={l}");
        let o = observe(torus_shift(n, k, l), 1);
        assert!(o.report.steps >= k * l, "{what}: {} < kL", o.report.steps);
        let (a, b) = envelope(&o.report, n, k, l, 3.5, &what);
        worst = worst.max(a);
        plain = plain.max(b);
    }
    eprintln!("NoLRoute on the shift: additive term ≤ {worst:.2} with E, ≤ {plain:.2} without");
    // At n = 64, k = 16, L = 2 the main term alone is 96, but phase 3 must
    // bring back packets spread over the whole ring (8n/k = n/2).
    let o = observe(torus_shift(64, 16, 2), 1);
    let p3 = o.report.phases.last().unwrap();
    assert_eq!(p3.name, "phase3-route");
    assert!(p3.steps >= 32 - 2, "{}", p3.steps);
    assert!(
        o.report.steps as f64 >= theorem_15(64, 16, 2).0 + 32.0,
        "{}",
        o.report.steps
    );
    let told = finish(torus_shift(64, 16, 2), 1, false);
    assert!(told.steps < o.report.steps, "{} ≥ {}", told.steps, o.report.steps);
}

fn finish(instance: Instance, seed: u64, unknown: bool) -> Report {
    let mut sim = Simulation::new(instance, config(seed, unknown)).expect("runs");
    assert_eq!(sim.run(), Status::Finished);
    sim.report()
}

#[test]
fn no_l_route_is_deterministic_and_the_seed_matters() {
    let inst = || local_kk(16, 4, 4, 3);
    let a = finish(inst(), 7, true);
    assert_eq!(a, finish(inst(), 7, true));
    let b = finish(inst(), 8, true);
    assert_ne!(
        (a.steps, &a.phases, &a.extra.colours),
        (b.steps, &b.phases, &b.extra.colours)
    );
    // Told L, ks-local is LocalRoute as before: no estimate.
    let known = finish(inst(), 7, false);
    assert_eq!(known.extra.locality_estimate, None);
    assert!(known.extra.locality.is_some());
    assert_eq!(known.phases[0].name, "phase1-randomize");
}

fn request(fields: &[(Field, &str)]) -> Result<Simulation, String> {
    RunSpec::default()
        .apply(fields.iter().map(|&(f, v)| (f, f.cli(), v)))
        .and_then(|s| s.build())
        .map_err(|e| e.to_string())
}

fn refusal(fields: &[(Field, &str)]) -> String {
    match request(fields) {
        Ok(_) => panic!("{fields:?} was accepted"),
        Err(e) => e,
    }
}

#[test]
fn the_request_reads_unknown_and_unknown_l() {
    let base = [
        (Field::Topology, "torus:16x16"),
        (Field::Algorithm, "ks-local"),
        (Field::Workload, "local-kk"),
        (Field::K, "4"),
    ];
    // unknown:L generates the workload with L and keeps it from the nodes.
    let mut fields = base.to_vec();
    fields.push((Field::Locality, "unknown:4"));
    let mut sim = request(&fields).unwrap();
    assert_eq!(sim.run(), Status::Finished);
    let r = sim.report();
    let want = local_kk(16, 4, 4, 1);
    assert_eq!(*sim.instance(), want);
    let own = instance_locality(want.topology.as_grid().unwrap(), &want.packets);
    // Reported (the instance's own L), though the nodes were not told it.
    assert_eq!(r.extra.locality, Some(own));
    assert_estimate(&r, own, "unknown:4");
    let spec = RunSpec::default()
        .apply(fields.iter().map(|&(f, v)| (f, f.cli(), v)))
        .unwrap();
    assert_eq!(spec.value_of(Field::Locality), "unknown:4");
    assert_eq!(spec.to_json()["locality"], "unknown:4");
    // The page's address carries it (and the explanation judges Theorem 15).
    let (spec, messages) = RunSpec::from_query(
        RunSpec::browser(),
        [
            ("topology", "torus:16x16"),
            ("algorithm", "ks-local"),
            ("workload", "local-kk"),
            ("k", "4"),
            ("locality", "unknown:4"),
        ],
    );
    assert!(messages.is_empty(), "{messages:?}");
    assert!(spec.options.locality_unknown && spec.options.locality == Some(4));
    let e = routesim::explain::explain_run(&spec.build().unwrap());
    let t15 = e.claims.iter().find(|c| c.name == "Theorem 15").unwrap();
    assert_ne!(t15.verdict, routesim::explain::Verdict::NotApplicable, "{}", t15.line);
    // unknown alone: the workload's default L (2).
    let mut fields = base.to_vec();
    fields.push((Field::Locality, "unknown"));
    let sim = request(&fields).unwrap();
    assert_eq!(*sim.instance(), local_kk(16, 4, 2, 1));
    // An instance with unknown: the nodes estimate the instance's L.
    let inst = torus_shift(16, 2, 4);
    let json = inst.to_json();
    let mut sim = request(&[
        (Field::Algorithm, "ks-local"),
        (Field::Instance, json.as_str()),
        (Field::Locality, "unknown"),
    ])
    .unwrap();
    sim.run();
    assert_eq!(sim.report().extra.locality_estimate, Some(4));
    // … but unknown:L's L is a workload's.
    let e = refusal(&[
        (Field::Algorithm, "ks-local"),
        (Field::Instance, json.as_str()),
        (Field::Locality, "unknown:4"),
    ]);
    assert!(
        e.contains("invalid locality 'unknown:4'") && e.contains("applies to nothing"),
        "{e}"
    );
}

#[test]
fn refusals_name_the_option_and_the_value() {
    let with = |topology: &'static str, extra: &[(Field, &'static str)]| {
        let mut f = vec![
            (Field::Topology, topology),
            (Field::Algorithm, "ks-local"),
            (Field::Workload, "local-kk"),
            (Field::K, "2"),
            (Field::Locality, "unknown"),
        ];
        f.extend_from_slice(extra);
        f
    };
    for topology in ["mesh:16x16", "torus:16x24", "torus:8x8x8"] {
        let e = refusal(&with(topology, &[]));
        assert!(
            e.contains("invalid locality 'unknown'") && e.contains("n×n torus") && e.contains(topology),
            "{e}"
        );
    }
    let e = refusal(&with("torus:16x16", &[(Field::Phases, "coalesced")]));
    assert!(
        e.contains("invalid phases 'coalesced'") && e.contains("after step n"),
        "{e}"
    );
    for value in ["unknownx", "unknown:", "unknown:0", "unknown:-2", "0", "-1", "unkown"] {
        let mut f = with("torus:16x16", &[]);
        f.pop();
        f.push((Field::Locality, value));
        let e = refusal(&f);
        assert!(
            e.contains(&format!("invalid locality '{value}'")) && e.contains("unknown:L"),
            "{value}: {e}"
        );
    }
    // The CLI: exit 2, one line on stderr, nothing on stdout.
    let out = Command::new(env!("CARGO_BIN_EXE_routesim"))
        .args(["run", "--topology", "mesh:8x8", "--algorithm", "ks-local"])
        .args(["--workload", "local-kk", "--locality", "unknown"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("invalid locality 'unknown'"), "{err}");
    // And it runs there, reporting the estimate in the JSON.
    let out = Command::new(env!("CARGO_BIN_EXE_routesim"))
        .args(["run", "--topology", "torus:8x8", "--algorithm", "ks-local"])
        .args([
            "--workload",
            "local-kk",
            "--k",
            "2",
            "--locality",
            "unknown:2",
            "--json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["locality_estimate"], 2);
    // SPEC §5: `locality` too — the instance's own L, not told to the nodes.
    assert!(
        json["locality"].as_u64().is_some_and(|l| (1..=2).contains(&l)),
        "{json}"
    );
}
