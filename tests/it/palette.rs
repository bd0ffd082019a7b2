//! One palette per run (issue 25, problem 1): every packet class's colour
//! lies in its word's SPEC §7 hue range and stays apart from the queue heat
//! fill, the lit links and the control messages; every text that names a
//! packet colour names one of its run's classes, drawn in that colour. And
//! the first view's words (problem 7): the fixed points said, the lower
//! bound in plain words.

use routesim::algorithms::teaching::Classes;
use routesim::algorithms::REGISTRY;
use routesim::explain;
use routesim::lessons::{self, LESSONS};
use routesim::palette::{self, hsl, hue_word, words_in, CLASSES};
use routesim::request::RunSpec;
use routesim::Simulation;

/// `#rrggbb` as RGB bytes.
fn rgb(colour: &str) -> [f64; 3] {
    let h = colour.trim_start_matches('#');
    [0, 2, 4].map(|i| f64::from(u8::from_str_radix(&h[i..i + 2], 16).unwrap()))
}

fn distance(a: [f64; 3], b: [f64; 3]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f64>().sqrt()
}

/// The page's queue heat fill (www/render.js `heat`) at fraction `t` of the scale.
fn heat(t: f64) -> [f64; 3] {
    let r = if t > 0.85 { 215.0 } else { 255.0 };
    [r, (236.0 - 180.0 * t).round(), (170.0 - 150.0 * t).round()]
}

#[test]
fn every_class_colour_lies_in_its_words_hue_range() {
    for style in CLASSES {
        let words = words_in(style.word);
        assert!(words.len() <= 1, "{style:?}");
        // "sky blue" is a blue; "grey" or "teal" is no SPEC word, and its colour reads as none.
        assert_eq!(
            hue_word(style.colour),
            words.first().copied(),
            "{style:?} {:?}",
            hsl(style.colour)
        );
    }
    let mut colours: Vec<&str> = CLASSES.iter().map(|s| s.colour).collect();
    colours.sort();
    colours.dedup();
    assert_eq!(colours.len(), CLASSES.len(), "two classes share a colour");
    let shapes: Vec<&str> = CLASSES[..4].iter().map(|s| s.shape).collect();
    assert_eq!(shapes, ["circle", "square", "triangle", "diamond"]);
}

#[test]
fn class_colours_differ_from_the_heat_fill_lit_links_and_control_messages() {
    for style in CLASSES {
        let c = rgb(style.colour);
        // Not a hue of the heat fill (pale yellow → orange → red) nor the control messages' purple.
        assert!(
            !matches!(hue_word(style.colour), Some("red" | "orange" | "yellow" | "purple")),
            "{style:?}"
        );
        for i in 0..=20 {
            let t = f64::from(i) / 20.0;
            assert!(distance(c, heat(t)) > 90.0, "{style:?} is near the heat fill at {t}");
        }
        assert!(distance(c, rgb(palette::LIT)) > 60.0, "{style:?} is near the lit links");
        assert!(
            distance(c, rgb(palette::CONTROL)) > 90.0,
            "{style:?} is near the control messages"
        );
    }
    assert_eq!(heat(0.0), rgb(palette::HEAT[0]));
    assert_eq!(heat(1.0), rgb(palette::HEAT[1]));
    // The lit links read as no colour word (a dark slate), so no text's colour can mean them.
    assert_eq!(hue_word(palette::LIT), None);
}

/// The colour words a run's algorithm can draw: its classes' words.
fn class_words(classes: Classes, colours: u32) -> Vec<&'static str> {
    let n = match classes {
        Classes::Named(names) => names.len() as u32,
        Classes::Colours => colours,
    };
    (0..n).flat_map(|c| words_in(palette::word(c))).collect()
}

