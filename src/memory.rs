//! A run's memory in bytes, estimated before anything is allocated (issue
//! #29: "memory by bytes, never an abort").
//!
//! [`estimate`] adds up what a run holds at its peak from its shape alone —
//! the network, an upper bound of its packets (a workload's from its
//! parameters, [`crate::workload::WorkloadSpec::max_packets`], without
//! generating it) and the engine's options: the engine's columns per packet
//! and per node and link (src/engine/mod.rs, `Engine`), the instance's
//! packet list, the lower bounds' working memory (`bounds::working_bytes`: the
//! region bound's tables on a 2-D mesh), the per-step series, the algorithm's
//! state and the process itself; for the page, the timeline's copies
//! (src/timeline.rs). [`Limit::check`] refuses a run whose estimate is
//! above the limit, naming the topology, the estimate and the limit. The
//! CLI (`run`, `sweep`, `load`), the page and its worker all call it
//! through [`crate::request::RunSpec::build`] (and the load mode's grid).
//!
//! The figures are upper bounds of the steady state and of the transient
//! peaks (a vector that doubles, a re-sort's scratch); `tests/it/memory.rs`
//! compares them with the measured peak of a CLI process.

use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::topology::{Network, Topology};

/// The page's memory budget: a run whose estimate (the timeline's copies
/// included) passes it is refused before anything is allocated.
pub const PAGE_BUDGET: u64 = 1 << 30;

/// Engine bytes per packet at most: by slot pos, target, dest, id_of,
/// bid_link, bid_next (24), bid_key (8), flags (1); by id slot_of, src,
/// delivered_at (12), class (1); the contest list, 12 bytes per packet or
/// link, up to doubled by its growth (24); the requeue and delivered-slot
/// lists (8, doubled); a re-sort's permutation, new slots and one column
/// copied (16).
pub const ENGINE_BYTES_PER_PACKET: u64 = 24 + 8 + 1 + 12 + 1 + 24 + 8 + 16;
/// A policy column (`farthest-origin`'s phase start, `fifo`'s arrival
/// step, `rank`'s rank) or the edge-queue mode's incoming link: per packet.
pub const ENGINE_BYTES_PER_OPTIONAL_COLUMN: u64 = 4;
/// Engine bytes per node: its working queue and packets at source.
pub const ENGINE_BYTES_PER_NODE: u64 = 8;
/// Engine bytes per directed link (nodes × ports, plus the sink): the
/// link's entry of `link_contest` (4), its bit of the step's reservations
/// and its bit in the map of the links that exist (built for scripted
/// steps; the two bits rounded up to a byte) and, at most, its entry in
/// the list of the step's reserved links (4).
pub const ENGINE_BYTES_PER_LINK: u64 = 4 + 1 + 4;
/// The instance's packet list: a (source, destination) pair per packet.
pub const INSTANCE_BYTES_PER_PACKET: u64 = 8;
/// What the algorithm keeps for itself, at most, per packet (a target, a
/// phase, a rank; greedy keeps nothing).
pub const ALGORITHM_BYTES_PER_PACKET: u64 = 32;
/// The algorithm's state per node: an algorithm that routes packets one by
/// one (the registry's `open_loop` entries: greedy, valiant, bit fixing,
/// rand-interval) keeps a few counters.
pub const ALGORITHM_BYTES_PER_NODE: u64 = 16;
/// The state per node of a phased or scripted algorithm (sorts, ranks,
/// tiles, plans): measured up to about 190 bytes (pp-rand, mesh:256x256).
/// `lmrr`'s paths are not in it: 4 bytes per path node, bounded by its own
/// limit (2^30 path nodes natively, 2^24 in the browser) and tried in one
/// block before they are built (a message, not an abort).
pub const SCRIPTED_BYTES_PER_NODE: u64 = 192;
/// The process itself (code, stacks, the allocator's and the output's
/// buffers): counted once natively.
pub const PROCESS_BYTES: u64 = 8 << 20;
/// The per-step series per step (deliveries always; in flight, largest
/// queue, links used when recorded), for the steps [`estimate`] assumes.
const SERIES_BYTES_PER_STEP: u64 = 16;

