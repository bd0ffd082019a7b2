//! The timeline (`src/timeline.rs`): going to step t — back, forward, after
//! running further — shows exactly the state a fresh run stopped at t shows
//! (positions, queues, classes, deliveries, the links of that step, every
//! series and counter, the report), for algorithms with and without phases,
//! control messages and random choices; the checkpoints stay within their
//! bound; a property test over random sequences of gotos and steps.

use proptest::prelude::*;
use routesim::engine::Policy;
use routesim::timeline::{copy_bytes, CHECKPOINT_BUDGET, MAX_CHECKPOINTS};
use routesim::topology::Topology;
use routesim::workload::{generate, Workload, WorkloadSpec};
use routesim::{SimConfig, Simulation, Status, Timeline};

/// Everything a shown step consists of, as comparable values.
#[derive(Debug, PartialEq)]
struct State {
    step: u32,
    status: Status,
    positions: Vec<u32>,
    queues: Vec<u32>,
    waiting: Vec<u32>,
    classes: Vec<u8>,
    delivered: u32,
    delivered_at: Vec<u32>,
    links: Vec<u32>,
    control_links: usize,
    phase: Option<String>,
    in_flight: Vec<u32>,
    queue_series: Vec<u32>,
    links_used: Vec<u32>,
    deliveries: Vec<u32>,
    counters: (u32, u32, u32, u32, u64),
    report: String,
    trail: Vec<u32>,
}

fn state(sim: &Simulation) -> State {
    let e = sim.engine();
    let s = e.stats();
    State {
        step: e.step_count(),
        status: sim.status(),
        positions: e.positions(),
        queues: e.working_queues().to_vec(),
        waiting: e.waiting_at_source().to_vec(),
        classes: e.classes().to_vec(),
        delivered: e.delivered(),
        delivered_at: e.delivery_steps().to_vec(),
        links: e.last_links().to_vec(),
        control_links: e.last_control_count(),
        phase: s.current_phase().map(str::to_string),
        in_flight: s.in_flight.clone(),
        queue_series: s.queue_series.clone(),
        links_used: s.links_used.clone(),
        deliveries: s.deliveries.clone(),
        counters: (
            s.max_queue,
            s.max_load,
            s.max_ctrl_queue,
            s.last_delivery,
            s.packet_hops,
        ),
        report: serde_json::to_string(&sim.report()).unwrap(),
        trail: sim.trail().to_vec(),
    }
}

/// One case: a topology, a workload, an algorithm, a policy.
struct Case {
    topology: &'static str,
    workload: Workload,
    lk: Option<(u32, u32)>,
    algorithm: &'static str,
    policy: Policy,
}

const CASES: [Case; 6] = [
    Case {
        topology: "mesh:8x8",
        workload: Workload::RandomPermutation,
        lk: None,
        algorithm: "greedy",
        policy: Policy::FarthestFirst,
    },
    Case {
        topology: "torus:6x6",
        workload: Workload::RandomPermutation,
        lk: None,
        algorithm: "valiant",
        policy: Policy::Random,
    },
    Case {
        topology: "hypercube:5",
        workload: Workload::Transpose,
        lk: None,
        algorithm: "valiant",
        policy: Policy::Fifo,
    },
    Case {
        topology: "mesh:8x8",
        workload: Workload::RandomLk,
        lk: Some((2, 2)),
        algorithm: "pp-rand",
        policy: Policy::FarthestFirst,
    },
    Case {
        topology: "mesh:4x4",
        workload: Workload::RandomPermutation,
        lk: None,
        algorithm: "sort-route",
        policy: Policy::FarthestFirst,
    },
    Case {
        topology: "mesh:7x7",
        workload: Workload::Transpose,
        lk: None,
        algorithm: "offline",
        policy: Policy::FarthestFirst,
    },
];

fn simulation(case: &Case, seed: u64) -> Simulation {
    simulation_limited(case, seed, SimConfig::default().max_steps)
}

fn simulation_limited(case: &Case, seed: u64, max_steps: u32) -> Simulation {
    let topo: Topology = case.topology.parse().unwrap();
    let spec = WorkloadSpec {
        l: case.lk.map(|lk| lk.0),
        k: case.lk.map(|lk| lk.1),
        ..WorkloadSpec::new(case.workload, seed)
    };
    let instance = generate(&topo, &spec).unwrap();
    let config = SimConfig {
        algorithm: case.algorithm.into(),
        policy: case.policy,
        seed,
        max_steps,
        ..Default::default()
    };
    Simulation::new(instance, config).unwrap()
}

