//! Dynamic load: open-loop traffic (SPEC §6), the experiment of BookSim2,
//! CAMINOS, SuperSim and Noxim, on the same synchronous store-and-forward
//! machine (SPEC §1).
//!
//! Every node generates a packet with probability λ in every step
//! (Bernoulli, from the run's seed); its destination comes from a
//! [`Pattern`]; it joins its source's unbounded queue and competes there
//! like any packet. Steps 1..W warm up, packets generated in W+1..W+M are
//! measured, and generation goes on until they are all delivered or D more
//! steps have passed. A packet's latency is its delivery step − its
//! generation step + 1 (its hop count if it never waits).
//!
//! - [`pattern`]: destinations by pattern name;
//! - [`run`]: one run at one rate, step by step ([`LoadRun`]);
//! - [`ideal`]: the ideal throughput λ*, exactly from the routes;
//! - [`curve`]: latency against offered load as a grid of runs, and its chart;
//! - this file: the request ([`LoadSpec`]), the row ([`LoadRow`]), rate
//!   lists and the saturation rate by bisection ([`saturation`]).
//!
//! Textbook facts the tests measure: at low load the latency is the mean
//! hop count (2·side/3 for uniform traffic on a side × side mesh); greedy
//! saturates just under λ* ≈ 4/side on a mesh and 8/side on a torus;
//! Valiant halves uniform throughput but beats greedy on transpose (mesh)
//! and tornado (torus).

pub mod curve;
pub mod ideal;
pub mod pattern;
pub mod run;
pub mod watch;

pub use curve::{Curve, CurveChart, SeriesSaturation};
pub use ideal::{ideal_throughput, link_loads};
pub use pattern::{Destinations, Pattern};
pub use run::{LoadRun, Totals};
pub use watch::{Watch, WatchStats};

use crate::algorithms::registry::{self, Entry};
use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::topology::Topology;
use serde::Serialize;

/// Default warm-up steps W.
pub const DEFAULT_WARMUP: u32 = 500;
/// Default measurement window M.
pub const DEFAULT_MEASURE: u32 = 1000;
/// Default drain limit D.
pub const DEFAULT_DRAIN: u32 = 2000;
/// The windows (W, M, D) from their options' texts (`None`: the default),
/// each a whole number named by its option on error; M ≥ 1 is checked by
/// [`LoadSpec::check`]. The one parser of the CLI's `load` and `sweep
/// --pattern` and the page's load form.
pub fn windows(warmup: Option<&str>, measure: Option<&str>, drain: Option<&str>) -> Result<(u32, u32, u32)> {
    // The measurement window has at least one step (the range the message names).
    let window = |name: &str, text: Option<&str>, default: u32, least: u64| {
        text.map_or(Ok(u64::from(default)), |t| {
            crate::options::parse_number(name, t, least, u64::from(u32::MAX))
        })
        .map(|v| v as u32)
    };
    let (w, m, d) = (
        window("warmup", warmup, DEFAULT_WARMUP, 0)?,
        window("measure", measure, DEFAULT_MEASURE, 1)?,
        window("drain", drain, DEFAULT_DRAIN, 0)?,
    );
    // The run's steps are counted in 32 bits: the windows together too
    // (they once wrapped, a run of 4294967295 warm-up steps ending at 0).
    let most = u64::from(u32::MAX);
    if u64::from(w) + u64::from(m) > most {
        return Err(Error::invalid(
            "measure",
            m,
            format!("the warm-up ({w}) and measured steps together must be at most {most}"),
        ));
    }
    if u64::from(w) + u64::from(m) + u64::from(d) > most {
        return Err(Error::invalid(
            "drain",
            d,
            format!("the warm-up ({w}), measured ({m}) and drain steps together must be at most {most}"),
        ));
    }
    Ok((w, m, d))
}

/// The page's load form: a JSON object whose values are texts (trimmed)
/// or numbers (their JSON text); absent and `null` are the same. The one
/// reader of the load curve's and the load mode's requests.
pub(crate) struct Form<'a>(pub &'a serde_json::Value);

