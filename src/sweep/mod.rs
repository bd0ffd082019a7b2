//! Sweeps: a grid of runs, expanded from lists, ranges and `{n}` templates
//! into [`RunSpec`]s, one output row per grid point in grid order, and the
//! rows aggregated per value of the varied parameter. The CLI's `sweep` runs
//! the points on all cores; the page's experiment view runs them one by one
//! in a Web Worker through the same code. No I/O here.
//!
//! The grid is topologies × algorithms × policies × workloads × (ℓ, k) ×
//! queue capacities × seeds, the last varying fastest. The (ℓ, k) pairs are
//! the product of the ℓ and k lists, or the paired list `lk` (ℓ = k = each
//! value). Every list takes comma-separated items; numeric lists also take
//! inclusive ranges `a..b`. In a topology, `{n}` (or `{N}`) is replaced by
//! each value of `n`.
//!
//! Open-loop sweeps (SPEC §6: patterns and rates instead of workloads)
//! have their own grid, [`LoadGrid`], with the same lists, rows and output.

use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::report::Report;
use crate::request::{parse_number, Field, RunSpec};
use crate::topology::Topology;
use crate::workload::Workload;
use crate::Status;

mod experiment;
mod load;
mod row;
mod shard;

pub use experiment::{size_template, ChartPoint, Experiment, Vary};
pub use load::{LoadGrid, LoadLists};
pub use row::{Format, Row, Table};
pub use shard::{Shard, MAX_SHARDS};

/// Most grid points one sweep may have.
pub const MAX_POINTS: u64 = 100_000_000;

/// The comma-separated items of a list (all its occurrences).
pub fn items(field: &str, raw: &[String]) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for text in raw {
        for item in text.split(',') {
            let item = item.trim();
            if item.is_empty() {
                return Err(Error::invalid(field, text, "empty item in the comma-separated list"));
            }
            out.push(item.to_string());
        }
    }
    Ok(out)
}

/// A list of whole numbers from `min` to `max` and inclusive ranges `a..b`;
/// at most [`MAX_POINTS`] values in all, counted before any is built.
pub fn numbers(field: &str, raw: &[String], min: u64, max: u64) -> Result<Vec<u64>> {
    // The ranges first (a single number is the range n..n), so that a list
    // past the limit is refused before anything is allocated: several
    // ranges, each below it, must not add up past it.
    let mut ranges = Vec::new();
    let mut total = 0u64;
    for text in raw {
        for item in items(field, std::slice::from_ref(text))? {
            let number = |part: &str| {
                parse_number(field, part, min, max).map_err(|_| {
                    Error::invalid(
                        field,
                        text,
                        format!("'{part}' is not a whole number from {min} to {max} or a range a..b"),
                    )
                })
            };
            let (a, b) = match item.split_once("..") {
                Some((a, b)) => (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?),
                None => {
                    let n = number(&item)?;
                    (n, n)
                }
            };
            if a > b {
                return Err(Error::invalid(
                    field,
                    text,
                    format!("range {a}..{b} is empty (ranges are inclusive, a <= b)"),
                ));
            }
            if b - a >= MAX_POINTS - total {
                return Err(Error::invalid(
                    field,
                    text,
                    format!("'{item}' takes the list past {MAX_POINTS} values"),
                ));
            }
            total += b - a + 1;
            ranges.push((a, b));
        }
    }
    Ok(ranges.into_iter().flat_map(|(a, b)| a..=b).collect())
}

/// A list of positive 32-bit numbers.
fn positive(field: &str, raw: &[String]) -> Result<Vec<u32>> {
    Ok(numbers(field, raw, 1, u32::MAX as u64)?
        .into_iter()
        .map(|v| v as u32)
        .collect())
}

/// Whether a topology template contains `{n}` or `{N}`.
fn has_placeholder(template: &str) -> bool {
    template.contains("{n}") || template.contains("{N}")
}

