//! The sorting problem (SPEC §5 "Sorting"): the `sort-*` workloads, an
//! instance's `keys`, the report's `sorted` and `order`, refusals both ways,
//! and Batcher's `bitonic` on the hypercube, the butterfly and the
//! shuffle-exchange graph with its exact step count on each.

use crate::common::{routesim, topo};
use routesim::topology::Network;
use routesim::workload::sort::rank_destinations;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::{SimConfig, Simulation, Status};
use serde_json::Value;

/// bitonic's documented step count on hypercube:D (docs/algorithms/sorting.md).
fn bitonic_steps(d: u32) -> u32 {
    d * (d + 1) / 2 + 1
}

/// bitonic's documented step count on butterfly:D: (D + 1)² − 1.
fn bitonic_butterfly_steps(d: u32) -> u32 {
    (d + 1) * (d + 1) - 1
}

/// bitonic's documented step count on shuffle-exchange:D:
/// ⌊5D²/4⌋ + max(D − 3, 0) + 1.
fn bitonic_shuffle_exchange_steps(d: u32) -> u32 {
    (5 * d * d) / 4 + d.max(3) - 3 + 1
}

/// Node r of bitonic's order on butterfly:D (N = 2^D keys): row r at level D.
fn level_d(d: u32) -> impl Fn(u32, u32) -> u32 {
    move |n, r| d * n + r
}

/// The sort of `keys` on `topology` as an instance.
pub(crate) fn sort_instance(topology: &str, keys: Vec<u64>) -> Instance {
    let dest = rank_destinations(&keys);
    let packets = (0..keys.len() as u32).map(|i| (i, dest[i as usize])).collect();
    let mut inst = Instance::new(topo(topology), packets).unwrap();
    inst.keys = Some(keys);
    inst
}

/// Runs `algorithm` on the sort with invariant checks, checks the final
/// placement itself (node r holds the key of rank r, ties by packet id,
/// from the packets' final positions), and returns the steps.
pub(crate) fn run_sort(inst: Instance, algorithm: &str) -> u32 {
    run_sort_in(inst, algorithm, |_, r| r)
}

/// Node r of the snake on a mesh of `side` columns, by hand.
fn snake(side: u32, r: u32) -> u32 {
    let (row, col) = (r / side, r % side);
    row * side + if row % 2 == 0 { col } else { side - 1 - col }
}

/// As [`run_sort`], node r of the order being `node(N, r)`.
fn run_sort_in(inst: Instance, algorithm: &str, node: impl Fn(u32, u32) -> u32) -> u32 {
    let keys = inst.keys.clone().unwrap();
    let what = format!("{algorithm} on {} keys {keys:?}", inst.topology);
    let config = SimConfig {
        algorithm: algorithm.into(),
        check_invariants: true,
        ..Default::default()
    };
    let mut sim = Simulation::new(inst, config).unwrap();
    assert_eq!(sim.run(), Status::Finished, "{what}");
    let n = keys.len();
    let rank_of: std::collections::HashMap<u32, usize> =
        (0..n as u32).map(|r| (node(n as u32, r), r as usize)).collect();
    let mut at = vec![None; n];
    for p in 0..n as u32 {
        let v = rank_of[&sim.engine().position(p)];
        assert!(
            v < n && at[v].is_none(),
            "{what}: node {v} holds two keys or is outside the order"
        );
        at[v] = Some(p);
    }
    let order: Vec<u32> = at.into_iter().map(Option::unwrap).collect();
    for w in order.windows(2) {
        let (a, b) = (w[0] as usize, w[1] as usize);
        assert!((keys[a], a) < (keys[b], b), "{what}: out of order at packets {a}, {b}");
    }
    let report = sim.report();
    assert_eq!(report.extra.sorted, Some(true), "{what}");
    // The run ends in the schedule's last step: no empty step after it
    // (the page's step counter is the engine's).
    assert_eq!(sim.engine().step_count(), report.steps, "{what}: the run's last step");
    assert_eq!(report.delivered as usize, n, "{what}");
    report.steps
}

#[test]
fn bitonic_sorts_every_0_1_input_on_hypercube_4() {
    for bits in 0u32..1 << 16 {
        let keys = (0..16).map(|i| ((bits >> i) & 1) as u64).collect();
        assert_eq!(
            run_sort(sort_instance("hypercube:4", keys), "bitonic"),
            bitonic_steps(4)
        );
    }
}

