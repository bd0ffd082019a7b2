//! One scheduled round on a real network, the two halves every user of the
//! §2.2 scheduler shares (`lmrr`'s rounds and `flashsort`'s routings):
//! laying fixed paths out on a leveled network ([`lay_out`]), and carrying
//! out a logical step's messages on the engine ([`carry_out`]).

use super::leveled::{Description, Leveled, Paths};
use super::scheduler::Scheduler;
use crate::algorithms::EdgeQueues;
use crate::engine::Engine;

/// Paths laid out on the levels they use.
pub struct Laid {
    /// The leveled network, cut to levels `lo..=hi`.
    pub net: Leveled,
    /// One path (as leveled edges) per packet kept.
    pub paths: Paths,
    /// Engine id of each packet kept.
    pub ids: Vec<u32>,
    /// Engine destination of each packet kept.
    pub dest: Vec<u32>,
    /// The lowest level a path touches.
    pub lo: u32,
    /// The highest level a path touches.
    pub hi: u32,
}

/// Lays `packets` (engine id, path as full logical node ids of `desc`) out
/// on the levels of `desc` they touch. A packet whose path has no edge (it
/// already stands where the round ends) is left out; `None` when none is
/// left.
pub fn lay_out(desc: &dyn Description, packets: &[(u32, Vec<u32>)], engine: &Engine) -> Option<Laid> {
    // Levels below every start and above every end carry nothing.
    let level = |v: &u32| desc.level(*v);
    let lo = packets
        .iter()
        .filter_map(|(_, path)| path.iter().map(level).min())
        .min()
        .unwrap_or(0);
    let hi = packets
        .iter()
        .filter_map(|(_, path)| path.iter().map(level).max())
        .max()
        .unwrap_or(0);
    let net = Leveled::build(desc, lo, hi);
    let mut paths = Paths::default();
    let (mut ids, mut dest) = (Vec::new(), Vec::new());
    let mut edges = Vec::new();
    for (p, nodes) in packets {
        edges.clear();
        // A round ends at its path's last host: the destination, or where
        // the packet's next round starts.
        let end = desc.host(*nodes.last().expect("a path has a node"));
        let start = net
            .path_edges(nodes, end, &mut edges)
            .expect("the path lies in the levels kept");
        if edges.is_empty() {
            continue;
        }
        paths.push(start, &edges);
        ids.push(*p);
        dest.push(engine.destination(*p));
    }
    (!ids.is_empty()).then_some(Laid {
        net,
        paths,
        ids,
        dest,
        lo,
        hi,
    })
}

/// Puts the messages of `round`'s last logical step for real step
/// `substep` on the engine: packets by scripted moves, ghosts and
/// end-of-stream markers as control messages, each taking its link.
pub fn carry_out(round: &mut Scheduler, substep: u8, engine: &mut Engine) {
    round.count_sent(substep as usize);
    for m in round.messages(substep as usize) {
        let ok = if m.packet != super::leveled::NONE {
            debug_assert_eq!(engine.position(m.packet), m.node);
            engine.force_move(m.packet, m.port)
        } else {
            engine.send_control_as(m.node, m.port, m.kind)
        };
        assert!(ok, "lmrr: link ({}, port {}) taken twice in one step", m.node, m.port);
    }
}

/// Adds `round`'s edge queues to `queues` (one entry per directed link,
/// `ports` per node): each leveled edge's packets, and its room of q, on
/// the real link it uses; internal edges (the hypercube's emulation) on none.
pub fn add_edge_occupancy(round: &Scheduler, ports: u32, queues: &mut EdgeQueues) {
    let net = &round.problem().net;
    for e in 0..net.edges() {
        let port = net.port[e as usize];
        if port != super::leveled::NONE {
            let link = (net.host[net.tail[e as usize] as usize] * ports + port) as usize;
            queues.occupancy[link] += round.packets_in(e);
            queues.room[link] += queues.cap;
        }
    }
}
