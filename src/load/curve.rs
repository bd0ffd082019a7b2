//! The latency-versus-offered-load curve as a grid of runs (SPEC §6, §7
//! chart `load`): every (algorithm, pattern) at every rate, run one point
//! at a time so that a front end (the page's worker, the CLI) can show
//! progress, and the chart's columnar data with each series' ideal
//! throughput (a vertical line) and zero-load latency (a horizontal line,
//! the mean hops at the lowest rate: the latency of a packet that never
//! waits).

use super::{check_rate, LoadRow, LoadSpec, Pattern};
use crate::error::{Error, Result};
use crate::topology::Network;
use serde::Serialize;

/// The browser's limits on a curve (the page runs it in a worker, one
/// point at a time): at most this many nodes …
pub const BROWSER_MAX_NODES: u32 = 1024;
/// … this many steps per run (warm-up + measure + drain) …
pub const BROWSER_MAX_STEPS: u32 = 20_000;
/// … and this many runs in the grid.
pub const BROWSER_MAX_RUNS: usize = 200;

/// A planned curve: its points in order, and the rows run so far.
#[derive(Debug, Clone)]
pub struct Curve {
    /// Per (algorithm, pattern): the spec and its ideal throughput.
    series: Vec<(LoadSpec, f64)>,
    rates: Vec<f64>,
    rows: Vec<LoadRow>,
}

/// The chart's data as drawn (SPEC §7: `{series, data}` with x first).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CurveChart {
    /// `offered` then one name per series (`greedy uniform`).
    pub series: Vec<String>,
    /// Columns: the rates' offered loads (x), then each series' mean
    /// latency (`null` where not run yet, or past its first saturated rate).
    pub data: Vec<Vec<Option<f64>>>,
    /// Per series: its ideal throughput (vertical line).
    pub ideal: Vec<Option<f64>>,
    /// Per series: its zero-load latency (horizontal line), once run.
    pub zero_load: Vec<Option<f64>>,
    /// Per series: its saturated flag per rate (`null` not run yet).
    pub saturated: Vec<Vec<Option<bool>>>,
}

impl Curve {
    /// Plans `base` (its topology, policy, seed, windows) for every
    /// algorithm and pattern at every rate, refusing by name what cannot run.
    pub fn new(base: &LoadSpec, algorithms: &[&str], patterns: &[Pattern], rates: &[f64]) -> Result<Curve> {
        if rates.is_empty() || algorithms.is_empty() || patterns.is_empty() {
            return Err(Error::invalid(
                "rate",
                "",
                "a curve needs rates, algorithms and patterns",
            ));
        }
        rates.iter().try_for_each(|&r| check_rate(r))?;
        let mut rates = rates.to_vec();
        rates.sort_by(f64::total_cmp);
        let mut series = Vec::new();
        for &algorithm in algorithms {
            for &pattern in patterns {
                let mut spec = base.clone();
                (spec.algorithm, spec.pattern) = (algorithm.to_string(), pattern);
                let ideal = spec.ideal_throughput()?;
                series.push((spec, ideal));
            }
        }
        Ok(Curve {
            series,
            rates,
            rows: Vec::new(),
        })
    }

    /// A curve from a JSON object of texts (the page's form): `topology`,
    /// `algorithms` and `patterns` (comma-separated), `rates` (a rate
    /// list), and optionally `policy`, `seed`, `warmup`, `measure`,
    /// `drain`; every value checked by the core's parsers, by name.
    pub fn from_json(json: &serde_json::Value) -> Result<Curve> {
        let text = |key: &str| -> Option<String> {
            match &json[key] {
                serde_json::Value::Null => None,
                serde_json::Value::String(s) => Some(s.clone()),
                other => Some(other.to_string()),
            }
        };
        let need = |key: &str| text(key).ok_or_else(|| Error::invalid(key, "", "missing"));
        let number = |key: &str, default: u32| -> Result<u32> {
            text(key).map_or(Ok(default), |t| {
                t.trim()
                    .parse()
                    .map_err(|_| Error::invalid(key, t, "expected a whole number >= 0"))
            })
        };
        let mut base = LoadSpec::new(need("topology")?.parse()?, "greedy", Pattern::Uniform);
        if let Some(p) = text("policy") {
            base.policy = p.parse()?;
        }
        base.seed = number("seed", 1)? as u64;
        base.warmup = number("warmup", base.warmup)?;
        base.measure = number("measure", base.measure)?;
        base.drain = number("drain", base.drain)?;
        let algorithms = need("algorithms")?;
        let algorithms: Vec<&str> = algorithms.split(',').map(str::trim).collect();
        let patterns = need("patterns")?
            .split(',')
            .map(|p| p.trim().parse())
            .collect::<Result<Vec<Pattern>>>()?;
        let rates = super::parse_rates(&need("rates")?)?;
        Curve::new(&base, &algorithms, &patterns, &rates)
    }

