//! `routesim sweep`: a grid of runs, in parallel, one output row per grid
//! point, in grid order whatever the thread scheduling.
//!
//! The grid is topologies × algorithms × policies × workloads × ℓ × k ×
//! queue capacities × seeds, the last varying fastest. Every list flag takes
//! comma-separated values and may be repeated; numeric lists also take
//! inclusive ranges `a..b` (`--seeds 1..5` is 1,2,3,4,5). In `--topology`,
//! `{n}` (or `{N}`; clap's help shows only the latter, since it reads `{n}`
//! as a line break) is replaced by each value of `--n`.

use super::{panic_message, parse, Outcome, EXIT_INCOMPLETE, EXIT_OK};
use crate::algorithms::{self, AlgorithmOptions};
use crate::engine::Policy;
use crate::report::Report;
use crate::simulation::DEFAULT_MAX_STEPS;
use crate::topology::{Network, Topology};
use crate::workload::{self, Workload, WorkloadSpec};
use crate::{Error, SimConfig, Simulation};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::iter::{ParallelBridge, ParallelIterator};
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

/// Most grid points one sweep may have.
const MAX_POINTS: u64 = 100_000_000;

/// Output format of a sweep.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Comma-separated values with a header row.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// Flags of `routesim sweep`.
#[derive(Debug, Clone, Args)]
#[command(after_help = "\
Lists are comma-separated and flags may be repeated. Numeric lists (--n, --l, --k, --seeds, \
--queue-cap) accept inclusive ranges a..b. The grid is topology x algorithm x policy x workload x l x k \
x queue-cap x seed, the last varying fastest; rows come out in that order. A grid point that cannot run \
(e.g. transpose on a non-square mesh) gives a row with an error column; if every point fails the sweep \
exits 2.

Example:
  routesim sweep --topology 'mesh:{N}x{N}' --n 16,32,64 --algorithm greedy,valiant \\
                 --workload random-permutation,transpose --l 1 --k 1,2,4 --seeds 1..5 --out runs.csv")]
pub struct SweepArgs {
    /// Topologies; `{N}` (or lower-case n in braces) is replaced by each value of --n, e.g. 'mesh:{N}x{N},torus:{N}x{N}'.
    #[arg(long, value_name = "LIST", required = true)]
    pub topology: Vec<String>,
    /// Values of `{N}` in --topology, e.g. 16,32,64 or 4..8.
    #[arg(long = "n", value_name = "LIST")]
    pub n: Vec<String>,
    /// Algorithms [default: greedy].
    #[arg(long, value_name = "LIST")]
    pub algorithm: Vec<String>,
    /// Contention policies [default: farthest-first].
    #[arg(long, value_name = "LIST")]
    pub policy: Vec<String>,
    /// Workloads, e.g. random-permutation,transpose.
    #[arg(long, value_name = "LIST", required = true)]
    pub workload: Vec<String>,
    /// Values of ℓ [default: the workload's; the column then shows the instance's ℓ].
    #[arg(long = "l", value_name = "LIST")]
    pub l: Vec<String>,
    /// Values of k [default: the workload's; the column then shows the instance's k].
    #[arg(long = "k", value_name = "LIST")]
    pub k: Vec<String>,
    /// `locality` workload: the largest source–destination distance (default 2).
    #[arg(long, value_name = "L")]
    pub locality: Option<u32>,
    /// `hotspot` workload: the percentage of nodes that send to the hot node (default 10).
    #[arg(long, value_name = "PERCENT")]
    pub hotspot: Option<u32>,
    /// Seeds, e.g. 1..10 (inclusive) or 1,7,42 [default: 1].
    #[arg(long, visible_alias = "seed", value_name = "LIST")]
    pub seeds: Vec<String>,
    /// Queue capacities; `unbounded` for none [default: unbounded].
    #[arg(long, value_name = "LIST")]
    pub queue_cap: Vec<String>,
    /// Options shared with `run`, applied to every run of the sweep.
    #[command(flatten)]
    pub engine: super::EngineFlags,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub format: Format,
    /// Write to this file instead of stdout.
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
    /// Worker threads [default: all cores].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,
}

/// The comma-separated items of a list flag (all its occurrences).
fn items(field: &str, raw: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for text in raw {
        for item in text.split(',') {
            let item = item.trim();
            if item.is_empty() {
                return Err(format!(
                    "invalid {field} '{text}': empty item in the comma-separated list"
                ));
            }
            out.push(item.to_string());
        }
    }
    Ok(out)
}

