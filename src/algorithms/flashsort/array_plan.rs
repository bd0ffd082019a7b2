//! What one group of Flashsort's phases does on a d-dimensional mesh
//! (Leighton–Maggs–Ranade–Rao §10, reconstructed: see
//! docs/algorithms/flashsort.md, "d-dimensional arrays"), worked out where
//! the packets stand when the group begins: the messages of its control
//! phases, and where its routing takes every packet.
//!
//! Notation. Node ids are row-major, the last coordinate fastest
//! (`topology::grid`); port 2i moves +1 along dimension i, 2i + 1 moves −1.
//! At recursion level t the *subarrays* are the blocks of nodes sharing
//! coordinates 0..t − 1: consecutive ids, Π_{i ≥ t} side_i of them.
//!
//! # Complexity
//! A level's flood is O(candidates · nodes of their subarray) messages;
//! the offsets are O(d · M · N) to list.

use super::relay::{Relay, Step, Steps};
use crate::algorithms::lmrr::leveled::{Description, OutEdge};
use crate::rng::Rng;
use crate::topology::{Grid, Network, Topology};
use std::sync::Arc;

/// The size of the blocks of nodes sharing coordinates 0..t − 1.
pub fn block(grid: &Grid, t: usize) -> u32 {
    grid.dims()[t..].iter().product()
}

/// Whether `node` has a link on `port`.
fn has(grid: &Grid, node: u32, port: u32) -> bool {
    let j = (port / 2) as usize;
    let c = grid.coord(node, j);
    if port.is_multiple_of(2) {
        c + 1 < grid.dims()[j]
    } else {
        c > 0
    }
}

/// The ports an item of an all-gather over dimensions t.. takes at `node`,
/// having arrived on `arrived`: on along the same port, and both ways
/// along every later dimension (at its start, along every dimension from
/// t). Every node of the subarray is reached exactly once: by the path
/// that corrects the dimensions in order.
pub fn flood(grid: &Grid, t: usize, node: u32, arrived: Option<u32>) -> Vec<u32> {
    let d = grid.dims().len();
    let first = arrived.map_or(t, |p| (p / 2) as usize + 1);
    let mut out: Vec<u32> = arrived.filter(|&p| has(grid, node, p)).into_iter().collect();
    for j in first..d {
        let j = j as u32;
        out.extend([2 * j, 2 * j + 1].into_iter().filter(|&p| has(grid, node, p)));
    }
    out
}

/// A level's plan.
pub struct LevelPlan {
    /// The candidates' all-gather, every subarray at once.
    pub gather: Relay,
    /// Candidates drawn, over all subarrays.
    pub candidates: u32,
    /// (packet, the node it goes to), every packet.
    pub moves: Vec<(u32, u32)>,
    /// On the last level, (packet, its rank among all keys); else empty.
    pub ranks: Vec<(u32, u32)>,
}

