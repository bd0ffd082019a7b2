//! Stalls explained (SPEC §4 `deadlock`): the wait-for cycle of a stalled
//! run — hand-built q = 1 deadlocks with their exact cycle, the canonical
//! choice among several, a stall without a cycle, a property test over
//! random stalls, the report and the CLI.

use crate::common::routesim;
use proptest::prelude::*;
use routesim::engine::{canonical_cycle, Policy};
use routesim::topology::Topology;
use routesim::workload::Instance;
use routesim::{SimConfig, Simulation, Status};
use serde_json::Value;

/// Greedy with queues of `q` on `instance`, invariant checks on, run to its end.
fn greedy(instance: Instance, q: u32, policy: Policy) -> Simulation {
    let mut sim = Simulation::new(
        instance,
        SimConfig {
            algorithm: "greedy".into(),
            policy,
            queue_cap: Some(q),
            check_invariants: true,
            ..Default::default()
        },
    )
    .expect("a valid run");
    sim.run();
    sim
}

fn mesh(n: u32, packets: Vec<(u32, u32)>) -> Instance {
    let topo: Topology = format!("mesh:{n}x{n}").parse().unwrap();
    Instance::new(topo, packets).unwrap()
}

/// Four packets that, in step 1, each enter one corner of the 2 × 2 square
/// whose top-left node is (r, c) on the n × n mesh, each one hop from its
/// source and heading past the next corner: clockwise (east, south, west,
/// north) or counter-clockwise. Greedy corrects the column first, so a
/// packet going south or north has no column left to correct.
fn square(n: u32, r: u32, c: u32, clockwise: bool) -> Vec<(u32, u32)> {
    let id = |row: u32, col: u32| row * n + col;
    if clockwise {
        vec![
            (id(r, c - 1), id(r, c + 2)),         // into TL, east
            (id(r - 1, c + 1), id(r + 2, c + 1)), // into TR, south
            (id(r + 1, c + 2), id(r + 1, c - 1)), // into BR, west
            (id(r + 2, c), id(r - 1, c)),         // into BL, north
        ]
    } else {
        vec![
            (id(r - 1, c), id(r + 2, c)),         // into TL, south
            (id(r + 1, c - 1), id(r + 1, c + 2)), // into BL, east
            (id(r + 2, c + 1), id(r - 1, c + 1)), // into BR, north
            (id(r, c + 2), id(r, c - 1)),         // into TR, west
        ]
    }
}

#[test]
fn four_full_nodes_each_waiting_for_the_next() {
    // mesh:4x4: after step 1 nodes 5, 6, 10, 9 each hold one packet (q = 1)
    // that wants the next corner; step 2 moves nothing.
    let sim = greedy(mesh(4, square(4, 1, 1, true)), 1, Policy::FarthestFirst);
    assert_eq!(sim.status(), Status::Stalled);
    assert_eq!(sim.deadlock(), Some(&[5, 6, 10, 9][..]));
    let r = sim.report();
    assert!(r.stalled);
    assert_eq!((r.steps, r.delivered), (1, 0));
    assert_eq!(r.deadlock, Some(vec![5, 6, 10, 9]));
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["deadlock"], serde_json::json!([5, 6, 10, 9]));
    assert_eq!(sim.summary().deadlock, vec![5, 6, 10, 9]);
    // Counter-clockwise, listed from its smallest id in wait-for order.
    let sim = greedy(mesh(4, square(4, 1, 1, false)), 1, Policy::Fifo);
    assert_eq!(sim.deadlock(), Some(&[5, 9, 10, 6][..]));
    // With room for two, the same packets pass each other.
    let sim = greedy(mesh(4, square(4, 1, 1, true)), 2, Policy::FarthestFirst);
    assert_eq!(sim.status(), Status::Finished);
    assert_eq!(sim.deadlock(), None);
    assert_eq!(sim.report().deadlock, None);
    assert!(serde_json::to_value(sim.report()).unwrap().get("deadlock").is_none());
}

