//! The native side of `scripts/wasm-bench.mjs`: times one run request
//! (construction and run, no process start) on one thread.
//!
//! `cargo run --release --example wasm_bench -- '<config JSON>' [RUNS]
//! [MODES]` (MODES: a comma-separated subset of `cli,probe,page`, all by
//! default; one mode alone is what a profiler wants) reads the config object the page's `new Simulation(config)` takes and
//! prints one JSON line per mode, each with its run times in ms (wall and
//! thread CPU) and the run's steps and packet-hops:
//! - `cli`: the CLI's request (`RunSpec::default()`, no series) built and
//!   run to its end, as `routesim run` does;
//! - `probe`: the page's request (`RunSpec::browser()`, series on) run to
//!   its end by [`Timeline::measure`], the page's probe
//!   (`Simulation.measure`): a copy of the start stepped to the end, its
//!   links not recorded (nobody draws them; its packet-hops are not read
//!   back: printed as 0);
//! - `page`: the page's request (`RunSpec::browser()`, series on) in a
//!   [`Timeline`] (checkpoints) run to its end, as the wasm
//!   `Simulation.run_to_end` does.

use routesim::{RunSpec, Timeline};
use std::time::{Duration, Instant};

/// CPU time of the current thread (Linux: `/proc/thread-self/schedstat`).
fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|t| t.split_whitespace().next()?.parse().ok())
        .map(Duration::from_nanos)
        .unwrap_or_default()
}

/// Runs `f` and returns its wall and thread-CPU times in ms, and its result.
fn timed<T>(f: impl FnOnce() -> T) -> (f64, f64, T) {
    let (w, c) = (Instant::now(), thread_cpu());
    let out = f();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (ms(w.elapsed()), ms(thread_cpu() - c), out)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(config) = args.get(1) else {
        eprintln!("usage: wasm_bench '<config JSON>' [RUNS] [MODES]");
        std::process::exit(2);
    };
    let runs: usize = args.get(2).map_or(5, |r| r.parse().expect("RUNS: a whole number"));
    let config: serde_json::Value = serde_json::from_str(config).expect("config: JSON");
    let modes = args.get(3).map_or("cli,probe,page", String::as_str);
    for mode in ["cli", "probe", "page"]
        .into_iter()
        .filter(|m| modes.split(',').any(|x| x == *m))
    {
        let base = if mode == "cli" {
            RunSpec::default()
        } else {
            RunSpec::browser()
        };
        let spec = RunSpec::from_json(base, &config).unwrap_or_else(|e| panic!("config: {e}"));
        let (mut wall, mut cpu, mut steps, mut hops) = (Vec::new(), Vec::new(), 0, 0);
        for _ in 0..runs {
            let (w, c, (s, h)) = timed(|| {
                let mut sim = spec.build().expect("the run builds");
                let of = |s: &routesim::Simulation| (s.engine().step_count(), s.engine().stats().packet_hops);
                match mode {
                    "cli" => {
                        sim.run();
                        of(&sim)
                    }
                    // The probe's own code: a copy of the start stepped to
                    // the end, its links not recorded (nobody draws them).
                    "probe" => {
                        let steps = Timeline::new(sim).measure(u32::MAX).expect("the run ends");
                        (steps, 0)
                    }
                    _ => {
                        let mut timeline = Timeline::new(sim);
                        timeline.run_steps(u32::MAX);
                        of(timeline.current())
                    }
                }
            });
            wall.push(w);
            cpu.push(c);
            (steps, hops) = (s, h);
        }
        println!(
            "{}",
            serde_json::json!({ "mode": mode, "wall_ms": wall, "cpu_ms": cpu, "steps": steps, "packet_hops": hops })
        );
    }
}
