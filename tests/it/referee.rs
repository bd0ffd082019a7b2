//! A referee outside the engine (SPEC §1: "every reported step is a
//! simulated step that obeys the model"): every algorithm of the registry,
//! on every small network and workload it accepts, is stepped one step at a
//! time and judged from the packets' positions alone — none of the
//! engine's own bookkeeping (slots, link lists, queue counters, the
//! invariant checks) is read. In every step a packet stays where it is or
//! crosses one link of the topology; no directed link carries two packets;
//! a delivered packet never moves again;
//! the run ends with every packet at its destination (a sort: its rank's
//! node), and the report's `steps` is the number of steps simulated — no
//! step is simulated after the run is over (the page shows that many). Control
//! messages are not visible from outside, so the one-message-per-link rule
//! is judged on packets only (the engine's own check counts the rest),
//! and the links the page draws for a step (the engine's record, runs
//! made as the page makes them) must list every move seen, none twice.

use routesim::algorithms::registry::REGISTRY;
use routesim::request::{Field, RunSpec};
use routesim::topology::{Network, Topology};
use routesim::Status;
use std::collections::HashSet;

const TOPOLOGIES: &[&str] = &[
    "linear:9",
    "ring:8",
    "mesh:4x4",
    "mesh:5x6",
    "mesh:8x8",
    "torus:5x5",
    "mesh:3x3x3",
    "torus:3x4x3",
    "hypercube:4",
    "hypercube:6",
    "butterfly:3",
    "butterfly:4",
    "shuffle-exchange:4",
    "shuffle-exchange:6",
];

/// The workloads tried, with their ℓ and k.
const WORKLOADS: &[(&str, &str, &str)] = &[
    ("random-permutation", "1", "1"),
    ("transpose", "1", "1"),
    ("random-kk", "2", "2"),
    ("random-lk", "1", "3"),
    ("worst-lk", "2", "2"),
    ("sort-random", "1", "1"),
    ("sort-few", "1", "1"),
    ("sort-reversed", "1", "1"),
    ("sort-sorted", "1", "1"),
    ("bit-reversal", "1", "1"),
    ("bit-complement", "1", "1"),
    ("tornado", "1", "1"),
    ("greedy-worst", "1", "1"),
    ("hotspot", "1", "2"),
    ("local-kk", "2", "2"),
    ("random-destinations", "1", "2"),
];

/// What one run showed the referee.
struct Judged {
    steps: u32,
    moves: u64,
}

/// What the referee runs on every network and workload: an algorithm, a
/// seed, at most one of the algorithm's options, and node queues of
/// capacity `cap` (`--queue-cap`: then a run may stall, and at every
/// step's end no node holds more than `cap` packets that have left their
/// sources and are not delivered).
#[derive(Clone, Copy)]
struct Request<'a> {
    algorithm: &'a str,
    seed: &'a str,
    option: Option<(Field, &'a str)>,
    cap: Option<&'a str>,
}

impl<'a> Request<'a> {
    fn plain(algorithm: &'a str, seed: &'a str) -> Request<'a> {
        Request {
            algorithm,
            seed,
            option: None,
            cap: None,
        }
    }

    /// Every run of the request that builds, on every network and
    /// workload, each judged.
    fn judge_everywhere(&self) -> Vec<Judged> {
        let mut out = Vec::new();
        for &topology in TOPOLOGIES {
            for &(workload, l, k) in WORKLOADS {
                out.extend(judge(topology, workload, l, k, self));
            }
        }
        out
    }
}

