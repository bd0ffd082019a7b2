//! The page's experiment: one parameter varied over values, for several
//! algorithms and seeds, and the charts' points (means per x).

use super::{Grid, Row, SweepLists};
use crate::error::{Error, Result};
use crate::request::{parse_number, RunSpec};
use crate::topology::Topology;
use serde::Serialize;
use serde_json::Value;

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

/// The most seeds an experiment runs per point.
pub const MAX_SEEDS: u64 = 100;

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
    /// The instance lower bound `best`: the smallest of the algorithms'
    /// means (they differ only for sorts).
    pub best: f64,
    /// The network's diameter (2·side − 2 on a side × side mesh).
    pub diameter: f64,
    /// Mean steps per algorithm (in the experiment's algorithm order; `None`: no finished run).
    pub steps: Vec<Option<f64>>,
    /// Mean largest queue per algorithm.
    pub max_queue: Vec<Option<f64>>,
    /// Mean of steps ÷ √(ℓkN) over each algorithm's runs.
    pub steps_over_sqrt_lkn: Vec<Option<f64>>,
    /// Mean steps ÷ the diameter per algorithm (time/(2·side − 2) on a mesh).
    pub steps_over_diameter: Vec<Option<f64>>,
    /// D = log₂ N, N the rows (hypercube, butterfly, shuffle-exchange:
    /// the networks whose bounds grow as log N); 0 on the grids.
    pub log_n: f64,
    /// Mean steps ÷ D per algorithm (`None` on the grids): flat for an
    /// O(log N) algorithm (Flashsort, lmrr, bit fixing).
    pub steps_over_log_n: Vec<Option<f64>>,
    /// Mean steps ÷ D² per algorithm (`None` on the grids): flat for an
    /// O(log² N) one (Batcher's bitonic sort).
    pub steps_over_log_n_squared: Vec<Option<f64>>,
}

/// D = log₂ of the rows of `topology` (its text) on a hypercube, butterfly
/// or shuffle-exchange graph; 0 elsewhere (and for an unreadable name).
fn log_rows(topology: Option<&Value>) -> f64 {
    let Some(Ok(topology)) = topology.and_then(Value::as_str).map(str::parse::<Topology>) else {
        return 0.0;
    };
    match topology {
        Topology::Hypercube(h) => h.dim() as f64,
        Topology::Butterfly(b) => b.dim() as f64,
        Topology::ShuffleExchange(s) => s.dim() as f64,
        Topology::Grid(_) => 0.0,
    }
}

impl Experiment {
    /// The page's experiment from its JSON request: `{base: config, vary:
    /// "size"|"lk"|"l"|"k", values: "8,16,32", algorithms: "greedy,pp-rand",
    /// seeds: 2}` (`base` a browser config without per-step series, the
    /// others text or numbers).
    pub fn from_json(json: &serde_json::Value) -> Result<Experiment> {
        crate::load::Form(json).only("experiment", &["base", "vary", "values", "algorithms", "seeds"])?;
        let text = |key: &str| -> Result<String> {
            match &json[key] {
                serde_json::Value::String(s) => Ok(s.clone()),
                serde_json::Value::Null => Err(Error::invalid(key, "", "missing")),
                other => Ok(other.to_string()),
            }
        };
        let base = RunSpec {
            record_series: false,
            ..RunSpec::browser()
        };
        let base = RunSpec::from_json(base, &json["base"])?;
        let vary: Vary = text("vary")?.parse()?;
        Experiment::new(base, vary, &text("values")?, &text("algorithms")?, &text("seeds")?)
    }

