//! The page's grids of runs, each stepped point by point in a Web Worker:
//! the experiment ([`crate::sweep::Experiment`]), the load curve
//! ([`crate::load::Curve`]) and one open-loop run to watch
//! ([`crate::load::Watch`]). Like the rest of the wasm layer, only converts.

use super::{count, engine_frame, from_js, js_error, summary_object, text, to_js};
use crate::{explain, lessons, sweep, Status};
use js_sys::Object;
use wasm_bindgen::prelude::*;

/// The page's experiment: one parameter varied for several algorithms and
/// seeds, run point by point (in a Web Worker) through the core's grid.
#[wasm_bindgen]
pub struct Experiment {
    inner: sweep::Experiment,
}

#[wasm_bindgen]
impl Experiment {
    /// `new Experiment({base: config, vary: "size"|"lk"|"l"|"k", values:
    /// "8,16,32", algorithms: "greedy,pp-rand", seeds: 2})`; throws the
    /// core's message on a bad field.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<Experiment, JsError> {
        let json = from_js(config, "experiment")?;
        let inner = sweep::Experiment::from_json(&json).map_err(js_error)?;
        Ok(Experiment { inner })
    }

    /// Number of runs.
    pub fn len(&self) -> f64 {
        self.inner.len() as f64
    }

    /// Whether there are no runs.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// Runs the next point and returns `{row, ok, status, report,
    /// message}` — `row` its CSV columns by name (the sweep's), `ok`
    /// whether it built, `status` its end, `report` the run's report and
    /// `message` the refusal (`undefined` when all have run).
    pub fn run_next(&mut self) -> Result<JsValue, JsError> {
        let Some(row) = self.inner.run_next() else {
            return Ok(JsValue::UNDEFINED);
        };
        let columns: serde_json::Map<String, serde_json::Value> =
            row.columns.iter().map(|(k, v)| (k.to_string(), v.clone())).collect();
        to_js(&serde_json::json!({
            "row": columns,
            "ok": row.report.is_some(),
            "status": row.status.map(Status::name),
            "report": row.report,
            "message": row.error,
        }))
    }

    /// The charts' data so far: `{vary, x_label, algorithms, points: [{x,
    /// sqrt_lkn, best, diameter, steps[], max_queue[],
    /// steps_over_sqrt_lkn[], steps_over_diameter[], log_n,
    /// steps_over_log_n[], steps_over_log_n_squared[]}]}`, one entry per
    /// algorithm in the arrays.
    pub fn chart(&self) -> Result<JsValue, JsError> {
        to_js(&serde_json::json!({
            "vary": self.inner.vary,
            "x_label": self.inner.vary.label(),
            "algorithms": self.inner.algorithms(),
            "points": self.inner.chart(),
        }))
    }

    /// The rows so far as CSV (the CLI's `sweep` columns).
    pub fn csv(&self) -> String {
        sweep::Table::text(sweep::Format::Csv, self.inner.rows())
    }
}

/// The page's load chart (SPEC §6, §7 `data-chart="load"`): latency
/// against offered load for several algorithms and patterns, run point by
/// point (in a Web Worker) through the core's grid ([`crate::load::Curve`]).
#[wasm_bindgen]
pub struct LoadCurve {
    inner: crate::load::Curve,
}

#[wasm_bindgen]
impl LoadCurve {
    /// `new LoadCurve({topology: "mesh:16x16", algorithms: "greedy,valiant",
    /// patterns: "uniform,transpose", rates: "0.02,0.05,0.1", seed, warmup,
    /// measure, drain, policy})`; throws the core's message on a bad field
    /// or on a curve past the browser's limits ([`crate::load::curve`]).
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<LoadCurve, JsError> {
        let json = from_js(config, "load curve")?;
        let inner = crate::load::Curve::browser_from_json(&json).map_err(js_error)?;
        Ok(LoadCurve { inner })
    }

    /// Number of runs.
    pub fn len(&self) -> f64 {
        self.inner.len() as f64
    }

    /// Whether there are no runs.
    pub fn is_empty(&self) -> bool {
        self.inner.is_empty()
    }

    /// Runs the next point and returns its row (SPEC §6's object;
    /// `undefined` when all have run).
    pub fn run_next(&mut self) -> Result<JsValue, JsError> {
        match self.inner.run_next().map_err(js_error)? {
            Some(row) => to_js(row),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// The chart's data so far ([`crate::load::CurveChart`]).
    pub fn chart(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.chart())
    }

    /// The live check of lesson `id`'s load claims on this curve so far
    /// ([`explain::load_lesson`]: `{checks: [{text, verdict}], verdict,
    /// runs, planned}`), `null` for a lesson without a load curve; throws
    /// on an unknown id.
    pub fn lesson_check(&self, id: JsValue) -> Result<JsValue, JsError> {
        let lesson = lessons::lookup(&text("lesson", &id)?).map_err(js_error)?;
        to_js(&explain::load_lesson(lesson, &self.inner))
    }
}

/// The page's load mode (SPEC §6): one open-loop run at one rate, drawn as
/// the main canvas draws a run ([`crate::load::Watch`]). Packet ids are
/// reused once delivered: `delivered_at` tells the slots in flight.
#[wasm_bindgen]
pub struct LoadSim {
    inner: crate::load::Watch,
}

#[wasm_bindgen]
impl LoadSim {
    /// `new LoadSim({topology, algorithm, pattern, rate, seed, policy})`;
    /// throws the core's message on a bad field or past the browser's limits.
    #[wasm_bindgen(constructor)]
    pub fn new(config: JsValue) -> Result<LoadSim, JsError> {
        let json = from_js(config, "load mode")?;
        let inner = crate::load::Watch::browser_from_json(&json).map_err(js_error)?;
        Ok(LoadSim { inner })
    }

    /// Simulates `n` steps and returns `stats()`; throws past the limits.
    pub fn step(&mut self, n: JsValue) -> Result<JsValue, JsError> {
        let stats = self.inner.step(count("n", &n)?).map_err(js_error)?;
        to_js(&stats)
    }

    /// `{step, injected, delivered, in_flight, mean_latency, max_queue}`
    /// over every step so far ([`crate::load::WatchStats`]).
    pub fn stats(&self) -> Result<JsValue, JsError> {
        to_js(&self.inner.stats())
    }

    /// The state to draw, in the shape of [`Simulation::snapshot`]
    /// (`packets` is the packet slots, `status` always `running`).
    pub fn snapshot(&self) -> Object {
        let obj = summary_object(&self.inner.summary());
        let engine = self.inner.run().engine();
        engine_frame(&obj, engine, None);
        obj
    }
}

/// The load form's algorithms on the network `topology` (SPEC §2 name),
/// `[{name, ok, reason, preset}]` ([`crate::load::curve::choices`]): which
/// take open-loop traffic there and which to tick. Throws on a bad name
/// and on a network larger than the page's load curves take (the fuzz
/// audit of 2026-12-01: typing hypercube:26 built its 2^26 nodes on each
/// keystroke, 1.4 s and 1.4 GB of wasm memory kept).
#[wasm_bindgen]
pub fn load_choices(topology: JsValue) -> Result<JsValue, JsError> {
    let topology: crate::topology::Topology = text("topology", &topology)?.parse().map_err(js_error)?;
    crate::load::curve::browser_network(&topology).map_err(js_error)?;
    to_js(&crate::load::curve::choices(&topology))
}