#[test]
fn the_canonical_cycle_among_several() {
    // Two squares on mesh:8x8 — clockwise round 12, 13, 21, 20 and
    // counter-clockwise round 33, 41, 42, 34 — and node 11, full and
    // waiting for 12 but on no cycle: the cycle is the one through the
    // smallest node that lies on one (12), not through the smallest full node (11).
    let mut packets = square(8, 4, 1, false);
    packets.extend(square(8, 1, 4, true));
    packets.push((10, 14)); // 10 → 11, then wants 12
    let sim = greedy(mesh(8, packets), 1, Policy::FarthestFirst);
    assert_eq!(sim.status(), Status::Stalled);
    assert!(sim.engine().working_queues()[11] == 1);
    assert_eq!(sim.deadlock(), Some(&[12, 13, 21, 20][..]));
    // Where a node waits for several: the shortest cycle through the
    // smallest node, then the smallest next node (the graph's rule).
    assert_eq!(
        canonical_cycle(8, &[(1, 2), (2, 3), (3, 1), (1, 7), (7, 1)]),
        vec![1, 7]
    );
    assert_eq!(canonical_cycle(8, &[(1, 4), (4, 1), (1, 2), (2, 1)]), vec![1, 2]);
    assert_eq!(
        canonical_cycle(8, &[(2, 5), (5, 3), (3, 2), (2, 4), (4, 6), (6, 2)]),
        vec![2, 4, 6]
    );
}

#[test]
fn a_stall_without_a_cycle_gives_an_empty_deadlock() {
    // Valiant with a barrier and queues of 1: the packets that reached their
    // random node sit in the queues the others want; none waits for a link.
    let out = routesim(&[
        "run",
        "--json",
        "--topology",
        "mesh:4x4",
        "--algorithm",
        "valiant",
        "--workload",
        "random-permutation",
        "--seed",
        "4",
        "--queue-cap",
        "1",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["stalled"], true);
    assert_eq!(r["deadlock"], serde_json::json!([]));
    // Unbounded queues: no node is ever full.
    assert!(canonical_cycle(4, &[]).is_empty());
}

#[test]
fn run_json_prints_the_cycle_and_exits_1() {
    // greedy on the transpose of a 6 × 6 mesh with queues of `q`, as JSON or as the human summary.
    let run = |q: &str, json: bool| {
        let mut args = vec![
            "run",
            "--topology",
            "mesh:6x6",
            "--algorithm",
            "greedy",
            "--workload",
            "transpose",
            "--queue-cap",
            q,
        ];
        if json {
            args.push("--json");
        }
        routesim(&args)
    };
    let out = run("1", true);
    assert_eq!(out.status.code(), Some(1));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(r["stalled"], true);
    assert_eq!(r["deadlock"], serde_json::json!([14, 20, 21, 15]));
    // The human summary names it; a run that finishes has no field.
    let out = run("1", false);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("STALLED at step 14: delivered 26/36; deadlock: nodes 14 -> 20 -> 21 -> 15 -> 14"),
        "{text}"
    );
    let out = run("2", true);
    assert_eq!(out.status.code(), Some(0));
    let r: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(r.get("deadlock").is_none());
}

