//! Pipelined prefix ranking whose counters carry their values: the
//! colouring of Pietracaprina–Pucci §4 (proof of Theorem 5, and "techniques
//! akin to" it for the ℓ > k colouring before Theorem 6).
//!
//! Every item (a packet) sits at a node and belongs to a group (its
//! destination tile); there are `width` groups, one counter per group, and
//! the counters are pipelined: counter i enters every path `period` steps
//! after counter i − 1. Each control message crosses one link in one step
//! carrying one counter's value. A node computes what it sends from what it
//! received in the step before (at most `period` steps before) plus, where
//! the scheme says so, its own number of items of that counter's group,
//! counted from the items it holds; when a message is addressed to it, it
//! adds the value to the partial ranks of its own items of that group. So a
//! node remembers only its items' partial ranks, and a value lives on a link
//! for one step and in a queue for at most `period` steps: memory O(items +
//! links). The rank of an item is read off its partial rank once the task
//! is over: the items of its group at nodes before its node in the order,
//! plus the items of its group listed before it at its own node.
//!
//! # The schemes
//!
//! Row-major order ([`Order::RowMajor`] with block 1, or one block covering
//! the mesh), exactly the proof of Theorem 5: in row r counter i starts at
//! the first node in step r + i + 1 (rows skewed by one step) and travels
//! east; each node stores the value it receives (the items of the group
//! before it in its row) and forwards it plus its own count. The last node
//! of row r > 0 receives from the north the count of the rows above, sends
//! it west (each node of the row adds it to its stored value) and sends it
//! plus its row's total south. Every directed link carries one role, so the
//! counters enter one step apart (`period` 1) and a node never holds more
//! than two counters. Steps: 3(side − 1) + width − 1.
//!
//! Blocks of side u (1 < u < side) in row-major order, row-major inside
//! each block (§3.2 Step 2.(a): every s-tile an interval). The paper gives
//! no scheme; this one is the same scheme on the grid of blocks, every block
//! a node:
//! - inside every block, the row-major scheme above (the item's place inside
//!   its block), which also brings the block's total to its bottom-right
//!   corner;
//! - east relay along every stripe of u rows: the corner of block b sends
//!   (the blocks before b) + (b's total) east along the next block's bottom
//!   row to its corner; every node of that row stores it and sends it north
//!   up its column;
//! - south relay down the last column: the last corner of stripe j adds the
//!   stripe's total to the count of the stripes above it and sends it down
//!   to the last corner of stripe j + 1; the last-column nodes of stripe
//!   j + 1 store it on the way;
//! - west relay: that corner sends the count of the stripes above west along
//!   the stripe's bottom row; every node stores it and sends it north.
//!
//! Blocks and stripes are skewed so that every combination is made as the
//! values arrive (no value waits for more than one extra step). Two roles
//! share some links (the bottom rows east and west, the last column south,
//! the columns north), so the counters enter two steps apart (`period` 2)
//! and the roles of a link use steps of opposite parity. Steps:
//! 3·side + u − 2 + 2(width − 1); at most four counters wait at a node.
//!
//! Stripes of h rows ([`PrefixRanking::stripes`]), group after group inside
//! each stripe (the ℓ ≤ k colouring of `pp-det`: every stripe's packets are
//! ranked by (destination tile, source), so that a colour class has at most
//! ⌈(the stripe's packets)/ℓ⌉ packets in a stripe). Every stripe runs the
//! row-major scheme above on its own h×side rectangle, all at once; its
//! bottom-right corner then has the stripe's count of each group, counter
//! after counter, and keeps their running sum (one register): it sends the
//! count of the groups before group i north up the last column, west along
//! the stripe's first row and south down every other column, and every
//! node adds it to its items of group i. These links (north in the last
//! column, west in the first row, south off the last column) carry no other
//! role, so `period` stays 1. Steps: 2·side + 3h − 5 + width − 1 (h ≥ 2);
//! at most three counters wait at a node (one from each of the row scheme's
//! two passes and one offset).
//!
//! The schedule is checked when it is built (debug builds, and the unit
//! tests): inputs arrive 1 to `period` steps before they are used, and no
//! directed link is used twice in a step.

