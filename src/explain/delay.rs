//! The claims on every packet's delay (its delivery step minus its
//! distance, [`Simulation::packet_delays`]), judged packet by packet as
//! each arrives: greedy's d + O(log n) on random destinations (the
//! permutation-routing lecture's average case, a measured constant) and
//! bit fixing's delay ≤ |S| (the hypercube lecture's theorem, ✓/✗); the
//! run's delay histogram for the page; the tracked packet's line.

use super::{num, ClaimStatus, Progress, Verdict};
use crate::algorithms::claim::{Claim, Formula, Measure, Strength};
use crate::claims::{routes_met, Bound};
use crate::simulation::{Simulation, Status};
use crate::topology::{Network, RouteOrder};
use serde::Serialize;

/// The most packets whose |S| the explain panel counts (the count is
/// O(Σ over links of the routes through it, squared): a second at most).
pub const MAX_COUNTED: usize = 1 << 16;

/// Every packet's route on `sim`'s network as directed link ids, in the
/// run's route order (bit fixing's routes on the hypercube).
fn routes(sim: &Simulation) -> Vec<Vec<u32>> {
    let topo = &sim.instance().topology;
    let ports = topo.ports();
    let order = route_order(sim);
    let packets = &sim.instance().packets;
    packets
        .iter()
        .enumerate()
        .map(|(p, &(s, d))| {
            let mut links = Vec::new();
            topo.walk_route(s, &[], d, p as u32, order, |node, port| links.push(node * ports + port));
            links
        })
        .collect()
}

fn route_order(sim: &Simulation) -> RouteOrder {
    if sim.config().options.reverse_order {
        RouteOrder::Reversed
    } else {
        RouteOrder::Standard
    }
}

/// Judges a [`Measure::PacketDelay`] claim with bound `b` on `sim`: (verdict, measured, line, short).
pub(super) fn judge(
    claim: &Claim,
    b: &mut Bound,
    sim: &Simulation,
    p: &Progress,
) -> (Verdict, Option<f64>, String, String) {
    let delays = sim.packet_delays();
    let delivered = delays.iter().flatten().count();
    let largest = delays.iter().flatten().copied().max();
    if claim.formula == Formula::RoutesMet {
        let met = sim.per_packet(|sim| {
            let topo = &sim.instance().topology;
            routes_met(&routes(sim), (topo.nodes() * topo.ports()) as usize)
        });
        b.value = met.iter().copied().max().unwrap_or(0) as f64;
        b.parameters = format!("{}; the largest |S| is {}", b.parameters, num(b.value));
        // The packet whose delay is closest to (or past) its |S| (of those, the most delayed).
        let worst = delays
            .iter()
            .zip(met)
            .enumerate()
            .filter_map(|(i, (d, &s))| d.map(|d| (d as i64 - s as i64, d, i, s)))
            .max();
        let measured = largest.map(f64::from);
        if let Some((excess, d, i, s)) = worst.filter(|w| w.0 > 0) {
            let line = format!("packet #{i} was delayed {d} steps > |S| = {s} (by {excess}) — exceeded ✗");
            return (Verdict::NotMet, measured, line, format!("packet #{i}: {d} > {s} ✗"));
        }
        let tightest = worst.map_or(String::new(), |(_, d, i, s)| {
            format!("; the closest, packet #{i}, was delayed {d} with |S| = {s}")
        });
        return if p.failed() {
            (
                Verdict::NotMet,
                measured,
                p.failure(),
                "the run did not finish ✗".into(),
            )
        } else if p.status == Status::Finished {
            let line = format!("all {delivered} packets were delayed at most their |S|{tightest} — met ✓");
            (Verdict::Met, measured, line, format!("all {delivered} within |S| ✓"))
        } else {
            let line = format!(
                "{}; each delivered packet within its |S| so far{tightest} (a packet's is decided when it arrives) — \
                 not yet decided",
                p.line()
            );
            (
                Verdict::Pending,
                measured,
                line,
                "so far within |S| — not yet decided".into(),
            )
        };
    }
    // An O() claim on the largest delay: its constant measured once the run is over.
    let z = largest.unwrap_or(0);
    let measured = largest.map(f64::from);
    let c = if b.value > 0.0 { f64::from(z) / b.value } else { 0.0 };
    let f = &b.formula;
    if p.over() {
        let line = format!(
            "the largest delay of the {delivered} packets delivered: {z} steps = {c:.1}·{f}, the measured constant c = \
             {c:.1}"
        );
        (
            Verdict::Measured,
            measured,
            line,
            format!("largest delay {z} = {c:.1}·{f}"),
        )
    } else {
        let line = format!("{}; largest delay so far {z} = {c:.1}·{f} — not yet decided", p.line());
        (Verdict::Pending, measured, line, format!("so far {z}"))
    }
}

