//! Moving packets along Hamiltonian cycles: the tours of
//! Pietracaprina–Pucci §3.1 Step 2.(c).ii and §3.2 Step 2.(d) (every packet
//! rides the cycle of its tile until it passes its destination), and greedy
//! balancing on a ring (§3.2 proof of Theorem 4, §4 Step 2.(a).i).
//!
//! Each packet goes the shorter way round its cycle (full-duplex links: the
//! cycle is used in both directions at once). Every step each node forwards
//! at most one packet each way (scripted moves): a packet that arrived on
//! the cycle first (FIFO), else the one of those that start at this node
//! with the farthest to go. So a node
//! receives at most one packet per direction per step and forwards one while
//! it has any: the packets in transit at a node never exceed
//! max(1, what it started with) per direction, plus those parked there.

use super::geometry::{comb_index, comb_rc, Mesh, Tiles};
use super::Task;
use crate::engine::Engine;
use std::collections::VecDeque;

/// Cycles through nodes: each node's successor, predecessor, position on
/// its cycle and the cycle's length.
#[derive(Debug, Clone)]
pub struct Cycles {
    succ: Vec<u32>,
    pred: Vec<u32>,
    pos: Vec<u32>,
    len: Vec<u32>,
}

impl Cycles {
    /// Builds the maps from each node's cycle, length and position function.
    fn build(mesh: Mesh, at: impl Fn(u32) -> (u32, u32), node: impl Fn(u32, u32) -> u32) -> Cycles {
        let n = mesh.nodes() as usize;
        let mut c = Cycles {
            succ: vec![0; n],
            pred: vec![0; n],
            pos: vec![0; n],
            len: vec![0; n],
        };
        for v in 0..mesh.nodes() {
            let (i, len) = at(v);
            c.succ[v as usize] = node(v, (i + 1) % len);
            c.pred[v as usize] = node(v, (i + len - 1) % len);
            c.pos[v as usize] = i;
            c.len[v as usize] = len;
        }
        c
    }
    /// Position of `v` on its cycle.
    pub fn pos(&self, v: u32) -> u32 {
        self.pos[v as usize]
    }
    /// Length of the cycle through `v`.
    pub fn len(&self, v: u32) -> u32 {
        self.len[v as usize]
    }
}

/// The Hamiltonian cycles inside every tile of `tiles`.
pub fn tile_cycles(tiles: &Tiles, mesh: Mesh) -> Cycles {
    let len = tiles.tile_nodes();
    Cycles::build(
        mesh,
        |v| (tiles.cycle_pos(v), len),
        |v, i| tiles.cycle_node(tiles.tile_of(v), i),
    )
}

/// The comb cycles of the stripes of `h` consecutive rows (h even, or the mesh is one node).
pub fn stripe_cycles(mesh: Mesh, h: u32) -> Cycles {
    let w = mesh.side();
    let at = |v: u32| {
        let (r, c) = mesh.rc(v);
        (comb_index(h, w, r % h, c), h * w)
    };
    let node = |v: u32, i: u32| {
        let (r, _) = mesh.rc(v);
        let (nr, nc) = comb_rc(h, w, i);
        mesh.node(r - r % h + nr, nc)
    };
    Cycles::build(mesh, at, node)
}

/// Packets riding cycles to their targets (a [`Task`]).
#[derive(Clone)]
pub struct RingTask {
    mesh: Mesh,
    cycles: Cycles,
    target: Vec<u32>,
    /// Per node and direction (0 forward, 1 backward).
    transit: Vec<[VecDeque<u32>; 2]>,
    initial: Vec<[Vec<u32>; 2]>,
    moving: Vec<(u32, u32, usize)>,
    remaining: u32,
    tour: bool,
    /// Arrivals scheduled this step per node (bounded queues), and the
    /// nodes with any.
    incoming: Vec<u32>,
    touched: Vec<u32>,
}

