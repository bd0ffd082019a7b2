//! Kaufmann–Sibeyn §5, routing on a linear array and on a ring, as numbers
//! for one instance: Lemma 2 (the line's exact time under farthest-first),
//! Lemma 7 (the ring's), the any-strategy upper bounds (Lemmas 4 and 10,
//! Corollaries 1 and 2) and the main terms of the randomization lemmas (3,
//! 5, 6, 8, 11, 12), each with the unit of its additive term.
//!
//! Lemma 7 as printed, max over i, j of {h_r(i, j) − (j − i) mod n}, is not
//! the time (one packet going n/2 takes n/2 steps, the printed maximum is
//! 0); its proof, like Lemma 2, has the sum: T_r = max over the arcs i → j
//! that some packet's path covers of ((j − i) mod n + h_r(i, j)). That is
//! what [`lemma7`] computes, and what greedy's farthest-first runs on rings
//! take exactly (`tests/it/ks_linear.rs`).
//!
//! # Complexity
//! [`lemma2`], [`lemma7`]: O((n + P) log n) for n nodes and P packets (a
//! segment tree with range add and range maximum; the ring unrolled into a
//! line of 4n nodes with three copies of every packet). The others: O(n + P).

use super::Bound;
use crate::algorithms::claim::LineLemma;
use crate::topology::{line_direction, Kind, Network};
use crate::workload::Instance;
use serde::Serialize;

/// Lemma 2 of Kaufmann–Sibeyn (§5.1.1) evaluated on a linear array.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Lemma2 {
    /// T = max(T_r, T_l): the exact running time of farthest-first routing.
    pub steps: u32,
    /// The maximising pair: i (where the packets start, at or before) …
    /// (of several pairs that attain the maximum in one direction, the one
    /// with the largest j — the farthest from the start, mirrored to the
    /// left — and then the leftmost i)
    pub i: u32,
    /// … and j (where they end, at or beyond), in the direction below.
    pub j: u32,
    /// Whether the maximum is for routing to the right (else to the left,
    /// with i and j the nodes' own ids, i > j). When both directions attain
    /// it, the rightward pair is named.
    pub rightward: bool,
    /// The packets from nodes ≤ i to nodes ≥ j (mirrored to the left): h(i, j) + 1.
    pub packets: u32,
}

/// Lemma 2 (Kaufmann–Sibeyn §5.1.1): on a linear array of `n` nodes with
/// farthest-first, routing to the right takes exactly T_r = max over i < j
/// of (j − i + h_r(i, j)), h_r(i, j) = #packets from nodes ≤ i to nodes ≥ j,
/// minus 1, over the pairs with such a packet; to the left symmetrically;
/// the two directions use disjoint links, so T = max(T_r, T_l).
pub fn lemma2(n: u32, packets: &[(u32, u32)]) -> Lemma2 {
    let right = rightward(n, packets.iter().copied());
    let left = rightward(n, packets.iter().map(|&(s, d)| (n - 1 - s, n - 1 - d)));
    match (right, left) {
        (r, Some(l)) if r.is_none_or(|r| l.0 > r.0) => Lemma2 {
            steps: l.0,
            i: n - 1 - l.1,
            j: n - 1 - l.2,
            rightward: false,
            packets: l.3,
        },
        (Some(r), _) => Lemma2 {
            steps: r.0,
            i: r.1,
            j: r.2,
            rightward: true,
            packets: r.3,
        },
        _ => Lemma2 {
            steps: 0,
            i: 0,
            j: 0,
            rightward: true,
            packets: 0,
        },
    }
}

/// T_r with its maximising (i, j) and packet count, or `None` when no packet moves right.
///
/// For each j from the right end down, the packets with destination ≥ j
/// are in the tree; cnt(i) = those with source ≤ i, nondecreasing in i,
/// so cnt(i) ≥ 1 exactly from the smallest such source on. The tree holds
/// cnt(i) − i; the best i for j maximises it over [smallest source, j − 1].
fn rightward(n: u32, packets: impl Iterator<Item = (u32, u32)>) -> Option<(u32, u32, u32, u32)> {
    let mut by_dest: Vec<Vec<u32>> = vec![Vec::new(); n as usize];
    for (s, d) in packets {
        if s < d {
            by_dest[d as usize].push(s);
        }
    }
    let mut tree = MaxAddTree::new(n as usize);
    let mut smallest = u32::MAX;
    let mut best: Option<(u32, u32, u32, u32)> = None;
    for j in (1..n).rev() {
        for &s in &by_dest[j as usize] {
            tree.add(s as usize, n as usize - 1, 1);
            smallest = smallest.min(s);
        }
        if smallest < j {
            let (value, i) = tree.max(smallest as usize, j as usize - 1);
            // value = cnt(i) − i, so j − i + cnt(i) − 1 = j + value − 1.
            let steps = (j as i64 + value - 1) as u32;
            let count = (value + i as i64) as u32;
            if best.is_none_or(|b| steps > b.0) {
                best = Some((steps, i as u32, j, count));
            }
        }
    }
    best
}