use super::geometry::Mesh;
use super::scan::Order;
use super::Task;
use crate::engine::Engine;
use schemes::Builder;

mod schemes;

const NONE: u32 = u32::MAX;
/// Hops are played in buckets of this many consecutive steps, each bucket
/// in node order (for memory locality).
const BUCKET: u32 = 32;

/// One role of one directed link: counter i crosses it in step t + period·i.
#[derive(Debug, Clone, Copy)]
struct Hop {
    t: u32,
    from: u32,
    to: u32,
    port: u8,
    /// The sender adds its own count of the counter's group.
    own: bool,
    /// The receiver adds the value to its items' partial ranks.
    absorb: bool,
    /// Hops whose values (received by `from`) this hop adds up.
    inputs: [u32; 4],
    /// The sender keeps a running sum of what the earlier counters brought
    /// (inputs plus own count) and sends that sum instead: counter i's value
    /// is the total of the groups before group i (one register at the node).
    acc: bool,
    /// The sender adds the value it sends to its own items' partial ranks.
    keep: bool,
}

/// A pipelined prefix ranking in progress (Pietracaprina–Pucci §4, proof of
/// Theorem 5): a [`Task`] whose control messages carry the counters' values
/// (module doc).
#[derive(Debug, Clone)]
pub struct PrefixRanking {
    width: u32,
    period: u32,
    /// Sorted by (t mod period, t / BUCKET, sender); `class[k]..class[k + 1]` have t ≡ k.
    hops: Vec<Hop>,
    class: Vec<usize>,
    /// Per hop: the values of its last two counters (slot i mod 2).
    val: Vec<[u32; 2]>,
    /// Per hop with `acc`: the running sum of its earlier counters.
    reg: Vec<u32>,
    /// Per hop: where the sender's (`own`) and the receiver's (`absorb`)
    /// lookups stand in their lists of groups (counters come in order), and
    /// where those lists end.
    own_at: Vec<(u32, u32)>,
    absorb_at: Vec<(u32, u32)>,
    /// Per node, its groups (group, first slot, count), node after node.
    groups: Vec<(u32, u32, u32)>,
    /// Per slot (items by node, group, input order): the partial rank.
    partial: Vec<u32>,
    /// Per item: its slot.
    slot: Vec<u32>,
    /// (step, most counters waiting at a node at the end of any step up to
    /// it), where that maximum grows; `marks[next..]` not yet reached.
    marks: Vec<(u32, u32)>,
    next: usize,
    duration: u32,
    step: u32,
}

impl PrefixRanking {
    /// Ranks `items` = (node, group), groups `0..width`, in `order` over the
    /// whole mesh ([`Order::RowMajor`]; snake order is not supported): an
    /// item's rank counts the items of its group at nodes before its node,
    /// then those listed before it at its node.
    pub fn new(mesh: Mesh, order: Order, width: u32, items: &[(u32, u32)]) -> PrefixRanking {
        let side = mesh.side();
        let Order::RowMajor { block: u } = order else {
            panic!("pipelined ranking in snake order is not supported");
        };
        assert!(u.is_power_of_two() && u <= side);
        let mut b = Builder { mesh, hops: Vec::new() };
        let period = if u == 1 || u == side {
            b.rows((0, 0), (side, side), 0);
            1
        } else {
            b.blocks(u);
            2
        };
        Self::from_hops(mesh, b.hops, period, width, items)
    }

    /// Ranks `items` = (node, group), groups `0..width`, inside every stripe
    /// of `h` consecutive rows (h ≥ 2 dividing the side), group after group:
    /// an item's rank counts the stripe's items of the groups before its
    /// group, then the items of its group at nodes before its node in
    /// row-major order, then those listed before it at its node (module
    /// doc, "Stripes").
    pub fn stripes(mesh: Mesh, h: u32, width: u32, items: &[(u32, u32)]) -> PrefixRanking {
        let side = mesh.side();
        assert!(h >= 2 && side.is_multiple_of(h));
        let mut b = Builder { mesh, hops: Vec::new() };
        b.stripes(h);
        Self::from_hops(mesh, b.hops, 1, width, items)
    }

