//! The d-dimensional mesh as the leveled network of plateaus of
//! Leighton–Maggs–Ranade–Rao §6 (routing d·N packets in O(d·M) steps with
//! constant queues, M the largest side). The recovered §6 text keeps the
//! network's shape and loses its exact conditions; this is our
//! reconstruction (`docs/algorithms/lmrr.md`, "d-dimensional meshes").
//!
//! Dimensions are numbered 1..k as in the paper (k = d; the grid's
//! dimension j − 1, SPEC §2: port 2(j − 1) moves +1 along it, "up", port
//! 2(j − 1) + 1 moves −1, "down"). The network has 2k + 1 *plateaus*
//! 0..2k, each a copy of the array's N nodes: logical node ⟨p, x⟩ has id
//! p·N + x and is hosted by array node x.
//!
//! - **Pass 1** (plateaus 0..k) takes a packet to its target t (a random
//!   intermediate, or its destination on direct paths) correcting each
//!   dimension "down to 0, then up to the target": plateau 0 has the
//!   dimension-1 down links; plateau i (1 ≤ i < k) the dimension-i up links
//!   and the dimension-(i + 1) down links; plateau k the dimension-k up
//!   links. A packet on plateau i first finishes its up moves, then its
//!   down moves, and passes to plateau i + 1 where coordinate i + 1 is 0.
//! - **Pass 2** (plateaus k..2k) mirrors it from t to the destination
//!   ("up to the top M_j − 1, then down to the destination"): plateau k also
//!   has the dimension-1 up links; plateau k + i (1 ≤ i < k) the
//!   dimension-i down links and the dimension-(i + 1) up links; plateau 2k
//!   the dimension-k down links. The packet passes from plateau k + i to
//!   k + i + 1 where coordinate i + 1 is M_{i+1} − 1.
//!
//! So each plateau has edges in two dimensions (i and i + 1, plateau k in k
//! and 1), every logical node at most two in- and two out-edges (a node
//! with a transition has no link edge along that dimension's way), the only
//! edges to the next plateau leave nodes with a coordinate at an extreme,
//! and plateaus k + 1..2k repeat 1..k with directions mirrored: dimension j
//! is corrected on plateau j and again on plateau k + j.
//!
//! **Levels.** On plateau i ≤ k the level is base_i + Σ_{j≤i} x_j +
//! Σ_{j>i} (M_j − 1 − x_j) and on plateau k + i it is base_{k+i} +
//! Σ_{j≤i} (M_j − 1 − x_j) + Σ_{j>i} x_j: every link edge of a plateau
//! raises one term by 1. A transition is an internal edge (port NONE: the
//! packet waits one step on its node); from plateau i to i + 1 (i < k) at
//! x_{i+1} = 0 the potential changes by base_{i+1} − base_i + 2x_{i+1} −
//! (M_{i+1} − 1) = base_{i+1} − base_i − M_{i+1} + 1, and from plateau
//! k + i to k + i + 1 at x_{i+1} = M_{i+1} − 1 by base_{k+i+1} − base_{k+i}
//! − M_{i+1} + 1: both are 1 with base_{i+1} = base_i + M_{i+1} and
//! base_{k+i+1} = base_{k+i} + M_{i+1} (base_0 = 0, base_k = ΣM). Every
//! edge climbs exactly one level.
//!
//! **Embedding.** Every plateau edge is its host's own link in that
//! direction, so every logical step is a real one. Each directed link
//! carries two logical edges, one per pass (dimension-j up on plateaus j
//! and k + j − 1, dimension-j down on plateaus j − 1 and k + j), so with
//! both passes (`--paths valiant`) a logical step takes two real steps,
//! the first for pass 1's edges, the second for pass 2's (each a set of
//! distinct links); with pass 1 alone (direct paths) one.
//!
//! # Complexity
//! O(d) per level or out-edge query; a path of length ℓ in O(ℓ).

use super::leveled::{Description, OutEdge, NONE};
use std::sync::LazyLock;

/// The most dimensions a grid has (`topology::grid`).
const MAX_DIMS: usize = 16;

