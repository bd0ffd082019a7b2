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

use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::report::Report;
use crate::request::{parse_number, Field, RunSpec};
use crate::topology::{Network, Topology};
use crate::workload::Workload;
use crate::Status;
use serde::Serialize;
use serde_json::{json, Value};

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

/// A list of whole numbers from `min` to `max` and inclusive ranges `a..b`.
pub fn numbers(field: &str, raw: &[String], min: u64, max: u64) -> Result<Vec<u64>> {
    let mut out = Vec::new();
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
            if let Some((a, b)) = item.split_once("..") {
                let (a, b) = (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?);
                if a > b {
                    return Err(Error::invalid(
                        field,
                        text,
                        format!("range {a}..{b} is empty (ranges are inclusive, a <= b)"),
                    ));
                }
                if b - a >= MAX_POINTS {
                    return Err(Error::invalid(
                        field,
                        text,
                        format!("range {a}..{b} has more than {MAX_POINTS} values"),
                    ));
                }
                out.extend(a..=b);
            } else {
                out.push(number(&item)?);
            }
        }
    }
    Ok(out)
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
        let templates = items("topology", &lists.topology)?;
        let ns = if lists.n.is_empty() {
            None
        } else {
            Some(positive("n", &lists.n)?)
        };
        let mut topologies = Vec::new();
        for template in &templates {
            if has_placeholder(template) {
                let ns = ns
                    .as_ref()
                    .ok_or_else(|| Error::invalid("topology", template, "it uses {n} but no values of n are given"))?;
                for n in ns {
                    let name = template.replace("{n}", &n.to_string()).replace("{N}", &n.to_string());
                    topologies.push(
                        parse_field(&base, Field::Topology, "topology", &name)?
                            .topology
                            .unwrap(),
                    );
                }
            } else {
                topologies.push(
                    parse_field(&base, Field::Topology, "topology", template)?
                        .topology
                        .unwrap(),
                );
            }
        }
        if topologies.is_empty() {
            topologies.extend(base.topology.clone());
        }
        if ns.is_some() && !templates.iter().any(|t| has_placeholder(t)) {
            return Err(Error::invalid("n", lists.n.join(","), "no topology contains {n}"));
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
            queue_caps.push(parse_field(&base, Field::QueueCap, "queue-cap", &item)?.queue_cap);
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
        self.radices()
            .iter()
            .try_fold(1u64, |acc, &r| acc.checked_mul(r))
            .unwrap_or(u64::MAX)
    }

    /// The `index`-th point in grid order (the seed varies fastest).
    pub fn point(&self, mut index: u64) -> Point {
        let mut digit = [0usize; 7];
        let radices = self.radices();
        for i in (0..7).rev() {
            digit[i] = (index % radices[i]) as usize;
            index /= radices[i];
        }
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

    /// Runs the `index`-th point to its end (a panic, i.e. a bug, becomes an error row natively).
    pub fn run(&self, index: u64) -> Row {
        let point = self.point(index);
        let result = run_caught(&point.spec);
        Row::new(&point, result)
    }
}

/// Parses one field over `base`, for a list item.
fn parse_field(base: &RunSpec, field: Field, name: &str, text: &str) -> Result<RunSpec> {
    let mut spec = base.clone();
    spec.set(field, name, text)?;
    Ok(spec)
}

fn run_spec(spec: &RunSpec) -> std::result::Result<(Report, Status), String> {
    let mut sim = spec.build().map_err(|e| e.to_string())?;
    let status = sim.run();
    Ok((sim.report(), status))
}

#[cfg(not(target_arch = "wasm32"))]
fn run_caught(spec: &RunSpec) -> std::result::Result<(Report, Status), String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_spec(spec))).unwrap_or_else(|payload| {
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        Err(format!(
            "internal error: {}",
            text.split_whitespace().collect::<Vec<_>>().join(" ")
        ))
    })
}

#[cfg(target_arch = "wasm32")]
fn run_caught(spec: &RunSpec) -> std::result::Result<(Report, Status), String> {
    run_spec(spec)
}

/// Rounds a float for the table (6 decimals), `null` if not finite.
fn float(x: f64) -> Value {
    if x.is_finite() {
        json!((x * 1e6).round() / 1e6)
    } else {
        Value::Null
    }
}

