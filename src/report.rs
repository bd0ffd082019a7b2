//! The run report of SPEC §4, shared by the CLI (`run --json`) and the browser.

use crate::bounds::Bounds;
use crate::engine::PhaseSteps;
use serde::Serialize;

/// Latency summary: packets are all injected at step 0, so a packet's
/// latency is the step it was delivered in.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Latency {
    /// Mean delivery step over delivered packets.
    pub mean: f64,
    /// Median delivery step.
    pub median: u32,
    /// Largest delivery step.
    pub max: u32,
    /// `[step, packets delivered in it]` for every step with a delivery.
    pub histogram: Vec<[u32; 2]>,
}

/// One run's result, as SPEC §4 prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The topology's SPEC name.
    pub topology: String,
    /// The algorithm's SPEC name.
    pub algorithm: String,
    /// The contention policy's SPEC name.
    pub policy: String,
    /// The workload's name or the instance's `name`, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub workload: Option<String>,
    /// The seed.
    pub seed: u64,
    /// ℓ and k as the algorithms knew them (declared or measured).
    pub l: u32,
    /// See `l`.
    pub k: u32,
    /// Queue capacity q, if bounded.
    pub queue_cap: Option<u32>,
    /// Number of packets.
    pub packets: u32,
    /// Packets delivered.
    pub delivered: u32,
    /// Whether the run stopped because nothing could move.
    pub stalled: bool,
    /// Whether the run stopped at `--max-steps`.
    pub hit_max_steps: bool,
    /// The step in which the last packet was delivered (SPEC §1); for a
    /// run that stalled or hit `--max-steps`, the steps it ran (a stall's
    /// step, which moved nothing, not counted).
    pub steps: u32,
    /// Largest working queue (SPEC §1).
    pub max_queue: u32,
    /// Largest working queue plus packets waiting at the source.
    pub max_load: u32,
    /// Most control messages held at one node.
    pub max_ctrl_queue: u32,
    /// Total packet hops simulated.
    pub packet_hops: u64,
    /// Steps per phase, in order.
    pub phases: Vec<PhaseSteps>,
    /// Fields only some algorithms report (absent fields are not printed,
    /// so the other algorithms' reports do not change).
    #[serde(flatten)]
    pub extra: Extra,
    /// Whether part of the work was precomputed off-line and not charged.
    pub offline_precompute: bool,
    /// Instance lower bounds.
    pub bounds: Bounds,
    /// Latency summary.
    pub latency: Latency,
    /// Only when the run stalled: the node ids of its wait-for cycle, a
    /// cycle of full nodes whose waiting packets each want the next node
    /// (SPEC §4; empty when the stall has no such cycle).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadlock: Option<Vec<u32>>,
    /// Only when asked for (`run --delays`, [`Report::with_delays`]):
    /// `[delay, packets delayed exactly that many steps]` for every delay
    /// of a delivered packet, a packet's delay being its delivery step
    /// minus its distance (the steps it waited).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub delay_histogram: Option<Vec<[u32; 2]>>,
}

impl Report {
    /// The report with its `delay_histogram` from `counts[z]` = packets
    /// delayed z steps (`Simulation::delay_counts`); delays no packet has are left out.
    pub fn with_delays(mut self, counts: &[u32]) -> Report {
        let bins = counts.iter().enumerate().filter(|(_, &c)| c > 0);
        self.delay_histogram = Some(bins.map(|(z, &c)| [z as u32, c]).collect());
        self
    }
}

