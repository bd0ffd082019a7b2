//! The per-phase claims ([`Measure::PhaseSteps`], issue 28): a claim about
//! the report's phases its patterns name is pending while a named phase is
//! open (or more may come), not met as soon as one named phase exceeds an
//! upper bound, met once every named phase is over within it, and, when
//! asymptotic, measured on the longest named phase; a run without any named
//! phase (coalesced phases) is not judged.

use crate::common::sim_of as sim;
use routesim::algorithms::claim::{Claim, Formula, KsTheorem, Measure, Scope, Strength};
use routesim::explain::{judge_claim, Verdict};
use routesim::request::Field;
use routesim::{Simulation, Status};

const fn phase_claim(phases: &'static [&'static str], strength: Strength, formula: Formula) -> Claim {
    Claim {
        name: "a per-phase test claim",
        text: "the named phases each take at most so many steps",
        scope: Scope::Any,
        permutation: false,
        instance: None,
        separated: true,
        policy: None,
        measure: Measure::PhaseSteps(phases),
        strength,
        formula,
    }
}

static FIRST: Claim = phase_claim(&["phase1-randomize"], Strength::AtMost, Formula::Constant(1000));
static ROUTES: Claim = phase_claim(&["phase*-route"], Strength::AtMost, Formula::Constant(1000));
static TIGHT: Claim = phase_claim(&["phase1-randomize"], Strength::AtMost, Formula::Constant(3));
static ALL_BUT_FIRST_ROUTE: Claim = phase_claim(
    &["phase*-randomize", "phase*-route", "!^phase*-route"],
    Strength::PlusSqrtKnLogN,
    Formula::Ks(KsTheorem::Theorem2),
);

fn nowrap(extra: &[(Field, &str)]) -> Simulation {
    let mut fields = vec![(Field::K, "4"), (Field::Seed, "3")];
    fields.extend_from_slice(extra);
    sim("mesh:8x8", "ks-nowrap", "random-kk", &fields)
}

/// The phase the run is in.
fn phase(s: &Simulation) -> String {
    s.report().phases.last().map(|p| p.name.clone()).unwrap_or_default()
}

#[test]
fn a_named_phase_is_decided_when_it_is_over_and_a_pattern_when_the_run_is() {
    let mut s = nowrap(&[]);
    s.step();
    assert_eq!(phase(&s), "phase1-randomize");
    assert_eq!(judge_claim(&FIRST, &s).verdict, Verdict::Pending);
    let c = judge_claim(&ROUTES, &s);
    assert_eq!(c.verdict, Verdict::Pending);
    assert!(c.line.contains("phase…-route not yet begun"), "{}", c.line);
    while phase(&s) == "phase1-randomize" {
        s.step();
    }
    // phase1-randomize is over: its claim is met while the run goes on.
    let c = judge_claim(&FIRST, &s);
    assert_eq!(c.verdict, Verdict::Met, "{}", c.line);
    let first = s.report().phases[0].steps;
    assert_eq!(c.measured, Some(first as f64));
    assert!(
        c.line.contains(&format!("at most {first} steps (phase1-randomize")),
        "{}",
        c.line
    );
    while phase(&s) != "phase3-route" {
        s.step();
    }
    // phase2-route is over, but a later phase*-route may come: pending.
    assert_eq!(judge_claim(&ROUTES, &s).verdict, Verdict::Pending);
    assert_eq!(s.run(), Status::Finished);
    let r = s.report();
    let c = judge_claim(&ROUTES, &s);
    assert_eq!(c.verdict, Verdict::Met, "{}", c.line);
    let most = r.phases[1].steps.max(r.phases[2].steps);
    assert_eq!(c.measured, Some(most as f64));
    assert!(
        c.headline
            .starts_with("each of phase2-route, phase3-route: ≤ 1000 steps"),
        "{}",
        c.headline
    );
    assert!(
        c.what
            .starts_with("the steps of each of phase2-route, phase3-route stay within"),
        "{}",
        c.what
    );
}