    fn from_hops(mesh: Mesh, hops: Vec<Hop>, period: u32, width: u32, items: &[(u32, u32)]) -> PrefixRanking {
        let marks = Self::queue_marks(&hops, period, width);
        let mut idx: Vec<u32> = (0..hops.len() as u32).collect();
        idx.sort_by_key(|&h| {
            let hop = &hops[h as usize];
            (hop.t % period, hop.t / BUCKET, hop.from, hop.t)
        });
        let mut new_id = vec![0u32; hops.len()];
        for (i, &h) in idx.iter().enumerate() {
            new_id[h as usize] = i as u32;
        }
        let mut sorted: Vec<Hop> = idx.iter().map(|&h| hops[h as usize]).collect();
        for hop in &mut sorted {
            for g in hop.inputs.iter_mut().filter(|g| **g != NONE) {
                *g = new_id[*g as usize];
            }
        }
        let class = (0..=period)
            .map(|k| sorted.partition_point(|h| h.t % period < k))
            .collect();
        let duration = match sorted.iter().map(|h| h.t).max() {
            Some(t) if width > 0 => t + period * (width - 1),
            _ => 0,
        };

        // Each node's items grouped by group (its local data structure, §4).
        let n = mesh.nodes() as usize;
        let mut count = vec![0u32; n + 1];
        for &(v, g) in items {
            assert!(g < width, "group {g} out of 0..{width}");
            count[v as usize + 1] += 1;
        }
        for v in 0..n {
            count[v + 1] += count[v];
        }
        let mut at: Vec<u32> = vec![0; items.len()];
        let mut fill = count.clone();
        for (x, &(v, _)) in items.iter().enumerate() {
            at[fill[v as usize] as usize] = x as u32;
            fill[v as usize] += 1;
        }
        let mut slot = vec![0u32; items.len()];
        let mut partial = vec![0u32; items.len()];
        let mut first = Vec::with_capacity(n + 1);
        let mut groups: Vec<(u32, u32, u32)> = Vec::new();
        for v in 0..n {
            let start = groups.len();
            first.push(start as u32);
            let (lo, hi) = (count[v] as usize, count[v + 1] as usize);
            at[lo..hi].sort_by_key(|&x| (items[x as usize].1, x));
            for (s, &x) in at.iter().enumerate().take(hi).skip(lo) {
                let g = items[x as usize].1;
                let in_node = groups.len() > start;
                match groups.last_mut() {
                    Some(run) if in_node && run.0 == g => {
                        partial[s] = run.2;
                        run.2 += 1;
                    }
                    _ => groups.push((g, s as u32, 1)),
                }
                slot[x as usize] = s as u32;
            }
        }
        first.push(groups.len() as u32);
        let span = |v: u32| (first[v as usize], first[v as usize + 1]);
        let task = PrefixRanking {
            width,
            period,
            val: vec![[0; 2]; sorted.len()],
            reg: vec![0; sorted.len()],
            own_at: sorted.iter().map(|h| span(h.from)).collect(),
            absorb_at: sorted.iter().map(|h| span(h.to)).collect(),
            hops: sorted,
            class,
            groups,
            partial,
            slot,
            marks,
            next: 0,
            duration,
            step: 0,
        };
        debug_assert_eq!(task.validate(), Ok(()));
        task
    }

    /// Steps the task takes.
    pub fn duration(&self) -> u32 {
        self.duration
    }

    /// Steps between two consecutive counters entering a path.
    pub fn period(&self) -> u32 {
        self.period
    }

    /// The most counters that waited in one node's queue at a step's end.
    pub fn max_queue(&self) -> u32 {
        self.marks.last().map_or(0, |m| m.1)
    }