/// A list of numbers and inclusive ranges `a..b`.
fn numbers(field: &str, raw: &[String], default: &str) -> Result<Vec<u64>, String> {
    let defaults = [default.to_string()];
    let raw = if raw.is_empty() { &defaults[..] } else { raw };
    let number = |text: &str, item: &str| {
        item.trim()
            .parse::<u64>()
            .map_err(|_| format!("invalid {field} '{text}': '{item}' is not a non-negative integer or a range a..b"))
    };
    let mut out = Vec::new();
    for text in raw {
        for item in items(field, std::slice::from_ref(text))? {
            if let Some((a, b)) = item.split_once("..") {
                let (a, b) = (number(text, a)?, number(text, b.strip_prefix('=').unwrap_or(b))?);
                if a > b {
                    return Err(format!(
                        "invalid {field} '{text}': range {a}..{b} is empty (ranges are inclusive, a <= b)"
                    ));
                }
                if b - a >= MAX_POINTS {
                    return Err(format!(
                        "invalid {field} '{text}': range {a}..{b} has more than {MAX_POINTS} values"
                    ));
                }
                out.extend(a..=b);
            } else {
                out.push(number(text, &item)?);
            }
        }
    }
    Ok(out)
}

/// A list of positive 32-bit numbers.
fn positive(field: &str, raw: &[String], default: &str) -> Result<Vec<u32>, String> {
    numbers(field, raw, default)?
        .into_iter()
        .map(|v| match u32::try_from(v) {
            Ok(v) if v >= 1 => Ok(v),
            _ => Err(format!(
                "invalid {field} '{v}': expected an integer from 1 to {}",
                u32::MAX
            )),
        })
        .collect()
}

/// A list of positive numbers, or `[None]` (the workload's default) when
/// the flag is absent.
fn optional(field: &str, raw: &[String]) -> Result<Vec<Option<u32>>, String> {
    if raw.is_empty() {
        Ok(vec![None])
    } else {
        Ok(positive(field, raw, "1")?.into_iter().map(Some).collect())
    }
}

/// Whether a topology template contains `{n}` or `{N}`.
fn has_placeholder(template: &str) -> bool {
    template.contains("{n}") || template.contains("{N}")
}

/// The grid, with every name checked.
struct Grid {
    topologies: Vec<Topology>,
    algorithms: Vec<String>,
    policies: Vec<Policy>,
    workloads: Vec<Workload>,
    ls: Vec<Option<u32>>,
    ks: Vec<Option<u32>>,
    queue_caps: Vec<Option<u32>>,
    seeds: Vec<u64>,
}

/// One grid point.
struct Point<'a> {
    topology: &'a Topology,
    algorithm: &'a str,
    policy: Policy,
    workload: Workload,
    l: Option<u32>,
    k: Option<u32>,
    queue_cap: Option<u32>,
    seed: u64,
}

impl Grid {
    fn new(args: &SweepArgs) -> Result<Grid, String> {
        let templates = items("topology", &args.topology)?;
        let ns = if args.n.is_empty() {
            None
        } else {
            Some(positive("n", &args.n, "1")?)
        };
        let mut topologies = Vec::new();
        for template in &templates {
            if has_placeholder(template) {
                let ns = ns
                    .as_ref()
                    .ok_or_else(|| format!("invalid topology '{template}': it uses {{n}} but --n is missing"))?;
                for n in ns {
                    topologies.push(parse::<Topology>(
                        &template.replace("{n}", &n.to_string()).replace("{N}", &n.to_string()),
                    )?);
                }
            } else {
                topologies.push(parse::<Topology>(template)?);
            }
        }
        if ns.is_some() && !templates.iter().any(|t| has_placeholder(t)) {
            return Err(format!(
                "invalid n '{}': no --topology contains {{n}}",
                args.n.join(",")
            ));
        }
        let algorithms = if args.algorithm.is_empty() {
            vec!["greedy".to_string()]
        } else {
            items("algorithm", &args.algorithm)?
        };
        for name in &algorithms {
            // Unknown names are bad input; known but unsupported ones become error rows.
            if let Err(e @ Error::Invalid { .. }) = algorithms::create(name, &AlgorithmOptions::default()) {
                return Err(e.to_string());
            }
        }
        let policies = if args.policy.is_empty() {
            vec![Policy::FarthestFirst]
        } else {
            items("policy", &args.policy)?
                .iter()
                .map(|p| parse::<Policy>(p))
                .collect::<Result<_, _>>()?
        };
        let workloads = items("workload", &args.workload)?
            .iter()
            .map(|w| parse::<Workload>(w))
            .collect::<Result<_, _>>()?;
        let queue_caps = if args.queue_cap.is_empty() {
            vec![None]
        } else {
            let mut caps = Vec::new();
            for text in &args.queue_cap {
                for item in items("queue-cap", std::slice::from_ref(text))? {
                    if matches!(item.as_str(), "unbounded" | "none" | "inf") {
                        caps.push(None);
                    } else {
                        caps.extend(positive("queue-cap", &[item], "1")?.into_iter().map(Some));
                    }
                }
            }
            caps
        };
        let grid = Grid {
            topologies,
            algorithms,
            policies,
            workloads,
            ls: optional("l", &args.l)?,
            ks: optional("k", &args.k)?,
            queue_caps,
            seeds: numbers("seeds", &args.seeds, "1")?,
        };
        let size = grid.size();
        if size > MAX_POINTS {
            return Err(format!(
                "invalid grid of {size} points: more than {MAX_POINTS}; split the sweep"
            ));
        }
        Ok(grid)
    }