/// Plans recursion level `t` in every subarray at once; `at` lists the
/// packets at each node, `keys` their keys (ties by packet id, SPEC §5),
/// `oversample` the s of p = min(1, s·M / keys).
///
/// 1. *Candidates*: every packet of a subarray (nodes in id order, each
///    node's packets in order) is a candidate with probability
///    min(1, s·M / K) for K packets in the subarray, M = side_t; on the
///    last level (a line) every packet is one.
/// 2. *All-pairs ranking*: every candidate floods its subarray
///    ([`flood`]), so every node learns every candidate, hence their ranks
///    and the splitters, the candidates of rank ⌊i·C/M⌋, i = 1..M − 1, for
///    C candidates.
/// 3. *Splitter-directed routing*: a packet's interval is the number of
///    splitters at or below its key. Without `slots` it goes along
///    dimension t to that coordinate (the slab of its interval). With
///    `slots` (light loading) its slot s is the number of packets of its
///    interval before it in the subarray (nodes in id order, then packet
///    order) — a multi-prefix of the M interval counts ([`scan`]) — and it
///    goes to the node of its interval's slab whose offset in the slab is
///    s mod the slab's size: a node of its own unless its interval outgrew
///    the slab ([`Orthants`] route it). On the last level a packet's rank
///    r in its line is exact (every key is a candidate): it goes to
///    coordinate r mod M.
pub fn level(
    grid: &Grid,
    t: usize,
    at: &[Vec<u32>],
    keys: &[u64],
    oversample: u32,
    slots: bool,
    rng: &mut Rng,
) -> LevelPlan {
    let dims = grid.dims();
    let d = dims.len();
    let last = t + 1 == d;
    let m = dims[t];
    let size = block(grid, t);
    let key = |p: u32| (keys[p as usize], p);
    let mut items = Vec::new();
    let mut moves = Vec::new();
    let mut ranks = Vec::new();
    let mut candidates = 0;
    let mut offset = 0u32;
    for base in (0..grid.nodes()).step_by(size as usize) {
        let held: Vec<(u32, u32)> = (base..base + size)
            .flat_map(|v| at[v as usize].iter().map(move |&p| (v, p)))
            .collect();
        let total = held.len() as u32;
        let mut cands: Vec<u32> = Vec::new();
        for &(v, p) in &held {
            if last || rng.below(total) < oversample * m {
                items.push((items.len() as u32, v));
                cands.push(p);
            }
        }
        candidates += cands.len() as u32;
        cands.sort_by_key(|&p| key(p));
        if last {
            // The subarray is a line (stride 1): rank r to its node r mod M.
            for (r, &p) in cands.iter().enumerate() {
                moves.push((p, base + r as u32 % m));
                ranks.push((p, offset + r as u32));
            }
            offset += total;
            continue;
        }
        let drawn = cands.len() as u64;
        let splitters: Vec<(u64, u32)> = if drawn == 0 {
            Vec::new()
        } else {
            (1..u64::from(m))
                .map(|i| key(cands[(i * drawn / u64::from(m)) as usize]))
                .collect()
        };
        let (slab, stride) = (size / m, grid.stride(t));
        let mut count = vec![0u32; m as usize];
        for &(v, p) in &held {
            let interval = splitters.partition_point(|&s| s <= key(p)) as u32;
            let to = if slots {
                let slot = count[interval as usize];
                count[interval as usize] += 1;
                base + interval * slab + slot % slab
            } else {
                v - grid.coord(v, t) * stride + interval * stride
            };
            moves.push((p, to));
        }
    }
    let ports = 2 * d as u64;
    let owned = grid.clone();
    let gather = Relay::new(
        Topology::Grid(grid.clone()),
        &items,
        Arc::new(move |_, node, arrived| flood(&owned, t, node, arrived)),
        Arc::new(move |node, port| u64::from(node) * ports + u64::from(port)),
    );
    LevelPlan {
        gather,
        candidates,
        moves,
        ranks,
    }
}

/// The exact ranks' offsets: every node knows its line's count (the last
/// level's all-gather); for each dimension j from d − 2 down to 0, a chain
/// along dimension j carries the running sums both ways at once (M_j − 1
/// steps: in step i the nodes of coordinate i send up, those of coordinate
/// M_j − 1 − i send down), so every node learns the sum of the blocks below
/// its own along j and its block's total, which the next dimension's chain
/// sums. A line's offset is the sum, over j, of the blocks below it.
pub fn offsets(grid: &Grid) -> Steps {
    let dims = grid.dims();
    let mut steps = Steps::new();
    for j in (0..dims.len().saturating_sub(1)).rev() {
        let m = dims[j];
        for i in 0..m.saturating_sub(1) {
            let mut step = Vec::new();
            for v in 0..grid.nodes() {
                let c = grid.coord(v, j);
                if c == i {
                    step.push((v, 2 * j as u32));
                }
                if c == m - 1 - i {
                    step.push((v, 2 * j as u32 + 1));
                }
            }
            steps.push(Step {
                links: step,
                ..Step::default()
            });
        }
    }
    steps
}

/// Every port number a mesh has (2 per dimension, 16 dimensions), for
/// the blocks of a lockstep step.
static PORTS: [u32; 32] = {
    let mut ports = [0u32; 32];
    let mut p = 0;
    while p < 32 {
        ports[p] = p as u32;
        p += 1;
    }
    ports
};

