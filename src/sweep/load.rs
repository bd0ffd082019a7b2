//! Open-loop sweeps (SPEC §6 in a grid): every (topology, algorithm,
//! policy, pattern, seed, rate) one [`LoadSpec::run`], one output row per
//! point in grid order — the CLI's `sweep --pattern …`, scheduled on all
//! cores like the batch [`super::Grid`]. No I/O here.
//!
//! The grid is topologies × algorithms × policies × patterns × seeds ×
//! rates, the rate varying fastest (so that each curve's rows are
//! consecutive). Topologies take `{n}` templates as in the batch grid. The
//! ideal throughput of a (topology, algorithm, pattern, seed) is computed
//! once, by the first of its points to run, and shared by its rates.

use super::{caught, grid_digits, grid_size, items, numbers, row::Row, Numbers, Topologies, MAX_POINTS};
use crate::algorithms::registry;
use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::load::{self, LoadSpec, Pattern};
use std::collections::HashMap;
use std::sync::OnceLock;
use std::sync::{Arc, Mutex};

/// What an open-loop sweep varies, as its lists of text (the CLI's flags).
/// Empty lists take the defaults: greedy, farthest-first, seed 1, the
/// windows of [`load`] (`DEFAULT_WARMUP`, …).
#[derive(Debug, Clone, Default)]
pub struct LoadLists {
    /// Topologies or `{n}` templates.
    pub topology: Vec<String>,
    /// Values of `{n}`.
    pub n: Vec<String>,
    /// Algorithms (open-loop ones: greedy, bit-fixing, valiant, rand-interval).
    pub algorithm: Vec<String>,
    /// Policies.
    pub policy: Vec<String>,
    /// Patterns (`uniform` or a permutation workload by name).
    pub pattern: Vec<String>,
    /// Seeds.
    pub seeds: Vec<String>,
    /// Rates, each in (0, 1].
    pub rate: Vec<String>,
    /// Warm-up steps W.
    pub warmup: Option<String>,
    /// Measurement window M.
    pub measure: Option<String>,
    /// Drain limit D.
    pub drain: Option<String>,
}

/// One series' λ*, computed by the first of its points to run.
type Ideal = Arc<OnceLock<std::result::Result<f64, String>>>;

/// An open-loop grid: every name checked; the lists kept as typed.
#[derive(Debug)]
pub struct LoadGrid {
    topologies: Topologies,
    algorithms: Vec<&'static str>,
    policies: Vec<Policy>,
    patterns: Vec<Pattern>,
    seeds: Numbers,
    rates: Vec<f64>,
    windows: (u32, u32, u32),
    /// λ* per (topology, algorithm, pattern, seed), once computed, for
    /// the series whose points have run (a shard's only: a 10^8-seed grid
    /// once held a slot for every series, 3.9 GB).
    ideal: Mutex<HashMap<u64, Ideal>>,
    /// Every point's memory limit ([`LoadSpec::memory_limit`]).
    memory_limit: Option<crate::memory::Limit>,
}

impl LoadGrid {
    /// Expands the lists, refusing a bad name or value by its option.
    pub fn new(lists: &LoadLists) -> Result<LoadGrid> {
        let topologies = Topologies::new(&lists.topology, &lists.n, |name| name.parse())?;
        if topologies.is_empty() {
            return Err(Error::invalid(
                "topology",
                "",
                "missing: a sweep needs at least one topology",
            ));
        }
        let mut algorithms = Vec::new();
        for name in items("algorithm", &lists.algorithm)? {
            algorithms.push(registry::lookup(&name)?.name);
        }
        if algorithms.is_empty() {
            algorithms.push(crate::algorithms::DEFAULT_ALGORITHM);
        }
        let mut policies = items("policy", &lists.policy)?
            .iter()
            .map(|p| p.parse())
            .collect::<Result<Vec<Policy>>>()?;
        if policies.is_empty() {
            policies.push(Policy::FarthestFirst);
        }
        let patterns = items("pattern", &lists.pattern)?
            .iter()
            .map(|p| p.parse())
            .collect::<Result<Vec<Pattern>>>()?;
        if patterns.is_empty() {
            return Err(Error::invalid(
                "pattern",
                "",
                "missing: an open-loop sweep needs at least one pattern",
            ));
        }
        let mut seeds = numbers("seeds", &lists.seeds, 0, u64::MAX)?;
        if seeds.is_empty() {
            seeds = Numbers::one(1);
        }
        let mut rates = Vec::new();
        for text in items("rate", &lists.rate)? {
            rates.extend(load::parse_rates(&text)?);
        }
        if rates.is_empty() {
            return Err(Error::invalid(
                "rate",
                "",
                "missing: an open-loop sweep needs rates (e.g. --rate 0.05,0.1,0.2)",
            ));
        }
        let windows = load::windows(
            lists.warmup.as_deref(),
            lists.measure.as_deref(),
            lists.drain.as_deref(),
        )?;
        if windows.1 == 0 {
            return Err(Error::invalid(
                "measure",
                0,
                "the measurement window needs at least 1 step",
            ));
        }
        let grid = LoadGrid {
            ideal: Mutex::new(HashMap::new()),
            topologies,
            algorithms,
            policies,
            patterns,
            seeds,
            rates,
            windows,
            memory_limit: None,
        };
        let size = grid.size();
        if size > MAX_POINTS {
            return Err(Error::invalid(
                "grid",
                format!("{size} points"),
                format!("more than {MAX_POINTS}; split the sweep"),
            ));
        }
        Ok(grid)
    }

    fn radices(&self) -> [u64; 6] {
        [
            self.topologies.len(),
            self.algorithms.len() as u64,
            self.policies.len() as u64,
            self.patterns.len() as u64,
            self.seeds.len(),
            self.rates.len() as u64,
        ]
    }

