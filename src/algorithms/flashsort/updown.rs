//! The leveled network of Flashsort's final routing on `butterfly:D`: up
//! from level k to level D, then down to level t (2D − k − t + 1 levels;
//! t = 0 for the final routing, t > k for the lightly loaded sort's
//! balanced routings, which must change the low row bits).
//!
//! A packet at ⟨k, r⟩ of its leaf climbs to ⟨D, y⟩, fixing the low D − k
//! row bits to those of its goal g, then descends to ⟨t, g⟩: the links down
//! from level D to level k go straight (those bits are already g's), the
//! links below level k fix the top k bits. Up links serve the first part,
//! down links the second: no directed link carries two leveled edges, one
//! logical step is one real step.
//!
//! On `hypercube:D` (the butterfly emulated, [`super::host`]) the straight
//! edges stay inside a node and a cross edge is the link of its dimension;
//! the up edge between levels l and l + 1 and the down edge between levels
//! l + 1 and l then share a directed link, so a logical step takes two real
//! steps: the climb sends in the first, the descent in the second.

use crate::algorithms::lmrr::leveled::{Description, OutEdge, NONE};

const UP_STRAIGHT: u32 = 0;
const UP_CROSS: u32 = 1;
const DOWN_STRAIGHT: u32 = 2;
const DOWN_CROSS: u32 = 3;

/// Up from level `from` to D, then down to level `to`.
#[derive(Debug, Clone, Copy)]
pub struct UpDown {
    dim: u32,
    from: u32,
    to: u32,
    cube: bool,
}

impl UpDown {
    /// The network for `butterfly:dim` (or the butterfly `hypercube:dim`
    /// emulates, `cube`), climbing from level `from` and descending to
    /// level `to`.
    pub fn new(dim: u32, from: u32, to: u32, cube: bool) -> UpDown {
        UpDown { dim, from, to, cube }
    }

    fn rows(&self) -> u32 {
        1 << self.dim
    }

    /// The row bit of the real links between levels l and l + 1.
    fn bit(&self, l: u32) -> u32 {
        1 << (self.dim - 1 - l)
    }

    fn climb(&self) -> u32 {
        self.dim - self.from
    }

    fn levels(&self) -> u32 {
        self.climb() + self.dim - self.to + 1
    }

    /// The real level of logical level j.
    fn real_level(&self, j: u32) -> u32 {
        if j <= self.climb() {
            self.from + j
        } else {
            self.dim - (j - self.climb())
        }
    }

    /// The path (full logical ids) from row `row` at level `from` to row
    /// `goal` at level `to`.
    pub fn path(&self, row: u32, goal: u32) -> Vec<u32> {
        let n = self.rows();
        let mut row = row;
        let mut out = vec![row];
        for j in 0..self.levels() - 1 {
            let l = self.real_level(j);
            let bit = if j < self.climb() { self.bit(l) } else { self.bit(l - 1) };
            row ^= (row ^ goal) & bit;
            out.push((j + 1) * n + row);
        }
        out
    }
}

impl Description for UpDown {
    fn count(&self) -> u32 {
        self.levels() * self.rows()
    }
    fn level(&self, v: u32) -> u32 {
        v / self.rows()
    }
    fn host(&self, v: u32) -> u32 {
        let n = self.rows();
        if self.cube {
            v % n
        } else {
            self.real_level(v / n) * n + v % n
        }
    }
    fn substeps(&self) -> u8 {
        if self.cube {
            2
        } else {
            1
        }
    }
    fn out_edges(&self, v: u32, out: &mut Vec<OutEdge>) {
        let n = self.rows();
        let (j, row) = (v / n, v % n);
        if j + 1 >= self.levels() {
            return;
        }
        let next = (j + 1) * n;
        let l = self.real_level(j);
        let up = j < self.climb();
        let (bit, straight, cross) = if up {
            (self.bit(l), UP_STRAIGHT, UP_CROSS)
        } else {
            (self.bit(l - 1), DOWN_STRAIGHT, DOWN_CROSS)
        };
        // Hypercube port i flips bit i; a straight edge is internal.
        let (straight, cross, substep) = if self.cube {
            (NONE, bit.trailing_zeros(), u8::from(!up))
        } else {
            (straight, cross, 0)
        };
        for (head, port) in [(row, straight), (row ^ bit, cross)] {
            out.push(OutEdge {
                head: next + head,
                port,
                substep,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::{Network, Topology};

    #[test]
    fn every_path_follows_real_links_and_ends_at_its_goal_on_level_to() {
        let topo: Topology = "butterfly:4".parse().unwrap();
        for (from, to) in (0..=4).flat_map(|f| (0..=4).map(move |t| (f, t))) {
            let net = UpDown::new(4, from, to, false);
            for row in 0..16 {
                // The links below levels `from` and `to` are never taken:
                // the goal shares those top bits with the start.
                let fixed = from.min(to);
                for goal in (0..16).filter(|g| (g ^ row) >> (4 - fixed) == 0) {
                    let path = net.path(row, goal);
                    assert_eq!(path.len() as u32, net.levels());
                    assert_eq!(net.host(path[0]), from * 16 + row);
                    assert_eq!(net.host(*path.last().unwrap()), to * 16 + goal, "level to, row goal");
                    for w in path.windows(2) {
                        let mut edges = Vec::new();
                        net.out_edges(w[0], &mut edges);
                        let e = edges.iter().find(|e| e.head == w[1]).expect("an edge of the network");
                        let host = net.host(w[0]);
                        assert_eq!(topo.neighbor(host, e.port), Some(net.host(w[1])));
                    }
                }
            }
        }
    }
}
