//! Helpers shared by the behaviour tests.
#![allow(dead_code)]

use routesim::engine::{Engine, EngineConfig, Policy};
use routesim::primitives::Task;
use routesim::report::Report;
use routesim::request::{Field, RunSpec};
use routesim::topology::Topology;
use routesim::workload::{generate, Instance, Workload, WorkloadSpec};
use routesim::{SimConfig, Simulation, Status};
use std::process::{Command, Output, Stdio};

/// Runs the `routesim` binary with `args` (no stdin, no backtraces) and returns what it printed.
pub fn routesim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_routesim"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .output()
        .expect("the routesim binary runs")
}

/// The request for `algorithm` on `topology` with `workload` and the `extra` fields (CLI spellings).
pub fn spec_of(topology: &str, algorithm: &str, workload: &str, extra: &[(Field, &str)]) -> RunSpec {
    request(topology, algorithm, workload, extra).expect("a valid request")
}

fn request(topology: &str, algorithm: &str, workload: &str, extra: &[(Field, &str)]) -> routesim::Result<RunSpec> {
    let mut fields = vec![
        (Field::Topology, topology),
        (Field::Algorithm, algorithm),
        (Field::Workload, workload),
    ];
    fields.extend_from_slice(extra);
    RunSpec::default().apply(fields.iter().map(|&(f, t)| (f, f.cli(), t)))
}

/// That request, built — or `None` when the request or the algorithm
/// refuses it (a sweep over algorithms and networks keeps what builds).
pub fn try_sim(topology: &str, algorithm: &str, workload: &str, extra: &[(Field, &str)]) -> Option<Simulation> {
    request(topology, algorithm, workload, extra).ok()?.build().ok()
}

/// A small network of every kind: every algorithm accepts at least one.
pub const SMALL_NETWORKS: [&str; 7] = [
    "mesh:8x8",
    "mesh:16x16",
    "torus:8x8",
    "hypercube:4",
    "butterfly:3",
    "ring:16",
    "shuffle-exchange:4",
];

/// That request, built.
pub fn sim_of(topology: &str, algorithm: &str, workload: &str, extra: &[(Field, &str)]) -> Simulation {
    spec_of(topology, algorithm, workload, extra).build().expect("builds")
}

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

/// The code of a source file without comments, string contents and
/// `#[cfg(test)]` items (a test module may use anything).
pub fn code_of(text: &str) -> String {
    strip(text, false)
}

/// The code of a source file without comments and `#[cfg(test)]` items,
/// its string literals kept (as `"…"`, escapes as written).
pub fn code_with_strings(text: &str) -> String {
    strip(text, true)
}

/// Every `.rs` file under `dir`, sorted.
pub fn rust_files(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, &mut out);
    out.sort();
    out
}

fn strip(text: &str, keep_strings: bool) -> String {
    let mut out = String::with_capacity(text.len());
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                i += 1;
            }
            i += 2;
        } else if c == 'r'
            && matches!(chars.get(i + 1), Some('#') | Some('"'))
            && (i == 0 || !chars[i - 1].is_alphanumeric())
        {
            // A raw string: r"…" or r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while chars.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if chars.get(j) != Some(&'"') {
                out.push(c);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= chars.len() {
                    break;
                }
                if chars[j] == '"' && (0..hashes).all(|h| chars.get(j + 1 + h) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            if keep_strings {
                out.push('"');
                out.extend(&chars[i + 2 + hashes..j.saturating_sub(1 + hashes).max(i + 2 + hashes)]);
                out.push('"');
            } else {
                out.push_str("\"\"");
            }
            i = j;
        } else if c == '"' {
            let from = i;
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
            if keep_strings {
                out.extend(&chars[from..i.min(chars.len())]);
            } else {
                out.push_str("\"\"");
            }
        } else if c == '\'' && chars.get(i + 2) == Some(&'\'') {
            // A character literal such as '{'.
            out.push_str("' '");
            i += 3;
        } else if c == '\'' && chars.get(i + 1) == Some(&'\\') {
            while i < chars.len() && !(chars[i] == '\'' && i > 0 && chars[i - 1] != '\\' && out.ends_with('\'')) {
                i += 1;
                if chars.get(i) == Some(&'\'') {
                    break;
                }
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    strip_test_items(&out)
}

/// Removes every item that follows `#[cfg(test)]` (up to its closing brace
/// or semicolon).
pub fn strip_test_items(code: &str) -> String {
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find("#[cfg(test)]") {
        out.push_str(&rest[..at]);
        let after = &rest[at..];
        let (mut depth, mut end) = (0i32, after.len());
        for (k, ch) in after.char_indices() {
            match ch {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = k + 1;
                        break;
                    }
                }
                ';' if depth == 0 => {
                    end = k + 1;
                    break;
                }
                _ => {}
            }
        }
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}