/// Report fields of particular algorithms (SPEC §5 "Report fields"), each
/// left out of the JSON when absent. An algorithm fills them through
/// [`crate::algorithms::Algorithm::report_extra`].
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Extra {
    /// Kaufmann–Sibeyn: packets per colour (green, blue, … in 2-D; one
    /// colour per dimension in d dimensions).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub colours: Option<Vec<u32>>,
    /// `ks-level`: the strip height ε the run used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub epsilon: Option<u32>,
    /// `ks-local`: the locality L the run used (given, or the instance's own;
    /// with `--locality unknown`, the instance's own, not told to the nodes).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locality: Option<u32>,
    /// `ks-local --locality unknown` (NoLRoute, §9.2): the nodes' estimate
    /// L′ after step 1.c — the smallest over the nodes (each node's lies
    /// between it and L; above L/2 they all agree).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub locality_estimate: Option<u32>,
    /// `ks-local` (LocalRoute, L known): per phase of `phases`, the most
    /// packets that crossed one directed link during it, counted from the
    /// simulated moves (Lemma 27 bounds it in phase 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub phase_link_load: Option<Vec<u32>>,
    /// Queue smearing (`--smear`, Kaufmann–Sibeyn §7.5): the block length m
    /// used (`auto` resolved, clamped to the longest side).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub smear_block: Option<u32>,
    /// With `--smear`: the most packets held at one node when a phase
    /// opened (after the smear before it) — the parked packets §7.5
    /// bounds. `max_load` also counts packets queued in transit during
    /// the phases.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_barrier_load: Option<u32>,
    /// Cut-through worms (SPEC §5 `--flits`): flits per worm, when the run
    /// was asked for them (filled by the simulation, not the algorithm).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flits: Option<u32>,
    /// `true` when q bounds each incoming link's queue (`--edge-queues`,
    /// SPEC §1), not each node's: `max_queue` (per node) may then pass q
    /// (the queues audit of 2026-12-01: such a run read as a node-queue run
    /// that broke its cap).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub edge_queues: Option<bool>,
    /// Pietracaprina–Pucci: per colour class, the bucket size (most packets
    /// of the class at one node) its sort used — 1 where the paper's
    /// lemmas and the balancing allow it, larger where a class exceeded
    /// that bound and the flooded load sized it instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buckets: Option<Vec<u32>>,
    /// Pietracaprina–Pucci `--unknown-lk` (§3): the attempts, one per
    /// guess k_i of k, in order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guesses: Option<Vec<Guess>>,
    /// A sort (SPEC §5): whether the keys ended in order, checked by the
    /// core from the final positions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sorted: Option<bool>,
    /// A sort: the order of the nodes the keys are sorted into
    /// (`row-major`, `snake`, `label`, `level0-row`, `levelD-row`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub order: Option<&'static str>,
    /// `lmrr`'s fields (SPEC §5).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub lmrr: Option<LmrrFields>,
    /// `flashsort`'s recursion (LMRR §8).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub flashsort: Option<FlashsortFields>,
}

/// One attempt of Pietracaprina–Pucci's `--unknown-lk` (§3).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Guess {
    /// The guess k_i of k.
    pub k: u32,
    /// Its allowance c·√(ℓ·k_i·N) in steps (the attempt, its abort and,
    /// for the first, learning ℓ).
    pub allowance: u32,
    /// The step after which it began.
    pub start: u32,
    /// The steps it ran (its abort not counted).
    pub steps: u32,
    /// Why it was aborted (`None`: it was not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub aborted: Option<&'static str>,
}

/// `flashsort`'s report fields: its recursion, level by level.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FlashsortFields {
    /// One entry per recursion level, in order.
    pub recursion: Vec<FlashsortLevel>,
    /// The most inputs of a leaf (where the recursion stops).
    pub leaf_inputs: u32,
    /// Candidates per interval, on average (the oversampling).
    pub oversampling: u32,
    /// `light` (Columnsort of lightly loaded sorts, §8, §10) or `full` (one
    /// recursion of all keys).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loading: Option<&'static str>,
    /// Runs of the recursion (4 for Columnsort's sorts, 1 otherwise).
    pub sorts: u32,
}

