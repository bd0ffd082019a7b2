//! The latency-versus-offered-load curve as a grid of runs (SPEC §6, §7
//! chart `load`): every (algorithm, pattern) at every rate, run one point
//! at a time so that a front end (the page's worker, the CLI) can show
//! progress, and the chart's columnar data with each series' ideal
//! throughput (a vertical line) and zero-load latency (a horizontal line,
//! the mean hops at the lowest rate: the latency of a packet that never
//! waits). Optionally a series stops at its first saturated rate ("up to
//! saturation"): it assumes a rate above a saturated one saturates too (not
//! SPEC §6's, the page's assumption; so in every curve measured for the
//! docs), and such a run is the slowest of all (the whole drain limit, the
//! most packets).

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
/// The algorithms the page's load form ticks when it opens: dimension order
/// and Valiant's two phases, the pair whose curves show the trade-off
/// (the catalogue ships them; the page names no algorithm).
pub const FORM_ALGORITHMS: [&str; 2] = [
    crate::algorithms::greedy::NAME,
    crate::algorithms::hypercube::VALIANT_NAME,
];

/// Whether an open-loop algorithm can run on a network, for the page's
/// load form: `preset` marks the ones the form ticks, two at most: the
/// [`FORM_ALGORITHMS`] that can run there, then others that can (Valiant
/// and bit fixing on a hypercube).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadChoice {
    /// The algorithm's SPEC name.
    pub name: &'static str,
    /// Whether it takes open-loop traffic on the network.
    pub ok: bool,
    /// Why not (the core's message), if not.
    pub reason: Option<String>,
    /// Ticked when the form opens on this network.
    pub preset: bool,
}

/// The load form's algorithms on `topology` (every open-loop algorithm of
/// the registry, in its order): which can run there, and which to tick.
/// The form once ticked greedy on a hypercube and its curve was refused.
pub fn choices(topology: &crate::topology::Topology) -> Vec<LoadChoice> {
    let mut choices: Vec<LoadChoice> = crate::algorithms::REGISTRY
        .iter()
        .filter(|e| e.open_loop)
        .map(|e| {
            let check = LoadSpec::new(topology.clone(), e.name, Pattern::Uniform)
                .check()
                .map(drop);
            LoadChoice {
                name: e.name,
                ok: check.is_ok(),
                reason: check.err().map(|e| e.to_string()),
                preset: false,
            }
        })
        .collect();
    // The form's pair where it runs, then others that run, up to two.
    let order: Vec<usize> = (0..choices.len())
        .filter(|&i| FORM_ALGORITHMS.contains(&choices[i].name))
        .chain((0..choices.len()).filter(|&i| !FORM_ALGORITHMS.contains(&choices[i].name)))
        .filter(|&i| choices[i].ok)
        .take(2)
        .collect();
    for i in order {
        choices[i].preset = true;
    }
    choices
}

/// Refuses, by name, a network larger than the page's load curves take
/// ([`BROWSER_MAX_NODES`]), before anything about it is computed.
pub fn browser_network(topology: &crate::topology::Topology) -> Result<()> {
    let nodes = topology.nodes();
    if nodes > BROWSER_MAX_NODES {
        return Err(Error::invalid(
            "topology",
            topology.to_string(),
            format!("{nodes} nodes; the page's load curve takes at most {BROWSER_MAX_NODES} (use the CLI's `routesim load` for more)"),
        ));
    }
    Ok(())
}

/// A planned curve: its points in order, and the rows run so far.
#[derive(Debug, Clone)]
pub struct Curve {
    /// Per (algorithm, pattern): the spec and its ideal throughput.
    series: Vec<(LoadSpec, f64)>,
    rates: Vec<f64>,
    /// Per series, its rows so far (rates ascending).
    rows: Vec<Vec<LoadRow>>,
    /// Stop each series at its first saturated rate.
    up_to_saturation: bool,
}

/// Where one series of a curve saturated, from its rows so far.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct SeriesSaturation {
    /// The largest rate run before the first saturated one (`null`: the
    /// lowest rate run saturated, or none has run).
    pub sustained: Option<f64>,
    /// The first saturated rate (`null`: none so far).
    pub saturated_at: Option<f64>,
    /// Whether the series has run every rate it will run.
    pub complete: bool,
    /// The series' ideal throughput λ*.
    pub ideal: Option<f64>,
    /// The highest rate of the curve.
    pub top: f64,
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

/// A load curve as asked for, read and checked field by field but not yet
/// planned (planning computes every series' ideal throughput).
struct CurveRequest {
    base: LoadSpec,
    algorithms: Vec<String>,
    patterns: Vec<Pattern>,
    rates: Vec<f64>,
    up_to_saturation: bool,
}