/// One output row: the grid point and its report or error.
#[derive(Debug, Clone)]
pub struct Row {
    /// `(column, value)` in output order.
    pub columns: Vec<(&'static str, Value)>,
    /// The report, if the point ran.
    pub report: Option<Report>,
    /// How the run ended, if it ran.
    pub status: Option<Status>,
    /// Why the point could not run.
    pub error: Option<String>,
}

impl Row {
    fn new(p: &Point, result: std::result::Result<(Report, Status), String>) -> Row {
        let topology = p.spec.topology.as_ref().expect("grid points have a topology");
        let mut columns: Vec<(&'static str, Value)> = vec![
            ("topology", json!(topology.to_string())),
            ("nodes", json!(topology.nodes())),
            ("side", json!(topology.square_side())),
            ("algorithm", json!(p.spec.algorithm.name)),
            ("policy", json!(p.spec.policy.name())),
            ("workload", json!(p.spec.workload.map(|w| w.name()))),
        ];
        let r = result.as_ref().ok().map(|(r, _)| r);
        let get = |f: &dyn Fn(&Report) -> Value| r.map_or(Value::Null, f);
        // ℓ and k as requested; when not requested, the instance's.
        columns.extend([
            ("l", p.l.map_or_else(|| get(&|r| json!(r.l)), |l| json!(l))),
            ("k", p.k.map_or_else(|| get(&|r| json!(r.k)), |k| json!(k))),
            ("seed", json!(p.spec.seed)),
            ("queue_cap", json!(p.spec.queue_cap)),
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
        let (report, status, error) = match result {
            Ok((r, s)) => (Some(r), Some(s), None),
            Err(e) => (None, None, Some(e)),
        };
        Row {
            columns,
            report,
            status,
            error,
        }
    }

    /// Whether the point ran but did not deliver every packet.
    pub fn incomplete(&self) -> bool {
        self.report
            .as_ref()
            .is_some_and(|r| r.stalled || r.hit_max_steps || r.delivered < r.packets)
    }

    /// The CSV header line.
    pub fn csv_header(&self) -> String {
        let names: Vec<&str> = self.columns.iter().map(|(n, _)| *n).collect();
        names.join(",") + "\n"
    }

    /// The row as a CSV line.
    pub fn csv(&self) -> String {
        self.columns
            .iter()
            .map(|(_, v)| csv_cell(v))
            .collect::<Vec<_>>()
            .join(",")
            + "\n"
    }

    /// The row as one JSON line, columns in order.
    pub fn jsonl(&self) -> String {
        let fields: Vec<String> = self
            .columns
            .iter()
            .map(|(n, v)| format!("{}:{}", json!(n), v))
            .collect();
        format!("{{{}}}\n", fields.join(","))
    }

    /// The grid point in words, for messages.
    pub fn describe(&self) -> String {
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

/// The parameter an experiment varies (its chart's x axis).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Vary {
    /// The network's size (x = N, nodes).
    Size,
    /// ℓ = k together (x = ℓ).
    Lk,
    /// ℓ alone (x = ℓ).
    L,
    /// k alone (x = k).
    K,
}

impl std::str::FromStr for Vary {
    type Err = Error;
    fn from_str(s: &str) -> Result<Vary> {
        match s {
            "size" => Ok(Vary::Size),
            "lk" => Ok(Vary::Lk),
            "l" => Ok(Vary::L),
            "k" => Ok(Vary::K),
            _ => Err(Error::invalid("vary", s, "expected size, lk, l or k")),
        }
    }
}

impl Vary {
    /// The x axis's label.
    pub fn label(self) -> &'static str {
        match self {
            Vary::Size => "N (nodes)",
            Vary::Lk => "ℓ = k",
            Vary::L => "ℓ",
            Vary::K => "k",
        }
    }
}

/// The `{n}` template of a topology's size: every side of a mesh or torus,
/// the parameter of the others (`mesh:16x16` → `mesh:{n}x{n}`).
pub fn size_template(topology: &Topology) -> String {
    let kind = topology.kind().name();
    match topology.as_grid() {
        Some(g) if g.dims().len() > 1 => {
            format!("{kind}:{}", vec!["{n}"; g.dims().len()].join("x"))
        }
        _ => format!("{kind}:{{n}}"),
    }
}

/// A page experiment: one parameter varied over values, for several
/// algorithms and seeds, over a base request.
#[derive(Debug, Clone)]
pub struct Experiment {
    /// The grid.
    pub grid: Grid,
    /// What varies.
    pub vary: Vary,
    /// The rows run so far, by grid index.
    rows: Vec<(u64, Row)>,
}

/// One x position of an experiment's charts: means over the finished runs.
#[derive(Debug, Clone, Serialize)]
pub struct ChartPoint {
    /// The varied parameter's value (N for sizes).
    pub x: f64,
    /// √(ℓkN) (mean over the point's runs).
    pub sqrt_lkn: f64,
    /// The instance lower bound `best` (mean).
    pub best: f64,
    /// The network's diameter (2·side − 2 on a side × side mesh).
    pub diameter: f64,
    /// Mean steps per algorithm (in the experiment's algorithm order; `None`: no finished run).
    pub steps: Vec<Option<f64>>,
    /// Mean largest queue per algorithm.
    pub max_queue: Vec<Option<f64>>,
    /// Mean steps ÷ √(ℓkN) per algorithm.
    pub steps_over_sqrt_lkn: Vec<Option<f64>>,
    /// Mean steps ÷ the diameter per algorithm (time/(2·side − 2) on a mesh).
    pub steps_over_diameter: Vec<Option<f64>>,
}

impl Experiment {
    /// An experiment over `base`: `vary` over `values` (a list as the CLI
    /// takes it), for `algorithms`, with `seeds` seeds from the base's.
    pub fn new(base: RunSpec, vary: Vary, values: &str, algorithms: &str, seeds: u32) -> Result<Experiment> {
        let topology = base
            .topology
            .clone()
            .ok_or_else(|| Error::invalid("topology", "", "missing: an experiment varies a network"))?;
        if !(1..=100).contains(&seeds) {
            return Err(Error::invalid("seeds", seeds, "expected a whole number from 1 to 100"));
        }
        let values = vec![values.to_string()];
        let mut lists = SweepLists {
            algorithm: vec![algorithms.to_string()],
            seeds: vec![format!("{}..{}", base.seed, base.seed + seeds as u64 - 1)],
            ..SweepLists::default()
        };
        match vary {
            Vary::Size => {
                lists.topology = vec![size_template(&topology)];
                lists.n = values;
            }
            Vary::Lk => lists.lk = values,
            Vary::L => lists.l = values,
            Vary::K => lists.k = values,
        }
        let grid = Grid::new(base, &lists)?;
        Ok(Experiment {
            grid,
            vary,
            rows: Vec::new(),
        })
    }

    /// Number of runs.
    pub fn len(&self) -> u64 {
        self.grid.size()
    }

    /// Whether there are no runs.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Runs the next point; returns its row, or `None` when all have run.
    pub fn run_next(&mut self) -> Option<&Row> {
        let index = self.rows.len() as u64;
        if index >= self.len() {
            return None;
        }
        let row = self.grid.run(index);
        self.rows.push((index, row));
        self.rows.last().map(|(_, r)| r)
    }

    /// The rows so far.
    pub fn rows(&self) -> impl Iterator<Item = &Row> {
        self.rows.iter().map(|(_, r)| r)
    }

    /// The algorithms, in chart order.
    pub fn algorithms(&self) -> Vec<&'static str> {
        self.grid.algorithms.iter().map(|a| a.name).collect()
    }

    fn x_of(&self, row: &Row, report: &Report) -> f64 {
        match self.vary {
            Vary::Size => row
                .columns
                .iter()
                .find(|(n, _)| *n == "nodes")
                .and_then(|(_, v)| v.as_f64())
                .unwrap_or(0.0),
            Vary::Lk | Vary::L => report.l as f64,
            Vary::K => report.k as f64,
        }
    }

    /// The charts' points, sorted by x: means over the runs that delivered every packet.
    pub fn chart(&self) -> Vec<ChartPoint> {
        let algorithms = self.algorithms();
        struct Acc {
            x: f64,
            sqrt: f64,
            best: f64,
            diameter: f64,
            n: f64,
            steps: Vec<(f64, f64)>,
            queue: Vec<f64>,
        }
        let mut points: Vec<Acc> = Vec::new();
        for row in self.rows() {
            let Some(r) = &row.report else { continue };
            if row.incomplete() {
                continue;
            }
            let x = self.x_of(row, r);
            let i = match points.iter().position(|p| p.x == x) {
                Some(i) => i,
                None => {
                    points.push(Acc {
                        x,
                        sqrt: 0.0,
                        best: 0.0,
                        diameter: r.bounds.reference.diameter as f64,
                        n: 0.0,
                        steps: vec![(0.0, 0.0); algorithms.len()],
                        queue: vec![0.0; algorithms.len()],
                    });
                    points.len() - 1
                }
            };
            let p = &mut points[i];
            p.sqrt += r.bounds.sqrt_lkn;
            p.best += r.bounds.best as f64;
            p.n += 1.0;
            if let Some(a) = algorithms.iter().position(|&a| a == r.algorithm) {
                p.steps[a].0 += r.steps as f64;
                p.steps[a].1 += 1.0;
                p.queue[a] += r.max_queue as f64;
            }
        }
        points.sort_by(|a, b| a.x.total_cmp(&b.x));
        points
            .into_iter()
            .map(|p| {
                let sqrt_lkn = p.sqrt / p.n;
                let steps: Vec<Option<f64>> = p.steps.iter().map(|&(s, c)| (c > 0.0).then(|| s / c)).collect();
                let over = |d: f64| steps.iter().map(|s| s.filter(|_| d > 0.0).map(|s| s / d)).collect();
                ChartPoint {
                    x: p.x,
                    sqrt_lkn,
                    best: p.best / p.n,
                    diameter: p.diameter,
                    steps_over_sqrt_lkn: over(sqrt_lkn),
                    steps_over_diameter: over(p.diameter),
                    max_queue: p
                        .queue
                        .iter()
                        .zip(&p.steps)
                        .map(|(&q, &(_, c))| (c > 0.0).then(|| q / c))
                        .collect(),
                    steps,
                }
            })
            .collect()
    }
}
