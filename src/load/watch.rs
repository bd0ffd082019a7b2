//! The page's load mode (SPEC §6, issue #16): one open-loop run at one
//! rate, stepped a few steps per frame so that packets are seen appearing
//! at their sources and flowing. A [`LoadRun`] with no end: its engine is
//! drawn as a batch run's is, and its [`WatchStats`] are the live line.
//! The browser's limits bound its steps and the packets in flight at once
//! (a rate past saturation fills the source queues without bound).

use super::curve::{BROWSER_MAX_NODES, BROWSER_MAX_STEPS};
use super::{LoadRun, LoadSpec};
use crate::error::{Error, Result};
use crate::simulation::Summary;
use crate::topology::Network;
use serde::Serialize;

/// The browser's limit on packets in flight at once in the load mode.
pub const BROWSER_MAX_IN_FLIGHT: u32 = 200_000;

/// A watched open-loop run.
#[derive(Clone)]
pub struct Watch {
    run: LoadRun,
}

/// The load mode's live line: counts over every step so far.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct WatchStats {
    /// Steps simulated.
    pub step: u32,
    /// Packets generated.
    pub injected: u64,
    /// Packets delivered.
    pub delivered: u64,
    /// Packets in flight (generated, not yet delivered).
    pub in_flight: u64,
    /// Mean latency of the delivered packets (`None` before the first).
    pub mean_latency: Option<f64>,
    /// The largest working queue so far.
    pub max_queue: u32,
}

impl Watch {
    /// A watched run of `spec` at `rate`, before its first step.
    pub fn new(spec: &LoadSpec, rate: f64) -> Result<Watch> {
        Ok(Watch {
            run: LoadRun::new(spec, rate)?,
        })
    }

    /// A watched run from a JSON object of texts (the page's form):
    /// `topology`, `algorithm`, `pattern`, `rate`, and optionally `seed`
    /// and `policy`, each checked by the core's parsers by name, under the
    /// browser's limit on nodes ([`BROWSER_MAX_NODES`]).
    pub fn browser_from_json(json: &serde_json::Value) -> Result<Watch> {
        let form = super::Form(json);
        form.only(
            "load run",
            &["topology", "algorithm", "pattern", "rate", "seed", "policy"],
        )?;
        let spec = form.spec(&form.need("algorithm")?, form.need("pattern")?.parse()?)?;
        let nodes = spec.topology.nodes();
        if nodes > BROWSER_MAX_NODES {
            return Err(Error::invalid(
                "topology",
                spec.topology.to_string(),
                format!("{nodes} nodes; the page's load mode takes at most {BROWSER_MAX_NODES}"),
            ));
        }
        let rate = form.need("rate")?;
        let rate: f64 = rate
            .parse()
            .map_err(|_| Error::invalid("rate", &rate, "not a number (expected 0 < rate <= 1)"))?;
        Watch::new(&spec, rate)
    }

    /// Simulates `n` steps; refuses, naming the limit, to go past
    /// [`BROWSER_MAX_STEPS`] steps or [`BROWSER_MAX_IN_FLIGHT`] packets in flight.
    pub fn step(&mut self, n: u32) -> Result<WatchStats> {
        for _ in 0..n {
            let step = self.run.engine().step_count();
            if step >= BROWSER_MAX_STEPS {
                return Err(Error::invalid(
                    "steps",
                    step,
                    format!("the page's load mode stops after {BROWSER_MAX_STEPS} steps"),
                ));
            }
            let in_flight = self.run.engine().in_flight();
            if in_flight > BROWSER_MAX_IN_FLIGHT {
                return Err(Error::invalid(
                    "rate",
                    self.run.rate(),
                    format!(
                        "{in_flight} packets in flight at step {step}: the network is saturated past the page's limit of {BROWSER_MAX_IN_FLIGHT}"
                    ),
                ));
            }
            self.run.step()?;
        }
        Ok(self.stats())
    }

    /// The live line.
    pub fn stats(&self) -> WatchStats {
        let total = self.run.totals();
        let engine = self.run.engine();
        WatchStats {
            step: engine.step_count(),
            injected: total.injected,
            delivered: total.delivered,
            in_flight: total.injected - total.delivered,
            mean_latency: (total.delivered > 0).then(|| total.latency_sum as f64 / total.delivered as f64),
            max_queue: engine.stats().max_queue,
        }
    }

    /// The shown step's counters in the batch run's shape
    /// ([`crate::simulation::Summary`]): `packets` is the packet slots,
    /// `status` always `running`, no phase.
    pub fn summary(&self) -> Summary {
        let stats = self.stats();
        Summary {
            step: stats.step,
            delivered: stats.delivered,
            packets: self.run.engine().packet_count(),
            in_flight: stats.in_flight,
            max_queue: stats.max_queue,
            status: crate::Status::Running.name(),
            phase: String::new(),
            deadlock: Vec::new(),
            fixed: 0,
            fixed_note: String::new(),
        }
    }

    /// The run (its engine is what the page draws).
    pub fn run(&self) -> &LoadRun {
        &self.run
    }
}
