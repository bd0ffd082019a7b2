//! One open-loop run at one rate (SPEC §6), step by step: Bernoulli
//! generation at every source, the algorithm's route for each new packet,
//! the engine's step, and the measurement window's counts and latencies.
//!
//! The order of a step t: the algorithm's `before_step` (packets that
//! reached an intermediate target move on), then generation (node by node
//! in id order, one Bernoulli draw each and, for `uniform`, one draw of the
//! destination, all from the run's seed on the load stream), then the
//! engine's step, in which the new packets compete at their sources (a
//! packet generated in step t may move in step t), then the deliveries'
//! accounting. Memory: the engine's packet slots and the per-id columns
//! here grow to the most packets in flight at once; the latencies are a
//! histogram by value.

use super::{LoadRow, LoadSpec, Summary};
use crate::algorithms::{Algorithm, AlgorithmOptions};
use crate::engine::{Engine, EngineConfig};
use crate::error::{Error, Result};
use crate::load::pattern::Destinations;
use crate::rng::{Rng, Stream};
use crate::workload::Instance;

/// An open-loop run in progress.
#[derive(Clone)]
pub struct LoadRun {
    spec: LoadSpec,
    rate: f64,
    /// A packet is generated when a 53-bit draw is below this.
    threshold: u64,
    engine: Engine,
    algorithm: Box<dyn Algorithm>,
    dest: Destinations,
    rng: Rng,
    /// By packet id: the step it was generated in, and its route's hops.
    born: Vec<u32>,
    hops: Vec<u32>,
    generated: u64,
    accepted: u64,
    measured: u64,
    measured_delivered: u64,
    hops_sum: u64,
    latency_sum: u64,
    /// Measured packets delivered, by latency.
    latency_histogram: Vec<u64>,
    /// Every step so far, window or not: packets generated, delivered, and
    /// the delivered ones' latencies summed (the load mode's live line).
    total: Totals,
}

/// Counts over every step so far, inside the measurement window or not.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Totals {
    /// Packets generated.
    pub injected: u64,
    /// Packets delivered.
    pub delivered: u64,
    /// Their latencies (delivery step − generation step + 1), summed.
    pub latency_sum: u64,
}

impl LoadRun {
    /// A run of `spec` at `rate` (0 < rate ≤ 1), before its first step.
    pub fn new(spec: &LoadSpec, rate: f64) -> Result<LoadRun> {
        super::check_rate(rate)?;
        // The memory first: it builds nothing (a pattern's check does).
        spec.check_memory(rate)?;
        let entry = spec.check()?;
        let topo = spec.topology.clone();
        let dest = Destinations::new(spec.pattern, &topo, spec.seed)?;
        let config = EngineConfig {
            policy: spec.policy,
            seed: spec.seed,
            check_invariants: spec.check_invariants,
            record_series: spec.record_series,
            ..EngineConfig::default()
        };
        let mut engine = Engine::new(topo.clone(), &[], config);
        engine.set_open_loop();
        let options = AlgorithmOptions {
            seed: spec.seed,
            // Open loop has no barriers (SPEC §6).
            pipeline: true,
            ..AlgorithmOptions::default()
        };
        let mut algorithm = entry.create(&options);
        algorithm.start(&Instance::new(topo, Vec::new())?, &mut engine)?;
        Ok(LoadRun {
            spec: spec.clone(),
            rate,
            threshold: (rate * (1u64 << 53) as f64) as u64,
            engine,
            algorithm,
            dest,
            rng: Rng::new(spec.seed, Stream::Load),
            born: Vec::new(),
            hops: Vec::new(),
            generated: 0,
            accepted: 0,
            measured: 0,
            measured_delivered: 0,
            hops_sum: 0,
            latency_sum: 0,
            latency_histogram: Vec::new(),
            total: Totals::default(),
        })
    }

    /// Whether a packet generated (or delivered) in `step` is in the
    /// measurement window W+1..W+M.
    fn in_window(&self, step: u32) -> bool {
        step > self.spec.warmup && step <= self.spec.warmup + self.spec.measure
    }

