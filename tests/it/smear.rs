//! Queue smearing (`--smear`, Kaufmann–Sibeyn §7.5 Theorem 6; design in
//! `src/primitives/smear.rs` and `src/algorithms/phased.rs`): the smear
//! keeps every packet and its destination and moves packets only along the
//! axis of their coming phase, inside a block; runs are deterministic and
//! their phases sum to `steps`; m = 1 is the unsmeared run; `--smear auto`
//! bounds the packets parked at a node when a phase opens
//! (`max_barrier_load`) to k + 4 at n 16–64, k 2–8 (measured: at most
//! k + 3) where the unsmeared runs park up to k + 17; and it leaves
//! `max_load` — whose peaks are at the ends of phases, before any smear —
//! within 1 of the unsmeared run's. Each smear phase takes at most 2.5·m
//! steps (measured: at most 1.9·m). Exact small blocks are checked step by
//! step; the option is refused where it does not apply.

use crate::common::routesim;
use crate::common::run_config;
use routesim::algorithms::Smear;
use routesim::engine::{Engine, EngineConfig};
use routesim::primitives::smear::{Item, SmearTask};
use routesim::primitives::Task;
use routesim::report::Report;
use routesim::request::{Field, RunSpec};
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::AlgorithmOptions;
use routesim::{SimConfig, Simulation, Status};

const KK: [Workload; 3] = [Workload::RandomKk, Workload::LargeShift, Workload::PointReflection];

fn kk(topology: &str, workload: Workload, k: u32, seed: u64) -> Instance {
    let spec = WorkloadSpec {
        k: Some(k),
        ..WorkloadSpec::new(workload, seed)
    };
    generate(&topology.parse().unwrap(), &spec).unwrap()
}

fn config(algorithm: &str, seed: u64, smear: Option<Smear>) -> SimConfig {
    SimConfig {
        algorithm: algorithm.into(),
        seed,
        options: AlgorithmOptions {
            smear,
            ..Default::default()
        },
        check_invariants: false,
        record_series: false,
        ..Default::default()
    }
}

/// A run to its end (finished), without invariant checks (the grid is large).
fn run(instance: &Instance, algorithm: &str, seed: u64, smear: Option<Smear>) -> Report {
    let mut sim = Simulation::new(instance.clone(), config(algorithm, seed, smear)).unwrap();
    assert_eq!(sim.run(), Status::Finished);
    let r = sim.report();
    assert_eq!(r.delivered, r.packets);
    assert_eq!(r.phases.iter().map(|p| p.steps).sum::<u32>(), r.steps);
    r
}

/// The algorithm of each network kind in the grid.
fn algorithm_for(topology: &str) -> &'static str {
    if topology.starts_with("torus") {
        "ks-wrap"
    } else {
        "ks-nowrap"
    }
}

/// Steps a run with invariant checks on and returns the positions of every
/// packet at the end of every reported phase, with the phase's name.
fn phase_ends(instance: &Instance, algorithm: &str, seed: u64, smear: Smear) -> Vec<(String, Vec<u32>)> {
    let config = SimConfig {
        check_invariants: true,
        ..config(algorithm, seed, Some(smear))
    };
    let mut sim = Simulation::new(instance.clone(), config).unwrap();
    let mut ends: Vec<(String, Vec<u32>)> = vec![];
    let mut before = sim.engine().positions();
    while sim.status() == Status::Running {
        sim.step();
        let name = sim.engine().stats().current_phase().unwrap_or("").to_string();
        if ends.last().is_some_and(|(n, _)| *n != name) || ends.is_empty() {
            if let Some(last) = ends.last_mut() {
                last.1 = before.clone();
            }
            ends.push((name, vec![]));
        }
        before = sim.engine().positions();
    }
    assert_eq!(sim.status(), Status::Finished);
    ends.last_mut().unwrap().1 = before;
    for (p, &(_, dest)) in instance.packets.iter().enumerate() {
        assert!(sim.engine().is_delivered(p as u32));
        assert_eq!(
            sim.engine().destination(p as u32),
            dest,
            "packet {p} kept its destination"
        );
    }
    ends
}

/// The axes along which `a` and `b` differ.
fn differing(topo: &Topology, a: u32, b: u32) -> Vec<usize> {
    let g = topo.as_grid().unwrap();
    let (ca, cb) = (g.coords(a), g.coords(b));
    (0..ca.len()).filter(|&i| ca[i] != cb[i]).collect()
}

