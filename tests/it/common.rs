//! Helpers shared by the behaviour tests.
#![allow(dead_code)]

use routesim::engine::{Engine, EngineConfig, Policy};
use routesim::primitives::Task;
use routesim::report::Report;
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
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

/// Kaufmann–Sibeyn §9's lower-bound instance on the n×n torus: every node
/// sends k packets L rows up and L columns right (locality exactly L).
pub fn torus_shift(n: u32, k: u32, l: u32) -> Instance {
    let packets: Vec<(u32, u32)> = (0..n * n)
        .flat_map(|v| {
            let (r, c) = (v / n, v % n);
            let to = ((r + n - l) % n) * n + (c + l) % n;
            std::iter::repeat_n((v, to), k as usize)
        })
        .collect();
    let topo: Topology = format!("torus:{n}x{n}").parse().expect("a torus");
    Instance::new(topo, packets).expect("a valid instance")
}

/// A mesh engine for driving primitives' tasks: side × side, with
/// `packets`, invariant checks on; packets move only when a task moves them.
pub fn engine(side: u32, packets: &[(u32, u32)]) -> Engine {
    engine_checked(side, packets, true)
}

/// An engine whose packets move only when forced, with or without invariant checks.
pub fn engine_checked(side: u32, packets: &[(u32, u32)], check_invariants: bool) -> Engine {
    let topo: Topology = format!("mesh:{side}x{side}").parse().unwrap();
    let config = EngineConfig {
        check_invariants,
        ..Default::default()
    };
    let mut e = Engine::new(topo, packets, config);
    e.set_deliver_on_arrival(false);
    for p in 0..e.packet_count() {
        if !e.is_delivered(p) {
            e.set_eligible(p, false);
        }
    }
    e
}

/// Drives a task to its end; returns the steps it took.
pub fn drive(e: &mut Engine, task: &mut dyn Task) -> u32 {
    let start = e.step_count();
    while task.poll(e) {
        e.step();
        assert!(e.step_count() - start < 1_000_000, "task does not end");
    }
    e.step_count() - start
}

/// Parses a topology name (`mesh:8x8`, `torus:4x4`, `hypercube:6`, …).
pub fn topo(name: &str) -> Topology {
    name.parse().unwrap()
}

/// The side×side mesh.
pub fn mesh(side: u32) -> Topology {
    format!("mesh:{side}x{side}").parse().unwrap()
}

/// Generates workload `w` on `t` with `seed`; a refusal panics naming both.
pub fn gen(t: &Topology, w: Workload, seed: u64) -> Instance {
    generate(t, &WorkloadSpec::new(w, seed)).unwrap_or_else(|e| panic!("{w} on {t}: {e}"))
}