    /// An experiment over `base`: `vary` over `values` (a list as the CLI
    /// takes it), for `algorithms`, with `seeds` (1 to [`MAX_SEEDS`], as
    /// text) seeds from the base's.
    pub fn new(base: RunSpec, vary: Vary, values: &str, algorithms: &str, seeds: &str) -> Result<Experiment> {
        let topology = base
            .topology
            .clone()
            .ok_or_else(|| Error::invalid("topology", "", "missing: an experiment varies a network"))?;
        let seeds = parse_number("seeds", seeds, 1, MAX_SEEDS)?;
        let max = crate::options::max_seed(base.browser);
        let last = base.seed.checked_add(seeds - 1).filter(|&s| s <= max).ok_or_else(|| {
            Error::invalid(
                "seeds",
                seeds,
                format!("seeds from {} on would pass the largest seed, {max}", base.seed),
            )
        })?;
        let text = values;
        let values = vec![values.to_string()];
        let mut lists = SweepLists {
            algorithm: vec![algorithms.to_string()],
            seeds: vec![format!("{}..{last}", base.seed)],
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
        // A bad list is named as the page's field, "values" (it was the
        // CLI's --n or --lk; the fuzz audit of 2026-12-01).
        let list = match vary {
            Vary::Size => "n",
            Vary::Lk => "lk",
            Vary::L => "l",
            Vary::K => "k",
        };
        let grid = Grid::new(base, &lists).map_err(|e| match e {
            Error::Invalid { field, value, reason } if field == list && value == text => Error::Invalid {
                field: "values".into(),
                value,
                reason,
            },
            other => other,
        })?;
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

    /// The point's x: N, or the ℓ or k the point asked for (the row's
    /// column) — not the instance's measured one, which on
    /// random-destinations or a workload that ignores ℓ put one value's
    /// seeds on several x and several values on one (the experiment
    /// audit of 2026-12-01).
    fn x_of(&self, row: &Row) -> f64 {
        let column = |name: &str| row.column(name).and_then(Value::as_f64).unwrap_or(0.0);
        match self.vary {
            Vary::Size => column("nodes"),
            Vary::Lk | Vary::L => column("l"),
            Vary::K => column("k"),
        }
    }

    /// The charts' points, sorted by x: means over the runs that delivered
    /// every packet. Each algorithm's ratio is the mean of its own runs'
    /// steps ÷ √(ℓkN) (the CSV's `steps_over_sqrt_lkn`), not its mean
    /// steps over a √(ℓkN) averaged over every algorithm's runs; `best` is
    /// the smallest of the algorithms' mean lower bounds — they differ for
    /// sorts, whose packets go where each algorithm puts their keys, and a
    /// mean over all of them was neither's bound (the experiment audit of
    /// 2026-12-01).
    pub fn chart(&self) -> Vec<ChartPoint> {
        let algorithms = self.algorithms();
        /// Sums over one algorithm's finished runs at one x.
        #[derive(Clone, Copy, Default)]
        struct Sums {
            runs: f64,
            steps: f64,
            queue: f64,
            best: f64,
            over_sqrt: f64,
        }
        struct Acc {
            x: f64,
            sqrt: f64,
            n: f64,
            diameter: f64,
            log_n: f64,
            of: Vec<Sums>,
        }
        let mut points: Vec<Acc> = Vec::new();
        for row in self.rows() {
            let Some(r) = &row.report else { continue };
            if row.incomplete() {
                continue;
            }
            let x = self.x_of(row);
            let i = match points.iter().position(|p| p.x == x) {
                Some(i) => i,
                None => {
                    points.push(Acc {
                        x,
                        sqrt: 0.0,
                        n: 0.0,
                        diameter: r.bounds.reference.diameter as f64,
                        log_n: log_rows(row.column("topology")),
                        of: vec![Sums::default(); algorithms.len()],
                    });
                    points.len() - 1
                }
            };
            let p = &mut points[i];
            p.sqrt += r.bounds.sqrt_lkn;
            p.n += 1.0;
            if let Some(a) = algorithms.iter().position(|&a| a == r.algorithm) {
                let s = &mut p.of[a];
                s.runs += 1.0;
                s.steps += r.steps as f64;
                s.queue += r.max_queue as f64;
                s.best += r.bounds.best as f64;
                if r.bounds.sqrt_lkn > 0.0 {
                    s.over_sqrt += r.steps as f64 / r.bounds.sqrt_lkn;
                }
            }
        }
        points.sort_by(|a, b| a.x.total_cmp(&b.x));
        points
            .into_iter()
            .map(|p| {
                let sqrt_lkn = p.sqrt / p.n;
                let mean = |f: fn(&Sums) -> f64| -> Vec<Option<f64>> {
                    p.of.iter().map(|s| (s.runs > 0.0).then(|| f(s) / s.runs)).collect()
                };
                let steps = mean(|s| s.steps);
                let best = mean(|s| s.best).into_iter().flatten().fold(f64::INFINITY, f64::min);
                // Mean steps ÷ a reference that is the same for every run of the point.
                let over = |reference: f64| -> Vec<Option<f64>> {
                    steps
                        .iter()
                        .map(|s| s.filter(|_| reference > 0.0).map(|s| s / reference))
                        .collect()
                };
                ChartPoint {
                    x: p.x,
                    sqrt_lkn,
                    best: if best.is_finite() { best } else { 0.0 },
                    diameter: p.diameter,
                    steps_over_sqrt_lkn: if sqrt_lkn > 0.0 {
                        mean(|s| s.over_sqrt)
                    } else {
                        vec![None; algorithms.len()]
                    },
                    steps_over_diameter: over(p.diameter),
                    log_n: p.log_n,
                    steps_over_log_n: over(p.log_n),
                    steps_over_log_n_squared: over(p.log_n * p.log_n),
                    max_queue: mean(|s| s.queue),
                    steps,
                }
            })
            .collect()
    }
}