    /// The counters waiting in queues, from the schedule. Counter i of a
    /// hop g that other hops send on arrives at its receiver at the end of
    /// step t_g + period·i and waits there until the last of them sends it,
    /// d_g ≤ period steps later: at a node, the waiting counters at the end
    /// of step s are the hops g into it with (s − t_g) mod period < d_g
    /// inside their range. Going back `period` steps from s keeps every hop
    /// counted at s counted until s is within `period` steps of its t_g, so
    /// the most waiting up to any step is first reached at such a step.
    fn queue_marks(hops: &[Hop], period: u32, width: u32) -> Vec<(u32, u32)> {
        if width == 0 {
            return Vec::new();
        }
        // Per hop, the step of its value's last use (0: none; hops start at step 1).
        let mut used = vec![0u32; hops.len()];
        for hop in hops {
            for &g in hop.inputs.iter().filter(|&&g| g != NONE) {
                used[g as usize] = used[g as usize].max(hop.t);
            }
        }
        // (receiver, t_g, d_g) of the hops whose values wait.
        let mut waits: Vec<(u32, u32, u32)> = (0..hops.len())
            .filter(|&g| used[g] > 0)
            .map(|g| (hops[g].to, hops[g].t, used[g] - hops[g].t))
            .collect();
        waits.sort_unstable();
        let mut candidates = Vec::new();
        for node in waits.chunk_by(|a, b| a.0 == b.0) {
            for &(_, t0, _) in node {
                for s in t0..t0 + period {
                    let count = node
                        .iter()
                        .filter(|&&(_, t, d)| t <= s && s < t + period * (width - 1) + d && (s - t) % period < d)
                        .count();
                    candidates.push((s, count as u32));
                }
            }
        }
        candidates.sort_unstable();
        let mut marks: Vec<(u32, u32)> = Vec::new();
        for (s, count) in candidates {
            if count > marks.last().map_or(0, |m| m.1) {
                marks.push((s, count));
            }
        }
        marks
    }

    /// Per item (in the order given to [`PrefixRanking::new`]), its rank;
    /// meaningful once the task is over.
    pub fn ranks(&self) -> Vec<u32> {
        debug_assert!(self.step >= self.duration, "ranks read before the task is over");
        self.slot.iter().map(|&s| self.partial[s as usize]).collect()
    }

    /// Checks the schedule: every input is received by the hop's sender 1 to
    /// `period` steps before the hop, and no directed link carries two
    /// counters in one step.
    pub fn validate(&self) -> Result<(), String> {
        let p = self.period;
        for (h, hop) in self.hops.iter().enumerate() {
            for &g in hop.inputs.iter().filter(|&&g| g != NONE) {
                let input = &self.hops[g as usize];
                if input.to != hop.from || hop.t <= input.t || hop.t - input.t > p {
                    return Err(format!("hop {h} at step {} uses hop {g} at step {}", hop.t, input.t));
                }
            }
        }
        let mut uses: Vec<(u32, u8, u32)> = self.hops.iter().map(|h| (h.from, h.port, h.t)).collect();
        uses.sort_unstable();
        for (i, a) in uses.iter().enumerate() {
            for b in uses[i + 1..].iter().take_while(|b| (b.0, b.1) == (a.0, a.1)) {
                let d = b.2 - a.2;
                if d % p == 0 && d < p * self.width {
                    return Err(format!("link {}:{} used at steps {} and {}", a.0, a.1, a.2, b.2));
                }
            }
        }
        Ok(())
    }

    /// The (first slot, count) of `v`'s items of group `g`, looked up from
    /// `at` (a position in `v`'s groups, left there for the next counter).
    #[inline]
    fn items_of(groups: &[(u32, u32, u32)], (at, end): &mut (u32, u32), g: u32) -> Option<(u32, u32)> {
        while *at < *end && groups[*at as usize].0 < g {
            *at += 1;
        }
        if *at == *end {
            return None;
        }
        let x = groups[*at as usize];
        (x.0 == g).then_some((x.1, x.2))
    }
}