/// The shape of a run: all [`estimate`] reads.
#[derive(Debug, Clone)]
pub struct Shape<'a> {
    /// The network.
    pub topology: &'a Topology,
    /// The packets, or an upper bound of their number.
    pub packets: u64,
    /// The contention policy (some policies keep a column of their own).
    pub policy: Policy,
    /// One queue per incoming link (a column per packet and one per link).
    pub edge_queues: bool,
    /// Flits per worm: with F > 1 a crossing per directed link at most.
    pub flits: u32,
    /// The run records the per-step series (the page).
    pub record_series: bool,
    /// A sort: a key per packet.
    pub sort: bool,
    /// A loaded instance, held by the request and by the run.
    pub loaded: bool,
    /// The page: the timeline's copies of the run (head, probe, checkpoints).
    pub page: bool,
    /// Stop after this many steps (caps the series' length).
    pub max_steps: u32,
    /// The algorithm is phased or scripted (not one of the registry's
    /// `open_loop` entries): it keeps more state per node.
    pub scripted: bool,
    /// What the algorithm's plans hold beyond that, from its registry
    /// entry (`state_bytes`: `flashsort`'s relays and leveled networks).
    pub state_bytes: u64,
}

/// A run's estimated bytes, in parts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Estimate {
    /// The engine's columns: per packet, per node and per link.
    pub engine: u64,
    /// The instance (and a sort's keys).
    pub instance: u64,
    /// The lower bounds' working memory.
    pub bounds: u64,
    /// The algorithm's state.
    pub algorithm: u64,
    /// The per-step series.
    pub series: u64,
    /// The page's timeline copies (0 natively).
    pub timeline: u64,
    /// The process itself.
    pub process: u64,
}

impl Estimate {
    /// The whole estimate.
    pub fn total(&self) -> u64 {
        [
            self.engine,
            self.instance,
            self.bounds,
            self.algorithm,
            self.series,
            self.timeline,
            self.process,
        ]
        .iter()
        .fold(0u64, |a, &b| a.saturating_add(b))
    }
}

/// The bytes a run of this shape needs at its peak, at most (see the module notes).
pub fn estimate(shape: &Shape) -> Estimate {
    let topo = shape.topology;
    let p = shape.packets;
    let nodes = topo.nodes() as u64;
    let links = nodes.saturating_mul(topo.ports() as u64).saturating_add(1);
    let mul = |a: u64, b: u64| a.saturating_mul(b);

    let optional = [
        matches!(shape.policy, Policy::FarthestOrigin | Policy::Fifo | Policy::Rank),
        shape.edge_queues,
    ]
    .iter()
    .filter(|&&on| on)
    .count() as u64;
    let per_packet = ENGINE_BYTES_PER_PACKET + optional * ENGINE_BYTES_PER_OPTIONAL_COLUMN;
    let mut per_link = ENGINE_BYTES_PER_LINK;
    if shape.edge_queues {
        per_link += 4;
    }
    if shape.flits > 1 {
        // A worm's crossings (12 bytes, up to doubled), one per directed link at most.
        per_link += 24;
    }
    let engine = mul(p, per_packet) + mul(nodes, ENGINE_BYTES_PER_NODE) + mul(links, per_link);

    let held = if shape.loaded { 2 } else { 1 };
    let keys = if shape.sort { 16 } else { 0 };
    let instance = mul(p, held * INSTANCE_BYTES_PER_PACKET + keys);

    let bounds = crate::bounds::working_bytes(topo, p);

    let per_node = if shape.scripted {
        SCRIPTED_BYTES_PER_NODE
    } else {
        ALGORITHM_BYTES_PER_NODE
    };
    let algorithm = mul(p, ALGORITHM_BYTES_PER_PACKET)
        .saturating_add(mul(nodes, per_node))
        .saturating_add(shape.state_bytes);

    // The steps assumed for the series: a few times the diameter and the
    // packets per node, within the step limit.
    let sent = p.div_ceil(nodes.max(1));
    let steps = (8 * (topo.diameter() as u64 + sent) + 1024).min(shape.max_steps as u64 + 1);
    let mut series = mul(steps, SERIES_BYTES_PER_STEP);
    if shape.record_series {
        // The links of the last step, for the page's lit links.
        series += mul(p.min(links), 4);
    }

    // The page's timeline: a head and a probe besides the shown run, and
    // checkpoints within their budget (at least two).
    let copy = engine + algorithm;
    let timeline = if shape.page {
        mul(copy, 2) + mul(copy, 2).max(crate::timeline::CHECKPOINT_BUDGET as u64)
    } else {
        0
    };

    Estimate {
        engine,
        instance,
        bounds,
        algorithm,
        series,
        timeline,
        process: if shape.page { 0 } else { PROCESS_BYTES },
    }
}

