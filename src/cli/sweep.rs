//! `routesim sweep`: the core's grid ([`crate::sweep::Grid`]) run in
//! parallel on all cores, one output row per grid point, in grid order
//! whatever the thread scheduling. This file only parses flags, schedules
//! and writes.
//!
//! In `--topology`, `{n}` (or `{N}`; clap's help shows only the latter,
//! since it reads `{n}` as a line break) is replaced by each value of `--n`.
//!
//! With `--pattern` (and `--rate`) the sweep is open-loop (SPEC §6): the
//! core's [`LoadGrid`] instead of the batch grid, the same scheduling and
//! output; batch-only options (`--workload`, ℓ, k, queues, engine options)
//! are refused there by name.

use super::{Outcome, EXIT_BAD_INPUT, EXIT_INCOMPLETE, EXIT_OK};
use crate::request::{parse_number, Field, RunSpec};
use crate::sweep::{self, Grid, LoadGrid, LoadLists, Row, Shard, SweepLists, Table};
use clap::{Args, ValueEnum};
use indicatif::ProgressBar;
use rayon::iter::{ParallelBridge, ParallelIterator};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Condvar, Mutex, PoisonError};

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
Lists are comma-separated and flags may be repeated. Numeric lists (--n, --l, --k, --lk, --seeds, \
--queue-cap) accept inclusive ranges a..b. The grid is topology x algorithm x policy x workload x (l, k) \
x queue-cap x seed, the last varying fastest; rows come out in that order. (l, k) is every pair of --l and \
--k, or with --lk the pairs l = k. A grid point that cannot run (e.g. transpose on a non-square mesh) gives \
a row with an error column and the sweep exits 1, as it does when a run stalls or hits --max-steps; when no \
point could run, the rows are still written and the sweep exits 2 (SPEC §4).

Open-loop traffic (SPEC §6): --pattern and --rate instead of --workload; the grid is topology x \
algorithm x policy x pattern x seed x rate, the rate varying fastest, one row per point with the \
columns of `routesim load --out` (rate, offered, accepted, latency_mean/p50/p99/max, hops_mean, \
saturated, ideal_throughput, ...). A saturated rate is a result (exit 0).

Examples:
  routesim sweep --topology 'mesh:{N}x{N}' --n 16,32,64 --algorithm greedy,valiant \\
                 --workload random-permutation,transpose --l 1 --k 1,2,4 --seeds 1..5 --out runs.csv
  routesim sweep --topology 'torus:{N}x{N}' --n 8,16 --algorithm greedy,valiant \\
                 --pattern uniform,tornado --rate 0.05,0.1,0.2 --seeds 1..3 --out load.csv")]
