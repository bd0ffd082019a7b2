//! The run request and the registry (issue: one run request and one
//! registry for every front end): the same request gives the same report
//! through the CLI, the sweep and the JSON (wasm) parser; every algorithm
//! runs exactly where its registry entry says it does; bad values are named.

use crate::common::routesim;
use routesim::algorithms::{self, AlgorithmOptions, REGISTRY};
use routesim::engine::{Engine, EngineConfig, Policy};
use routesim::request::{Field, RunSpec};
use routesim::sweep::{Experiment, Grid, SweepLists, Vary};
use routesim::workload::{self, Workload, WorkloadSpec};
use serde_json::{json, Value};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// `(topology, algorithm, workload, policy, other fields by CLI name)`.
type Request = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

/// Requests that cover every front end's fields.
const REQUESTS: &[Request] = &[
    (
        "mesh:8x8",
        "pp-rand",
        "random-lk",
        "farthest-first",
        &[("l", "2"), ("k", "4"), ("seed", "3")],
    ),
    ("mesh:8x8", "pp-det", "worst-lk", "fifo", &[("l", "4"), ("k", "1")]),
    (
        "torus:6x6",
        "valiant",
        "transpose",
        "random",
        &[("seed", "9"), ("queue-cap", "3")],
    ),
    (
        "hypercube:5",
        "bit-fixing",
        "bit-reversal",
        "farthest-first",
        &[("reverse-order", "true")],
    ),
    (
        "mesh:8x8",
        "offline",
        "random-permutation",
        "farthest-first",
        &[("pipeline", "true")],
    ),
    (
        "mesh:12x12",
        "greedy",
        "random-kk",
        "nearest-first",
        &[("k", "3"), ("queue-cap", "2"), ("edge-queues", "true")],
    ),
    (
        "mesh:16x16",
        "greedy",
        "transpose",
        "farthest-first",
        &[("max-steps", "7")],
    ),
    ("ring:9", "greedy", "hotspot", "farthest-origin", &[("hotspot", "40")]),
    (
        "torus:8x8",
        "ks-wrap",
        "random-kk",
        "farthest-first",
        &[("k", "3"), ("smear", "4"), ("seed", "2")],
    ),
    (
        "mesh:6x6",
        "rand-interval",
        "locality",
        "farthest-total",
        &[("locality", "3"), ("seed", "4")],
    ),
];

#[test]
fn the_same_request_gives_the_same_report_on_every_path() {
    for &(topology, algorithm, workload, policy, extra) in REQUESTS {
        let what = format!("{topology} {algorithm} {workload} {policy} {extra:?}");
        // The CLI: flags.
        let mut args = vec![
            "run",
            "--json",
            "--topology",
            topology,
            "--algorithm",
            algorithm,
            "--workload",
            workload,
            "--policy",
            policy,
        ];
        let flags: Vec<String> = extra.iter().map(|(k, _)| format!("--{k}")).collect();
        for ((_, v), flag) in extra.iter().zip(&flags) {
            args.push(flag);
            if *v != "true" {
                args.push(v);
            }
        }
        let out = routesim(&args);
        assert!(
            out.status.code() == Some(0) || out.status.code() == Some(1),
            "{what}: {}",
            text(&out.stderr)
        );
        let cli = text(&out.stdout);

        // The JSON config the wasm Simulation takes (keys as Field::json).
        let mut config = json!({"topology": topology, "algorithm": algorithm, "workload": workload, "policy": policy});
        for (k, v) in extra {
            let field = Field::ALL.into_iter().find(|f| f.cli() == *k).unwrap();
            config[field.json()] = match v.parse::<u64>() {
                Ok(n) => json!(n),
                Err(_) => json!(v.parse::<bool>().unwrap()),
            };
        }
        let spec = RunSpec::from_json(RunSpec::default(), &config).unwrap_or_else(|e| panic!("{what}: {e}"));
        let mut sim = spec.build().unwrap();
        sim.run();
        let from_json = serde_json::to_string(&sim.report()).unwrap() + "\n";

        // The sweep: a one-point grid over the same base.
        let mut base = RunSpec::default();
        for (k, v) in extra {
            let field = Field::ALL.into_iter().find(|f| f.cli() == *k).unwrap();
            base.set(field, k, v).unwrap();
        }
        let lists = SweepLists {
            topology: vec![topology.into()],
            algorithm: vec![algorithm.into()],
            policy: vec![policy.into()],
            workload: vec![workload.into()],
            ..SweepLists::default()
        };
        let grid = Grid::new(base, &lists).unwrap();
        assert_eq!(grid.size(), 1);
        let row = grid.run(0);
        let from_sweep = serde_json::to_string(&row.report.expect("the point ran")).unwrap() + "\n";

        assert_eq!(cli, from_json, "{what}: CLI and JSON config differ");
        assert_eq!(cli, from_sweep, "{what}: CLI and sweep differ");
        // The request round-trips through its JSON form.
        let again = RunSpec::from_json(RunSpec::default(), &spec.to_json()).unwrap();
        assert_eq!(again.to_json(), spec.to_json(), "{what}");
    }
}

/// Small networks of every kind, with shapes that some entries refuse.
const TOPOLOGIES: &[&str] = &[
    "linear:8",
    "ring:8",
    "mesh:8x8",
    "mesh:4x8",
    "mesh:6x6",
    "mesh:4x4x4",
    "torus:8x8",
    "torus:4x6",
    "torus:3x3x3",
    "hypercube:4",
    "butterfly:3",
    "shuffle-exchange:4",
];

#[test]
fn every_algorithm_runs_exactly_where_the_registry_accepts() {
    for entry in REGISTRY {
        for &topology in TOPOLOGIES {
            // sort-random: sorting algorithms run it or refuse the network;
            // routing algorithms refuse it (and sorters refuse the others).
            for workload in ["random-permutation", "random-kk", "sort-random"] {
                let topo = topology.parse().unwrap();
                let spec = WorkloadSpec {
                    k: Some(2),
                    ..WorkloadSpec::new(workload.parse().unwrap(), 1)
                };
                let instance = workload::generate(&topo, &spec).unwrap();
                let accepted = entry.check(&instance, Policy::FarthestFirst).is_ok();
                let what = format!("{} on {topology} {workload}", entry.name);
                assert_eq!(
                    accepted,
                    entry.check_topology(&topo).is_ok()
                        && match entry.packets {
                            algorithms::registry::Packets::Any => workload != "sort-random",
                            algorithms::registry::Packets::PartialPermutation => workload == "random-permutation",
                            // random-kk has k = 2 here; a permutation has k = 1.
                            algorithms::registry::Packets::EvenK => workload == "random-kk",
                            algorithms::registry::Packets::Sort => workload == "sort-random",
                        },
                    "{what}: check and check_topology disagree"
                );

                // The algorithm's own start agrees with the registry (no panic
                // either way) on its own problem; a sort given to a router or
                // a routing instance to a sorter is refused by the registry's
                // check_problem before any start (Simulation::new, checked below).
                let own_problem = (entry.packets == algorithms::registry::Packets::Sort) == (workload == "sort-random");
                if !own_problem {
                    assert!(entry.check_problem(&instance).is_err(), "{what}");
                    let config = routesim::SimConfig {
                        algorithm: entry.name.into(),
                        ..Default::default()
                    };
                    assert!(routesim::Simulation::new(instance.clone(), config).is_err(), "{what}");
                }
                let started = std::panic::catch_unwind(|| {
                    let mut engine = Engine::new(topo.clone(), &instance.packets, EngineConfig::default());
                    let mut algorithm = entry.create(&AlgorithmOptions::default());
                    algorithm.start(&instance, &mut engine).is_ok()
                });
                // Never a panic; on its own problem, start() agrees with the registry.
                let started = started.unwrap_or_else(|_| panic!("{what}: start() panicked"));
                assert!(
                    !own_problem || started == accepted,
                    "{what}: start() and the registry disagree"
                );

                // The CLI runs it (exit 0) or refuses it (exit 2, one line naming the algorithm).
                let out = routesim(&[
                    "run",
                    "--json",
                    "--topology",
                    topology,
                    "--algorithm",
                    entry.name,
                    "--workload",
                    workload,
                    "--k",
                    "2",
                ]);
                let err = text(&out.stderr);
                if accepted {
                    assert_eq!(out.status.code(), Some(0), "{what}: {err}");
                    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
                    assert_eq!(report["delivered"], report["packets"], "{what}");
                    // A sort reports `sorted` (checked by the core) and
                    // `order`; a routing run has neither.
                    let sort = workload == "sort-random";
                    assert_eq!(report["sorted"].as_bool(), sort.then_some(true), "{what}");
                    assert_eq!(report["order"].is_string(), sort, "{what}");
                } else {
                    assert_eq!(out.status.code(), Some(2), "{what} should be refused");
                    assert!(out.stdout.is_empty(), "{what}");
                    assert_eq!(err.lines().count(), 1, "{what}: {err}");
                    assert!(
                        err.contains(&format!("algorithm '{}' cannot run here", entry.name)),
                        "{what}: {err}"
                    );
                    // A network it does not run on is named.
                    if entry.check_topology(&topo).is_err() {
                        assert!(err.contains(topology), "{what}: {err}");
                    } else if (entry.packets == algorithms::registry::Packets::Sort) != (workload == "sort-random") {
                        // The wrong problem: the message names the workload.
                        assert!(err.contains(workload), "{what}: {err}");
                    }
                }
            }
        }
    }
}