/// Every packet is delivered to its own destination; a smear moves a packet
/// along one axis only, less than m along it, and the next phase moves it
/// along that same axis (the smear undoes no progress); smear phases come
/// between the algorithm's phases, named after the phase they follow.
#[test]
fn the_smear_keeps_packets_and_moves_them_along_the_coming_phase_s_axis() {
    for (topology, k, m) in [("mesh:12x12", 4, 5), ("torus:10x10", 3, 4), ("mesh:6x6x6", 2, 3)] {
        let algorithm = algorithm_for(topology);
        let topo: Topology = topology.parse().unwrap();
        let g = topo.as_grid().unwrap().clone();
        for workload in KK {
            let instance = kk(topology, workload, k, 3);
            let ends = phase_ends(&instance, algorithm, 5, Smear::Block(m));
            let names: Vec<&str> = ends.iter().map(|(n, _)| n.as_str()).collect();
            let what = format!("{algorithm} {topology} {workload}: {names:?}");
            let smears: Vec<usize> = (0..ends.len()).filter(|&i| names[i].starts_with("smear")).collect();
            assert!(!smears.is_empty(), "{what}");
            let mut moved = 0;
            for &i in &smears {
                assert!(i > 0 && i + 1 < ends.len(), "{what}: a smear between two phases");
                assert!(!names[i - 1].starts_with("smear") && !names[i + 1].starts_with("smear"));
                let done = names[..i].iter().filter(|n| n.starts_with("phase")).count();
                assert_eq!(names[i], format!("smear{done}"), "{what}");
                let (start, end, next) = (&ends[i - 1].1, &ends[i].1, &ends[i + 1].1);
                for p in 0..instance.packets.len() {
                    let axes = differing(&topo, start[p], end[p]);
                    assert!(axes.len() <= 1, "{what}: packet {p} moved along {axes:?}");
                    if let Some(&a) = axes.first() {
                        moved += 1;
                        let (c0, c1) = (g.coord(start[p], a), g.coord(end[p], a));
                        assert!(c0.abs_diff(c1) < m, "{what}: packet {p} left its block");
                        assert_eq!(c0 / m, c1 / m, "{what}: packet {p} left its block");
                        let later = differing(&topo, end[p], next[p]);
                        assert!(later.iter().all(|&b| b == a), "{what}: packet {p}: {a} then {later:?}");
                    }
                }
            }
            assert!(moved > 0, "{what}: the smears moved nothing");
        }
    }
}

/// Same request, same report; with `check_invariants` on through the
/// shared helper too.
#[test]
fn smeared_runs_are_deterministic() {
    for topology in ["mesh:16x16", "torus:16x16"] {
        let instance = kk(topology, Workload::RandomKk, 4, 2);
        let algorithm = algorithm_for(topology);
        let a = run_config(instance.clone(), config(algorithm, 7, Some(Smear::Auto)));
        let b = run(&instance, algorithm, 7, Some(Smear::Auto));
        assert_eq!(a, b, "{topology}");
        assert_eq!(a.extra.smear_block, Some(16), "{topology}: ⌈4·log₂ 16⌉ = 16");
    }
}

/// m = 1 moves nothing: the report is the unsmeared run's (its smear phases
/// take no step and are not reported) but for the two smear fields.
#[test]
fn m_one_is_the_unsmeared_run() {
    for topology in ["mesh:16x16", "torus:12x12", "mesh:6x6x6"] {
        let algorithm = algorithm_for(topology);
        for workload in KK {
            let instance = kk(topology, workload, 3, 4);
            let plain = run(&instance, algorithm, 1, None);
            let mut one = run(&instance, algorithm, 1, Some(Smear::Block(1)));
            assert_eq!(one.extra.smear_block, Some(1));
            let parked = one.extra.max_barrier_load.expect("reported with --smear");
            assert!(parked <= one.max_load && parked >= 3, "{topology} {workload}");
            assert!(plain.extra.smear_block.is_none() && plain.extra.max_barrier_load.is_none());
            one.extra.smear_block = None;
            one.extra.max_barrier_load = None;
            assert_eq!(one, plain, "{topology} {workload}");
        }
    }
}