impl Task for PrefixRanking {
    fn poll(&mut self, e: &mut Engine) -> bool {
        if self.step >= self.duration {
            return false;
        }
        self.step += 1;
        let (s, p) = (self.step, self.period);
        let shift = p.trailing_zeros();
        let k = (s % p) as usize;
        let class = &self.hops[self.class[k]..self.class[k + 1]];
        let oldest = s.saturating_sub(p * (self.width - 1));
        let lo = self.class[k] + class.partition_point(|h| h.t / BUCKET < oldest / BUCKET);
        let hi = self.class[k] + class.partition_point(|h| h.t / BUCKET <= s / BUCKET);
        for h in lo..hi {
            let hop = self.hops[h];
            if hop.t > s || hop.t < oldest {
                continue;
            }
            let i = (s - hop.t) >> shift; // ÷ period (1 or 2)
            let mut value = 0;
            for &g in &hop.inputs {
                if g == NONE {
                    break;
                }
                value += self.val[g as usize][i as usize & 1];
            }
            if hop.own {
                value += Self::items_of(&self.groups, &mut self.own_at[h], i).map_or(0, |x| x.1);
            }
            if hop.acc {
                // Counters come in order: send the groups before i, then add i's.
                let before = self.reg[h];
                self.reg[h] += value;
                value = before;
            }
            if hop.keep {
                if let Some((first, count)) = Self::items_of(&self.groups, &mut self.own_at[h], i) {
                    for x in &mut self.partial[first as usize..(first + count) as usize] {
                        *x += value;
                    }
                }
            }
            let sent = e.send_control(hop.from, hop.port as u32);
            assert!(
                sent,
                "ranking: link {}:{} already taken in step {s}",
                hop.from, hop.port
            );
            self.val[h][i as usize & 1] = value;
            if hop.absorb {
                if let Some((first, count)) = Self::items_of(&self.groups, &mut self.absorb_at[h], i) {
                    for x in &mut self.partial[first as usize..(first + count) as usize] {
                        *x += value;
                    }
                }
            }
        }
        while let Some(&(_, count)) = self.marks.get(self.next).filter(|m| m.0 <= s) {
            e.note_control_queue(count);
            self.next += 1;
        }
        e.mark_busy();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineConfig;
    use crate::rng::{Rng, Stream};

    /// The test oracle: sort the items by (group, position of the node in
    /// the order, input order) and count.
    fn sequential(mesh: Mesh, u: u32, width: u32, items: &[(u32, u32)]) -> Vec<u32> {
        let key = |v: u32| {
            let (r, c) = mesh.rc(v);
            let blocks = mesh.side() / u;
            ((r / u) * blocks + c / u, (r % u) * u + c % u)
        };
        let mut list: Vec<(u32, (u32, u32), usize)> =
            items.iter().enumerate().map(|(x, &(v, g))| (g, key(v), x)).collect();
        list.sort_unstable();
        let mut rank = vec![0u32; items.len()];
        let mut next = vec![0u32; width as usize];
        for (g, _, x) in list {
            rank[x] = next[g as usize];
            next[g as usize] += 1;
        }
        rank
    }

    /// Plays the task on an empty engine with invariant checks on; returns the steps.
    fn play(mesh: Mesh, task: &mut PrefixRanking) -> u32 {
        let topo = format!("mesh:{0}x{0}", mesh.side()).parse().unwrap();
        let config = EngineConfig {
            check_invariants: true,
            ..Default::default()
        };
        let mut e = Engine::new(topo, &[], config);
        while task.poll(&mut e) {
            e.step();
        }
        assert_eq!(e.stats().max_ctrl_queue, task.max_queue());
        e.step_count()
    }

    #[test]
    fn message_ranks_equal_the_sequential_ranks_for_every_block_size() {
        let mut rng = Rng::new(7, Stream::Workload);
        for side in [1u32, 2, 4, 8, 16, 32] {
            let mesh = Mesh::new(side).unwrap();
            for width in [1u32, 2, 5, 16, 64] {
                for load in [0u32, 1, 3] {
                    let mut items = Vec::new();
                    for v in 0..mesh.nodes() {
                        for _ in 0..rng.below(load + 1) {
                            items.push((v, rng.below(width)));
                        }
                    }
                    for u in (0..=side.ilog2()).map(|i| 1 << i) {
                        let mut task = PrefixRanking::new(mesh, Order::RowMajor { block: u }, width, &items);
                        assert_eq!(task.validate(), Ok(()), "side {side} u {u} width {width}");
                        let steps = play(mesh, &mut task);
                        assert_eq!(steps, task.duration());
                        let want = sequential(mesh, u, width, &items);
                        assert_eq!(task.ranks(), want, "side {side} u {u} width {width} load {load}");
                    }
                }
            }
        }
    }

    /// The test oracle of [`PrefixRanking::stripes`]: sort the items by
    /// (stripe, group, row-major node, input order) and count per stripe.
    fn sequential_stripes(mesh: Mesh, h: u32, items: &[(u32, u32)]) -> Vec<u32> {
        let mut list: Vec<(u32, u32, u32, usize)> = items
            .iter()
            .enumerate()
            .map(|(x, &(v, g))| (mesh.rc(v).0 / h, g, v, x))
            .collect();
        list.sort_unstable();
        let mut rank = vec![0u32; items.len()];
        let mut next = vec![0u32; (mesh.side() / h) as usize];
        for (stripe, _, _, x) in list {
            rank[x] = next[stripe as usize];
            next[stripe as usize] += 1;
        }
        rank
    }

    #[test]
    fn stripe_ranks_equal_the_sequential_ranks_and_take_the_stated_steps() {
        let mut rng = Rng::new(11, Stream::Workload);
        for side in [2u32, 4, 8, 16, 32] {
            let mesh = Mesh::new(side).unwrap();
            for h in (1..=side.ilog2()).map(|i| 1 << i) {
                for width in [1u32, 2, 7, 64] {
                    for load in [0u32, 1, 4] {
                        let mut items = Vec::new();
                        for v in 0..mesh.nodes() {
                            for _ in 0..rng.below(load + 1) {
                                items.push((v, rng.below(width)));
                            }
                        }
                        let mut task = PrefixRanking::stripes(mesh, h, width, &items);
                        let what = format!("side {side} h {h} width {width} load {load}");
                        assert_eq!(task.validate(), Ok(()), "{what}");
                        assert_eq!(task.duration(), 2 * side + 3 * h - 5 + width - 1, "{what}");
                        assert_eq!(task.period(), 1, "{what}");
                        assert_eq!(play(mesh, &mut task), task.duration(), "{what}");
                        assert_eq!(task.ranks(), sequential_stripes(mesh, h, &items), "{what}");
                        assert!(task.max_queue() <= 3, "{what}: {}", task.max_queue());
                        if side <= 16 {
                            assert_eq!(task.max_queue(), queues_by_events(&task), "{what}");
                        }
                    }
                }
            }
        }
    }

    /// The queue sizes by brute force: every counter of every hop whose
    /// value is sent on waits at its receiver from its arrival to its last use.
    fn queues_by_events(task: &PrefixRanking) -> u32 {
        let (p, w) = (task.period, task.width);
        let mut used = vec![0u32; task.hops.len()];
        for hop in &task.hops {
            for &g in hop.inputs.iter().filter(|&&g| g != NONE) {
                used[g as usize] = used[g as usize].max(hop.t);
            }
        }
        let mut held = std::collections::HashMap::new();
        for (g, hop) in task.hops.iter().enumerate().filter(|(g, _)| used[*g] > 0) {
            for i in 0..w {
                for s in hop.t + p * i..used[g] + p * i {
                    *held.entry((hop.to, s)).or_insert(0u32) += 1;
                }
            }
        }
        held.values().copied().max().unwrap_or(0)
    }

    #[test]
    fn steps_and_queues_are_those_of_the_module_doc() {
        for side in [2u32, 4, 8, 16, 32, 64] {
            let mesh = Mesh::new(side).unwrap();
            for width in [1u32, 4, 16, 64, 256] {
                for u in (0..=side.ilog2()).map(|i| 1 << i) {
                    let mut task = PrefixRanking::new(mesh, Order::RowMajor { block: u }, width, &[]);
                    let (steps, period, bound) = if u == 1 || u == side {
                        (3 * (side - 1) + width - 1, 1, 2)
                    } else {
                        (3 * side + u + 2 * (width - 1) - 2, 2, 4)
                    };
                    assert_eq!(
                        (task.duration(), task.period()),
                        (steps, period),
                        "side {side} u {u} width {width}"
                    );
                    if side <= 16 {
                        assert_eq!(
                            task.max_queue(),
                            queues_by_events(&task),
                            "side {side} u {u} width {width}"
                        );
                    }
                    play(mesh, &mut task);
                    assert!(task.max_queue() <= bound, "side {side} u {u}: {}", task.max_queue());
                }
            }
        }
    }
}
