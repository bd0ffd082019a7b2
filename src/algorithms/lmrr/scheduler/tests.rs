//! §2.2's rules on small hand-made leveled networks, step by step.

use super::*;
use crate::algorithms::lmrr::leveled::{Description, OutEdge};

/// A leveled network given by lists: `levels[v]` and `edges` (tail,
/// head); node v is hosted by real node v, and an edge's port is its
/// index among its tail's out-edges.
struct Small {
    levels: Vec<u32>,
    edges: Vec<(u32, u32)>,
}

impl Description for Small {
    fn count(&self) -> u32 {
        self.levels.len() as u32
    }
    fn level(&self, v: u32) -> u32 {
        self.levels[v as usize]
    }
    fn host(&self, v: u32) -> u32 {
        v
    }
    fn out_edges(&self, v: u32, out: &mut Vec<OutEdge>) {
        let heads = self.edges.iter().filter(|e| e.0 == v).map(|e| e.1);
        for (port, head) in heads.enumerate() {
            out.push(OutEdge {
                head,
                port: port as u32,
                substep: 0,
            });
        }
    }
}

/// A scheduler (checks on) for packets given as (node path, rank);
/// engine id i for packet i.
fn scheduler(net: &Small, packets: &[(&[u32], u32)], q: u32) -> Scheduler {
    let levels = net.levels.iter().copied();
    let hi = levels.clone().max().unwrap();
    let leveled = Leveled::build(net, levels.min().unwrap(), hi);
    let mut paths = Paths::default();
    let (mut ids, mut rank, mut dest) = (Vec::new(), Vec::new(), Vec::new());
    for (i, (nodes, r)) in packets.iter().enumerate() {
        let mut edges = Vec::new();
        let d = *nodes.last().unwrap();
        let start = leveled.path_edges(nodes, d, &mut edges).unwrap();
        paths.push(start, &edges);
        ids.push(i as u32);
        rank.push(*r);
        dest.push(d);
    }
    let problem = Problem {
        net: Arc::new(leveled),
        paths: Arc::new(paths),
        ids,
        rank,
        dest,
        stages: vec![("route", u32::MAX)],
    };
    Scheduler::new(problem, q, false, true)
}

/// The last step's messages as (from, port, what): what is the packet's
/// id, or -1 for a ghost, -2 for EOS.
fn sent(s: &Scheduler) -> Vec<(u32, u32, i64)> {
    let mut out: Vec<_> = s
        .messages(0)
        .iter()
        .map(|m| {
            let what = match (m.packet, m.kind) {
                (NONE, ControlKind::Ghost) => -1,
                (NONE, _) => -2,
                (p, _) => p as i64,
            };
            (m.node, m.port, what)
        })
        .collect();
    out.sort();
    out
}

// w → x → b ← a → c, b → d: levels w 0, x 1, a 1, b 2, c 2, d 3.
// Nodes: w 0, x 1, a 2, b 3, c 4, d 5. Ports: a → b is a's 0, a → c its 1.
fn fork() -> Small {
    Small {
        levels: vec![0, 1, 1, 2, 2, 3],
        edges: vec![(0, 1), (1, 3), (2, 3), (2, 4), (3, 5)],
    }
}

/// A node waits while one of its edge queues is empty (§2.2: "if any of
/// these queues are empty, then the node does nothing"); a ghost goes on
/// every other edge whose queue held fewer than q, and not on one that
/// held q (§2.2: "provided that their edge queues contained fewer than
/// q packets at the beginning of the step").
#[test]
fn a_node_waits_for_every_queue_and_ghosts_need_room() {
    let net = fork();
    // Packets 0 and 1 from a to d through b, packet 2 from a to c.
    let mut s = scheduler(&net, &[(&[2, 3, 5], 1), (&[2, 3, 5], 2), (&[2, 4], 3)], 2);
    // Step 1: w has no packets: EOS on its edge; a sends packet 0 to b and
    // a ghost of it to c; b waits (x → b is empty).
    assert!(s.step());
    assert_eq!(sent(&s), vec![(0, 0, -2), (2, 0, 0), (2, 1, -1)]);
    assert_eq!(
        s.counts().ghosts,
        0,
        "counted as the engine carries them, not when decided"
    );
    s.count_sent(0);
    // Step 2: x forwards the EOS; a sends packet 1 to b, a ghost to c;
    // b still waits, though a → b is not empty.
    assert!(s.step());
    assert_eq!(sent(&s), vec![(1, 0, -2), (2, 0, 1), (2, 1, -1)]);
    s.count_sent(0);
    assert_eq!(s.packets_in(2), 2, "a → b holds packets 0 and 1");
    // Step 3: a → b held q = 2 at the step's start: a sends packet 2
    // (delivered at c) and no ghost to b; b forwards packet 0 (its
    // other queue shows EOS) and its ghost goes nowhere else.
    assert!(s.step());
    assert_eq!(sent(&s), vec![(2, 1, 2), (3, 0, 0)]);
    s.count_sent(0);
    assert_eq!((s.counts().ghosts, s.counts().eos), (2, 2));
}

/// Equal ranks: the smaller destination first (§2.2: "ties in rank are
/// broken according to destination address"), in the initial queue and
/// between edge queues.
#[test]
fn equal_ranks_go_by_destination() {
    // a (0) → b (1) → c (2), b → d (3), d → e (4); every rank 5.
    // Packets from a: to e (4) first in input order, then to c (2).
    let net = Small {
        levels: vec![0, 1, 2, 2, 3],
        edges: vec![(0, 1), (1, 2), (1, 3), (3, 4)],
    };
    let mut s = scheduler(&net, &[(&[0, 1, 3, 4], 5), (&[0, 1, 2], 5)], 2);
    s.step();
    assert_eq!(sent(&s), vec![(0, 0, 1)], "destination 2 before destination 4");
    s.step();
    assert_eq!(sent(&s), vec![(0, 0, 0), (1, 0, 1), (1, 1, -1)]);
}

/// End-of-stream: selected only when it heads every queue, then sent on
/// every outgoing edge with room, and nothing follows it on that edge.
#[test]
fn eos_is_selected_last_and_closes_each_edge_once() {
    let net = fork();
    let mut s = scheduler(&net, &[(&[2, 3, 5], 1), (&[2, 3, 5], 2), (&[2, 4], 3)], 2);
    let mut eos_on = vec![0u32; net.edges.len()];
    let mut after_eos = 0;
    for _ in 0..20 {
        s.step();
        for (node, port, what) in sent(&s) {
            let e = net
                .edges
                .iter()
                .enumerate()
                .filter(|(_, e)| e.0 == node)
                .nth(port as usize)
                .unwrap()
                .0;
            if eos_on[e] > 0 {
                after_eos += 1;
            }
            eos_on[e] += (what == -2) as u32;
        }
    }
    assert_eq!(s.remaining(), 0);
    assert_eq!(eos_on, vec![1; net.edges.len()], "one EOS per edge");
    assert_eq!(after_eos, 0, "nothing after EOS on an edge");
    // a's EOS waits for its packets: it is not sent before packet 2.
    assert!(s.finished.iter().all(|&f| f));
}