#[test]
fn an_upper_bound_is_not_met_as_soon_as_a_named_phase_exceeds_it() {
    let mut s = nowrap(&[]);
    while s.report().phases.last().map_or(0, |p| p.steps) <= 3 {
        s.step();
    }
    // Still in phase 1, already 4 steps: exceeded, before the phase ends.
    assert_eq!(phase(&s), "phase1-randomize");
    let c = judge_claim(&TIGHT, &s);
    assert_eq!(c.verdict, Verdict::NotMet, "{}", c.line);
    assert!(
        c.line
            .contains("phase1-randomize has already taken 4 steps > 3 — exceeded ✗"),
        "{}",
        c.line
    );
}

#[test]
fn an_asymptotic_per_phase_claim_measures_the_longest_named_phase() {
    let mut s = nowrap(&[]);
    // The first routing phase (phase2-route) is left out by `!^phase*-route`.
    assert_eq!(s.run(), Status::Finished);
    let r = s.report();
    let c = judge_claim(&ALL_BUT_FIRST_ROUTE, &s);
    assert_eq!(c.verdict, Verdict::Measured, "{}", c.line);
    let most = r.phases[0].steps.max(r.phases[2].steps);
    assert_eq!(c.measured, Some(most as f64));
    assert!(
        c.headline.starts_with("each of phase1-randomize, phase3-route: "),
        "{}",
        c.headline
    );
    assert!(c.line.contains("·√(k·n·ln n)"), "{}", c.line);
    assert!(!c.line.contains('✓') && !c.line.contains('✗'), "{}", c.line);
}

#[test]
fn a_run_without_the_named_phases_is_not_judged() {
    let mut s = nowrap(&[(Field::Phases, "coalesced")]);
    s.run();
    // Coalesced: stated for separated phases.
    assert_eq!(judge_claim(&FIRST, &s).verdict, Verdict::NotApplicable);
    // A greedy run has one phase, `route`, which no pattern names.
    let mut g = sim("mesh:8x8", "greedy", "random-kk", &[(Field::K, "2")]);
    assert_eq!(judge_claim(&ROUTES, &g).verdict, Verdict::Pending);
    g.run();
    let c = judge_claim(&ROUTES, &g);
    assert_eq!(c.verdict, Verdict::NotApplicable);
    assert!(c.line.contains("this run has none of them"), "{}", c.line);
}

/// Flashsort's node-queue bounds (4q + λ, 2d·q + 2λ + 1) are the light
/// loading's: a full loading run says so, not a bare "not defined here".
#[test]
fn flashsorts_node_queue_claims_say_they_are_the_light_loadings() {
    let entry = routesim::algorithms::registry::lookup("flashsort").unwrap();
    for topology in ["butterfly:5", "mesh:8x8"] {
        let mut s = sim(topology, "flashsort", "sort-random", &[(Field::Loading, "full")]);
        s.run();
        let judged: Vec<_> = entry
            .teaching
            .claims
            .iter()
            .filter(|c| matches!(c.formula, Formula::FlashsortNodeQueue | Formula::FlashsortArrayQueue))
            .map(|c| judge_claim(c, &s))
            .filter(|c| c.verdict == Verdict::NotApplicable && c.line.contains("stated for the light loading"))
            .collect();
        assert!(!judged.is_empty(), "{topology}");
        assert!(judged.iter().all(|c| c.line.contains("loading is full")), "{topology}");
        // The light loading judges them.
        let mut light = sim(topology, "flashsort", "sort-random", &[]);
        light.run();
        let applies = entry
            .teaching
            .claims
            .iter()
            .filter(|c| matches!(c.formula, Formula::FlashsortNodeQueue | Formula::FlashsortArrayQueue))
            .any(|c| judge_claim(c, &light).verdict == Verdict::Met);
        assert!(applies, "{topology}: light loading");
    }
}
