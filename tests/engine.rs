//! Engine semantics (SPEC §1) on small hand-checked cases.

use routesim::engine::Policy;
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::{SimConfig, Simulation, Status};

fn run(inst: Instance, algorithm: &str, policy: Policy) -> routesim::report::Report {
    let config = SimConfig {
        algorithm: algorithm.into(),
        policy,
        check_invariants: true,
        ..Default::default()
    };
    let mut sim = Simulation::new(inst, config).unwrap();
    assert_eq!(sim.run(), Status::Finished);
    sim.report()
}

fn inst(topo: &str, packets: &[(u32, u32)]) -> Instance {
    Instance::new(topo.parse::<Topology>().unwrap(), packets.to_vec()).unwrap()
}

#[test]
fn one_packet_arrives_in_exactly_its_distance() {
    for (topo, s, d, dist) in [
        ("mesh:8x8", 0, 63, 14),
        ("torus:8x8", 0, 63, 2),
        ("hypercube:6", 0, 63, 6),
        ("ring:9", 1, 6, 4),
    ] {
        let alg = if topo.starts_with("hyper") {
            "bit-fixing"
        } else {
            "greedy"
        };
        let r = run(inst(topo, &[(s, d)]), alg, Policy::FarthestFirst);
        assert_eq!((r.steps, r.delivered, r.max_queue), (dist, 1, 1), "{topo}");
        assert_eq!(r.max_load, 1);
    }
}

#[test]
fn empty_instance_takes_zero_steps_and_self_packets_arrive_at_step_zero() {
    let r = run(inst("mesh:4x4", &[]), "greedy", Policy::FarthestFirst);
    assert_eq!((r.steps, r.packets, r.delivered), (0, 0, 0));
    let r = run(inst("mesh:4x4", &[(3, 3), (5, 5)]), "greedy", Policy::FarthestFirst);
    assert_eq!((r.steps, r.delivered), (0, 2));
}

#[test]
fn transpose_16x16_matches_the_spec_example() {
    let topo: Topology = "mesh:16x16".parse().unwrap();
    let inst = generate(&topo, &WorkloadSpec::new(Workload::Transpose, 1)).unwrap();
    let r = run(inst, "greedy", Policy::FarthestFirst);
    assert_eq!(r.steps, 30);
    assert_eq!(r.delivered, 256);
    assert!(r.steps >= r.bounds.best);
}

#[test]
fn contention_one_link_one_packet_per_step() {
    // Three packets on node 0 of a line all heading right: they leave one per step.
    let r = run(
        inst("linear:5", &[(0, 4), (0, 3), (0, 2)]),
        "greedy",
        Policy::FarthestFirst,
    );
    // farthest-first: 0->4 leaves at step 1 (arrives 4), 0->3 at 2 (arrives 4), 0->2 at 3 (arrives 4).
    assert_eq!(r.steps, 4);
    let r = run(
        inst("linear:5", &[(0, 4), (0, 3), (0, 2)]),
        "greedy",
        Policy::NearestFirst,
    );
    // nearest-first: 0->2 first (arrives 2), 0->3 (arrives 4), 0->4 (arrives 6).
    assert_eq!(r.steps, 6);
}

#[test]
fn bounded_queue_refuses_and_packets_wait() {
    let topo: Topology = "mesh:8x8".parse().unwrap();
    let inst = generate(&topo, &WorkloadSpec::new(Workload::RandomPermutation, 3)).unwrap();
    let config = SimConfig {
        queue_cap: Some(1),
        check_invariants: true,
        ..Default::default()
    };
    let mut sim = Simulation::new(inst, config).unwrap();
    let status = sim.run();
    let r = sim.report();
    assert!(r.max_queue <= 1);
    assert!(status == Status::Finished || status == Status::Stalled);
}
