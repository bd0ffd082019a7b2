//! The words that reach the student (issue 25, problem 10): the registry's
//! teaching (descriptions, phases, classes, claims), the lessons, and the
//! explain panel's lines and terms on real runs say "node", not "PU"; name
//! an option as the page shows it (its name in the Options box), never in
//! the CLI's `--option` syntax; never speak of a hypercube on a butterfly;
//! and every phase an algorithm reports has a description.

use routesim::algorithms::{Entry, REGISTRY};
use routesim::explain;
use routesim::lessons::{self, LESSONS};
use routesim::options::Control;
use routesim::request::{Field, RunSpec};
use routesim::Simulation;

/// Every string inside a JSON value.
fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
    match value {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(o) => o.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

fn texts_of(value: impl serde::Serialize) -> Vec<String> {
    let mut out = Vec::new();
    strings(&serde_json::to_value(value).expect("serializes"), &mut out);
    out
}

/// The student-facing faults of one text, if any.
fn faults(text: &str, on_butterfly: bool) -> Vec<&'static str> {
    let mut out = Vec::new();
    let words: Vec<&str> = text
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.iter().any(|w| *w == "PU" || *w == "PUs") {
        out.push("says PU (processing unit) where the page says node");
    }
    let bytes = text.as_bytes();
    if bytes
        .windows(3)
        .any(|w| w[0] == b'-' && w[1] == b'-' && w[2].is_ascii_alphabetic())
    {
        out.push("names an option in the CLI's --option syntax");
    }
    if one_with_a_plural(text) {
        out.push("counts one of something in the plural (\"1 steps\")");
    }
    if on_butterfly && text.to_lowercase().contains("hypercube") {
        out.push("speaks of a hypercube on a butterfly");
    }
    out
}

/// "1 steps", "1 packets": a count of exactly one before a plural noun
/// (not "21 steps", "0.1 steps", "1,001 steps" or a formula's "n − 1 steps").
fn one_with_a_plural(text: &str) -> bool {
    const PLURALS: &[&str] = &[
        "steps",
        "packets",
        "nodes",
        "phases",
        "rounds",
        "hops",
        "keys",
        "links",
        "levels",
        "queues",
        "times",
        "messages",
        "copies",
        "splitters",
        "candidates",
        "ghosts",
        "runs",
        "passes",
    ];
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let operand = |t: &str| ["−", "-", "+", "·", "×", "/"].contains(&t);
    tokens.windows(2).enumerate().any(|(i, w)| {
        let after_operator = i > 0 && operand(tokens[i - 1]);
        // "(1 steps" counts one; "§1 steps" (a section) and "−1" do not.
        let count = w[0].trim_start_matches('(');
        let noun = w[1].trim_end_matches(|c: char| !c.is_alphanumeric());
        count == "1" && !after_operator && PLURALS.contains(&noun)
    })
}

fn check(texts: &[String], on_butterfly: bool, whose: &str, bad: &mut Vec<String>) {
    for t in texts {
        for f in faults(t, on_butterfly) {
            bad.push(format!("{whose}: {f}: {t:?}"));
        }
    }
}