/// A segment tree over 0..n holding −i initially, with range add and range
/// maximum (with the leftmost index attaining it).
struct MaxAddTree {
    size: usize,
    max: Vec<(i64, usize)>,
    add: Vec<i64>,
}

impl MaxAddTree {
    fn new(n: usize) -> Self {
        let size = n.max(1).next_power_of_two();
        let mut max = vec![(i64::MIN / 2, usize::MAX); 2 * size];
        for i in 0..size {
            max[size + i] = if i < n { (-(i as i64), i) } else { (i64::MIN / 2, i) };
        }
        for v in (1..size).rev() {
            max[v] = Self::better(max[2 * v], max[2 * v + 1]);
        }
        MaxAddTree {
            size,
            max,
            add: vec![0; 2 * size],
        }
    }

    fn better(a: (i64, usize), b: (i64, usize)) -> (i64, usize) {
        if b.0 > a.0 {
            b
        } else {
            a
        }
    }

    fn add(&mut self, lo: usize, hi: usize, by: i64) {
        // A range past the end would be clipped silently: refuse it (it
        // would be a wrong call, found by `cargo mutants`).
        assert!(lo <= hi && hi < self.size, "range {lo}..={hi} of {}", self.size);
        self.add_in(1, 0, self.size - 1, lo, hi, by);
    }

    fn add_in(&mut self, v: usize, l: usize, r: usize, lo: usize, hi: usize, by: i64) {
        if hi < l || r < lo {
            return;
        }
        if lo <= l && r <= hi {
            self.max[v].0 += by;
            self.add[v] += by;
            return;
        }
        let mid = (l + r) / 2;
        self.add_in(2 * v, l, mid, lo, hi, by);
        self.add_in(2 * v + 1, mid + 1, r, lo, hi, by);
        let best = Self::better(self.max[2 * v], self.max[2 * v + 1]);
        self.max[v] = (best.0 + self.add[v], best.1);
    }

    fn max(&self, lo: usize, hi: usize) -> (i64, usize) {
        self.max_in(1, 0, self.size - 1, lo, hi)
    }

    fn max_in(&self, v: usize, l: usize, r: usize, lo: usize, hi: usize) -> (i64, usize) {
        if hi < l || r < lo {
            return (i64::MIN / 2, usize::MAX);
        }
        if lo <= l && r <= hi {
            return self.max[v];
        }
        let mid = (l + r) / 2;
        let best = Self::better(
            self.max_in(2 * v, l, mid, lo, hi),
            self.max_in(2 * v + 1, mid + 1, r, lo, hi),
        );
        (best.0 + self.add[v], best.1)
    }
}

/// Lemma 2's bound on a linear array, with where its maximum is.
pub(super) fn lemma2_bound(instance: &Instance) -> Option<Bound> {
    let topo = &instance.topology;
    if topo.kind() != Kind::Linear {
        return None;
    }
    let n = topo.nodes();
    let l = lemma2(n, &instance.packets);
    let detail = if l.packets == 0 {
        "no packet moves".to_string()
    } else {
        format!(
            "the maximum is at i = {}, j = {}: {} from nodes {} {} to nodes {} {}, moving {}",
            l.i,
            l.j,
            packets(l.packets),
            if l.rightward { "≤" } else { "≥" },
            l.i,
            if l.rightward { "≥" } else { "≤" },
            l.j,
            way(l.rightward),
        )
    };
    Some(Bound {
        detail,
        ..Bound::plain("max_{i<j}(j − i + h(i,j))", l.steps as f64, format!("n = {n}"))
    })
}