/// The topologies of a topology list: each item parsed by `parse`, a
/// template with `{n}` (or `{N}`) once per value of `n`; refuses values of
/// `n` that no template uses, and a template without them.
fn expand_topologies(raw: &[String], n: &[String], parse: impl Fn(&str) -> Result<Topology>) -> Result<Vec<Topology>> {
    let templates = items("topology", raw)?;
    let ns = if n.is_empty() { None } else { Some(positive("n", n)?) };
    let mut topologies = Vec::new();
    for template in &templates {
        if has_placeholder(template) {
            let ns = ns
                .as_ref()
                .ok_or_else(|| Error::invalid("topology", template, "it uses {n} but no values of n are given"))?;
            for n in ns {
                topologies.push(parse(
                    &template.replace("{n}", &n.to_string()).replace("{N}", &n.to_string()),
                )?);
            }
        } else {
            topologies.push(parse(template)?);
        }
    }
    if ns.is_some() && !templates.iter().any(|t| has_placeholder(t)) {
        return Err(Error::invalid("n", n.join(","), "no topology contains {n}"));
    }
    Ok(topologies)
}

/// What a sweep varies, as its lists of text (the CLI's flags; the page's
/// experiment builds the same). Empty lists take the base request's value.
#[derive(Debug, Clone, Default)]
pub struct SweepLists {
    /// Topologies or `{n}` templates.
    pub topology: Vec<String>,
    /// Values of `{n}`.
    pub n: Vec<String>,
    /// Algorithms.
    pub algorithm: Vec<String>,
    /// Policies.
    pub policy: Vec<String>,
    /// Workloads.
    pub workload: Vec<String>,
    /// Values of ℓ (crossed with `k`).
    pub l: Vec<String>,
    /// Values of k.
    pub k: Vec<String>,
    /// Values of ℓ = k (paired; instead of `l` and `k`).
    pub lk: Vec<String>,
    /// Queue capacities (`unbounded` for none).
    pub queue_cap: Vec<String>,
    /// Seeds.
    pub seeds: Vec<String>,
}

/// The grid: every name checked, every list expanded.
#[derive(Debug, Clone)]
pub struct Grid {
    base: RunSpec,
    topologies: Vec<Topology>,
    algorithms: Vec<&'static crate::algorithms::Entry>,
    policies: Vec<Policy>,
    workloads: Vec<Workload>,
    lks: Vec<(Option<u32>, Option<u32>)>,
    queue_caps: Vec<Option<u32>>,
    seeds: Vec<u64>,
    /// Threads of each run's step and its `parallel_min` ([`Grid::with_threads`]).
    threads: (usize, usize),
}

/// One grid point's coordinates.
#[derive(Debug, Clone)]
pub struct Point {
    /// The request.
    pub spec: RunSpec,
    /// ℓ as requested (`None`: the workload's).
    pub l: Option<u32>,
    /// k as requested.
    pub k: Option<u32>,
}