pub struct SweepArgs {
    /// Topologies; `{N}` (or lower-case n in braces) is replaced by each value of --n, e.g. 'mesh:{N}x{N},torus:{N}x{N}'.
    #[arg(long, value_name = "LIST", required = true, allow_hyphen_values = true)]
    pub topology: Vec<String>,
    /// Values of `{N}` in --topology, e.g. 16,32,64 or 4..8.
    #[arg(long = "n", value_name = "LIST", allow_hyphen_values = true)]
    pub n: Vec<String>,
    /// Algorithms [default: greedy].
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub algorithm: Vec<String>,
    /// Contention policies [default: farthest-first].
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub policy: Vec<String>,
    /// Workloads, e.g. random-permutation,transpose (batch runs).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub workload: Vec<String>,
    /// Open-loop traffic patterns (SPEC §6), e.g. uniform,tornado: makes the sweep open-loop (needs --rate).
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub pattern: Vec<String>,
    /// Open-loop injection rates per node and step, each in (0, 1], e.g. 0.05,0.1,0.2.
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub rate: Vec<String>,
    /// Open-loop windows (SPEC §6).
    #[command(flatten)]
    pub windows: super::load::WindowArgs,
    /// Values of ℓ [default: the workload's; the column then shows the instance's ℓ].
    #[arg(long = "l", value_name = "LIST", allow_hyphen_values = true)]
    pub l: Vec<String>,
    /// Values of k [default: the workload's; the column then shows the instance's k].
    #[arg(long = "k", value_name = "LIST", allow_hyphen_values = true)]
    pub k: Vec<String>,
    /// Values of l = k, paired (instead of --l and --k), e.g. 1,2,4,8.
    #[arg(long = "lk", value_name = "LIST", allow_hyphen_values = true)]
    pub lk: Vec<String>,
    /// `locality`: the largest source–destination distance; `local-kk` and ks-local: the largest move along one axis (default 2). `unknown` or `unknown:L` (L for the workload): ks-local's nodes are not told L and estimate it (NoLRoute, §9.2, n×n torus).
    #[arg(long, value_name = "L", allow_hyphen_values = true)]
    pub locality: Option<String>,
    /// `hotspot` workload: the percentage of nodes that send to the hot node (default 10).
    #[arg(long, value_name = "PERCENT", allow_hyphen_values = true)]
    pub hotspot: Option<String>,
    /// Seeds, e.g. 1..10 (inclusive) or 1,7,42 [default: 1].
    #[arg(long, visible_alias = "seed", value_name = "LIST", allow_hyphen_values = true)]
    pub seeds: Vec<String>,
    /// Queue capacities; `unbounded` for none [default: unbounded].
    #[arg(long, value_name = "LIST", allow_hyphen_values = true)]
    pub queue_cap: Vec<String>,
    /// Options shared with `run`, applied to every run of the sweep.
    #[command(flatten)]
    pub engine: super::EngineFlags,
    /// The memory limit (`--memory-limit`): each grid point's, and what the
    /// points running side by side take together ([`Budget`]).
    #[command(flatten)]
    pub memory: super::memory::MemoryFlag,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Csv, allow_hyphen_values = true)]
    pub format: Format,
    /// JSON lines: the same as --format jsonl (as --json of run and load).
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Write to this file instead of stdout (`-`: stdout).
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub out: Option<PathBuf>,
    /// Grid points run at once [default: all cores].
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub jobs: Option<String>,
    /// Threads of each run's step [default: 1]; every result is the same
    /// at any count (open-loop runs step on one).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    pub threads: Option<String>,
    /// Run only the i-th of N contiguous slices of the grid (i from 1):
    /// the shards' outputs, concatenated in order, equal the whole sweep's.
    #[arg(long, value_name = "i/N", allow_hyphen_values = true)]
    pub shard: Option<String>,
}

/// What a sweep runs: batch instances or open-loop traffic.
enum Plan {
    Batch(Box<Grid>),
    Load(Box<LoadGrid>),
}

impl Plan {
    fn size(&self) -> u64 {
        match self {
            Plan::Batch(g) => g.size(),
            Plan::Load(g) => g.size(),
        }
    }

    fn run(&self, index: u64) -> Row {
        match self {
            Plan::Batch(g) => g.run(index),
            Plan::Load(g) => g.run(index),
        }
    }

    /// The limit the points are checked against.
    fn memory_limit(&self) -> Option<&crate::memory::Limit> {
        match self {
            Plan::Batch(g) => g.memory_limit(),
            Plan::Load(g) => g.memory_limit(),
        }
    }

    /// A point's estimated bytes (0 for one that cannot run).
    fn estimate(&self, index: u64) -> u64 {
        match self {
            Plan::Batch(g) => g.estimate(index),
            Plan::Load(g) => g.estimate(index),
        }
        .unwrap_or(0)
    }
}

/// The memory the points running at once take together: with `--jobs`
/// points side by side, a point starts only when its estimate fits beside
/// those of the points running; a point that would run alone starts
/// whatever its estimate (its own check refuses it by name if it is over
/// the limit). Each point's estimate is an upper bound of its peak
/// ([`crate::memory`]), so the points running never need more than the
/// limit together. The rows and their order do not change.
struct Budget {
    limit: u64,
    /// (bytes taken, points running).
    state: Mutex<(u64, u32)>,
    freed: Condvar,
}