/// A fresh run stopped at step t (or at its end).
fn fresh(case: &Case, seed: u64, t: u32) -> State {
    let mut sim = simulation(case, seed);
    sim.run_steps(t);
    state(&sim)
}

/// The steps of a finished run of the case.
fn length(case: &Case, seed: u64) -> u32 {
    let mut sim = simulation(case, seed);
    assert_eq!(sim.run(), Status::Finished, "{} on {}", case.algorithm, case.topology);
    sim.engine().step_count()
}

#[test]
fn going_back_after_running_further_shows_what_a_fresh_run_shows() {
    for case in &CASES {
        let end = length(case, 3);
        assert!(end >= 8, "{}: {end} steps", case.algorithm);
        let mut timeline = Timeline::new(simulation(case, 3));
        assert_eq!(timeline.run_steps(u32::MAX), Status::Finished);
        assert_eq!(timeline.furthest(), end);
        // Back to several steps (checkpoints and between them), in a scrambled order.
        let targets = [end / 2, 1, end - 1, 0, end / 3 + 1, end, 2, end / 2 + 1];
        for &t in &targets {
            assert_eq!(timeline.goto(t), t);
            assert_eq!(
                state(timeline.current()),
                fresh(case, 3, t),
                "{} at step {t}",
                case.algorithm
            );
            assert_eq!(timeline.furthest(), end, "going back forgot the furthest step");
            // The series cover the whole run whatever step is shown.
            let furthest = timeline.furthest_state().engine().stats();
            assert_eq!(furthest.in_flight.len() as u32, end);
        }
        // Step back and forward one at a time.
        timeline.goto(end / 2);
        timeline.step_back();
        assert_eq!(state(timeline.current()), fresh(case, 3, end / 2 - 1));
        timeline.step(2);
        assert_eq!(state(timeline.current()), fresh(case, 3, end / 2 + 1));
        // Past the end the view stops at the end.
        assert_eq!(timeline.goto(end + 100), end);
        assert_eq!(timeline.current().status(), Status::Finished);
        assert_eq!(timeline.step_back(), end - 1);
        assert_eq!(timeline.current().status(), Status::Running);
        assert_eq!(timeline.goto(0), 0);
        assert_eq!(timeline.step_back(), 0, "no step before 0");
    }
}

/// Once the run's length is measured the timeline records the links the
/// page draws only for the steps it can show (the state after a batch of
/// steps, the checkpoints, the last step): every shown state, after a
/// whole run, batches of steps and jumps back and forth, is still exactly
/// what a fresh run shows, links included.
#[test]
fn a_measured_run_shows_every_step_as_a_fresh_run_does_links_included() {
    for case in &CASES {
        let end = length(case, 4);
        let mut timeline = Timeline::new(simulation(case, 4));
        assert_eq!(timeline.measure(u32::MAX), Some(end));
        // In batches: the state after each batch.
        let batch = (end / 5).max(2);
        let mut at = 0;
        while at < end {
            timeline.step(batch);
            at = (at + batch).min(end);
            assert_eq!(
                state(timeline.current()),
                fresh(case, 4, at),
                "{} after a batch to {at}",
                case.algorithm
            );
        }
        // Jumps back (to checkpoints and between them) and forward.
        for t in [end / 2, 0, end - 1, end / 3 + 1, 1, end, end / 4] {
            assert_eq!(timeline.goto(t), t);
            assert_eq!(
                state(timeline.current()),
                fresh(case, 4, t),
                "{} at step {t}",
                case.algorithm
            );
        }
        // A fresh timeline run to its end in one call, after measuring.
        let mut timeline = Timeline::new(simulation(case, 4));
        timeline.measure(u32::MAX);
        assert_eq!(timeline.run_steps(u32::MAX), Status::Finished);
        assert_eq!(
            state(timeline.current()),
            fresh(case, 4, end),
            "{} at its end",
            case.algorithm
        );
        assert!(!timeline.current().engine().last_links().is_empty() || end == 0);
    }
}

