//! A sweep's output row: the grid point's columns and its report, as CSV or JSON lines.

use super::Point;
use crate::load::{LoadRow, LoadSpec};
use crate::report::Report;
use crate::topology::Network;
use crate::Status;
use serde_json::{json, Value};

use crate::load::table_float as float;

/// One output row: the grid point and its report or error.
#[derive(Debug, Clone)]
pub struct Row {
    /// `(column, value)` in output order.
    pub columns: Vec<(&'static str, Value)>,
    /// The report, if a batch point ran (open-loop rows carry their values in `columns` only).
    pub report: Option<Report>,
    /// How the run ended, if it ran.
    pub status: Option<Status>,
    /// Why the point could not run.
    pub error: Option<String>,
}

impl Row {
    pub(super) fn new(p: &Point, result: std::result::Result<(Report, Status), String>) -> Row {
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
        ]);
        if p.spec.options.smear.is_some() {
            // Only in sweeps with --smear, so that the others' rows keep their columns.
            columns.extend([
                ("smear", json!(p.spec.options.smear.map(|m| m.name()))),
                ("smear_block", get(&|r| json!(r.extra.smear_block))),
                ("max_barrier_load", get(&|r| json!(r.extra.max_barrier_load))),
            ]);
        }
        columns.push(("error", json!(result.as_ref().err())));
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

    /// An open-loop grid point's row ([`super::LoadGrid`]): the columns of
    /// `routesim load --out` (SPEC §6's fields, the latency flattened) in
    /// their order and places (SPEC §4: "with `load`'s columns"), then
    /// `nodes` and `side` (for plots against the size) and `error`. A
    /// saturated rate is a result: the row is not [`Row::incomplete`].
    pub(super) fn from_load(spec: &LoadSpec, rate: f64, result: std::result::Result<LoadRow, String>) -> Row {
        let mut columns = crate::load::table_columns(spec, rate, result.as_ref().ok());
        columns.extend([
            ("nodes", json!(spec.topology.nodes())),
            ("side", json!(spec.topology.square_side())),
            ("error", json!(result.as_ref().err())),
        ]);
        Row {
            columns,
            report: None,
            status: None,
            error: result.err(),
        }
    }

    /// One rate of `routesim load` as a table row: [`crate::load::table_columns`]
    /// (no `nodes`, `side` or `error`: every such rate ran).
    pub fn from_rate(spec: &LoadSpec, row: &LoadRow) -> Row {
        Row {
            columns: crate::load::table_columns(spec, row.rate, Some(row)),
            report: None,
            status: None,
            error: None,
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

    /// The value of column `name`, if the row has it.
    pub fn column(&self, name: &str) -> Option<&Value> {
        self.columns.iter().find(|(n, _)| *n == name).map(|(_, v)| v)
    }

    /// The grid point in words, for messages.
    pub fn describe(&self) -> String {
        let get = |name: &str| self.column(name).map_or(String::new(), csv_cell);
        match self.columns.iter().any(|(n, _)| *n == "pattern") {
            true => format!(
                "topology {}, algorithm {}, pattern {}, seed {}, rate {}",
                get("topology"),
                get("algorithm"),
                get("pattern"),
                get("seed"),
                get("rate")
            ),
            false => format!(
                "topology {}, algorithm {}, workload {}, seed {}",
                get("topology"),
                get("algorithm"),
                get("workload"),
                get("seed")
            ),
        }
    }
}

/// How rows are written: CSV (a header line first) or JSON lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Comma-separated values with a header line (the first row's columns).
    Csv,
    /// One JSON object per line, columns in order.
    Jsonl,
}

/// The one writer of rows as text (`routesim sweep`, `routesim load
/// --out`, the page's experiment CSV): each row's line, the CSV header
/// before the first.
#[derive(Debug, Clone)]
pub struct Table {
    format: Format,
    started: bool,
}

impl Table {
    /// A table with no row written yet.
    pub fn new(format: Format) -> Table {
        Table { format, started: false }
    }

    /// A table that writes no CSV header (a shard after the first, SPEC §4).
    pub fn without_header(format: Format) -> Table {
        Table { format, started: true }
    }

    /// The text of the next row (with the header line before the first CSV row).
    pub fn line(&mut self, row: &Row) -> String {
        let first = !std::mem::replace(&mut self.started, true);
        match self.format {
            Format::Csv if first => row.csv_header() + &row.csv(),
            Format::Csv => row.csv(),
            Format::Jsonl => row.jsonl(),
        }
    }

    /// Rows as one text.
    pub fn text<'a>(format: Format, rows: impl IntoIterator<Item = &'a Row>) -> String {
        let mut table = Table::new(format);
        rows.into_iter().map(|row| table.line(row)).collect()
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
