//! Bit fixing and Valiant's two-phase routing against the hypercube
//! lecture: Valiant finishes within 8D steps (w.h.p.), bit fixing on
//! transpose suffers the Ω(√(N/D)) congestion of deterministic oblivious
//! routing.

use crate::common::{run, run_config};
use routesim::engine::Policy;
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::AlgorithmOptions;
use routesim::SimConfig;

fn cube(d: u32, w: Workload) -> Instance {
    let topo: Topology = format!("hypercube:{d}").parse().unwrap();
    generate(&topo, &WorkloadSpec::new(w, 1)).unwrap()
}

fn valiant(inst: Instance, seed: u64, pipeline: bool) -> u32 {
    let config = SimConfig {
        algorithm: "valiant".into(),
        seed,
        options: AlgorithmOptions {
            pipeline,
            ..Default::default()
        },
        ..Default::default()
    };
    let r = run_config(inst, config);
    assert!(r.steps >= r.bounds.best);
    r.steps
}

#[test]
fn valiant_within_8d_on_transpose_and_bit_reversal() {
    for d in 6..=12 {
        for w in [Workload::Transpose, Workload::BitReversal] {
            for seed in 1..=4 {
                for pipeline in [false, true] {
                    let steps = valiant(cube(d, w), seed, pipeline);
                    assert!(steps <= 8 * d, "valiant {w} D={d} seed={seed}: {steps} > 8D");
                }
            }
        }
    }
}

#[test]
fn bit_fixing_on_transpose_grows_like_sqrt_n_and_valiant_like_d() {
    let bit_fixing: Vec<u32> = (6..=12)
        .step_by(2)
        .map(|d| run(cube(d, Workload::Transpose), "bit-fixing", Policy::FarthestFirst).steps)
        .collect();
    let val: Vec<u32> = (6..=12)
        .step_by(2)
        .map(|d| valiant(cube(d, Workload::Transpose), 1, false))
        .collect();
    // √(2^D) doubles every two dimensions: demand at least ×1.6 each time.
    for w in bit_fixing.windows(2) {
        assert!(
            10 * w[1] >= 16 * w[0],
            "bit fixing does not grow like √N: {bit_fixing:?}"
        );
    }
    // The congestion argument: 2^(D/2)/2 packets share one link of the transpose.
    for (i, d) in (6..=12).step_by(2).enumerate() {
        assert!(bit_fixing[i] >= (1 << (d / 2)) / 2, "{bit_fixing:?}");
    }
    // Valiant: roughly linear in D — doubling D at most ×2.5, never ×8.
    assert!(2 * val[3] <= 5 * val[0], "valiant does not grow like D: {val:?}");
    for (i, d) in (6..=12u32).step_by(2).enumerate() {
        assert!(val[i] >= d && val[i] <= 4 * d, "{val:?}");
    }
}

#[test]
fn valiant_is_reproducible_and_depends_on_the_seed() {
    let inst = cube(10, Workload::Transpose);
    let a = run_config(inst.clone(), c2(3));
    let b = run_config(inst.clone(), c2(3));
    assert_eq!(serde_json::to_string(&a).unwrap(), serde_json::to_string(&b).unwrap());
    let phases: Vec<&str> = a.phases.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(phases, ["phase1-random-intermediate", "phase2-destination"]);
    assert_eq!(a.phases.iter().map(|p| p.steps).sum::<u32>(), a.steps);
    let means: Vec<String> = (4..10)
        .map(|seed| format!("{:.4}", run_config(inst.clone(), c2(seed)).latency.mean))
        .collect();
    assert!(
        means.windows(2).any(|w| w[0] != w[1]),
        "valiant ignores the seed: {means:?}"
    );
}

fn c2(seed: u64) -> SimConfig {
    SimConfig {
        algorithm: "valiant".into(),
        seed,
        ..Default::default()
    }
}

#[test]
fn valiant_on_a_mesh_delivers_within_twice_the_greedy_bound() {
    let topo: Topology = "mesh:16x16".parse().unwrap();
    for seed in 1..=3 {
        let inst = generate(&topo, &WorkloadSpec::new(Workload::Transpose, seed)).unwrap();
        let steps = valiant(inst, seed, false);
        // Each phase is a (partial) permutation-like routing of ≤ 2n−2 distance;
        // random intermediates are not a permutation, so allow slack but not blow-up.
        assert!(steps <= 4 * (2 * 16 - 2), "{steps}");
    }
}

#[test]
fn butterfly_bit_fixing_takes_exactly_d_per_packet_path() {
    for d in 2..=6 {
        let topo: Topology = format!("butterfly:{d}").parse().unwrap();
        let inst = generate(&topo, &WorkloadSpec::new(Workload::RandomPermutation, 2)).unwrap();
        let r = run(inst, "bit-fixing", Policy::FarthestFirst);
        assert_eq!(r.bounds.distance, d);
        assert!(r.steps >= d);
        assert_eq!(r.packet_hops, (d as u64) << d, "every packet walks exactly D links");
    }
}

#[test]
fn algorithms_refuse_the_wrong_topology() {
    let mesh: Topology = "mesh:4x4".parse().unwrap();
    let inst = generate(&mesh, &WorkloadSpec::new(Workload::RandomPermutation, 1)).unwrap();
    let e = routesim::Simulation::new(
        inst,
        SimConfig {
            algorithm: "bit-fixing".into(),
            ..Default::default()
        },
    )
    .err()
    .expect("bit-fixing must refuse a mesh")
    .to_string();
    assert!(e.contains("bit-fixing") && e.contains("mesh:4x4"), "{e}");
    let inst = cube(4, Workload::Transpose);
    let e = routesim::Simulation::new(
        inst,
        SimConfig {
            algorithm: "greedy".into(),
            ..Default::default()
        },
    )
    .err()
    .expect("greedy must refuse a hypercube")
    .to_string();
    assert!(e.contains("hypercube:4"), "{e}");
}
