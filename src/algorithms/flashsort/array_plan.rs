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

use super::relay::{relay, Step, Steps};
use crate::algorithms::lmrr::leveled::{Description, OutEdge};
use crate::rng::Rng;
use crate::topology::{Grid, Network, Topology};

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
    pub gather: Steps,
    /// Candidates drawn, over all subarrays.
    pub candidates: u32,
    /// (packet, the coordinate along dimension t it goes to), every packet.
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
///    splitters at or below its key; it goes along dimension t to that
///    coordinate. On the last level a packet's rank r in its line is
///    exact (every key is a candidate): it goes to coordinate r mod M.
pub fn level(grid: &Grid, t: usize, at: &[Vec<u32>], keys: &[u64], oversample: u32, rng: &mut Rng) -> LevelPlan {
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
            for (r, &p) in cands.iter().enumerate() {
                moves.push((p, r as u32 % m));
                ranks.push((p, offset + r as u32));
            }
            offset += total;
            continue;
        }
        let count = cands.len() as u64;
        let splitters: Vec<(u64, u32)> = if count == 0 {
            Vec::new()
        } else {
            (1..u64::from(m))
                .map(|i| key(cands[(i * count / u64::from(m)) as usize]))
                .collect()
        };
        for &(_, p) in &held {
            moves.push((p, splitters.partition_point(|&s| s <= key(p)) as u32));
        }
    }
    let ports = 2 * d as u64;
    let topo = Topology::Grid(grid.clone());
    let gather = relay(
        &topo,
        &items,
        |_, node, arrived| flood(grid, t, node, arrived),
        |node, port| u64::from(node) * ports + u64::from(port),
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
                blocks: Vec::new(),
            });
        }
    }
    steps
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
