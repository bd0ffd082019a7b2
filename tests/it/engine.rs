//! Engine semantics (SPEC §1) on small hand-checked cases.

use routesim::engine::Policy;
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::AlgorithmOptions;
use routesim::{SimConfig, Simulation, Status};

fn run(inst: Instance, algorithm: &str, policy: Policy) -> routesim::report::Report {
    let config = SimConfig {
        algorithm: algorithm.into(),
        policy,
        check_invariants: true,
        ..Default::default()
    };
    let mut sim = Simulation::new(inst, config).unwrap();
    assert_eq!(sim.run(), Status::Finished);
    sim.report()
}

fn inst(topo: &str, packets: &[(u32, u32)]) -> Instance {
    Instance::new(topo.parse::<Topology>().unwrap(), packets.to_vec()).unwrap()
}

#[test]
fn one_packet_arrives_in_exactly_its_distance() {
    for (topo, s, d, dist) in [
        ("mesh:8x8", 0, 63, 14),
        ("torus:8x8", 0, 63, 2),
        ("hypercube:6", 0, 63, 6),
        ("ring:9", 1, 6, 4),
    ] {
        let alg = if topo.starts_with("hyper") {
            "bit-fixing"
        } else {
            "greedy"
        };
        let r = run(inst(topo, &[(s, d)]), alg, Policy::FarthestFirst);
        assert_eq!((r.steps, r.delivered, r.max_queue), (dist, 1, 1), "{topo}");
        assert_eq!(r.max_load, 1);
    }
}

#[test]
fn empty_instance_takes_zero_steps_and_self_packets_arrive_at_step_zero() {
    let r = run(inst("mesh:4x4", &[]), "greedy", Policy::FarthestFirst);
    assert_eq!((r.steps, r.packets, r.delivered), (0, 0, 0));
    let r = run(inst("mesh:4x4", &[(3, 3), (5, 5)]), "greedy", Policy::FarthestFirst);
    assert_eq!((r.steps, r.delivered), (0, 2));
}

#[test]
fn transpose_16x16_matches_the_spec_example() {
    let topo: Topology = "mesh:16x16".parse().unwrap();
    let inst = generate(&topo, &WorkloadSpec::new(Workload::Transpose, 1)).unwrap();
    let r = run(inst, "greedy", Policy::FarthestFirst);
    assert_eq!(r.steps, 30);
    assert_eq!(r.delivered, 256);
    assert!(r.steps >= r.bounds.best);
}

#[test]
fn contention_one_link_one_packet_per_step() {
    // Three packets on node 0 of a line all heading right: they leave one per step.
    let r = run(
        inst("linear:5", &[(0, 4), (0, 3), (0, 2)]),
        "greedy",
        Policy::FarthestFirst,
    );
    // farthest-first: 0->4 leaves at step 1 (arrives 4), 0->3 at 2 (arrives 4), 0->2 at 3 (arrives 4).
    assert_eq!(r.steps, 4);
    let r = run(
        inst("linear:5", &[(0, 4), (0, 3), (0, 2)]),
        "greedy",
        Policy::NearestFirst,
    );
    // nearest-first: 0->2 first (arrives 2), 0->3 (arrives 4), 0->4 (arrives 6).
    assert_eq!(r.steps, 6);
}

#[test]
fn bounded_queue_refuses_and_packets_wait() {
    let topo: Topology = "mesh:8x8".parse().unwrap();
    let inst = generate(&topo, &WorkloadSpec::new(Workload::RandomPermutation, 3)).unwrap();
    let config = SimConfig {
        queue_cap: Some(1),
        check_invariants: true,
        ..Default::default()
    };
    let mut sim = Simulation::new(inst, config).unwrap();
    let status = sim.run();
    let r = sim.report();
    assert!(r.max_queue <= 1);
    assert!(status == Status::Finished || status == Status::Stalled);
}

fn run_capped(inst: Instance, cap: u32, edge_queues: bool) -> (Status, routesim::report::Report) {
    let config = SimConfig {
        queue_cap: Some(cap),
        edge_queues,
        check_invariants: true,
        ..Default::default()
    };
    let mut sim = Simulation::new(inst, config).unwrap();
    let status = sim.run();
    (status, sim.report())
}

