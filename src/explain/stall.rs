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
    /// The cycle's ids in wait-for order: "14 → 20 → 21 → 15" (empty without one).
    pub path: String,
    /// One line whose only numbers are the cycle's node ids (the page's
    /// `data-role="deadlock"`): "Deadlock: with queues of one, these four
    /// full nodes each wait for the next, the last for the first: 14 → 20 → 21 → 15."
    pub headline: String,
    /// The explanation: each node with its place, and why none can move.
    pub text: String,
}

/// A small count in words ("four"), larger ones in digits.
fn count(n: u32) -> String {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    WORDS.get(n as usize).map_or_else(|| n.to_string(), |w| w.to_string())
}

/// The stall of `sim`, if it stalled.
pub(super) fn stall(sim: &Simulation) -> Option<Stall> {
    let nodes = sim.deadlock()?.to_vec();
    let step = sim.engine().step_count();
    // The report's `steps` (`Simulation::steps`): the step that moved nothing is not counted.
    let moved = sim.steps();
    let topo = &sim.instance().topology;
    let queues = match sim.config().queue_cap {
        Some(q) if sim.config().edge_queues => format!("queues of {} on every incoming link", count(q)),
        Some(q) => format!("queues of {}", count(q)),
        None => "unbounded queues".to_string(),
    };
    if let Some(r) = sim.engine().script_refused() {
        let text =
            format!(
            "{}'s schedule moves its packets by script (sorts, deals, tours), and a script cannot wait. In step {} \
             it would move {} into node {} ({}), which held {} at the start of the step: with {queues} a \
             node accepts at most q − (its queue at the step's start) = {} arriving packets (SPEC §1). So that \
             step moves nothing and the run stalls (the report counts {moved} steps); a larger q lets it run.",
            sim.config().algorithm,
            r.step,
            if r.arrivals == 1 { "1 packet".to_string() } else { format!("{} packets", r.arrivals) },
            r.node,
            topo.describe_node(r.node),
            r.held,
            r.room,
        );
        return Some(Stall {
            nodes,
            path: String::new(),
            headline: format!(
                "Stalled with {queues}: the schedule needs room for {} at node {}, which has room for {}.",
                r.arrivals, r.node, r.room
            ),
            text,
        });
    }
    let Some(&first) = nodes.first() else {
        let text = if sim.config().queue_cap.is_some() {
            "No cycle of full nodes waits on itself: the packets that block the others wait for no link — they \
             have reached the target of their current phase or are held back by the algorithm — so nothing can \
             move and the algorithm has nothing left to change."
        } else {
            "No packet can move and the algorithm has nothing left to change (the queues are unbounded, so no full \
             queue blocks it)."
        };
        return Some(Stall {
            nodes,
            path: String::new(),
            headline: format!("Stalled with {queues}, without a deadlock cycle."),
            text: text.to_string(),
        });
    };
    let path = nodes.iter().map(u32::to_string).collect::<Vec<_>>().join(" → ");
    let headline = format!(
        "Deadlock: with {queues}, these {} full nodes each wait for the next, the last for the first: {path}.",
        count(nodes.len() as u32)
    );
    let placed: Vec<String> = nodes
        .iter()
        .map(|&v| format!("{v} ({})", topo.describe_node(v)))
        .collect();
    let text = format!(
        "Node {} → {first}: each is full and holds a packet that wants the next, which is full too and refuses \
         it; so none of them can ever move — a wait-for cycle: step {step} moved nothing and the run stalled \
         (the report counts {moved} steps: the one that moved nothing is not counted).",
        placed.join(" → ")
    );
    Some(Stall {
        nodes,
        path,
        headline,
        text,
    })
}

/// A lesson's check that the run stalls on a wait-for cycle: the line, its verdict and what it checks.
pub(super) fn stall_check(sim: &Simulation) -> super::CheckLine {
    let q = sim
        .config()
        .queue_cap
        .map_or("unbounded".to_string(), |q| q.to_string());
    let claim = format!("with queues of {q} the run stalls on a cycle of full nodes, each waiting for the next");
    let (text, verdict) = match (sim.status(), stall(sim)) {
        (_, Some(s)) if !s.nodes.is_empty() => (format!("{claim}: nodes {} ✓", s.path), Verdict::Met),
        (_, Some(_)) => (format!("{claim}: it stalled without one ✗"), Verdict::NotMet),
        (crate::simulation::Status::Running, None) => (format!("{claim} — not yet decided"), Verdict::Pending),
        (status, None) => (format!("{claim}: the run is {} ✗", status.name()), Verdict::NotMet),
    };
    super::CheckLine {
        short: String::new(),
        text,
        verdict,
        what: claim,
    }
}