/// The measured claims, on n×n meshes (ks-nowrap) and tori (ks-wrap), n 16,
/// 32, 64, k 2, 4, 8, the three k-k workloads and two seeds each.
#[test]
fn auto_bounds_the_parked_load_to_k_plus_4() {
    const C: u32 = 4;
    let (mut over, mut below, mut worst_ratio) = (0, 0, 0.0f64);
    for kind in ["mesh", "torus"] {
        for n in [16u32, 32, 64] {
            let topology = format!("{kind}:{n}x{n}");
            let algorithm = algorithm_for(&topology);
            for k in [2u32, 4, 8] {
                for workload in KK {
                    for seed in [1, 2] {
                        let what = format!("{algorithm} {topology} {workload} k={k} seed {seed}");
                        let instance = kk(&topology, workload, k, seed);
                        let one = run(&instance, algorithm, seed, Some(Smear::Block(1)));
                        let auto = run(&instance, algorithm, seed, Some(Smear::Auto));
                        let m = auto.extra.smear_block.unwrap();
                        let want = ((k as f64 * (n as f64).log2()).ceil() as u32).min(n);
                        assert_eq!(m, want, "{what}");
                        let parked = auto.extra.max_barrier_load.unwrap();
                        assert!(parked <= k + C, "{what}: {parked} parked > k + {C}");
                        let unsmeared = one.extra.max_barrier_load.unwrap();
                        if unsmeared > k + C {
                            over += 1;
                            below += (parked < unsmeared) as u32;
                        }
                        // max_load peaks at the end of a phase, before its smear.
                        assert!(auto.max_load <= one.max_load + 1, "{what}: max_load {}", auto.max_load);
                        assert!(auto.max_load >= parked, "{what}");
                        // Each smear phase: O(m) steps.
                        let smears: Vec<_> = auto.phases.iter().filter(|p| p.name.starts_with("smear")).collect();
                        assert!(!smears.is_empty(), "{what}");
                        for p in smears {
                            assert!(p.steps <= 5 * m / 2, "{what}: {} took {} > 2.5·{m}", p.name, p.steps);
                            worst_ratio = worst_ratio.max(p.steps as f64 / m as f64);
                        }
                        // The routing phases are those of the unsmeared run.
                        let routing = |r: &Report| r.phases.iter().filter(|p| p.name.starts_with("phase")).count();
                        assert_eq!(routing(&auto), routing(&one), "{what}");
                    }
                }
            }
        }
    }
    assert!(over >= 60, "most unsmeared runs park more than k + {C}: {over}");
    assert_eq!(below, over, "the smear lowers the parked load on every such run");
    assert!(worst_ratio > 1.0, "the 2.5·m bound is not vacuous: {worst_ratio}");
}

/// Runs the smear primitive on a line: packets at `loads[i]` on node i, all
/// bound for the line's last node (beyond the block), keyed by id.
fn smear_line(side: u32, loads: &[u32], m: u32) -> (u32, u32, Vec<u32>) {
    let topo: Topology = format!("linear:{side}").parse().unwrap();
    let grid = topo.as_grid().unwrap().clone();
    let mut packets = vec![];
    for (v, &c) in loads.iter().enumerate() {
        packets.extend((0..c).map(|_| (v as u32, side - 1)));
    }
    let config = EngineConfig {
        check_invariants: true,
        ..Default::default()
    };
    let mut e = Engine::new(topo, &packets, config);
    let items: Vec<Item> = (0..packets.len() as u32)
        .map(|p| {
            e.set_target(p, e.position(p));
            Item {
                packet: p,
                axis: 0,
                key: 0,
            }
        })
        .collect();
    let mut task = SmearTask::new(&e, &grid, m, &items);
    let counting = task.counting_steps();
    while task.poll(&mut e) {
        e.step();
    }
    let mut load = vec![0; side as usize];
    for p in 0..packets.len() as u32 {
        load[e.position(p) as usize] += 1;
    }
    (e.step_count(), counting, load)
}