/// The leveled network of plateaus on a mesh with the given sides.
#[derive(Debug, Clone)]
pub struct Plateaus {
    sides: Vec<u32>,
    strides: Vec<u32>,
    nodes: u32,
    /// Both passes (2k + 1 plateaus) or pass 1 only (k + 1).
    valiant: bool,
    /// The level of each plateau's lowest potential.
    base: Vec<u32>,
}

impl Plateaus {
    /// The network on a mesh with `sides` (first coordinate first, 2 to 16
    /// of them): both passes if `valiant`, else pass 1 only.
    pub fn new(sides: &[u32], valiant: bool) -> Plateaus {
        let k = sides.len();
        assert!((2..=MAX_DIMS).contains(&k), "plateaus need 2 to 16 dimensions");
        let mut strides = vec![1u32; k];
        for j in (0..k - 1).rev() {
            strides[j] = strides[j + 1] * sides[j + 1];
        }
        let nodes = sides.iter().product();
        let mut base = vec![0u32];
        for p in 0..2 * k {
            base.push(base[p] + sides[p % k]);
        }
        Plateaus {
            sides: sides.to_vec(),
            strides,
            nodes,
            valiant,
            base,
        }
    }

    /// k, the number of dimensions.
    fn dims(&self) -> usize {
        self.sides.len()
    }

    /// The number of plateaus: 2k + 1 with both passes, else k + 1.
    pub fn plateaus(&self) -> u32 {
        let k = self.dims() as u32;
        if self.valiant {
            2 * k + 1
        } else {
            k + 1
        }
    }

    /// Coordinate j (0-based: the paper's dimension j + 1) of array node `x`.
    fn coord(&self, x: u32, j: usize) -> u32 {
        x / self.strides[j] % self.sides[j]
    }

    /// The level of array node `x` on plateau `p`.
    fn level_on(&self, p: usize, x: u32) -> u32 {
        let k = self.dims();
        // Pass 1 (p ≤ k): dimensions below p count up, the others down;
        // pass 2 (p = k + i): dimensions below i count down, the others up.
        let (split, low_up) = if p < k { (p, true) } else { (p - k, false) };
        let mut level = self.base[p];
        for j in 0..k {
            let c = self.coord(x, j);
            let up = (j < split) == low_up;
            level += if up { c } else { self.sides[j] - 1 - c };
        }
        level
    }

    /// The number of nodes [`Plateaus::path`] pushes (for any intermediate).
    pub fn path_len(&self, src: u32, dest: u32) -> u64 {
        let k = self.dims();
        let sum = |x: u32| (0..k).map(|j| self.coord(x, j) as u64).sum::<u64>();
        let top: u64 = self.sides.iter().map(|&m| m as u64 - 1).sum();
        if self.valiant {
            // Σ x_j + Σ t_j + k, then Σ (M_j − 1 − t_j) + Σ (M_j − 1 − d_j) + k.
            1 + sum(src) + 2 * top - sum(dest) + 2 * k as u64
        } else {
            1 + sum(src) + sum(dest) + k as u64
        }
    }

    /// The path, as logical nodes, from array node `src` to `dest` through
    /// the intermediate `via` (both passes) or straight to `dest` (pass 1
    /// only); the caller cuts it where it first reaches `dest`.
    pub fn path(&self, src: u32, dest: u32, via: u32, out: &mut Vec<u32>) {
        let (k, n) = (self.dims(), self.nodes);
        let target = if self.valiant { via } else { dest };
        let mut x = src;
        out.push(x);
        // Along dimension j to coordinate `to`, on plateau p.
        let go = |x: &mut u32, p: usize, j: usize, to: u32, out: &mut Vec<u32>| {
            let (c, s) = (self.coord(*x, j), self.strides[j]);
            for _ in to..c {
                *x -= s;
                out.push(p as u32 * n + *x);
            }
            for _ in c..to {
                *x += s;
                out.push(p as u32 * n + *x);
            }
        };
        for p in 0..k {
            if p > 0 {
                go(&mut x, p, p - 1, self.coord(target, p - 1), out);
            }
            go(&mut x, p, p, 0, out);
            out.push((p as u32 + 1) * n + x);
        }
        go(&mut x, k, k - 1, self.coord(target, k - 1), out);
        if !self.valiant {
            return;
        }
        go(&mut x, k, 0, self.sides[0] - 1, out);
        out.push((k as u32 + 1) * n + x);
        for i in 1..k {
            go(&mut x, k + i, i - 1, self.coord(dest, i - 1), out);
            go(&mut x, k + i, i, self.sides[i] - 1, out);
            out.push((k + i + 1) as u32 * n + x);
        }
        go(&mut x, 2 * k, k - 1, self.coord(dest, k - 1), out);
    }