#[test]
fn refused_policies_are_refused_with_the_reason() {
    for entry in REGISTRY {
        let topology = TOPOLOGIES
            .iter()
            .find(|t| entry.check_topology(&t.parse().unwrap()).is_ok())
            .unwrap();
        // ks-level needs an even k.
        let workload = if entry.packets == algorithms::registry::Packets::EvenK {
            "large-shift"
        } else if entry.packets == algorithms::registry::Packets::Sort {
            "sort-random"
        } else {
            "random-permutation"
        };
        for &policy in &Policy::ALL {
            let out = routesim(&[
                "run",
                "--topology",
                topology,
                "--algorithm",
                entry.name,
                "--workload",
                workload,
                "--k",
                "2",
                "--policy",
                policy.name(),
            ]);
            let refused = entry.refused_policies.contains(&policy);
            let err = text(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(if refused { 2 } else { 0 }),
                "{} {policy}: {err}",
                entry.name
            );
            if refused {
                assert!(err.contains(policy.name()) && err.contains(entry.policy_note), "{err}");
            }
        }
    }
}

#[test]
fn list_json_is_the_registry() {
    let out = routesim(&["list", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let list: Value = serde_json::from_slice(&out.stdout).unwrap();
    let algorithms = list["algorithms"].as_array().unwrap();
    assert_eq!(algorithms.len(), REGISTRY.len());
    for (a, entry) in algorithms.iter().zip(REGISTRY) {
        assert_eq!(a["name"], entry.name);
        assert_eq!(a["summary"], entry.summary);
        assert_eq!(a["paper"], entry.paper);
        assert_eq!(a["section"], entry.section);
        assert_eq!(a["accepts"], entry.accepts());
        let kinds: Vec<&str> = entry.kinds.iter().map(|k| k.name()).collect();
        assert_eq!(a["kinds"], json!(kinds));
        let options: Vec<&str> = entry.options.iter().map(|o| o.cli()).collect();
        let listed: Vec<&str> = a["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        assert_eq!(listed, options);
        assert!(a["packets"].is_string() && a["shape"].is_string());
        // The teaching text the page explains runs with: one source.
        assert_eq!(a["description"], entry.teaching.description);
        let phases: Vec<(&str, &str)> = entry.teaching.phases.iter().map(|p| (p.name, p.text)).collect();
        let listed: Vec<(&str, &str)> = a["phases"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (p["name"].as_str().unwrap(), p["text"].as_str().unwrap()))
            .collect();
        assert_eq!(listed, phases);
        assert!(a["classes"]["kind"].is_string());
        let claims = a["claims"].as_array().unwrap();
        assert_eq!(claims.len(), entry.teaching.claims.len());
        for (c, claim) in claims.iter().zip(entry.teaching.claims) {
            assert_eq!(c["name"], claim.name);
            assert_eq!(c["text"], claim.text);
            assert!(c["formula"].is_string() || c["formula"].is_object(), "{c}");
        }
    }
    // The lessons too (SPEC §7 ids), with their presets.
    let lessons = list["lessons"].as_array().unwrap();
    assert_eq!(lessons.len(), routesim::lessons::LESSONS.len());
    for (l, lesson) in lessons.iter().zip(routesim::lessons::LESSONS) {
        assert_eq!(l["id"], lesson.id);
        assert_eq!(l["text"], lesson.text);
        assert_eq!(l["preset"]["algorithm"], lesson.preset.algorithm);
        // The shape the page's `lessons()` ships: the run's config beside the preset.
        assert_eq!(l["config"]["algorithm"], lesson.preset.algorithm);
        assert_eq!(l["load_config"].is_object(), lesson.load.is_some());
    }
    // The text list names what each accepts.
    let human = text(&routesim(&["list"]).stdout);
    for entry in REGISTRY {
        assert!(human.contains(&entry.accepts()), "{}", entry.name);
    }
}

#[test]
fn names_that_are_not_registered_are_bad_input() {
    for name in ["teleport", "ks-lmrr"] {
        let out = routesim(&[
            "run",
            "--topology",
            "mesh:8x8",
            "--workload",
            "transpose",
            "--algorithm",
            name,
        ]);
        assert_eq!(out.status.code(), Some(2));
        let err = text(&out.stderr);
        assert!(err.contains(&format!("invalid algorithm '{name}'")), "{err}");
        for entry in REGISTRY {
            assert!(err.contains(entry.name), "{err} lacks {}", entry.name);
        }
    }
}

#[test]
fn the_query_parser_names_bad_parameters_and_keeps_the_base() {
    let base = RunSpec::from_json(
        RunSpec::browser(),
        &json!({"topology": "mesh:16x16", "algorithm": "pp-rand", "workload": "random-lk", "l": 2, "k": 2}),
    )
    .unwrap();
    let (spec, messages) = RunSpec::from_query(
        base.clone(),
        [
            ("l", "-3"),
            ("k", "4"),
            ("q", "0"),
            ("seed", "x"),
            ("topology", "mesh:8x8"),
            ("speed", "9"),
        ],
    );
    assert_eq!(spec.l, Some(2));
    assert_eq!(spec.k, Some(4));
    assert_eq!(spec.queue_cap, None);
    assert_eq!(spec.seed, 1);
    assert_eq!(spec.topology.unwrap().to_string(), "mesh:8x8");
    assert_eq!(messages.len(), 3, "{messages:?}");
    assert!(
        messages[0].contains("l=\"-3\"") && messages[0].contains("using 2"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("q=\"0\"") && messages[1].contains("using unbounded"),
        "{messages:?}"
    );
    assert!(
        messages[2].contains("seed=\"x\"") && messages[2].contains("using 1"),
        "{messages:?}"
    );
    // A base that leaves ℓ, k and the hot share unset: the message names
    // the default's value, as for every other field (an audit read "using
    // the default").
    let unset = RunSpec::from_json(
        RunSpec::browser(),
        &json!({"topology": "mesh:8x8", "algorithm": "greedy", "workload": "random-lk"}),
    )
    .unwrap();
    let (spec, messages) = RunSpec::from_query(unset, [("l", "x"), ("k", "0"), ("hotspot", "101")]);
    assert_eq!((spec.l, spec.k, spec.hotspot), (None, None, None));
    let ends: Vec<&str> = messages.iter().map(|m| &m[m.rfind(" — ").unwrap()..]).collect();
    assert_eq!(
        ends,
        [
            " — using the default, 1.",
            " — using the default, 1.",
            " — using the default, 10."
        ],
        "{messages:?}"
    );
    // A topology the base's algorithm cannot run on is taken, and the
    // algorithm, which the address does not name, switched without a word.
    let (spec, messages) = RunSpec::from_query(base.clone(), [("topology", "ring:8")]);
    assert_eq!(spec.topology.as_ref().unwrap().to_string(), "ring:8");
    assert_eq!(spec.algorithm.name, "greedy");
    assert!(messages.is_empty(), "the address named no algorithm: {messages:?}");
    spec.validate().unwrap();
    // Named by the address, the same switch is said.
    let (spec, messages) = RunSpec::from_query(base, [("topology", "ring:8"), ("algorithm", "pp-rand")]);
    assert_eq!(spec.algorithm.name, "greedy");
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains("pp-rand") && messages[0].contains("switched to greedy"),
        "{messages:?}"
    );
}

/// The page's default run (the `intro` preset: greedy on mesh:16x16, its
/// worst-case permutation) under an address that names only some fields:
/// the fields it does not name follow the ones it names, silently; only
/// what the address names can draw a message.
#[test]
fn an_address_names_some_fields_and_the_others_follow_without_a_message() {
    let base = RunSpec::from_json(
        RunSpec::browser(),
        &json!({"topology": "mesh:16x16", "algorithm": "greedy", "workload": "greedy-worst"}),
    )
    .unwrap();
    let open = |pairs: &[(&'static str, &'static str)]| RunSpec::from_query(base.clone(), pairs.iter().copied());
    // Algorithm and network named: the default workload (a mesh's) follows.
    let (spec, messages) = open(&[("topology", "butterfly:4"), ("algorithm", "lmrr")]);
    assert!(messages.is_empty(), "{messages:?}");
    assert_eq!(spec.algorithm.name, "lmrr");
    spec.build().unwrap();
    let (spec, messages) = open(&[("topology", "butterfly:5"), ("algorithm", "flashsort")]);
    assert!(messages.is_empty(), "{messages:?}");
    assert!(spec.workload.unwrap().is_sort(), "{:?}", spec.workload);
    spec.build().unwrap();
    // Only the algorithm named: the network becomes one it runs on (the
    // first of its kinds, at the page's size for that kind).
    for (name, topology) in [
        ("bitonic", "hypercube:6"),
        ("flashsort", "mesh:16x16"),
        ("valiant", "mesh:16x16"),
        ("bit-fixing", "hypercube:6"),
        ("pp-rand", "mesh:16x16"),
    ] {
        let (spec, messages) = RunSpec::from_query(base.clone(), [("algorithm", name)]);
        assert!(messages.is_empty(), "{name}: {messages:?}");
        assert_eq!(spec.algorithm.name, name);
        assert_eq!(spec.topology.as_ref().unwrap().to_string(), topology, "{name}");
        spec.build().unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    // Every algorithm named alone runs, under its own name, without a message.
    for entry in REGISTRY.iter() {
        let (spec, messages) = RunSpec::from_query(base.clone(), [("algorithm", entry.name)]);
        assert_eq!(spec.algorithm.name, entry.name, "{messages:?}");
        assert!(messages.is_empty(), "{}: {messages:?}", entry.name);
        spec.validate().unwrap_or_else(|e| panic!("{}: {e}", entry.name));
    }
    // Named fields that cannot go together: the switch is said.
    let (spec, messages) = open(&[("topology", "mesh:8x8"), ("algorithm", "bitonic")]);
    assert_ne!(spec.algorithm.name, "bitonic");
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].contains("bitonic"), "{messages:?}");
}

#[test]
fn reconcile_switches_what_cannot_run_and_says_so() {
    let mut spec = RunSpec::browser();
    spec.set(Field::Algorithm, "algorithm", "pp-det").unwrap();
    spec.set(Field::Policy, "policy", "random").unwrap();
    spec.set(Field::Topology, "topology", "ring:12").unwrap();
    spec.set(Field::Workload, "workload", "transpose").unwrap();
    let messages = spec.reconcile();
    assert_eq!(spec.algorithm.name, "greedy");
    assert_eq!(spec.policy, Policy::Random, "greedy takes every policy");
    assert_eq!(spec.workload, Some(Workload::RandomPermutation));
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(messages[0].contains("pp-det") && messages[0].contains("switched to greedy"));
    assert!(messages[1].contains("transpose") && messages[1].contains("random-permutation"));
    spec.validate().unwrap();
    assert!(spec.reconcile().is_empty(), "a runnable request is left alone");

    // A refused policy, and a workload the algorithm does not route.
    let mut spec = RunSpec::browser();
    spec.set(Field::Topology, "topology", "mesh:8x8").unwrap();
    spec.set(Field::Algorithm, "algorithm", "pp-det").unwrap();
    spec.set(Field::Policy, "policy", "random").unwrap();
    assert_eq!(spec.reconcile().len(), 1);
    assert_eq!(spec.policy, Policy::FarthestFirst);
    spec.set(Field::Algorithm, "algorithm", "offline").unwrap();
    spec.set(Field::Workload, "workload", "random-kk").unwrap();
    spec.set(Field::K, "k", "2").unwrap();
    let messages = spec.reconcile();
    assert_eq!(spec.workload, Some(Workload::RandomPermutation), "{messages:?}");
    spec.build().unwrap();
}

/// An algorithm option the algorithm does not take is dropped when the
/// algorithm changes (the page keeps no hidden option), one line each; an
/// option it takes is kept, and the URL carries every option.
#[test]
fn reconcile_drops_options_the_algorithm_does_not_take() {
    let mut spec = RunSpec::browser();
    spec.set(Field::Topology, "topology", "mesh:8x8").unwrap();
    spec.set(Field::Algorithm, "algorithm", "ks-nowrap").unwrap();
    spec.set(Field::Phases, "phases", "coalesced").unwrap();
    assert!(spec.reconcile().is_empty(), "ks-nowrap takes phases");
    spec.set(Field::Algorithm, "algorithm", "ks-wrap").unwrap();
    assert!(spec.reconcile().is_empty(), "so does ks-wrap");
    spec.set(Field::Algorithm, "algorithm", "greedy").unwrap();
    spec.set(Field::ReverseOrder, "reverse-order", "true").unwrap();
    let messages = spec.reconcile();
    assert_eq!(
        messages,
        ["phases applies only to ks-nowrap, ks-wrap, ks-level, ks-local — dropped for greedy."]
    );
    assert_eq!(spec.value_of(Field::Phases), "separated");
    assert_eq!(spec.value_of(Field::ReverseOrder), "true", "greedy takes reverse-order");
    for entry in REGISTRY {
        for o in entry.options {
            assert_eq!(o.query(), Some(o.cli()), "the URL carries {} ({})", o.cli(), entry.name);
        }
    }
}

/// The menus offer what can run: an algorithm that accepts the network
/// and solves the workload's problem (sorting or routing, issue 27: a
/// routing workload offers only routing algorithms, a `sort-*` workload
/// only sorting ones); a workload the algorithm runs there, or one of the
/// other problem that some algorithm runs there (choosing it switches the
/// algorithm, `reconcile_to_workload`).
#[test]
fn choices_offer_exactly_what_can_run() {
    for &topology in TOPOLOGIES {
        for workload in ["random-permutation", "sort-random"] {
            let mut spec = RunSpec::browser();
            spec.set(Field::Topology, "topology", topology).unwrap();
            spec.set(Field::K, "k", "2").unwrap();
            spec.set(Field::Workload, "workload", workload).unwrap();
            spec.reconcile_to_workload();
            let menus = spec.menus();
            for choice in &menus.policies {
                let policy = choice.name.parse().unwrap();
                assert_eq!(choice.ok, spec.algorithm.check_policy(policy).is_ok());
            }
            let instance = spec.instance().unwrap();
            let (algorithms, workloads) = (menus.algorithms, menus.workloads);
            assert_eq!(algorithms.len(), REGISTRY.len());
            for choice in &algorithms {
                let entry = algorithms::lookup(choice.name).unwrap();
                assert_eq!(
                    choice.ok,
                    entry.check_topology(spec.topology.as_ref().unwrap()).is_ok()
                        && entry.check_problem(&instance).is_ok(),
                    "{topology} {workload} {}: {}",
                    choice.name,
                    choice.reason
                );
                assert_eq!(choice.ok, choice.reason.is_empty());
            }
            assert!(algorithms.iter().any(|c| c.ok), "{topology} {workload}: nothing runs");
            for choice in &workloads {
                let mut s = spec.clone();
                s.workload = Some(choice.name.parse().unwrap());
                // Runs with the algorithm, or with the one choosing it switches
                // to for the other problem, on this network (the menu greys
                // the rest: choosing them switches more, the network included).
                let runs = s.build().is_ok() || {
                    s.reconcile_to_workload_noted();
                    s.workload == Some(choice.name.parse().unwrap()) && s.build().is_ok()
                };
                assert_eq!(
                    choice.ok, runs,
                    "{topology} {workload} {}: {}",
                    choice.name, choice.reason
                );
            }
        }
    }
}

/// Choosing a workload of the other problem switches the algorithm, said
/// in one line naming both; a topology change keeps a sort a sort where a
/// sorting algorithm runs; an address naming only a workload asks for
/// its problem, one naming both keeps the algorithm (the workload is switched).
#[test]
fn a_workload_of_the_other_problem_switches_the_algorithm() {
    let mut spec = RunSpec::browser();
    spec.set(Field::Topology, "topology", "hypercube:5").unwrap();
    spec.set(Field::Algorithm, "algorithm", "bit-fixing").unwrap();
    spec.set(Field::Workload, "workload", "sort-random").unwrap();
    let messages = spec.reconcile_to_workload();
    assert_eq!(spec.algorithm.name, "bitonic", "{messages:?}");
    assert_eq!(spec.workload, Some(Workload::SortRandom));
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains("bit-fixing")
            && messages[0].contains("sort-random")
            && messages[0].ends_with("switched to bitonic."),
        "{messages:?}"
    );
    spec.build().unwrap();
    // Back to routing.
    spec.set(Field::Workload, "workload", "transpose").unwrap();
    let messages = spec.reconcile_to_workload();
    assert_eq!(spec.workload, Some(Workload::Transpose), "{messages:?}");
    assert_ne!(spec.algorithm.name, "bitonic");
    assert!(messages[0].contains("bitonic"), "{messages:?}");
    spec.build().unwrap();
    // A topology where bitonic does not run, but snake-sort (the mesh's own
    // sort, before flashsort in the registry) and flashsort do.
    spec.set(Field::Workload, "workload", "sort-random").unwrap();
    spec.reconcile_to_workload();
    spec.set(Field::Topology, "topology", "mesh:8x8").unwrap();
    let messages = spec.reconcile();
    assert_eq!(
        (spec.algorithm.name, spec.workload),
        ("snake-sort", Some(Workload::SortRandom)),
        "{messages:?}"
    );
    // A network no sorting algorithm runs on (flashsort needs a mesh of 2
    // or more dimensions, snake-sort a square one): routing again, said.
    spec.set(Field::Topology, "topology", "torus:6x6").unwrap();
    let messages = spec.reconcile();
    assert!(!spec.workload.unwrap().is_sort(), "{messages:?}");
    spec.build().unwrap();
    // The address.
    let base = RunSpec::browser();
    let (spec, messages) =
        RunSpec::from_query(base.clone(), [("topology", "hypercube:5"), ("workload", "sort-random")]);
    assert_eq!(
        (spec.algorithm.name, spec.workload),
        ("bitonic", Some(Workload::SortRandom)),
        "{messages:?}"
    );
    let (spec, messages) = RunSpec::from_query(
        base,
        [
            ("topology", "hypercube:5"),
            ("workload", "sort-random"),
            ("algorithm", "bit-fixing"),
        ],
    );
    assert_eq!(spec.algorithm.name, "bit-fixing", "{messages:?}");
    assert!(!spec.workload.unwrap().is_sort());
    assert!(
        messages
            .iter()
            .any(|m| m.contains("bit-fixing") && m.contains("sort-random")),
        "{messages:?}"
    );
}

#[test]
fn experiment_varies_one_parameter_and_charts_it() {
    let base = RunSpec::from_json(
        RunSpec::browser(),
        &json!({"topology": "mesh:8x8", "workload": "random-lk", "l": 1, "k": 1}),
    )
    .unwrap();
    let mut lk = Experiment::new(base.clone(), Vary::Lk, "1,2,4", "greedy,pp-rand", "2").unwrap();
    assert_eq!(lk.len(), 3 * 2 * 2);
    while lk.run_next().is_some() {}
    let chart = lk.chart();
    let xs: Vec<f64> = chart.iter().map(|p| p.x).collect();
    assert_eq!(xs, [1.0, 2.0, 4.0]);
    for p in &chart {
        let n = 64.0;
        assert!((p.sqrt_lkn - (p.x * p.x * n).sqrt()).abs() < 1e-9, "l = k = {}", p.x);
        assert!(p.steps.iter().all(|s| s.is_some_and(|s| s >= p.best)));
        let ratio = p.steps_over_sqrt_lkn[0].unwrap();
        assert!((ratio - p.steps[0].unwrap() / p.sqrt_lkn).abs() < 1e-9);
    }
    let mut size = Experiment::new(base, Vary::Size, "4,8,16", "greedy", "1").unwrap();
    while size.run_next().is_some() {}
    let xs: Vec<f64> = size.chart().iter().map(|p| p.x).collect();
    assert_eq!(xs, [16.0, 64.0, 256.0], "x is N");
    let diameters: Vec<f64> = size.chart().iter().map(|p| p.diameter).collect();
    assert_eq!(diameters, [6.0, 14.0, 30.0]);
    // No D = log₂ N on a mesh: no ratio to D or D².
    for p in size.chart() {
        assert_eq!(p.log_n, 0.0);
        assert_eq!(p.steps_over_log_n, [None]);
        assert_eq!(p.steps_over_log_n_squared, [None]);
    }
}

/// Where the network's D is log₂ N (hypercube:D, butterfly:D's 2^D rows,
/// shuffle-exchange:D) the chart carries steps ÷ D and steps ÷ D², each
/// algorithm's mean steps over the point's D — the ratios the
/// bitonic-against-Flashsort lesson divides by.
#[test]
fn experiment_ratios_to_d_and_d_squared_on_the_log_networks() {
    for (topology, sizes) in [
        ("butterfly:3", "3,4,5"),
        ("hypercube:3", "3,4,5"),
        ("shuffle-exchange:4", "4,6"),
    ] {
        let base = RunSpec::from_json(
            RunSpec::browser(),
            &json!({"topology": topology, "workload": "sort-random", "algorithm": "bitonic"}),
        )
        .unwrap();
        let mut e = Experiment::new(base, Vary::Size, sizes, "bitonic", "2").unwrap();
        while e.run_next().is_some() {}
        let ds: Vec<f64> = e.chart().iter().map(|p| p.log_n).collect();
        let want: Vec<f64> = sizes.split(',').map(|d| d.parse().unwrap()).collect();
        assert_eq!(ds, want, "{topology}");
        for p in e.chart() {
            let steps = p.steps[0].unwrap();
            let d = p.log_n;
            assert!(
                (p.steps_over_log_n[0].unwrap() - steps / d).abs() < 1e-9,
                "{topology} D = {d}"
            );
            assert!(
                (p.steps_over_log_n_squared[0].unwrap() - steps / (d * d)).abs() < 1e-9,
                "{topology} D = {d}"
            );
            // The runs behind it: every one on a network of that D.
            let runs: Vec<f64> = e
                .rows()
                .filter(|r| r.column("nodes").and_then(Value::as_f64) == Some(p.x))
                .map(|r| r.report.as_ref().unwrap().steps as f64)
                .collect();
            assert_eq!(runs.len(), 2, "{topology} D = {d}");
            assert!((runs.iter().sum::<f64>() / 2.0 - steps).abs() < 1e-9);
        }
    }
}

/// The experiment audit of 2026-12-01: x is the ℓ or k each point asked
/// for (random-destinations' measured k put one value's seeds on several
/// x); each algorithm's ratio is the mean of its own runs' ratios (the
/// CSV's column); `best` is the smallest algorithm's mean bound (a sort's
/// bounds differ by algorithm); a bad list is named as the page's
/// "values"; and an algorithm the run's options refuse is not offered.
#[test]
fn the_experiment_plots_what_it_varied_against_each_algorithm_s_own_runs() {
    let base = |config: Value| RunSpec::from_json(RunSpec::browser(), &config).unwrap();
    let mut k = Experiment::new(
        base(json!({"topology": "mesh:8x8", "workload": "random-destinations"})),
        Vary::K,
        "1,2,4",
        "greedy",
        "3",
    )
    .unwrap();
    while k.run_next().is_some() {}
    let xs: Vec<f64> = k.chart().iter().map(|p| p.x).collect();
    assert_eq!(xs, [1.0, 2.0, 4.0]);
    for p in k.chart() {
        let rows: Vec<_> = k
            .rows()
            .filter(|r| r.column("k").and_then(Value::as_f64) == Some(p.x))
            .map(|r| r.report.as_ref().unwrap())
            .collect();
        assert_eq!(rows.len(), 3, "k = {}", p.x);
        let ratio = rows.iter().map(|r| r.steps as f64 / r.bounds.sqrt_lkn).sum::<f64>() / 3.0;
        assert!((p.steps_over_sqrt_lkn[0].unwrap() - ratio).abs() < 1e-9, "k = {}", p.x);
    }
    let mut sort = Experiment::new(
        base(json!({"topology": "mesh:8x8", "workload": "sort-random", "algorithm": "snake-sort"})),
        Vary::Size,
        "4,8,16",
        "snake-sort,flashsort",
        "2",
    )
    .unwrap();
    while sort.run_next().is_some() {}
    for p in sort.chart() {
        let mean_best = |a: &str| {
            let b: Vec<f64> = sort
                .rows()
                .filter_map(|r| r.report.as_ref())
                .filter(|r| r.algorithm == a && r.bounds.reference.diameter as f64 == p.diameter)
                .map(|r| r.bounds.best as f64)
                .collect();
            b.iter().sum::<f64>() / b.len() as f64
        };
        assert_eq!(
            p.best,
            mean_best("snake-sort").min(mean_best("flashsort")),
            "N = {}",
            p.x
        );
    }
    let m = Experiment::new(base(json!({"topology": "mesh:8x8"})), Vary::Size, "4,,8", "greedy", "1")
        .err()
        .unwrap()
        .to_string();
    assert!(m.starts_with("invalid values '4,,8'"), "{m}");
    let spec =
        base(json!({"topology": "mesh:8x8", "workload": "random-lk", "algorithm": "pp-rand", "unknown_lk": true}));
    let choices = spec.experiment_choices();
    let greedy = choices.iter().find(|c| c.name == "greedy").unwrap();
    assert!(!greedy.ok && !greedy.preset, "{greedy:?}");
    assert!(choices.iter().find(|c| c.name == "pp-det").unwrap().ok);
}

#[test]
fn the_request_refuses_bad_combinations_by_name() {
    let cases: &[(Value, &str)] = &[
        (json!({"topology": "mesh:4x4"}), "invalid workload"),
        (json!({"workload": "transpose"}), "invalid topology"),
        (
            json!({"topology": "mesh:4x4", "workload": "transpose", "edge_queues": true}),
            "edge-queues",
        ),
        (
            json!({"topology": "mesh:4x4", "workload": "transpose", "l": -3}),
            "invalid l '-3'",
        ),
        (
            json!({"topology": "mesh:4x4", "workload": "transpose", "k": 2.5}),
            "invalid k '2.5'",
        ),
        (
            json!({"topology": "mesh:4x4", "workload": "transpose", "seed": "x"}),
            "invalid seed 'x'",
        ),
        (
            json!({"topology": "mesh:4x4", "workload": "transpose", "hotspot": 101}),
            "invalid hotspot '101'",
        ),
        (
            json!({"topology": "mesh:4x4", "workload": "transpose", "queue_cap": 0}),
            "invalid queue_cap '0'",
        ),
        (
            json!({"topology": "mesh:4x4", "workload": "transpose", "colour": "red"}),
            "invalid config key 'colour'",
        ),
        (
            json!({"topology": "mesh:4x4", "workload": "transpose", "instance": "{\"topology\":\"mesh:2x2\",\"packets\":[]}"}),
            "either a workload or an instance",
        ),
        (json!([1, 2]), "invalid config"),
    ];
    for (config, want) in cases {
        let e = RunSpec::from_json(RunSpec::default(), config)
            .expect_err(&config.to_string())
            .to_string();
        assert!(e.contains(want), "{config}: {e} lacks {want}");
    }
}

/// `edge-queues` needs a capacity, except for an algorithm with a default
/// one of its own: `lmrr` (SPEC §5, q = 2) runs with it, on every path.
#[test]
fn edge_queues_without_a_capacity_take_lmrrs_default() {
    let spec = RunSpec::from_json(
        RunSpec::default(),
        &json!({"topology": "butterfly:4", "workload": "random-permutation", "algorithm": "lmrr", "edge_queues": true}),
    )
    .expect("lmrr has q = 2 by default");
    assert!(spec.validate().is_ok());
    let out = routesim(&[
        "run",
        "--topology",
        "butterfly:4",
        "--workload",
        "random-permutation",
        "--algorithm",
        "lmrr",
        "--edge-queues",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["queue_cap"], 2);
    assert!(report["max_edge_queue"].as_u64().unwrap() <= 2);
    // greedy has no default capacity: still refused by name.
    let out = routesim(&[
        "run",
        "--topology",
        "mesh:4x4",
        "--workload",
        "transpose",
        "--edge-queues",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("edge-queues"), "{}", text(&out.stderr));
}

/// Bounded queues with every algorithm: scripted algorithms (sorts, pp)
/// leave packets that do not bid, which bid for the sink; the capacity
/// check once read the sink's stale winner and panicked. Every run now
/// delivers or ends cleanly, with the invariants checked every step.
#[test]
fn bounded_queues_work_with_every_algorithm() {
    for entry in REGISTRY {
        let topology = TOPOLOGIES
            .iter()
            .find(|t| entry.check_topology(&t.parse().unwrap()).is_ok())
            .unwrap();
        for (q, policy, edge) in [
            ("2", "farthest-first", false),
            ("4", "fifo", false),
            ("3", "random", false),
            ("1", "farthest-first", true),
            ("2", "fifo", true),
            ("2", "farthest-first", true),
        ] {
            if entry.refused_policies.iter().any(|p| p.name() == policy) {
                continue;
            }
            // Edge queues on permutations: pp-*, whose sorts and tours move
            // several packets a node by script, is refused with edge queues
            // (docs/cli.md); the others keep every link queue within q (the
            // sorts of one key a node, bitonic's, snake-sort's and
            // sort-route's, move at most one packet into a link queue).
            let workload = match (entry.packets, edge) {
                (algorithms::registry::Packets::Sort, _) => "sort-random",
                (algorithms::registry::Packets::Any | algorithms::registry::Packets::EvenK, false) => "random-kk",
                (algorithms::registry::Packets::EvenK, true) => "large-shift",
                _ => "random-permutation",
            };
            let mut args = vec![
                "run",
                "--json",
                "--check-invariants",
                "--topology",
                topology,
                "--algorithm",
                entry.name,
                "--workload",
                workload,
                "--k",
                "2",
                "--queue-cap",
                q,
                "--policy",
                policy,
                "--seed",
                "5",
            ];
            if edge {
                // The invariant checks recount every edge queue from the packets.
                args.push("--edge-queues");
            }
            let out = routesim(&args);
            let what = format!(
                "{} on {topology} {workload} q={q} {policy} edge queues {edge}",
                entry.name
            );
            // Their sorts and tours move packets by script, keeping node queues.
            let scripted = ["pp-rand", "pp-det", "snake-sort", "bitonic", "sort-route"].contains(&entry.name);
            if edge && scripted {
                let err = text(&out.stderr);
                assert!(
                    out.status.code() == Some(2) && err.contains("moves packets by script"),
                    "{what}: {err}"
                );
                continue;
            }
            assert!(
                matches!(out.status.code(), Some(0) | Some(1)),
                "{what}: {}",
                text(&out.stderr)
            );
            let report: Value = serde_json::from_slice(&out.stdout).unwrap();
            if out.status.code() == Some(0) {
                assert_eq!(report["delivered"], report["packets"], "{what}");
            }
        }
    }
}

/// Pipelining changes when a packet starts its next phase, never its route:
/// every packet still passes through each phase's target, so the hops are
/// those of the barrier run.
#[test]
fn pipelined_phases_take_the_same_routes_as_barriers() {
    for (algorithm, topology, workload) in [
        ("offline", "mesh:12x12", "random-permutation"),
        ("rand-interval", "mesh:16x16", "transpose"),
        ("valiant", "torus:8x8", "random-permutation"),
        ("valiant", "hypercube:6", "bit-reversal"),
    ] {
        let hops = |pipeline: bool| {
            let mut config = json!({"topology": topology, "algorithm": algorithm, "workload": workload, "seed": 3});
            config["pipeline"] = json!(pipeline);
            let mut sim = RunSpec::from_json(RunSpec::default(), &config)
                .unwrap()
                .build()
                .unwrap();
            sim.run();
            let r = sim.report();
            assert_eq!(r.delivered, r.packets, "{algorithm} {topology} pipeline {pipeline}");
            (
                r.packet_hops,
                r.phases.iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            )
        };
        let (barrier, barrier_phases) = hops(false);
        let (pipelined, pipelined_phases) = hops(true);
        assert_eq!(
            barrier, pipelined,
            "{algorithm} on {topology}: pipelining changed the routes"
        );
        assert!(barrier_phases.len() > 1, "{algorithm}: {barrier_phases:?}");
        assert_eq!(pipelined_phases, ["pipelined"], "{algorithm}");
    }
}

/// `lmrr`'s `combine` (packet combining, §2.3.1) is one field with one
/// name everywhere: `--combine` on the CLI, `combine` in JSON configs and
/// the page's address; a bad value is named with its field.
#[test]
fn combine_is_one_field_on_every_path() {
    assert_eq!(
        (Field::Combine.cli(), Field::Combine.json(), Field::Combine.query()),
        ("combine", "combine", Some("combine"))
    );
    let base = || RunSpec::default();
    let (spec, messages) = RunSpec::from_query(
        base(),
        [
            ("topology", "butterfly:4"),
            ("algorithm", "lmrr"),
            ("workload", "hotspot"),
            ("combine", "1"),
        ],
    );
    assert!(messages.is_empty(), "{messages:?}");
    assert!(spec.options.combine);
    assert_eq!(spec.to_json()["combine"], json!(true));
    let back = RunSpec::from_json(base(), &spec.to_json()).unwrap();
    assert!(back.options.combine && back.algorithm_options().combine && back.sim_config().options.combine);
    let (spec, messages) = RunSpec::from_query(base(), [("combine", "maybe")]);
    assert!(!spec.options.combine);
    assert!(
        messages.iter().any(|m| m.contains("combine") && m.contains("maybe")),
        "{messages:?}"
    );
    let out = routesim(&[
        "run",
        "--topology",
        "butterfly:4",
        "--algorithm",
        "lmrr",
        "--workload",
        "hotspot",
        "--combine",
        "--json",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(report["combined"].as_u64().is_some(), "{report}");
    let lmrr = REGISTRY.iter().find(|e| e.name == "lmrr").unwrap();
    assert!(lmrr.options.contains(&Field::Combine));
}

/// A workload parameter the address gives that changes nothing is named
/// (the run goes on); one the base carries but the address does not name
/// is not, and neither is ℓ = k on a k-k workload.
#[test]
fn the_query_parser_names_workload_parameters_that_change_nothing() {
    let base = RunSpec::from_json(
        RunSpec::browser(),
        &json!({"topology": "mesh:16x16", "algorithm": "greedy", "workload": "transpose", "k": 4}),
    )
    .unwrap();
    let (spec, messages) = RunSpec::from_query(base.clone(), [("seed", "3")]);
    assert_eq!(spec.seed, 3);
    assert!(messages.is_empty(), "the base's k is not the address's: {messages:?}");
    let (spec, messages) = RunSpec::from_query(
        base.clone(),
        [("workload", "random-kk"), ("l", "2"), ("k", "3"), ("hotspot", "20")],
    );
    // Named, then dropped (the page's boxes and address keep no unused value).
    assert_eq!((spec.l, spec.k, spec.hotspot), (None, Some(3), None));
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].starts_with("URL parameter l=2 has no effect") && messages[0].contains("ℓ = k = 3"),
        "{messages:?}"
    );
    assert!(
        messages[1].starts_with("URL parameter hotspot=20 has no effect"),
        "{messages:?}"
    );
    let report = spec.build().unwrap();
    assert_eq!(report.instance().packets.len(), 256 * 3, "the run goes on with k = 3");
    let (_, messages) = RunSpec::from_query(base, [("workload", "random-kk"), ("l", "3"), ("k", "3")]);
    assert!(messages.is_empty(), "{messages:?}");
    // A k too large is named and reset to its default, the workload kept
    // (SPEC §7; it once switched the workload instead, and before that
    // said "k has no effect" first, as if k were not the cause).
    let (spec, messages) = RunSpec::from_query(
        RunSpec::browser(),
        [("topology", "mesh:8x8"), ("workload", "random-kk"), ("k", "4294967295")],
    );
    assert_eq!(spec.k, None);
    assert_eq!(spec.workload, Some(Workload::RandomKk));
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains("at most l or k a sender") && messages[0].contains("k=4294967295 reset to its default"),
        "{messages:?}"
    );
}

/// The page takes seeds up to 2^53 − 1 (JavaScript's largest exact whole
/// number: a larger one killed the page as it booted, the page audit of
/// 2026-11-30), refused by name beyond it; the CLI takes any u64.
#[test]
fn the_page_takes_seeds_a_javascript_number_holds() {
    let (spec, messages) = RunSpec::from_query(RunSpec::browser(), [("seed", "9007199254740991")]);
    assert_eq!((spec.seed, messages.len()), (9_007_199_254_740_991, 0), "{messages:?}");
    let (spec, messages) = RunSpec::from_query(RunSpec::browser(), [("seed", "9007199254740992")]);
    assert_eq!(spec.seed, RunSpec::browser().seed);
    assert!(
        messages[0].starts_with("URL parameter seed=\"9007199254740992\" ignored")
            && messages[0].contains("the page takes seeds from 0 to 9007199254740991"),
        "{messages:?}"
    );
    let err = RunSpec::from_json(RunSpec::browser(), &json!({"seed": "18446744073709551615"})).unwrap_err();
    assert!(
        err.to_string().starts_with("invalid seed '18446744073709551615'"),
        "{err}"
    );
    // A JavaScript number of 2^53 or more arrives as a double: named as
    // JavaScript writes it, and refused for the page's limit (it said
    // "'9007199254740992.0': expected a whole number of at least 0").
    let err = RunSpec::from_json(RunSpec::browser(), &json!({"seed": 9007199254740992.0})).unwrap_err();
    assert!(
        err.to_string().starts_with("invalid seed '9007199254740992'")
            && err
                .to_string()
                .contains("the page takes seeds from 0 to 9007199254740991"),
        "{err}"
    );
    let mut native = RunSpec::default();
    native.set(Field::Seed, "seed", "18446744073709551615").unwrap();
    assert_eq!(native.seed, u64::MAX);
    // One past u64: the message says the range it passed (it said "a
    // whole number of at least 0", which 2^64 is).
    let err = native.set(Field::Seed, "seed", "18446744073709551616").unwrap_err();
    assert!(
        err.to_string()
            .contains("expected a whole number from 0 to 18446744073709551615"),
        "{err}"
    );
    let err = native.set(Field::Seed, "seed", "-1").unwrap_err();
    assert!(
        err.to_string().contains("expected a whole number of at least 0"),
        "{err}"
    );
}

/// A run parameter given twice in an address: the last one is used, and
/// the repeat is named (the page's own parameters do the same).
#[test]
fn a_repeated_query_parameter_is_named_and_the_last_used() {
    let (spec, messages) = RunSpec::from_query(
        RunSpec::browser(),
        [("seed", "1"), ("topology", "mesh:8x8"), ("seed", "2")],
    );
    assert_eq!(spec.seed, 2);
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].contains("seed is given more than once") && messages[0].contains("seed=\"2\""),
        "{messages:?}"
    );
    let (_, messages) = RunSpec::from_query(RunSpec::browser(), [("seed", "1"), ("topology", "mesh:8x8")]);
    assert!(messages.is_empty(), "{messages:?}");
    // Said once however often, with the value used; a long value shortened.
    let long = "9".repeat(5000);
    let mut pairs = vec![("seed", "7"); 500];
    pairs.push(("seed", long.as_str()));
    pairs.push(("seed", "3"));
    let (spec, messages) = RunSpec::from_query(RunSpec::browser(), pairs);
    assert_eq!(spec.seed, 3);
    let repeats: Vec<&String> = messages.iter().filter(|m| m.contains("more than once")).collect();
    assert_eq!(repeats.len(), 1, "{repeats:?}");
    assert!(repeats[0].contains("seed=\"3\""), "{repeats:?}");
    assert!(messages.iter().all(|m| m.len() < 400), "{messages:?}");
    assert!(messages.iter().any(|m| m.contains("(5000 characters)")), "{messages:?}");
}