/// Steps the request on `topology` with `workload` to its end, judging
/// every step; `None` if the request is refused (the algorithm does not
/// run there).
fn judge(topology: &str, workload: &str, l: &str, k: &str, request: &Request) -> Option<Judged> {
    let Request {
        algorithm,
        seed,
        option,
        cap,
    } = *request;
    let mut fields = vec![
        (Field::Topology, topology),
        (Field::Algorithm, algorithm),
        (Field::Workload, workload),
        (Field::L, l),
        (Field::K, k),
        (Field::Seed, seed),
    ];
    fields.extend(option);
    fields.extend(cap.map(|q| (Field::QueueCap, q)));
    // As the page runs it (series on: the engine records each step's links).
    let spec = RunSpec::browser()
        .apply(fields.iter().map(|&(f, t)| (f, f.cli(), t)))
        .ok()?;
    let mut sim = spec.build().ok()?;
    let what = format!("{algorithm} on {topology}, {workload} (ℓ {l}, k {k}), seed {seed}, option {option:?}");
    let recalls = option.is_some_and(|(f, _)| f == Field::UnknownLk);
    // lmrr's and flashsort's q caps the queue of each incoming link instead.
    let edge_queues = matches!(algorithm, "lmrr" | "flashsort");
    let topo = sim.engine().topology().clone();
    let n = sim.engine().packet_count();
    let dest: Vec<u32> = (0..n).map(|p| sim.engine().destination(p)).collect();
    let mut before = sim.engine().positions();
    let mut stepped = 0u32;
    let mut moves = 0u64;
    let mut used: HashSet<(u32, u32)> = HashSet::new();
    // Each packet's last link crossed (none at its source): the edge queue
    // it sits in (SPEC §1 `edge-queues`), counted from outside.
    let mut arrived_by: Vec<Option<(u32, u32)>> = vec![None; n as usize];
    let mut most_in_edge_queue = 0usize;
    while sim.status() == Status::Running {
        // Which packets had crossed a link as the step opened.
        let crossed_before: Vec<bool> = arrived_by.iter().map(Option::is_some).collect();
        sim.step();
        let now = sim.engine().step_count();
        // A call simulates one step, or none when it finds the run over
        // (its last packets delivered where they stood).
        assert!(
            now == stepped + 1 || (now == stepped && sim.status() == Status::Finished),
            "{what}: a call took the run from step {stepped} to step {now}"
        );
        stepped = now;
        assert!(stepped <= 1_000_000, "{what}: no end in sight");
        let after = sim.engine().positions();
        used.clear();
        for (p, (&a, &b)) in before.iter().zip(&after).enumerate() {
            if a == b {
                continue;
            }
            if recalls && b == sim.engine().source(p as u32) {
                // Pietracaprina–Pucci's abort (`--unknown-lk`, §3): the
                // copy in transit is dropped and the one its source kept
                // stands in for it; nothing crossed a link.
                arrived_by[p] = None;
                continue;
            }
            arrived_by[p] = Some((a, b));
            // A delivered packet has left the network (its delivery step is
            // the report's, u32::MAX while undelivered).
            let delivered = sim.engine().delivery_steps()[p];
            assert!(
                delivered == u32::MAX || delivered >= stepped,
                "{what}: packet {p}, delivered in step {delivered}, moved in step {stepped}"
            );
            assert!(
                topo.port_to(a, b).is_some(),
                "{what}: packet {p} jumped from node {a} to node {b} in step {stepped} (not neighbours)"
            );
            assert!(
                used.insert((a, b)),
                "{what}: the link {a} → {b} carried two packets in step {stepped}"
            );
            moves += 1;
        }
        // What the page draws as the step's links (the engine's record):
        // every move seen is among them, and no directed link is listed
        // twice — packets, flits and control messages together.
        let links = sim.engine().last_links();
        let ports = topo.ports();
        let drawn: HashSet<u32> = links.iter().copied().collect();
        assert_eq!(
            drawn.len(),
            links.len(),
            "{what}: a link is listed twice in step {stepped}"
        );
        for &(a, b) in &used {
            let id = a * ports + topo.port_to(a, b).unwrap();
            assert!(
                drawn.contains(&id),
                "{what}: the move {a} → {b} of step {stepped} is not among its links"
            );
        }
        let mut queues: std::collections::HashMap<(u32, u32), usize> = std::collections::HashMap::new();
        for (p, link) in arrived_by.iter().enumerate() {
            if let (Some(link), u32::MAX) = (link, sim.engine().delivery_steps()[p]) {
                *queues.entry(*link).or_default() += 1;
            }
        }
        most_in_edge_queue = most_in_edge_queue.max(queues.values().copied().max().unwrap_or(0));
        if let (Some(q), false) = (cap, edge_queues) {
            // Working queues: packets that have left their sources (crossed a
            // link at least once) and are not delivered, per node.
            let mut working = vec![0u32; topo.nodes() as usize];
            for (p, link) in arrived_by.iter().enumerate() {
                if link.is_some() && sim.engine().delivery_steps()[p] == u32::MAX {
                    working[after[p] as usize] += 1;
                }
            }
            let q: u32 = q.parse().unwrap();
            let most = working.iter().copied().max().unwrap_or(0);
            assert!(
                most <= q,
                "{what}: a node holds {most} packets in transit, q = {q}, after step {stepped}"
            );
            // And in the step itself (SPEC §1): a node accepted at most
            // q − (its start-of-step working queue) packets that are not
            // delivered there — scripted moves (a sort's swaps) included.
            // A packet parked at its destination and handed over between
            // steps is stamped with the step before: delivered then, it
            // was in no queue as this step opened.
            let mut working_before = vec![0u32; working.len()];
            for (p, &crossed) in crossed_before.iter().enumerate() {
                if crossed && sim.engine().delivery_steps()[p] >= stepped {
                    working_before[before[p] as usize] += 1;
                }
            }
            let mut accepted = vec![0u32; working.len()];
            for (p, (&a, &b)) in before.iter().zip(&after).enumerate() {
                if a != b && arrived_by[p].is_some() && sim.engine().delivery_steps()[p] == u32::MAX {
                    accepted[b as usize] += 1;
                }
            }
            for (v, &took) in accepted.iter().enumerate() {
                assert!(
                    took <= q.saturating_sub(working_before[v]),
                    "{what}: node {v} held {} at the start of step {stepped} and accepted {took}, q = {q}",
                    working_before[v]
                );
            }
        }
        before = after;
    }
    if cap.is_some() && sim.status() == Status::Stalled {
        // Bounded queues may deadlock (SPEC §1); every step it ran was judged.
        return Some(Judged { steps: stepped, moves });
    }
    assert_eq!(sim.status(), Status::Finished, "{what}: did not finish");
    // Edge queues (lmrr's scheduler): no queue of an incoming link ever
    // held more than q at a step's end — on the butterfly, where every
    // edge of the leveled network is one real link. Elsewhere a real link
    // carries several leveled edges (a mesh's plateaus, a hypercube's
    // emulated butterfly, a shuffle-exchange's flips), each with a queue
    // of its own, which positions alone cannot tell apart.
    let real_edges = matches!(topo, Topology::Butterfly(_));
    if let (Some(lmrr), true) = (sim.report().extra.lmrr, real_edges) {
        assert!(
            most_in_edge_queue <= lmrr.edge_queue_cap as usize,
            "{what}: an edge queue held {most_in_edge_queue} packets, q = {}",
            lmrr.edge_queue_cap
        );
    }
    let report = sim.report();
    for (p, (&at, &d)) in before.iter().zip(&dest).enumerate() {
        assert_eq!(at, d, "{what}: packet {p} ended at node {at}, its destination is {d}");
    }
    assert_eq!(report.delivered, n, "{what}");
    assert_eq!(
        report.steps, stepped,
        "{what}: the report counts {} steps, {stepped} were stepped",
        report.steps
    );
    // A packet's hops are its moves: the report's count cannot be fewer
    // than the moves the referee saw.
    assert!(
        report.packet_hops >= moves,
        "{what}: {} hops reported, {moves} seen",
        report.packet_hops
    );
    Some(Judged { steps: stepped, moves })
}