#[test]
fn going_forward_computes_on_from_the_shown_step() {
    let case = &CASES[3];
    let end = length(case, 5);
    let mut timeline = Timeline::new(simulation(case, 5));
    // Forward past the furthest step computes on.
    assert_eq!(timeline.goto(end / 2), end / 2);
    assert_eq!(timeline.furthest(), end / 2);
    assert_eq!(state(timeline.current()), fresh(case, 5, end / 2));
    // Back, then forward past the furthest step.
    timeline.goto(3);
    assert_eq!(timeline.goto(end / 2 + 7), end / 2 + 7);
    assert_eq!(state(timeline.current()), fresh(case, 5, end / 2 + 7));
    assert_eq!(timeline.furthest(), end / 2 + 7);
    let phases = timeline.phases();
    assert!(phases.len() > 3, "{phases:?}");
    assert_eq!(phases[0].start(), 0);
    for pair in phases.windows(2) {
        assert_eq!(pair[0].start() + pair[0].steps, pair[1].start(), "{phases:?}");
    }
    let last = phases.last().unwrap();
    assert_eq!(last.start() + last.steps, end / 2 + 7);
}

#[test]
fn the_checkpoints_stay_within_their_bound_and_cover_the_run_evenly() {
    let case = &CASES[3];
    let end = length(case, 1);
    assert!(
        end > 4 * MAX_CHECKPOINTS as u32,
        "pp-rand on 8x8 takes only {end} steps"
    );
    let mut timeline = Timeline::new(simulation(case, 1));
    assert_eq!(timeline.max_checkpoints(), MAX_CHECKPOINTS);
    let mut most = 0;
    while timeline.run_steps(7) == Status::Running {
        most = most.max(timeline.checkpoint_steps().len());
    }
    assert!(most <= MAX_CHECKPOINTS, "{most} checkpoints");
    let steps = timeline.checkpoint_steps();
    assert!(steps.len() >= MAX_CHECKPOINTS / 2, "{steps:?}");
    let interval = steps[1] - steps[0];
    assert!(
        steps.iter().enumerate().all(|(i, &s)| s == i as u32 * interval),
        "{steps:?}"
    );
    assert!(
        interval <= end / 16 + 1 && interval.is_power_of_two(),
        "interval {interval} for {end} steps"
    );
    // Scrubbing does not add checkpoints.
    for t in [end - 1, 5, end / 2, 0, end] {
        timeline.goto(t);
    }
    assert_eq!(timeline.checkpoint_steps(), steps);
}

#[test]
fn a_watched_packets_route_is_the_same_after_going_back_and_forth() {
    let case = &CASES[0];
    let mut timeline = Timeline::new(simulation(case, 2));
    timeline.goto(6);
    timeline.watch(Some(9)).unwrap();
    let at6 = timeline.current().trail().to_vec();
    timeline.goto(12);
    let at12 = timeline.current().trail().to_vec();
    timeline.goto(4);
    timeline.goto(6);
    assert_eq!(timeline.current().trail(), &at6[..]);
    timeline.goto(12);
    assert_eq!(timeline.current().trail(), &at12[..]);
    // Watching while behind the furthest step, then going forward.
    timeline.goto(2);
    timeline.watch(Some(9)).unwrap();
    timeline.goto(12);
    assert_eq!(timeline.current().trail(), &at12[..]);
    // The same as watching in a fresh run.
    let mut sim = simulation(case, 2);
    sim.run_steps(12);
    sim.watch(Some(9)).unwrap();
    assert_eq!(sim.trail(), &at12[..]);
}

/// A move of the view.
#[derive(Debug, Clone)]
enum Move {
    Goto(u32),
    Step(u32),
    Back,
}

