//! Engine throughput: greedy routing with farthest-first contention, with
//! invariant checks and per-step series off, measured in packet-hops per
//! second. Also prints, once, the engine's bytes per packet and the wall
//! time of one mesh:1024x1024 random permutation.
//!
//! The step's thread count (`SimConfig::threads`, `run --threads`) is part
//! of each case's name: `…_t1` runs the sequential step, `…_t2` the
//! parallel one on two threads (same results, see tests/it/threads.rs).
//!
//! Run with `cargo bench --bench engine`; `cargo bench --bench engine --
//! greedy_1024` runs only the mesh:1024x1024 group (10 samples of a whole
//! run each).

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use routesim::engine::Policy;
use routesim::rng::{Rng, Stream};
use routesim::topology::{Network, Topology};
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::{SimConfig, Simulation, Status};
use std::time::{Duration, Instant};

/// Greedy + farthest-first, no checks, no series: the configuration of sweeps.
fn config() -> SimConfig {
    config_threads(1)
}

/// [`config`] with the step on `threads` threads.
fn config_threads(threads: usize) -> SimConfig {
    SimConfig {
        threads,
        algorithm: "greedy".into(),
        policy: Policy::FarthestFirst,
        seed: 1,
        check_invariants: false,
        record_series: false,
        ..SimConfig::default()
    }
}

fn topology(name: &str) -> Topology {
    name.parse().expect("a valid topology")
}

fn random_permutation(topo: &Topology, seed: u64) -> Instance {
    generate(topo, &WorkloadSpec::new(Workload::RandomPermutation, seed)).expect("random permutation")
}

/// A random k-permutation (every node sends and receives k): the library's
/// `random-kk` if this build has it, else k random permutations concatenated.
fn random_kk(topo: &Topology, k: u32, seed: u64) -> Instance {
    let spec = WorkloadSpec {
        k: Some(k),
        l: Some(k),
        ..WorkloadSpec::new(Workload::RandomKk, seed)
    };
    match generate(topo, &spec) {
        Ok(instance) => instance,
        Err(e) => {
            eprintln!("note: random-kk unavailable ({e}); using {k} concatenated random permutations");
            let n = topo.nodes();
            let mut rng = Rng::new(seed, Stream::Workload);
            let mut packets = Vec::with_capacity((n * k) as usize);
            for _ in 0..k {
                let mut perm: Vec<u32> = (0..n).collect();
                rng.shuffle(&mut perm);
                packets.extend((0..n).map(|v| (v, perm[v as usize])));
            }
            Instance::new(topo.clone(), packets).expect("valid ids")
        }
    }
}

/// Runs `instance` to the end and returns the simulation.
fn run(instance: &Instance) -> Simulation {
    let mut sim = Simulation::new(instance.clone(), config()).expect("greedy runs on meshes");
    assert_eq!(sim.run(), Status::Finished);
    sim
}

/// CPU time of the current thread (Linux: `/proc/thread-self/schedstat`),
/// so the figure means something on a machine shared with other work.
fn thread_cpu_time() -> Option<Duration> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// Prints the engine's memory per packet and one large run's wall time
/// (skipped when `ROUTESIM_BENCH_SKIP_LARGE` is set).
fn report_once() {
    let small = run(&random_permutation(&topology("mesh:16x16"), 1));
    println!("engine bytes per packet: {}", small.engine().bytes_per_packet());
    if std::env::var_os("ROUTESIM_BENCH_SKIP_LARGE").is_some() {
        println!("mesh:1024x1024 run skipped (ROUTESIM_BENCH_SKIP_LARGE is set)");
        return;
    }
    let topo = topology("mesh:1024x1024");
    let instance = random_permutation(&topo, 1);
    let start = Instant::now();
    let mut sim = Simulation::new(instance, config()).expect("greedy runs on meshes");
    let setup = start.elapsed();
    let (start, cpu_start) = (Instant::now(), thread_cpu_time());
    assert_eq!(sim.run(), Status::Finished);
    let (elapsed, cpu_end) = (start.elapsed(), thread_cpu_time());
    let report = sim.report();
    let cpu = match (cpu_start, cpu_end) {
        (Some(a), Some(b)) => format!(", CPU {:.2} s", (b - a).as_secs_f64()),
        _ => String::new(),
    };
    println!(
        "mesh:1024x1024 random permutation (greedy, farthest-first): {} packets, {} steps, {} packet-hops; \
         setup {:.2} s (bounds included), run wall {:.2} s{cpu} = {:.2} M packet-hops/s (wall)",
        report.packets,
        report.steps,
        report.packet_hops,
        setup.as_secs_f64(),
        elapsed.as_secs_f64(),
        report.packet_hops as f64 / elapsed.as_secs_f64() / 1e6
    );
}

fn bench_engine(c: &mut Criterion) {
    report_once();
    let cases = [
        (
            "mesh256_random_permutation",
            random_permutation(&topology("mesh:256x256"), 1),
        ),
        ("mesh64_random_kk_k8", random_kk(&topology("mesh:64x64"), 8, 1)),
    ];
    let mut group = c.benchmark_group("greedy_farthest_first");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(8));
    for (name, instance) in &cases {
        let hops = run(instance).report().packet_hops;
        group.throughput(Throughput::Elements(hops));
        // Setup (including the lower bounds) is outside the timing.
        group.bench_function(*name, |b| {
            b.iter_batched(
                || Simulation::new(instance.clone(), config()).expect("greedy runs on meshes"),
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

/// Greedy, random permutation at 1 and 2 threads: mesh:256x256 with the
/// cases above, and mesh:1024x1024 (a whole run per sample).
fn bench_threads(c: &mut Criterion) {
    for (group_name, topo, measure) in [
        ("greedy_256_threads", "mesh:256x256", 8),
        ("greedy_1024", "mesh:1024x1024", 20),
    ] {
        let instance = random_permutation(&topology(topo), 1);
        let hops = run(&instance).report().packet_hops;
        let mut group = c.benchmark_group(group_name);
        group
            .sample_size(10)
            .warm_up_time(Duration::from_secs(1))
            .measurement_time(Duration::from_secs(measure));
        group.throughput(Throughput::Elements(hops));
        for threads in [1, 2] {
            group.bench_function(format!("random_permutation_t{threads}"), |b| {
                b.iter_batched(
                    || Simulation::new(instance.clone(), config_threads(threads)).expect("greedy runs on meshes"),
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
}

criterion_group!(benches, bench_engine, bench_threads);
criterion_main!(benches);