/// The runs an algorithm can make on small networks: each (network,
/// workload) it accepts, plain and with each value of each option it
/// takes (a flag on, every menu value, every word of a number box).
fn small_runs(entry: &'static Entry) -> Vec<(String, RunSpec)> {
    const PLACES: &[(&str, &str, Option<&str>)] = &[
        ("mesh:8x8", "random-permutation", None),
        ("linear:2", "random-permutation", None),
        ("mesh:2x2", "random-permutation", None),
        ("hypercube:1", "random-permutation", None),
        ("butterfly:1", "sort-random", None),
        ("mesh:8x8", "random-kk", Some("2")),
        ("torus:8x8", "random-kk", Some("2")),
        ("linear:8", "random-permutation", None),
        ("ring:8", "random-permutation", None),
        ("hypercube:4", "random-permutation", None),
        ("butterfly:3", "random-permutation", None),
        ("hypercube:4", "sort-random", None),
        ("mesh:8x8", "sort-random", None),
        ("butterfly:3", "sort-random", None),
        ("shuffle-exchange:4", "sort-random", None),
        ("butterfly:6", "sort-random", None),
    ];
    let mut variants: Vec<Vec<(Field, &'static str)>> = vec![Vec::new()];
    for &field in entry.options {
        match field.info().control {
            Some(Control::Flag) => variants.push(vec![(field, "true")]),
            Some(Control::Choice { values }) => variants.extend(values.iter().skip(1).map(|v| vec![(field, *v)])),
            Some(Control::Number { words, .. }) => variants.extend(words.iter().map(|w| vec![(field, *w)])),
            None => {}
        }
    }
    let mut out = Vec::new();
    for &(topology, workload, k) in PLACES {
        for variant in &variants {
            let mut fields = vec![
                (Field::Topology, topology),
                (Field::Algorithm, entry.name),
                (Field::Workload, workload),
            ];
            if let Some(k) = k {
                fields.push((Field::K, k));
            }
            fields.extend(variant.iter().copied());
            let Ok(spec) = RunSpec::default().apply(fields.iter().map(|&(f, t)| (f, f.cli(), t))) else {
                continue;
            };
            if spec.build().is_ok() {
                let name = format!("{} on {topology} {workload} {variant:?}", entry.name);
                out.push((name, spec));
            }
        }
    }
    out
}

#[test]
fn the_registry_and_the_lessons_say_node_and_name_options_as_the_page_does() {
    let mut bad = Vec::new();
    for entry in REGISTRY {
        check(&texts_of(entry), false, entry.name, &mut bad);
    }
    for lesson in LESSONS.iter().chain([lessons::lookup("intro").unwrap()]) {
        check(&texts_of(lesson), false, lesson.id, &mut bad);
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_explain_panel_says_node_names_options_as_the_page_does_and_no_hypercube_on_a_butterfly() {
    let mut bad = Vec::new();
    for entry in REGISTRY {
        for (name, spec) in small_runs(entry) {
            let mut sim: Simulation = spec.build().unwrap();
            check(&texts_of(explain::explain_run(&sim)), false, &name, &mut bad);
            sim.run();
            let e = explain::explain_run(&sim);
            check(&texts_of(&e), false, &name, &mut bad);
            // What the run does, in words (the description and the phases;
            // a claim may say it is stated for a hypercube, and so not here).
            if name.contains(" on butterfly:") {
                let mut words = vec![e.description.to_string()];
                words.extend(sim.report().phases.iter().map(|p| explain::phase_words(entry, &p.name)));
                check(&words, true, &name, &mut bad);
            }
        }
    }
    for lesson in LESSONS {
        let spec = lesson.spec(RunSpec::default()).unwrap();
        let mut sim = spec.build().unwrap();
        let view = explain::explain(&sim, None, Some(lesson));
        check(&texts_of(&view), false, lesson.id, &mut bad);
        sim.run();
        let view = explain::explain(&sim, None, Some(lesson));
        check(&texts_of(&view), false, lesson.id, &mut bad);
    }
    bad.dedup();
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn every_phase_an_algorithm_reports_has_a_description() {
    let mut missing = Vec::new();
    let mut seen = 0;
    for entry in REGISTRY {
        let runs = small_runs(entry);
        assert!(!runs.is_empty(), "{}: no small run to read its phases from", entry.name);
        for (name, spec) in runs {
            let mut sim = spec.build().unwrap();
            sim.run();
            for phase in sim.report().phases {
                seen += 1;
                if explain::phase_words(entry, &phase.name).trim().is_empty() {
                    missing.push(format!("{name}: phase {:?}", phase.name));
                }
            }
        }
    }
    missing.sort();
    missing.dedup();
    assert!(seen > 0);
    assert!(
        missing.is_empty(),
        "phases without a description:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_smear_phases_are_described() {
    let entry = routesim::algorithms::lookup("ks-nowrap").unwrap();
    for name in ["smear1", "smear2"] {
        let text = explain::phase_words(entry, name);
        assert!(text.contains("smear"), "{name}: {text:?}");
    }
}

/// LevelRoute's passes randomize one level each (`pass2-randomize`); only
/// the improved version's `randomize` moves the levels together. A pass's
/// phase is described as a pass's, not as the same-named phase outside the
/// passes (the explain panel strips `passN-`).
#[test]
fn a_pass_of_level_route_is_described_as_one_levels_randomization() {
    let entry = routesim::algorithms::lookup("ks-level").unwrap();
    let pass = explain::phase_words(entry, "pass2-randomize");
    assert!(pass.starts_with("pass 2 — "), "{pass:?}");
    assert!(pass.contains("this pass's level"), "{pass:?}");
    assert!(!pass.contains("together"), "{pass:?}");
    let improved = explain::phase_words(entry, "randomize");
    assert!(improved.contains("improved version"), "{improved:?}");
    // A pass's route has no text of its own: the shared one.
    let route = explain::phase_words(entry, "pass3-route");
    assert_eq!(route, format!("pass 3 — {}", explain::phase_words(entry, "route")));
}

/// The marks the core names (`Simulation::marks`, which the page's legend
/// shows by name) are exactly the legend's `data-mark` entries in
/// www/index.html: a mark named differently would be drawn with no legend
/// entry, and an entry no mark names would never show.
#[test]
fn the_marks_the_core_names_are_the_legends_entries() {
    use routesim::algorithms::Mark;
    let html = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/www/index.html")).unwrap();
    let mut legend: Vec<&str> = html
        .split("data-mark=\"")
        .skip(1)
        .map(|rest| &rest[..rest.find('"').unwrap()])
        .collect();
    legend.sort_unstable();
    let mut named: Vec<&str> = [Mark::Ghost, Mark::EndOfStream, Mark::EdgeQueue]
        .iter()
        .map(|m| m.name())
        .collect();
    named.sort_unstable();
    assert_eq!(named, legend);
    // lmrr's runs name all three.
    let sim = crate::common::sim_of("butterfly:3", "lmrr", "random-permutation", &[]);
    let mut used: Vec<&str> = sim.marks().iter().map(|m| m.name()).collect();
    used.sort_unstable();
    assert_eq!(used, legend);
}