/// The page's fall-back from an address whose run the core refuses
/// (`request::blame_query`, what www/main.js asks): the first URL run
/// parameter whose default makes the run build is blamed, with the core's
/// reason; if none does alone, all are reset.
#[test]
fn blame_query_names_the_url_parameter_that_makes_the_run_unbuildable() {
    use routesim::request::blame_query;
    let defaults =
        json!({"topology": "mesh:16x16", "algorithm": "greedy", "workload": "random-permutation", "seed": 1});
    let browser = RunSpec::browser();
    let over =
        json!({"topology": "mesh:2048x2048", "algorithm": "valiant", "workload": "random-permutation", "seed": 1});
    let why = RunSpec::from_json(RunSpec::browser(), &over).unwrap_err().to_string();
    assert!(why.contains("limit"), "{why}");
    let pairs = [("algorithm", "valiant"), ("speed", "3"), ("topology", "mesh:2048x2048")];
    let blame = blame_query(&browser, &over, pairs, &defaults)
        .unwrap()
        .expect("the run is refused");
    assert_eq!(blame.key.as_deref(), Some("topology"));
    assert_eq!(
        blame.warning,
        format!("URL parameter topology=\"mesh:2048x2048\" ignored: {why} — using mesh:16x16.")
    );
    assert_eq!(blame.config["topology"], "mesh:16x16");
    assert_eq!(blame.config["algorithm"], "valiant", "the good parameter is kept");
    RunSpec::from_json(RunSpec::browser(), &blame.config)
        .unwrap()
        .build()
        .unwrap();

    // The URL asked for greedy on a hypercube over the page's memory budget:
    // reading it switched the algorithm to one that runs on hypercubes; the
    // topology blamed, the URL's greedy runs on the default mesh, and no
    // switch is reported (the refused run's switch no longer applies).
    let url = "?topology=hypercube:18&workload=random-kk&k=4&flits=2&algorithm=greedy";
    let pairs = routesim::request::query_pairs(url);
    let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let (read, switched) = RunSpec::from_query(RunSpec::browser(), pairs.iter().copied());
    assert_ne!(read.algorithm.name, "greedy", "{switched:?}");
    let blame = blame_query(&browser, &read.to_json(), pairs.iter().copied(), &defaults)
        .unwrap()
        .expect("the run is over the page's budget");
    assert_eq!(blame.key.as_deref(), Some("topology"), "{}", blame.warning);
    assert!(blame.warning.contains("memory budget"), "{}", blame.warning);
    assert_eq!(blame.config["algorithm"], "greedy");
    assert_eq!(blame.config["flits"], 2);
    assert!(blame.messages.is_empty(), "{:?}", blame.messages);

    // No parameter fixes it alone: the topology is over the limit and edge
    // queues (not a URL field) have no capacity; every one is reset.
    let twice = json!({"topology": "mesh:2048x2048", "algorithm": "greedy", "workload": "random-permutation", "seed": 5, "edge_queues": true});
    let why = RunSpec::from_json(RunSpec::browser(), &twice).unwrap_err().to_string();
    let pairs = [("topology", "mesh:2048x2048"), ("seed", "5")];
    let blame = blame_query(&browser, &twice, pairs, &defaults)
        .unwrap()
        .expect("the run is refused");
    assert_eq!(blame.key, None);
    assert_eq!(
        blame.warning,
        format!("URL parameters topology=\"mesh:2048x2048\", seed=\"5\" ignored: {why} — using their defaults.")
    );
    assert!(blame.messages.is_empty());
    assert_eq!(blame.config["topology"], "mesh:16x16");
    assert_eq!(blame.config["seed"], 1);
    assert_eq!(blame.config["edge_queues"], false);

    // A field the defaults do not have is left out ("the default"); a run that
    // builds, or an address with no run field, blames nothing.
    let no_seed = json!({"topology": "mesh:16x16", "algorithm": "greedy", "workload": "random-permutation"});
    let blame = blame_query(&browser, &twice, [("edge_queues", "1"), ("seed", "5")], &no_seed)
        .unwrap()
        .unwrap();
    assert_eq!(
        blame.key, None,
        "edge_queues is no URL parameter, the seed not the culprit"
    );
    let fine = json!({"topology": "mesh:8x8", "algorithm": "greedy", "workload": "random-permutation"});
    assert_eq!(
        blame_query(&browser, &fine, [("topology", "mesh:8x8")], &defaults).unwrap(),
        None
    );
    assert_eq!(blame_query(&browser, &over, [("speed", "3")], &defaults).unwrap(), None);
}