#[test]
fn every_algorithm_obeys_the_model_as_seen_from_outside() {
    let mut ran: Vec<(&str, usize)> = Vec::new();
    let mut total = Judged { steps: 0, moves: 0 };
    for entry in REGISTRY {
        let mut runs = 0;
        for seed in ["1", "2"] {
            for j in Request::plain(entry.name, seed).judge_everywhere() {
                runs += 1;
                total.steps += j.steps;
                total.moves += j.moves;
            }
        }
        ran.push((entry.name, runs));
    }
    // Every algorithm ran somewhere (a refusal everywhere would judge nothing).
    for (name, runs) in &ran {
        assert!(*runs >= 2, "{name} ran {runs} times: {ran:?}");
    }
    assert!(total.moves > 10_000, "{} moves judged", total.moves);
}

/// The same referee with each algorithm's options set, one at a time, to a
/// value other than its default (the option table's second choice, a
/// switch on, a small number): pipelined and coalesced phases, the other
/// route order, Valiant paths, smearing, worms of a few flits (a worm's
/// head is its packet's position), light and full loading, ℓ and k
/// unknown (an aborted attempt's packet reappears at its source, which
/// kept a copy: allowed there and nowhere else). Combining is left out: a
/// rider crosses with its carrier, one message on one link.
#[test]
fn every_algorithm_option_obeys_the_model_as_seen_from_outside() {
    use routesim::options::Control;
    let mut judged = 0;
    for entry in REGISTRY {
        for &field in entry.options {
            if field == Field::Combine {
                continue;
            }
            let value = match field.info().control {
                Some(Control::Flag) => "true".to_string(),
                Some(Control::Choice { values }) => values.get(1).unwrap_or(&values[0]).to_string(),
                Some(Control::Number { min, max, .. }) => (min + 2).min(max).to_string(),
                None => continue,
            };
            let request = Request {
                option: Some((field, &value)),
                ..Request::plain(entry.name, "1")
            };
            let runs = request.judge_everywhere().len();
            assert!(runs >= 1, "{} with {} {value} never ran", entry.name, field.cli());
            judged += runs;
        }
    }
    assert!(judged > 100, "{judged} runs judged");
}

/// The referee with node queues of capacity 1 and 2 (`--queue-cap`): in
/// every step no node accepts more than q − (its start-of-step working
/// queue) packets, and at every step's end none holds more than q packets
/// in transit — counted
/// from outside as the packets that have crossed a link and are not
/// delivered (SPEC §1: a node accepts at most q − its start-of-step
/// working queue; packets at their destination are always accepted, and
/// leave). Stalls are allowed, and judged up to the stall.
#[test]
fn bounded_node_queues_hold_as_seen_from_outside() {
    let mut judged = 0;
    for entry in REGISTRY {
        for q in ["1", "2"] {
            let request = Request {
                cap: Some(q),
                ..Request::plain(entry.name, "1")
            };
            judged += request.judge_everywhere().len();
        }
    }
    assert!(judged > 200, "{judged} runs judged");
}
