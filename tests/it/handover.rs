//! The state shown at step S is the state step S left (SPEC §1): every
//! packet the report stamps as delivered at step S or before is delivered
//! in the state after step S — also a packet an algorithm moved through its
//! destination inside a scripted phase (a sort, a balance, a shift) and
//! hands over when that phase ends. That hand-over belongs to the step the
//! phase's last move was made in (its stamp), not to the next step's start:
//! a page paused at S showed such packets parked, undelivered, at their
//! destinations, with the next step delivering them with the earlier stamp
//! (sort-route, pp-rand, pp-det). Every algorithm, on small instances of
//! every kind of network it accepts.

use crate::common::{try_sim, SMALL_NETWORKS};
use routesim::algorithms::{Packets, REGISTRY};
use routesim::request::Field;
use routesim::Simulation;

/// `algorithm` on `topology` with `workload`, k, the seed and `extra`, built, if it accepts them.
fn build_with(
    topology: &str,
    algorithm: &str,
    workload: &str,
    k: &str,
    seed: &str,
    extra: &[(Field, &str)],
) -> Option<Simulation> {
    let mut fields = vec![(Field::K, k), (Field::Seed, seed)];
    fields.extend_from_slice(extra);
    try_sim(topology, algorithm, workload, &fields)
}

fn build(topology: &str, algorithm: &str, workload: &str, k: &str, seed: &str) -> Option<Simulation> {
    build_with(topology, algorithm, workload, k, seed, &[])
}

/// Steps `sim` to its end; after every step, the packets delivered in its
/// state must be those whose delivery step is at most that step.
fn check(mut sim: Simulation, what: &str) {
    let mut shown = vec![sim.engine().delivered()];
    while sim.status() == routesim::Status::Running {
        let before = sim.engine().step_count();
        sim.step();
        let at = sim.engine().step_count();
        if at == before {
            // The run ended without a step (the last packets handed over where they stood).
            break;
        }
        shown.push(sim.engine().delivered());
    }
    let stamps = sim.engine().delivery_steps();
    for (s, &delivered) in shown.iter().enumerate() {
        let stamped = stamps.iter().filter(|&&d| d <= s as u32).count() as u32;
        assert_eq!(
            delivered, stamped,
            "{what}: the state after step {s} shows {delivered} delivered, the report stamps {stamped} by then"
        );
    }
}

#[test]
fn the_state_after_step_s_shows_every_packet_stamped_by_s_delivered() {
    let mut checked = 0;
    for entry in REGISTRY {
        let runs: &[(&str, &str)] = match entry.packets {
            Packets::Sort => &[("sort-random", "1")],
            Packets::EvenK => &[("random-kk", "2")],
            Packets::PartialPermutation => &[("random-permutation", "1"), ("transpose", "1")],
            Packets::Any => &[("random-permutation", "1"), ("random-kk", "2"), ("random-lk", "3")],
        };
        for topology in SMALL_NETWORKS {
            for &(workload, k) in runs {
                for seed in ["1", "2"] {
                    if let Some(sim) = build(topology, entry.name, workload, k, seed) {
                        check(sim, &format!("{} {topology} {workload} k={k} seed {seed}", entry.name));
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} runs built");
}

#[test]
fn a_sort_phase_hands_its_packets_over_in_its_last_step() {
    // sort-route: a transpose on mesh:8x8 leaves packets at their
    // destinations when the sort ends; the state at that step shows them delivered.
    for (algorithm, topology, workload) in [
        ("sort-route", "mesh:8x8", "transpose"),
        ("sort-route", "mesh:16x16", "random-permutation"),
        ("pp-rand", "mesh:16x16", "random-permutation"),
        ("pp-det", "mesh:16x16", "random-kk"),
    ] {
        let k = if workload == "random-kk" { "2" } else { "1" };
        let sim = build(topology, algorithm, workload, k, "1").expect("builds");
        check(sim, &format!("{algorithm} {topology} {workload}"));
    }
}

#[test]
fn pp_with_unknown_l_and_k_hands_over_in_the_step_that_ends_a_phase() {
    for algorithm in ["pp-rand", "pp-det"] {
        for (workload, k) in [("random-permutation", "1"), ("random-lk", "3")] {
            let sim =
                build_with("mesh:16x16", algorithm, workload, k, "1", &[(Field::UnknownLk, "true")]).expect("builds");
            check(sim, &format!("{algorithm} unknown-lk {workload}"));
        }
    }
}