/// By hand, m − 1 counting steps (counters both ways at once), then the
/// moves from step m on, farthest-first.
/// - [5, 0, 3, 0], m = 4, T = 8: ranks 0–4 at node 0 go to ⌊r·4/8⌋ = 0, 0,
///   1, 1, 2, ranks 5–7 at node 2 to 2, 3, 3. Link 0→1 carries three
///   packets (steps 4–6, the one for node 2 first; it crosses 1→2 in step
///   5), 2→3 two (steps 4–5): 6 steps, loads 2, 2, 2, 2.
/// - [0, 0, 0, 9], m = 4, T = 9: ranks 0–8 go to ⌊r·4/9⌋ = 0, 0, 0, 1, 1,
///   2, 2, 3, 3. Link 3→2 carries seven packets, one per step: the three
///   for node 0 (steps 4–6), the two for node 1 (7–8), the two for node 2
///   (9–10); the others go on without waiting (the last for node 0 crosses
///   1→0 in step 8): 10 steps, loads 3, 2, 2, 2.
/// - [6, 0, 0 | 0, 3, 0 | 1, 0] on a line of 8, m = 3 (the last block has
///   two nodes): 2 counting steps; block 1 sends ⌊r·3/6⌋ = 0, 0, 1, 1, 2, 2,
///   four packets over 0→1 in steps 3–6 (the two for node 2 first); block
///   2 one packet each way in step 3; block 3 keeps its one: 6 steps.
/// - m = 1: nothing is counted or moved.
#[test]
fn exact_small_blocks() {
    assert_eq!(smear_line(5, &[5, 0, 3, 0], 4), (6, 3, vec![2, 2, 2, 2, 0]));
    assert_eq!(smear_line(5, &[0, 0, 0, 9], 4), (10, 3, vec![3, 2, 2, 2, 0]));
    assert_eq!(
        smear_line(8, &[6, 0, 0, 0, 3, 0, 1], 3),
        (6, 2, vec![2, 2, 2, 1, 1, 1, 1, 0])
    );
    assert_eq!(smear_line(4, &[3, 0, 1], 1), (0, 0, vec![3, 0, 1, 0]));
}

/// `--smear` on the CLI, in JSON configs and in the page's URL: accepted by
/// ks-nowrap and ks-wrap, refused by every other algorithm and with
/// coalesced phases, bad values named.
#[test]
fn the_option_is_named_where_it_is_refused() {
    let base = [
        "run",
        "--json",
        "--topology",
        "mesh:8x8",
        "--workload",
        "random-kk",
        "--k",
        "2",
    ];
    let with = |extra: &[&str]| {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        routesim(&args)
    };
    for algorithm in ["ks-nowrap", "ks-wrap"] {
        let out = with(&["--algorithm", algorithm, "--smear", "auto"]);
        assert_eq!(out.status.code(), Some(0), "{algorithm}");
        let r: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(r["smear_block"], 6, "{algorithm}: ⌈2·log₂ 8⌉");
        assert!(r["max_barrier_load"].as_u64().unwrap() >= 2);
        assert!(r["phases"].as_array().unwrap().iter().any(|p| p["name"] == "smear1"));
    }
    for (extra, needle) in [
        (vec!["--algorithm", "greedy", "--smear", "4"], "invalid smear '4'"),
        (
            vec!["--algorithm", "valiant", "--smear", "auto"],
            "invalid smear 'auto'",
        ),
        (
            vec!["--algorithm", "ks-nowrap", "--smear", "2", "--phases", "coalesced"],
            "separated phases",
        ),
        (vec!["--algorithm", "ks-wrap", "--smear", "0"], "invalid smear '0'"),
        (vec!["--algorithm", "ks-wrap", "--smear", "-3"], "invalid smear '-3'"),
        (vec!["--algorithm", "ks-wrap", "--smear", "x"], "invalid smear 'x'"),
        // The message names every form the option takes.
        (vec!["--algorithm", "ks-wrap", "--smear=-inf"], "auto or off"),
    ] {
        let out = with(&extra);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{extra:?}: {err}");
        assert!(out.stdout.is_empty(), "{extra:?}");
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{extra:?}: {err}");
    }
    // greedy's refusal says who smears.
    let out = with(&["--algorithm", "greedy", "--smear", "4"]);
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("ks-nowrap and ks-wrap"), "{err}");

    // JSON configs (the wasm Simulation) and the URL (lenient: dropped with a message).
    let json =
        serde_json::json!({"topology": "torus:8x8", "algorithm": "ks-wrap", "workload": "random-kk", "smear": "auto"});
    let spec = RunSpec::from_json(RunSpec::default(), &json).unwrap();
    assert_eq!(spec.options.smear, Some(Smear::Auto));
    assert_eq!(spec.to_json()["smear"], "auto");
    let json = serde_json::json!({"topology": "torus:8x8", "algorithm": "greedy", "workload": "random-kk", "smear": 3});
    let err = RunSpec::from_json(RunSpec::default(), &json).unwrap_err().to_string();
    assert!(err.contains("smear '3'"), "{err}");
    assert_eq!(Field::Smear.query(), Some("smear"));
    let (spec, messages) = RunSpec::from_query(
        RunSpec::browser(),
        [("topology", "mesh:8x8"), ("algorithm", "ks-nowrap"), ("smear", "5")],
    );
    assert_eq!(
        (spec.options.smear, messages.len()),
        (Some(Smear::Block(5)), 0),
        "{messages:?}"
    );
    let (spec, messages) = RunSpec::from_query(RunSpec::browser(), [("topology", "mesh:8x8"), ("smear", "5")]);
    assert_eq!(spec.options.smear, None);
    assert!(messages.iter().any(|m| m.contains("smear")), "{messages:?}");

    // `list` shows the option for ks-* only.
    let list: serde_json::Value = serde_json::from_slice(&routesim(&["list", "--json"]).stdout).unwrap();
    for a in list["algorithms"].as_array().unwrap() {
        let takes = a["options"].as_array().unwrap().iter().any(|o| o["name"] == "smear");
        let name = a["name"].as_str().unwrap();
        assert_eq!(
            takes,
            name.starts_with("ks-nowrap") || name.starts_with("ks-wrap"),
            "{name}"
        );
    }
}