    /// The name of plateau `p` (its links: dimension and way).
    pub fn name(&self, p: u32) -> &'static str {
        let k = self.dims();
        let slot = if !self.valiant && p as usize == k {
            2 * k + 1
        } else {
            p as usize
        };
        &NAMES[k][slot]
    }

    /// The report's phases: plateau p while some undelivered packet is on
    /// a plateau ≤ p (stage keys are plateaus, [`Description::stage_key`]).
    pub fn stages(&self) -> Vec<(&'static str, u32)> {
        let last = self.plateaus() - 1;
        (0..=last)
            .map(|p| (self.name(p), if p == last { u32::MAX } else { p + 1 }))
            .collect()
    }
}

/// Plateau names by dimension count k: slots 0..=2k name both passes'
/// plateaus, slot 2k + 1 plateau k of pass 1 alone.
static NAMES: LazyLock<Vec<Vec<String>>> = LazyLock::new(|| {
    (0..=MAX_DIMS)
        .map(|k| {
            if k < 2 {
                return Vec::new();
            }
            let mut names: Vec<String> = (0..=2 * k)
                .map(|p| {
                    let links = match p {
                        0 => "dim 1 down".to_string(),
                        p if p < k => format!("dim {p} up, dim {} down", p + 1),
                        p if p == k => format!("dim {k} up, dim 1 up"),
                        p if p < 2 * k => format!("dim {} down, dim {} up", p - k, p - k + 1),
                        _ => format!("dim {k} down"),
                    };
                    format!("plateau {p} ({links})")
                })
                .collect();
            names.push(format!("plateau {k} (dim {k} up)"));
            names
        })
        .collect()
});