impl Form<'_> {
    /// The field's text, `None` when absent.
    pub fn text(&self, key: &str) -> Option<String> {
        match &self.0[key] {
            serde_json::Value::Null => None,
            serde_json::Value::String(s) => Some(s.trim().to_string()),
            other => Some(other.to_string()),
        }
    }

    /// Refuses a form that is not an object, or that has a key outside
    /// `keys` (a typo such as `sed` was read as "not given", the default
    /// silently used), as a run's config is refused (`invalid config key`).
    pub fn only(&self, what: &str, keys: &[&str]) -> Result<()> {
        let object = self
            .0
            .as_object()
            .ok_or_else(|| Error::invalid(what, crate::error::shorten(&self.0.to_string()), "expected an object"))?;
        match object.keys().find(|k| !keys.contains(&k.as_str())) {
            Some(key) => Err(Error::invalid(
                format!("{what} key"),
                key,
                format!("unknown key; expected one of {}", keys.join(", ")),
            )),
            None => Ok(()),
        }
    }

    /// The field's text, refused by name when absent.
    pub fn need(&self, key: &str) -> Result<String> {
        self.text(key).ok_or_else(|| Error::invalid(key, "", "missing"))
    }

    /// A spec of `algorithm` and `pattern` on the form's `topology`, with
    /// its `policy` and `seed` when given (windows at their defaults).
    pub fn spec(&self, algorithm: &str, pattern: Pattern) -> Result<LoadSpec> {
        let mut spec = LoadSpec::new(self.need("topology")?.parse()?, algorithm, pattern);
        if let Some(p) = self.text("policy") {
            spec.policy = p.parse()?;
        }
        if let Some(seed) = self.text("seed") {
            // The page's form (the only reader of a `Form`).
            spec.seed = crate::options::parse_seed("seed", &seed, true)?;
        }
        Ok(spec)
    }
}

/// `accepted` below this fraction of `offered` is saturation (SPEC §6).
pub const ACCEPTED_FRACTION: f64 = 0.95;

/// One open-loop experiment without its rate.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadSpec {
    /// The network.
    pub topology: Topology,
    /// The algorithm, by SPEC name (one that routes each packet on its own).
    pub algorithm: String,
    /// The traffic pattern.
    pub pattern: Pattern,
    /// The contention policy.
    pub policy: Policy,
    /// Seed of every random choice.
    pub seed: u64,
    /// Warm-up steps W.
    pub warmup: u32,
    /// Measurement window M (at least 1).
    pub measure: u32,
    /// Drain limit D.
    pub drain: u32,
    /// Check the engine's invariants every step (tests).
    pub check_invariants: bool,
    /// Keep the engine's per-step series and last links (the page).
    pub record_series: bool,
    /// Refuse a rate whose memory estimate is above this limit
    /// ([`LoadSpec::check_memory`]; `None`: no check).
    pub memory_limit: Option<crate::memory::Limit>,
}

impl LoadSpec {
    /// An experiment with the default windows, policy `farthest-first` and seed 1.
    pub fn new(topology: Topology, algorithm: &str, pattern: Pattern) -> LoadSpec {
        LoadSpec {
            topology,
            algorithm: algorithm.to_string(),
            pattern,
            policy: Policy::FarthestFirst,
            seed: 1,
            warmup: DEFAULT_WARMUP,
            measure: DEFAULT_MEASURE,
            drain: DEFAULT_DRAIN,
            check_invariants: false,
            record_series: false,
            memory_limit: None,
        }
    }

    /// Refuses a run at `rate` whose memory estimate ([`crate::memory`]) is
    /// above [`LoadSpec::memory_limit`], before anything is allocated.
    pub fn check_memory(&self, rate: f64) -> Result<()> {
        let Some(limit) = &self.memory_limit else {
            return Ok(());
        };
        limit.check(&self.memory_shape(rate)?).map(|_| ())
    }

    /// The run's estimated bytes at `rate` (`None` if the pattern does not
    /// fit the network): what a sweep's points side by side share.
    pub fn memory_estimate(&self, rate: f64) -> Option<u64> {
        let shape = self.memory_shape(rate).ok()?;
        Some(crate::memory::estimate(&shape).total())
    }