/// The slots' multi-prefix at recursion level `t`, every subarray at
/// once: every node starts with the `m` counts of its packets' intervals
/// and must learn, for each interval, the packets before it in its
/// subarray (id order). For each dimension j from d − 1 down to t, a chain
/// along j carries the running sums of the blocks below (up) and above
/// (down) at once, each node sending its m sums one per step, pipelined:
/// the nodes of coordinate c send up in steps c..c + m − 1, those of
/// coordinate M_j − 1 − c down. Every node so learns the sums of the
/// blocks before its own along j and its block's total, which the next
/// dimension's chain sums; its prefix is the sum over j of the blocks
/// before it. Σ_j (M_j + m − 2) steps, every step kept as blocks of nodes.
pub fn scan(grid: &Grid, t: usize, m: u32) -> Steps {
    let dims = grid.dims();
    let mut steps = Steps::new();
    for j in (t..dims.len()).rev() {
        let (side, stride) = (dims[j], grid.stride(j));
        let span = side * stride;
        let (up, down) = (&PORTS[2 * j..2 * j + 1], &PORTS[2 * j + 1..2 * j + 2]);
        for s in 0..side - 1 + m - 1 {
            // Coordinates c ≤ side − 2 with c ≤ s < c + m.
            let (lo, hi) = ((s + 1).saturating_sub(m), s.min(side - 2));
            if lo > hi {
                continue;
            }
            let run = (hi - lo + 1) * stride;
            let blocks = (0..grid.nodes())
                .step_by(span as usize)
                .flat_map(|outer| {
                    [
                        (outer + lo * stride, run, up),
                        (outer + (side - 1 - hi) * stride, run, down),
                    ]
                })
                .collect();
            steps.push(Step {
                blocks,
                ..Step::default()
            });
        }
    }
    steps
}

/// Monotone routing in every subarray of recursion level t at once (LMRR
/// §3's four phases of the 2-D mesh, in the subarray's d − t dimensions):
/// an *orthant* names a way along each dimension (+ or −); its leveled
/// network has the links that point its way, a node's level being its
/// distance from the orthant's starting corner, Σ_j c_j for + and
/// Σ_j (M_j − 1 − c_j) for −, so every link climbs one level. An orthant
/// and its opposite use disjoint directed links, so one network holds both
/// as two copies (ids v and N + v) and routes them in the same steps: the
/// 2^(d−t) orthants take 2^(d−t−1) routings. A packet goes along the
/// dimensions in order, each to its target coordinate. A logical node has
/// at most d − t in-edges: a host holds at most 2(d − t)·q packets in
/// edge queues.
#[derive(Debug, Clone)]
pub struct Orthants {
    nodes: u32,
    /// (side, stride, port of +) of each of the subarray's dimensions.
    dims: Vec<(u32, u32, u32)>,
    /// Bit j: copy 0 goes + along the subarray's dimension j.
    ways: u32,
}

impl Orthants {
    /// The routings of level `t`: one per pair of opposite orthants.
    pub fn rounds(grid: &Grid, t: usize) -> u32 {
        1 << (grid.dims().len() - t - 1)
    }

    /// The round and the copy of a packet from `from` to `to` (a packet
    /// that does not move along a dimension fits either way).
    pub fn round_of(grid: &Grid, t: usize, from: u32, to: u32) -> (u32, u32) {
        let k = grid.dims().len() - t;
        let ways = (0..k).fold(0u32, |w, j| {
            w | u32::from(grid.coord(to, t + j) > grid.coord(from, t + j)) << j
        });
        let top = 1 << (k - 1);
        if ways & top == 0 {
            (ways, 0)
        } else {
            (!ways & (top - 1), 1)
        }
    }

    /// The network of round `round` ([`Orthants::round_of`]) at level `t`.
    pub fn new(grid: &Grid, t: usize, round: u32) -> Orthants {
        let dims = (t..grid.dims().len())
            .map(|j| (grid.dims()[j], grid.stride(j), 2 * j as u32))
            .collect();
        Orthants {
            nodes: grid.nodes(),
            dims,
            ways: round,
        }
    }

    /// The path (logical ids) of copy `copy` from node `from` to node `to`.
    pub fn path(&self, copy: u32, from: u32, to: u32) -> Vec<u32> {
        let base = copy * self.nodes;
        let mut v = from;
        let mut out = vec![base + v];
        for &(side, stride, _) in &self.dims {
            let (a, b) = (v / stride % side, to / stride % side);
            for _ in b..a {
                v -= stride;
                out.push(base + v);
            }
            for _ in a..b {
                v += stride;
                out.push(base + v);
            }
        }
        out
    }

    /// Whether copy `copy` goes + along the subarray's dimension j.
    fn plus(&self, copy: u32, j: usize) -> bool {
        (self.ways >> j & 1 == 1) != (copy == 1)
    }
}

