//! Scripted moves (issue #29 item 3): runs whose steps are mostly
//! compare-exchanges, tours and control messages that the algorithm
//! scripts (`Engine::send_control_links`, `Engine::force_moves`), measured
//! in packet-hops per second as the report counts them. The CLI's
//! settings: no invariant checks, no per-step series.
//!
//! Run with `cargo bench --bench scripted`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use routesim::request::{Field, RunSpec};
use routesim::workload::Instance;
use routesim::{SimConfig, Simulation, Status};
use std::time::Duration;

/// The request `fields` (CLI spellings) on the CLI's defaults, as an
/// instance and the configuration that routes it.
fn case(fields: &[(Field, &str)]) -> (Instance, SimConfig) {
    let spec = RunSpec::default()
        .apply(fields.iter().map(|&(f, t)| (f, f.cli(), t)))
        .expect("a valid request");
    (spec.instance().expect("an instance"), spec.sim_config())
}

fn bench_scripted(c: &mut Criterion) {
    let cases = [
        (
            "pp_rand_mesh128_worst_lk_4_4",
            case(&[
                (Field::Topology, "mesh:128x128"),
                (Field::Algorithm, "pp-rand"),
                (Field::Workload, "worst-lk"),
                (Field::L, "4"),
                (Field::K, "4"),
            ]),
        ),
        (
            "sort_route_mesh128_random_permutation",
            case(&[
                (Field::Topology, "mesh:128x128"),
                (Field::Algorithm, "sort-route"),
                (Field::Workload, "random-permutation"),
            ]),
        ),
    ];
    let mut group = c.benchmark_group("scripted");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    for (name, (instance, config)) in &cases {
        let mut sim = Simulation::new(instance.clone(), config.clone()).expect("the run builds");
        assert_eq!(sim.run(), Status::Finished);
        let report = sim.report();
        println!("{name}: {} steps, {} packet-hops", report.steps, report.packet_hops);
        group.throughput(Throughput::Elements(report.packet_hops));
        // Setup (including the lower bounds) is outside the timing.
        group.bench_function(*name, |b| {
            b.iter_batched(
                || Simulation::new(instance.clone(), config.clone()).expect("the run builds"),
                |mut sim| {
                    sim.run();
                    sim
                },
                BatchSize::PerIteration,
            )
        });
    }
    group.finish();
}

criterion_group!(benches, bench_scripted);
criterion_main!(benches);