impl CurveRequest {
    fn from_json(json: &serde_json::Value) -> Result<CurveRequest> {
        let form = super::Form(json);
        form.only(
            "load curve",
            &[
                "topology",
                "algorithms",
                "patterns",
                "rates",
                "seed",
                "warmup",
                "measure",
                "drain",
                "policy",
                "up_to_saturation",
            ],
        )?;
        let need = |key: &str| form.need(key);
        let text = |key: &str| form.text(key);
        let mut base = form.spec(crate::algorithms::DEFAULT_ALGORITHM, Pattern::Uniform)?;
        (base.warmup, base.measure, base.drain) = super::windows(
            text("warmup").as_deref(),
            text("measure").as_deref(),
            text("drain").as_deref(),
        )?;
        let algorithms = need("algorithms")?.split(',').map(|a| a.trim().to_string()).collect();
        let patterns = need("patterns")?
            .split(',')
            .map(|p| p.trim().parse())
            .collect::<Result<Vec<Pattern>>>()?;
        let rates = super::parse_rates(&need("rates")?)?;
        let up_to_saturation = match text("up_to_saturation").as_deref() {
            None | Some("false") | Some("0") | Some("") => false,
            Some("true") | Some("1") => true,
            Some(other) => return Err(Error::invalid("up_to_saturation", other, "expected true or false")),
        };
        Ok(CurveRequest {
            base,
            algorithms,
            patterns,
            rates,
            up_to_saturation,
        })
    }