#[test]
fn every_algorithm_text_names_only_colours_its_classes_are_drawn_in() {
    for entry in REGISTRY {
        let t = entry.teaching;
        // The colour classes a 2-D run has (Kaufmann–Sibeyn: one per axis).
        let words = class_words(t.classes, 2);
        let mut texts = vec![entry.summary, t.description];
        texts.extend(t.phases.iter().map(|p| p.text));
        for text in texts {
            for w in words_in(text) {
                assert!(
                    words.contains(&w),
                    "{}: \"{w}\" is no class colour ({words:?}) in: {text}",
                    entry.name
                );
            }
        }
    }
    // The Kaufmann–Sibeyn texts name both of their colours, from the palette.
    let ks = REGISTRY.iter().find(|e| e.name == "ks-nowrap").unwrap();
    assert!(ks
        .teaching
        .description
        .contains(&format!("A {} packet", palette::word(0))));
    assert!(ks
        .teaching
        .description
        .contains(&format!("a {} packet", palette::word(1))));
}

fn lesson_runs(lesson: &'static lessons::Lesson) -> (Simulation, Option<Simulation>) {
    let spec = lesson.spec(RunSpec::default()).unwrap();
    let main = spec.build().unwrap();
    let other = lesson
        .preset
        .compare
        .map(|name| spec.beside(main.instance(), name).unwrap().build().unwrap());
    (main, other)
}

/// Every lesson (and the default view's intro), a few steps in: each colour
/// word of its text, its runs' descriptions and phases is the word of a
/// class the legend lists, whose colour reads as that word.
#[test]
fn every_lesson_names_only_colours_its_runs_draw() {
    for lesson in LESSONS.iter().chain([&lessons::INTRO]) {
        if lesson.preset.topology.starts_with("mesh:64") {
            continue; // pp-constant-queues: its text names no colour (checked below without running)
        }
        let (mut main, mut other) = lesson_runs(lesson);
        main.run_steps(3);
        if let Some(o) = other.as_mut() {
            o.run_steps(3);
        }
        let view = explain::explain(&main, other.as_ref(), Some(lesson));
        let runs: Vec<&explain::Explanation> = [Some(&view.main), view.compare.as_ref()]
            .into_iter()
            .flatten()
            .collect();
        let mut texts = vec![lesson.text.to_string()];
        for run in &runs {
            texts.push(run.description.to_string());
            if let Some(p) = &run.phase {
                texts.push(p.text.clone());
            }
            for c in &run.classes {
                assert_eq!(c.colour, palette::class(c.class).colour);
                assert!(c.label.starts_with(&format!("{}: ", c.word)), "{}", c.label);
            }
        }
        for text in &texts {
            for w in words_in(text) {
                let ok = runs
                    .iter()
                    .flat_map(|r| &r.classes)
                    .any(|c| words_in(c.word).contains(&w) && hue_word(c.colour) == Some(w));
                assert!(ok, "{}: \"{w}\" names no class drawn in it: {text}", lesson.id);
            }
        }
    }
    let pp = lessons::lookup("pp-constant-queues").unwrap();
    assert!(words_in(pp.text).is_empty(), "{}", pp.text);
}

#[test]
fn ks_wrap_torus_lists_both_colour_classes_in_its_legend() {
    let (mut main, _) = lesson_runs(lessons::lookup("ks-wrap-torus").unwrap());
    main.run_steps(20);
    let e = explain::explain_run(&main);
    let labels: Vec<&str> = e.classes.iter().map(|c| c.label.as_str()).collect();
    assert_eq!(labels, ["blue: colour class 0", "green: colour class 1"]);
    assert_eq!(e.classes[1].colour, palette::class(1).colour);
}

#[test]
fn the_legend_lists_only_the_classes_drawn() {
    // Offline at step 1: every packet still in its first phase.
    let spec = lessons::INTRO.spec(RunSpec::default()).unwrap();
    let mut main = spec.build().unwrap();
    let mut offline = spec.beside(main.instance(), "offline").unwrap().build().unwrap();
    offline.run_steps(1);
    let e = explain::explain_run(&offline);
    assert_eq!(e.classes.len(), 1, "{:?}", e.classes);
    assert!(e.classes[0].label.starts_with("blue: phase 1"), "{:?}", e.classes);
    main.run();
    // Once every packet is delivered, the run's classes.
    let e = explain::explain_run(&main);
    assert_eq!(e.classes.len(), 1);
}

