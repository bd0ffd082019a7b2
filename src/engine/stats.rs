//! What a run records (SPEC §4): steps, max_queue, max_load, per-phase
//! steps, per-step series for the charts, and when each packet arrived.

use serde::Serialize;

/// One named phase and the steps it took.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PhaseSteps {
    /// The phase's name, e.g. `route` or `phase1-random-intermediate`.
    pub name: String,
    /// Steps spent in it.
    pub steps: u32,
    #[serde(skip)]
    start: u32,
}

impl PhaseSteps {
    /// The step the phase began after (its first step is `start + 1`).
    pub fn start(&self) -> u32 {
        self.start
    }

    /// The phase's name where room is short (the page's phase bands):
    /// without its detail in parentheses, `candidates 1 (recursion level 1:
    /// …)` → `candidates 1`; a name without one is itself. The full name
    /// stays the report's and the page's phase counter's.
    pub fn label(&self) -> &str {
        self.name.split_once(" (").map_or(&self.name, |(head, _)| head)
    }
}

/// Counters and series of one run.
#[derive(Debug, Clone, Default)]
pub struct Stats {
    /// Largest working queue at a step end.
    pub max_queue: u32,
    /// Largest working queue plus packets waiting at their source, step 0 included.
    pub max_load: u32,
    /// Most control messages held at one node.
    pub max_ctrl_queue: u32,
    /// The step in which the last delivery so far happened.
    pub last_delivery: u32,
    /// Worms (F > 1): the last step so far in which a flit crossed a link
    /// behind its head (0 without worms); the run's last flit arrived then.
    pub last_flit: u32,
    /// Packets delivered in each step (index = step): the latency histogram,
    /// since every packet starts at step 0.
    pub deliveries: Vec<u32>,
    /// Per step (index = step − 1): packets not yet delivered at its end.
    pub in_flight: Vec<u32>,
    /// Per step: the largest working queue at its end.
    pub queue_series: Vec<u32>,
    /// Per step: directed links used (packets plus control messages).
    pub links_used: Vec<u32>,
    /// Total packet hops.
    pub packet_hops: u64,
    phases: Vec<PhaseSteps>,
    record_series: bool,
    steps: u32,
}

impl Stats {
    pub(crate) fn new(record_series: bool) -> Self {
        Stats {
            record_series,
            ..Default::default()
        }
    }

    pub(crate) fn begin(&mut self, initial_load: u32) {
        self.max_load = initial_load;
        self.deliveries = vec![0];
    }

    /// The phases begun so far (the open one included).
    pub fn phase_count(&self) -> usize {
        self.phases.len()
    }

    pub(crate) fn begin_phase(&mut self, name: &str, step: u32) {
        if let Some(last) = self.phases.last_mut() {
            if last.start == step {
                // A phase that took no step is replaced, not reported.
                last.name = name.to_string();
                return;
            }
        }
        self.phases.push(PhaseSteps {
            name: name.to_string(),
            steps: 0,
            start: step,
        });
    }

    pub(crate) fn delivered_at_step(&mut self, step: u32) {
        self.delivered_many_at_step(step, 1);
    }

    /// Records `count` deliveries in `step` (none: nothing changes).
    pub(crate) fn delivered_many_at_step(&mut self, step: u32, count: u32) {
        if count == 0 {
            return;
        }
        if self.deliveries.len() <= step as usize {
            self.deliveries.resize(step as usize + 1, 0);
        }
        self.deliveries[step as usize] += count;
        self.last_delivery = self.last_delivery.max(step);
    }

    /// Withdraws a delivery recorded in `step` ([`crate::engine::Engine::recall`]).
    pub(crate) fn withdraw_delivery(&mut self, step: u32) {
        self.deliveries[step as usize] -= 1;
        while self.last_delivery > 0 && self.deliveries[self.last_delivery as usize] == 0 {
            self.last_delivery -= 1;
        }
    }

    pub(crate) fn end_step(&mut self, max_queue: u32, in_flight: u32, links: u32) {
        self.steps += 1;
        self.max_queue = self.max_queue.max(max_queue);
        if self.record_series {
            self.in_flight.push(in_flight);
            self.queue_series.push(max_queue);
            self.links_used.push(links);
        }
    }

    /// The last step's end in the series, restated after packets were
    /// delivered at that step between steps (an algorithm delivering its
    /// last packets where they stand): they leave the network and its
    /// queues at that step's end.
    pub(crate) fn restate_step_end(&mut self, max_queue: u32, in_flight: u32) {
        if self.record_series {
            if let Some(last) = self.in_flight.last_mut() {
                *last = in_flight;
            }
            if let Some(last) = self.queue_series.last_mut() {
                *last = max_queue;
            }
        }
    }

    pub(crate) fn add_hops(&mut self, hops: u32) {
        self.packet_hops += hops as u64;
    }

    /// The name of the phase in progress (the last one begun), if any.
    pub fn current_phase(&self) -> Option<&str> {
        self.phases.last().map(|p| p.name.as_str())
    }

    /// The phases with their step counts up to step `end` (the last one
    /// closed there; steps after `end` are not counted).
    pub fn phases(&self, end: u32) -> Vec<PhaseSteps> {
        let mut out = self.phases.clone();
        for i in 0..out.len() {
            let stop = if i + 1 < out.len() {
                out[i + 1].start.min(end)
            } else {
                end
            };
            out[i].steps = stop.saturating_sub(out[i].start);
        }
        out
    }
}