impl Budget {
    fn new(limit: u64) -> Budget {
        Budget {
            limit,
            state: Mutex::new((0, 0)),
            freed: Condvar::new(),
        }
    }

    /// Waits until `bytes` (at most the limit) fit beside the points
    /// running, or none runs; returns what it took.
    fn take(&self, bytes: u64) -> u64 {
        let bytes = bytes.min(self.limit);
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while state.1 > 0 && state.0 + bytes > self.limit {
            state = self.freed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        state.0 += bytes;
        state.1 += 1;
        bytes
    }

    /// Gives back what [`Budget::take`] took, when the point is done.
    fn give_back(&self, bytes: u64) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.0 -= bytes;
        state.1 -= 1;
        self.freed.notify_all();
    }
}

impl SweepArgs {
    /// The plan: open-loop with `--pattern`, batch otherwise; options of
    /// the other kind are refused by name.
    fn plan(&self) -> Result<Plan, String> {
        if self.pattern.is_empty() && self.workload.is_empty() {
            return Err(
                "missing --workload (batch instances, e.g. --workload transpose) or --pattern \
                        (open-loop traffic, e.g. --pattern uniform --rate 0.05,0.1)"
                    .into(),
            );
        }
        if self.pattern.is_empty() {
            let load_only = [
                ("rate", self.rate.first()),
                ("warmup", self.windows.warmup.as_ref()),
                ("measure", self.windows.measure.as_ref()),
                ("drain", self.windows.drain.as_ref()),
            ];
            if let Some((name, Some(value))) = load_only.into_iter().find(|(_, v)| v.is_some()) {
                return Err(format!(
                    "invalid {name} '{value}': --{name} is for open-loop sweeps, which need --pattern (e.g. --pattern uniform)"
                ));
            }
            return self.grid().map(|g| Plan::Batch(Box::new(g)));
        }
        if let Some(w) = self.workload.first() {
            return Err(format!(
                "invalid workload '{w}': --workload (batch instances) and --pattern (open-loop traffic, SPEC §6) \
                 cannot be combined in one sweep; give one of them"
            ));
        }
        let engine = self.engine.fields();
        let batch_only = [
            ("l", self.l.first().cloned()),
            ("k", self.k.first().cloned()),
            ("lk", self.lk.first().cloned()),
            ("queue-cap", self.queue_cap.first().cloned()),
            ("locality", self.locality.clone()),
            ("hotspot", self.hotspot.clone()),
        ]
        .into_iter()
        .chain(engine.iter().map(|(_, name, text)| (*name, Some(text.clone()))));
        for (name, value) in batch_only {
            if let Some(value) = value {
                return Err(format!(
                    "invalid {name} '{value}': open-loop sweeps (--pattern) do not take --{name} \
                     (SPEC §6 fixes them: unbounded source queues, no barriers, one flit per packet)"
                ));
            }
        }
        let lists = LoadLists {
            topology: self.topology.clone(),
            n: self.n.clone(),
            algorithm: self.algorithm.clone(),
            policy: self.policy.clone(),
            pattern: self.pattern.clone(),
            seeds: self.seeds.clone(),
            rate: self.rate.clone(),
            warmup: self.windows.warmup.clone(),
            measure: self.windows.measure.clone(),
            drain: self.windows.drain.clone(),
        };
        let limit = self.memory.limit()?;
        LoadGrid::new(&lists)
            .map(|grid| Plan::Load(Box::new(grid.with_memory_limit(limit))))
            .map_err(|e| e.to_string())
    }