/// The experiment's first selection (issue 25, problem 9): the run's own
/// algorithm and a few more that can run, never more than four, so that a
/// sweep's curves can be told apart.
#[test]
fn the_experiment_ticks_a_few_algorithms_that_run_the_run_s_own_first() {
    let menus_preset_limit = || routesim::request::EXPERIMENT_PRESET;
    let cases = [
        ("mesh:16x16", "greedy", "greedy-worst"),
        ("mesh:8x8", "pp-rand", "random-kk"),
        ("torus:8x8", "ks-wrap", "random-permutation"),
        ("hypercube:6", "bit-fixing", "random-permutation"),
        ("butterfly:4", "lmrr", "random-permutation"),
        ("linear:16", "greedy", "random-permutation"),
    ];
    for (topology, algorithm, workload) in cases {
        let config = json!({"topology": topology, "algorithm": algorithm, "workload": workload});
        let spec = RunSpec::from_json_lenient(RunSpec::browser(), &config).unwrap();
        let choices = spec.experiment_choices();
        let ticked: Vec<&str> = choices.iter().filter(|c| c.preset).map(|c| c.name).collect();
        let runnable = choices.iter().filter(|c| c.ok).count();
        assert!(ticked.len() <= menus_preset_limit(), "{topology}: {ticked:?}");
        assert_eq!(
            ticked.len(),
            runnable.min(menus_preset_limit()),
            "{topology}: {ticked:?}"
        );
        assert!(
            ticked.contains(&algorithm),
            "{topology}: {algorithm} not ticked: {ticked:?}"
        );
        assert!(
            choices.iter().all(|c| c.ok || !c.preset),
            "{topology}: a refused algorithm ticked"
        );
        // Only the experiment's menu says which are ticked.
        let menus = serde_json::to_value(spec.menus()).unwrap();
        assert!(!menus.to_string().contains("preset"), "{menus}");
    }
}