impl FlashsortFields {
    /// λ of the node-queue claims under light loading: the most keys a
    /// routing brought to one node, at least 1; `None` with full loading.
    pub fn light_load(&self) -> Option<u32> {
        (self.loading == Some("light")).then(|| self.recursion.iter().map(|l| l.input_load).max().unwrap_or(1).max(1))
    }
}

/// One recursion level of `flashsort`.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FlashsortLevel {
    /// The butterfly level its subbutterflies start at (on a mesh, the
    /// dimension it routes along, from 0).
    pub level: u32,
    /// Inputs of each subbutterfly (on a mesh, nodes of each subarray).
    pub inputs: u32,
    /// Candidates drawn, over all its subbutterflies.
    pub candidates: u32,
    /// Intervals (subbutterflies of the next level) per subbutterfly.
    pub intervals: u32,
    /// The most packets its routing brings to one node (1 when every
    /// packet gets an input of its own).
    pub input_load: u32,
    /// c of its splitter-directed routing (Theorem 2.9's, on its levels).
    pub congestion: u32,
    /// Steps of the routing.
    pub route_steps: u32,
    /// The routing's delay: its steps minus the levels it climbs.
    pub delay: u32,
    /// Steps of the whole level (candidates, splitters, routing).
    pub steps: u32,
}

/// `lmrr`'s report fields (SPEC §5 "Options and report fields of `lmrr`").
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct LmrrFields {
    /// c (SPEC §5): the most paths using one directed link of the real
    /// network, over the whole run (the mesh's four phases together; a link
    /// that carries two leveled edges counts both; with `--combine`,
    /// destinations instead of paths).
    pub congestion: u32,
    /// Theorem 2.9's c: the most paths using one edge of a leveled network
    /// (an edge is one directed link, except in the butterfly's logical
    /// network, where a link carries two edges, and the hypercube's, where
    /// straight edges stay inside a node), the largest over the mesh's
    /// four phases; R's default is this c + L + ⌈log₂ N⌉, per phase.
    pub leveled_congestion: u32,
    /// L: the longest path, in levels.
    pub dilation: u32,
    /// Levels of the leveled network (depth + 1), the largest over phases.
    pub levels: u32,
    /// ⌈log₂ N⌉, N the number of packets routed.
    pub log_n: u32,
    /// R: ranks are drawn from [1, R] (the largest over phases).
    pub ranks: u32,
    /// q: the capacity of an edge queue.
    pub edge_queue_cap: u32,
    /// The most packets held in one edge queue at a step's end.
    pub max_edge_queue: u32,
    /// Ghost messages sent over links.
    pub ghosts: u64,
    /// End-of-stream messages sent over links.
    pub eos: u64,
    /// With `--combine` (§2.3.1): packets combined into another (each is
    /// delivered with the packet that absorbed it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub combined: Option<u64>,
    /// On the shuffle-exchange (§5): the fraction of the labels that are
    /// good (a unique longest run of at least ⌊log₂ D⌋ 0s).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub good_fraction: Option<f64>,
}

impl Latency {
    /// Summarises `deliveries[step]` = packets delivered in that step.
    pub fn from_deliveries(deliveries: &[u32]) -> Latency {
        let total: u64 = deliveries.iter().map(|&c| c as u64).sum();
        let histogram: Vec<[u32; 2]> = deliveries
            .iter()
            .enumerate()
            .filter(|(_, &c)| c > 0)
            .map(|(s, &c)| [s as u32, c])
            .collect();
        let sum: u64 = deliveries.iter().enumerate().map(|(s, &c)| s as u64 * c as u64).sum();
        let mut median = 0;
        let mut seen = 0u64;
        for &[s, c] in &histogram {
            seen += c as u64;
            if 2 * seen >= total {
                median = s;
                break;
            }
        }
        Latency {
            mean: if total == 0 { 0.0 } else { sum as f64 / total as f64 },
            median,
            max: histogram.last().map_or(0, |h| h[0]),
            histogram,
        }
    }
}