#[test]
fn node_capacity_is_checked_on_start_of_step_occupancy() {
    // q = 1: in step 2 packet 0 leaves node 1 while packet 1 wants in; node 1
    // started the step full, so packet 1 is refused and waits a step.
    let (status, r) = run_capped(inst("linear:3", &[(0, 2), (0, 2)]), 1, false);
    assert_eq!((status, r.steps, r.max_queue), (Status::Finished, 4, 1));
    let r = run(inst("linear:3", &[(0, 2), (0, 2)]), "greedy", Policy::FarthestFirst);
    assert_eq!(r.steps, 3);
}

#[test]
fn edge_queues_accept_one_packet_per_incoming_link() {
    // Two packets cross node 1 in opposite directions at once.
    let two_way = inst("linear:3", &[(0, 2), (2, 0)]);
    let (_, node) = run_capped(two_way.clone(), 1, false);
    assert_eq!(node.steps, 4, "a node queue of 1 takes one of the two");
    let (_, edge) = run_capped(two_way.clone(), 1, true);
    assert_eq!(edge.steps, 2, "one queue per incoming link takes both");
    assert_eq!(edge.max_queue, 2);
    // A node queue with room for two takes both in the same step: a node
    // accepts up to q − occupancy arrivals, not one.
    let (_, roomy) = run_capped(two_way, 2, false);
    assert_eq!((roomy.steps, roomy.max_queue), (2, 2));
}

#[test]
fn full_cycle_of_bounded_queues_stalls() {
    // ring:7, every packet three hops clockwise, q = 1: after one step every
    // node is full and every packet wants the next full node, which is not
    // its destination.
    let packets: Vec<(u32, u32)> = (0..7).map(|i| (i, (i + 3) % 7)).collect();
    let (status, r) = run_capped(inst("ring:7", &packets), 1, false);
    assert_eq!(status, Status::Stalled);
    assert!(r.stalled);
    assert_eq!((r.delivered, r.steps), (0, 1));
    // The phases cover the steps counted: the step that moved nothing is not one.
    assert_eq!(r.phases.iter().map(|p| p.steps).sum::<u32>(), r.steps, "{:?}", r.phases);
    let r = run(inst("ring:7", &packets), "greedy", Policy::FarthestFirst);
    assert_eq!(r.steps, 3);
}

#[test]
fn max_load_counts_packets_waiting_at_their_source_at_step_zero() {
    let r = run(
        inst("linear:4", &[(0, 3), (0, 2), (0, 1)]),
        "greedy",
        Policy::FarthestFirst,
    );
    assert_eq!(r.max_load, 3);
    assert_eq!(r.max_queue, 1);
    // farthest-first sends them in the order 0→3, 0→2, 0→1: all arrive in step 3.
    assert_eq!(r.latency.histogram, vec![[3, 3]]);
}

#[test]
fn torus_ties_go_positive_for_even_ids_and_negative_for_odd() {
    // ring:6, 0 -> 3 is exactly half way: packet 0 goes 0,1,2,3 and packet 1 goes 0,5,4,3.
    let r = run(inst("ring:6", &[(0, 3), (0, 3)]), "greedy", Policy::FarthestFirst);
    assert_eq!(r.steps, 3, "the two packets take opposite ways and do not contend");
}

#[test]
fn step_limit_stops_the_run() {
    let topo: Topology = "mesh:8x8".parse().unwrap();
    let inst = generate(&topo, &WorkloadSpec::new(Workload::Transpose, 1)).unwrap();
    let config = SimConfig {
        max_steps: 3,
        ..Default::default()
    };
    let mut sim = Simulation::new(inst, config).unwrap();
    assert_eq!(sim.run(), Status::StepLimit);
    let r = sim.report();
    assert!(r.hit_max_steps && !r.stalled && r.delivered < r.packets);
    assert_eq!(r.steps, 3);
}