#[test]
fn the_lesson_stalls_on_its_cycle_and_says_so() {
    let lesson = routesim::lessons::lookup("deadlock").unwrap();
    let spec = lesson.spec(routesim::request::RunSpec::browser()).unwrap();
    let mut sim = spec.build().unwrap();
    let pending = routesim::explain::explain(&sim, None, Some(lesson));
    assert_eq!(
        pending.lesson.as_ref().unwrap().checks[0].verdict,
        routesim::explain::Verdict::Pending
    );
    assert!(pending.main.stall.is_none());
    sim.run();
    let view = routesim::explain::explain(&sim, None, Some(lesson));
    let status = view.lesson.unwrap();
    assert_eq!(status.verdict, routesim::explain::Verdict::Met);
    assert!(
        status.checks[0].text.contains("nodes 14 → 20 → 21 → 15"),
        "{}",
        status.checks[0].text
    );
    let stall = view.main.stall.unwrap();
    assert_eq!(stall.nodes, vec![14, 20, 21, 15]);
    // The page's line: its only numbers are the cycle's ids, in order.
    let numbers: Vec<u32> = stall
        .headline
        .split(|c: char| !c.is_ascii_digit())
        .filter(|w| !w.is_empty())
        .map(|w| w.parse().unwrap())
        .collect();
    assert_eq!(numbers, vec![14, 20, 21, 15]);
    assert!(stall.headline.contains("queues of one"), "{}", stall.headline);
    assert!(
        stall.text.contains("14 (row 2, col 2) → 20 (row 3, col 2)"),
        "{}",
        stall.text
    );
    // The page shows the step that moved nothing; the text says the report
    // does not count it, with the report's own number.
    let report = sim.report();
    assert!(
        stall.text.contains(&format!(
            "step {} moved nothing and the run stalled (the report counts {} steps: the one that moved nothing is not counted)",
            report.steps + 1,
            report.steps
        )),
        "{}",
        stall.text
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// On random small stalled runs every node of the cycle is full and
    /// holds a packet that wants the next node (which would refuse it),
    /// the first node is the smallest, and no node repeats.
    #[test]
    fn every_listed_node_is_full_and_waits_for_the_next(
        torus in any::<bool>(),
        side in 3u32..6,
        q in 1u32..3,
        fifo in any::<bool>(),
        raw in proptest::collection::vec((0u32..1000, 0u32..1000), 1..60),
    ) {
        let n = side * side;
        let packets: Vec<(u32, u32)> = raw.iter().map(|&(s, d)| (s % n, d % n)).collect();
        let kind = if torus { "torus" } else { "mesh" };
        let topo: Topology = format!("{kind}:{side}x{side}").parse().unwrap();
        let policy = if fifo { Policy::Fifo } else { Policy::FarthestFirst };
        let sim = greedy(Instance::new(topo, packets).unwrap(), q, policy);
        let Some(cycle) = sim.deadlock() else {
            prop_assert!(sim.report().deadlock.is_none());
            return Ok(());
        };
        let report = sim.report();
        prop_assert_eq!(report.deadlock.as_deref(), Some(cycle));
        let engine = sim.engine();
        let mut seen = std::collections::HashSet::new();
        for (i, &v) in cycle.iter().enumerate() {
            prop_assert!(seen.insert(v), "node {} repeats in {:?}", v, cycle);
            prop_assert!(v >= cycle[0]);
            let next = cycle[(i + 1) % cycle.len()];
            prop_assert!(engine.working_queues()[v as usize] >= q, "node {} is not full", v);
            let waits = engine.active().into_iter().any(|p| {
                engine.position(p) == v
                    && engine.is_eligible(p)
                    && engine.destination(p) != next
                    && engine.next_hop(p).is_some_and(|h| h.next == next)
            });
            prop_assert!(waits, "no packet at {} waits for {} in {:?}", v, next, cycle);
        }
    }
}

#[test]
fn edge_queues_wait_for_the_link_queue_of_the_next_node() {
    // ring:7 tornado: every packet goes 3 nodes the positive way. After
    // step 1 every node's queue from its left neighbour is full and its
    // packet wants the next node's: the whole ring waits.
    for edge_queues in [false, true] {
        let topo: Topology = "ring:7".parse().unwrap();
        let packets = (0..7).map(|v| (v, (v + 3) % 7)).collect();
        let mut sim = Simulation::new(
            Instance::new(topo, packets).unwrap(),
            SimConfig {
                algorithm: "greedy".into(),
                queue_cap: Some(1),
                edge_queues,
                check_invariants: true,
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(sim.run(), Status::Stalled, "edge queues {edge_queues}");
        assert_eq!(
            sim.deadlock(),
            Some(&[0, 1, 2, 3, 4, 5, 6][..]),
            "edge queues {edge_queues}"
        );
    }
}

/// With edge queues a packet waiting at its source at a full node waits
/// like one in a full queue (as in a node-queue run): on ring:7, random-kk
/// k = 4, seed 4, q = 1, node 4's queue from 5 holds a packet for 3 that
/// loses link 4 → 3 every step to a source packet of node 4, which node
/// 3's full queue refuses: the ring waits (it was reported as no cycle;
/// the queues audit of 2026-12-01).
#[test]
fn edge_queues_count_source_packets_at_full_nodes() {
    let topo: Topology = "ring:7".parse().unwrap();
    let instance = routesim::workload::generate(
        &topo,
        &routesim::workload::WorkloadSpec {
            k: Some(4),
            ..routesim::workload::WorkloadSpec::new(routesim::workload::Workload::RandomKk, 4)
        },
    )
    .unwrap();
    let mut sim = Simulation::new(
        instance,
        SimConfig {
            algorithm: "greedy".into(),
            queue_cap: Some(1),
            edge_queues: true,
            seed: 4,
            check_invariants: true,
            ..Default::default()
        },
    )
    .unwrap();
    assert_eq!(sim.run(), Status::Stalled);
    assert_eq!(sim.deadlock(), Some(&[0, 6, 5, 4, 3, 2, 1][..]));
}
