//! Queue smearing on a grid (Kaufmann–Sibeyn §7.5, Theorem 6; the
//! technique of Rajasekaran–Tsantilas that §3 "Smearing" sketches): the
//! packets parked on m adjacent nodes of a line are spread evenly over
//! those m nodes in O(m) steps.
//!
//! The paper cites the technique without spelling it out; this is our
//! design, every move and counter simulated:
//!
//! 1. **Blocks.** Every line of the grid along a smearing axis is cut into
//!    blocks of `m` consecutive nodes, coordinates [b·m, (b + 1)·m); the
//!    last block of a line may be shorter, and a line shorter than m is one
//!    block. On a torus the blocks are segments too (the wrap link is not
//!    used by the counters).
//! 2. **Counting** (m − 1 steps). Every node counts its own packets that
//!    are smeared along the axis (local, free). Along every block two
//!    counters travel at once, on opposite directed links: one from the
//!    first node to the last carrying the sum of the counts before the
//!    node it reaches, one from the last node to the first carrying the
//!    sum after it (SPEC §1: one control message per directed link per
//!    step; the blocks of one line and the lines of different axes use
//!    different links). After m − 1 steps every node knows the packets
//!    before it in its block (P), its own (c) and after it (S), so the
//!    block's total T = P + c + S. The counters are played by
//!    [`super::sweep::Sweeps`] and their values computed by
//!    [`super::sweep::carry`] over the same paths.
//! 3. **Ranks and targets** (local). A node orders its packets by the
//!    caller's key, then by id; its i-th packet has rank r = P + i in the
//!    block and is sent to the block's node ⌊r·L/T⌋ (L the block's
//!    length): node j of the block then receives the ranks in
//!    [j·T/L, (j + 1)·T/L), ⌊T/L⌋ or ⌈T/L⌉ packets, and the order of the
//!    packets along the line is kept.
//! 4. **Moving** (the engine). Each packet is routed to its target along
//!    the line by the engine, under the run's contention policy; the task
//!    is over when every packet is at its target. Order-preserving targets
//!    make the flow over a cut of the block the block's imbalance on one
//!    side of it, so with loads of k + O(√(k·log n / m)) per node
//!    (Lemma 1) the moves take the block's length plus that imbalance:
//!    O(m) steps.
//!
//! A packet that passes its destination on the way is delivered there
//! (SPEC §1), as in any phase. With m = 1 nothing is counted or moved: the
//! task takes no step.
//!
//! # Complexity
//! O(d·N + packets·log packets) to build; the task's steps cost what the
//! engine's cost.

use super::sweep::{carry, Paths, Sweeps};
use super::Task;
use crate::engine::Engine;
use crate::topology::{Grid, Network};

/// One packet to smear: along `axis`, placed among its node's packets by
/// `key` (then by id).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Item {
    /// The packet.
    pub packet: u32,
    /// The grid axis along which it is smeared.
    pub axis: usize,
    /// Its place among the packets of its node: smaller keys get smaller
    /// ranks, so they end up at smaller coordinates of the block.
    pub key: u32,
}

/// The counting sweeps, then the moves: a [`Task`].
#[derive(Debug, Clone)]
pub struct SmearTask {
    counting: Sweeps,
    moves: Vec<(u32, u32)>,
    moving: bool,
}