#[test]
fn series_have_one_entry_per_step() {
    let topo: Topology = "mesh:8x8".parse().unwrap();
    let inst = generate(&topo, &WorkloadSpec::new(Workload::RandomPermutation, 2)).unwrap();
    let mut sim = Simulation::new(inst, SimConfig::default()).unwrap();
    sim.run();
    let stats = sim.engine().stats();
    let steps = sim.report().steps as usize;
    assert_eq!(stats.in_flight.len(), steps);
    assert_eq!(stats.queue_series.len(), steps);
    assert_eq!(*stats.in_flight.last().unwrap(), 0);
    let hops: u64 = stats.links_used.iter().map(|&l| l as u64).sum();
    assert_eq!(hops, sim.report().packet_hops);
    assert_eq!(
        stats.queue_series.iter().max().copied().unwrap(),
        sim.report().max_queue
    );
}

/// The engine keeps packets in slots re-sorted by position every few hops
/// and visits them in slot order (for speed); without the per-step series it
/// keeps only a running maximum of the queues. No reported number may depend
/// on either: every algorithm, policy and queue mode gives the same report
/// with re-sorting off, every step, or every few steps, series on or off,
/// invariant checks on or off, in either route order.
#[test]
fn results_do_not_depend_on_memory_order_or_series() {
    let gen = |t: &str, w: Workload, l: Option<u32>, k: Option<u32>| {
        let spec = WorkloadSpec {
            l,
            k,
            ..WorkloadSpec::new(w, 5)
        };
        generate(&t.parse::<Topology>().unwrap(), &spec).unwrap()
    };
    // (instance, algorithm, policy, queue cap, edge queues, pipeline)
    type Case = (Instance, &'static str, Policy, Option<u32>, bool, bool);
    let mut cases: Vec<Case> = Vec::new();
    for policy in Policy::ALL {
        cases.push((
            gen("mesh:12x12", Workload::RandomKk, None, Some(3)),
            "greedy",
            policy,
            None,
            false,
            false,
        ));
        cases.push((
            gen("torus:8x8", Workload::RandomKk, None, Some(4)),
            "greedy",
            policy,
            Some(2),
            false,
            false,
        ));
        cases.push((
            gen("mesh:8x8", Workload::RandomKk, None, Some(4)),
            "greedy",
            policy,
            Some(1),
            true,
            false,
        ));
        cases.push((
            gen("mesh:3x4x5", Workload::RandomPermutation, None, None),
            "greedy",
            policy,
            None,
            false,
            true,
        ));
    }
    for (t, alg, w, l, k, pipeline) in [
        ("hypercube:7", "valiant", Workload::Transpose, None, None, true),
        (
            "butterfly:5",
            "bit-fixing",
            Workload::RandomPermutation,
            None,
            None,
            false,
        ),
        ("mesh:16x16", "valiant", Workload::BitReversal, None, None, false),
        (
            "mesh:16x16",
            "rand-interval",
            Workload::RandomPermutation,
            None,
            None,
            true,
        ),
        ("mesh:16x16", "sort-route", Workload::Transpose, None, None, false),
        ("mesh:8x8", "offline", Workload::RandomPermutation, None, None, false),
        ("mesh:16x16", "pp-rand", Workload::WorstLk, Some(2), Some(8), false),
        ("mesh:16x16", "pp-det", Workload::RandomLk, Some(8), Some(2), false),
        // Ring ties chosen per packet (the tie flag moves with the slots).
        ("torus:12x12", "ks-wrap", Workload::LargeShift, None, Some(3), false),
        ("torus:10x10", "ks-wrap", Workload::RandomKk, None, Some(4), true),
        ("mesh:4x5x6", "ks-nowrap", Workload::RandomKk, None, Some(2), true),
    ] {
        cases.push((gen(t, w, l, k), alg, Policy::FarthestFirst, None, false, pipeline));
    }
    for (instance, algorithm, policy, queue_cap, edge_queues, pipeline) in cases {
        // Without series, checks or edge queues the engine runs a separately
        // compiled commit (one per route order): it must agree too.
        let report = |resort_interval: u32, record_series: bool, checks: bool, reverse_order: bool| {
            let config = SimConfig {
                algorithm: algorithm.into(),
                policy,
                queue_cap,
                edge_queues,
                check_invariants: checks,
                record_series,
                resort_interval,
                options: AlgorithmOptions {
                    pipeline,
                    reverse_order,
                    ..Default::default()
                },
                ..Default::default()
            };
            let mut sim = Simulation::new(instance.clone(), config).unwrap();
            sim.run();
            sim.report()
        };
        for reverse in [false, true] {
            let reference = report(0, true, true, reverse);
            for (interval, series, checks) in [(1, false, true), (3, true, true), (16, false, false), (0, false, false)]
            {
                assert_eq!(
                    report(interval, series, checks, reverse),
                    reference,
                    "{algorithm} {policy} on {}: re-sort every {interval}, series {series}, checks {checks}, \
                     reversed order {reverse}",
                    instance.topology
                );
            }
        }
    }
}

/// Issue #2's memory aim: at most 64 bytes of engine state per packet (the
/// packet columns as allocated), with and without LMRR's edge queues.
#[test]
fn engine_state_is_at_most_64_bytes_per_packet() {
    let topo: Topology = "mesh:32x32".parse().unwrap();
    let instance = generate(&topo, &WorkloadSpec::new(Workload::RandomPermutation, 1)).unwrap();
    for edge_queues in [false, true] {
        let config = SimConfig {
            queue_cap: edge_queues.then_some(4),
            edge_queues,
            ..SimConfig::default()
        };
        let mut sim = Simulation::new(instance.clone(), config).unwrap();
        let before = sim.engine().bytes_per_packet();
        // After a run too: the contest list is allocated by the first step.
        sim.run();
        let after = sim.engine().bytes_per_packet();
        for bytes in [before, after] {
            assert!(bytes <= 64, "{bytes} bytes per packet (edge queues {edge_queues})");
            assert!(bytes >= 40, "{bytes} bytes per packet cannot hold the columns");
        }
        assert!(after > before, "the contest list is counted once a step has run");
    }
}

/// SPEC §1's bounded queues hold for scripted moves too (compare-exchange
/// swaps, deals, tours): in every step a node accepts at most q − (its
/// working queue at the step's start) arriving packets that are not
/// delivered there. An audit found the sorts of snake-sort, sort-route and
/// pp-* moving keys into full nodes (749 violations at q = 1 on mesh:8x8).
/// A schedule that needs more room than q leaves is not taken: that step
/// moves nothing and the run stalls, saying where.
#[test]
fn scripted_moves_keep_to_the_queue_capacity() {
    use crate::common::sim_of;
    use routesim::Field;
    type Case<'a> = (&'a str, &'a str, &'a str, &'a [(Field, &'a str)], &'a [u32]);
    let cases: &[Case] = &[
        ("mesh:8x8", "snake-sort", "sort-random", &[], &[1, 2, 3]),
        ("mesh:16x16", "sort-route", "random-permutation", &[], &[1, 2, 5]),
        ("mesh:16x16", "pp-rand", "random-kk", &[(Field::K, "2")], &[2, 4, 6, 9]),
        (
            "mesh:16x16",
            "pp-det",
            "random-lk",
            &[(Field::L, "2"), (Field::K, "4")],
            &[3, 8, 12],
        ),
        ("hypercube:5", "bitonic", "sort-random", &[], &[1, 2]),
        ("mesh:8x8", "greedy", "random-permutation", &[], &[1, 2]),
    ];
    let (mut stalled_by_script, mut finished) = (0, 0);
    for &(topology, algorithm, workload, extra, caps) in cases {
        for &q in caps {
            let q_text = q.to_string();
            let mut fields = extra.to_vec();
            fields.push((Field::QueueCap, &q_text));
            let mut s = sim_of(topology, algorithm, workload, &fields);
            let what = format!("{algorithm} on {topology} q = {q}");
            while s.status() == Status::Running {
                let before = s.engine().positions();
                let held = s.engine().working_queues().to_vec();
                s.step();
                let e = s.engine();
                let mut arrivals = vec![0u32; held.len()];
                for (p, &from) in before.iter().enumerate() {
                    let p = p as u32;
                    let to = e.position(p);
                    if to != from && !e.is_delivered(p) {
                        arrivals[to as usize] += 1;
                    }
                }
                for (v, &a) in arrivals.iter().enumerate() {
                    assert!(
                        a <= q.saturating_sub(held[v]),
                        "{what}: step {} node {v} held {} and accepted {a}",
                        e.step_count(),
                        held[v]
                    );
                }
            }
            match (s.status(), s.engine().script_refused()) {
                (Status::Finished, None) => finished += 1,
                (Status::Stalled, Some(r)) => {
                    stalled_by_script += 1;
                    assert!(
                        r.arrivals > r.room && r.room == q.saturating_sub(r.held),
                        "{what}: {r:?}"
                    );
                    let stall = routesim::explain::explain_run(&s).stall.expect("a stall is explained");
                    assert!(
                        stall.text.contains("a script cannot wait") && stall.text.contains(&format!("node {}", r.node)),
                        "{what}: {}",
                        stall.text
                    );
                }
                (Status::Stalled, None) => {}
                (status, refused) => panic!("{what}: {status:?} {refused:?}"),
            }
        }
    }
    assert!(
        stalled_by_script >= 3 && finished >= 6,
        "{stalled_by_script} {finished}"
    );
    // Queues of two are room enough for a sort of one key per node.
    let mut s = sim_of("mesh:8x8", "snake-sort", "sort-random", &[(Field::QueueCap, "2")]);
    assert_eq!(s.run(), Status::Finished);
    assert_eq!(s.sorted(), Some(true));
}

