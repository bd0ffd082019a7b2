//! `routesim load` (SPEC §6): open-loop traffic at one or more rates, one
//! JSON object per rate on stdout (or CSV / JSON lines in `--out FILE`),
//! or the saturation rate by bisection (`--saturation`). Algorithms and
//! patterns may be lists: every (algorithm, pattern) pair is run, as a grid.
//! Exit 0 when every run ran (a saturated rate is a result, not a failure),
//! 2 for bad input.

use super::{emit, Outcome, EXIT_OK};
use crate::engine::Policy;
use crate::error::Error;
use crate::load::{self, LoadSpec, Pattern};
use crate::request::parse_number;
use crate::sweep::{self, Row, Shard, Table};
use crate::topology::Topology;
use clap::{Args, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// Output formats of `--out`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// Comma-separated values with a header line.
    Csv,
    /// One JSON object per line.
    Jsonl,
}

/// SPEC §6's windows, as `routesim load` and `routesim sweep --pattern`
/// take them (parsed by the core's [`load::windows`]).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct WindowArgs {
    /// Warm-up steps W [default: 500].
    #[arg(long, value_name = "W", allow_hyphen_values = true)]
    pub warmup: Option<String>,
    /// Measurement window M, steps [default: 1000].
    #[arg(long, value_name = "M", allow_hyphen_values = true)]
    pub measure: Option<String>,
    /// Drain limit D, steps after the window [default: 2000].
    #[arg(long, value_name = "D", allow_hyphen_values = true)]
    pub drain: Option<String>,
}

#[derive(Debug, Args)]
#[command(
    after_help = "Example: routesim load --topology mesh:16x16 --algorithm greedy,valiant \
                        --pattern uniform,transpose --rate 0.05,0.1,0.2 --out load.csv"
)]
pub struct LoadArgs {
    /// The network, e.g. mesh:16x16.
    #[arg(long, allow_hyphen_values = true)]
    pub topology: String,
    /// Algorithms, comma-separated (greedy, bit-fixing, valiant, rand-interval).
    #[arg(long, default_value = crate::algorithms::DEFAULT_ALGORITHM, allow_hyphen_values = true)]
    pub algorithm: String,
    /// Patterns, comma-separated: uniform or a permutation workload (transpose, tornado, ...).
    #[arg(long, default_value = "uniform", allow_hyphen_values = true)]
    pub pattern: String,
    /// Injection rates per node and step, comma-separated, each in (0, 1].
    #[arg(long, value_name = "R[,R...]", allow_hyphen_values = true)]
    pub rate: Option<String>,
    #[command(flatten)]
    pub windows: WindowArgs,
    /// Seed.
    #[arg(long, value_name = "S", allow_hyphen_values = true, default_value = "1")]
    pub seed: Option<String>,
    /// Contention policy.
    #[arg(long, default_value = "farthest-first", allow_hyphen_values = true)]
    pub policy: String,
    /// Find the saturation rate by bisection in (0, R], R the largest --rate
    /// (default: min(1, 2 x ideal throughput)); prints one JSON object.
    #[arg(long)]
    pub saturation: bool,
    /// Halvings of the bisection's bracket (at most 64; it also stops once
    /// the bracket cannot be halved in floating point).
    #[arg(long, value_name = "N", default_value = "7", allow_hyphen_values = true)]
    pub bisect: String,
    /// One JSON object per rate on stdout (the default without --out).
    #[arg(long, conflicts_with = "out")]
    pub json: bool,
    /// Write the rows to this file (CSV or JSON lines, see --format; `-`:
    /// stdout). With --saturation, JSON lines.
    #[arg(long, value_name = "FILE", allow_hyphen_values = true)]
    pub out: Option<PathBuf>,
    /// Format of --out (default: jsonl for a file named *.json, *.jsonl or
    /// *.ndjson, else csv; --saturation writes jsonl only).
    #[arg(long, value_enum, requires = "out", allow_hyphen_values = true)]
    pub format: Option<Format>,
    /// Run only the i-th of N contiguous slices of the grid (algorithms ×
    /// patterns × rates in that order, or algorithms × patterns with
    /// --saturation; i from 1): the shards' outputs, concatenated in order,
    /// equal the whole run's.
    #[arg(long, value_name = "i/N", allow_hyphen_values = true)]
    pub shard: Option<String>,
    /// The memory limit (`--memory-limit`), per rate.
    #[command(flatten)]
    pub memory: super::memory::MemoryFlag,
}