    /// The run's shape at `rate` for the estimate. The packets held at once
    /// are at most those generated: every source, with probability `rate`,
    /// in every step of the windows (W + M + D), with a quarter more for
    /// the draws' spread. The sources are counted as every node that may
    /// generate ([`Destinations::inputs_of`], at most a side's fixed points
    /// more than a permutation's): nothing is built for the estimate, so a
    /// run too large is refused before its pattern is (`load` on
    /// mesh:8192x8192 once took 68 s and 2.9 GB to refuse).
    fn memory_shape(&self, rate: f64) -> Result<crate::memory::Shape<'_>> {
        let steps = self.warmup as u64 + self.measure as u64 + self.drain as u64;
        let sources = Destinations::inputs_of(&self.topology);
        let expected = rate.clamp(0.0, 1.0) * (sources * steps) as f64;
        let packets = ((expected * 1.25) as u64 + 64).min(sources * steps);
        Ok(crate::memory::Shape {
            topology: &self.topology,
            packets,
            policy: self.policy,
            edge_queues: false,
            flits: 1,
            record_series: self.record_series,
            sort: false,
            loaded: false,
            page: false,
            max_steps: steps.min(u32::MAX as u64) as u32,
            scripted: false,
            state_bytes: 0,
        })
    }

    /// The algorithm's registry entry, if it takes open-loop traffic on
    /// this topology under this policy; else the reason, naming it.
    pub fn check(&self) -> Result<&'static Entry> {
        let entry = registry::lookup(&self.algorithm)?;
        if !entry.open_loop {
            let takers: Vec<&str> = registry::REGISTRY
                .iter()
                .filter(|e| e.open_loop)
                .map(|e| e.name)
                .collect();
            return Err(Error::unsupported(
                entry.name,
                format!(
                    "open-loop traffic needs an algorithm that routes each packet on its own ({})",
                    takers.join(", ")
                ),
            ));
        }
        entry.check_topology(&self.topology)?;
        entry.check_policy(self.policy)?;
        if self.measure == 0 {
            return Err(Error::invalid(
                "measure",
                0,
                "the measurement window needs at least 1 step",
            ));
        }
        Destinations::new(self.pattern, &self.topology, self.seed)?;
        Ok(entry)
    }

    /// The ideal throughput λ* of this experiment ([`ideal_throughput`]).
    pub fn ideal_throughput(&self) -> Result<f64> {
        self.check()?;
        let dest = Destinations::new(self.pattern, &self.topology, self.seed)?;
        Ok(ideal_throughput(&self.topology, &self.algorithm, &dest))
    }

    /// Runs the experiment at `rate` to the end; the row carries `ideal`.
    pub fn run(&self, rate: f64, ideal: f64) -> Result<LoadRow> {
        let mut row = LoadRun::new(self, rate)?.finish()?;
        row.ideal_throughput = Some(ideal).filter(|x| x.is_finite());
        Ok(row)
    }

    /// One row per rate, each with the ideal throughput.
    pub fn run_rates(&self, rates: &[f64]) -> Result<Vec<LoadRow>> {
        self.run_rates_telling(rates, |_| {})
    }

    /// [`LoadSpec::run_rates`], calling `starting(i)` before the run at
    /// `rates[i]` (the CLI's progress bar).
    pub fn run_rates_telling(&self, rates: &[f64], mut starting: impl FnMut(usize)) -> Result<Vec<LoadRow>> {
        rates.iter().try_for_each(|&r| check_rate(r))?;
        let ideal = self.ideal_throughput()?;
        rates
            .iter()
            .enumerate()
            .map(|(i, &r)| {
                starting(i);
                self.run(r, ideal)
            })
            .collect()
    }
}

/// Refuses a rate outside (0, 1] (SPEC §6), naming it.
pub fn check_rate(rate: f64) -> Result<()> {
    match rate_problem(rate) {
        Some(why) => Err(Error::invalid("rate", rate, why)),
        None => Ok(()),
    }
}