    /// The grid with every point checked against `limit` (an over-limit point is an error row).
    pub fn with_memory_limit(self, limit: Option<crate::memory::Limit>) -> LoadGrid {
        LoadGrid {
            memory_limit: limit,
            ..self
        }
    }

    /// Number of grid points.
    pub fn size(&self) -> u64 {
        grid_size(&self.radices())
    }

    /// The `index`-th point: its experiment, its rate, and the index of its
    /// (topology, algorithm, pattern, seed) for the shared λ*.
    pub fn point(&self, index: u64) -> (LoadSpec, f64, u64) {
        let digit = grid_digits(index, &self.radices());
        let mut spec = LoadSpec::new(
            self.topologies.get(digit[0] as u64, |name| name.parse()),
            self.algorithms[digit[1]],
            self.patterns[digit[3]],
        );
        spec.policy = self.policies[digit[2]];
        spec.seed = self.seeds.get(digit[4] as u64);
        spec.memory_limit = self.memory_limit.clone();
        (spec.warmup, spec.measure, spec.drain) = self.windows;
        let (a, p) = (self.algorithms.len() as u64, self.patterns.len() as u64);
        let series =
            ((digit[0] as u64 * a + digit[1] as u64) * p + digit[3] as u64) * self.seeds.len() + digit[4] as u64;
        (spec, self.rates[digit[5]], series)
    }

    /// The memory limit every point is checked against (`None`: none known).
    pub fn memory_limit(&self) -> Option<&crate::memory::Limit> {
        self.memory_limit.as_ref()
    }

    /// The `index`-th point's estimated bytes (`None` if it cannot run),
    /// for running points side by side within a memory limit.
    pub fn estimate(&self, index: u64) -> Option<u64> {
        let (spec, rate, _) = self.point(index);
        spec.memory_estimate(rate)
    }

    /// Runs the `index`-th point to its end (a panic, i.e. a bug, becomes
    /// an error row natively); a point that cannot run (a closed-loop
    /// algorithm, a pattern the network lacks) gives a row with its error.
    pub fn run(&self, index: u64) -> Row {
        let (spec, rate, series) = self.point(index);
        let result = caught(|| {
            // The memory before λ* (which builds the pattern).
            spec.check_memory(rate).map_err(|e| e.to_string())?;
            // The series' slot under the lock; λ* computed outside it.
            let slot = Arc::clone(
                self.ideal
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .entry(series)
                    .or_default(),
            );
            let ideal = slot
                .get_or_init(|| spec.ideal_throughput().map_err(|e| e.to_string()))
                .clone()?;
            spec.run(rate, ideal).map_err(|e| e.to_string())
        });
        Row::from_load(&spec, rate, result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lists(pairs: &[(&str, &str)]) -> LoadLists {
        let mut l = LoadLists::default();
        for &(k, v) in pairs {
            let v = vec![v.to_string()];
            match k {
                "topology" => l.topology = v,
                "n" => l.n = v,
                "algorithm" => l.algorithm = v,
                "pattern" => l.pattern = v,
                "rate" => l.rate = v,
                "seeds" => l.seeds = v,
                "measure" => l.measure = Some(v[0].clone()),
                _ => unreachable!(),
            }
        }
        l
    }

    #[test]
    fn the_grid_varies_the_rate_fastest_and_shares_the_ideal_throughput() {
        let grid = LoadGrid::new(&lists(&[
            ("topology", "torus:{n}x{n}"),
            ("n", "4,6"),
            ("algorithm", "greedy,valiant"),
            ("pattern", "uniform,tornado"),
            ("rate", "0.1,0.2"),
        ]))
        .unwrap();
        assert_eq!(grid.size(), 2 * 2 * 2 * 2);
        let (spec, rate, series) = grid.point(0);
        assert_eq!(
            (spec.topology.to_string(), spec.algorithm.as_str(), rate, series),
            ("torus:4x4".into(), "greedy", 0.1, 0)
        );
        let (spec, rate, series) = grid.point(1);
        assert_eq!((spec.pattern, rate, series), (Pattern::Uniform, 0.2, 0));
        let (spec, _, series) = grid.point(3);
        assert_eq!((spec.pattern.name(), series), ("tornado", 1));
        let (spec, _, series) = grid.point(15);
        assert_eq!(
            (spec.topology.to_string(), spec.algorithm.as_str(), series),
            ("torus:6x6".into(), "valiant", 7)
        );
        for index in 0..grid.size() {
            grid.run(index);
        }
        assert_eq!(grid.ideal.lock().unwrap().len(), 8);
    }

    #[test]
    fn bad_lists_are_refused_by_their_option() {
        let bad = |pairs: &[(&str, &str)]| LoadGrid::new(&lists(pairs)).unwrap_err().to_string();
        let ok = [("topology", "mesh:4x4"), ("pattern", "uniform"), ("rate", "0.1")];
        let with = |k: &'static str, v: &'static str| {
            let mut p = ok.to_vec();
            p.retain(|(x, _)| *x != k);
            p.push((k, v));
            p
        };
        assert!(bad(&with("rate", "0.1,1.5")).contains("rate '1.5'"));
        assert!(bad(&with("pattern", "sideways")).contains("'sideways'"));
        assert!(bad(&with("algorithm", "teleport")).contains("'teleport'"));
        assert!(bad(&with("topology", "mesh:{n}x{n}")).contains("no values of n"));
        assert!(bad(&with("measure", "0")).contains("measure '0'"));
        assert!(bad(&with("seeds", "-1")).contains("seeds '-1'"));
        assert!(bad(&ok[..2]).contains("missing: an open-loop sweep needs rates"));
    }
}