#[test]
fn bitonic_sorts_random_keys_and_duplicates_up_to_d10() {
    for d in [1, 2, 3, 5, 8, 10] {
        let t = topo(&format!("hypercube:{d}"));
        for w in [
            Workload::SortRandom,
            Workload::SortFew,
            Workload::SortReversed,
            Workload::SortSorted,
        ] {
            for seed in 1..=2 {
                let inst = generate(&t, &WorkloadSpec::new(w, seed)).unwrap();
                assert_eq!(run_sort(inst, "bitonic"), bitonic_steps(d), "{w} on {t}");
            }
        }
    }
}

/// One key (hypercube:0, butterfly:0, mesh:1x1): no round, nothing moves;
/// the packet is delivered at step 0 and the sort takes 0 steps (the CLI
/// audit of 2026-11-30: bitonic reported 1 step; snake-sort on mesh:1x1
/// never delivered its packet and stalled).
#[test]
fn one_key_is_sorted_in_zero_steps() {
    for (topology, algorithm) in [
        ("hypercube:0", "bitonic"),
        ("butterfly:0", "bitonic"),
        ("mesh:1x1", "snake-sort"),
    ] {
        let steps = run_sort(sort_instance(topology, vec![7]), algorithm);
        assert_eq!(steps, 0, "{algorithm} on {topology}");
    }
}

#[test]
fn bitonic_steps_equal_the_documented_formula_for_d_2_to_12() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/algorithms/sorting.md")).unwrap();
    assert!(
        doc.contains("D(D + 1)/2 + 1"),
        "docs/algorithms/sorting.md states the step count"
    );
    for d in 2..=12 {
        let inst = generate(
            &topo(&format!("hypercube:{d}")),
            &WorkloadSpec::new(Workload::SortRandom, d as u64),
        )
        .unwrap();
        assert_eq!(run_sort(inst, "bitonic"), bitonic_steps(d), "hypercube:{d}");
    }
}

#[test]
fn the_sort_workloads_hold_one_key_per_node_with_rank_destinations() {
    for (t, n) in [
        ("hypercube:3", 8),
        ("mesh:3x4", 12),
        ("butterfly:3", 8),
        ("shuffle-exchange:3", 8),
    ] {
        for w in [
            Workload::SortRandom,
            Workload::SortReversed,
            Workload::SortFew,
            Workload::SortSorted,
        ] {
            let inst = generate(&topo(t), &WorkloadSpec::new(w, 5)).unwrap();
            let keys = inst.keys.clone().unwrap();
            assert_eq!(keys.len(), n, "{w} on {t}");
            let sources: Vec<u32> = inst.packets.iter().map(|p| p.0).collect();
            assert_eq!(sources, (0..n as u32).collect::<Vec<_>>(), "{w} on {t}");
            let dest: Vec<u32> = inst.packets.iter().map(|p| p.1).collect();
            assert_eq!(dest, rank_destinations(&keys), "{w} on {t}");
            let mut sorted = keys.clone();
            sorted.sort_unstable();
            sorted.dedup();
            match w {
                Workload::SortRandom => assert_eq!(sorted.len(), n, "distinct keys"),
                Workload::SortFew => assert!(sorted.len() <= 4, "{sorted:?}"),
                Workload::SortReversed => assert!(keys.windows(2).all(|k| k[0] > k[1])),
                _ => assert!(keys.windows(2).all(|k| k[0] < k[1])),
            }
            // The instance file round-trips with its keys.
            assert_eq!(Instance::from_json(&inst.to_json()).unwrap(), inst);
        }
    }
}