impl RingTask {
    /// Moves every `(packet, target)` the shorter way along its cycle until
    /// it reaches its target (which must be on its cycle). With `tour`,
    /// targets are destinations: delivery on arrival is switched on for the
    /// task, and packets already at their destination are delivered at once.
    pub fn new(e: &mut Engine, mesh: Mesh, cycles: Cycles, moves: &[(u32, u32)], tour: bool) -> RingTask {
        let n = mesh.nodes() as usize;
        let mut target = vec![u32::MAX; e.packet_count() as usize];
        let mut initial = vec![[Vec::new(), Vec::new()]; n];
        let mut remaining = 0;
        let mut arrived = Vec::new();
        for &(p, t) in moves {
            let v = e.position(p);
            if v == t {
                // (A tour's packets already home were handed over as the step before ended: `Pp::hand_over`.)
                arrived.push(p);
                continue;
            }
            target[p as usize] = t;
            let len = cycles.len(v);
            let ahead = (cycles.pos(t) + len - cycles.pos(v)) % len;
            initial[v as usize][(ahead > len - ahead) as usize].push(p);
            remaining += 1;
        }
        if tour {
            e.deliver_many(&arrived);
        }
        // A node's own packets leave farthest first (popped from the back;
        // ties in the order listed).
        for (v, lists) in initial.iter_mut().enumerate() {
            let (pos, len) = (cycles.pos(v as u32), cycles.len(v as u32));
            for (dir, list) in lists.iter_mut().enumerate() {
                let togo = |p: &u32| {
                    let t = cycles.pos(target[*p as usize]);
                    if dir == 0 {
                        (t + len - pos) % len
                    } else {
                        (pos + len - t) % len
                    }
                };
                list.reverse();
                list.sort_by_key(togo); // stable: ties keep the listed order, reversed
            }
        }
        if tour {
            e.set_deliver_on_arrival(true);
        }
        RingTask {
            mesh,
            cycles,
            target,
            transit: vec![[VecDeque::new(), VecDeque::new()]; n],
            initial,
            moving: Vec::new(),
            remaining,
            tour,
            incoming: vec![0; n],
            touched: Vec::new(),
        }
    }
}

impl Task for RingTask {
    fn poll(&mut self, e: &mut Engine) -> bool {
        for &(p, to, dir) in &self.moving {
            if e.is_delivered(p) || to == self.target[p as usize] {
                self.remaining -= 1;
            } else {
                self.transit[to as usize][dir].push_back(p);
            }
        }
        self.moving.clear();
        if self.remaining == 0 {
            if self.tour {
                e.set_deliver_on_arrival(false);
            }
            return false;
        }
        // Bounded node queues (`--queue-cap`): a node takes at most
        // cap − (its queue at the start of the step) arrivals, as the engine
        // does for routed packets; a packet that would overfill waits (a
        // packet arriving at its destination on a tour is delivered and
        // always accepted). Edge queues are not checked here.
        let config = e.config();
        let cap = if config.edge_queues { None } else { config.queue_cap };
        for v in 0..self.mesh.nodes() {
            let vi = v as usize;
            for dir in 0..2 {
                let transit = !self.transit[vi][dir].is_empty();
                let p = match (self.transit[vi][dir].front(), self.initial[vi][dir].last()) {
                    (Some(&p), _) | (None, Some(&p)) => p,
                    (None, None) => continue,
                };
                let to = if dir == 0 {
                    self.cycles.succ[vi]
                } else {
                    self.cycles.pred[vi]
                };
                if let Some(cap) = cap {
                    let delivered = self.tour && self.target[p as usize] == to;
                    if !delivered {
                        if e.working_queues()[to as usize] + self.incoming[to as usize] >= cap {
                            continue;
                        }
                        if self.incoming[to as usize] == 0 {
                            self.touched.push(to);
                        }
                        self.incoming[to as usize] += 1;
                    }
                }
                if transit {
                    self.transit[vi][dir].pop_front();
                } else {
                    self.initial[vi][dir].pop();
                }
                let ok = e.force_move(p, self.mesh.port(v, to));
                debug_assert!(ok, "ring move of packet {p} from {v} refused");
                self.moving.push((p, to, dir));
            }
        }
        for v in self.touched.drain(..) {
            self.incoming[v as usize] = 0;
        }
        true
    }
}