fn packets(count: u32) -> String {
    format!("{count} packet{}", if count == 1 { "" } else { "s" })
}

fn way(right: bool) -> &'static str {
    if right {
        "right"
    } else {
        "left"
    }
}

/// Lemma 7 (Kaufmann–Sibeyn §5.2.1, with the sign of its proof) on a ring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Lemma7 {
    /// T = max(T_r, T_l): the exact running time of farthest-first routing.
    pub steps: u32,
    /// The maximising arc starts at node i …
    pub i: u32,
    /// … and ends at node j, going the way below ((j − i) mod n links to
    /// the right, or (i − j) mod n to the left).
    pub j: u32,
    /// Whether the arc goes right (to higher ids, round the wrap link).
    pub rightward: bool,
    /// The packets whose path covers the arc: h(i, j) + 1.
    pub packets: u32,
}

/// Packets on a ring as (start, length) going right.
type Arcs = Vec<(u32, u32)>;

/// Every packet of a ring that moves, as (start, length) going right: the
/// packets that go left mirrored (node x as n − 1 − x). A packet takes the
/// shorter way, a tie (exactly n/2) by its id's parity (SPEC §2), as the
/// engine routes it when the algorithm does not choose.
fn ring_ways(n: u32, packets: &[(u32, u32)]) -> (Arcs, Arcs) {
    let (mut right, mut left) = (Vec::new(), Vec::new());
    for (id, &(s, d)) in packets.iter().enumerate() {
        if s == d {
            continue;
        }
        match line_direction(true, s, d, n, id as u32) {
            (0, len) => right.push((s, len)),
            (_, len) => left.push((n - 1 - s, len)),
        }
    }
    (right, left)
}

/// Lemma 7 (Kaufmann–Sibeyn §5.2.1): on a ring of `n` nodes with
/// farthest-first, routing to the right takes exactly T_r = max over arcs
/// i → j covered by some packet's path of ((j − i) mod n + h_r(i, j)),
/// h_r(i, j) = the packets whose path covers the arc, minus 1; to the left
/// symmetrically; T = max(T_r, T_l). `packets` as (source, destination),
/// their ids their indices.
///
/// A path is at most n/2 long, so the packets that reach a node j from the
/// left start on the line of the n/2 nodes before it, and Lemma 2's
/// argument holds there: unrolled onto a line of 4n nodes with copies of
/// every packet at offsets 0, n and 2n, every arc of the ring is an
/// interval [i, j] with n ≤ i < 2n covered by exactly the copies of the
/// packets that cover it on the ring.
pub fn lemma7(n: u32, packets: &[(u32, u32)]) -> Lemma7 {
    let (right, left) = ring_ways(n, packets);
    let unrolled = |way: &[(u32, u32)]| {
        let copies = way
            .iter()
            .flat_map(|&(s, len)| (0..3).map(move |c| (s + c * n, s + c * n + len)));
        rightward(4 * n, copies)
    };
    let named = |(steps, i, j, count): (u32, u32, u32, u32), right: bool| {
        let (i, j) = (i % n, j % n);
        let (i, j) = if right { (i, j) } else { (n - 1 - i, n - 1 - j) };
        Lemma7 {
            steps,
            i,
            j,
            rightward: right,
            packets: count,
        }
    };
    match (unrolled(&right), unrolled(&left)) {
        (r, Some(l)) if r.is_none_or(|r| l.0 > r.0) => named(l, false),
        (Some(r), _) => named(r, true),
        _ => Lemma7 {
            steps: 0,
            i: 0,
            j: 0,
            rightward: true,
            packets: 0,
        },
    }
}

/// Sends and receives per node of `instance`.
fn degrees(instance: &Instance) -> (Vec<u32>, Vec<u32>) {
    let n = instance.topology.nodes() as usize;
    let (mut out, mut inn) = (vec![0u32; n], vec![0u32; n]);
    for &(s, d) in &instance.packets {
        out[s as usize] += 1;
        inn[d as usize] += 1;
    }
    (out, inn)
}