    fn radices(&self) -> [u64; 8] {
        [
            self.topologies.len(),
            self.algorithms.len(),
            self.policies.len(),
            self.workloads.len(),
            self.ls.len(),
            self.ks.len(),
            self.queue_caps.len(),
            self.seeds.len(),
        ]
        .map(|r| r as u64)
    }

    fn size(&self) -> u64 {
        self.radices()
            .iter()
            .try_fold(1u64, |acc, &r| acc.checked_mul(r))
            .unwrap_or(u64::MAX)
    }

    /// The `index`-th point in grid order (the seed varies fastest).
    fn point(&self, mut index: u64) -> Point<'_> {
        let mut digit = [0usize; 8];
        let radices = self.radices();
        for i in (0..8).rev() {
            digit[i] = (index % radices[i]) as usize;
            index /= radices[i];
        }
        Point {
            topology: &self.topologies[digit[0]],
            algorithm: &self.algorithms[digit[1]],
            policy: self.policies[digit[2]],
            workload: self.workloads[digit[3]],
            l: self.ls[digit[4]],
            k: self.ks[digit[5]],
            queue_cap: self.queue_caps[digit[6]],
            seed: self.seeds[digit[7]],
        }
    }
}

/// Options shared by every run of the sweep.
struct Shared {
    locality: Option<u32>,
    hotspot: Option<u32>,
    edge_queues: bool,
    pipeline: bool,
    reverse_order: bool,
    max_steps: u32,
}

