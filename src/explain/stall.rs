//! A stalled run explained: its wait-for cycle (SPEC §4 `deadlock`) in
//! words, each node with its place in the network, or what the stall is
//! when there is no cycle.

use super::Verdict;
use crate::simulation::Simulation;
use serde::Serialize;

/// Why a stalled run stalled.
#[derive(Debug, Clone, Serialize)]
pub struct Stall {
    /// The report's `deadlock`: the wait-for cycle's node ids (empty without one).
    pub nodes: Vec<u32>,
    /// The cycle as the page names it: "nodes 14 → 20 → 21 → 15 → 14" (empty without one).
    pub path: String,
    /// The explanation: "With queues of 1, these four nodes each wait for the next: …".
    pub text: String,
}

/// A small count in words ("four"), larger ones in digits.
fn count(n: usize) -> String {
    const WORDS: [&str; 11] = [
        "no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS.get(n).map_or_else(|| n.to_string(), |w| w.to_string())
}

/// The stall of `sim`, if it stalled.
pub(super) fn stall(sim: &Simulation) -> Option<Stall> {
    let nodes = sim.deadlock()?.to_vec();
    let step = sim.engine().step_count();
    let topo = &sim.instance().topology;
    let queues = match sim.config().queue_cap {
        Some(q) if sim.config().edge_queues => format!("queues of {q} on every incoming link"),
        Some(q) => format!("queues of {q}"),
        None => "unbounded queues".to_string(),
    };
    let Some(&first) = nodes.first() else {
        let text = if sim.config().queue_cap.is_some() {
            format!(
                "Stalled at step {step} with {queues}, but no cycle of full nodes waits on itself: the packets that \
                 block the others wait for no link — they have reached the target of their current phase or are \
                 held back by the algorithm — so nothing can move and the algorithm has nothing left to change."
            )
        } else {
            format!(
                "Stalled at step {step}: no packet can move and the algorithm has nothing left to change (the queues \
                 are unbounded, so no full queue blocks it)."
            )
        };
        return Some(Stall {
            nodes,
            path: String::new(),
            text,
        });
    };
    let ids: Vec<String> = nodes.iter().map(u32::to_string).collect();
    let path = format!("nodes {} → {first}", ids.join(" → "));
    let placed: Vec<String> = nodes
        .iter()
        .map(|&v| format!("{v} ({})", topo.describe_node(v)))
        .collect();
    let text = format!(
        "With {queues}, these {} nodes each wait for the next: {} → back to {first}. Each is full, and a packet in \
         it wants to move on to the next one, which is full too and refuses it; so none of them can ever move — a \
         deadlock (a wait-for cycle), and the run stalled at step {step}.",
        count(nodes.len()),
        placed.join(" → ")
    );
    Some(Stall { nodes, path, text })
}

/// A lesson's check that the run stalls on a wait-for cycle: the line and its verdict.
pub(super) fn stall_check(sim: &Simulation) -> (String, Verdict) {
    let q = sim
        .config()
        .queue_cap
        .map_or("unbounded".to_string(), |q| q.to_string());
    let claim = format!("with queues of {q} the run stalls on a cycle of full nodes, each waiting for the next");
    match (sim.status(), stall(sim)) {
        (_, Some(s)) if !s.nodes.is_empty() => (format!("{claim}: {} ✓", s.path), Verdict::Met),
        (_, Some(_)) => (format!("{claim}: it stalled without one ✗"), Verdict::NotMet),
        (crate::simulation::Status::Running, None) => (format!("{claim} — not yet decided"), Verdict::Pending),
        (status, None) => (format!("{claim}: the run is {} ✗", status.name()), Verdict::NotMet),
    }
}
