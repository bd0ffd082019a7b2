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
use crate::request::{Field, RunSpec};
use crate::topology::Topology;
use crate::workload::Workload;
use crate::Status;

mod experiment;
mod load;
mod row;
mod shard;
mod values;

pub use experiment::{size_template, ChartPoint, Experiment, Vary};
pub use load::{LoadGrid, LoadLists};
pub use row::{Format, Row, Table};
pub use shard::{Shard, MAX_SHARDS};
pub use values::{numbers, Numbers, Topologies, MAX_TOPOLOGIES};
use values::{numbers_or, positive};

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

/// The grid: every name checked; the lists kept as typed (values.rs), each
/// point reading its values by index.
#[derive(Debug, Clone)]
pub struct Grid {
    base: RunSpec,
    topologies: Topologies,
    algorithms: Vec<&'static crate::algorithms::Entry>,
    policies: Vec<Policy>,
    workloads: Vec<Workload>,
    lks: Lks,
    /// Queue capacities, 0 standing for unbounded (empty: the base's).
    queue_caps: Numbers,
    seeds: Numbers,
    /// Threads of each run's step and its `parallel_min` ([`Grid::with_threads`]).
    threads: (usize, usize),
}

/// A list of ℓ or k values, or (empty) the base request's one value.
#[derive(Debug, Clone)]
struct OrBase {
    list: Numbers,
    base: Option<u32>,
}

impl OrBase {
    fn len(&self) -> u64 {
        self.list.len().max(1)
    }

    fn get(&self, index: u64) -> Option<u32> {
        if self.list.is_empty() {
            self.base
        } else {
            Some(self.list.get(index) as u32)
        }
    }
}

/// The (ℓ, k) pairs of a grid.
#[derive(Debug, Clone)]
enum Lks {
    /// ℓ = k = each value (`--lk`).
    Paired(Numbers),
    /// Every ℓ with every k, k varying fastest.
    Crossed(OrBase, OrBase),
}

impl Lks {
    fn len(&self) -> u64 {
        match self {
            Lks::Paired(list) => list.len(),
            Lks::Crossed(l, k) => l.len() * k.len(),
        }
    }

    fn get(&self, index: u64) -> (Option<u32>, Option<u32>) {
        match self {
            Lks::Paired(list) => {
                let v = Some(list.get(index) as u32);
                (v, v)
            }
            Lks::Crossed(l, k) => (l.get(index / k.len()), k.get(index % k.len())),
        }
    }
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
        let mut topologies = Topologies::new(&lists.topology, &lists.n, |name| parse_topology(&base, name))?;
        if topologies.is_empty() {
            if let Some(t) = &base.topology {
                topologies = Topologies::one(t);
            }
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
        let lks = if !lists.lk.is_empty() {
            if !lists.l.is_empty() || !lists.k.is_empty() {
                return Err(Error::invalid(
                    "lk",
                    lists.lk.join(","),
                    "give either lk (l = k) or l and k, not both",
                ));
            }
            Lks::Paired(positive("lk", &lists.lk)?)
        } else {
            let or_base = |list: Numbers, base: Option<u32>| OrBase { list, base };
            Lks::Crossed(
                or_base(positive("l", &lists.l)?, base.l),
                or_base(positive("k", &lists.k)?, base.k),
            )
        };
        // Capacities as the field reads them: a positive number, or a word
        // for unbounded (0 here).
        let queue_caps = numbers_or(
            "queue-cap",
            &lists.queue_cap,
            1,
            u32::MAX as u64,
            &crate::request::UNBOUNDED_WORDS,
            0,
        )?;
        let mut seeds = numbers("seeds", &lists.seeds, 0, u64::MAX)?;
        if seeds.is_empty() {
            seeds = Numbers::one(base.seed);
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
            self.algorithms.len() as u64,
            self.policies.len() as u64,
            self.workloads.len() as u64,
            self.lks.len(),
            self.queue_caps.len().max(1),
            self.seeds.len(),
        ]
    }

    /// Number of grid points.
    pub fn size(&self) -> u64 {
        grid_size(&self.radices())
    }

    /// The `index`-th point in grid order (the seed varies fastest).
    pub fn point(&self, index: u64) -> Point {
        let digit = grid_digits(index, &self.radices());
        let (l, k) = self.lks.get(digit[4] as u64);
        let queue_cap = if self.queue_caps.is_empty() {
            self.base.queue_cap
        } else {
            Some(self.queue_caps.get(digit[5] as u64) as u32).filter(|&q| q > 0)
        };
        let spec = RunSpec {
            topology: Some(
                self.topologies
                    .get(digit[0] as u64, |name| parse_topology(&self.base, name)),
            ),
            algorithm: self.algorithms[digit[1]],
            policy: self.policies[digit[2]],
            workload: Some(self.workloads[digit[3]]),
            instance: None,
            l,
            k,
            queue_cap,
            seed: self.seeds.get(digit[6] as u64),
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

/// A topology as `base`'s field reads it.
fn parse_topology(base: &RunSpec, name: &str) -> Result<Topology> {
    Ok(parse_field(base, Field::Topology, "topology", name)?
        .topology
        .expect("a parsed topology"))
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
        let list = numbers("seeds", &raw, 0, u64::MAX).unwrap();
        assert_eq!(list.iter().collect::<Vec<_>>(), [7, 1, 2, 3, 2, 3, 4]);
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