/// Lemma 4 on a linear array, both directions: the max over the cuts
/// i | i + 1 some packet crosses of (h(i) + n − 1 − i), h(i) = the crossing
/// packets − 1 (to the left mirrored); with the cut's i, way and count.
fn lemma4(n: u32, packets: &[(u32, u32)]) -> Option<(u32, u32, bool, u32)> {
    let mut best: Option<(u32, u32, bool, u32)> = None;
    for right in [true, false] {
        let mut diff = vec![0i64; n as usize + 1];
        for &(s, d) in packets {
            let (s, d) = if right { (s, d) } else { (n - 1 - s, n - 1 - d) };
            if s < d {
                diff[s as usize] += 1;
                diff[d as usize] -= 1;
            }
        }
        let mut cross = 0i64;
        for i in 0..n.saturating_sub(1) {
            cross += diff[i as usize];
            if cross > 0 {
                let value = (cross - 1) as u32 + n - 1 - i;
                if best.is_none_or(|b| value > b.0) {
                    let node = if right { i } else { n - 1 - i };
                    best = Some((value, node, right, cross as u32));
                }
            }
        }
    }
    best
}

/// The most packets leaving one node of a ring the same way (Lemma 10's
/// h(i_max) + 1), with the node and the way.
fn ring_out(n: u32, packets: &[(u32, u32)]) -> (u32, u32, bool) {
    let (right, left) = ring_ways(n, packets);
    let mut best = (0, 0, true);
    for (way, is_right) in [(right, true), (left, false)] {
        // The links s … s + len − 1 a packet leaves by, unrolled onto 2n.
        let mut diff = vec![0i64; 2 * n as usize + 1];
        for &(s, len) in &way {
            diff[s as usize] += 1;
            diff[(s + len) as usize] -= 1;
        }
        let mut run = 0i64;
        let mut out = vec![0i64; n as usize];
        for (x, d) in diff.iter().take(2 * n as usize).enumerate() {
            run += d;
            out[x % n as usize] += run;
        }
        for (x, &c) in out.iter().enumerate() {
            if c as u32 > best.0 {
                let node = if is_right { x as u32 } else { n - 1 - x as u32 };
                best = (c as u32, node, is_right);
            }
        }
    }
    best
}

/// Why `lemma` does not apply to `instance`, beyond its network, policy and
/// workload: the cut-through lemmas (6, 12) are for one worm from every node.
pub fn line_not_applicable(lemma: LineLemma, instance: &Instance) -> Option<String> {
    let (l, _) = instance.measured_lk();
    (lemma.cut_through() && l != 1).then(|| {
        format!(
            "stated for one worm from every node (random-destinations with k = 1, flits = F); here a node sends up \
             to {l}"
        )
    })
}

