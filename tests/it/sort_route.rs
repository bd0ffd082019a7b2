//! `sort-route`: the permutation lecture's sorting-based routing (sort into
//! column-major snake order by destination column, reverse odd columns,
//! rows, columns) with no auxiliary buffers.

use crate::common::{mesh, run, run_config};
use routesim::algorithms::sort_route::SORT_PHASE;
use routesim::engine::Policy;
use routesim::primitives::sort::SortTask;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::AlgorithmOptions;
use routesim::{SimConfig, Simulation, Status};

fn phase_steps(r: &routesim::report::Report, name: &str) -> u32 {
    r.phases.iter().filter(|p| p.name == name).map(|p| p.steps).sum()
}

#[test]
fn routes_permutations_in_sort_plus_3n_minus_3_with_queues_of_3() {
    for n in [2u32, 4, 8, 16, 32] {
        for w in [
            Workload::RandomPermutation,
            Workload::Transpose,
            Workload::BitReversal,
            Workload::PointReflection,
        ] {
            for seed in 1..=2 {
                let inst = generate(&mesh(n), &WorkloadSpec::new(w, seed)).unwrap();
                let r = run(inst, "sort-route", Policy::FarthestFirst);
                let sort = phase_steps(&r, SORT_PHASE);
                assert!(sort <= SortTask::duration(n, 1), "{w} n={n}: sort took {sort}");
                assert!(
                    r.steps <= sort + 3 * (n - 1),
                    "{w} n={n}: {} > {sort} + 3(n-1)",
                    r.steps
                );
                assert!(r.max_queue <= 3, "{w} n={n}: max_queue {}", r.max_queue);
                assert!(r.steps >= r.bounds.best);
                for (name, limit) in [
                    ("reverse-odd-columns", n - 1),
                    ("route-row", n - 1),
                    ("route-column", n - 1),
                ] {
                    assert!(phase_steps(&r, name) <= limit, "{w} n={n}: {name} over n-1");
                }
            }
        }
    }
}

#[test]
fn the_sort_phase_is_linear_in_the_side() {
    let per_side: Vec<f64> = [16u32, 32, 64, 128]
        .iter()
        .map(|&n| {
            let inst = generate(&mesh(n), &WorkloadSpec::new(Workload::RandomPermutation, 1)).unwrap();
            let config = SimConfig {
                algorithm: "sort-route".into(),
                check_invariants: n <= 32,
                ..Default::default()
            };
            let mut sim = Simulation::new(inst, config).unwrap();
            assert_eq!(sim.run(), Status::Finished);
            phase_steps(&sim.report(), SORT_PHASE) as f64 / n as f64
        })
        .collect();
    // (7m − 9 − log₂ m) steps for an m×m sort: below 7·side.
    assert!(per_side.iter().all(|&x| x < 7.0), "{per_side:?}");
    assert!(per_side[3] <= 1.05 * per_side[1], "sort steps/side grows: {per_side:?}");
}

#[test]
fn after_the_sort_the_packets_lie_in_column_major_snake_order_of_destination_column() {
    let n = 16;
    let inst = generate(&mesh(n), &WorkloadSpec::new(Workload::RandomPermutation, 7)).unwrap();
    let mut sim = Simulation::new(
        inst,
        SimConfig {
            algorithm: "sort-route".into(),
            ..Default::default()
        },
    )
    .unwrap();
    while sim.engine().stats().current_phase() == Some(SORT_PHASE) {
        sim.step();
    }
    // Routing has begun (one step ago): every packet's phase-2 target was
    // set from its sorted place — same column, row reversed in odd columns —
    // so the target's row is the packet's index along the column-major snake.
    let e = sim.engine();
    let mut by_snake = vec![u32::MAX; (n * n) as usize];
    for p in 0..e.packet_count() {
        if e.is_delivered(p) {
            continue;
        }
        let t = e.target(p);
        by_snake[((t % n) * n + t / n) as usize] = e.destination(p) % n;
    }
    let cols: Vec<u32> = by_snake.into_iter().filter(|&c| c != u32::MAX).collect();
    assert!(
        cols.windows(2).all(|w| w[0] <= w[1]),
        "not sorted by destination column: {cols:?}"
    );
}

#[test]
fn partial_permutations_and_the_policy_do_not_matter() {
    let n = 16;
    let full = generate(&mesh(n), &WorkloadSpec::new(Workload::RandomPermutation, 3)).unwrap();
    let half: Vec<(u32, u32)> = full.packets.iter().copied().filter(|&(s, _)| s % 3 != 0).collect();
    let inst = Instance::new(mesh(n), half).unwrap();
    let a = run(inst.clone(), "sort-route", Policy::FarthestFirst);
    let b = run(inst, "sort-route", Policy::NearestFirst);
    assert_eq!((a.steps, a.max_queue), (b.steps, b.max_queue));
    assert!(a.max_queue <= 3);
    let pipelined = run_config(
        full,
        SimConfig {
            algorithm: "sort-route".into(),
            options: AlgorithmOptions {
                pipeline: true,
                ..Default::default()
            },
            ..Default::default()
        },
    );
    assert_eq!(pipelined.delivered, n * n);
}

#[test]
fn refuses_what_it_cannot_route() {
    type Case = (&'static str, Vec<(u32, u32)>, &'static str);
    let cases: [Case; 3] = [
        ("torus:8x8", vec![(0, 1)], "torus:8x8"),
        ("mesh:12x12", vec![(0, 1)], "power of two"),
        ("mesh:8x8", vec![(0, 5), (1, 5)], "destination of 2 packets"),
    ];
    for (topo, packets, want) in cases {
        let inst = Instance::new(topo.parse().unwrap(), packets).unwrap();
        let e = Simulation::new(
            inst,
            SimConfig {
                algorithm: "sort-route".into(),
                ..Default::default()
            },
        )
        .err()
        .expect("must refuse")
        .to_string();
        assert!(e.contains("sort-route") && e.contains(want), "{e}");
    }
}