impl Grid {
    /// Expands the lists over `base` (whose other fields every point shares).
    pub fn new(base: RunSpec, lists: &SweepLists) -> Result<Grid> {
        let mut topologies = expand_topologies(&lists.topology, &lists.n, |name| {
            Ok(parse_field(&base, Field::Topology, "topology", name)?.topology.unwrap())
        })?;
        if topologies.is_empty() {
            topologies.extend(base.topology.clone());
        }
        let each = |field: Field, name: &str, raw: &[String]| -> Result<Vec<RunSpec>> {
            items(name, raw)?
                .iter()
                .map(|text| parse_field(&base, field, name, text))
                .collect()
        };
        let mut algorithms: Vec<_> = each(Field::Algorithm, "algorithm", &lists.algorithm)?
            .into_iter()
            .map(|s| s.algorithm)
            .collect();
        if algorithms.is_empty() {
            algorithms.push(base.algorithm);
        }
        let mut policies: Vec<_> = each(Field::Policy, "policy", &lists.policy)?
            .into_iter()
            .map(|s| s.policy)
            .collect();
        if policies.is_empty() {
            policies.push(base.policy);
        }
        let mut workloads: Vec<_> = each(Field::Workload, "workload", &lists.workload)?
            .into_iter()
            .filter_map(|s| s.workload)
            .collect();
        if workloads.is_empty() {
            workloads.extend(base.workload);
        }
        if workloads.is_empty() {
            return Err(Error::invalid(
                "workload",
                "",
                "missing: a sweep needs at least one workload",
            ));
        }
        let lks: Vec<(Option<u32>, Option<u32>)> = if !lists.lk.is_empty() {
            if !lists.l.is_empty() || !lists.k.is_empty() {
                return Err(Error::invalid(
                    "lk",
                    lists.lk.join(","),
                    "give either lk (l = k) or l and k, not both",
                ));
            }
            positive("lk", &lists.lk)?
                .into_iter()
                .map(|v| (Some(v), Some(v)))
                .collect()
        } else {
            let or_base = |list: Vec<u32>, base: Option<u32>| -> Vec<Option<u32>> {
                if list.is_empty() {
                    vec![base]
                } else {
                    list.into_iter().map(Some).collect()
                }
            };
            let ls = or_base(positive("l", &lists.l)?, base.l);
            let ks = or_base(positive("k", &lists.k)?, base.k);
            ls.iter().flat_map(|&l| ks.iter().map(move |&k| (l, k))).collect()
        };
        let mut queue_caps = Vec::new();
        for item in items("queue-cap", &lists.queue_cap)? {
            // A range a..b of capacities, as the other numeric lists take.
            let values = if item.contains("..") {
                numbers("queue-cap", std::slice::from_ref(&item), 1, u32::MAX as u64)?
                    .iter()
                    .map(u64::to_string)
                    .collect()
            } else {
                vec![item]
            };
            for value in values {
                queue_caps.push(parse_field(&base, Field::QueueCap, "queue-cap", &value)?.queue_cap);
            }
        }
        if queue_caps.is_empty() {
            queue_caps.push(base.queue_cap);
        }
        let mut seeds = numbers("seeds", &lists.seeds, 0, u64::MAX)?;
        if seeds.is_empty() {
            seeds.push(base.seed);
        }
        let grid = Grid {
            base,
            topologies,
            algorithms,
            policies,
            workloads,
            lks,
            queue_caps,
            seeds,
            threads: (1, crate::engine::PARALLEL_MIN),
        };
        let size = grid.size();
        if size > MAX_POINTS {
            return Err(Error::invalid(
                "grid",
                format!("{size} points"),
                format!("more than {MAX_POINTS}; split the sweep"),
            ));
        }
        if size == 0 {
            return Err(Error::invalid(
                "topology",
                "",
                "missing: a sweep needs at least one topology",
            ));
        }
        Ok(grid)
    }

    fn radices(&self) -> [u64; 7] {
        [
            self.topologies.len(),
            self.algorithms.len(),
            self.policies.len(),
            self.workloads.len(),
            self.lks.len(),
            self.queue_caps.len(),
            self.seeds.len(),
        ]
        .map(|r| r as u64)
    }

    /// Number of grid points.
    pub fn size(&self) -> u64 {
        grid_size(&self.radices())
    }

    /// The `index`-th point in grid order (the seed varies fastest).
    pub fn point(&self, index: u64) -> Point {
        let digit = grid_digits(index, &self.radices());
        let (l, k) = self.lks[digit[4]];
        let spec = RunSpec {
            topology: Some(self.topologies[digit[0]].clone()),
            algorithm: self.algorithms[digit[1]],
            policy: self.policies[digit[2]],
            workload: Some(self.workloads[digit[3]]),
            instance: None,
            l,
            k,
            queue_cap: self.queue_caps[digit[5]],
            seed: self.seeds[digit[6]],
            ..self.base.clone()
        };
        Point { spec, l, k }
    }

    /// Every run's step on `threads` threads from `parallel_min` packets
    /// in flight (speed only; `sweep --threads`).
    pub fn with_threads(self, threads: usize, parallel_min: usize) -> Grid {
        Grid {
            threads: (threads, parallel_min),
            ..self
        }
    }

    /// The memory limit every point is checked against (`None`: none known).
    pub fn memory_limit(&self) -> Option<&crate::memory::Limit> {
        self.base.memory_limit.as_ref()
    }

    /// The `index`-th point's estimated bytes ([`crate::memory::estimate`];
    /// nothing generated), for running points side by side within a
    /// memory limit; `None` if it has none (no network).
    pub fn estimate(&self, index: u64) -> Option<u64> {
        self.point(index).spec.memory_estimate().map(|e| e.total())
    }