/// SPEC §5 writes the option as a bare `--smear`: given without a value it
/// is Theorem 6's block (`auto`), wherever it stands — last, or before
/// another option, which it does not take as its value — in `run` and
/// `sweep`; `--smear M` still names a block.
#[test]
fn a_bare_smear_flag_is_the_automatic_block() {
    let base = [
        "--topology",
        "mesh:8x8",
        "--algorithm",
        "ks-nowrap",
        "--workload",
        "random-kk",
        "--k",
        "2",
    ];
    let run = |extra: &[&str]| {
        let mut args = vec!["run"];
        args.extend_from_slice(&base);
        args.extend_from_slice(extra);
        let out = routesim(&args);
        let err = String::from_utf8_lossy(&out.stderr).into_owned();
        assert_eq!(out.status.code(), Some(0), "{extra:?}: {err}");
        out.stdout
    };
    let auto = run(&["--json", "--smear", "auto"]);
    let r: serde_json::Value = serde_json::from_slice(&auto).unwrap();
    assert_eq!(r["smear_block"], 6, "⌈2·log₂ 8⌉");
    assert_eq!(run(&["--json", "--smear"]), auto, "--smear last");
    assert_eq!(run(&["--smear", "--json"]), auto, "--smear before --json");
    let four: serde_json::Value = serde_json::from_slice(&run(&["--smear", "4", "--json"])).unwrap();
    assert_eq!(four["smear_block"], 4);
    let sweep = |smear: &[&str]| {
        let mut args = vec!["sweep"];
        args.extend_from_slice(&base);
        args.extend_from_slice(smear);
        args.extend_from_slice(&["--seeds", "1..2"]);
        let out = routesim(&args);
        assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    };
    assert_eq!(sweep(&["--smear"]), sweep(&["--smear", "auto"]), "sweep --smear");
}

/// Smearing with cut-through worms (`--flits F`): at a barrier the last
/// worms' flits still hold links for up to F − 1 steps, and the smear's
/// counters, control messages on those links, wait for them instead of
/// being lost (before, in a release build a counter that found its link
/// taken was dropped and the smear went on as if it had arrived). Every
/// counter is sent (the sweep checks it), the run finishes with the
/// invariants checked, and it takes longer than without worms.
#[test]
fn smear_counters_wait_for_worms_holding_their_links() {
    for (topology, algorithm, workload, smear, flits) in [
        ("mesh:6x5", "ks-nowrap", "random-kk", "16", "7"),
        ("torus:3x3", "ks-wrap", "hotspot", "2", "7"),
        ("mesh:2x2", "ks-wrap", "bit-complement", "4", "64"),
        ("mesh:8x8", "ks-nowrap", "random-kk", "auto", "4"),
        ("torus:8x8", "ks-wrap", "random-kk", "auto", "3"),
    ] {
        let run = |flits: &str| {
            let out = routesim(&[
                "run",
                "--json",
                "--check-invariants",
                "--topology",
                topology,
                "--algorithm",
                algorithm,
                "--workload",
                workload,
                "--k",
                "2",
                "--smear",
                smear,
                "--flits",
                flits,
            ]);
            let err = String::from_utf8_lossy(&out.stderr).into_owned();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{algorithm} {topology} flits {flits}: {err}"
            );
            serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
        };
        let worms = run(flits);
        assert_eq!(worms["delivered"], worms["packets"]);
        assert!(worms["phases"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "smear1"));
        let plain = run("1");
        assert!(
            worms["steps"].as_u64() > plain["steps"].as_u64(),
            "{topology}: worms no slower"
        );
    }
}