/// One output row: the grid point and its report or error.
struct Row {
    columns: Vec<(&'static str, Value)>,
    ok: bool,
    incomplete: bool,
    error: Option<String>,
}

/// Rounds a float for the table (6 decimals), `null` if not finite.
fn float(x: f64) -> Value {
    if x.is_finite() {
        json!((x * 1e6).round() / 1e6)
    } else {
        Value::Null
    }
}

fn run_point(p: &Point, shared: &Shared) -> Result<Report, String> {
    let spec = WorkloadSpec {
        workload: p.workload,
        l: p.l,
        k: p.k,
        seed: p.seed,
        locality: shared.locality,
        hotspot: shared.hotspot,
    };
    let instance = workload::generate(p.topology, &spec).map_err(|e| e.to_string())?;
    let config = SimConfig {
        algorithm: p.algorithm.to_string(),
        policy: p.policy,
        seed: p.seed,
        queue_cap: p.queue_cap,
        edge_queues: shared.edge_queues,
        pipeline: shared.pipeline,
        reverse_order: shared.reverse_order,
        max_steps: shared.max_steps,
        check_invariants: false,
        record_series: false,
        resort_interval: crate::engine::RESORT_INTERVAL,
    };
    let mut sim = Simulation::new(instance, config).map_err(|e| e.to_string())?;
    sim.run();
    Ok(sim.report())
}

fn row(p: &Point, shared: &Shared) -> Row {
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_point(p, shared)))
        .unwrap_or_else(|payload| Err(format!("internal error: {}", panic_message(payload.as_ref()))));
    let mut columns: Vec<(&'static str, Value)> = vec![
        ("topology", json!(p.topology.to_string())),
        ("nodes", json!(p.topology.nodes())),
        ("side", json!(p.topology.square_side())),
        ("algorithm", json!(p.algorithm)),
        ("policy", json!(p.policy.name())),
        ("workload", json!(p.workload.name())),
    ];
    let r = result.as_ref().ok();
    let get = |f: &dyn Fn(&Report) -> Value| r.map_or(Value::Null, f);
    // ℓ and k as requested; when not requested, the instance's.
    columns.extend([
        ("l", p.l.map_or_else(|| get(&|r| json!(r.l)), |l| json!(l))),
        ("k", p.k.map_or_else(|| get(&|r| json!(r.k)), |k| json!(k))),
        ("seed", json!(p.seed)),
        ("queue_cap", json!(p.queue_cap)),
        ("packets", get(&|r| json!(r.packets))),
        ("delivered", get(&|r| json!(r.delivered))),
        ("stalled", get(&|r| json!(r.stalled))),
        ("hit_max_steps", get(&|r| json!(r.hit_max_steps))),
        ("steps", get(&|r| json!(r.steps))),
        ("max_queue", get(&|r| json!(r.max_queue))),
        ("max_load", get(&|r| json!(r.max_load))),
        ("max_ctrl_queue", get(&|r| json!(r.max_ctrl_queue))),
        ("packet_hops", get(&|r| json!(r.packet_hops))),
        ("bound_distance", get(&|r| json!(r.bounds.distance))),
        ("bound_bisection", get(&|r| json!(r.bounds.bisection))),
        ("bound_sink", get(&|r| json!(r.bounds.sink))),
        ("bound_region", get(&|r| json!(r.bounds.region))),
        ("bound_best", get(&|r| json!(r.bounds.best))),
        ("sqrt_lkn", get(&|r| float(r.bounds.sqrt_lkn))),
        (
            "steps_over_sqrt_lkn",
            get(&|r| {
                if r.bounds.sqrt_lkn > 0.0 {
                    float(r.steps as f64 / r.bounds.sqrt_lkn)
                } else {
                    Value::Null
                }
            }),
        ),
        ("latency_mean", get(&|r| float(r.latency.mean))),
        ("latency_max", get(&|r| json!(r.latency.max))),
        (
            "phases",
            get(&|r| {
                json!(r
                    .phases
                    .iter()
                    .map(|p| json!({"name": p.name, "steps": p.steps}))
                    .collect::<Vec<_>>())
            }),
        ),
        ("instance_l", get(&|r| json!(r.l))),
        ("instance_k", get(&|r| json!(r.k))),
        ("offline_precompute", get(&|r| json!(r.offline_precompute))),
        ("error", json!(result.as_ref().err())),
    ]);
    Row {
        columns,
        ok: r.is_some(),
        incomplete: r.is_some_and(|r| r.stalled || r.hit_max_steps || r.delivered < r.packets),
        error: result.err(),
    }
}

/// A CSV field, quoted when it needs to be.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_string()
    }
}

/// A CSV cell: strings as they are, `null` empty, phases as `name:steps;…`.
fn csv_cell(v: &Value) -> String {
    match v {
        Value::Null => String::new(),
        Value::String(s) => csv_field(s),
        Value::Array(phases) => csv_field(
            &phases
                .iter()
                .map(|p| format!("{}:{}", p["name"].as_str().unwrap_or(""), p["steps"]))
                .collect::<Vec<_>>()
                .join(";"),
        ),
        other => other.to_string(),
    }
}

impl Row {
    fn header(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|(n, _)| *n).collect();
        names.join(",") + "\n"
    }

    fn render(&self, format: Format) -> String {
        match format {
            Format::Csv => {
                self.columns
                    .iter()
                    .map(|(_, v)| csv_cell(v))
                    .collect::<Vec<_>>()
                    .join(",")
                    + "\n"
            }
            Format::Jsonl => {
                let fields: Vec<String> = self
                    .columns
                    .iter()
                    .map(|(n, v)| format!("{}:{}", json!(n), v))
                    .collect();
                format!("{{{}}}\n", fields.join(","))
            }
        }
    }

    fn describe(&self) -> String {
        let get = |name: &str| {
            self.columns
                .iter()
                .find(|(n, _)| *n == name)
                .map_or(String::new(), |(_, v)| csv_cell(v))
        };
        format!(
            "topology {}, algorithm {}, workload {}, seed {}",
            get("topology"),
            get("algorithm"),
            get("workload"),
            get("seed")
        )
    }
}

/// Where rows go: opened only once a first row is ready, so a sweep in which
/// every point fails leaves no output behind.
struct Sink {
    out: Option<PathBuf>,
    format: Format,
    writer: Option<Box<dyn Write>>,
    closed: bool,
}