/// A memory limit and what sets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limit {
    /// The limit in bytes.
    pub bytes: u64,
    /// What sets it, for the message: `--memory-limit`, `the available
    /// memory (MemAvailable)`, `the address-space limit (ulimit -v)`, `the
    /// cgroup's memory limit`, `the page's memory budget`.
    pub source: String,
    /// How to raise it, for the message.
    pub hint: String,
}

impl Limit {
    /// The page's budget ([`PAGE_BUDGET`]).
    pub fn page() -> Limit {
        Limit {
            bytes: PAGE_BUDGET,
            source: "the page's memory budget".into(),
            hint: "choose a smaller network or fewer packets (the command-line routesim runs larger ones)".into(),
        }
    }

    /// A limit given on the command line (`--memory-limit`).
    pub fn given(bytes: u64) -> Limit {
        Limit {
            bytes,
            source: "--memory-limit".into(),
            hint: "raise it with --memory-limit SIZE, e.g. --memory-limit 64G".into(),
        }
    }

    /// Refuses a run of `shape` whose estimate is above the limit: the
    /// message names the topology, the estimate and the limit.
    pub fn check(&self, shape: &Shape) -> Result<Estimate> {
        let estimate = estimate(shape);
        let total = estimate.total();
        if total > self.bytes {
            return Err(Error::Memory {
                topology: shape.topology.to_string(),
                reason: format!(
                    "the run needs an estimated {} ({} packets, {} nodes), above {} of {}; {}",
                    shown(total),
                    shape.packets,
                    shape.topology.nodes(),
                    self.source,
                    shown(self.bytes),
                    self.hint
                ),
            });
        }
        Ok(estimate)
    }
}

pub use crate::error::shown_bytes as shown;

/// Parses a size: plain bytes (`1000000`) or a number with a binary unit
/// `K`, `M`, `G` or `T` (`512M`, `1.5G`, `4GiB`, `4gb`: powers of 1024).
/// `field` names the option in the message of a bad value.
pub fn parse_size(field: &str, text: &str) -> Result<u64> {
    let bad = || {
        Error::invalid(
            field,
            text,
            "expected a size in bytes, or with a unit K, M, G or T (powers of 1024), e.g. 4G, 512M, 1.5G",
        )
    };
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let number = lower.trim_end_matches("ib").trim_end_matches('b');
    let (digits, scale) = match number.chars().last() {
        Some('k') => (&number[..number.len() - 1], 1u64 << 10),
        Some('m') => (&number[..number.len() - 1], 1 << 20),
        Some('g') => (&number[..number.len() - 1], 1 << 30),
        Some('t') => (&number[..number.len() - 1], 1 << 40),
        _ => (number, 1),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return Err(bad());
    }
    if scale == 1 {
        // Plain bytes: a whole number, exact up to 2^64 − 1 (a fraction of
        // a byte, "1.5", was read as 1).
        return digits.parse::<u64>().ok().filter(|&b| b >= 1).ok_or_else(bad);
    }
    let value: f64 = digits.parse().map_err(|_| bad())?;
    let bytes = value * scale as f64;
    if !(bytes >= 1.0 && bytes < u64::MAX as f64) {
        return Err(bad());
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_powers_of_1024() {
        assert_eq!(parse_size("m", "4G").unwrap(), 4 << 30);
        assert_eq!(parse_size("m", "512M").unwrap(), 512 << 20);
        assert_eq!(parse_size("m", "1.5G").unwrap(), 3 << 29);
        assert_eq!(parse_size("m", "4GiB").unwrap(), 4 << 30);
        assert_eq!(parse_size("m", "64k").unwrap(), 64 << 10);
        assert_eq!(parse_size("m", "1000000").unwrap(), 1_000_000);
        assert_eq!(parse_size("m", "18446744073709551615").unwrap(), u64::MAX);
        assert!(parse_size("m", "1.5").is_err(), "a fraction of a byte");
        for bad in ["", "G", "-1G", "0", "4X", "1.2.3G", "four", "4 G B", "1e3", "0.1"] {
            let e = parse_size("memory-limit", bad).unwrap_err().to_string();
            assert!(
                e.contains("memory-limit") && e.contains(&format!("'{bad}'")),
                "{bad}: {e}"
            );
        }
    }

    #[test]
    fn sizes_are_shown_in_binary_units() {
        assert_eq!(shown(900), "900 bytes");
        assert_eq!(shown(3 << 29), "1.5 GiB");
        assert_eq!(shown(640 << 20), "640.0 MiB");
    }
}