/// `lemma` evaluated on `instance` (worms of `flits` flits), or `None` on a
/// network it is not stated for (or, for the cut-through lemmas, without
/// worms of F > 1 flits).
pub(super) fn evaluate(lemma: LineLemma, instance: &Instance, flits: Option<u32>) -> Option<Bound> {
    let topo = &instance.topology;
    let want = if lemma.ring() { Kind::Ring } else { Kind::Linear };
    if topo.kind() != want {
        return None;
    }
    let n = topo.nodes();
    let text = lemma.text();
    let nf = n as f64;
    let (out, inn) = degrees(instance);
    // The paper's k: the packets each node sends (the most any node sends).
    let k = out.iter().copied().max().unwrap_or(0).max(1);
    let kf = k as f64;
    let main = |value: f64, letter: &str, k: u32, unit: (String, f64)| Bound {
        unit: Some(unit),
        ..Bound::plain(text, value, format!("n = {n}, {letter} = {k}"))
    };
    let kn_unit = || ("√(k·n·ln n)".to_string(), (kf * nf * nf.ln()).sqrt());
    Some(match lemma {
        LineLemma::Lemma7 => {
            let l = lemma7(n, &instance.packets);
            let detail = if l.packets == 0 {
                "no packet moves".to_string()
            } else {
                format!(
                    "the maximum is at the arc from node {} to node {} going {}: {} cover it",
                    l.i,
                    l.j,
                    way(l.rightward),
                    packets(l.packets)
                )
            };
            Bound {
                detail,
                ..Bound::plain(text, l.steps as f64, format!("n = {n}"))
            }
        }
        LineLemma::Lemma4 => {
            let best = lemma4(n, &instance.packets);
            let detail = best.map_or("no packet moves".to_string(), |(_, i, right, c)| {
                let cut = if right {
                    format!("nodes ≤ {i} to nodes > {i}")
                } else {
                    format!("nodes ≥ {i} to nodes < {i}")
                };
                format!(
                    "the maximum is at i = {i}: {} from {cut}, moving {}",
                    packets(c),
                    way(right)
                )
            });
            Bound {
                detail,
                ..Bound::plain(text, best.map_or(0.0, |b| b.0 as f64), format!("n = {n}"))
            }
        }
        LineLemma::Lemma10 | LineLemma::Corollary3 => {
            let (c, i, right) = ring_out(n, &instance.packets);
            let detail = format!("the most, {}, leave node {i} going {}", packets(c), way(right));
            let h = c as f64 - 1.0;
            let value = if lemma == LineLemma::Lemma10 {
                h + nf / 2.0
            } else {
                h.max(0.0)
            };
            Bound {
                detail,
                ..Bound::plain(text, value, format!("n = {n}"))
            }
        }
        LineLemma::Corollary1 | LineLemma::Corollary2 => {
            // The least α with every m nodes sending and receiving at most k·m + α.
            let excess = |v: &[u32]| v.iter().map(|&x| x.saturating_sub(k)).sum::<u32>();
            let alpha = excess(&out).max(excess(&inn));
            let half = kf * nf / 2.0;
            let main = if lemma == LineLemma::Corollary1 {
                half
            } else {
                half + nf / 2.0
            };
            let value = (nf - 1.0).max(main) + alpha as f64;
            Bound::plain(
                text,
                value,
                format!("n = {n}, k = {k} (the most a node sends), α = {alpha} (the packets received beyond k)"),
            )
        }
        LineLemma::Lemma3 => main(nf.max(kf * nf / 4.0), "k", k, kn_unit()),
        LineLemma::Lemma5 => main(nf.max(kf * nf / 4.0 + nf / (4.0 * kf) + nf / 2.0), "k", k, kn_unit()),
        LineLemma::Lemma8 => main((nf / 2.0).max(kf * nf / 8.0), "k", k, kn_unit()),
        LineLemma::Lemma11 => main(kf * nf / 8.0 + nf / 2.0, "k", k, kn_unit()),
        LineLemma::Lemma6 | LineLemma::Lemma12 => {
            let f = flits.filter(|&f| f > 1)?;
            let ff = f as f64;
            let value = if lemma == LineLemma::Lemma6 {
                nf.max(ff * nf / 4.0 + nf / (4.0 * ff) + nf / 2.0)
            } else {
                ff * nf / 8.0 + nf / 2.0
            };
            main(value, "F", f, ("F·√(n·ln n)".to_string(), ff * (nf * nf.ln()).sqrt()))
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // Lemma 2 against its definition by brute force: tests/it/greedy.rs.

    #[test]
    fn lemma2_names_the_pair_with_the_largest_j_on_a_tie() {
        // (0, 1) and (2, 3) both take 1 step; the scan from the right end
        // names the pair it meets first.
        let l = lemma2(4, &[(0, 1), (2, 3)]);
        assert_eq!((l.steps, l.i, l.j, l.rightward, l.packets), (1, 2, 3, true, 1));
    }

    #[test]
    fn lemma2_of_a_pile_at_one_end() {
        // k packets from node 0 to node n − 1: n − 1 + k − 1 steps.
        let l = lemma2(10, &[(0, 9); 4]);
        assert_eq!((l.steps, l.i, l.j, l.rightward, l.packets), (12, 0, 9, true, 4));
        let l = lemma2(10, &[(9, 0); 3]);
        assert_eq!((l.steps, l.i, l.j, l.rightward), (11, 9, 0, false));
        assert_eq!(lemma2(5, &[(2, 2)]).steps, 0);
    }

    #[test]
    fn lemma2_names_the_rightward_pair_on_a_tie() {
        // Both directions take 9 + 2 − 1 = 10 steps: the rightward pair is named.
        let l = lemma2(10, &[(0, 9), (0, 9), (9, 0), (9, 0)]);
        assert_eq!((l.steps, l.i, l.j, l.rightward, l.packets), (10, 0, 9, true, 2));
        // One more packet to the left breaks the tie.
        let l = lemma2(10, &[(0, 9), (0, 9), (9, 0), (9, 0), (9, 0)]);
        assert_eq!((l.steps, l.i, l.j, l.rightward, l.packets), (11, 9, 0, false, 3));
    }
}