impl Description for Orthants {
    fn count(&self) -> u32 {
        2 * self.nodes
    }
    fn level(&self, v: u32) -> u32 {
        let (copy, x) = (v / self.nodes, v % self.nodes);
        let mut level = 0;
        for (j, &(side, stride, _)) in self.dims.iter().enumerate() {
            let c = x / stride % side;
            level += if self.plus(copy, j) { c } else { side - 1 - c };
        }
        level
    }
    fn host(&self, v: u32) -> u32 {
        v % self.nodes
    }
    fn out_edges(&self, v: u32, out: &mut Vec<OutEdge>) {
        let (copy, x) = (v / self.nodes, v % self.nodes);
        for (j, &(side, stride, port)) in self.dims.iter().enumerate() {
            let c = x / stride % side;
            if self.plus(copy, j) {
                if c + 1 < side {
                    out.push(OutEdge {
                        head: v + stride,
                        port,
                        substep: 0,
                    });
                }
            } else if c > 0 {
                out.push(OutEdge {
                    head: v - stride,
                    port: port + 1,
                    substep: 0,
                });
            }
        }
    }
}

/// The leveled network of a routing along dimension `dim` of a mesh: an
/// *up* track (node v at level coord, edges +1 along dim) and a *down*
/// track (node N + v at level M + (M − 1 − coord), edges −1). Up and down
/// edges are different directed links: one logical step is one real step.
#[derive(Debug, Clone)]
pub struct Line {
    nodes: u32,
    dim: u32,
    side: u32,
    stride: u32,
}

impl Line {
    /// The line network of dimension `dim` of `grid`.
    pub fn new(grid: &Grid, dim: usize) -> Line {
        Line {
            nodes: grid.nodes(),
            dim: dim as u32,
            side: grid.dims()[dim],
            stride: grid.stride(dim),
        }
    }

    fn coord(&self, v: u32) -> u32 {
        (v % self.nodes) / self.stride % self.side
    }

    /// The path (logical ids) from real node `from` to coordinate `to`
    /// along the dimension.
    pub fn path(&self, from: u32, to: u32) -> Vec<u32> {
        let c = self.coord(from);
        if to >= c {
            (0..=to - c).map(|i| from + i * self.stride).collect()
        } else {
            (0..=c - to).map(|i| self.nodes + from - i * self.stride).collect()
        }
    }
}