    /// The core's grid for these flags.
    fn grid(&self) -> Result<Grid, String> {
        let mut fields = self.engine.fields();
        super::push(&mut fields, Field::Locality, &self.locality);
        super::push(&mut fields, Field::Hotspot, &self.hotspot);
        // Each grid point is checked against the limit (an over-limit point is an error row).
        let mut base = RunSpec {
            memory_limit: self.memory.limit()?,
            ..RunSpec::default()
        };
        for (field, name, text) in &fields {
            base.set(*field, name, text).map_err(|e| e.to_string())?;
        }
        let lists = SweepLists {
            topology: self.topology.clone(),
            n: self.n.clone(),
            algorithm: self.algorithm.clone(),
            policy: self.policy.clone(),
            workload: self.workload.clone(),
            l: self.l.clone(),
            k: self.k.clone(),
            lk: self.lk.clone(),
            queue_cap: self.queue_cap.clone(),
            seeds: self.seeds.clone(),
        };
        Grid::new(base, &lists).map_err(|e| e.to_string())
    }
}

/// Where rows go: opened only once a first row is ready.
struct Sink {
    out: Option<PathBuf>,
    table: Table,
    writer: Option<Box<dyn Write>>,
    closed: bool,
}

impl Sink {
    fn write(&mut self, row: &Row) -> Result<(), String> {
        if self.closed {
            return Ok(());
        }
        if self.writer.is_none() {
            let writer: Box<dyn Write> = match &self.out {
                Some(path) => Box::new(std::io::BufWriter::new(
                    std::fs::File::create(path).map_err(|e| format!("invalid out '{}': {e}", path.display()))?,
                )),
                None => Box::new(std::io::LineWriter::new(std::io::stdout())),
            };
            self.writer = Some(writer);
        }
        let text = self.table.line(row);
        let result = self.writer.as_mut().map_or(Ok(()), |w| w.write_all(text.as_bytes()));
        self.check(result)
    }