    /// [`Curve::from_json`] under the browser's limits
    /// ([`BROWSER_MAX_NODES`], [`BROWSER_MAX_STEPS`], [`BROWSER_MAX_RUNS`]),
    /// refusing a bigger network, window or grid by name.
    pub fn browser_from_json(json: &serde_json::Value) -> Result<Curve> {
        let curve = Curve::from_json(json)?;
        let spec = &curve.series[0].0;
        let nodes = spec.topology.nodes();
        if nodes > BROWSER_MAX_NODES {
            return Err(Error::invalid(
                "topology",
                spec.topology.to_string(),
                format!("{nodes} nodes; the page's load curve takes at most {BROWSER_MAX_NODES} (use the CLI's `routesim load` for more)"),
            ));
        }
        let steps = spec.warmup as u64 + spec.measure as u64 + spec.drain as u64;
        if steps > BROWSER_MAX_STEPS as u64 {
            return Err(Error::invalid(
                "measure",
                format!(
                    "warmup {} + measure {} + drain {}",
                    spec.warmup, spec.measure, spec.drain
                ),
                format!("the page takes at most {BROWSER_MAX_STEPS} steps per run"),
            ));
        }
        if curve.len() > BROWSER_MAX_RUNS {
            return Err(Error::invalid(
                "rates",
                curve.len(),
                format!("runs in the grid (algorithms × rates); the page takes at most {BROWSER_MAX_RUNS}"),
            ));
        }
        Ok(curve)
    }

    /// Number of runs in the grid.
    pub fn len(&self) -> usize {
        self.series.len() * self.rates.len()
    }

    /// Whether the grid has no run.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Runs the next point (series by series, rates ascending) and returns
    /// its row; `None` when all have run.
    pub fn run_next(&mut self) -> Result<Option<&LoadRow>> {
        let k = self.rows.len();
        if k >= self.len() {
            return Ok(None);
        }
        let (spec, ideal) = &self.series[k / self.rates.len()];
        let row = spec.run(self.rates[k % self.rates.len()], *ideal)?;
        self.rows.push(row);
        Ok(self.rows.last())
    }

    /// The rows run so far.
    pub fn rows(&self) -> &[LoadRow] {
        &self.rows
    }

    /// The chart's data so far (see [`CurveChart`]); x is the rate (the
    /// offered load's expectation per generating node).
    pub fn chart(&self) -> CurveChart {
        let n = self.rates.len();
        let mut series = vec!["offered".to_string()];
        let mut data = vec![self.rates.iter().map(|&r| Some(r)).collect::<Vec<_>>()];
        let (mut ideal, mut zero_load, mut saturated) = (Vec::new(), Vec::new(), Vec::new());
        for (i, (spec, lambda)) in self.series.iter().enumerate() {
            series.push(format!("{} {}", spec.algorithm, spec.pattern));
            let rows = self.rows.iter().skip(i * n).take(n).collect::<Vec<_>>();
            let mut column = vec![None; n];
            let mut flags = vec![None; n];
            for (j, row) in rows.iter().enumerate() {
                flags[j] = Some(row.saturated);
                let first_saturated = rows[..j].iter().any(|r| r.saturated);
                if !first_saturated {
                    column[j] = row.latency.map(|l| l.mean);
                }
            }
            data.push(column);
            saturated.push(flags);
            ideal.push(Some(*lambda).filter(|x| x.is_finite()));
            zero_load.push(rows.first().map(|r| r.hops_mean));
        }
        CurveChart {
            series,
            data,
            ideal,
            zero_load,
            saturated,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_curve_runs_its_grid_in_order_and_charts_it() {
        let mut base = LoadSpec::new("mesh:4x4".parse().unwrap(), "greedy", Pattern::Uniform);
        (base.warmup, base.measure, base.drain) = (20, 50, 200);
        let patterns = [Pattern::Uniform, "transpose".parse().unwrap()];
        let mut curve = Curve::new(&base, &["greedy", "valiant"], &patterns, &[0.2, 0.05]).unwrap();
        assert_eq!(curve.len(), 8);
        let mut n = 0;
        while curve.run_next().unwrap().is_some() {
            n += 1;
        }
        assert_eq!(n, 8);
        let chart = curve.chart();
        assert_eq!(chart.series[2], "greedy transpose");
        assert_eq!(chart.data[0], vec![Some(0.05), Some(0.2)]);
        assert_eq!(chart.data.len(), 5);
        assert!(chart.ideal.iter().all(|x| x.is_some()));
        assert_eq!(curve.rows()[0].rate, 0.05);
        assert!(Curve::new(&base, &["sort-route"], &patterns, &[0.1]).is_err());
        let json = serde_json::json!({"topology": "torus:4x4", "algorithms": "greedy,valiant",
            "patterns": "uniform", "rates": "0.1,0.3", "warmup": 10, "measure": "20"});
        assert_eq!(Curve::from_json(&json).unwrap().len(), 4);
        let bad = serde_json::json!({"topology": "torus:4x4", "algorithms": "greedy",
            "patterns": "uniform", "rates": "0.1,2"});
        assert!(Curve::from_json(&bad).unwrap_err().to_string().contains("rate"));
        let big = serde_json::json!({"topology": "mesh:40x40", "algorithms": "greedy",
            "patterns": "uniform", "rates": "0.1"});
        assert!(Curve::from_json(&big).is_ok());
        assert!(Curve::browser_from_json(&big)
            .unwrap_err()
            .to_string()
            .contains("mesh:40x40"));
        let long = serde_json::json!({"topology": "mesh:4x4", "algorithms": "greedy",
            "patterns": "uniform", "rates": "0.1", "drain": 100000});
        assert!(Curve::browser_from_json(&long)
            .unwrap_err()
            .to_string()
            .contains("drain 100000"));
    }
}