#[test]
fn the_default_view_says_its_fixed_points_at_step_0() {
    let spec = lessons::INTRO.spec(RunSpec::default()).unwrap();
    let sim = spec.build().unwrap();
    let s = sim.summary();
    let fixed = sim.instance().packets.iter().filter(|(s, d)| s == d).count() as u32;
    assert!(fixed > 0);
    assert_eq!(s.fixed, fixed);
    assert_eq!(
        s.delivered,
        u64::from(fixed),
        "the fixed points count as delivered at step 0"
    );
    assert_eq!(s.fixed_note, format!("{fixed} start at their destination"));
    assert_eq!(routesim::simulation::fixed_note(1), "1 starts at its destination");
    assert_eq!(routesim::simulation::fixed_note(0), "");
}

#[test]
fn the_lower_bound_counter_speaks_plainly() {
    let spec = lessons::INTRO.spec(RunSpec::default()).unwrap();
    let mut sim = spec.build().unwrap();
    let best = sim.bounds().best;
    assert_eq!(
        sim.progress(None).text,
        format!("no algorithm can finish before step {best}")
    );
    sim.run();
    let steps = sim.report().steps;
    let ratio = f64::from(steps) / f64::from(best);
    assert_eq!(
        sim.progress(None).text,
        format!("{best} · greedy: {steps} steps = {ratio:.2} ×")
    );
    // Beside another run (the compare view): both, the one still going as such.
    let mut other = lessons::INTRO.spec(RunSpec::default()).unwrap();
    other.algorithm = routesim::algorithms::registry::lookup("offline").unwrap();
    let mut other = other.build().unwrap();
    other.run_steps(steps);
    assert_eq!(
        sim.progress(Some(&other)).text,
        format!("{best} · greedy: {steps} steps = {ratio:.2} × · offline: still running")
    );
    other.run();
    let (o, ratio_o) = (other.report().steps, f64::from(other.report().steps) / f64::from(best));
    assert_eq!(
        sim.progress(Some(&other)).text,
        format!("{best} · greedy: {steps} steps = {ratio:.2} × · offline: {o} steps = {ratio_o:.2} ×")
    );
    // The tooltip names the region bound only where a network has one.
    assert!(sim.progress(None).title.contains(", region "));
    // A run that stalled has ended too: the bound is the figure and the
    // run says how it ended, not that it goes on (an audit saw "no
    // algorithm can finish before step 7" beside "stalled").
    let mut stalled = crate::common::sim_of(
        "torus:8x8",
        "greedy",
        "random-permutation",
        &[(routesim::Field::QueueCap, "1"), (routesim::Field::Seed, "1")],
    );
    assert_eq!(stalled.run(), routesim::Status::Stalled);
    let best = stalled.bounds().best;
    assert_eq!(
        stalled.progress(None).text,
        format!("{best} · greedy: stalled, not every packet delivered")
    );
}

/// The colours of an edge colouring's matchings (the page's G_π panel):
/// `#rrggbb`, one per matching, all distinct up to 256 matchings (the
/// panel draws at most 64), and saturated enough to read on white.
#[test]
fn matching_colours_are_distinct_and_saturated() {
    for n in [1u32, 2, 3, 16, 64, 256] {
        let colours: Vec<String> = (0..n).map(|i| palette::matching_colour(i, n)).collect();
        let distinct: std::collections::HashSet<&String> = colours.iter().collect();
        assert_eq!(distinct.len(), n as usize, "{n}");
        for c in &colours {
            let (_, s, l) = hsl(c).unwrap_or_else(|| panic!("{c} is not #rrggbb"));
            assert!(s > 0.6 && (0.35..0.55).contains(&l), "{c}: s {s} l {l}");
        }
    }
}