/// The run's label names the values it uses (the page's canvas title).
#[test]
fn a_run_s_label_names_the_values_it_uses() {
    let config = json!({"topology": "mesh:8x8", "algorithm": "ks-nowrap", "workload": "random-kk", "k": 4,
                        "seed": 7, "queue_cap": 5, "smear": "auto"});
    let spec = RunSpec::from_json(RunSpec::browser(), &config).unwrap();
    let sim = spec.build().unwrap();
    let label = spec.label(&sim, Some("greedy"));
    assert_eq!(label.run, "ks-nowrap vs greedy · mesh:8x8 · random-kk");
    for part in ["ℓ = 4, k = 4", "seed 7", "q = 5", "farthest-first", "smear auto"] {
        assert!(label.values.contains(part), "{part} not in {}", label.values);
    }
    let spec = RunSpec::from_json(RunSpec::browser(), &json!({"topology": "mesh:4x4"})).unwrap();
    let label = spec.label(&spec.build().unwrap(), None);
    assert!(
        label.values.contains("q unbounded") && label.values.contains("ℓ = 1, k = 1"),
        "{label:?}"
    );
    // lmrr bounds its edge queues (default q = 2), not the node queues.
    let spec = RunSpec::from_json(
        RunSpec::browser(),
        &json!({"topology": "butterfly:3", "algorithm": "lmrr"}),
    )
    .unwrap();
    let label = spec.label(&spec.build().unwrap(), None);
    assert!(
        label.values.contains("edge queues q = 2") && !label.values.contains("unbounded"),
        "{label:?}"
    );
    // `edge-queues` (SPEC §1) on any algorithm: q bounds each link's queue,
    // and the label says so (it read "q = 2", as for node queues); the URL
    // carries it as `edge-queues` (SPEC §5: every option under its CLI name).
    let (spec, messages) = RunSpec::from_query(
        RunSpec::browser(),
        [
            ("topology", "mesh:8x8"),
            ("workload", "random-kk"),
            ("k", "4"),
            ("q", "2"),
            ("edge-queues", "1"),
        ],
    );
    assert!(messages.is_empty() && spec.edge_queues, "{messages:?}");
    let label = spec.label(&spec.build().unwrap(), None);
    assert!(label.values.contains("edge queues q = 2"), "{label:?}");
    // A policy the run cannot use is named as such: lmrr ranks its packets,
    // the sorts compare-exchange, offline with barriers never contests a
    // link; with pipelining offline's packets do contest links.
    for (config, used) in [
        (json!({"topology": "butterfly:3", "algorithm": "lmrr"}), false),
        (
            json!({"topology": "hypercube:3", "algorithm": "bitonic", "workload": "sort-random"}),
            false,
        ),
        (json!({"topology": "mesh:4x4", "algorithm": "offline"}), false),
        (
            json!({"topology": "mesh:4x4", "algorithm": "offline", "pipeline": true}),
            true,
        ),
        (
            json!({"topology": "mesh:4x4", "algorithm": "greedy", "policy": "fifo"}),
            true,
        ),
    ] {
        let spec = RunSpec::from_json(RunSpec::browser(), &config).unwrap();
        let sim = spec.build().unwrap();
        assert_eq!(sim.uses_policy(), used, "{config}");
        let label = spec.label(&sim, None);
        let policy = spec.policy.to_string();
        let unused = format!("{policy} (not used by {})", spec.algorithm.name);
        assert_eq!(label.values.contains(&unused), !used, "{config}: {label:?}");
        assert!(label.values.contains(&policy), "{config}: {label:?}");
    }
}

