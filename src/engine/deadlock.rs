//! The wait-for cycle of a stalled run (SPEC §4 `deadlock`), read from
//! the engine's state as it stands: nothing is simulated.
//!
//! A node is *full* when its working queue holds q packets (SPEC §1
//! "Bounded queues"). There is a *wait-for edge* v → w when v and w are
//! full and some packet at v (eligible, undelivered, not scripted, away
//! from its target) makes its next hop to w and w would refuse it (w is not
//! the packet's destination, where it would be accepted). With edge queues
//! (one queue of q per incoming link) v is full when one of its queues
//! holds q packets, the packet must sit in a full queue of v's or wait at
//! its source v (as packets at their source count in a full node's queue
//! above; the queues audit of 2026-12-01 found a ring whose cycle ran
//! through a source packet that won its link every step and was refused,
//! reported as no cycle), and w counts as full towards v when its queue
//! for the link v → w holds q packets.
//!
//! The canonical cycle: v₀ is the smallest node that lies on a cycle of
//! wait-for edges (the smallest node of a strongly connected component
//! with an edge). A node may wait for several nodes (its packets head
//! different ways), so "following wait-for edges from v₀" is made a rule:
//! the cycle is the *shortest* cycle through v₀, and among those the one
//! whose node sequence from v₀ is smallest lexicographically (at every
//! node, the smallest next node that still lies on a shortest way back to
//! v₀). It is listed from v₀, which is its smallest id, in wait-for order.
//! When every node waits for one node only this is the one cycle reached
//! by following the edges from v₀. Cost: O(N + P) (counting sorts, one
//! strongly-connected-component pass, one breadth-first search).

use super::bids::tie_flip;
use super::{Engine, COMBINED, DELIVERED, DEPARTED, ELIGIBLE, FORCED};
use crate::topology::Network;

impl Engine {
    /// The wait-for cycle of the current state (see the module's text):
    /// node ids from the smallest, in wait-for order; empty when there is
    /// none (unbounded queues, or a stall of another kind).
    pub fn wait_for_cycle(&self) -> Vec<u32> {
        let Some(cap) = self.config.queue_cap else {
            return Vec::new();
        };
        let nodes = self.working.len();
        let ports = self.topo.ports();
        let full = |v: u32, w: u32, hop_port: u32| {
            if self.config.edge_queues {
                let link = (v * ports + hop_port) as usize;
                self.edge_occupancy.get(link).is_some_and(|&o| o >= cap)
            } else {
                self.working[v as usize] >= cap && self.working[w as usize] >= cap
            }
        };
        let mut edges: Vec<(u32, u32)> = Vec::new();
        let in_full_queue = |s: usize| {
            self.flags[s] & DEPARTED != 0
                && self
                    .edge_occupancy
                    .get(self.in_link[s] as usize)
                    .is_some_and(|&o| o >= cap)
        };
        // With edge queues: the nodes with a full queue.
        let mut full_node = vec![false; if self.config.edge_queues { nodes } else { 0 }];
        if self.config.edge_queues {
            for s in 0..self.scan_len {
                if self.flags[s] & (DELIVERED | COMBINED) == 0 && in_full_queue(s) {
                    full_node[self.pos[s] as usize] = true;
                }
            }
        }
        for s in 0..self.scan_len {
            let f = self.flags[s];
            if f & (DELIVERED | COMBINED | FORCED) != 0 || f & ELIGIBLE == 0 {
                continue;
            }
            let (v, target) = (self.pos[s], self.target[s]);
            // With edge queues the packet itself sits in a full queue, or
            // waits at its source at a node with one.
            if self.config.edge_queues && !in_full_queue(s) && (f & DEPARTED != 0 || !full_node[v as usize]) {
                continue;
            }
            let parity = super::ties(&self.id_of, &self.tie_of)[s] ^ tie_flip(f);
            let Some(hop) = self.topo.next_hop(v, target, parity, self.order) else {
                continue;
            };
            let accepted = hop.next == self.dest[s] && self.deliver_on_arrival;
            if !accepted && full(v, hop.next, hop.port) {
                edges.push((v, hop.next));
            }
        }
        canonical_cycle(nodes, &edges)
    }
}

/// The canonical cycle (see the module's text) of the graph on `nodes`
/// nodes with these directed edges (duplicates allowed).
pub fn canonical_cycle(nodes: usize, edges: &[(u32, u32)]) -> Vec<u32> {
    let (start, adj) = adjacency(nodes, edges, false);
    let Some(v0) = smallest_on_cycle(nodes, &start, &adj) else {
        return Vec::new();
    };
    // Distances to v0 along the edges: a breadth-first search on the reversed graph.
    let (rstart, radj) = adjacency(nodes, edges, true);
    let mut dist = vec![u32::MAX; nodes];
    dist[v0 as usize] = 0;
    let mut queue = std::collections::VecDeque::from([v0]);
    while let Some(u) = queue.pop_front() {
        for &x in &radj[rstart[u as usize]..rstart[u as usize + 1]] {
            if dist[x as usize] == u32::MAX {
                dist[x as usize] = dist[u as usize] + 1;
                queue.push_back(x);
            }
        }
    }
    // The shortest cycle through v0 has length 1 + min over v0's successors
    // of their distance back; walk it taking the smallest next node each time.
    let out = |u: u32| &adj[start[u as usize]..start[u as usize + 1]];
    let len = out(v0)
        .iter()
        .map(|&x| dist[x as usize])
        .min()
        .expect("v0 lies on a cycle")
        + 1;
    let mut cycle = vec![v0];
    let mut u = v0;
    for left in (1..len).rev() {
        u = *out(u)
            .iter()
            .find(|&&x| dist[x as usize] == left)
            .expect("a shortest way back continues");
        cycle.push(u);
    }
    cycle
}