#[test]
fn routing_algorithms_refuse_sorts_and_sorters_refuse_routing() {
    for (algorithm, topology, workload) in [
        ("greedy", "mesh:4x4", "sort-random"),
        ("bit-fixing", "hypercube:4", "sort-few"),
        ("lmrr", "butterfly:3", "sort-sorted"),
        ("bitonic", "hypercube:4", "random-permutation"),
        ("bitonic", "hypercube:4", "transpose"),
    ] {
        let out = routesim(&[
            "run",
            "--topology",
            topology,
            "--algorithm",
            algorithm,
            "--workload",
            workload,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{algorithm} {workload}: {err}");
        assert!(err.contains(algorithm) && err.contains(workload), "{err}");
    }
    // Networks it does not run on: refused by name.
    for topology in ["mesh:4x4", "torus:4x4", "linear:8", "ring:8"] {
        let out = routesim(&[
            "run",
            "--topology",
            topology,
            "--algorithm",
            "bitonic",
            "--workload",
            "sort-random",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{topology}: {err}");
        assert!(err.contains("bitonic") && err.contains(topology), "{err}");
    }
    // The paper's section that is not built says so where it is asked
    // for, and names what sorts there instead.
    let out = routesim(&[
        "run",
        "--topology",
        "shuffle-exchange:6",
        "--algorithm",
        "flashsort",
        "--workload",
        "sort-random",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("got shuffle-exchange:6: the paper's §9") && err.trim_end().ends_with("bitonic sorts there"),
        "{err}"
    );
}

#[test]
fn a_routing_report_has_no_sort_fields_and_a_sort_report_has_both() {
    let out = routesim(&[
        "run",
        "--json",
        "--topology",
        "hypercube:3",
        "--algorithm",
        "bit-fixing",
        "--workload",
        "transpose",
    ]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report.get("sorted").is_none() && report.get("order").is_none(),
        "{report}"
    );
    let out = routesim(&[
        "run",
        "--json",
        "--topology",
        "hypercube:3",
        "--algorithm",
        "bitonic",
        "--workload",
        "sort-reversed",
    ]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["sorted"], true, "{report}");
    assert_eq!(report["order"], "label", "{report}");
    assert_eq!(report["steps"], bitonic_steps(3), "{report}");
    // The human summary says it too; a routing run's does not.
    let out = routesim(&[
        "run",
        "--topology",
        "hypercube:3",
        "--algorithm",
        "bitonic",
        "--workload",
        "sort-few",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("sorted: yes (order label"), "{text}");
    let out = routesim(&[
        "run",
        "--topology",
        "hypercube:3",
        "--algorithm",
        "bit-fixing",
        "--workload",
        "transpose",
    ]);
    assert!(!String::from_utf8_lossy(&out.stdout).contains("sorted:"));
}

#[test]
fn an_instance_with_keys_is_read_and_bad_keys_are_refused_by_name() {
    let good = r#"{"topology":"hypercube:2","packets":[[0,3],[1,0],[2,1],[3,2]],"keys":[9,1,5,5]}"#;
    let inst = Instance::from_json(good).unwrap();
    assert_eq!(inst.keys.as_deref(), Some(&[9, 1, 5, 5][..]));
    assert_eq!(run_sort(inst, "bitonic"), bitonic_steps(2));
    let cases = [
        (
            r#"{"topology":"hypercube:2","packets":[[0,3],[1,0],[2,1],[3,2]],"keys":[9,1,5]}"#,
            "keys",
        ),
        (
            r#"{"topology":"hypercube:2","packets":[[0,3],[1,0],[2,1],[3,2]],"keys":[9,"1",5,5]}"#,
            "keys[1] '\"1\"'",
        ),
        (
            r#"{"topology":"hypercube:2","packets":[[0,3],[1,0],[2,1],[3,2]],"keys":[9,1,null,5]}"#,
            "keys[2] 'null'",
        ),
        (
            // -1 ranks first: packet 1's destination is node 0, not 1.
            r#"{"topology":"hypercube:2","packets":[[0,3],[1,1],[2,0],[3,2]],"keys":[9,-1,5,5]}"#,
            "packets[1][1] '1'",
        ),
        (
            r#"{"topology":"hypercube:2","packets":[[0,3],[1,0],[2,1],[3,2]],"keys":"x"}"#,
            "keys '\"x\"'",
        ),
        (
            r#"{"topology":"hypercube:2","packets":[[0,0],[1,1],[2,2],[3,3]],"keys":[9,1,5,5]}"#,
            "packets[0][1] '0'",
        ),
        (
            r#"{"topology":"hypercube:2","packets":[[0,3],[0,0],[2,1],[3,2]],"keys":[9,1,5,5]}"#,
            "packets[1][0] '0'",
        ),
        (
            r#"{"topology":"hypercube:2","packets":[[0,1],[1,0]],"keys":[9,1]}"#,
            "packets",
        ),
    ];
    for (text, want) in cases {
        let e = Instance::from_json(text).unwrap_err().to_string();
        assert!(e.contains(want), "{text}: {e}");
    }
    // The CLI reads it too, and a routing algorithm refuses it.
    let path = std::env::temp_dir().join(format!("sorting-keys-{}.json", std::process::id()));
    std::fs::write(&path, good).unwrap();
    let file = path.to_str().unwrap();
    let out = routesim(&["run", "--json", "--algorithm", "bitonic", "--instance", file]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["sorted"], true, "{report}");
    let out = routesim(&["run", "--algorithm", "bit-fixing", "--instance", file]);
    assert_eq!(out.status.code(), Some(2));
    std::fs::remove_file(&path).unwrap();
}

/// A sort's file may give the destinations in the order an algorithm ends
/// in there — a butterfly's level D (`bitonic`), a 2-D mesh's snake
/// (`snake-sort`) — all of them, or in the topology's own; a mixture, or
/// any other node, is refused by name. Every form runs the same sort.
#[test]
fn a_sort_file_in_an_algorithms_order_is_read() {
    let file = |topology: &str, keys: &[u64], dest: &dyn Fn(u32) -> u32| {
        let ranks = rank_destinations(keys);
        let packets: Vec<String> = ranks
            .iter()
            .enumerate()
            .map(|(i, &r)| format!("[{i},{}]", dest(r)))
            .collect();
        format!(
            r#"{{"topology":"{topology}","packets":[{}],"keys":{keys:?}}}"#,
            packets.join(",")
        )
    };
    // butterfly:3: level 0 (node r) or level 3 (node 3·8 + r).
    let keys = [5u64, 0, 7, 2, 2, 6, 1, 3];
    let own = Instance::from_json(&file("butterfly:3", &keys, &|r| r)).unwrap();
    let level = Instance::from_json(&file("butterfly:3", &keys, &|r| 24 + r)).unwrap();
    assert_eq!(
        run_sort_in(own, "bitonic", level_d(3)),
        run_sort_in(level, "bitonic", level_d(3))
    );
    let mixed = file("butterfly:3", &keys, &|r| if r == 0 { 24 } else { r });
    let e = Instance::from_json(&mixed).unwrap_err().to_string();
    assert!(e.contains("'24'") && e.contains("levelD-row"), "{e}");
    // mesh:4x4: row-major or the snake (odd rows right to left).
    let keys: Vec<u64> = (0..16).map(|i| (i * 7 % 16) / 2).collect();
    let own = Instance::from_json(&file("mesh:4x4", &keys, &|r| r)).unwrap();
    let by_snake = Instance::from_json(&file("mesh:4x4", &keys, &|r| snake(4, r))).unwrap();
    assert_eq!(
        run_sort_in(own, "snake-sort", |_, r| snake(4, r)),
        run_sort_in(by_snake, "snake-sort", |_, r| snake(4, r))
    );
    let e = Instance::from_json(&file("mesh:4x4", &keys, &|r| (r + 1) % 16))
        .unwrap_err()
        .to_string();
    assert!(e.contains("packets[") && e.contains("snake"), "{e}");
}

/// SPEC §3: a key is "one number": negative and fractional keys sort as
/// the numbers do, with every sorting algorithm on every network it runs
/// on, and an instance file with them is written back with the same
/// numbers.
#[test]
fn keys_may_be_any_numbers() {
    let halves: [[f64; 8]; 3] = [
        [0.5, -3.0, 2.25, -0.125, 1e9, -1e-9, 0.0, 7.0],
        [-2.0, -2.0, 3.5, -7.25, 3.5, 0.0, -0.0, 1e-300],
        [1.5, -1.5, 2.5, -2.5, 0.75, -0.75, 100.0, -100.0],
    ];
    // 16 keys: each list and its negation, interleaved.
    let lists: Vec<Vec<f64>> = halves
        .iter()
        .map(|h| h.iter().flat_map(|&x| [x, -x]).collect())
        .collect();
    type Order = Box<dyn Fn(u32, u32) -> u32>;
    let runs: [(&str, &str, Order); 7] = [
        ("hypercube:4", "bitonic", Box::new(|_, r| r)),
        ("shuffle-exchange:4", "bitonic", Box::new(|_, r| r)),
        ("butterfly:4", "bitonic", Box::new(level_d(4))),
        ("hypercube:4", "flashsort", Box::new(|_, r| r)),
        ("butterfly:4", "flashsort", Box::new(|_, r| r)),
        ("mesh:4x4", "flashsort", Box::new(|_, r| r)),
        ("mesh:4x4", "snake-sort", Box::new(|_, r| snake(4, r))),
    ];
    for (li, list) in lists.iter().enumerate() {
        // Ranks by the numbers themselves, ties by packet id (−0 = 0).
        let mut ids: Vec<usize> = (0..list.len()).collect();
        ids.sort_by(|&a, &b| list[a].partial_cmp(&list[b]).unwrap().then(a.cmp(&b)));
        let mut dest = vec![0; list.len()];
        for (r, &p) in ids.iter().enumerate() {
            dest[p] = r;
        }
        for (t, algorithm, node) in &runs {
            let packets: Vec<[usize; 2]> = (0..list.len()).map(|i| [i, dest[i]]).collect();
            let text = serde_json::json!({ "topology": t, "packets": packets, "keys": list }).to_string();
            let inst = Instance::from_json(&text).unwrap_or_else(|e| panic!("list {li} on {t}: {e}"));
            // The codes the algorithms compare order the packets as the numbers do.
            let codes = inst.keys.clone().unwrap();
            for a in 0..list.len() {
                for b in 0..list.len() {
                    assert_eq!(codes[a] < codes[b], list[a] < list[b], "list {li}: keys {a}, {b}");
                }
            }
            // Written back, the same numbers (−0 is 0).
            let back: Value = serde_json::from_str(&inst.to_json()).unwrap();
            let numbers: Vec<f64> = back["keys"]
                .as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_f64().unwrap())
                .collect();
            let want: Vec<f64> = list.iter().map(|&x| if x == 0.0 { 0.0 } else { x }).collect();
            assert_eq!(numbers, want, "list {li}");
            assert_eq!(Instance::from_json(&inst.to_json()).unwrap(), inst);
            run_sort_in(inst, algorithm, node);
        }
    }
    // Integers of both signs are read as integers and written back as such.
    let text = r#"{"topology":"hypercube:2","packets":[[0,3],[1,0],[2,1],[3,2]],"keys":[9,-1,-5,5]}"#;
    let text = text.replace("[[0,3],[1,0],[2,1],[3,2]]", "[[0,3],[1,1],[2,0],[3,2]]");
    let inst = Instance::from_json(&text).unwrap();
    assert!(inst.to_json().contains("\"keys\":[9,-1,-5,5]"), "{}", inst.to_json());
    // The CLI reads such a file and reports the sort.
    let path = std::env::temp_dir().join(format!("sorting-real-keys-{}.json", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let out = routesim(&[
        "run",
        "--json",
        "--algorithm",
        "bitonic",
        "--instance",
        path.to_str().unwrap(),
    ]);
    std::fs::remove_file(&path).unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["sorted"], true, "{report}");
}

#[test]
fn the_bitonic_claim_is_judged_exactly_and_met() {
    use routesim::explain::{self, Verdict};
    let claims = [
        ("hypercube", "the bitonic step count"),
        ("butterfly", "the bitonic step count on a butterfly"),
        ("shuffle-exchange", "the bitonic step count on a shuffle-exchange graph"),
    ];
    for (kind, name) in claims {
        for d in [2, 5, 7] {
            let topology = format!("{kind}:{d}");
            let mut sim = crate::common::sim_of(&topology, "bitonic", "sort-few", &[]);
            sim.run();
            let e = explain::explain_run(&sim);
            for (other, other_name) in claims {
                let c = e.claims.iter().find(|c| c.name == other_name).unwrap();
                if other != kind {
                    // Each network's count is judged on its own network only.
                    assert_eq!(c.verdict, Verdict::NotApplicable, "{topology}: {other_name}");
                    continue;
                }
                assert_eq!(c.verdict, Verdict::Met, "{topology}: {} | {}", c.line, c.check);
                assert!(
                    c.line.contains('✓') || c.check.contains('✓'),
                    "{} | {}",
                    c.line,
                    c.check
                );
            }
            // The same network everywhere: the rounds are stated alike, and
            // the bound is the run's exact count.
            let c = e.claims.iter().find(|c| c.name == name).unwrap();
            assert!(
                c.text
                    .starts_with("Batcher's network has exactly (log N)(log N + 1)/2 compare rounds"),
                "{}",
                c.text
            );
            assert_eq!(
                c.bound.as_ref().map(|b| b.value),
                Some(sim.report().steps as f64),
                "{topology}"
            );
        }
    }
}

#[test]
fn bitonic_sorts_every_0_1_input_on_butterfly_3_into_level_3() {
    for bits in 0u32..1 << 8 {
        let keys = (0..8).map(|i| ((bits >> i) & 1) as u64).collect();
        let steps = run_sort_in(sort_instance("butterfly:3", keys), "bitonic", level_d(3));
        assert_eq!(steps, bitonic_butterfly_steps(3));
    }
}

#[test]
fn bitonic_sorts_every_0_1_input_on_shuffle_exchange_4() {
    for bits in 0u32..1 << 16 {
        let keys = (0..16).map(|i| ((bits >> i) & 1) as u64).collect();
        assert_eq!(
            run_sort(sort_instance("shuffle-exchange:4", keys), "bitonic"),
            bitonic_shuffle_exchange_steps(4)
        );
    }
}

#[test]
fn bitonic_steps_equal_the_documented_formulas_on_butterflies_and_shuffle_exchanges_for_d_2_to_12() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/algorithms/sorting.md")).unwrap();
    for formula in ["(D + 1)² − 1", "⌊5D²/4⌋ + max(D − 3, 0) + 1"] {
        assert!(doc.contains(formula), "docs/algorithms/sorting.md states {formula}");
    }
    let workloads = [
        Workload::SortRandom,
        Workload::SortFew,
        Workload::SortReversed,
        Workload::SortSorted,
    ];
    for d in 2..=12 {
        // Every workload below D = 9, random keys and duplicates above.
        let ws = if d < 9 { &workloads[..] } else { &workloads[..2] };
        for &w in ws {
            let t = topo(&format!("butterfly:{d}"));
            let inst = generate(&t, &WorkloadSpec::new(w, d as u64)).unwrap();
            // The keys start at level 0, one per row.
            assert!(inst.packets.iter().all(|&(s, _)| s < 1 << d), "{w} on {t}");
            let steps = run_sort_in(inst, "bitonic", level_d(d));
            assert_eq!(steps, bitonic_butterfly_steps(d), "{w} on {t}");
            let t = topo(&format!("shuffle-exchange:{d}"));
            let inst = generate(&t, &WorkloadSpec::new(w, d as u64)).unwrap();
            assert_eq!(
                run_sort(inst, "bitonic"),
                bitonic_shuffle_exchange_steps(d),
                "{w} on {t}"
            );
        }
    }
    // The first values, by hand: the butterfly's rounds plus two (the
    // first key step and the first telling); the shuffle-exchange's
    // rounds, the first key step and one per stage 3..D − 1.
    let butterfly: Vec<u32> = (2..=5).map(bitonic_butterfly_steps).collect();
    assert_eq!(butterfly, [8, 15, 24, 35]);
    let shuffle: Vec<u32> = (2..=5).map(bitonic_shuffle_exchange_steps).collect();
    assert_eq!(shuffle, [6, 12, 22, 34]);
}

/// SPEC §1's compare-exchange: a node moves a packet by a comparison only
/// once it knows both keys. On a butterfly two rows meet through the next
/// level, so a packet that climbs across (to the other row) is sent by a
/// node that must have learnt the partner's key: followed here from the
/// run itself — what each node knows grows only by the control messages
/// and packets that reach it — for every cross climb of bitonic on
/// butterflies 2..7, three workloads and seeds. (The sources once sent
/// their packets the step after their keys climbed, before any message
/// could bring back the other key.)
#[test]
fn on_a_butterfly_a_packet_climbs_across_only_from_a_node_that_knows_its_partners_key() {
    for d in 2..=7u32 {
        for (w, seed) in [
            (Workload::SortRandom, 1),
            (Workload::SortFew, 2),
            (Workload::SortReversed, 3),
        ] {
            let t = topo(&format!("butterfly:{d}"));
            let inst = generate(&t, &WorkloadSpec::new(w, seed)).unwrap();
            let packets = inst.packets.len();
            let config = SimConfig {
                algorithm: "bitonic".into(),
                check_invariants: true,
                ..Default::default()
            };
            let mut sim = Simulation::new(inst, config).unwrap();
            let rows = 1u32 << d;
            let ports = t.ports();
            let nodes = t.nodes() as usize;
            // know[v]: the packets whose keys node v has heard of.
            let mut know: Vec<std::collections::BTreeSet<u32>> = vec![Default::default(); nodes];
            let position =
                |sim: &Simulation| -> Vec<u32> { (0..packets as u32).map(|p| sim.engine().position(p)).collect() };
            let mut before = position(&sim);
            for (p, &v) in before.iter().enumerate() {
                know[v as usize].insert(p as u32);
            }
            let (mut across, what) = (0, format!("bitonic on {t}, {w}"));
            while sim.status() == Status::Running {
                sim.step();
                let after = position(&sim);
                let holder: std::collections::HashMap<u32, u32> =
                    before.iter().enumerate().map(|(p, &v)| (v, p as u32)).collect();
                for (p, (&a, &b)) in before.iter().zip(&after).enumerate() {
                    let (la, ra, lb, rb) = (a / rows, a % rows, b / rows, b % rows);
                    if a != b && lb == la + 1 && ra != rb {
                        across += 1;
                        let partner = holder[&(la * rows + rb)];
                        assert!(
                            know[a as usize].contains(&partner),
                            "{what}: step {}: node {a} sends packet {p} across to {b} without knowing packet {partner}'s key",
                            sim.engine().step_count()
                        );
                    }
                }
                let mut next = know.clone();
                let links = sim.engine().last_links();
                for &link in &links[..sim.engine().last_control_count()] {
                    let (u, port) = (link / ports, link % ports);
                    let v = t.neighbor(u, port).expect("a link");
                    next[v as usize].extend(know[u as usize].iter().copied());
                }
                for (&a, &b) in before.iter().zip(&after) {
                    if a != b {
                        next[b as usize].extend(know[a as usize].iter().copied());
                    }
                }
                (know, before) = (next, after);
            }
            assert_eq!(sim.status(), Status::Finished, "{what}");
            assert!(across > 0, "{what}: some packets climb across");
        }
    }
}

#[test]
fn bitonic_on_a_butterfly_reports_level_d_and_sorts_an_instance_file() {
    let out = routesim(&[
        "run",
        "--json",
        "--topology",
        "butterfly:4",
        "--algorithm",
        "bitonic",
        "--workload",
        "sort-reversed",
    ]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["sorted"], true, "{report}");
    assert_eq!(report["order"], "levelD-row", "{report}");
    assert_eq!(report["steps"], bitonic_butterfly_steps(4), "{report}");
    let out = routesim(&[
        "run",
        "--json",
        "--topology",
        "shuffle-exchange:5",
        "--algorithm",
        "bitonic",
        "--workload",
        "sort-few",
    ]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["order"], "label", "{report}");
    assert_eq!(report["steps"], bitonic_shuffle_exchange_steps(5), "{report}");
    // An instance file of a butterfly sort names level-0 rows as its
    // destinations (SPEC §5); bitonic ends the keys at level D.
    let inst = sort_instance("butterfly:2", vec![9, 1, 5, 5]);
    assert_eq!(run_sort_in(inst, "bitonic", level_d(2)), bitonic_butterfly_steps(2));
}

/// The snake sort's steps: the network's rounds plus one (the primitive's
/// own count, `SortTask::duration`), 7n − 9 − log₂ n from n = 8 on.
fn snake_steps(side: u32) -> u32 {
    routesim::primitives::sort::SortTask::duration(side, 1)
}

#[test]
fn snake_sort_sorts_every_0_1_input_on_mesh_4x4_into_snake_order() {
    for bits in 0u32..1 << 16 {
        let keys = (0..16).map(|i| ((bits >> i) & 1) as u64).collect();
        let steps = run_sort_in(sort_instance("mesh:4x4", keys), "snake-sort", |_, r| snake(4, r));
        assert_eq!(steps, snake_steps(4));
    }
}

#[test]
fn snake_sort_sorts_random_keys_and_duplicates_in_7n_steps() {
    for side in [2, 8, 16, 32] {
        let t = topo(&format!("mesh:{side}x{side}"));
        for w in [
            Workload::SortRandom,
            Workload::SortFew,
            Workload::SortReversed,
            Workload::SortSorted,
        ] {
            let inst = generate(&t, &WorkloadSpec::new(w, side as u64)).unwrap();
            let steps = run_sort_in(inst, "snake-sort", |_, r| snake(side, r));
            assert_eq!(steps, snake_steps(side), "{w} on {t}");
            assert!(steps <= 7 * side, "{w} on {t}");
            if side >= 8 {
                assert_eq!(steps, 7 * side - 9 - side.ilog2(), "{w} on {t}");
            }
        }
    }
    let out = routesim(&[
        "run",
        "--json",
        "--topology",
        "mesh:8x8",
        "--algorithm",
        "snake-sort",
        "--workload",
        "sort-few",
    ]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["order"], "snake", "{report}");
    assert_eq!(report["sorted"], true, "{report}");
    for topology in ["mesh:6x6", "mesh:4x8", "hypercube:4", "torus:4x4"] {
        let out = routesim(&[
            "run",
            "--topology",
            topology,
            "--algorithm",
            "snake-sort",
            "--workload",
            "sort-random",
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{topology}: {err}");
        assert!(err.contains("snake-sort") && err.contains(topology), "{err}");
    }
}

/// Two sorts side by side on one instance (the page's compare view), in
/// every pairing and either order: each run sorts into its own order and
/// finishes sorted. A second run took the first's destinations — a snake
/// sort's beside flashsort aborted ("deliver: packet 0 is not at its
/// destination"), bitonic's level-D rows beside flashsort stalled.
#[test]
fn two_sorts_side_by_side_each_sort_into_their_own_order() {
    use crate::common::spec_of;
    for (topology, algorithms) in [
        ("mesh:4x4", &["snake-sort", "flashsort"][..]),
        ("mesh:8x8", &["snake-sort", "flashsort"][..]),
        ("butterfly:3", &["bitonic", "flashsort"][..]),
        ("butterfly:2", &["bitonic", "flashsort"][..]),
        ("hypercube:4", &["bitonic", "flashsort"][..]),
    ] {
        for (first, second) in [(algorithms[0], algorithms[1]), (algorithms[1], algorithms[0])] {
            let spec = spec_of(topology, first, "sort-random", &[]);
            let mut a = spec.build().unwrap();
            let mut b = spec.beside(a.instance(), second).unwrap().build().unwrap();
            for (name, sim) in [(first, &mut a), (second, &mut b)] {
                assert_eq!(sim.run(), Status::Finished, "{topology}: {name} beside the other");
                let report = sim.report();
                assert_eq!(report.extra.sorted, Some(true), "{topology}: {name}");
                assert_eq!(report.delivered, report.packets, "{topology}: {name}");
            }
        }
    }
}

/// A sort cut off by its step limit one step before its last delivers
/// nothing in the step it never took: its schedule's last step delivers
/// the keys already home as it opens (it reported them delivered, at a step
/// past the limit, and counted them in `delivered`).
#[test]
fn a_sort_cut_one_step_short_delivers_nothing_past_its_limit() {
    use crate::common::spec_of;
    use routesim::request::Field;
    for (topology, algorithm, workload) in [
        ("hypercube:1", "bitonic", "sort-sorted"),
        ("hypercube:2", "bitonic", "sort-reversed"),
        ("hypercube:4", "bitonic", "sort-random"),
        ("shuffle-exchange:3", "bitonic", "sort-random"),
        ("mesh:4x4", "snake-sort", "sort-sorted"),
        ("hypercube:3", "flashsort", "sort-random"),
    ] {
        let mut whole = spec_of(topology, algorithm, workload, &[]).build().unwrap();
        assert_eq!(whole.run(), Status::Finished, "{topology} {algorithm}");
        let steps = whole.report().steps;
        let limit = (steps - 1).to_string();
        let mut cut = spec_of(topology, algorithm, workload, &[(Field::MaxSteps, &limit)])
            .build()
            .unwrap();
        assert_eq!(cut.run(), Status::StepLimit, "{topology} {algorithm}");
        let engine = cut.engine();
        let late: Vec<u32> = engine
            .delivery_steps()
            .iter()
            .copied()
            .filter(|&s| s != u32::MAX && s >= steps)
            .collect();
        assert!(
            late.is_empty(),
            "{topology} {algorithm}: delivered at {late:?}, past the limit {limit}"
        );
        let report = cut.report();
        let counted = engine.delivery_steps().iter().filter(|&&s| s != u32::MAX).count() as u32;
        assert_eq!(report.delivered, counted, "{topology} {algorithm}");
        assert!(
            report.delivered < report.packets,
            "{topology} {algorithm}: all delivered, yet cut"
        );
    }
}

/// A run's instance, written out (the page's download and shared link,
/// wasm `instance_json`), is the file `generate` writes and loads again:
/// a sort's destinations are its ranks' nodes in the topology's order
/// (SPEC §5), not the order the run sorts into (a snake sort's, a
/// butterfly sort's level D) — an audit found those exports refused.
#[test]
fn a_sort_run_writes_the_instance_generate_writes() {
    use crate::common::sim_of;
    for (topology, algorithm) in [
        ("mesh:4x4", "snake-sort"),
        ("mesh:8x8", "snake-sort"),
        ("butterfly:3", "bitonic"),
        ("butterfly:4", "flashsort"),
        ("hypercube:4", "bitonic"),
        ("shuffle-exchange:4", "bitonic"),
        ("mesh:4x4", "flashsort"),
    ] {
        for workload in ["sort-random", "sort-few", "sort-reversed"] {
            let s = sim_of(topology, algorithm, workload, &[(routesim::Field::Seed, "3")]);
            let written = s.instance().to_json();
            let generated = crate::common::spec_of(topology, algorithm, workload, &[(routesim::Field::Seed, "3")])
                .instance()
                .unwrap();
            assert_eq!(written, generated.to_json(), "{algorithm} on {topology}, {workload}");
            let again = Instance::from_json(&written).unwrap_or_else(|e| panic!("{algorithm} on {topology}: {e}"));
            let mut rerun = Simulation::new(
                again,
                SimConfig {
                    algorithm: algorithm.into(),
                    seed: 3,
                    ..Default::default()
                },
            )
            .unwrap();
            assert_eq!(rerun.run(), Status::Finished);
            let mut first = sim_of(topology, algorithm, workload, &[(routesim::Field::Seed, "3")]);
            first.run();
            assert_eq!(rerun.report().steps, first.report().steps, "{algorithm} on {topology}");
        }
    }
}
