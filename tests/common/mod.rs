//! Helpers shared by the behaviour tests.
#![allow(dead_code)]

use routesim::engine::Policy;
use routesim::report::Report;
use routesim::workload::Instance;
use routesim::{SimConfig, Simulation, Status};

/// Runs `instance` to the end with invariant checks on, and asserts it finished.
pub fn run(instance: Instance, algorithm: &str, policy: Policy) -> Report {
    run_config(
        instance,
        SimConfig {
            algorithm: algorithm.into(),
            policy,
            ..Default::default()
        },
    )
}

/// Runs with a full configuration (invariant checks forced on).
pub fn run_config(instance: Instance, config: SimConfig) -> Report {
    let config = SimConfig {
        check_invariants: true,
        ..config
    };
    let mut sim = Simulation::new(instance, config).expect("valid simulation");
    assert_eq!(sim.run(), Status::Finished, "run did not finish");
    let r = sim.report();
    assert_eq!(r.delivered, r.packets);
    r
}