    /// Plans the curve (every series' ideal throughput computed).
    fn curve(&self) -> Result<Curve> {
        let algorithms: Vec<&str> = self.algorithms.iter().map(String::as_str).collect();
        Ok(Curve::new(&self.base, &algorithms, &self.patterns, &self.rates)?.up_to_saturation(self.up_to_saturation))
    }
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
        let rows = vec![Vec::new(); series.len()];
        Ok(Curve {
            series,
            rates,
            rows,
            up_to_saturation: false,
        })
    }

    /// The same curve, each series stopping at its first saturated rate
    /// (`true`) or running every rate (`false`, the default).
    pub fn up_to_saturation(mut self, on: bool) -> Curve {
        self.up_to_saturation = on;
        self
    }

    /// A curve from a JSON object of texts (the page's form): `topology`,
    /// `algorithms` and `patterns` (comma-separated), `rates` (a rate
    /// list), and optionally `policy`, `seed`, `warmup`, `measure`,
    /// `drain` and `up_to_saturation` (`true`/`false`); every value checked
    /// by the core's parsers, by name.
    pub fn from_json(json: &serde_json::Value) -> Result<Curve> {
        CurveRequest::from_json(json)?.curve()
    }

    /// [`Curve::from_json`] under the browser's limits
    /// ([`BROWSER_MAX_NODES`], [`BROWSER_MAX_STEPS`], [`BROWSER_MAX_RUNS`]),
    /// refusing a bigger network, window or grid by name — before any
    /// ideal throughput is computed (rand-interval's walks every pair's
    /// routes: minutes at 128×128 natively, more in the browser).
    pub fn browser_from_json(json: &serde_json::Value) -> Result<Curve> {
        let mut request = CurveRequest::from_json(json)?;
        // Every run within the page's memory budget, refused before any
        // runs (the estimate grows with the rate: the top rate decides;
        // `parse_rates` has checked every rate); each run checks its own
        // rate again.
        request.base.memory_limit = Some(crate::memory::Limit::page());
        if let Some(&top) = request.rates.iter().max_by(|a, b| a.total_cmp(b)) {
            request.base.check_memory(top)?;
        }
        let spec = &request.base;
        browser_network(&spec.topology)?;
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
        let runs = request.algorithms.len() * request.patterns.len() * request.rates.len();
        if runs > BROWSER_MAX_RUNS {
            let (a, p, r) = (request.algorithms.len(), request.patterns.len(), request.rates.len());
            return Err(Error::invalid(
                "rates",
                format!("{r} rates"),
                format!(
                    "{a} algorithm(s) × {p} pattern(s) × {r} rates make {runs} runs; the page takes at most \
                     {BROWSER_MAX_RUNS}"
                ),
            ));
        }
        request.curve()
    }

    /// Whether series `i` will run no more rates: all have run, or (up to
    /// saturation) its last row saturated.
    fn stopped(&self, i: usize) -> bool {
        let rows = &self.rows[i];
        rows.len() >= self.rates.len() || (self.up_to_saturation && rows.last().is_some_and(|r| r.saturated))
    }

    /// Number of runs in the grid: every rate of every series, less (up to
    /// saturation) the rates above a series' first saturated one, once run.
    pub fn len(&self) -> usize {
        (0..self.series.len())
            .map(|i| {
                if self.stopped(i) {
                    self.rows[i].len()
                } else {
                    self.rates.len()
                }
            })
            .sum()
    }

    /// Whether the grid has no run.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Runs the next point (series by series, rates ascending) and returns
    /// its row; `None` when all have run.
    pub fn run_next(&mut self) -> Result<Option<&LoadRow>> {
        let Some(i) = (0..self.series.len()).find(|&i| !self.stopped(i)) else {
            return Ok(None);
        };
        let (spec, ideal) = &self.series[i];
        let row = spec.run(self.rates[self.rows[i].len()], *ideal)?;
        self.rows[i].push(row);
        Ok(self.rows[i].last())
    }

    /// The rows run so far, series by series.
    pub fn rows(&self) -> impl Iterator<Item = &LoadRow> {
        self.rows.iter().flatten()
    }

    /// Where the series of `algorithm` on `pattern` saturated, from its
    /// rows so far (`None` if the curve has no such series).
    pub fn saturation(&self, algorithm: &str, pattern: Pattern) -> Option<SeriesSaturation> {
        let i = self
            .series
            .iter()
            .position(|(s, _)| s.algorithm == algorithm && s.pattern == pattern)?;
        let rows = &self.rows[i];
        let first = rows.iter().position(|r| r.saturated);
        let sustained = rows[..first.unwrap_or(rows.len())].last().map(|r| r.rate);
        Some(SeriesSaturation {
            sustained,
            saturated_at: first.map(|j| rows[j].rate),
            complete: self.stopped(i),
            ideal: Some(self.series[i].1).filter(|x| x.is_finite()),
            top: *self.rates.last().expect("a curve has rates"),
        })
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
            let rows = &self.rows[i];
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
            zero_load.push(rows.first().and_then(|r| r.hops_mean));
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
        assert_eq!(curve.rows().next().unwrap().rate, 0.05);
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
        // Refused before any ideal throughput is computed: rand-interval's
        // on uniform traffic walks every pair's routes, 10^12 pairs here
        // (greedy's and valiant's closed forms would not show the order).
        let huge = serde_json::json!({"topology": "mesh:1024x1024", "algorithms": "greedy,rand-interval",
            "patterns": "uniform", "rates": "0.1"});
        assert!(Curve::browser_from_json(&huge)
            .unwrap_err()
            .to_string()
            .contains("mesh:1024x1024"));
        let long = serde_json::json!({"topology": "mesh:4x4", "algorithms": "greedy",
            "patterns": "uniform", "rates": "0.1", "drain": 100000});
        assert!(Curve::browser_from_json(&long)
            .unwrap_err()
            .to_string()
            .contains("drain 100000"));
        // A grid too big for the page says what it multiplies: 2 × 1 × 101.
        let rates: Vec<String> = (1..=101).map(|i| format!("{}", i as f64 / 200.0)).collect();
        let grid = serde_json::json!({"topology": "mesh:4x4", "algorithms": "greedy,valiant",
            "patterns": "uniform", "rates": rates.join(",")});
        let e = Curve::browser_from_json(&grid).unwrap_err().to_string();
        assert!(
            e.contains("invalid rates '101 rates'")
                && e.contains("2 algorithm(s) × 1 pattern(s) × 101 rates make 202 runs"),
            "{e}"
        );
    }

    #[test]
    fn up_to_saturation_a_series_stops_at_its_first_saturated_rate() {
        let mut base = LoadSpec::new("torus:6x6".parse().unwrap(), "greedy", Pattern::Uniform);
        (base.warmup, base.measure, base.drain) = (30, 100, 300);
        let tornado: Pattern = "tornado".parse().unwrap();
        let rates = [0.1, 0.2, 0.3, 0.4, 0.6, 0.8];
        let full = {
            let mut c = Curve::new(&base, &["greedy"], &[tornado, Pattern::Uniform], &rates).unwrap();
            while c.run_next().unwrap().is_some() {}
            c
        };
        let mut stop = Curve::new(&base, &["greedy"], &[tornado, Pattern::Uniform], &rates)
            .unwrap()
            .up_to_saturation(true);
        assert_eq!(stop.len(), 12);
        let mut runs = 0;
        while stop.run_next().unwrap().is_some() {
            runs += 1;
        }
        // Greedy tornado on a 6 x 6 torus: 2 hops along +x, λ* = 1/2.
        let t = full.saturation("greedy", tornado).unwrap();
        assert!((t.ideal.unwrap() - 0.5).abs() < 1e-9);
        let first = t.saturated_at.expect("saturates below 0.8");
        let kept = rates.iter().filter(|&&r| r <= first).count();
        assert!(kept < rates.len());
        assert_eq!(stop.len(), runs);
        // The stopped series' rows are the full curve's up to its first saturated rate.
        let (a, b): (Vec<_>, Vec<_>) = (
            stop.rows().filter(|r| r.pattern == "tornado").cloned().collect(),
            full.rows()
                .filter(|r| r.pattern == "tornado")
                .take(kept)
                .cloned()
                .collect(),
        );
        assert_eq!(a, b);
        assert_eq!(
            stop.saturation("greedy", tornado),
            Some(t).map(|t| SeriesSaturation { complete: true, ..t })
        );
        assert!(a.last().unwrap().saturated && a[..a.len() - 1].iter().all(|r| !r.saturated));
        assert_eq!(
            stop.chart().data,
            full.chart().data,
            "the chart draws up to the first saturated rate either way"
        );
        assert!(stop.saturation("valiant", tornado).is_none());
        let json = serde_json::json!({"topology": "torus:4x4", "algorithms": "greedy", "patterns": "uniform",
            "rates": "0.1", "up_to_saturation": "maybe"});
        assert!(Curve::from_json(&json)
            .unwrap_err()
            .to_string()
            .contains("up_to_saturation 'maybe'"));
    }
}
