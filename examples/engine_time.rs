//! Engine-only time of one run request, for paired before/after runs of
//! two builds (the criterion benches under `benches/` give the figures;
//! this runs any request the CLI takes, on any commit that has it):
//!
//! `cargo run --release --example engine_time -- RUNS [--threads N] ARGS…`
//!
//! ARGS are `routesim run`'s request flags (`--topology mesh:256x256
//! --workload random-permutation --algorithm greedy`, `--l 4 --k 4`, …).
//! The request is built as `routesim run` builds it (no series, no
//! checks), then constructed and run RUNS times; construction (the
//! instance, the bounds) is outside the timing. Prints the median and the
//! fastest run's wall time and packet-hops per second.

use routesim::request::{Field, RunSpec};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: engine_time RUNS [--threads N] --topology T --workload W [--algorithm A] [FLAG VALUE]…";
    let runs: usize = args.first().and_then(|r| r.parse().ok()).expect(usage);
    let mut threads = 1;
    let mut fields = Vec::new();
    let mut rest = args[1..].chunks(2);
    for pair in rest.by_ref() {
        let [flag, value] = pair else { panic!("{usage}") };
        let name = flag.trim_start_matches("--");
        if name == "threads" {
            threads = value.parse().expect("--threads: a whole number");
            continue;
        }
        let field = Field::ALL
            .iter()
            .copied()
            .find(|f| f.cli() == name)
            .unwrap_or_else(|| panic!("unknown flag {flag}"));
        fields.push((field, value.as_str()));
    }
    let spec = RunSpec::default()
        .apply(fields.iter().map(|&(f, t)| (f, f.cli(), t)))
        .unwrap_or_else(|e| panic!("{e}"));
    let instance = spec.instance().unwrap_or_else(|e| panic!("{e}"));
    let mut config = spec.sim_config();
    config.threads = threads;
    let (mut times, mut hops) = (Vec::new(), 0);
    for _ in 0..runs {
        let mut sim = routesim::Simulation::new(instance.clone(), config.clone()).unwrap_or_else(|e| panic!("{e}"));
        let start = Instant::now();
        sim.run();
        times.push(start.elapsed().as_secs_f64());
        hops = sim.report().packet_hops;
    }
    times.sort_by(f64::total_cmp);
    let (median, best) = (times[times.len() / 2], times[0]);
    println!(
        "{} threads: median {median:.4} s ({:.1} M hops/s), fastest {best:.4} s ({:.1} M hops/s), {runs} runs, {hops} hops",
        threads,
        hops as f64 / median / 1e6,
        hops as f64 / best / 1e6
    );
}