/// The parameter the core's refusal names is blamed, not the first one
/// whose default happens to make the run build, and a fall-back that
/// switches nothing else comes before one that does (an audit: epsilon=9
/// on mesh:8x8 blamed the topology and ran on mesh:16x16; k=3 for ks-level
/// blamed the topology and then switched the workload, keeping neither).
/// An ℓ or k over a workload's packet limit is reset to its default with
/// the workload kept (it switched the workload, k not named).
#[test]
fn the_refusal_names_its_parameter_and_a_fall_back_keeps_the_rest() {
    use routesim::request::{blame_query, query_pairs};
    let defaults =
        json!({"topology": "mesh:16x16", "algorithm": "greedy", "workload": "random-permutation", "seed": 1});
    let browser = RunSpec::browser();
    let blamed = |url: &str| {
        let pairs = query_pairs(url);
        let pairs: Vec<(&str, &str)> = pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let (read, _) = RunSpec::from_query(RunSpec::browser(), pairs.iter().copied());
        let blame = blame_query(&browser, &read.to_json(), pairs.iter().copied(), &defaults)
            .unwrap()
            .expect("the run is refused");
        RunSpec::from_json(RunSpec::browser(), &blame.config)
            .unwrap()
            .build()
            .unwrap();
        blame
    };
    let b = blamed("?topology=mesh:8x8&algorithm=ks-level&workload=random-kk&k=2&epsilon=9");
    assert_eq!(b.key.as_deref(), Some("epsilon"), "{}", b.warning);
    assert_eq!(
        (b.config["topology"].as_str(), b.config["algorithm"].as_str()),
        (Some("mesh:8x8"), Some("ks-level"))
    );
    let b = blamed("?topology=mesh:8x8&algorithm=ks-level&workload=random-kk&k=3");
    assert_ne!(b.key.as_deref(), Some("topology"), "{}", b.warning);
    assert_eq!(b.config["topology"], "mesh:8x8", "{}", b.warning);
    assert_eq!(b.config["workload"], "random-kk", "{}", b.warning);
    assert!(b.messages.is_empty(), "{:?}", b.messages);

    for (url, workload, field) in [
        ("?topology=mesh:64x64&workload=random-kk&k=300", "random-kk", "k"),
        // random-lk with ℓ = 300, k = 1 is 4,096 packets (min(ℓ, k) a node):
        // not too large; locality reads ℓ alone.
        ("?topology=mesh:64x64&workload=locality&l=300", "locality", "l"),
    ] {
        let pairs = query_pairs(url);
        let (read, messages) =
            RunSpec::from_query(RunSpec::browser(), pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        assert_eq!(
            read.topology.as_ref().map(|t| t.to_string()).as_deref(),
            Some("mesh:64x64")
        );
        assert_eq!(
            read.workload.map(|w| w.to_string()).as_deref(),
            Some(workload),
            "{messages:?}"
        );
        assert!(
            messages
                .iter()
                .any(|m| m.contains(&format!("{field}=300 reset to its default"))),
            "{url}: {messages:?}"
        );
        read.build().unwrap();
    }
}

/// `query_pairs` reads an address as `URLSearchParams` does: one leading
/// `?` is stripped, a second belongs to the first key (an audit saw
/// `??topology=mesh:8x8` applied by the core and named unknown by the page).
#[test]
fn query_pairs_strip_one_question_mark_as_the_browser_does() {
    use routesim::request::query_pairs;
    assert_eq!(
        query_pairs("?topology=mesh:8x8"),
        vec![("topology".to_string(), "mesh:8x8".to_string())]
    );
    assert_eq!(
        query_pairs("topology=mesh:8x8"),
        vec![("topology".to_string(), "mesh:8x8".to_string())]
    );
    assert_eq!(
        query_pairs("??topology=mesh:8x8"),
        vec![("?topology".to_string(), "mesh:8x8".to_string())]
    );
}

/// The title's values give the instance's ℓ and k; where the workload's
/// own k means something else (random-destinations: the packets each node
/// sends) the line says what they are, so that "k = 7" beside a k box of 2
/// is not read as the same k.
#[test]
fn the_label_says_whose_l_and_k_when_they_are_not_the_workloads() {
    let label = |workload: &str, k: &str| {
        let spec = crate::common::spec_of("mesh:16x16", "greedy", workload, &[(Field::K, k)]);
        let sim = spec.build().unwrap();
        let (l, kk) = sim.instance().lk();
        (spec.label(&sim, None).values, l, kk)
    };
    let (values, l, k) = label("random-destinations", "2");
    assert!(
        k != 2,
        "random-destinations' k is what each node sends, its instance k the most received"
    );
    assert!(
        values.starts_with(&format!("ℓ = {l}, k = {k} (most sent, most received by a node)")),
        "{values}"
    );
    let (values, ..) = label("random-kk", "2");
    assert!(values.starts_with("ℓ = 2, k = 2 · "), "{values}");
    // Not given, k is 1: the greedy-average lesson's random-destinations.
    let spec = crate::common::spec_of("mesh:16x16", "greedy", "random-destinations", &[]);
    let sim = spec.build().unwrap();
    let (l, k) = sim.instance().lk();
    let values = spec.label(&sim, None).values;
    assert!(
        l == 1 && k > 1 && values.contains("(most sent, most received by a node)"),
        "{values}"
    );
    let spec = crate::common::spec_of("mesh:16x16", "greedy", "transpose", &[]);
    let sim = spec.build().unwrap();
    assert!(spec.label(&sim, None).values.starts_with("ℓ = 1, k = 1 · seed"));
}

/// The algorithm menu leads (`reconcile_to_algorithm`, the page's menu,
/// which offers every algorithm): from every network and either problem,
/// choosing any algorithm gives a run of that algorithm — the network
/// refitted to one of its kinds (said in a line naming both networks)
/// where it did not run, the workload following it to its problem.
#[test]
fn every_algorithm_chosen_leads_to_a_run_of_it() {
    for &topology in TOPOLOGIES {
        for workload in ["random-permutation", "sort-random"] {
            let mut start = RunSpec::browser();
            start.set(Field::Topology, "topology", topology).unwrap();
            start.set(Field::Workload, "workload", workload).unwrap();
            start.reconcile_to_workload();
            for entry in REGISTRY.iter() {
                let mut spec = start.clone();
                let before = spec.topology.clone().unwrap();
                spec.set(Field::Algorithm, "algorithm", entry.name).unwrap();
                let messages = spec.reconcile_to_algorithm();
                let what = format!("{topology} {workload} → {}: {messages:?}", entry.name);
                assert_eq!(spec.algorithm.name, entry.name, "{what}");
                let after = spec.topology.clone().unwrap();
                assert_eq!(entry.check_topology(&before).is_ok(), after == before, "{what}");
                if after != before {
                    assert!(
                        messages[0]
                            == format!(
                                "{} does not run on {before} — the network switched to {after}.",
                                entry.name
                            ),
                        "{what}"
                    );
                }
                spec.build().unwrap_or_else(|e| panic!("{what}: {e}"));
            }
        }
    }
}

/// The workload menu leads as the algorithm menu does: from every network
/// and algorithm, choosing any workload gives a run of that workload — the
/// network refitted where it cannot be generated or nothing routes it
/// (said in a line naming the new network), the algorithm switched where
/// it does not route it.
#[test]
fn every_workload_chosen_leads_to_a_run_of_it() {
    for &topology in TOPOLOGIES {
        for algorithm in ["greedy", "bit-fixing", "lmrr", "pp-rand", "bitonic"] {
            let mut start = RunSpec::browser();
            start.set(Field::Topology, "topology", topology).unwrap();
            start.set(Field::Algorithm, "algorithm", algorithm).unwrap();
            start.reconcile_to_algorithm();
            for &workload in Workload::ALL.iter() {
                let mut spec = start.clone();
                let before = spec.topology.clone().unwrap();
                spec.workload = Some(workload);
                let messages = spec.reconcile_to_workload();
                let what = format!("{topology} {algorithm} → {workload}: {messages:?}");
                assert_eq!(spec.workload, Some(workload), "{what}");
                let after = spec.topology.clone().unwrap();
                if after != before {
                    assert!(
                        messages[0].ends_with(&format!("— the network switched to {after}.")),
                        "{what}"
                    );
                }
                spec.build().unwrap_or_else(|e| panic!("{what}: {e}"));
            }
        }
    }
}
