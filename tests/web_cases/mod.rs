//! The wasm API cases, run by `tests/web.rs` (Node) and
//! `tests/web_browser.rs` (headless Chromium).

use js_sys::{Array, Object, Reflect, Uint32Array, Uint8Array};
use routesim::wasm::{self, Simulation};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;

/// `(steps, delivered, max_queue, packet_hops)` of the reference run, as
/// `tests/it/web_native.rs` computes it natively.
const REFERENCE: (u32, u32, u32, u64) = (52, 256, 5, 5348);

mod reference;

/// Every algorithm family and an open-loop curve give, in wasm32, the
/// reports they give natively (the same digest as `tests/it/web_native.rs`).
#[wasm_bindgen_test]
fn every_family_hashes_to_the_native_digest() {
    assert_eq!(reference::digest(), reference::DIGEST);
}

fn reference_instance() -> String {
    let pairs: Vec<String> = (0..256u32)
        .map(|v| format!("[{},{}]", v, (97 * v + 13) % 256))
        .collect();
    format!(r#"{{"topology":"mesh:16x16","packets":[{}]}}"#, pairs.join(","))
}

fn config(pairs: &[(&str, JsValue)]) -> JsValue {
    let obj = Object::new();
    for (k, v) in pairs {
        Reflect::set(&obj, &JsValue::from_str(k), v).unwrap();
    }
    obj.into()
}

fn mesh_config(topology: &str, algorithm: &str) -> JsValue {
    config(&[
        ("topology", topology.into()),
        ("algorithm", algorithm.into()),
        ("workload", "random-permutation".into()),
        ("seed", 3.into()),
    ])
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    Reflect::get(obj, &JsValue::from_str(key)).unwrap()
}

fn num(obj: &JsValue, key: &str) -> f64 {
    get(obj, key)
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number"))
}

fn u32s(obj: &JsValue, key: &str) -> Vec<u32> {
    get(obj, key)
        .dyn_into::<Uint32Array>()
        .unwrap_or_else(|_| panic!("{key} is not a Uint32Array"))
        .to_vec()
}

/// The message of the JS `Error` a call threw.
#[track_caller]
fn message<T>(result: Result<T, JsError>) -> String {
    let Err(e) = result else { panic!("expected an error") };
    let value: JsValue = e.into();
    let error: js_sys::Error = value.dyn_into().expect("a JS Error");
    error.message().into()
}

#[wasm_bindgen_test]
fn create_step_and_snapshot_sizes() {
    let mut sim = Simulation::new(mesh_config("mesh:8x12", "greedy")).unwrap();
    let snap: JsValue = sim.snapshot().into();
    assert_eq!(num(&snap, "step"), 0.0);
    assert_eq!(num(&snap, "packets"), 96.0);
    assert_eq!(get(&snap, "status").as_string().unwrap(), "running");
    let summary: JsValue = sim.step(3.0.into()).unwrap().into();
    assert_eq!(num(&summary, "step"), 3.0);
    let snap: JsValue = sim.snapshot().into();
    assert_eq!(u32s(&snap, "positions").len(), 96);
    assert_eq!(get(&snap, "classes").dyn_into::<Uint8Array>().unwrap().length(), 96);
    assert_eq!(u32s(&snap, "delivered_at").len(), 96);
    assert_eq!(u32s(&snap, "queues").len(), 96);
    assert_eq!(u32s(&snap, "waiting").len(), 96);
    let links = u32s(&snap, "links");
    assert!(!links.is_empty() && links.iter().all(|&l| l < 96 * 4), "{links:?}");
    assert!(u32s(&snap, "positions").iter().all(|&p| p < 96));
    let stats: JsValue = sim.stats().into();
    assert_eq!(u32s(&stats, "in_flight").len(), 3);
    assert_eq!(u32s(&stats, "queue_series").len(), 3);
    assert_eq!(sim.sources().length(), 96);
    assert_eq!(sim.destinations().length(), 96);
}

#[wasm_bindgen_test]
fn runs_to_the_end_above_the_lower_bound() {
    let mut sim = Simulation::new(mesh_config("torus:6x6", "greedy")).unwrap();
    let summary: JsValue = sim.run_to_end(100_000.0.into()).unwrap().into();
    assert_eq!(get(&summary, "status").as_string().unwrap(), "finished");
    assert_eq!(num(&summary, "delivered"), 36.0);
    let report = sim.report().unwrap();
    let bounds = sim.bounds().unwrap();
    assert!(num(&report, "steps") >= num(&bounds, "best"));
    assert_eq!(num(&report, "steps"), num(&summary, "step").min(num(&report, "steps")));
    assert_eq!(get(&report, "topology").as_string().unwrap(), "torus:6x6");
}

#[wasm_bindgen_test]
fn errors_arrive_as_js_errors_with_the_core_message() {
    let bad_topology = message(Simulation::new(mesh_config("mesh:0x4", "greedy")));
    assert!(bad_topology.contains("invalid topology 'mesh:0x4'"), "{bad_topology}");
    let unknown = message(Simulation::new(mesh_config("blob:3", "greedy")));
    assert!(unknown.contains("blob:3"), "{unknown}");
    let unsupported = message(Simulation::new(mesh_config("mesh:4x4", "bit-fixing")));
    assert!(
        unsupported.contains("algorithm 'bit-fixing' cannot run here"),
        "{unsupported}"
    );
    let no_such = message(Simulation::new(mesh_config("mesh:4x4", "teleport")));
    assert!(no_such.contains("invalid algorithm 'teleport'"), "{no_such}");
    let policy = message(Simulation::new(config(&[
        ("topology", "mesh:4x4".into()),
        ("policy", "lifo".into()),
    ])));
    assert!(policy.contains("invalid policy 'lifo'"), "{policy}");
    let key = message(Simulation::new(config(&[
        ("topology", "mesh:4x4".into()),
        ("colour", "red".into()),
    ])));
    assert!(key.contains("invalid config") && key.contains("colour"), "{key}");
    let large = message(Simulation::new(mesh_config("mesh:2048x2048", "greedy")));
    assert!(large.contains("too large"), "{large}");
    let many = message(Simulation::new(config(&[
        ("topology", "mesh:1024x1024".into()),
        ("workload", "random-permutation".into()),
        ("l", 4.into()),
    ])));
    assert!(many.contains("too large"), "{many}");
    let topo = message(wasm::topology(JsValue::from("torus:2x5")));
    assert!(topo.contains("torus:2x5"), "{topo}");
    // lmrr keeps every path: the browser refuses a run whose paths total
    // more than 2^24 nodes (mesh:512x512, about 89 M) by name.
    let paths = message(Simulation::new(config(&[
        ("topology", "mesh:512x512".into()),
        ("algorithm", "lmrr".into()),
        ("workload", "random-permutation".into()),
    ])));
    assert!(
        paths.contains("lmrr on mesh:512x512: total path length") && paths.contains("exceeds the limit 16777216"),
        "{paths}"
    );
    // … and a run whose leveled networks pass 2^22 logical nodes, whose
    // schedulers' copies would pass the page's budget (hypercube:18 grew
    // it to 1.5 GiB): 19 levels of 2^18 nodes.
    let logical = message(Simulation::new(config(&[
        ("topology", "hypercube:18".into()),
        ("algorithm", "lmrr".into()),
        ("workload", "random-permutation".into()),
    ])));
    assert!(
        logical.contains("lmrr on hypercube:18: logical nodes of its leveled networks")
            && logical.contains("4980736 exceeds the limit 4194304"),
        "{logical}"
    );
}

/// Counts the page passes are JS numbers: a negative, fractional, NaN or
/// too large one is refused by name, not wrapped to a u32 (−1 would run a
/// run to its end), and nothing moves.
#[wasm_bindgen_test]
fn bad_counts_are_refused_by_name_and_change_nothing() {
    let mut sim = Simulation::new(mesh_config("mesh:8x8", "greedy")).unwrap();
    sim.step(2.0.into()).unwrap();
    let want = "expected a whole number from 0 to 4294967295";
    for (field, value) in [("n", -1.0), ("n", 1.5), ("n", f64::NAN), ("n", 4294967296.0)] {
        let e = message(sim.step(value.into()));
        assert!(
            e.contains(&format!("invalid {field} '{value}'")) && e.contains(want),
            "{e}"
        );
        let e = message(sim.measure(value.into()));
        assert!(e.contains(&format!("invalid {field} '{value}'")), "{e}");
    }
    let e = message(sim.goto((-3.0).into()));
    assert!(e.contains("invalid step '-3'") && e.contains(want), "{e}");
    let e = message(sim.run_to_end(f64::INFINITY.into()));
    assert!(e.contains("invalid max_steps 'inf'"), "{e}");
    let e = message(sim.watch((-1.0).into()));
    assert!(e.contains("invalid packet '-1'"), "{e}");
    // Not a number at all: the glue once turned null into 0 (a goto to
    // step 0), true into 1 and "5" into 5.
    for (bad, shown) in [
        (JsValue::NULL, "null"),
        (JsValue::TRUE, "true"),
        (JsValue::from("5"), "\"5\""),
    ] {
        let e = message(sim.goto(bad.clone()));
        assert!(
            e.contains(&format!("invalid step '{shown}'")) && e.contains(want),
            "{e}"
        );
        assert!(message(sim.step(bad.clone())).contains(&format!("invalid n '{shown}'")));
        assert!(message(wasm::describe_node("mesh:4x4".into(), bad.clone())).contains("invalid node"));
        assert!(message(wasm::check_instance_text(bad.clone())).contains(&format!("invalid bytes '{shown}'")));
    }
    // A BigInt, which JSON cannot write, is quoted as JS writes it.
    let big = js_sys::BigInt::from(10u64).pow(&js_sys::BigInt::from(30u64));
    let e = message(wasm::describe_node("mesh:4x4".into(), big.into()));
    assert!(e.contains("invalid node '1000000000000000000000000000000n'"), "{e}");
    assert!(message(sim.watch(JsValue::TRUE)).contains("invalid packet 'true'"));
    assert_eq!(sim.watch(JsValue::NULL).unwrap().length(), 0, "null follows no packet");
    assert_eq!(num(&sim.summary().into(), "step"), 2.0, "a refused count moves nothing");
    let e = message(wasm::describe_node(JsValue::from("mesh:4x4"), 16.0.into()));
    assert!(e.contains("invalid node '16'") && e.contains("nodes 0 to 15"), "{e}");
    assert_eq!(
        wasm::describe_node(JsValue::from("mesh:4x4"), 15.0.into()).unwrap(),
        "row 3, col 3"
    );
    // The load mode's step too.
    let load = config(&[
        ("topology", "mesh:4x4".into()),
        ("algorithm", "greedy".into()),
        ("pattern", "uniform".into()),
        ("rate", 0.1.into()),
    ]);
    let mut watch = wasm::LoadSim::new(load).unwrap();
    let e = message(watch.step((-1.0).into()));
    assert!(e.contains("invalid n '-1'") && e.contains(want), "{e}");
    watch.step(3.0.into()).unwrap();
}

#[wasm_bindgen_test]
fn generated_workloads_have_a_tighter_cap_than_loaded_instances() {
    let generated = message(Simulation::new(mesh_config("mesh:1024x1024", "greedy")));
    assert!(
        generated.contains("nodes too large: 1048576 exceeds the limit 262144"),
        "{generated}"
    );
    // Past the loaded instances' cap too: the same limit named.
    let huge = message(Simulation::new(mesh_config("mesh:2000x2000", "greedy")));
    assert!(huge.contains("4000000 exceeds the limit 262144"), "{huge}");
    let loaded = config(&[(
        "instance",
        r#"{"topology":"mesh:1024x1024","packets":[[0,1048575]]}"#.into(),
    )]);
    let mut sim = Simulation::new(loaded).unwrap();
    let summary: JsValue = sim.run_to_end(10_000.0.into()).unwrap().into();
    assert_eq!(num(&summary, "step"), 2046.0);
}

/// The page asks before it reads an instance file: up to the loaded
/// instances' text limit a file passes, one byte more is refused with the
/// core's message, and a size that is no number of bytes by name.
#[wasm_bindgen_test]
fn an_instance_file_is_checked_by_its_size() {
    let limit = num(&wasm::limits().into(), "max_bytes");
    assert!(wasm::check_instance_text(limit.into()).is_ok());
    assert!(wasm::check_instance_text(0.0.into()).is_ok());
    assert_eq!(
        message(wasm::check_instance_text((limit + 1.0).into())),
        format!(
            "instance text bytes too large: {} exceeds the limit {limit}",
            limit + 1.0
        )
    );
    assert!(message(wasm::check_instance_text(f64::INFINITY.into())).contains("too large"));
    for (bad, shown) in [(-1.0, "-1"), (f64::NAN, "NaN")] {
        let e = message(wasm::check_instance_text(bad.into()));
        assert!(e.starts_with(&format!("invalid bytes '{shown}'")), "{e}");
    }
}

#[wasm_bindgen_test]
fn a_bad_instance_is_refused_and_nothing_changes() {
    let mut sim = Simulation::new(mesh_config("mesh:4x4", "greedy")).unwrap();
    sim.step(2.0.into()).unwrap();
    let not_json = message(sim.load_instance(JsValue::from("{not json")));
    assert!(not_json.contains("not valid JSON"), "{not_json}");
    let out_of_range = message(sim.load_instance(JsValue::from(r#"{"topology":"mesh:2x2","packets":[[0,4]]}"#)));
    assert!(out_of_range.contains("packets[0][1] '4'"), "{out_of_range}");
    let summary: JsValue = sim.summary().into();
    assert_eq!(num(&summary, "step"), 2.0);
    assert_eq!(num(&summary, "packets"), 16.0);
    sim.load_instance(JsValue::from(
        r#"{"topology":"linear:5","packets":[[0,4],[0,3],[0,2]]}"#,
    ))
    .unwrap();
    let summary: JsValue = sim.run_to_end(100.0.into()).unwrap().into();
    assert_eq!((num(&summary, "step"), num(&summary, "delivered")), (4.0, 3.0));
    assert_eq!(get(&sim.topology().into(), "name").as_string().unwrap(), "linear:5");
}

#[wasm_bindgen_test]
fn same_seed_same_run_and_the_native_numbers() {
    let cfg = || {
        config(&[
            ("instance", reference_instance().into()),
            ("algorithm", "valiant".into()),
            ("policy", "random".into()),
            ("seed", 7.into()),
        ])
    };
    let mut a = Simulation::new(cfg()).unwrap();
    let mut b = Simulation::new(cfg()).unwrap();
    a.run_to_end(10_000.0.into()).unwrap();
    b.run_to_end(10_000.0.into()).unwrap();
    let (sa, sb): (JsValue, JsValue) = (a.stats().into(), b.stats().into());
    for key in ["in_flight", "queue_series", "links_used", "deliveries"] {
        assert_eq!(u32s(&sa, key), u32s(&sb, key), "{key}");
    }
    let report = a.report().unwrap();
    let got = (
        num(&report, "steps") as u32,
        num(&report, "delivered") as u32,
        num(&report, "max_queue") as u32,
        num(&report, "packet_hops") as u64,
    );
    assert_eq!(got, REFERENCE);
}

#[wasm_bindgen_test]
fn watch_gives_the_route_so_far() {
    let mut sim = Simulation::new(mesh_config("mesh:6x6", "greedy")).unwrap();
    sim.step(4.0.into()).unwrap();
    let sources = sim.sources().to_vec();
    let snap: JsValue = sim.snapshot().into();
    let positions = u32s(&snap, "positions");
    let p = (0..36)
        .find(|&p| positions[p] != sources[p])
        .expect("some packet moved");
    let trail = sim.watch(f64::from(p as u32).into()).unwrap().to_vec();
    assert_eq!(trail.first(), Some(&sources[p]));
    assert_eq!(trail.last(), Some(&positions[p]));
    assert!(trail.len() <= 5);
    sim.step(100.0.into()).unwrap();
    let trail = sim.trail().to_vec();
    assert_eq!(trail.last(), Some(&sim.destinations().to_vec()[p]));
    let e = message(sim.watch(99.0.into()));
    assert!(e.contains("packet '99'"), "{e}");
}

#[wasm_bindgen_test]
fn static_lists_name_everything() {
    let names = |v: JsValue| -> Vec<String> {
        js_sys::Array::from(&v)
            .iter()
            .map(|o| get(&o, "name").as_string().unwrap())
            .collect()
    };
    let catalogue = wasm::catalogue().unwrap();
    let registry: Vec<String> = routesim::algorithms::REGISTRY
        .iter()
        .map(|a| a.name.to_string())
        .collect();
    assert_eq!(names(get(&catalogue, "algorithms")), registry);
    let policies: Vec<String> = routesim::engine::Policy::ALL
        .iter()
        .map(|p| p.name().to_string())
        .collect();
    assert_eq!(names(get(&catalogue, "policies")), policies);
    let workloads: Vec<String> = routesim::workload::Workload::ALL
        .iter()
        .map(|w| w.name().to_string())
        .collect();
    assert_eq!(names(get(&catalogue, "workloads")), workloads);
    assert!(workloads.iter().any(|w| w == "random-lk"));
    assert_eq!(
        names(get(&catalogue, "topologies")),
        [
            "linear",
            "ring",
            "mesh",
            "torus",
            "hypercube",
            "butterfly",
            "shuffle-exchange"
        ]
    );
    let topo: JsValue = wasm::topology(JsValue::from("torus:3x4")).unwrap().into();
    assert_eq!(num(&topo, "nodes"), 12.0);
    assert_eq!(u32s(&topo, "neighbors").len(), 48);
    assert!(get(&topo, "wrap").as_bool().unwrap());
    assert!(get(&topo, "necklace").is_undefined());
    // The shuffle-exchange's drawing facts, from the core: 000110 is one
    // rotation into the necklace of 000011; 14 necklaces of 6 bits.
    let se: JsValue = wasm::topology(JsValue::from("shuffle-exchange:6")).unwrap().into();
    let (necklace, position, weight) = (u32s(&se, "necklace"), u32s(&se, "position"), u32s(&se, "weight"));
    assert_eq!(necklace.len(), 64);
    assert_eq!(necklace.iter().max(), Some(&13));
    assert_eq!((position[0b000110], weight[0b101101]), (1, 4));
}

#[wasm_bindgen_test]
fn pp_names_its_phase_and_shows_its_control_messages() {
    let cfg = config(&[
        ("topology", "mesh:8x8".into()),
        ("algorithm", "pp-rand".into()),
        ("workload", "random-lk".into()),
        ("l", 2.into()),
        ("k", 2.into()),
        ("seed", 1.into()),
    ]);
    let mut sim = Simulation::new(cfg).unwrap();
    let mut saw_control = false;
    let mut phases = Vec::new();
    for _ in 0..200 {
        sim.step(1.0.into()).unwrap();
        let snap: JsValue = sim.snapshot().into();
        let control = num(&snap, "control_links") as usize;
        assert!(control <= u32s(&snap, "links").len());
        saw_control |= control > 0;
        let phase = get(&snap, "phase").as_string().unwrap();
        assert!(!phase.is_empty(), "no phase named at step {}", num(&snap, "step"));
        if phases.last() != Some(&phase) {
            phases.push(phase);
        }
    }
    assert!(saw_control, "pp-rand sent no control message in 200 steps");
    assert!(phases.len() >= 2, "{phases:?}");
    let summary: JsValue = sim.run_to_end(1_000_000.0.into()).unwrap().into();
    assert_eq!(get(&summary, "status").as_string().unwrap(), "finished");
}

/// The wasm path of a run request: `new Simulation(config)` gives the same
/// report as the core's `RunSpec::from_json(…).build()` on the same config,
/// so the page runs exactly what the CLI and the sweep run (tests/it/request.rs
/// compares those natively).
#[wasm_bindgen_test]
fn the_wasm_path_runs_the_core_request() {
    use routesim::request::RunSpec;
    for (topology, algorithm, workload, policy) in [
        ("mesh:8x8", "pp-rand", "random-lk", "farthest-first"),
        ("torus:6x6", "valiant", "transpose", "random"),
        ("hypercube:5", "bit-fixing", "bit-reversal", "fifo"),
        ("mesh:8x8", "offline", "random-permutation", "farthest-first"),
    ] {
        let cfg = config(&[
            ("topology", topology.into()),
            ("algorithm", algorithm.into()),
            ("workload", workload.into()),
            ("policy", policy.into()),
            ("l", 2.into()),
            ("k", 2.into()),
            ("seed", 5.into()),
            ("queue_cap", 4.into()),
        ]);
        let json: serde_json::Value = serde_wasm_bindgen::from_value(cfg.clone()).unwrap();
        let mut core = RunSpec::from_json(RunSpec::browser(), &json).unwrap().build().unwrap();
        core.run();
        // Both reports through the same JS serialization, so numbers print alike.
        let core_js =
            serde::Serialize::serialize(&core.report(), &serde_wasm_bindgen::Serializer::json_compatible()).unwrap();
        let expected = js_sys::JSON::stringify(&core_js).unwrap().as_string().unwrap();
        let mut sim = Simulation::new(cfg).unwrap();
        sim.run_to_end(1_000_000.0.into()).unwrap();
        let got = js_sys::JSON::stringify(&sim.report().unwrap())
            .unwrap()
            .as_string()
            .unwrap();
        assert_eq!(got, expected, "{topology} {algorithm}");
    }
}

#[wasm_bindgen_test]
fn explain_compare_and_lessons_convert_the_core() {
    let mut sim = Simulation::new(config(&[
        ("topology", "mesh:16x16".into()),
        ("algorithm", "greedy".into()),
        ("workload", "greedy-worst".into()),
    ]))
    .unwrap();
    let mut other = sim.compare(JsValue::from("offline")).unwrap();
    assert_eq!(sim.instance_json(), other.instance_json());
    let view = sim.explain_with(&other, JsValue::from("intro")).unwrap();
    let main = get(&view, "main");
    assert_eq!(get(&main, "algorithm").as_string().unwrap(), "greedy");
    let claims = js_sys::Array::from(&get(&main, "claims"));
    let headlines: Vec<String> = claims
        .iter()
        .map(|c| get(&c, "headline").as_string().unwrap())
        .collect();
    assert!(
        headlines.iter().any(|h| h.starts_with("≤ 2n − 2 = 30 steps")),
        "{headlines:?}"
    );
    assert!(get(&view, "verdict").is_null());
    sim.run_to_end(1000.0.into()).unwrap();
    other.run_to_end(1000.0.into()).unwrap();
    let view = sim.explain_with(&other, JsValue::from("")).unwrap();
    let verdict = get(&view, "verdict").as_string().unwrap();
    assert!(
        verdict.starts_with("greedy: 15 steps, largest queue 9 · offline: "),
        "{verdict}"
    );
    assert!(get(&view, "lesson").is_null());
    // A second algorithm that cannot route the instance, an unknown lesson: the core's messages.
    assert!(message(sim.compare(JsValue::from("bit-fixing"))).contains("hypercube"));
    assert!(message(sim.explain(JsValue::from("nope"))).contains("'nope'"));
    // The lessons, with their run configs.
    let lessons = js_sys::Array::from(&wasm::lessons().unwrap());
    assert_eq!(lessons.length() as usize, routesim::lessons::LESSONS.len());
    let first = lessons.get(0);
    assert_eq!(get(&first, "id").as_string().unwrap(), "lemma2-linear");
    assert_eq!(
        get(&get(&first, "config"), "topology").as_string().unwrap(),
        "linear:32"
    );
    let intro = wasm::lesson(JsValue::from("intro")).unwrap();
    assert_eq!(get(&get(&intro, "preset"), "compare").as_string().unwrap(), "offline");
    assert!(get(&intro, "load_config").is_undefined());
}

/// A lesson's load curve through the wasm API: the core's `load_config`
/// (what the page's form sends), and `LoadCurve.lesson_check` on a curve as
/// it runs, the same as natively.
#[wasm_bindgen_test]
fn a_lessons_load_curve_and_its_check_convert_the_core() {
    let lesson = wasm::lesson(JsValue::from("valiant-load")).unwrap();
    let preset = routesim::lessons::lookup("valiant-load").unwrap().load.unwrap();
    let load_config: serde_json::Value = serde_wasm_bindgen::from_value(get(&lesson, "load_config")).unwrap();
    assert_eq!(load_config, preset.config());
    // A small curve of the same shape, up to saturation.
    let small = config(&[
        ("topology", "torus:6x6".into()),
        ("algorithms", "greedy,valiant".into()),
        ("patterns", "uniform,tornado".into()),
        ("rates", "0.1,0.3,0.5,0.7,0.9".into()),
        ("warmup", "30".into()),
        ("measure", "100".into()),
        ("drain", "300".into()),
        ("up_to_saturation", true.into()),
    ]);
    let mut curve = wasm::LoadCurve::new(small).unwrap();
    let first = curve.lesson_check(JsValue::from("valiant-load")).unwrap();
    assert_eq!(get(&first, "verdict").as_string().unwrap(), "pending");
    assert_eq!(num(&first, "runs"), 0.0);
    while !curve.run_next().unwrap().is_undefined() {}
    let check = curve.lesson_check(JsValue::from("valiant-load")).unwrap();
    let checks = js_sys::Array::from(&get(&check, "checks"));
    assert_eq!(checks.length(), 2);
    // Natively, the same curve gives the same lines.
    let json = serde_json::json!({"topology": "torus:6x6", "algorithms": "greedy,valiant",
        "patterns": "uniform,tornado", "rates": "0.1,0.3,0.5,0.7,0.9", "warmup": "30", "measure": "100",
        "drain": "300", "up_to_saturation": true});
    let mut native = routesim::load::Curve::browser_from_json(&json).unwrap();
    while native.run_next().unwrap().is_some() {}
    let lesson = routesim::lessons::lookup("valiant-load").unwrap();
    let expected = routesim::explain::load_lesson(lesson, &native).unwrap();
    assert_eq!(num(&check, "runs") as usize, expected.runs);
    for (i, line) in expected.checks.iter().enumerate() {
        assert_eq!(get(&checks.get(i as u32), "text").as_string().unwrap(), line.text);
    }
    assert!(curve.lesson_check(JsValue::from("lemma2-linear")).unwrap().is_null());
    assert!(message(curve.lesson_check(JsValue::from("nope"))).contains("'nope'"));
}

/// A snapshot's contents as plain values (every typed array and field).
fn snapshot_values(sim: &Simulation) -> Vec<String> {
    let snap: JsValue = sim.snapshot().into();
    let mut out = Vec::new();
    for key in [
        "step",
        "delivered",
        "packets",
        "in_flight",
        "max_queue",
        "control_links",
    ] {
        out.push(format!("{key}={}", num(&snap, key)));
    }
    for key in ["status", "phase"] {
        out.push(format!("{key}={}", get(&snap, key).as_string().unwrap()));
    }
    for key in ["positions", "delivered_at", "queues", "waiting", "links"] {
        out.push(format!("{key}={:?}", u32s(&snap, key)));
    }
    let classes = get(&snap, "classes").dyn_into::<Uint8Array>().unwrap().to_vec();
    out.push(format!("classes={classes:?}"));
    out
}

/// The timeline through the wasm API: `goto` back then forward gives the
/// snapshots that going forward gave; `step_back`, `furthest` and `phases`
/// (100 steps: pp-rand routes this instance in about 130).
#[wasm_bindgen_test]
fn goto_back_then_forward_gives_identical_snapshots() {
    let cfg = config(&[
        ("topology", "mesh:8x8".into()),
        ("algorithm", "pp-rand".into()),
        ("workload", "random-lk".into()),
        ("l", 2.into()),
        ("k", 2.into()),
        ("seed", 4.into()),
    ]);
    let mut sim = Simulation::new(cfg).unwrap();
    let mut seen = vec![snapshot_values(&sim)];
    for _ in 0..100 {
        sim.step(1.0.into()).unwrap();
        seen.push(snapshot_values(&sim));
    }
    assert_eq!(sim.furthest(), 100);
    for t in [75u32, 3, 99, 0, 100, 40, 41, 80] {
        let summary: JsValue = sim.goto(f64::from(t).into()).unwrap().into();
        assert_eq!(num(&summary, "step"), t as f64);
        assert_eq!(snapshot_values(&sim), seen[t as usize], "step {t}");
        assert_eq!(sim.furthest(), 100);
    }
    sim.goto(10.0.into()).unwrap();
    let back: JsValue = sim.step_back().into();
    assert_eq!(num(&back, "step"), 9.0);
    assert_eq!(snapshot_values(&sim), seen[9]);
    sim.step(1.0.into()).unwrap();
    assert_eq!(snapshot_values(&sim), seen[10]);
    // The series cover every step computed, whatever step is shown.
    let stats: JsValue = sim.stats().into();
    assert_eq!(u32s(&stats, "in_flight").len(), 100);
    // Phases as bands: consecutive, up to the furthest step.
    let phases = sim.phases();
    assert!(phases.length() >= 2);
    let mut end = 0.0;
    for phase in phases.iter() {
        assert_eq!(num(&phase, "start"), end);
        assert!(!get(&phase, "name").as_string().unwrap().is_empty());
        end += num(&phase, "steps");
    }
    assert_eq!(end, 100.0);
    // Forward past the furthest step computes on; past the end stops at the end.
    let summary: JsValue = sim.goto(1_000_000.0.into()).unwrap().into();
    assert_eq!(get(&summary, "status").as_string().unwrap(), "finished");
    assert_eq!(sim.furthest() as f64, num(&summary, "step"));
}

/// Worms (`flits`): the config key and the URL parameter reach the core,
/// and the snapshot carries each stretched worm's nodes, head first
/// (`packet, n, nodes…`); with F = 1 `worms` is empty.
#[wasm_bindgen_test]
fn snapshots_carry_the_worms_trails() {
    let base = mesh_config("linear:8", "greedy");
    let parsed = wasm::parse_query(JsValue::from("?flits=3"), base).unwrap();
    let cfg = get(&parsed, "config");
    assert_eq!(num(&cfg, "flits"), 3.0);
    let mut sim = Simulation::new(cfg).unwrap();
    let mut stretched = false;
    while get(&sim.summary().into(), "status").as_string().unwrap() == "running" {
        sim.step(1.0.into()).unwrap();
        let snap: JsValue = sim.snapshot().into();
        assert_eq!(num(&snap, "flits"), 3.0);
        let worms = u32s(&snap, "worms");
        let mut i = 0;
        while i < worms.len() {
            let n = worms[i + 1] as usize;
            assert!((2..=3).contains(&n), "{worms:?}");
            // Consecutive nodes of a trail are neighbours on the line.
            for pair in worms[i + 2..i + 2 + n].windows(2) {
                assert_eq!(pair[0].abs_diff(pair[1]), 1, "{worms:?}");
            }
            stretched = true;
            i += 2 + n;
        }
        assert_eq!(i, worms.len());
    }
    assert!(stretched);
    let mut plain = Simulation::new(mesh_config("linear:8", "greedy")).unwrap();
    plain.step(1.0.into()).unwrap();
    let snap: JsValue = plain.snapshot().into();
    assert!(u32s(&snap, "worms").is_empty());
    assert_eq!(num(&snap, "flits"), 1.0);
}

/// The page's fall-back from an address whose run the core refuses
/// (`blame_query`): the URL parameter blamed, the config to run and the
/// warning line arrive as a plain object; a run that builds gives `null`.
#[wasm_bindgen_test]
fn blame_query_converts_the_core_answer() {
    let defaults = mesh_config("mesh:16x16", "greedy");
    let over = mesh_config("mesh:2048x2048", "valiant");
    let blame = wasm::blame_query(
        over,
        JsValue::from("?algorithm=valiant&topology=mesh:2048x2048"),
        defaults.clone(),
    )
    .unwrap();
    assert_eq!(get(&blame, "key").as_string().as_deref(), Some("topology"));
    let warning = get(&blame, "warning").as_string().unwrap();
    assert!(
        warning.starts_with("URL parameter topology=\"mesh:2048x2048\" ignored: "),
        "{warning}"
    );
    assert!(warning.ends_with(" — using mesh:16x16."), "{warning}");
    let cfg = get(&blame, "config");
    assert_eq!(get(&cfg, "algorithm").as_string().as_deref(), Some("valiant"));
    assert!(js_sys::Array::is_array(&get(&blame, "messages")));
    Simulation::new(cfg).unwrap();
    let fine = mesh_config("mesh:8x8", "greedy");
    assert!(wasm::blame_query(fine, JsValue::from("?topology=mesh:8x8"), defaults)
        .unwrap()
        .is_null());
}

/// Text parameters take any JS value and refuse what is not a string by
/// name: wasm-bindgen's glue passes a `&str` argument unchecked, and a
/// number, an object or `null` there read outside the module's memory (a
/// trap, "memory access out of bounds"). NaN and ±Infinity in a config
/// were read as "not given" (the default silently used): refused by name
/// too. The module goes on working after each refusal.
#[wasm_bindgen_test]
fn other_values_for_text_and_non_finite_numbers_are_refused_by_name() {
    let mut sim = Simulation::new(mesh_config("mesh:4x4", "greedy")).unwrap();
    let base = || -> JsValue { mesh_config("mesh:4x4", "greedy") };
    for bad in [
        JsValue::from(5),
        JsValue::NULL,
        JsValue::UNDEFINED,
        Object::new().into(),
    ] {
        let named = |m: String, field: &str| {
            assert!(
                m.contains(&format!("invalid {field} '")) && m.contains("expected a string"),
                "{m}"
            );
        };
        named(message(sim.load_instance(bad.clone())), "instance");
        named(message(sim.explain(bad.clone())), "lesson");
        named(message(sim.pace(bad.clone())), "lesson");
        named(message(sim.predict_result(bad.clone(), JsValue::from("1"))), "lesson");
        named(message(sim.compare(bad.clone())), "compare");
        named(message(wasm::topology(bad.clone())), "topology");
        named(message(wasm::describe_node(bad.clone(), 0.0.into())), "topology");
        named(message(wasm::lesson(bad.clone())), "lesson");
        named(message(wasm::parse_query(bad.clone(), base())), "search");
        named(message(wasm::blame_query(base(), bad.clone(), base())), "search");
        assert!(wasm::topology_kind(bad.clone()).is_none());
    }
    // `null` and `undefined` are "none" where a text is optional.
    assert!(sim.label(JsValue::NULL).is_ok() && sim.label(JsValue::UNDEFINED).is_ok());
    assert!(message(sim.label(JsValue::from(3))).contains("invalid beside '3'"));
    assert!(wasm::reconcile(base(), JsValue::NULL).is_ok());
    assert!(message(wasm::reconcile(base(), JsValue::from(true))).contains("invalid changed 'true'"));
    // A name that is not one: an algorithm beside this run, the field that led.
    assert!(sim.label(JsValue::from("offline")).is_ok());
    let m = message(sim.label(JsValue::from("nope")));
    assert!(m.contains("invalid beside 'nope'") && m.contains("greedy"), "{m}");
    assert!(wasm::reconcile(base(), JsValue::from("workload")).is_ok());
    let m = message(wasm::reconcile(base(), JsValue::from("nope")));
    assert!(m.contains("invalid changed 'nope'") && m.contains("workload"), "{m}");
    for (field, value, shown) in [
        ("seed", f64::NAN, "NaN"),
        ("k", f64::INFINITY, "Infinity"),
        ("queue_cap", f64::NEG_INFINITY, "-Infinity"),
    ] {
        let m = message(Simulation::new(config(&[
            ("topology", "mesh:8x8".into()),
            ("workload", "random-kk".into()),
            (field, value.into()),
        ])));
        assert!(
            m.contains(&format!("invalid {field} '{shown}'")) && m.contains("finite"),
            "{m}"
        );
    }
    let curve = message(wasm::LoadCurve::new(config(&[
        ("topology", "mesh:8x8".into()),
        ("algorithms", "greedy".into()),
        ("patterns", "uniform".into()),
        ("rates", "0.1".into()),
        ("warmup", f64::NAN.into()),
    ])));
    assert!(curve.contains("invalid warmup 'NaN'"), "{curve}");
    // A key the form does not read is refused, as a run's config refuses
    // one (`sed` was read as "not given"), and so is a form that is no object.
    let curve = || {
        config(&[
            ("topology", "mesh:8x8".into()),
            ("algorithms", "greedy".into()),
            ("patterns", "uniform".into()),
            ("rates", "0.1".into()),
        ])
    };
    let typo = curve();
    Reflect::set(&typo, &"sed".into(), &7.into()).unwrap();
    assert!(message(wasm::LoadCurve::new(typo)).contains("invalid load curve key 'sed'"));
    assert!(message(wasm::LoadCurve::new("mesh:8x8".into())).contains("expected an object"));
    assert!(wasm::LoadCurve::new(curve()).is_ok());
    let watch = config(&[
        ("topology", "mesh:8x8".into()),
        ("algorithm", "greedy".into()),
        ("pattern", "uniform".into()),
        ("rate", "0.1".into()),
        ("sed", 7.into()),
    ]);
    assert!(message(wasm::LoadSim::new(watch)).contains("invalid load run key 'sed'"));
    let experiment = config(&[
        ("base", mesh_config("mesh:4x4", "greedy")),
        ("vary", "n".into()),
        ("values", "4".into()),
        ("algorithms", "greedy".into()),
        ("seeds", "1".into()),
        ("sed", 7.into()),
    ]);
    assert!(message(wasm::Experiment::new(experiment)).contains("invalid experiment key 'sed'"));
    // NaN inside a nested object (an experiment's base) is refused by its
    // path too: it was read as "not given", the default seed used.
    let base = mesh_config("mesh:4x4", "greedy");
    Reflect::set(&base, &"seed".into(), &f64::NAN.into()).unwrap();
    let experiment = config(&[
        ("base", base),
        ("vary", "n".into()),
        ("values", "4".into()),
        ("algorithms", "greedy".into()),
        ("seeds", "1".into()),
    ]);
    let m = message(wasm::Experiment::new(experiment));
    assert!(m.contains("invalid base.seed 'NaN'"), "{m}");
    // A function as a field is named, not "invalid type: JsValue(Function…)".
    let m = message(Simulation::new(config(&[
        ("topology", "mesh:8x8".into()),
        ("seed", js_sys::Function::new_no_args("return 1").into()),
    ])));
    assert!(m.contains("invalid seed 'a function'"), "{m}");
    // Still working: a fresh run goes to its end.
    let mut fresh = Simulation::new(mesh_config("mesh:4x4", "greedy")).unwrap();
    fresh.run_to_end(1e6.into()).unwrap();
    assert_eq!(num(&fresh.summary().into(), "delivered"), 16.0);
}

/// A config nested thousands deep, or cyclic, is refused by name: the
/// JSON reader recursed once per level, overflowed the wasm stack at
/// 4,000 levels and left the module trapping on every later call (the
/// fuzz audit of 2026-12-01). And the load form's menu refuses a network
/// larger than the page's load curves take, before building it (typing
/// hypercube:26 built 2^26 nodes per keystroke).
#[wasm_bindgen_test]
fn deep_or_cyclic_configs_and_huge_load_networks_are_refused_and_the_module_goes_on() {
    let deep = mesh_config("mesh:4x4", "greedy");
    let mut inner: JsValue = Object::new().into();
    Reflect::set(&deep, &"x".into(), &inner).unwrap();
    for _ in 0..5000 {
        let next: JsValue = Object::new().into();
        Reflect::set(&inner, &"x".into(), &next).unwrap();
        inner = next;
    }
    let m = message(Simulation::new(deep));
    assert!(m.contains("invalid config") && m.contains("64 deep"), "{m}");
    let cyclic = mesh_config("mesh:4x4", "greedy");
    let list = Array::new();
    list.push(&list);
    Reflect::set(&cyclic, &"x".into(), &list).unwrap();
    let m = message(Simulation::new(cyclic));
    assert!(m.contains("64 deep (and no cycle)"), "{m}");
    let m = message(wasm::load_choices("hypercube:26".into()));
    assert!(m.contains("hypercube:26") && m.contains("at most 1024"), "{m}");
    assert!(wasm::load_choices("mesh:8x8".into()).is_ok());
    let mut fresh = Simulation::new(mesh_config("mesh:4x4", "greedy")).unwrap();
    fresh.run_to_end(1e6.into()).unwrap();
    assert_eq!(num(&fresh.summary().into(), "delivered"), 16.0);
}

/// A load curve whose runs would pass the page's memory budget is refused
/// when it is made, naming the estimate and the limit, before any run: a
/// saturated mesh:32x32 at rate 1 over 20,000 steps once ran for minutes
/// towards 4 GB.
#[wasm_bindgen_test]
fn a_load_curve_over_the_page_budget_is_refused_before_it_runs() {
    let m = message(wasm::LoadCurve::new(config(&[
        ("topology", "mesh:32x32".into()),
        ("algorithms", "greedy".into()),
        ("patterns", "uniform".into()),
        ("rates", "0.5,1".into()),
        ("warmup", 5000.into()),
        ("measure", 5000.into()),
        ("drain", 9999.into()),
    ])));
    assert!(m.contains("mesh:32x32") && m.contains("memory budget"), "{m}");
}

/// A sort's keys as the page shades them: each key's place among the
/// distinct keys, exact where keys as numbers are not (four integers next
/// to 2^64 are one double, and were one colour); a routing run has none.
#[wasm_bindgen_test]
fn key_places_order_keys_that_doubles_cannot_tell_apart() {
    let text = r#"{"topology":"hypercube:2","packets":[[0,3],[1,0],[2,2],[3,1]],"keys":[18446744073709551615,18446744073709551612,18446744073709551614,18446744073709551613]}"#;
    let sim = Simulation::new(config(&[("instance", text.into()), ("algorithm", "bitonic".into())])).unwrap();
    let keys = sim.keys().to_vec();
    assert!(keys.iter().all(|&k| k == keys[0]), "as doubles the four keys are one");
    assert_eq!(sim.key_places().to_vec(), [3, 0, 2, 1]);
    let routing = Simulation::new(mesh_config("mesh:4x4", "greedy")).unwrap();
    assert_eq!(routing.key_places().length(), 0);
}