/// Compressed adjacency lists (`start`, `targets`), each list ascending and
/// without duplicates (two stable counting sorts: by the far end, then by
/// the near one); `reversed` swaps every edge.
fn adjacency(nodes: usize, edges: &[(u32, u32)], reversed: bool) -> (Vec<usize>, Vec<u32>) {
    let pairs: Vec<(u32, u32)> = edges
        .iter()
        .map(|&(a, b)| if reversed { (b, a) } else { (a, b) })
        .collect();
    let by_far = counting_sort(nodes, &pairs, |e| e.1);
    let sorted = counting_sort(nodes, &by_far, |e| e.0);
    let mut start = vec![0usize; nodes + 1];
    let mut targets = Vec::with_capacity(sorted.len());
    let mut last = None;
    for &e in &sorted {
        if last != Some(e) {
            targets.push(e.1);
            start[e.0 as usize + 1] += 1;
            last = Some(e);
        }
    }
    for v in 0..nodes {
        start[v + 1] += start[v];
    }
    (start, targets)
}

/// A stable counting sort of `items` by `key` (< `nodes`).
fn counting_sort(nodes: usize, items: &[(u32, u32)], key: impl Fn(&(u32, u32)) -> u32) -> Vec<(u32, u32)> {
    let mut count = vec![0usize; nodes + 1];
    for e in items {
        count[key(e) as usize + 1] += 1;
    }
    for v in 0..nodes {
        count[v + 1] += count[v];
    }
    let mut out = vec![(0, 0); items.len()];
    for &e in items {
        let k = key(&e) as usize;
        out[count[k]] = e;
        count[k] += 1;
    }
    out
}

/// The smallest node in a strongly connected component that holds an
/// edge (iterative Tarjan; there are no self-loops, a hop always leaves
/// its node, so that is a component of two or more nodes).
fn smallest_on_cycle(nodes: usize, start: &[usize], adj: &[u32]) -> Option<u32> {
    const UNSEEN: u32 = u32::MAX;
    let mut index = vec![UNSEEN; nodes];
    let mut low = vec![0u32; nodes];
    let mut on_stack = vec![false; nodes];
    let mut stack: Vec<u32> = Vec::new();
    let mut next_index = 0u32;
    let mut best: Option<u32> = None;
    // Frames of the depth-first search: (node, position in its list).
    let mut frames: Vec<(u32, usize)> = Vec::new();
    for root in 0..nodes as u32 {
        if index[root as usize] != UNSEEN || start[root as usize] == start[root as usize + 1] {
            continue;
        }
        frames.push((root, start[root as usize]));
        index[root as usize] = next_index;
        low[root as usize] = next_index;
        next_index += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut at)) = frames.last_mut() {
            if *at < start[v as usize + 1] {
                let w = adj[*at];
                *at += 1;
                if index[w as usize] == UNSEEN {
                    index[w as usize] = next_index;
                    low[w as usize] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w as usize] = true;
                    frames.push((w, start[w as usize]));
                } else if on_stack[w as usize] {
                    low[v as usize] = low[v as usize].min(index[w as usize]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent as usize] = low[parent as usize].min(low[v as usize]);
            }
            if low[v as usize] == index[v as usize] {
                let (mut size, mut smallest) = (0, v);
                loop {
                    let w = stack.pop().expect("the component's nodes are on the stack");
                    on_stack[w as usize] = false;
                    size += 1;
                    smallest = smallest.min(w);
                    if w == v {
                        break;
                    }
                }
                if size > 1 {
                    best = Some(best.map_or(smallest, |b| b.min(smallest)));
                }
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::canonical_cycle;

    #[test]
    fn the_shortest_then_smallest_cycle_through_the_smallest_node() {
        // One cycle; then a second one whose smallest node is smaller.
        let ring = [(5, 6), (6, 10), (10, 9), (9, 5)];
        assert_eq!(canonical_cycle(16, &ring), vec![5, 6, 10, 9]);
        let mut two = ring.to_vec();
        two.extend([(3, 2), (2, 3)]);
        assert_eq!(canonical_cycle(16, &two), vec![2, 3]);
        // Out-degree 2 at 1: 1 → 7 → 1 is shorter than 1 → 2 → 3 → 1.
        let branch = [(1, 2), (2, 3), (3, 1), (1, 7), (7, 1), (0, 1)];
        assert_eq!(canonical_cycle(8, &branch), vec![1, 7]);
        // Two shortest: 1 → 4 → 1 and 1 → 2 → 1: the smaller next node.
        assert_eq!(
            canonical_cycle(8, &[(1, 4), (4, 1), (1, 2), (2, 1), (2, 1)]),
            vec![1, 2]
        );
        // No cycle: a path.
        assert!(canonical_cycle(8, &[(1, 2), (2, 3), (0, 1)]).is_empty());
        assert!(canonical_cycle(8, &[]).is_empty());
    }
}
