//! Report fields that the other tests do not pin (SPEC §4, §5): the
//! reference curve `bounds.sqrt_lkn` = √(ℓ·k·N), the square-mesh references
//! k·side/2 and k·side/4, `offline_precompute`, and each algorithm's claim
//! `uses_policy()` (whether the contention policy can change its result).
//!
//! Every expectation is recomputed here from the definitions: N from the
//! topology's name (SPEC §2's node counts), ℓ and k from the instance's
//! declaration or by counting its packets, the references from the SPEC's
//! formulas. Nothing is a recorded output of the code under test.

use crate::common::{run_config, topo};
use routesim::algorithms::{create, AlgorithmOptions};
use routesim::bounds::compute;
use routesim::engine::Policy;
use routesim::report::Report;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::{SimConfig, Simulation};
use serde_json::Value;
use std::collections::BTreeSet;
use std::process::Command;

// ---------------------------------------------------------------------------
// Independent readings of the definitions.
// ---------------------------------------------------------------------------

/// A topology name split by hand (SPEC §2): kind and sides.
fn parse_name(name: &str) -> (&str, Vec<u64>) {
    let (kind, rest) = name.split_once(':').expect("kind:size");
    (kind, rest.split('x').map(|s| s.parse().unwrap()).collect())
}

/// N, the node count of SPEC §2's table: the product of the sides of a grid,
/// 2^D for `hypercube:D`, (D+1)·2^D for `butterfly:D` (every level counts).
fn nodes_of(name: &str) -> u64 {
    let (kind, sides) = parse_name(name);
    match kind {
        "linear" | "ring" | "mesh" | "torus" => sides.iter().product(),
        "hypercube" => 1 << sides[0],
        "butterfly" => (sides[0] + 1) << sides[0],
        _ => panic!("unknown kind {kind}"),
    }
}

/// The most packets one node sends and the most one node receives.
fn count_lk(packets: &[(u32, u32)]) -> (u64, u64) {
    let (mut out, mut inn) = (std::collections::HashMap::new(), std::collections::HashMap::new());
    for &(s, d) in packets {
        *out.entry(s).or_insert(0u64) += 1;
        *inn.entry(d).or_insert(0u64) += 1;
    }
    (
        out.values().copied().max().unwrap_or(0),
        inn.values().copied().max().unwrap_or(0),
    )
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

fn random_lk(name: &str, l: u32, k: u32, seed: u64) -> Instance {
    let spec = WorkloadSpec {
        l: Some(l),
        k: Some(k),
        ..WorkloadSpec::new(Workload::RandomLk, seed)
    };
    generate(&topo(name), &spec).unwrap_or_else(|e| panic!("random-lk l={l} k={k} on {name}: {e}"))
}

/// An algorithm that runs any instance on this topology.
fn base_algorithm(name: &str) -> &'static str {
    match parse_name(name).0 {
        "hypercube" | "butterfly" => "bit-fixing",
        _ => "greedy",
    }
}

fn run_report(instance: Instance, algorithm: &str) -> Report {
    run_config(
        instance,
        SimConfig {
            algorithm: algorithm.into(),
            ..Default::default()
        },
    )
}

fn routesim(args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_routesim"))
        .args(args)
        .output()
        .expect("the routesim binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "routesim {args:?}: {stderr}");
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("routesim {args:?}: not JSON ({e})"))
}