/// Why `rate` is no rate, if it is not.
fn rate_problem(rate: f64) -> Option<String> {
    // The generator draws 53-bit fractions (threshold ⌊R·2^53⌋): a smaller
    // rate would generate nothing, so it is refused rather than run empty.
    let smallest = 1.0 / (1u64 << 53) as f64;
    if !(rate.is_finite() && rate > 0.0 && rate <= 1.0) {
        Some("a rate is a probability per node and step: 0 < rate <= 1".to_string())
    } else if rate < smallest {
        Some(format!(
            "below 2^-53 ({smallest:e}), the smallest rate the generator draws: it would generate nothing"
        ))
    } else {
        None
    }
}

/// Parses a comma-separated rate list (`0.01,0.05,0.1`), refusing any
/// entry that is not a number in (0, 1] by its text.
pub fn parse_rates(text: &str) -> Result<Vec<f64>> {
    text.split(',')
        .map(|t| {
            let t = t.trim();
            let r: f64 = t
                .parse()
                .map_err(|_| Error::invalid("rate", t, "not a number (expected 0 < rate <= 1)"))?;
            if let Some(why) = rate_problem(r) {
                return Err(Error::invalid("rate", t, why));
            }
            Ok(r)
        })
        .collect()
}

/// Latency statistics of the measured packets (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
    /// Mean latency.
    pub mean: f64,
    /// Median (nearest rank).
    pub p50: u32,
    /// 99th percentile (nearest rank).
    pub p99: u32,
    /// Largest latency.
    pub max: u32,
}

/// `latency` as SPEC §6's object: the summary, or its four fields `null`.
fn latency_fields<S: serde::Serializer>(latency: &Option<Summary>, out: S) -> std::result::Result<S::Ok, S::Error> {
    use serde::ser::SerializeStruct;
    match latency {
        Some(summary) => summary.serialize(out),
        None => {
            let mut fields = out.serialize_struct("Summary", 4)?;
            for name in ["mean", "p50", "p99", "max"] {
                fields.serialize_field(name, &None::<f64>)?;
            }
            fields.end()
        }
    }
}

/// One rate's result: SPEC §6's JSON object.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LoadRow {
    /// The network.
    pub topology: String,
    /// The algorithm.
    pub algorithm: String,
    /// The pattern.
    pub pattern: String,
    /// The contention policy.
    pub policy: String,
    /// The seed.
    pub seed: u64,
    /// λ: the generation probability per node and step.
    pub rate: f64,
    /// Packets generated in the window, per node per step.
    pub offered: f64,
    /// Packets delivered in the window, per node per step.
    pub accepted: f64,
    /// Over the measured packets delivered; with none, SPEC §6's object
    /// with every field `null` (always an object, so a reader of `latency.mean`
    /// finds the field).
    #[serde(serialize_with = "latency_fields")]
    pub latency: Option<Summary>,
    /// Mean hops of the measured packets' routes; `null` when no packet was
    /// measured (as `latency`'s fields are).
    pub hops_mean: Option<f64>,
    /// `accepted` < 0.95·`offered`, or a measured packet not delivered
    /// within the drain limit.
    pub saturated: bool,
    /// λ* ([`ideal_throughput`]); `null` when no packet crosses a link.
    pub ideal_throughput: Option<f64>,
    /// Packets generated in the window.
    pub measured: u64,
    /// Of them, not delivered when the run ended.
    pub undelivered: u64,
    /// Steps simulated.
    pub steps: u32,
    /// W, M and D.
    pub warmup: u32,
    /// See `warmup`.
    pub measure: u32,
    /// See `warmup`.
    pub drain: u32,
}

/// A float for a table cell: rounded to 6 decimals, `null` if not finite.
pub fn table_float(x: f64) -> serde_json::Value {
    if x.is_finite() {
        serde_json::json!((x * 1e6).round() / 1e6)
    } else {
        serde_json::Value::Null
    }
}