    /// Flushes; a file given with `--out` that no row opened (an empty
    /// shard) is created empty, as `load` does: a file left from an earlier
    /// run must not be concatenated with the shards' outputs.
    fn finish(&mut self) -> Result<(), String> {
        if let (None, Some(path)) = (&self.writer, &self.out) {
            std::fs::File::create(path).map_err(|e| format!("invalid out '{}': {e}", path.display()))?;
        }
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

/// `routesim sweep`.
pub(super) fn sweep(args: SweepArgs) -> Outcome {
    let threads = super::threads(&args.threads, 1)?;
    // The shard before the grid: a bad one is refused at once.
    let shard: Shard = match &args.shard {
        Some(text) => text.parse::<Shard>().map_err(|e| e.to_string())?,
        None => Shard::WHOLE,
    };
    let grid = match args.plan()? {
        Plan::Batch(g) => Plan::Batch(Box::new(g.with_threads(threads, super::parallel_min()))),
        load => load,
    };
    let slice = shard.range(grid.size());
    let (first, total) = (slice.start, slice.end - slice.start);
    let bar = if super::progress::wanted() {
        super::progress::bar(total, "{elapsed_precise} [{bar:40}] {pos}/{len} runs, eta {eta}")
    } else {
        ProgressBar::hidden()
    };
    let jobs = match &args.jobs {
        Some(text) => Some(parse_number("jobs", text, 1, 1024).map_err(|e| e.to_string())?),
        None => None,
    };
    // Runs at once: the jobs, or fewer if the grid has fewer points.
    let cores = super::cores();
    let at_once = (jobs.map_or(cores, |j| j as usize) as u64).min(total.max(1)) as usize;
    if at_once * threads > cores {
        eprintln!(
            "routesim: warning: --jobs {at_once} × --threads {threads} = {} threads on {cores} cores",
            at_once * threads
        );
    }
    // The points' threads, started here so that a system that cannot
    // start them (a small `ulimit -v`) gets a message, not a panic in
    // rayon's global pool (exit 101; the memory audit of 2026-12-01).
    let threads_for = jobs.map_or(at_once, |j| j as usize);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads_for)
        .build()
        .map_err(|e| match jobs {
            Some(j) => format!("invalid jobs '{j}': {e}"),
            None => format!("cannot start the sweep's {threads_for} threads: {e}"),
        })?;
    let stop = AtomicBool::new(false);
    // Points side by side within the limit each point is checked against
    // (none known: no wait).
    let budget = grid.memory_limit().map(|limit| Budget::new(limit.bytes));
    let (tx, rx) = mpsc::channel::<(u64, Row)>();
    let mut sink = Sink {
        // `--out -` is stdout, as `--instance -` is stdin.
        out: args.out.clone().filter(|p| p != std::path::Path::new("-")),
        table: {
            let format = match (args.json, args.format) {
                (true, _) | (false, Format::Jsonl) => sweep::Format::Jsonl,
                (false, Format::Csv) => sweep::Format::Csv,
            };
            if shard.writes_header() {
                Table::new(format)
            } else {
                Table::without_header(format)
            }
        },
        writer: None,
        closed: false,
    };
    let (mut successes, mut failures, mut incomplete) = (0u64, 0u64, 0u64);
    let mut first_error: Option<String> = None;
    let result: Result<(), String> = std::thread::scope(|scope| {
        let (grid, stop, budget, pool) = (&grid, &stop, &budget, &pool);
        let started = std::thread::Builder::new().spawn_scoped(scope, move || {
            let work = move || {
                slice.par_bridge().for_each_with(tx, |tx, i| {
                    if !stop.load(Ordering::Relaxed) {
                        let took = budget.as_ref().map(|b| (b, b.take(grid.estimate(i))));
                        let row = grid.run(i);
                        if let Some((b, bytes)) = took {
                            b.give_back(bytes);
                        }
                        let _ = tx.send((i, row));
                    }
                });
            };
            pool.install(work)
        });
        if let Err(e) = started {
            return Err(format!("cannot start the sweep's thread: {e}"));
        }
        // Rows arrive in any order; they leave in grid order.
        let mut pending: BTreeMap<u64, Row> = BTreeMap::new();
        let mut ready: Vec<Row> = Vec::new();
        let mut next = first;
        let mut outcome = Ok(());
        for (i, row) in rx {
            bar.inc(1);
            if row.error.is_none() {
                successes += 1;
                incomplete += row.incomplete() as u64;
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
            if outcome.is_ok() {
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
    sink.finish()?;
    if failures > 0 {
        // SPEC §4: rows of points that could not run are written with their
        // error column; the sweep exits 1, or 2 when no point could run.
        let first = first_error.unwrap_or_default();
        eprintln!(
            "routesim: sweep: {failures} of {total} grid points failed (see the error column); the first: {first}"
        );
    }
    if incomplete > 0 {
        eprintln!("routesim: sweep: {incomplete} of {total} runs stalled or hit --max-steps");
    }
    // SPEC §4: 2 when no grid point could run (an empty shard has none to
    // run and exits 0); 1 when some could not run or did not finish.
    Ok(if failures > 0 && successes == 0 {
        EXIT_BAD_INPUT
    } else if failures > 0 || incomplete > 0 {
        EXIT_INCOMPLETE
    } else {
        EXIT_OK
    })
}

#[cfg(test)]
mod tests {
    use super::Budget;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;

    #[test]
    fn a_point_waits_until_its_estimate_fits_beside_the_running_ones() {
        let budget = Budget::new(100);
        let first = budget.take(60);
        let released = AtomicBool::new(false);
        std::thread::scope(|s| {
            let waiter = s.spawn(|| {
                let took = budget.take(60);
                assert!(released.load(Ordering::SeqCst), "60 beside 60 waited for the first");
                budget.give_back(took);
            });
            std::thread::sleep(Duration::from_millis(50));
            // 40 fits beside the first 60 at once.
            let small = budget.take(40);
            budget.give_back(small);
            released.store(true, Ordering::SeqCst);
            budget.give_back(first);
            waiter.join().unwrap();
        });
        // A point over the limit runs alone (its own check refuses it).
        assert_eq!(budget.take(500), 100);
        budget.give_back(100);
        assert_eq!(*budget.state.lock().unwrap(), (0, 0));
    }
}