fn scratch(name: &str, contents: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("routesim-report-fields-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path
}

// ---------------------------------------------------------------------------
// bounds.sqrt_lkn = √(ℓ·k·N)
// ---------------------------------------------------------------------------

/// Generated (ℓ,k) instances declare the ℓ and k they were made with; the
/// reference is √(ℓ·k·N) for those and N nodes, on every kind of topology
/// (on a butterfly N counts all D+1 levels), in `bounds`, in
/// `bounds.reference` and in a run's report.
#[test]
fn sqrt_lkn_is_the_root_of_declared_l_k_and_the_node_count() {
    let cases: &[(&str, u32, u32)] = &[
        ("mesh:8x8", 1, 3),
        ("mesh:8x8", 3, 1),
        ("mesh:8x8", 2, 4),
        ("mesh:8x8", 4, 2),
        ("mesh:8x8", 3, 3),
        ("mesh:4x6", 2, 3),
        ("torus:5x5", 3, 2),
        ("mesh:3x3x3", 2, 5),
        ("linear:7", 2, 5),
        ("ring:9", 4, 1),
        ("hypercube:4", 2, 3),
        ("hypercube:5", 1, 4),
        ("butterfly:3", 2, 2),
        ("butterfly:3", 1, 3),
        ("butterfly:2", 3, 1),
    ];
    for &(name, l, k) in cases {
        let instance = random_lk(name, l, k, 7);
        let n = nodes_of(name);
        let want = ((l as u64 * k as u64 * n) as f64).sqrt();
        let b = compute(&instance);
        assert!(
            close(b.sqrt_lkn, want),
            "{name} l={l} k={k}: {} ≠ √({l}·{k}·{n})",
            b.sqrt_lkn
        );
        assert!(close(b.reference.sqrt_lkn, want), "{name} l={l} k={k}: reference");
        let r = run_report(instance, base_algorithm(name));
        assert_eq!((r.l, r.k), (l, k), "{name}");
        assert!(close(r.bounds.sqrt_lkn, want), "{name} l={l} k={k}: report");
    }
}

/// Without a declaration ℓ and k are the measured maxima; a declaration
/// (SPEC §3, at least the measured values) replaces them, one at a time.
#[test]
fn sqrt_lkn_uses_declared_l_and_k_else_the_measured_maxima() {
    // mesh:4x4: node 0 sends 3, node 5 receives 4.
    let packets = "[[0, 5], [0, 6], [0, 7], [1, 5], [2, 5], [3, 5], [4, 9], [9, 4]]";
    let pairs = [(0, 5), (0, 6), (0, 7), (1, 5), (2, 5), (3, 5), (4, 9), (9, 4)];
    let (ml, mk) = count_lk(&pairs);
    assert_eq!((ml, mk), (3, 4), "the hand count of this test");
    let n = nodes_of("mesh:4x4");
    for (declared, l, k) in [
        ("", ml, mk),
        (r#", "l": 5, "k": 6"#, 5, 6),
        (r#", "l": 7"#, 7, mk),
        (r#", "k": 9"#, ml, 9),
    ] {
        let text = format!(r#"{{"topology": "mesh:4x4", "packets": {packets}{declared}}}"#);
        let instance = Instance::from_json(&text).unwrap();
        let want = ((l * k * n) as f64).sqrt();
        let b = compute(&instance);
        assert!(close(b.sqrt_lkn, want), "{declared:?}: {} ≠ √({l}·{k}·{n})", b.sqrt_lkn);
        assert!(close(b.reference.sqrt_lkn, want), "{declared:?}: reference");
        // The CLI reads the same file and prints the same value.
        let path = scratch("declared.json", &text);
        let json = routesim(&["run", "--instance", path.to_str().unwrap(), "--json"]);
        let printed = json["bounds"]["sqrt_lkn"]
            .as_f64()
            .expect("bounds.sqrt_lkn is a number");
        assert!(close(printed, want), "{declared:?}: CLI printed {printed}");
        assert_eq!(
            (json["l"].as_u64(), json["k"].as_u64()),
            (Some(l), Some(k)),
            "{declared:?}"
        );
    }
}

/// Hand-built instances on a hypercube and a butterfly, ℓ and k measured:
/// N is 2^D on the hypercube and (D+1)·2^D on the butterfly, not the 2^D
/// rows that send.
#[test]
fn sqrt_lkn_counts_every_node_of_hypercubes_and_butterflies() {
    // hypercube:3, node 1 sends to 2, 4 and 6 (ℓ = 3), node 6 also hears from 0 (k = 2).
    let cube = Instance::new(topo("hypercube:3"), vec![(1, 2), (1, 4), (1, 6), (0, 6), (3, 5)]).unwrap();
    // butterfly:2 (12 nodes): level-0 rows 0, 1 send to level-2 row 3 (node 11): k = 2, ℓ = 2.
    let fly = Instance::new(topo("butterfly:2"), vec![(0, 11), (1, 11), (0, 8), (2, 9)]).unwrap();
    for (name, instance) in [("hypercube:3", cube), ("butterfly:2", fly)] {
        let (l, k) = count_lk(&instance.packets);
        let n = nodes_of(name);
        let want = ((l * k * n) as f64).sqrt();
        let b = compute(&instance);
        assert!(close(b.sqrt_lkn, want), "{name}: {} ≠ √({l}·{k}·{n})", b.sqrt_lkn);
        let r = run_report(instance, "bit-fixing");
        assert!(close(r.bounds.sqrt_lkn, want), "{name}: report");
    }
}

// ---------------------------------------------------------------------------
// reference.k_side_over_2 / k_side_over_4: square 2-D meshes / tori only
// ---------------------------------------------------------------------------

/// k·side/2 exactly on square 2-D meshes and k·side/4 exactly on square 2-D
/// tori (SPEC §4's references); null on rectangles, other dimensions and
/// other topologies, in the struct and in the JSON.
#[test]
fn side_references_only_on_square_two_dimensional_grids() {
    let cases: &[(&str, u32)] = &[
        ("mesh:4x4", 3),
        ("mesh:6x6", 2),
        ("mesh:5x5", 1),
        ("mesh:4x6", 3),
        ("mesh:6x4", 2),
        ("mesh:1x5", 1),
        ("torus:4x4", 3),
        ("torus:6x6", 2),
        ("torus:4x6", 3),
        ("torus:6x4", 2),
        ("linear:6", 2),
        ("ring:6", 2),
        ("mesh:4x4x4", 2),
        ("mesh:4x4x3", 2),
        ("torus:4x4x4", 2),
        ("hypercube:4", 2),
        ("butterfly:2", 2),
    ];
    for &(name, k) in cases {
        let instance = random_lk(name, 1, k, 3);
        let (kind, sides) = parse_name(name);
        let square = (kind == "mesh" || kind == "torus") && sides.len() == 2 && sides[0] == sides[1];
        let side = sides[0] as f64;
        let want_2 = (square && kind == "mesh").then(|| k as f64 * side / 2.0);
        let want_4 = (square && kind == "torus").then(|| k as f64 * side / 4.0);
        let b = compute(&instance);
        assert_eq!(b.reference.k_side_over_2, want_2, "{name} k={k}: k·side/2");
        assert_eq!(b.reference.k_side_over_4, want_4, "{name} k={k}: k·side/4");
        let json = serde_json::to_value(&b).unwrap();
        assert_eq!(json["reference"]["k_side_over_2"].as_f64(), want_2, "{name} JSON");
        assert_eq!(json["reference"]["k_side_over_4"].as_f64(), want_4, "{name} JSON");
        assert!(json["reference"].get("k_side_over_2").is_some() && json["reference"].get("k_side_over_4").is_some());
    }
}

// ---------------------------------------------------------------------------
// Algorithms: offline_precompute and uses_policy
// ---------------------------------------------------------------------------

/// Every algorithm of the registry (`routesim list --json`), with small
/// instances that it accepts; for algorithms whose `uses_policy()` is true,
/// at least one of them shows two policies giving different runs, under
/// every option combination. Found by searching the small instances of each
/// algorithm's topologies (SPEC §5 workloads, seeds 1–3); the smallest that
/// worked are kept.
struct Witness {
    topology: &'static str,
    workload: Workload,
    lk: Option<(u32, u32)>,
    seed: u64,
}

const fn w(topology: &'static str, workload: Workload, lk: Option<(u32, u32)>, seed: u64) -> Witness {
    Witness {
        topology,
        workload,
        lk,
        seed,
    }
}

const LK22: Option<(u32, u32)> = Some((2, 2));

fn witnesses(algorithm: &str) -> Vec<Witness> {
    use Workload::*;
    match algorithm {
        "greedy" => vec![
            w("linear:4", RandomLk, LK22, 1),
            w("mesh:3x3", RandomPermutation, None, 1),
        ],
        "bit-fixing" => vec![w("butterfly:2", RandomLk, LK22, 3), w("hypercube:2", RandomLk, LK22, 1)],
        "valiant" => vec![
            w("linear:4", RandomLk, LK22, 3),
            w("hypercube:3", RandomPermutation, None, 1),
        ],
        "rand-interval" => vec![w("mesh:3x3", Transpose, None, 1), w("mesh:3x3", RandomLk, LK22, 1)],
        "offline" => vec![
            w("mesh:4x4", Transpose, None, 1),
            w("mesh:4x4", RandomPermutation, None, 3),
            w("torus:4x4", Transpose, None, 1),
            w("mesh:8x8", RandomPermutation, None, 1),
        ],
        "sort-route" => vec![
            w("mesh:4x4", Transpose, None, 1),
            w("mesh:8x8", BitReversal, None, 1),
            w("mesh:8x8", RandomPermutation, None, 1),
        ],
        // The spreading of Step 2.(c) moves packets along lines in which few
        // meet, so on 4×4 every policy gives the same run; the balancing of
        // §3.2 Step 2.(b) on 8×8 is where they differ.
        "pp-rand" | "pp-det" => vec![
            w("mesh:4x4", Transpose, None, 1),
            w("mesh:4x4", RandomLk, LK22, 1),
            w("mesh:8x8", RandomLk, Some((8, 2)), 1),
        ],
        "ks-nowrap" | "ks-wrap" => vec![
            w("mesh:4x4", RandomLk, LK22, 1),
            w("torus:4x4", RandomLk, LK22, 1),
            w("mesh:3x3x3", RandomLk, LK22, 2),
        ],
        "ks-level" => vec![
            w("mesh:4x4", RandomLk, LK22, 1),
            w("torus:4x4", RandomKk, Some((4, 4)), 1),
            w("mesh:6x6", PointReflection, Some((2, 2)), 2),
        ],
        "ks-local" => vec![
            w("mesh:4x4", LocalKk, LK22, 1),
            w("torus:5x5", LocalKk, Some((4, 4)), 1),
            w("mesh:3x3x3", LocalKk, LK22, 2),
        ],
        "lmrr" => vec![
            w("mesh:4x4", Transpose, None, 1),
            w("butterfly:3", RandomPermutation, None, 1),
            w("hypercube:3", RandomPermutation, None, 2),
        ],
        "snake-sort" => vec![w("mesh:4x4", SortRandom, None, 1), w("mesh:8x8", SortFew, None, 2)],
        "flashsort" => vec![
            w("butterfly:3", SortRandom, None, 1),
            w("butterfly:6", SortFew, None, 2),
        ],
        "bitonic" => vec![
            w("hypercube:3", SortRandom, None, 1),
            w("hypercube:4", SortFew, None, 2),
            w("butterfly:3", SortFew, None, 3),
        ],
        _ => vec![],
    }
}

fn witness_instance(x: &Witness) -> Instance {
    let spec = WorkloadSpec {
        l: x.lk.map(|p| p.0),
        k: x.lk.map(|p| p.1),
        ..WorkloadSpec::new(x.workload, x.seed)
    };
    generate(&topo(x.topology), &spec).unwrap()
}

/// The algorithm names of the registry, as `routesim list --json` prints them.
fn registry_names() -> Vec<String> {
    let list = routesim(&["list", "--json"]);
    list["algorithms"]
        .as_array()
        .expect("list --json has algorithms")
        .iter()
        .map(|a| a["name"].as_str().expect("a name").to_string())
        .collect()
}

fn all_options(seed: u64) -> Vec<AlgorithmOptions> {
    let mut out = vec![];
    for pipeline in [false, true] {
        for reverse_order in [false, true] {
            out.push(AlgorithmOptions {
                seed,
                pipeline,
                reverse_order,
                ..Default::default()
            });
        }
    }
    out
}

/// The run's report with the policy's name blanked, or `None` when the
/// algorithm refuses this policy (pp-det refuses `random`).
fn report_under(instance: &Instance, algorithm: &str, options: &AlgorithmOptions, policy: Policy) -> Option<Report> {
    let config = SimConfig {
        algorithm: algorithm.into(),
        policy,
        seed: options.seed,
        check_invariants: true,
        options: AlgorithmOptions {
            pipeline: options.pipeline,
            reverse_order: options.reverse_order,
            ..Default::default()
        },
        ..Default::default()
    };
    Simulation::new(instance.clone(), config.clone()).ok()?;
    let mut r = run_config(instance.clone(), config);
    r.policy.clear();
    Some(r)
}

#[test]
fn every_registered_algorithm_has_witness_instances() {
    let names = registry_names();
    assert!(names.len() >= 8, "{names:?}");
    for name in &names {
        let list = witnesses(name);
        assert!(
            !list.is_empty(),
            "{name}: add witness instances to tests/it/report_fields.rs"
        );
        for x in &list {
            let instance = witness_instance(x);
            let options = AlgorithmOptions {
                seed: x.seed,
                ..Default::default()
            };
            assert!(
                report_under(&instance, name, &options, Policy::FarthestFirst).is_some(),
                "{name} refuses its witness {} {}",
                x.topology,
                x.workload
            );
        }
    }
}

/// Only `offline` precomputes off-line (SPEC §1): the algorithm says so, and
/// so do the report and its JSON, for every option combination.
#[test]
fn offline_precompute_is_claimed_by_offline_alone() {
    for name in registry_names() {
        let want = name == "offline";
        let x = &witnesses(&name)[0];
        let instance = witness_instance(x);
        for options in all_options(x.seed) {
            let algorithm = create(&name, &options).unwrap();
            assert_eq!(algorithm.offline_precompute(), want, "{name} {options:?}");
            let r = report_under(&instance, &name, &options, Policy::FarthestFirst).expect("runs");
            assert_eq!(r.offline_precompute, want, "{name} {options:?}: report");
            let json = serde_json::to_value(&r).unwrap();
            assert_eq!(
                json["offline_precompute"],
                Value::Bool(want),
                "{name} {options:?}: JSON"
            );
        }
    }
    // And on the command line.
    for (algorithm, want) in [("greedy", false), ("sort-route", false), ("offline", true)] {
        let json = routesim(&[
            "run",
            "--topology",
            "mesh:4x4",
            "--workload",
            "transpose",
            "--algorithm",
            algorithm,
            "--json",
        ]);
        assert_eq!(json["offline_precompute"], Value::Bool(want), "{algorithm}");
    }
}

/// `uses_policy()` is a claim about behaviour: when it is false, every
/// policy the algorithm accepts gives the same report (steps, queues,
/// phases, latencies — everything but the policy's name) on every witness;
/// when it is true, some witness shows two policies giving different runs.
/// Checked for every registered algorithm under every option combination.
#[test]
fn uses_policy_says_whether_the_policy_can_change_the_run() {
    let mut claims = BTreeSet::new();
    for name in registry_names() {
        for base in all_options(0) {
            let uses = create(&name, &base).unwrap().uses_policy();
            claims.insert(uses);
            let mut differs = vec![];
            for x in witnesses(&name) {
                let instance = witness_instance(&x);
                let options = AlgorithmOptions {
                    seed: x.seed,
                    ..base.clone()
                };
                let runs: Vec<(Policy, Report)> = Policy::ALL
                    .into_iter()
                    .filter_map(|p| report_under(&instance, &name, &options, p).map(|r| (p, r)))
                    .collect();
                assert!(runs.len() >= 2, "{name}: fewer than two policies accepted");
                let (first_policy, first) = &runs[0];
                for (p, r) in &runs[1..] {
                    if r != first {
                        differs.push(format!(
                            "{} {} seed {}: {first_policy} vs {p}",
                            x.topology, x.workload, x.seed
                        ));
                        if !uses {
                            panic!(
                                "{name} {base:?} says the policy does not matter, but {first_policy} and {p} differ \
                                 on {} {}: {first:?} vs {r:?}",
                                x.topology, x.workload
                            );
                        }
                    }
                }
            }
            if uses {
                assert!(
                    !differs.is_empty(),
                    "{name} {base:?} says the policy matters, but every policy gives the same run on its witnesses"
                );
            }
        }
    }
    // Both answers occur, so both halves of the check ran.
    assert_eq!(claims.len(), 2, "{claims:?}");
}

/// Every algorithm names its first phase at step 0, before any step runs,
/// and that name is the first of its report's phases (SPEC §4's per-phase
/// steps; the page's phase counter reads it at step 0).
#[test]
fn every_algorithm_names_its_first_phase_at_step_0() {
    for name in registry_names() {
        for x in witnesses(&name) {
            let instance = witness_instance(&x);
            let config = SimConfig {
                algorithm: name.clone(),
                seed: x.seed,
                ..Default::default()
            };
            let mut sim = Simulation::new(instance, config).expect("the witness runs");
            let at_0 = sim.engine().stats().current_phase().map(str::to_string);
            sim.run();
            let report = sim.report();
            assert!(report.steps > 0, "{name} {} {}: no step", x.topology, x.workload);
            let first = report.phases.first().map(|p| p.name.clone());
            assert!(
                at_0.is_some(),
                "{name} {} {}: no phase at step 0",
                x.topology,
                x.workload
            );
            assert_eq!(at_0, first, "{name} {} {}", x.topology, x.workload);
        }
    }
}

/// A declared ℓ or k plans for up to ℓ·N (k·N) packets, and the algorithms
/// size their plans by it (pp's colours, ks-level's levels): above the
/// packet limit it is refused, naming the field and value — it once
/// reached `pp-rand` as 2^32 − 1 colours and aborted the process (a wasm
/// trap in the page).
#[test]
fn a_declared_l_or_k_above_the_packet_limit_is_refused_by_name() {
    use routesim::workload::Limits;
    let n = nodes_of("mesh:4x4");
    for limits in [Limits::NATIVE, Limits::BROWSER] {
        let most = limits.max_packets / n;
        for key in ["l", "k"] {
            let at = format!(r#"{{"topology": "mesh:4x4", "packets": [[0, 1]], "{key}": {most}}}"#);
            assert!(Instance::from_json_with_limits(&at, &limits).is_ok(), "{key} = {most}");
            for over in [most + 1, u32::MAX as u64] {
                let text = format!(r#"{{"topology": "mesh:4x4", "packets": [[0, 1]], "{key}": {over}}}"#);
                let e = Instance::from_json_with_limits(&text, &limits).unwrap_err().to_string();
                assert!(e.contains(&format!("invalid {key} '{over}'")), "{e}");
                assert!(e.contains(&limits.max_packets.to_string()), "{e}");
            }
        }
    }
    // The CLI says so and exits 2, nothing allocated.
    let path = scratch(
        "huge-l.json",
        r#"{"topology": "mesh:4x4", "packets": [[0, 1]], "l": 4294967295, "k": 4294967295}"#,
    );
    let out = Command::new(env!("CARGO_BIN_EXE_routesim"))
        .args(["run", "--algorithm", "pp-rand", "--instance", path.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid l '4294967295'"), "{err}");
}

/// Whatever `generate` writes, `run --instance` reads: a generated
/// workload's declared ℓ and k pass the same limit when read back (the
/// reader once multiplied the larger of them by every node, so that
/// `random-lk --l 1 --k 300000` on mesh:16x16, or k = 8192 on
/// hypercube:14, was written and then refused), and the run reads the
/// same as the run that generated it in process.
#[test]
fn a_generated_instance_with_a_large_declared_l_or_k_is_read_back() {
    for (net, l, k) in [
        ("mesh:16x16", "1", "300000"),
        ("mesh:16x16", "300000", "1"),
        ("hypercube:14", "1", "8192"),
    ] {
        let workload = ["--topology", net, "--workload", "random-lk", "--l", l, "--k", k];
        let out = Command::new(env!("CARGO_BIN_EXE_routesim"))
            .args([&["generate"][..], &workload].concat())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        let path = scratch(
            &format!("declared-{net}-{l}-{k}.json").replace(':', "-"),
            &String::from_utf8_lossy(&out.stdout),
        );
        // pp-rand sizes its colours by ℓ and k (the abort the limit is for).
        let algorithms: &[&str] = if net.starts_with("mesh") {
            &["greedy", "pp-rand"]
        } else {
            &["bit-fixing"]
        };
        for &a in algorithms {
            let read = routesim(&["run", "--json", "--algorithm", a, "--instance", path.to_str().unwrap()]);
            let made = routesim(&[&["run", "--json", "--algorithm", a][..], &workload].concat());
            for field in ["steps", "packets", "max_queue", "l", "k", "bounds"] {
                assert_eq!(read[field], made[field], "{a} {net} l={l} k={k}: {field}");
            }
        }
    }
    // Both declared large: the smaller one is the limit's, named.
    let text = r#"{"topology": "mesh:4x4", "packets": [[0, 1]], "l": 4294967295, "k": 4194305}"#;
    let e = Instance::from_json(text).unwrap_err().to_string();
    assert!(
        e.contains("invalid k '4194305'") && e.contains("smaller of l and k"),
        "{e}"
    );
}