/// A finished run's legend lists the classes its packets held, not every
/// class its algorithm names: lmrr on butterfly:3 listed rank quarter 4
/// for runs none of whose eight ranks fell in it (the views audit of
/// 2026-12-01). lmrr classes a butterfly's packets once, so their final
/// classes are the ones they held, with the class 0 of step 0.
#[test]
fn a_finished_run_lists_the_classes_its_packets_held() {
    use routesim::request::Field;
    let mut short = 0;
    for seed in 1..=20u64 {
        let seed = seed.to_string();
        let fields = [
            (Field::Topology, "topology", "butterfly:3"),
            (Field::Algorithm, "algorithm", "lmrr"),
            (Field::Workload, "workload", "random-permutation"),
            (Field::Seed, "seed", seed.as_str()),
        ];
        let mut sim = RunSpec::default().apply(fields).unwrap().build().unwrap();
        sim.run();
        // Class 0 too: every packet holds it at step 0, before lmrr's
        // first step draws the ranks (and the page draws it so there).
        let mut held: std::collections::BTreeSet<u32> = sim.engine().classes().iter().map(|&c| u32::from(c)).collect();
        held.insert(0);
        let listed: std::collections::BTreeSet<u32> =
            explain::explain_run(&sim).classes.iter().map(|c| c.class).collect();
        assert_eq!(listed, held, "seed {seed}");
        short += usize::from(held.len() < 4);
    }
    assert!(short > 0, "some run misses a quarter, or the test shows nothing");
}

/// Coloured by destination, an algorithm whose texts name packets by class
/// colour ("a blue packet", "green packets") keeps its classes on screen as
/// rims (SPEC §7's colour words): the explanation's `class_rims` is set for
/// every algorithm with more than one class and the key says so; an
/// algorithm of one class gets neither.
#[test]
fn classes_named_by_colour_keep_their_rims_when_coloured_by_destination() {
    use routesim::algorithms::Packets;
    let mut checked = 0;
    for entry in REGISTRY {
        let workload = match entry.packets {
            Packets::Sort => "sort-random",
            Packets::EvenK => "random-kk",
            _ => "random-permutation",
        };
        let k = if entry.packets == Packets::EvenK { "2" } else { "1" };
        let Some(sim) = crate::common::SMALL_NETWORKS
            .iter()
            .find_map(|t| crate::common::try_sim(t, entry.name, workload, &[(routesim::request::Field::K, k)]))
        else {
            continue;
        };
        checked += 1;
        let e = explain::explain_run(&sim);
        let several = class_words(entry.teaching.classes, 2).len() > 1;
        assert_eq!(e.class_rims, several, "{}", entry.name);
        assert_eq!(
            e.destination_key.contains("its rim is its class's colour"),
            several,
            "{}",
            entry.name
        );
        // Every colour word of the algorithm's texts is then a class's rim.
        let mut texts = vec![entry.summary, entry.teaching.description];
        texts.extend(entry.teaching.phases.iter().map(|p| p.text));
        if texts.iter().any(|t| !words_in(t).is_empty()) {
            assert!(
                e.class_rims,
                "{}: its texts name colours but no rims are drawn",
                entry.name
            );
        }
    }
    assert!(
        checked >= REGISTRY.len() - 2,
        "only {checked} of {} algorithms built",
        REGISTRY.len()
    );
    for name in ["ks-wrap", "valiant"] {
        let t = if name == "valiant" { "hypercube:4" } else { "torus:8x8" };
        let e = explain::explain_run(&crate::common::sim_of(t, name, "random-permutation", &[]));
        assert!(e.class_rims, "{name}");
    }
    assert!(!explain::explain_run(&crate::common::sim_of("mesh:8x8", "greedy", "random-permutation", &[])).class_rims);
}
