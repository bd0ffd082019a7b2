//! Groundwork for §9 (Flashsort on the shuffle-exchange; not an algorithm
//! yet): the routing every recursion level of §8 would do inside the
//! wrapped butterflies of `shuffle-exchange:2m` ([`SeButterflies`]), all
//! of them at once, measured with the §2.2 scheduler.
//!
//! One key per node means m keys per row of a wrapped butterfly W: *m
//! copies* of the one-key-per-row sort, copy l using the m + 1 levels
//! l, l + 1, …, l + m (mod m) of W as its butterfly. Routed as m separate
//! leveled networks they would put m logical edges on every link of W,
//! all sending in every logical step (ghosts), m real steps per logical
//! step. Routed as one network whose level is l + j for copy l's level j
//! (W unrolled twice: level g and level g + m on the same nodes), a link of
//! W carries two logical edges, and the copies' packets share them:
//! congestion adds up, it does not multiply the steps. Here every copy
//! routes a random half of its rows to distinct random rows m levels up
//! (the longest climb a recursion level makes), each level of W three
//! hops of the shuffle-exchange (wait or exchange, shuffle, shuffle).

use super::driver::Driver;
use crate::algorithms::lmrr::hop_leveled::HopLeveled;
use crate::engine::{Engine, EngineConfig};
use crate::rng::{Rng, Stream};
use crate::topology::{Network, SeButterflies, Topology};

/// What one climb measured.
#[derive(Debug)]
struct Climb {
    packets: usize,
    steps: u32,
    substeps: u8,
    c: u32,
    l: u32,
    log_n: u32,
    max_edge_queue: u32,
    max_queue: u32,
}

/// Every copy in `copies` of every wrapped butterfly of
/// `shuffle-exchange:d` climbs m levels, routed as one network.
fn climb(d: u32, copies: impl Fn(u32) -> Vec<u32>, seed: u64, q: u32) -> Climb {
    let topo: Topology = format!("shuffle-exchange:{d}").parse().unwrap();
    let Topology::ShuffleExchange(g) = &topo else {
        unreachable!()
    };
    let e = SeButterflies::new(g).unwrap();
    let m = e.levels();
    let mut rng = Rng::new(seed, Stream::Workload);
    let (mut pairs, mut paths) = (Vec::new(), Vec::new());
    for b in 0..e.butterflies().len() as u32 {
        for l in copies(m) {
            let mut rows: Vec<u32> = (0..1 << m).collect();
            let mut goals = rows.clone();
            rng.shuffle(&mut rows);
            rng.shuffle(&mut goals);
            for (&from, &goal) in rows.iter().zip(&goals).take(1 << (m - 1)) {
                let (mut row, mut hosts) = (from, vec![e.host(b, l, from)]);
                for p in l..l + m {
                    let bit = 1 << e.flipped_bit(p);
                    let cross = (row ^ goal) & bit != 0;
                    hosts.extend_from_slice(&e.edge(b, p % m, row, cross)[1..]);
                    row ^= if cross { bit } else { 0 };
                }
                pairs.push((hosts[0], *hosts.last().unwrap()));
                paths.push((3 * l, hosts));
            }
        }
    }
    let (net, node_paths) = HopLeveled::build(&topo, &paths).unwrap();
    let config = EngineConfig {
        check_invariants: true,
        ..Default::default()
    };
    let mut engine = Engine::new(topo.clone(), &pairs, config);
    for p in engine.active() {
        engine.set_eligible(p, false);
    }
    let packets: Vec<(u32, Vec<u32>)> = node_paths.into_iter().enumerate().map(|(i, p)| (i as u32, p)).collect();
    let mut driver = Driver::new(seed, q);
    let (s, c, l) = driver.routing(&engine, &net, &packets).unwrap();
    let substeps = s.problem().net.substeps;
    driver.push_route("climb".into(), s, None, 0);
    // The most packets on one node after any step (waiting ones included).
    let (mut load, mut max_queue) = (vec![0u32; g.nodes() as usize], 0);
    loop {
        driver.step(&mut engine, |_, _| false, |v, port| Some((v, port)));
        if driver.idle() {
            break;
        }
        engine.step();
        load.iter_mut().for_each(|x| *x = 0);
        for p in 0..packets.len() as u32 {
            load[engine.position(p) as usize] += 1;
        }
        max_queue = max_queue.max(*load.iter().max().unwrap());
    }
    for (p, &(_, to)) in pairs.iter().enumerate() {
        assert_eq!(engine.position(p as u32), to, "packet {p} ends at its goal");
    }
    Climb {
        packets: packets.len(),
        steps: engine.step_count(),
        substeps,
        c,
        l,
        log_n: (packets.len() as u32).next_power_of_two().trailing_zeros(),
        max_edge_queue: driver.lmrr_fields().max_edge_queue,
        max_queue,
    }
}

fn one(_: u32) -> Vec<u32> {
    vec![0]
}

fn all(m: u32) -> Vec<u32> {
    (0..m).collect()
}

#[test]
fn every_copy_climbs_at_once_in_a_constant_factor_of_one_copys_steps() {
    for d in [6, 8, 10, 12] {
        for q in [1, 2] {
            let alone = climb(d, one, 1, q);
            let together = climb(d, all, 1, q);
            for r in [&alone, &together] {
                assert!(r.max_edge_queue <= q, "D = {d}, q = {q}: {r:?}");
            }
            // One copy: a link of W carries the four edges of one level at
            // most, two of them in one hop; all copies: both turns of W.
            assert_eq!(
                (alone.substeps, together.substeps),
                (2, if d == 6 { 3 } else { 4 }),
                "D = {d}"
            );
            // m copies in one network: a constant factor of one copy's
            // steps, where m networks apart would take m times them.
            assert!(
                together.steps <= 5 * alone.steps,
                "D = {d}, q = {q}: {together:?} against {alone:?}"
            );
        }
    }
}

/// The figures of docs/algorithms/flashsort.md ("The shuffle-exchange"):
/// `cargo test --release --lib se_tests -- --ignored --nocapture`.
#[test]
#[ignore = "prints the measured figures (D up to 16)"]
fn figures() {
    println!("D m copies packets substeps c L log_n steps steps/(substeps(c+L+log n)) max_edge_queue max_queue");
    for d in (6..=16).step_by(2) {
        for (name, copies) in [("one", one as fn(u32) -> Vec<u32>), ("all", all)] {
            for seed in 1..=3 {
                let r = climb(d, copies, seed, 2);
                let ratio = f64::from(r.steps) / f64::from(u32::from(r.substeps) * (r.c + r.l + r.log_n));
                println!(
                    "{d} {} {name} {} {} {} {} {} {} {ratio:.2} {} {}",
                    d / 2,
                    r.packets,
                    r.substeps,
                    r.c,
                    r.l,
                    r.log_n,
                    r.steps,
                    r.max_edge_queue,
                    r.max_queue
                );
            }
        }
    }
}