fn moves() -> impl Strategy<Value = Vec<Move>> {
    prop::collection::vec(
        prop_oneof![
            4 => (0u32..400).prop_map(Move::Goto),
            2 => (1u32..40).prop_map(Move::Step),
            1 => Just(Move::Back),
        ],
        1..12,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Any sequence of gotos, steps and steps back ends in the state a fresh
    /// run shows at the final step.
    #[test]
    fn any_sequence_of_moves_shows_the_fresh_state(
        case in 0usize..CASES.len(),
        seed in 1u64..4,
        most in prop_oneof![Just(MAX_CHECKPOINTS), 2usize..6],
        moves in moves(),
    ) {
        let case = &CASES[case];
        let end = length(case, seed);
        let mut timeline = Timeline::with_max_checkpoints(simulation(case, seed), most);
        let mut expected = 0u32;
        for m in &moves {
            let shown = match *m {
                Move::Goto(t) => timeline.goto(t),
                Move::Step(n) => {
                    timeline.step(n);
                    timeline.step_count()
                }
                Move::Back => timeline.step_back(),
            };
            expected = match *m {
                Move::Goto(t) => t,
                Move::Step(n) => expected + n,
                Move::Back => expected.saturating_sub(1),
            };
            // Past the end the view stops at the end.
            expected = expected.min(end);
            prop_assert_eq!(shown, expected);
            prop_assert!(timeline.furthest() >= shown);
            prop_assert!(timeline.checkpoint_steps().len() <= most);
        }
        prop_assert_eq!(state(timeline.current()), fresh(case, seed, expected));
    }
}

#[test]
fn a_run_too_large_for_32_copies_keeps_fewer_checkpoints() {
    // A 512×512 permutation: 262,144 packets, tens of MB a copy.
    let topo: Topology = "mesh:512x512".parse().unwrap();
    let instance = generate(&topo, &WorkloadSpec::new(Workload::RandomPermutation, 1)).unwrap();
    let sim = Simulation::new(instance, SimConfig::default()).unwrap();
    let copy = copy_bytes(&sim);
    assert!(copy >= 262_144 * 64, "{copy} bytes a copy");
    let mut timeline = Timeline::new(sim);
    let most = timeline.max_checkpoints();
    assert!((2..MAX_CHECKPOINTS).contains(&most), "{most} checkpoints");
    assert!(most * copy <= CHECKPOINT_BUDGET);
    timeline.run_steps(60);
    assert!(timeline.checkpoint_steps().len() <= most);
    timeline.goto(17);
    assert_eq!(timeline.step_count(), 17);
}

/// A copy counts the algorithm's own state where it is large: lmrr's
/// schedulers (edge queues, ghosts and EOS for every logical edge) outweigh
/// the engine on hypercube:14, and its checkpoints are kept within their
/// budget by them (without them lmrr on hypercube:16 kept 32 checkpoints
/// and the page grew to 1.1 GiB of wasm memory; 2026-12-01).
#[test]
fn lmrr_s_schedulers_count_in_a_copy() {
    let topo: Topology = "hypercube:14".parse().unwrap();
    let instance = generate(&topo, &WorkloadSpec::new(Workload::RandomPermutation, 1)).unwrap();
    let config = SimConfig {
        algorithm: "lmrr".into(),
        ..SimConfig::default()
    };
    let sim = Simulation::new(instance, config).unwrap();
    let state = sim.algorithm_copy_bytes();
    // 15 levels of 2^14 logical nodes, two edges out of each but the last
    // level's, an edge queue of q = 2 packet ids on every edge at least.
    let edges = 14 * (1usize << 14) * 2;
    assert!(state >= edges * 2 * 4, "{state} bytes of scheduler state");
    let copy = copy_bytes(&sim);
    assert!(copy >= state && copy - state < state, "{copy} against {state}");
    let mut timeline = Timeline::new(sim);
    let most = timeline.max_checkpoints();
    assert!(
        most < MAX_CHECKPOINTS && most * copy <= CHECKPOINT_BUDGET,
        "{most} checkpoints of {copy} bytes"
    );
    assert_eq!(timeline.run_steps(u32::MAX), Status::Finished);
    assert!(timeline.checkpoint_steps().len() <= most);
}

/// pp-rand on mesh:4x4, (ℓ, k) = (1, 3), seed 1: its final tour finds every
/// packet home, and delivers the last ones where they stand.
const HOME_AT_THE_END: Case = Case {
    topology: "mesh:4x4",
    workload: Workload::RandomLk,
    lk: Some((1, 3)),
    algorithm: "pp-rand",
    policy: Policy::FarthestFirst,
};

/// A run whose last packets are delivered where they stand (pp-rand on
/// mesh:4x4: its tour finds every packet home) ends with the step that
/// brought them there: no empty step follows, so the shown last step is
/// the report's `steps`, played to, measured or gone back to, and the
/// state there is finished.
#[test]
fn a_run_that_ends_where_its_packets_stand_shows_no_step_after_its_steps() {
    let case = HOME_AT_THE_END;
    let mut sim = simulation(&case, 1);
    assert_eq!(sim.run(), Status::Finished);
    let steps = sim.report().steps;
    assert_eq!(
        sim.engine().step_count(),
        steps,
        "an empty step was simulated after the run's end"
    );
    // The tour had nothing to move: the run's last packets were handed
    // over where they stood, as the step that brought them home ended
    // (`Algorithm::hand_over`), so that step's call finishes the run.
    let mut probe = simulation(&case, 1);
    probe.run_steps(steps - 1);
    let before = probe.engine().delivered();
    let summary = probe.step();
    assert_eq!(probe.status(), Status::Finished);
    assert_eq!(probe.engine().step_count(), steps);
    assert!(
        probe.engine().delivered() - before > summary.packet_moves,
        "not the case meant: the last step delivered its packets by moving them"
    );
    let mut timeline = Timeline::new(simulation(&case, 1));
    assert_eq!(timeline.measure(10_000), Some(steps));
    assert_eq!(timeline.step(10_000), Status::Finished);
    assert_eq!(timeline.step_count(), steps);
    assert_eq!(timeline.length(), (steps, true));
    assert_eq!(timeline.goto(10), 10);
    assert_eq!(timeline.goto(steps + 5), steps);
    assert_eq!(timeline.current().status(), Status::Finished);
    assert_eq!(timeline.step_back(), steps - 1);
    assert_eq!(timeline.current().status(), Status::Running);
    timeline.goto(steps);
    assert_eq!(
        (timeline.step_count(), timeline.current().status()),
        (steps, Status::Finished)
    );
    assert_eq!(state(timeline.current()), state(&sim));
}

/// The same run played one step at a time once its length is measured
/// (the page measures first): its last step shows every packet delivered
/// and the run finished — not 12 of 16 delivered and running until one more
/// call.
#[test]
fn the_last_step_played_shows_every_delivery_of_that_step() {
    let case = HOME_AT_THE_END;
    let mut sim = simulation(&case, 1);
    sim.run();
    let steps = sim.report().steps;
    let mut timeline = Timeline::new(simulation(&case, 1));
    assert_eq!(timeline.measure(10_000), Some(steps));
    timeline.goto(steps - 2);
    timeline.step(1);
    assert_eq!(timeline.current().status(), Status::Running);
    timeline.step(1);
    assert_eq!(timeline.step_count(), steps);
    assert_eq!(timeline.current().status(), Status::Finished);
    assert_eq!(
        timeline.current().engine().delivered(),
        timeline.current().engine().packet_count()
    );
    // The chart's series say the same at that step: nothing in flight, and
    // the largest queue the nodes hold now.
    let engine = timeline.current().engine();
    assert_eq!(
        engine.stats().in_flight.last(),
        Some(&0),
        "the chart still counts packets in flight at the end"
    );
    assert_eq!(
        engine.stats().queue_series.last().copied(),
        engine.working_queues().iter().copied().max()
    );
}

/// A step limit equal to the length of a run whose last packets are
/// delivered where they stand does not cut it off: the run ends with its
/// last step, finished and whole, as without the limit; one step less is
/// the limit hit, with packets still to deliver.
#[test]
fn a_step_limit_equal_to_the_run_lets_it_deliver_where_its_packets_stand() {
    let case = HOME_AT_THE_END;
    let mut free = simulation(&case, 1);
    free.run();
    let full = free.report();
    let mut limited = simulation_limited(&case, 1, full.steps);
    assert_eq!(limited.run(), Status::Finished, "the limit cut off a finished run");
    let report = limited.report();
    assert!(!report.hit_max_steps);
    assert_eq!((report.steps, report.delivered), (full.steps, full.delivered));
    assert_eq!(limited.engine().step_count(), full.steps);
    let mut short = simulation_limited(&case, 1, full.steps - 1);
    assert_eq!(short.run(), Status::StepLimit);
    let report = short.report();
    assert!(report.hit_max_steps);
    assert!(report.delivered < full.delivered);
}

/// A run whose last packets are handed over where they stand (pp's final
/// tour finds them home) ends in a call that simulates no step. On a first
/// pass, before the run's length is known, going to its last step or
/// stepping onto it shows it finished, once — an audit saw `goto(126)`
/// show "1 / 64, running" and stepping show step 126 twice.
#[test]
fn a_first_pass_shows_a_handed_over_last_step_once_and_finished() {
    let spec = |seed: &str| {
        crate::common::spec_of(
            "mesh:8x8",
            "pp-det",
            "random-lk",
            &[
                (routesim::Field::L, "3"),
                (routesim::Field::K, "1"),
                (routesim::Field::Seed, seed),
            ],
        )
    };
    let mut checked = 0;
    for seed in ["1", "2", "3", "4"] {
        let mut whole = spec(seed).build().unwrap();
        assert_eq!(whole.run(), Status::Finished);
        let steps = whole.report().steps;
        // Going straight there.
        let mut t = Timeline::new(spec(seed).build().unwrap());
        assert_eq!(t.goto(steps), steps);
        assert_eq!(t.current().status(), Status::Finished, "seed {seed}: goto({steps})");
        assert_eq!(t.current().summary().delivered, u64::from(whole.report().delivered));
        // Stepping there one step at a time: every step shown once.
        let mut t = Timeline::new(spec(seed).build().unwrap());
        let mut shown = vec![0u32];
        while t.current().status() == Status::Running {
            t.step(1);
            shown.push(t.step_count());
        }
        let expected: Vec<u32> = (0..=steps).collect();
        assert_eq!(shown, expected, "seed {seed}");
        checked += 1;
    }
    assert_eq!(checked, 4);
}

/// What a run shows after S steps — the page's step S, a timeline stepped
/// S times — is what `run --max-steps S` reports, for every S up to the
/// run's end: the limit does not run the next step's preparation, which
/// counted what it schedules for a step never taken (lmrr on mesh:8x8,
/// seed 2, reported 3 ghosts and 2 end-of-stream markers at `--max-steps
/// 1`, where one ghost had crossed a link), nor a sort's handover that
/// the state at S does not hold yet; a run whose last packets are handed
/// over where they stand still ends at its `steps`.
#[test]
fn a_state_stepped_s_times_is_what_max_steps_s_reports() {
    use routesim::Field::{Seed, K, L};
    type Run = (
        &'static str,
        &'static str,
        &'static str,
        &'static [(routesim::Field, &'static str)],
    );
    let runs: [Run; 9] = [
        ("mesh:8x8", "lmrr", "random-permutation", &[(Seed, "2")]),
        ("butterfly:4", "lmrr", "random-permutation", &[(Seed, "1")]),
        ("mesh:4x4", "sort-route", "random-permutation", &[(Seed, "1")]),
        ("mesh:8x8", "pp-rand", "random-lk", &[(Seed, "1"), (L, "2"), (K, "2")]),
        ("mesh:8x8", "pp-det", "random-lk", &[(Seed, "1"), (L, "3"), (K, "1")]),
        ("mesh:4x4", "pp-rand", "random-lk", &[(Seed, "1"), (L, "1"), (K, "3")]),
        ("butterfly:3", "flashsort", "sort-random", &[(Seed, "1")]),
        ("hypercube:4", "bitonic", "sort-reversed", &[(Seed, "1")]),
        ("torus:5x5", "valiant", "transpose", &[(Seed, "1")]),
    ];
    for (topology, algorithm, workload, extra) in runs {
        let spec = |max_steps: Option<u32>| {
            let steps = max_steps.map(|s| s.to_string());
            let mut fields: Vec<(routesim::Field, &str)> = extra.to_vec();
            if let Some(s) = steps.as_deref() {
                fields.push((routesim::Field::MaxSteps, s));
            }
            crate::common::sim_of(topology, algorithm, workload, &fields)
        };
        let mut whole = spec(None);
        assert_eq!(whole.run(), Status::Finished, "{algorithm} on {topology}");
        let steps = whole.report().steps;
        // The page's way: a timeline stepped one step at a time.
        let mut stepped = Timeline::new(spec(None));
        for s in 0..=steps {
            let mut limited = spec(Some(s));
            let end = limited.run();
            assert_eq!(end == Status::Finished, s == steps, "{algorithm} on {topology} at {s}");
            let mut expected = limited.report();
            let mut shown = stepped.current().report();
            // Only the limit's own flag differs: the stepped state has none.
            expected.hit_max_steps = false;
            shown.hit_max_steps = false;
            assert_eq!(
                serde_json::to_string(&shown).unwrap(),
                serde_json::to_string(&expected).unwrap(),
                "{algorithm} on {topology}: the state after {s} steps"
            );
            assert_eq!(
                stepped.current().summary().phase,
                limited.summary().phase,
                "{algorithm} on {topology} at {s}"
            );
            stepped.step(1);
        }
    }
}