impl Description for Line {
    fn count(&self) -> u32 {
        2 * self.nodes
    }
    fn level(&self, v: u32) -> u32 {
        let c = self.coord(v);
        if v < self.nodes {
            c
        } else {
            self.side + (self.side - 1 - c)
        }
    }
    fn host(&self, v: u32) -> u32 {
        v % self.nodes
    }
    fn out_edges(&self, v: u32, out: &mut Vec<OutEdge>) {
        let c = self.coord(v);
        if v < self.nodes && c + 1 < self.side {
            out.push(OutEdge {
                head: v + self.stride,
                port: 2 * self.dim,
                substep: 0,
            });
        } else if v >= self.nodes && c > 0 {
            out.push(OutEdge {
                head: v - self.stride,
                port: 2 * self.dim + 1,
                substep: 0,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(s: &str) -> Grid {
        s.parse::<Topology>().unwrap().as_grid().unwrap().clone()
    }

    #[test]
    fn the_flood_reaches_every_node_of_the_subarray_once() {
        for (s, t) in [("mesh:4x5", 0), ("mesh:3x4x5", 0), ("mesh:3x4x5", 1), ("mesh:3x4x5", 2)] {
            let g = grid(s);
            let size = block(&g, t);
            for start in 0..g.nodes() {
                let mut seen = vec![0u32; g.nodes() as usize];
                let mut stack = vec![(start, None)];
                while let Some((v, arrived)) = stack.pop() {
                    seen[v as usize] += 1;
                    for p in flood(&g, t, v, arrived) {
                        stack.push((g.neighbor(v, p).expect("a link"), Some(p)));
                    }
                }
                for v in 0..g.nodes() {
                    let inside = v / size == start / size;
                    assert_eq!(seen[v as usize], u32::from(inside), "{s} t {t} from {start} at {v}");
                }
            }
        }
    }

    /// Every edge of an orthant network climbs one level on the link it
    /// names, the two copies never share a directed link, a node has at
    /// most d − t in-edges, and the path of every pair of nodes of a
    /// subarray, in the round and copy `round_of` gives, follows edges
    /// from one to the other.
    #[test]
    fn orthant_paths_are_monotone_on_their_own_links() {
        use std::collections::{HashMap, HashSet};
        for (s, t) in [
            ("mesh:4x5", 0),
            ("mesh:3x4x5", 0),
            ("mesh:3x4x5", 1),
            ("mesh:2x3x2x3", 1),
        ] {
            let g = grid(s);
            let topo = Topology::Grid(g.clone());
            let rounds = Orthants::rounds(&g, t);
            assert_eq!(rounds, 1 << (g.dims().len() - t - 1));
            for r in 0..rounds {
                let net = Orthants::new(&g, t, r);
                let mut links: HashMap<(u32, u32), u32> = HashMap::new();
                let mut ins = vec![0u32; net.count() as usize];
                let mut out = Vec::new();
                for v in 0..net.count() {
                    out.clear();
                    net.out_edges(v, &mut out);
                    for e in &out {
                        assert_eq!(net.level(e.head), net.level(v) + 1, "{s} t {t} round {r}");
                        assert_eq!(topo.neighbor(net.host(v), e.port), Some(net.host(e.head)));
                        assert_eq!(
                            links.insert((net.host(v), e.port), v / g.nodes()),
                            None,
                            "{s}: a link twice"
                        );
                        ins[e.head as usize] += 1;
                    }
                }
                let most = (g.dims().len() - t) as u32;
                assert!(ins.iter().all(|&c| c <= most), "{s}: in-degree above {most}");
            }
            let size = block(&g, t);
            let nets: Vec<Orthants> = (0..rounds).map(|r| Orthants::new(&g, t, r)).collect();
            let mut seen = HashSet::new();
            for from in 0..g.nodes() {
                for to in (from / size * size)..(from / size + 1) * size {
                    let (round, copy) = Orthants::round_of(&g, t, from, to);
                    seen.insert((round, copy));
                    let net = &nets[round as usize];
                    let path = net.path(copy, from, to);
                    assert_eq!(net.host(path[0]), from);
                    assert_eq!(net.host(*path.last().unwrap()), to);
                    let mut edges = Vec::new();
                    for w in path.windows(2) {
                        edges.clear();
                        net.out_edges(w[0], &mut edges);
                        assert!(edges.iter().any(|e| e.head == w[1]), "{s}: {from} → {to}");
                    }
                }
            }
            assert_eq!(seen.len() as u32, 2 * rounds, "{s}: every orthant used");
        }
    }

    /// The slots' scan takes Σ_j (M_j + m − 2) steps over dimensions t..,
    /// sends only on real links, and every link along those dimensions
    /// carries exactly m messages (a node's m counts), none twice a step.
    #[test]
    fn the_scan_sends_m_counts_on_every_link_of_its_dimensions() {
        use std::collections::{HashMap, HashSet};
        for (s, t, m) in [
            ("mesh:4x5", 0, 4),
            ("mesh:3x4x5", 1, 4),
            ("mesh:6x2", 0, 6),
            ("mesh:3x4x5", 0, 3),
        ] {
            let g = grid(s);
            let topo = Topology::Grid(g.clone());
            let steps = scan(&g, t, m);
            let want: u32 = g.dims()[t..].iter().map(|&side| side + m - 2).sum();
            assert_eq!(steps.len() as u32, want, "{s}");
            let mut carried: HashMap<(u32, u32), u32> = HashMap::new();
            for step in &steps {
                let mut once = HashSet::new();
                for (v, p) in step.sends() {
                    assert!(topo.neighbor(v, p).is_some(), "{s}: node {v} port {p}");
                    assert!(once.insert((v, p)), "{s}: a link twice in a step");
                    assert!(p as usize / 2 >= t, "{s}: only the subarray's dimensions");
                    *carried.entry((v, p)).or_default() += 1;
                }
            }
            for v in 0..g.nodes() {
                for p in 2 * t as u32..2 * g.dims().len() as u32 {
                    if topo.neighbor(v, p).is_some() {
                        assert_eq!(carried.get(&(v, p)).copied(), Some(m), "{s}: node {v} port {p}");
                    }
                }
            }
        }
    }

    #[test]
    fn line_paths_follow_real_links() {
        let g = grid("mesh:3x4x5");
        let topo = Topology::Grid(g.clone());
        for dim in 0..3 {
            let line = Line::new(&g, dim);
            for v in 0..g.nodes() {
                for to in 0..g.dims()[dim] {
                    let path = line.path(v, to);
                    assert_eq!(g.coord(line.host(*path.last().unwrap()), dim), to);
                    for w in path.windows(2) {
                        let mut edges = Vec::new();
                        line.out_edges(w[0], &mut edges);
                        let e = edges.iter().find(|e| e.head == w[1]).expect("an edge");
                        assert_eq!(line.level(w[1]), line.level(w[0]) + 1);
                        assert_eq!(topo.neighbor(line.host(w[0]), e.port), Some(line.host(w[1])));
                    }
                }
            }
        }
    }
}