/// Runs `routesim load`.
pub(super) fn load(args: LoadArgs) -> Outcome {
    let e = |e: Error| e.to_string();
    let topology: Topology = args.topology.parse().map_err(e)?;
    let policy: Policy = args.policy.parse().map_err(e)?;
    let patterns: Vec<Pattern> = args
        .pattern
        .split(',')
        .map(|p| p.trim().parse())
        .collect::<Result<_, _>>()
        .map_err(e)?;
    let rates = match &args.rate {
        Some(r) => load::parse_rates(r).map_err(e)?,
        None if args.saturation => Vec::new(),
        None => return Err("missing --rate (e.g. --rate 0.01,0.05,0.1)".into()),
    };
    let seed = match &args.seed {
        Some(t) => parse_number("seed", t, 0, u64::MAX).map_err(e)?,
        None => 1,
    };
    let w = &args.windows;
    let (warmup, measure, drain) =
        load::windows(w.warmup.as_deref(), w.measure.as_deref(), w.drain.as_deref()).map_err(e)?;
    let bisect = parse_number("bisect", &args.bisect, 0, u64::from(load::MAX_BISECT)).map_err(e)? as u32;
    if args.saturation && args.format == Some(Format::Csv) {
        return Err(
            "invalid format 'csv': --saturation writes one JSON object per algorithm and pattern (--format jsonl)"
                .into(),
        );
    }
    let memory_limit = args.memory.limit()?;
    let mut specs = Vec::new();
    for algorithm in args.algorithm.split(',').map(str::trim) {
        for &pattern in &patterns {
            let mut spec = LoadSpec::new(topology.clone(), algorithm, pattern);
            (spec.policy, spec.seed, spec.warmup, spec.measure, spec.drain) = (policy, seed, warmup, measure, drain);
            spec.memory_limit = memory_limit.clone();
            // The memory at every rate before the pattern is built (SPEC §4:
            // refused "before generating anything"); a bisection's rates are
            // not known yet, so its network alone (each of its runs checks
            // its own rate).
            let least = [f64::MIN_POSITIVE];
            for &rate in if rates.is_empty() { &least[..] } else { &rates[..] } {
                spec.check_memory(rate).map_err(e)?;
            }
            spec.check().map_err(e)?;
            specs.push(spec);
        }
    }
    let shard: Shard = match &args.shard {
        Some(text) => text.parse::<Shard>().map_err(e)?,
        None => Shard::WHOLE,
    };
    let mut writer: Option<Box<dyn Write>> = match args.out.as_deref() {
        Some(path) if path != std::path::Path::new("-") => Some(Box::new(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|err| format!("invalid out '{}': {err}", path.display()))?,
        ))),
        _ => None,
    };
    // The file written, for messages.
    let target = args
        .out
        .as_ref()
        .map_or("stdout".to_string(), |p| p.display().to_string());
    let mut put = |text: &str| -> Result<(), String> {
        match writer.as_mut() {
            None => emit(text),
            Some(w) => w
                .write_all(text.as_bytes())
                .map_err(|err| format!("cannot write to {target}: {err}")),
        }
    };
    if args.saturation {
        let slice = shard.range(specs.len() as u64);
        // At most 1 + bisect runs per algorithm and pattern; a bisection
        // that ends early (its bracket's middle is one of its ends, or the
        // top rate is not saturated) skips the rest of its share.
        let per = u64::from(bisect) + 1;
        let mut late = super::progress::Late::new(
            (slice.end - slice.start) * per,
            "{elapsed_precise} [{bar:40}] {pos}/{len} runs at most, {msg}",
        );
        let mine = &specs[slice.start as usize..slice.end as usize];
        // Each bisection's top rate, its memory checked before any runs
        // (the most a bisection holds: its rates are at most the top), so
        // that a refusal comes before anything is written (SPEC §4).
        // The largest rate given, else each pair's min(1, 2 × its ideal throughput).
        let given = rates
            .iter()
            .copied()
            .fold(None, |m: Option<f64>, r| Some(m.map_or(r, |m| m.max(r))));
        let mut tops = Vec::with_capacity(mine.len());
        for spec in mine {
            let ideal = spec.ideal_throughput().map_err(e)?;
            let hi = given.unwrap_or_else(|| (2.0 * ideal).min(1.0));
            spec.check_memory(hi).map_err(e)?;
            tops.push(hi);
        }
        for (n, (spec, &hi)) in mine.iter().zip(&tops).enumerate() {
            let found = load::saturation_telling(spec, hi, bisect, |i, rate| {
                late.update(n as u64 * per + i as u64, |_| {
                    format!("{} {} at rate {rate}", spec.algorithm, spec.pattern.name())
                })
            })
            .map_err(e)?;
            let mut object = serde_json::to_value(&found).map_err(|e| e.to_string())?;
            object["topology"] = topology.to_string().into();
            object["algorithm"] = spec.algorithm.clone().into();
            object["pattern"] = spec.pattern.name().into();
            put(&format!("{object}\n"))?;
        }
        late.finish();
        return flush(writer, &target);
    }
    // Stdout gets JSON lines; a file CSV unless --format jsonl or its name
    // says JSON (SPEC §6: "[--json | --out FILE]", one JSON object per rate).
    let csv = args.out.is_some() && args.format.unwrap_or_else(|| out_format(args.out.as_deref())) == Format::Csv;
    // `--format jsonl` writes SPEC §6's objects as stdout does; CSV the table's rows.
    let mut table = if shard.writes_header() {
        Table::new(sweep::Format::Csv)
    } else {
        Table::without_header(sweep::Format::Csv)
    };
    // The grid is specs × rates, in that order; this shard's slice of it.
    let slice = shard.range(specs.len() as u64 * rates.len() as u64);
    let mut late = super::progress::Late::new(
        slice.end - slice.start,
        "{elapsed_precise} [{bar:40}] {pos}/{len} rates, {msg}, eta {eta}",
    );
    let mut done = 0u64;
    for (s, spec) in specs.iter().enumerate() {
        let at = s as u64 * rates.len() as u64;
        let mine: Vec<f64> = (0..rates.len() as u64)
            .filter(|r| slice.contains(&(at + r)))
            .map(|r| rates[r as usize])
            .collect();
        if mine.is_empty() {
            continue;
        }
        // The bar moves at every rate and names the run under way (it
        // moved once per algorithm and pattern, after their last rate, and
        // named the one just done; the memory audit of 2026-12-01).
        let rows = spec
            .run_rates_telling(&mine, |i| {
                late.update(done + i as u64, |_| {
                    format!("{} {} at rate {}", spec.algorithm, spec.pattern.name(), mine[i])
                })
            })
            .map_err(e)?;
        done += mine.len() as u64;
        late.update(done, |_| format!("{} {}", spec.algorithm, spec.pattern.name()));
        for row in rows {
            if csv {
                put(&table.line(&Row::from_rate(spec, &row)))?;
            } else {
                put(&format!(
                    "{}\n",
                    serde_json::to_string(&row).map_err(|e| e.to_string())?
                ))?;
            }
        }
    }
    late.finish();
    flush(writer, &target)
}

/// `--out`'s format when `--format` is not given: JSON lines for a file
/// named `*.json`, `*.jsonl` or `*.ndjson`, else CSV (`-` included).
fn out_format(out: Option<&std::path::Path>) -> Format {
    let ext = out
        .and_then(|p| p.extension())
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("json" | "jsonl" | "ndjson") => Format::Jsonl,
        _ => Format::Csv,
    }
}

/// Flushes `--out`'s file, if one was written.
fn flush(writer: Option<Box<dyn Write>>, target: &str) -> Outcome {
    if let Some(mut w) = writer {
        w.flush().map_err(|err| format!("cannot write to {target}: {err}"))?;
    }
    Ok(EXIT_OK)
}