impl Description for Plateaus {
    fn count(&self) -> u32 {
        self.plateaus() * self.nodes
    }
    fn level(&self, v: u32) -> u32 {
        self.level_on((v / self.nodes) as usize, v % self.nodes)
    }
    fn host(&self, v: u32) -> u32 {
        v % self.nodes
    }
    fn out_edges(&self, v: u32, out: &mut Vec<OutEdge>) {
        let (k, n) = (self.dims(), self.nodes);
        let (p, x) = ((v / n) as usize, v % n);
        let plateau = p as u32 * n;
        // Pass 1's edges send in the first real step, pass 2's in the second.
        let mut link = |j: usize, up: bool, substep: u8| {
            let c = self.coord(x, j);
            let s = self.strides[j];
            if up && c + 1 < self.sides[j] {
                out.push(OutEdge {
                    head: plateau + x + s,
                    port: 2 * j as u32,
                    substep,
                });
            } else if !up && c > 0 {
                out.push(OutEdge {
                    head: plateau + x - s,
                    port: 2 * j as u32 + 1,
                    substep,
                });
            }
        };
        let pass2 = p > k || (p == k && self.valiant);
        // The transition out of plateau p: along the dimension p corrects
        // last, at its extreme (0 in pass 1, the top in pass 2).
        let transition = match p {
            p if p < k => (self.coord(x, p) == 0).then_some(0),
            p if p < 2 * k && self.valiant => (self.coord(x, p - k) == self.sides[p - k] - 1).then_some(1),
            _ => None,
        };
        match p {
            0 => link(0, false, 0),
            p if p < k => {
                link(p - 1, true, 0);
                link(p, false, 0);
            }
            p if p == k => {
                link(k - 1, true, 0);
                if pass2 {
                    link(0, true, 1);
                }
            }
            p if p < 2 * k => {
                link(p - k - 1, false, 1);
                link(p - k, true, 1);
            }
            _ => link(k - 1, false, 1),
        }
        if let Some(substep) = transition {
            out.push(OutEdge {
                head: plateau + n + x,
                port: NONE,
                substep,
            });
        }
    }
    fn substeps(&self) -> u8 {
        if self.valiant {
            2
        } else {
            1
        }
    }
    fn stage_key(&self, v: u32) -> Option<u32> {
        Some(v / self.nodes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::{Network, Topology};
    use std::collections::HashMap;

    /// Every plateau edge climbs exactly one level and is the link it
    /// claims (the array's neighbour of its tail's host through its port is
    /// its head's host; a transition stays on its node); no directed link
    /// carries two edges of one substep (so none sends twice in a real
    /// step); every logical node has at most two in- and two out-edges;
    /// only nodes at an extreme lead to the next plateau.
    #[test]
    fn plateau_edges_climb_one_level_on_their_own_links() {
        for sides in [&[4u32, 4][..], &[3, 5], &[4, 3, 5], &[2, 3, 2, 3], &[1, 4, 3]] {
            let topo: Topology = format!(
                "mesh:{}",
                sides.iter().map(u32::to_string).collect::<Vec<_>>().join("x")
            )
            .parse()
            .unwrap();
            for valiant in [false, true] {
                let net = Plateaus::new(sides, valiant);
                let n = net.nodes;
                let mut uses: HashMap<(u32, u32, u8), u32> = HashMap::new();
                let mut ins = vec![0u32; net.count() as usize];
                let mut out = Vec::new();
                for v in 0..net.count() {
                    out.clear();
                    net.out_edges(v, &mut out);
                    assert!(out.len() <= 2, "{sides:?} node {v}: {out:?}");
                    for e in &out {
                        assert_eq!(net.level(e.head), net.level(v) + 1, "{sides:?} {v} → {e:?}");
                        ins[e.head as usize] += 1;
                        if e.port == NONE {
                            assert_eq!(e.head, v + n, "a transition goes to the next plateau");
                            assert_eq!(net.host(e.head), net.host(v));
                        } else {
                            assert_eq!(e.head / n, v / n, "a link edge stays on its plateau");
                            assert_eq!(topo.neighbor(net.host(v), e.port), Some(net.host(e.head)));
                            let twice = uses.insert((net.host(v), e.port, e.substep), v);
                            assert_eq!(twice, None, "{sides:?}: link taken twice in a substep");
                        }
                    }
                }
                assert!(ins.iter().all(|&c| c <= 2), "{sides:?}: in-degree above 2");
                // Every directed link carries one edge per pass.
                let links = topo.directed_links();
                let passes = if valiant { 2 } else { 1 };
                assert_eq!(uses.len() as u64, passes * links, "{sides:?} valiant {valiant}");
            }
        }
    }

    /// Every path is a chain of edges, its length as path_len says, ends
    /// at its destination, and passes the intermediate (both passes).
    #[test]
    fn paths_follow_edges_and_reach_their_ends() {
        let sides = [3u32, 4, 2];
        for valiant in [false, true] {
            let net = Plateaus::new(&sides, valiant);
            let n = net.nodes;
            let mut edges = Vec::new();
            for src in 0..n {
                for dest in 0..n {
                    let via = (src * 7 + dest * 3) % n;
                    let mut path = Vec::new();
                    net.path(src, dest, via, &mut path);
                    assert_eq!(path.len() as u64, net.path_len(src, dest));
                    assert_eq!(path[0], src, "starts on plateau 0");
                    assert_eq!(*path.last().unwrap(), (net.plateaus() - 1) * n + dest);
                    for w in path.windows(2) {
                        edges.clear();
                        net.out_edges(w[0], &mut edges);
                        assert!(edges.iter().any(|e| e.head == w[1]), "{src}→{dest}: {w:?}");
                    }
                    if valiant {
                        assert!(path.contains(&(sides.len() as u32 * n + via)));
                    }
                }
            }
        }
    }
}