/// The run's delays drawn as a histogram (the explain panel's): how many
/// delivered packets waited z steps, for every z up to the largest.
#[derive(Debug, Clone, Serialize)]
pub struct Delays {
    /// `counts[z]` = packets delivered so far that were delayed exactly z steps.
    pub counts: Vec<u32>,
    /// Packets delivered so far (the sum of `counts`).
    pub delivered: u32,
    /// All packets of the run.
    pub packets: u32,
    /// The largest delay so far.
    pub max: u32,
    /// The mean delay so far.
    pub mean: f64,
    /// The caption: "delay = arrival step − distance, over the 256 / 256 packets delivered: mean 1.2, largest 7".
    pub caption: String,
}

/// The delay histogram of `sim`, when one of `claims` (its algorithm's,
/// judged) is about packets' delays and applies; `None` otherwise.
pub(super) fn delays(sim: &Simulation, claims: &[ClaimStatus]) -> Option<Delays> {
    claims
        .iter()
        .any(|c| c.measure == Measure::PacketDelay && c.verdict != Verdict::NotApplicable)
        .then(|| histogram(sim))
}

/// The delay histogram of `sim` so far.
pub fn histogram(sim: &Simulation) -> Delays {
    let counts = sim.delay_counts();
    let delivered: u32 = counts.iter().sum();
    let total: u64 = counts.iter().enumerate().map(|(z, &c)| z as u64 * u64::from(c)).sum();
    let mean = if delivered == 0 {
        0.0
    } else {
        total as f64 / f64::from(delivered)
    };
    let max = counts.len().saturating_sub(1) as u32;
    let packets = sim.instance().packets.len() as u32;
    let caption = format!(
        "delay = arrival step − distance, over the {delivered} / {packets} packets delivered: mean {mean:.2}, largest {max}"
    );
    Delays {
        counts,
        delivered,
        packets,
        max,
        mean,
        caption,
    }
}

/// The tracked packet `packet`'s line for `claim`, a claim on every
/// packet's delay that applies to `sim` ([`super::packet_line`]).
pub(super) fn packet_line(sim: &Simulation, packet: u32, claim: &Claim) -> Option<String> {
    let &(s, d) = sim.instance().packets.get(packet as usize)?;
    let distance = sim.instance().topology.distance(s, d);
    let at = sim.engine().delivery_steps()[packet as usize];
    let arrived = (at != u32::MAX).then(|| at.saturating_sub(distance));
    if claim.formula != Formula::RoutesMet || claim.strength != Strength::AtMost {
        return Some(match arrived {
            Some(z) => format!("{}: delay {z} = arrival step {at} − distance {distance}", claim.name),
            None => format!(
                "{}: distance {distance}; its delay is decided when it arrives",
                claim.name
            ),
        });
    }
    // |S| of this packet alone: the packets whose routes share a link with its route.
    let all = routes(sim);
    let mine: std::collections::HashSet<u32> = all[packet as usize].iter().copied().collect();
    let met = all
        .iter()
        .enumerate()
        .filter(|&(q, r)| q != packet as usize && r.iter().any(|l| mine.contains(l)))
        .count();
    Some(match arrived {
        Some(z) if z as usize <= met => format!(
            "{}: |S| = {met} (packets whose routes share a link with its route); delay {z} = arrival step {at} − \
             distance {distance} ≤ {met} ✓",
            claim.name
        ),
        Some(z) => format!(
            "{}: |S| = {met}; delay {z} = arrival step {at} − distance {distance} > {met} ✗",
            claim.name
        ),
        None => format!(
            "{}: |S| = {met} (packets whose routes share a link with its route); its delay is decided when it arrives",
            claim.name
        ),
    })
}
