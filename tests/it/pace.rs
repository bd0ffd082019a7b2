//! The page's pace and "predict, then watch" (issue #25): the speed rule
//! (a run plays in about 20–40 s whatever its length, `timeline::speed_for`
//! and `Pace`), computing ahead without moving the shown step, the next
//! phase's first step, and a prediction set beside the measured value
//! (`lessons::Predict::result`).

use routesim::lessons::{self, Guess, LESSONS};
use routesim::request::{Field, RunSpec};
use routesim::timeline::{speed_for, Pace, MIN_SPEED, PLAY_SECONDS};
use routesim::{Simulation, Status, Timeline};

fn run(topology: &str, workload: &str, algorithm: &str, k: Option<&str>) -> Simulation {
    let mut fields = vec![
        (Field::Topology, "topology", topology),
        (Field::Workload, "workload", workload),
        (Field::Algorithm, "algorithm", algorithm),
    ];
    if let Some(k) = k {
        fields.push((Field::K, "k", k));
    }
    RunSpec::default().apply(fields).unwrap().build().unwrap()
}

fn length(mut sim: Simulation) -> u32 {
    assert_eq!(sim.run(), Status::Finished);
    sim.report().steps
}

#[test]
fn the_speed_plays_any_run_of_four_steps_or_more_in_20_to_40_s() {
    assert_eq!(speed_for(15, 30), 0.5);
    assert_eq!(speed_for(174, 30), 5.8);
    assert_eq!(speed_for(2443, 30), 81.0);
    assert_eq!(speed_for(14, 30), 0.47);
    assert_eq!(speed_for(0, 30), MIN_SPEED);
    assert_eq!(speed_for(3, 30), MIN_SPEED);
    for seconds in [22, 25, 30, 38] {
        for steps in 4..=30_000 {
            let t = f64::from(steps) / speed_for(steps, seconds);
            assert!((20.0..=40.0).contains(&t), "{steps} steps in {t} s ({seconds} s asked)");
            if f64::from(steps) / f64::from(seconds) >= MIN_SPEED {
                let off = (t / f64::from(seconds) - 1.0).abs();
                assert!(off <= 0.05 + 1e-9, "{steps} steps: {t} s for {seconds}");
            }
        }
    }
}

#[test]
fn the_pace_is_estimated_from_the_lower_bound_then_read_from_the_computed_run() {
    for (topology, workload, algorithm, k) in [
        ("mesh:8x8", "random-permutation", "greedy", None),
        ("mesh:32x32", "point-reflection", "ks-nowrap", Some("8")),
        ("torus:32x32", "point-reflection", "ks-nowrap", Some("8")),
    ] {
        let sim = run(topology, workload, algorithm, k);
        let best = sim.bounds().best;
        let steps = length(sim.clone());
        let mut t = Timeline::new(sim);
        let before = Pace::of(&[&t], PLAY_SECONDS);
        assert!(
            !before.known && before.steps == best && before.steps <= steps,
            "{topology}: {before:?}"
        );
        assert_eq!(t.measure(5), None);
        assert_eq!(
            (t.furthest(), t.step_count()),
            (0, 0),
            "measuring leaves the shown and furthest steps"
        );
        assert_eq!(t.measure(u32::MAX), Some(steps));
        let after = Pace::of(&[&t], PLAY_SECONDS);
        assert_eq!((after.steps, after.known, t.furthest()), (steps, true, 0));
        assert_eq!(after.speed, speed_for(steps, PLAY_SECONDS));
        let seconds = f64::from(steps) / after.speed;
        assert!((20.0..=40.0).contains(&seconds), "{topology} {algorithm}: {seconds} s");
    }
}

#[test]
fn two_runs_beside_each_other_are_paced_by_the_longer() {
    let a = run("mesh:16x16", "greedy-worst", "greedy", None);
    let b = run("mesh:16x16", "greedy-worst", "offline", None);
    let (la, lb) = (length(a.clone()), length(b.clone()));
    let (mut ta, mut tb) = (Timeline::new(a), Timeline::new(b));
    ta.measure(u32::MAX);
    assert!(!Pace::of(&[&ta, &tb], 30).known, "the second run is not measured yet");
    tb.run_steps(u32::MAX);
    let pace = Pace::of(&[&ta, &tb], 25);
    assert_eq!((pace.steps, pace.known, pace.seconds), (la.max(lb), true, 25));
}

#[test]
fn measuring_changes_nothing_the_timeline_shows() {
    let sim = run("mesh:8x8", "random-lk", "pp-rand", Some("2"));
    let mut plain = Timeline::with_max_checkpoints(sim.clone(), 4);
    let mut measured = Timeline::with_max_checkpoints(sim, 4);
    let report = |t: &Timeline| serde_json::to_string(&t.current().report()).unwrap();
    let mut length = None;
    loop {
        assert_eq!(report(&plain), report(&measured), "step {}", plain.step_count());
        assert_eq!(plain.furthest(), measured.furthest());
        assert_eq!(plain.checkpoint_steps(), measured.checkpoint_steps());
        length = length.or(measured.measure(7));
        let status = plain.step(1);
        measured.step(1);
        if plain.step_count().is_multiple_of(11) {
            measured.goto(plain.step_count() - 3);
            measured.goto(plain.step_count());
        }
        if status != Status::Running {
            break;
        }
    }
    assert_eq!(report(&plain), report(&measured));
    assert_eq!(length, Some(plain.furthest()));
    assert_eq!(measured.length(), (plain.furthest(), true));
}