/// A run with edge queues says so (`"edge_queues": true`, "q=1 per link"
/// in the summary): its `max_queue` counts nodes and may pass q, and it read
/// as a node-queue run that broke its cap (the queues audit of 2026-12-01).
#[test]
fn a_run_with_edge_queues_says_so() {
    use crate::common::routesim;
    let args = [
        "run",
        "--topology",
        "mesh:4x4",
        "--algorithm",
        "valiant",
        "--workload",
        "random-kk",
        "--k",
        "3",
        "--queue-cap",
        "1",
    ];
    let json = |extra: &[&str]| -> serde_json::Value {
        let out = routesim(&[&args[..], extra, &["--json"]].concat());
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let edge = json(&["--edge-queues"]);
    assert_eq!(edge["edge_queues"], true);
    assert!(
        edge["max_queue"].as_u64().unwrap() > 1,
        "the case the audit found: {edge}"
    );
    assert!(json(&[]).get("edge_queues").is_none());
    let summary = String::from_utf8(routesim(&[&args[..], &["--edge-queues"]].concat()).stdout).unwrap();
    assert!(summary.contains(" q=1 per link seed 1:"), "{summary}");
}

/// The sorts' compare-exchanges keep node queues, not link queues: with
/// `--edge-queues` snake-sort, bitonic and sort-route are refused by name,
/// as pp-* are (a review found their swaps entering full link queues: 149
/// times in a snake sort of mesh:8x8 at q = 1). The CLI's summary of a
/// stall of a script names the node and its room.
#[test]
fn sorts_refuse_edge_queues_and_a_refused_script_is_named_by_the_cli() {
    use crate::common::routesim;
    for (topology, algorithm, workload) in [
        ("mesh:8x8", "snake-sort", "sort-random"),
        ("hypercube:4", "bitonic", "sort-random"),
        ("shuffle-exchange:4", "bitonic", "sort-random"),
        ("mesh:8x8", "sort-route", "random-permutation"),
    ] {
        let out = routesim(&[
            "run",
            "--topology",
            topology,
            "--algorithm",
            algorithm,
            "--workload",
            workload,
            "--queue-cap",
            "1",
            "--edge-queues",
        ]);
        assert_eq!(out.status.code(), Some(2), "{algorithm} on {topology}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(algorithm) && err.contains("without --edge-queues"),
            "{err}"
        );
    }
    let out = routesim(&[
        "run",
        "--topology",
        "hypercube:4",
        "--algorithm",
        "bitonic",
        "--workload",
        "sort-random",
        "--queue-cap",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("STALLED") && text.contains("the schedule cannot wait: step 3"),
        "{text}"
    );
}