    /// Simulates one step (see the module's docs for its order).
    pub fn step(&mut self) -> Result<()> {
        let t = self.engine.step_count() + 1;
        let window = self.in_window(t);
        self.algorithm.before_step(&mut self.engine);
        for i in 0..self.dest.sources().len() {
            if self.rng.next_u64() >> 11 >= self.threshold {
                continue;
            }
            let src = self.dest.sources()[i];
            let to = self.dest.draw(src, &mut self.rng);
            let id = self.engine.inject(src, to);
            let hops = self
                .algorithm
                .admit(&mut self.engine, id)
                .ok_or_else(|| Error::unsupported(self.algorithm.name(), "does not route each packet on its own"))?;
            let i = id as usize;
            if self.born.len() <= i {
                self.born.resize(i + 1, 0);
                self.hops.resize(i + 1, 0);
            }
            (self.born[i], self.hops[i]) = (t, hops);
            self.total.injected += 1;
            if window {
                self.generated += 1;
                self.measured += 1;
                self.hops_sum += hops as u64;
            }
        }
        self.engine.step();
        for k in 0..self.engine.last_delivered().len() {
            let i = self.engine.last_delivered()[k] as usize;
            self.total.delivered += 1;
            self.total.latency_sum += (t - self.born[i] + 1) as u64;
            if window {
                self.accepted += 1;
            }
            if self.in_window(self.born[i]) {
                let latency = (t - self.born[i] + 1) as usize;
                if self.latency_histogram.len() <= latency {
                    self.latency_histogram.resize(latency + 1, 0);
                }
                self.latency_histogram[latency] += 1;
                self.latency_sum += latency as u64;
                self.measured_delivered += 1;
            }
        }
        Ok(())
    }

    /// Whether the run is over: the window has passed and every measured
    /// packet is delivered, or the drain limit D has passed (SPEC §6).
    pub fn done(&self) -> bool {
        let t = self.engine.step_count();
        let end = self.spec.warmup + self.spec.measure;
        t >= end && (self.measured_delivered == self.measured || t >= end + self.spec.drain)
    }

    /// Steps until [`LoadRun::done`], then the row.
    pub fn finish(mut self) -> Result<LoadRow> {
        while !self.done() {
            self.step()?;
        }
        Ok(self.row())
    }

    /// The engine (positions, queues, links of the last step).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// Counts over every step so far ([`Totals`]).
    pub fn totals(&self) -> Totals {
        self.total
    }

    /// The step at which the packet `id` in flight was generated.
    pub fn born(&self, id: u32) -> u32 {
        self.born[id as usize]
    }

    /// What it runs.
    pub fn spec(&self) -> &LoadSpec {
        &self.spec
    }

    /// The rate.
    pub fn rate(&self) -> f64 {
        self.rate
    }

    /// The row of the run so far (SPEC §6's fields).
    pub fn row(&self) -> LoadRow {
        let per = (self.dest.inputs() as f64 * self.spec.measure as f64).max(1.0);
        let (offered, accepted) = (self.generated as f64 / per, self.accepted as f64 / per);
        let undelivered = self.measured - self.measured_delivered;
        LoadRow {
            topology: self.spec.topology.to_string(),
            algorithm: self.spec.algorithm.clone(),
            pattern: self.spec.pattern.name().to_string(),
            policy: self.spec.policy.to_string(),
            seed: self.spec.seed,
            rate: self.rate,
            offered,
            accepted,
            latency: latency_summary(&self.latency_histogram, self.latency_sum, self.measured_delivered),
            hops_mean: (self.measured > 0).then(|| self.hops_sum as f64 / self.measured as f64),
            saturated: accepted < 0.95 * offered || undelivered > 0,
            ideal_throughput: None,
            measured: self.measured,
            undelivered,
            steps: self.engine.step_count(),
            warmup: self.spec.warmup,
            measure: self.spec.measure,
            drain: self.spec.drain,
        }
    }
}

/// Mean, p50, p99 and max of the latencies in `histogram` (nearest rank);
/// `None` when no measured packet was delivered.
fn latency_summary(histogram: &[u64], sum: u64, count: u64) -> Option<Summary> {
    if count == 0 {
        return None;
    }
    let rank = |q: f64| {
        let need = ((q * count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (value, &n) in histogram.iter().enumerate() {
            seen += n;
            if seen >= need {
                return value as u32;
            }
        }
        histogram.len() as u32 - 1
    };
    Some(Summary {
        mean: sum as f64 / count as f64,
        p50: rank(0.5),
        p99: rank(0.99),
        max: histogram.len() as u32 - 1,
    })
}