impl Sink {
    fn write(&mut self, row: &Row) -> Result<(), String> {
        if self.closed {
            return Ok(());
        }
        if self.writer.is_none() {
            let mut writer: Box<dyn Write> = match &self.out {
                Some(path) => Box::new(std::io::BufWriter::new(
                    std::fs::File::create(path).map_err(|e| format!("invalid out '{}': {e}", path.display()))?,
                )),
                None => Box::new(std::io::LineWriter::new(std::io::stdout())),
            };
            if self.format == Format::Csv {
                self.check(writer.write_all(row.header().as_bytes()))?;
            }
            self.writer = Some(writer);
        }
        let text = row.render(self.format);
        let result = self.writer.as_mut().map_or(Ok(()), |w| w.write_all(text.as_bytes()));
        self.check(result)
    }

    fn finish(&mut self) -> Result<(), String> {
        let result = self.writer.as_mut().map_or(Ok(()), |w| w.flush());
        self.check(result)
    }

    /// A closed pipe ends the output quietly; other write errors are reported.
    fn check(&mut self, result: std::io::Result<()>) -> Result<(), String> {
        match result {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            Err(e) => {
                let target = self
                    .out
                    .as_ref()
                    .map_or("stdout".to_string(), |p| p.display().to_string());
                Err(format!("cannot write to {target}: {e}"))
            }
            Ok(()) => Ok(()),
        }
    }
}

/// Whether to draw a progress bar: only for a person watching a terminal.
fn show_progress() -> bool {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    std::io::stderr().is_terminal() && !ci
}

/// `routesim sweep`.
pub(super) fn sweep(args: SweepArgs) -> Outcome {
    let grid = Grid::new(&args)?;
    let shared = Shared {
        locality: args.locality,
        hotspot: args.hotspot,
        edge_queues: args.engine.edge_queues,
        pipeline: args.engine.pipeline,
        reverse_order: args.engine.reverse_order,
        max_steps: args.engine.max_steps.unwrap_or(DEFAULT_MAX_STEPS),
    };
    let total = grid.size();
    let bar = if show_progress() {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} runs, eta {eta}") {
            bar.set_style(style.progress_chars("=> "));
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let pool = match args.jobs {
        Some(j) => Some(
            rayon::ThreadPoolBuilder::new()
                .num_threads(j as usize)
                .build()
                .map_err(|e| format!("invalid jobs '{j}': {e}"))?,
        ),
        None => None,
    };
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(u64, Row)>();
    let mut sink = Sink {
        out: args.out.clone(),
        format: args.format,
        writer: None,
        closed: false,
    };
    let (mut successes, mut failures, mut incomplete) = (0u64, 0u64, 0u64);
    let mut first_error: Option<String> = None;
    let result: Result<(), String> = std::thread::scope(|scope| {
        let (grid, shared, stop) = (&grid, &shared, &stop);
        scope.spawn(move || {
            let work = move || {
                (0..total).par_bridge().for_each_with(tx, |tx, i| {
                    if !stop.load(Ordering::Relaxed) {
                        let _ = tx.send((i, row(&grid.point(i), shared)));
                    }
                });
            };
            match &pool {
                Some(pool) => pool.install(work),
                None => work(),
            }
        });
        // Rows arrive in any order; they leave in grid order. Rows are held
        // back until some point has succeeded, so that a sweep in which every
        // point fails prints nothing.
        let mut pending: BTreeMap<u64, Row> = BTreeMap::new();
        let mut ready: Vec<Row> = Vec::new();
        let mut next = 0u64;
        let mut outcome = Ok(());
        for (i, row) in rx {
            bar.inc(1);
            if row.ok {
                successes += 1;
                incomplete += row.incomplete as u64;
            } else {
                failures += 1;
            }
            pending.insert(i, row);
            while let Some(row) = pending.remove(&next) {
                next += 1;
                if first_error.is_none() {
                    if let Some(e) = &row.error {
                        first_error = Some(format!("{} ({})", e, row.describe()));
                    }
                }
                ready.push(row);
            }
            if successes > 0 && outcome.is_ok() {
                outcome = bar.suspend(|| ready.drain(..).try_for_each(|row| sink.write(&row)));
                if outcome.is_err() || sink.closed {
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
        outcome
    });
    bar.finish_and_clear();
    result?;
    if successes == 0 {
        let first = first_error.unwrap_or_else(|| "no grid point ran".into());
        return Err(format!(
            "every one of the {total} grid points failed; the first: {first}"
        ));
    }
    sink.finish()?;
    if failures > 0 {
        eprintln!("routesim: sweep: {failures} of {total} grid points failed (see the error column)");
    }
    if incomplete > 0 {
        eprintln!("routesim: sweep: {incomplete} of {total} runs stalled or hit --max-steps");
        return Ok(EXIT_INCOMPLETE);
    }
    Ok(EXIT_OK)
}