#[test]
fn next_phase_step_is_the_first_step_of_the_next_phase() {
    let mut t = Timeline::new(run("mesh:16x16", "point-reflection", "ks-nowrap", Some("2")));
    assert_eq!(t.next_phase_step(), None, "no later phase computed yet");
    t.measure(u32::MAX);
    assert_eq!(t.furthest(), 0);
    let mut seen = vec![];
    while let Some(step) = t.next_phase_step() {
        assert!(step > t.step_count());
        t.goto(step);
        seen.push((step, t.current().summary().phase));
    }
    t.run_steps(u32::MAX);
    let phases = t.phases();
    assert!(phases.len() >= 3, "{phases:?}");
    let firsts: Vec<(u32, String)> = phases.iter().skip(1).map(|p| (p.start() + 1, p.name.clone())).collect();
    assert_eq!(
        seen, firsts,
        "each press shows the next phase's first step, named as that phase"
    );
    // The boundaries are the sums of the report's phase steps.
    let report = t.furthest_state().report();
    let mut sum = 0;
    for (phase, (first, _)) in report.phases.iter().zip(firsts) {
        sum += phase.steps;
        assert_eq!(first, sum + 1);
    }
    t.goto(firsts_last(&t));
    assert_eq!(t.next_phase_step(), None, "no phase after the last");
}

fn firsts_last(t: &Timeline) -> u32 {
    t.phases().last().unwrap().start() + 1
}

#[test]
fn a_prediction_is_set_beside_the_measured_value() {
    let predicting: Vec<&str> = LESSONS.iter().filter(|l| l.predict.is_some()).map(|l| l.id).collect();
    assert!(predicting.len() >= 3, "{predicting:?}");
    let lesson = lessons::lookup("greedy-worst").unwrap();
    let predict = lesson.predict.unwrap();
    assert_eq!(predict.measure, Guess::MaxQueue);
    let mut sim = lesson.spec(RunSpec::default()).unwrap().build().unwrap();
    let early = predict.result("7", &sim).unwrap();
    assert!(!early.over && early.text.contains("so far"), "{}", early.text);
    sim.run();
    let measured = sim.report().max_queue;
    assert_eq!(measured, 9);
    let r = predict.result(" 12 ", &sim).unwrap();
    assert_eq!((r.guess, r.measured, r.difference, r.over), (12.0, 9, 3.0, true));
    assert!((r.ratio.unwrap() - 12.0 / 9.0).abs() < 1e-12);
    assert_eq!(
        r.text,
        "your guess 12 · measured 9 packets: 3 too high (guess ÷ measured = 1.33)"
    );
    let low = predict.result("4.5", &sim).unwrap();
    assert_eq!(low.difference, -4.5);
    assert_eq!(
        low.text,
        "your guess 4.50 · measured 9 packets: 4.50 too low (guess ÷ measured = 0.50)"
    );
    assert!(predict.result("9", &sim).unwrap().text.contains("exactly right"));
    for bad in ["abc", "", "-3", "NaN", "inf", "1e999"] {
        let e = predict.result(bad, &sim).unwrap_err().to_string();
        assert!(e.contains("predict") && e.contains("number of packets"), "{bad}: {e}");
    }
    // A prediction of steps reads the run's length.
    let lesson = lessons::lookup("lemma2-linear").unwrap();
    let mut sim = lesson.spec(RunSpec::default()).unwrap().build().unwrap();
    sim.run();
    let r = lesson.predict.unwrap().result("10", &sim).unwrap();
    assert_eq!(r.measured, sim.report().steps);
    assert_eq!(r.difference, 10.0 - f64::from(r.measured));
}

/// The compare view's shared counters (issue #24: the core answers the
/// pair's shown step and status): the later of the two steps; running
/// while either runs; once both have ended, the main run's status.
#[test]
fn a_compare_pair_shows_the_later_step_and_runs_while_either_does() {
    use routesim::simulation::pair;
    let mut fast = crate::common::sim_of("mesh:8x8", "greedy", "transpose", &[]);
    let mut slow = crate::common::sim_of("mesh:8x8", "offline", "transpose", &[]);
    assert_eq!(pair(&fast, &slow), (0, routesim::Status::Running));
    fast.run();
    let ended = fast.engine().step_count();
    assert_eq!(fast.status(), routesim::Status::Finished);
    // The slow run is still at step 0: the pair is at the fast run's step and still runs.
    assert_eq!(pair(&fast, &slow), (ended, routesim::Status::Running));
    slow.run();
    let (step, status) = pair(&fast, &slow);
    assert_eq!(step, ended.max(slow.engine().step_count()));
    assert!(
        slow.engine().step_count() > fast.engine().step_count(),
        "offline is slower on transpose"
    );
    assert_eq!(status, routesim::Status::Finished);
    // Both ended: the main run's status, whichever is first.
    assert_eq!(pair(&slow, &fast).1, slow.status());
}