    /// Runs the `index`-th point to its end (a panic, i.e. a bug, becomes an error row natively).
    pub fn run(&self, index: u64) -> Row {
        let point = self.point(index);
        let result = caught(|| run_spec(&point.spec, self.threads));
        Row::new(&point, result)
    }
}

/// Parses one field over `base`, for a list item.
fn parse_field(base: &RunSpec, field: Field, name: &str, text: &str) -> Result<RunSpec> {
    let mut spec = base.clone();
    spec.set(field, name, text)?;
    Ok(spec)
}

fn run_spec(spec: &RunSpec, (threads, parallel_min): (usize, usize)) -> std::result::Result<(Report, Status), String> {
    let mut sim = spec.build_threads(threads, parallel_min).map_err(|e| e.to_string())?;
    let status = sim.run();
    Ok((sim.report(), status))
}

/// `run`'s result, or, if it panics, an error naming the panic's message
/// (one line): a sweep's point that hits an internal error becomes an error
/// row and the sweep goes on. In wasm, where a panic aborts, just `run`.
#[cfg(not(target_arch = "wasm32"))]
pub(super) fn caught<T>(run: impl FnOnce() -> std::result::Result<T, String>) -> std::result::Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run)).unwrap_or_else(|payload| {
        Err(format!(
            "internal error: {}",
            crate::error::panic_message(payload.as_ref())
        ))
    })
}

/// [`caught`] in wasm: a panic aborts there.
#[cfg(target_arch = "wasm32")]
pub(super) fn caught<T>(run: impl FnOnce() -> std::result::Result<T, String>) -> std::result::Result<T, String> {
    run()
}

/// The number of points of a grid with these list lengths (the product;
/// `u64::MAX` when it overflows, which the grids refuse as too many).
pub(crate) fn grid_size(radices: &[u64]) -> u64 {
    radices
        .iter()
        .try_fold(1u64, |acc, &r| acc.checked_mul(r))
        .unwrap_or(u64::MAX)
}

/// The `index`-th point of a grid as one index per list, the last list
/// varying fastest (mixed radix).
pub(crate) fn grid_digits<const N: usize>(mut index: u64, radices: &[u64; N]) -> [usize; N] {
    let mut digit = [0usize; N];
    for i in (0..N).rev() {
        digit[i] = (index % radices[i]) as usize;
        index /= radices[i];
    }
    digit
}

#[cfg(test)]
mod tests {
    use super::{caught, numbers, MAX_POINTS};

    /// A list's ranges count together: each below the limit, two of them
    /// past it are refused before anything is built (before, each range was
    /// checked alone, so `1..60000000,1..60000000` built 120 M values).
    #[test]
    fn a_list_of_ranges_is_refused_past_the_limit_as_a_whole() {
        let half = MAX_POINTS / 2 + 10;
        let one = format!("1..{half}");
        let raw = vec![format!("{one},{one}")];
        let e = numbers("seeds", &raw, 0, u64::MAX).unwrap_err().to_string();
        assert!(
            e.contains("seeds")
                && e.contains(&one)
                && e.contains("past 100000000 values")
                && e.contains(&format!("'{one}'")),
            "{e}"
        );
        // A single number past a full list is refused as well (nothing is
        // built either way), and a short list is taken in order.
        let raw = vec![format!("1..{MAX_POINTS},5")];
        let e = numbers("n", &raw, 1, u64::MAX).unwrap_err().to_string();
        assert!(e.contains("'5' takes the list past"), "{e}");
        let raw = vec!["7,1..3".to_string(), "2..=4".to_string()];
        assert_eq!(numbers("seeds", &raw, 0, u64::MAX).unwrap(), [7, 1, 2, 3, 2, 3, 4]);
    }

    #[test]
    fn a_panicking_point_becomes_one_line_of_error_and_a_result_passes_through() {
        assert_eq!(caught(|| Ok::<u32, String>(7)), Ok(7));
        assert_eq!(caught(|| Err::<u32, String>("no".into())), Err("no".into()));
        let text = String::from("slot 9\n  out of range");
        let failed = caught(|| -> Result<u32, String> { panic!("{text}") });
        assert_eq!(failed, Err("internal error: slot 9 out of range".into()));
        let failed = caught(|| -> Result<u32, String> { std::panic::panic_any(3u8) });
        assert_eq!(failed, Err("internal error: panic".into()));
    }
}
