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
    /// The step in which the last packet was delivered.
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
    /// Pietracaprina–Pucci: per colour class, the bucket size (most packets
    /// of the class at one node) its sort used — 1 where the paper's
    /// lemmas and the balancing allow it, larger where a class exceeded
    /// that bound and the flooded load sized it instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buckets: Option<Vec<u32>>,
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
