//! Bad input never panics (the developers' standards: "a clear message
//! naming the field and value; never a panic"): arbitrary text in every run
//! field (as the CLI, the wasm API's config objects and the page's URL
//! parameters give it), arbitrary URL queries, and instance files mutated
//! from a valid one. Whatever is accepted builds and runs a few steps, or
//! is refused with a message that names what was wrong.

use proptest::prelude::*;
use routesim::algorithms::REGISTRY;
use routesim::engine::Policy;
use routesim::request::{Field, RunSpec};
use routesim::workload::{Instance, Workload};

/// Texts that probe the parsers: numbers at and past the edges, signs,
/// separators, words of other fields, unicode, whitespace.
fn probe_text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        Just(" ".to_string()),
        Just("0".to_string()),
        Just("-1".to_string()),
        Just("1e9".to_string()),
        Just("4294967296".to_string()),
        Just("18446744073709551616".to_string()),
        Just("NaN".to_string()),
        Just("auto".to_string()),
        Just("unknown:3".to_string()),
        Just("mesh:4x4".to_string()),
        Just("torus:3x3x3".to_string()),
        Just("mesh:0x4".to_string()),
        Just("hypercube:40".to_string()),
        Just("butterfly:3".to_string()),
        Just("shuffle-exchange:4".to_string()),
        Just("shuffle-exchange:1".to_string()),
        Just("shuffle-exchange:0".to_string()),
        Just("hypercube:0".to_string()),
        Just("butterfly:0".to_string()),
        Just("shuffle-exchange:27".to_string()),
        Just("shuffle-exchange:abc".to_string()),
        Just("shuffle-exchange:3x3".to_string()),
        Just("ring:2".to_string()),
        Just("linear:1".to_string()),
        Just("ks-level".to_string()),
        Just("random-kk".to_string()),
        Just("true".to_string()),
        Just("ｍｅｓｈ:４x４".to_string()),
        (0u64..40).prop_map(|n| n.to_string()),
        names(),
        names(),
        "[ -~]{0,12}",
        "\\PC{0,6}",
    ]
}

/// JSON values of every kind, the texts above among the strings.
fn json_value() -> impl Strategy<Value = serde_json::Value> {
    use serde_json::{json, Value};
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|n| json!(n)),
        (0u64..40).prop_map(|n| json!(n)),
        any::<f64>().prop_map(|x| json!(x)),
        Just(json!(1.5)),
        Just(json!([1, 2])),
        Just(json!({"a": 1})),
        probe_text().prop_map(Value::String),
    ]
}

/// Every name a menu offers: algorithms, workloads, policies.
fn names() -> impl Strategy<Value = String> {
    let mut all: Vec<String> = REGISTRY.iter().map(|e| e.name.to_string()).collect();
    all.extend(Workload::ALL.iter().map(|w| w.name().to_string()));
    all.extend(Policy::ALL.iter().map(|p| p.name().to_string()));
    (0..all.len()).prop_map(move |i| all[i].clone())
}

fn field() -> impl Strategy<Value = Field> {
    (0..Field::ALL.len()).prop_map(|i| Field::ALL[i])
}

/// The networks runs are built on: small, one of each kind.
const SMALL: [&str; 7] = [
    "mesh:4x4",
    "torus:4x4",
    "ring:6",
    "hypercube:3",
    "butterfly:2",
    "mesh:2x2x2",
    "shuffle-exchange:4",
];

/// Runs what was accepted for a few steps (small networks only: the
/// topology is one of [`SMALL`] whatever the fuzz gave).
fn exercise(spec: &RunSpec) {
    if let Some(t) = spec.topology() {
        if !SMALL.contains(&t.to_string().as_str()) {
            return;
        }
    }
    if spec.validate().is_err() {
        return;
    }
    if let Ok(mut sim) = spec.build() {
        sim.run_steps(20);
        let _ = sim.report();
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, ..ProptestConfig::default() })]

    /// Any text in any field: set accepts it or names the field; a set of
    /// them over a small valid base never panics when built and run.
    #[test]
    fn run_fields_take_any_text(
        topology in 0usize..SMALL.len(),
        algorithm in 0usize..REGISTRY.len(),
        edits in proptest::collection::vec((field(), probe_text()), 1..5),
    ) {
        let mut spec = RunSpec::default();
        spec.set(Field::Topology, "topology", SMALL[topology]).unwrap();
        spec.set(Field::Workload, "workload", "random-permutation").unwrap();
        spec.set(Field::Algorithm, "algorithm", REGISTRY[algorithm].name).unwrap();
        for (field, text) in &edits {
            let name = field.cli();
            let mut next = spec.clone();
            match next.set(*field, name, text) {
                Ok(()) => spec = next,
                Err(e) => {
                    let message = e.to_string();
                    prop_assert!(!message.is_empty());
                    prop_assert!(
                        message.contains(name) || message.contains(field.json()),
                        "the message for {name}={text:?} does not name the field: {message}"
                    );
                }
            }
        }
        exercise(&spec);
    }

    /// A config object as the wasm API and the page give it (any JSON value
    /// under any key): read or refused with a message, never a panic.
    #[test]
    fn config_objects_take_any_json(
        entries in proptest::collection::vec((field(), json_value()), 1..5),
    ) {
        let mut config = serde_json::json!({"topology": "mesh:4x4", "workload": "transpose"});
        for (field, value) in &entries {
            config[field.json()] = value.clone();
        }
        match RunSpec::from_json(RunSpec::browser(), &config) {
            Ok(spec) => exercise(&spec),
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }

    /// Any URL query over the page's base: parsed leniently, never a panic,
    /// every message one line.
    #[test]
    fn url_queries_never_panic(pairs in proptest::collection::vec((field(), probe_text()), 0..6)) {
        let owned: Vec<(String, String)> = pairs
            .iter()
            .filter_map(|(f, t)| f.query().map(|k| (k.to_string(), t.clone())))
            .collect();
        let (spec, messages) = RunSpec::from_query(
            RunSpec::browser(),
            owned.iter().map(|(k, v)| (k.as_str(), v.as_str())),
        );
        for m in &messages {
            prop_assert!(!m.contains('\n'), "{m}");
        }
        exercise(&spec);
    }

    /// An instance file with one value replaced by a probe: parsed or
    /// refused with a message, never a panic; what parses runs.
    #[test]
    fn mutated_instances_never_panic(at in 0usize..9, text in probe_text(), quoted in any::<bool>()) {
        let slots = [
            ("TOPO", "\"mesh:3x3\""),
            ("S0", "0"),
            ("D0", "8"),
            ("S1", "4"),
            ("D1", "2"),
            ("L", "1"),
            ("K", "1"),
            ("NAME", "\"x\""),
            ("EXTRA", "1"),
        ];
        let mut json = r#"{"topology": TOPO, "packets": [[S0, D0], [S1, D1]], "l": L, "k": K, "name": NAME, "extra": EXTRA}"#.to_string();
        for (i, (slot, value)) in slots.iter().enumerate() {
            let v = if i == at {
                if quoted { serde_json::to_string(&text).unwrap() } else { text.clone() }
            } else {
                value.to_string()
            };
            json = json.replace(slot, &v);
        }
        match Instance::from_json(&json) {
            Ok(instance) => {
                let spec = RunSpec {
                    instance: Some(instance),
                    ..RunSpec::default()
                };
                exercise(&spec);
            }
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
    }
}