/// SPEC §6's fields of one rate with the latency flattened, in table order:
/// the one column list of `routesim load --out` (CSV) and of `routesim sweep
/// --pattern`'s rows. The rate's settings come from `spec` and `rate`, the
/// measured values from `row` (`null` when the point could not run).
pub fn table_columns(spec: &LoadSpec, rate: f64, row: Option<&LoadRow>) -> Vec<(&'static str, serde_json::Value)> {
    use serde_json::{json, Value};
    let get = |f: &dyn Fn(&LoadRow) -> Value| row.map_or(Value::Null, f);
    let latency = |f: &dyn Fn(&Summary) -> Value| get(&|r| r.latency.as_ref().map_or(Value::Null, f));
    vec![
        ("topology", json!(spec.topology.to_string())),
        ("algorithm", json!(spec.algorithm)),
        ("pattern", json!(spec.pattern.name())),
        ("policy", json!(spec.policy.name())),
        ("seed", json!(spec.seed)),
        ("rate", json!(rate)),
        ("offered", get(&|r| table_float(r.offered))),
        ("accepted", get(&|r| table_float(r.accepted))),
        ("latency_mean", latency(&|l| table_float(l.mean))),
        ("latency_p50", latency(&|l| json!(l.p50))),
        ("latency_p99", latency(&|l| json!(l.p99))),
        ("latency_max", latency(&|l| json!(l.max))),
        ("hops_mean", get(&|r| r.hops_mean.map_or(Value::Null, table_float))),
        ("saturated", get(&|r| json!(r.saturated))),
        (
            "ideal_throughput",
            get(&|r| r.ideal_throughput.map_or(Value::Null, table_float)),
        ),
        ("measured", get(&|r| json!(r.measured))),
        ("undelivered", get(&|r| json!(r.undelivered))),
        ("steps", get(&|r| json!(r.steps))),
        ("warmup", json!(spec.warmup)),
        ("measure", json!(spec.measure)),
        ("drain", json!(spec.drain)),
    ]
}

/// The saturation rate found by bisection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Saturation {
    /// The largest rate found not saturated (SPEC §6): the bracket's low end
    /// (0 if even the first rate tried saturated).
    pub saturation_rate: f64,
    /// The smallest rate found saturated (`null` if `hi` was not).
    pub saturated_at: Option<f64>,
    /// λ*.
    pub ideal_throughput: Option<f64>,
    /// Every rate tried, in order.
    pub rows: Vec<LoadRow>,
}

/// The most halvings [`saturation`] takes: 2^-64 of a rate is far below
/// any rate a run could tell apart.
pub const MAX_BISECT: u32 = 64;

/// Bisects for the saturation rate in (0, `hi`] with `iterations` halvings
/// of the bracket (at most [`MAX_BISECT`], and none once the bracket's
/// middle is one of its ends in floating point): `hi` first (not
/// saturated: it is the answer), then the middle of the bracket, each run
/// as [`LoadSpec::run`]. Assumes, as SPEC §6's "the largest rate that is
/// not saturated" reads best when it holds, that a rate above a saturated
/// one saturates too (so in every curve measured for the docs).
pub fn saturation(spec: &LoadSpec, hi: f64, iterations: u32) -> Result<Saturation> {
    saturation_telling(spec, hi, iterations, |_, _| {})
}

/// [`saturation`], calling `starting(i, rate)` before its i-th run (from
/// 0; at most `1 + iterations` of them): the CLI's progress bar.
pub fn saturation_telling(
    spec: &LoadSpec,
    hi: f64,
    iterations: u32,
    mut starting: impl FnMut(usize, f64),
) -> Result<Saturation> {
    check_rate(hi)?;
    let ideal = spec.ideal_throughput()?;
    let mut rows = Vec::new();
    starting(0, hi);
    let top = spec.run(hi, ideal)?;
    let top_saturated = top.saturated;
    rows.push(top);
    let (mut lo, mut up) = (0.0, hi);
    if top_saturated {
        for _ in 0..iterations.min(MAX_BISECT) {
            let mid = (lo + up) / 2.0;
            if mid <= lo || mid >= up {
                break;
            }
            starting(rows.len(), mid);
            let row = spec.run(mid, ideal)?;
            if row.saturated {
                up = mid;
            } else {
                lo = mid;
            }
            rows.push(row);
        }
    } else {
        lo = hi;
    }
    Ok(Saturation {
        saturation_rate: lo,
        saturated_at: Some(up).filter(|_| top_saturated),
        ideal_throughput: Some(ideal).filter(|x| x.is_finite()),
        rows,
    })
}