impl SmearTask {
    /// Smears `items` in blocks of `m` nodes (m ≥ 1) along their axes.
    pub fn new(e: &Engine, grid: &Grid, m: u32, items: &[Item]) -> SmearTask {
        let n = grid.nodes() as usize;
        let m = m.max(1);
        let mut axes: Vec<usize> = items.iter().map(|i| i.axis).collect();
        axes.sort_unstable();
        axes.dedup();
        // Per axis (in `axes` order) and node: its packets to smear along it.
        let slot = |axis: usize| axes.binary_search(&axis).expect("listed");
        let mut count = vec![0u64; axes.len() * n];
        let mut sorted: Vec<(usize, u32, u32, u32)> = Vec::with_capacity(items.len());
        for it in items {
            let v = e.position(it.packet);
            count[slot(it.axis) * n + v as usize] += 1;
            sorted.push((slot(it.axis), v, it.key, it.packet));
        }
        sorted.sort_unstable();
        let mut before = vec![0u64; axes.len() * n];
        let mut after = vec![0u64; axes.len() * n];
        let mut all = Paths::new();
        for (a, &axis) in axes.iter().enumerate() {
            let (forward, backward) = blocks(grid, axis, m);
            let cnt = &count[a * n..(a + 1) * n];
            let sum = |x: u64, y: u64| x + y;
            let own = |v: u32| cnt[v as usize];
            carry(&forward, sum, own, own, &mut before[a * n..(a + 1) * n]);
            carry(&backward, sum, own, own, &mut after[a * n..(a + 1) * n]);
            all.append(&forward);
            all.append(&backward);
        }
        let mut moves = Vec::with_capacity(items.len());
        let mut i = 0;
        while i < sorted.len() {
            let (a, v, _, _) = sorted[i];
            let at = a * n + v as usize;
            let axis = axes[a];
            let side = grid.dims()[axis];
            let c = grid.coord(v, axis);
            let (start, len) = block_of(c, side, m);
            let total = before[at] + count[at] + after[at];
            for (j, &(_, _, _, p)) in sorted[i..i + count[at] as usize].iter().enumerate() {
                let r = before[at] + j as u64;
                let to = start + (r * len as u64 / total) as u32;
                let stride = grid.stride(axis);
                moves.push((p, v - c * stride + to * stride));
            }
            i += count[at] as usize;
        }
        SmearTask {
            counting: Sweeps::on_network(vec![(all, 1)]),
            moves,
            moving: false,
        }
    }

    /// Steps the counting takes (the longest block's length − 1).
    pub fn counting_steps(&self) -> u32 {
        self.counting.duration()
    }

    /// Each packet's target, `(packet, node)`.
    pub fn targets(&self) -> &[(u32, u32)] {
        &self.moves
    }
}

/// The block holding coordinate `c` of a line of `side` nodes: its first
/// coordinate and its length.
fn block_of(c: u32, side: u32, m: u32) -> (u32, u32) {
    let start = c - c % m;
    (start, m.min(side - start))
}

/// The blocks of every line along `axis`, as paths: first to last node, and
/// last to first.
fn blocks(grid: &Grid, axis: usize, m: u32) -> (Paths, Paths) {
    let (side, stride) = (grid.dims()[axis], grid.stride(axis));
    let (mut forward, mut backward) = (Paths::new(), Paths::new());
    for base in 0..grid.nodes() {
        if grid.coord(base, axis) != 0 {
            continue;
        }
        let mut start = 0;
        while start < side {
            let len = m.min(side - start);
            let node = |j: u32| base + (start + j) * stride;
            forward.push((0..len).map(node));
            backward.push((0..len).rev().map(node));
            start += len;
        }
    }
    (forward, backward)
}

impl Task for SmearTask {
    fn poll(&mut self, e: &mut Engine) -> bool {
        if self.counting.poll(e) {
            return true;
        }
        if !self.moving {
            // The counters of the last counting step have arrived: the
            // targets are known from the step after it on.
            self.moving = true;
            for &(p, t) in &self.moves {
                if !e.is_delivered(p) {
                    e.set_target(p, t);
                }
            }
        }
        e.unsettled() > 0
    }
}

#[cfg(test)]
mod tests {
    use super::block_of;

    /// The exact smears of small blocks are in `tests/it/smear.rs`.
    #[test]
    fn blocks_cover_the_line() {
        assert_eq!(block_of(0, 10, 4), (0, 4));
        assert_eq!(block_of(7, 10, 4), (4, 4));
        assert_eq!(block_of(9, 10, 4), (8, 2));
        assert_eq!(block_of(5, 6, 16), (0, 6));
    }
}
