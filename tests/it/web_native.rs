//! The native side of the browser determinism check: the reference run of
//! `tests/web_cases/mod.rs`, computed by the same library call natively.
//! Both files assert the same numbers, so native and wasm32 agree (the run
//! draws from the seeded generator twice: valiant's intermediates and the
//! `random` policy).

use routesim::engine::Policy;
use routesim::workload::Instance;
use routesim::{SimConfig, Simulation, Status};

/// `(steps, delivered, max_queue, packet_hops)`; keep in step with
/// `REFERENCE` in `tests/web_cases/mod.rs`.
const REFERENCE: (u32, u32, u32, u64) = (52, 256, 5, 5348);

/// The reference instance: v → 97·v + 13 mod 256 on a 16×16 mesh.
fn reference_instance() -> String {
    let pairs: Vec<String> = (0..256u32)
        .map(|v| format!("[{},{}]", v, (97 * v + 13) % 256))
        .collect();
    format!(r#"{{"topology":"mesh:16x16","packets":[{}]}}"#, pairs.join(","))
}

#[test]
fn reference_run_matches_the_numbers_the_wasm_test_expects() {
    let inst = Instance::from_json(&reference_instance()).unwrap();
    let config = SimConfig {
        algorithm: "valiant".into(),
        policy: Policy::Random,
        seed: 7,
        ..Default::default()
    };
    let mut sim = Simulation::new(inst, config).unwrap();
    assert_eq!(sim.run(), Status::Finished);
    let r = sim.report();
    println!(
        "reference: steps {} delivered {} max_queue {} hops {}",
        r.steps, r.delivered, r.max_queue, r.packet_hops
    );
    assert_eq!((r.steps, r.delivered, r.max_queue, r.packet_hops), REFERENCE);
}

#[path = "../web_cases/reference.rs"]
mod reference;

/// Every algorithm family and an open-loop curve hash to the digest the
/// wasm tests assert (see `tests/web_cases/reference.rs`).
#[test]
fn every_family_hashes_to_the_digest_the_wasm_tests_expect() {
    let got = reference::digest();
    assert_eq!(got, reference::DIGEST, "new digest: {got:#x}");
}
