//! Butterflies and hypercubes as leveled networks (Leighton–Maggs–Ranade–Rao
//! §4), with direct paths (Theorem 4.2) or Valiant paths through a random
//! intermediate row (Theorem 4.1).
//!
//! - **Butterfly, direct** (`butterfly:D`, levels 0..D): the butterfly is
//!   leveled as it stands; a packet from ⟨l, r⟩ to ⟨l′, r′⟩ (l < l′) takes
//!   the unique path that fixes the row bits of levels l..l′ − 1. From the
//!   inputs to the outputs a random permutation has congestion
//!   O(log n / log log n), so it is routed in log n + o(log n) steps
//!   (Theorem 4.2).
//! - **Butterfly, logical network of Theorem 4.1** (4D + 1 levels): levels
//!   0..D are the rows read backwards (logical ⟨j, r⟩ is real ⟨D − j, r⟩,
//!   edges the straight links towards level 0), levels D..2D the butterfly
//!   (⟨j, r⟩ is ⟨j − D, r⟩), levels 2D..3D the butterfly reversed (⟨j, r⟩ is
//!   ⟨3D − j, r⟩, edges the links towards level 0) and levels 3D..4D the
//!   rows again (⟨j, r⟩ is ⟨j − 3D, r⟩, straight links towards level D). A
//!   packet at ⟨l, r⟩ starts at logical ⟨D − l, r⟩, climbs its row to level
//!   0, crosses the butterfly to a uniformly random row ρ at level D, comes
//!   back through the reversed butterfly to its destination row r′ at level
//!   0 and climbs that row to its destination level. *Embedding*: every real
//!   directed link carries at most two logical edges — links towards level
//!   0 carry the first and the third quarter's, links towards level D the
//!   second and the fourth's — so one logical step is simulated in two real
//!   steps, the first for the first two quarters (links of both directions,
//!   disjoint), the second for the last two. Every reported step is a real
//!   step; the slowdown is the constant 2 of the proof.
//! - **Hypercube** (`hypercube:D`) through its emulation of the butterfly:
//!   logical ⟨l, x⟩ is hosted by node x; the cross edge between levels l and
//!   l + 1 is the link of dimension D − 1 − l (bit fixing, most significant
//!   first), the straight edge stays inside the node (it takes no link and
//!   no step of a link). Direct paths: D + 1 levels, one real step per
//!   logical step. Valiant paths: a second butterfly, levels D..2D, fixing
//!   the bits from the least significant up (dimension m between levels
//!   D + m and D + m + 1); its edges use the same links as the first
//!   half's, so, as on the butterfly, a logical step takes two real steps.
//!
//! A path ends where the packet first reaches its destination node (it is
//! delivered there, SPEC §1).

use super::leveled::{Description, OutEdge, NONE};

/// Which leveled network.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Net {
    /// The butterfly itself (D + 1 levels).
    ButterflyDirect,
    /// Theorem 4.1's logical network on the butterfly (4D + 1 levels).
    ButterflyValiant,
    /// The emulated butterfly on the hypercube (D + 1 levels).
    HypercubeDirect,
    /// Two emulated butterflies on the hypercube (2D + 1 levels).
    HypercubeValiant,
}

/// A leveled network of [`Net`] for dimension D.
#[derive(Debug, Clone, Copy)]
pub struct Layered {
    net: Net,
    dim: u32,
}

// Butterfly ports (`topology::butterfly`): towards level D straight, cross;
// towards level 0 straight, cross.
const UP_STRAIGHT: u32 = 0;
const UP_CROSS: u32 = 1;
const DOWN_STRAIGHT: u32 = 2;
const DOWN_CROSS: u32 = 3;

impl Layered {
    /// The network `net` of dimension `dim`.
    pub fn new(net: Net, dim: u32) -> Layered {
        Layered { net, dim }
    }

    fn rows(&self) -> u32 {
        1 << self.dim
    }

    /// The row bit of the butterfly's links between levels i and i + 1.
    fn bit(&self, i: u32) -> u32 {
        1 << (self.dim - 1 - i)
    }

    /// The number of levels (depth + 1).
    pub fn levels(&self) -> u32 {
        let d = self.dim;
        match self.net {
            Net::ButterflyDirect | Net::HypercubeDirect => d + 1,
            Net::ButterflyValiant => 4 * d + 1,
            Net::HypercubeValiant => 2 * d + 1,
        }
    }

    /// Named stages and the level each ends at (for the report's phases).
    pub fn stages(&self) -> Vec<(&'static str, u32)> {
        let d = self.dim;
        match self.net {
            Net::ButterflyDirect | Net::HypercubeDirect => vec![("route", u32::MAX)],
            Net::ButterflyValiant => vec![
                ("to-level-0", d),
                ("to-random-row", 2 * d),
                ("to-destination-row", 3 * d),
                ("to-destination-level", u32::MAX),
            ],
            Net::HypercubeValiant => vec![("to-random-node", d), ("to-destination", u32::MAX)],
        }
    }

    /// The logical node where a packet at real node `src` starts.
    fn start(&self, src: u32) -> u32 {
        let n = self.rows();
        match self.net {
            Net::ButterflyDirect => src,
            Net::ButterflyValiant => (self.dim - src / n) * n + src % n,
            Net::HypercubeDirect | Net::HypercubeValiant => src,
        }
    }

    /// The path, as logical nodes, of a packet from real node `src` to real
    /// node `dest` through the random row `via` (Valiant networks only); it
    /// may go past `dest` (the caller cuts it there).
    pub fn path(&self, src: u32, dest: u32, via: u32, out: &mut Vec<u32>) {
        let (n, d) = (self.rows(), self.dim);
        let v = self.start(src);
        out.push(v);
        let (mut level, mut row) = (v / n, v % n);
        let mut push = |level: u32, row: u32| out.push(level * n + row);
        // Climb logical levels up to `to`, fixing towards `goal` the bit
        // that `bit_at(level)` names (0: a straight edge).
        let mut climb = |level: &mut u32, row: &mut u32, to: u32, goal: u32, bit_at: &dyn Fn(u32) -> u32| {
            while *level < to {
                let bit = bit_at(*level);
                *row ^= (*row ^ goal) & bit;
                *level += 1;
                push(*level, *row);
            }
        };
        match self.net {
            Net::ButterflyDirect => {
                let (to, goal) = (dest / n, dest % n);
                climb(&mut level, &mut row, to, goal, &|l| self.bit(l));
            }
            Net::ButterflyValiant => {
                let (dl, dr) = (dest / n, dest % n);
                climb(&mut level, &mut row, d, 0, &|_| 0);
                climb(&mut level, &mut row, 2 * d, via, &|j| self.bit(j - d));
                // Logical level j = 2D + m is real level D − m; its link down
                // crosses the bit of real levels D − m − 1 and D − m.
                climb(&mut level, &mut row, 3 * d, dr, &|j| self.bit(3 * d - j - 1));
                climb(&mut level, &mut row, 3 * d + dl, dr, &|_| 0);
            }
            Net::HypercubeDirect => climb(&mut level, &mut row, d, dest, &|l| self.bit(l)),
            Net::HypercubeValiant => {
                climb(&mut level, &mut row, d, via, &|l| self.bit(l));
                climb(&mut level, &mut row, 2 * d, dest, &|j| 1 << (j - d));
            }
        }
    }
}

impl Description for Layered {
    fn count(&self) -> u32 {
        self.levels() * self.rows()
    }
    fn level(&self, v: u32) -> u32 {
        v / self.rows()
    }
    fn host(&self, v: u32) -> u32 {
        let (n, d) = (self.rows(), self.dim);
        let (j, row) = (v / n, v % n);
        match self.net {
            Net::ButterflyDirect => v,
            Net::ButterflyValiant => {
                let level = match j {
                    j if j <= d => d - j,
                    j if j <= 2 * d => j - d,
                    j if j <= 3 * d => 3 * d - j,
                    j => j - 3 * d,
                };
                level * n + row
            }
            Net::HypercubeDirect | Net::HypercubeValiant => row,
        }
    }
    fn out_edges(&self, v: u32, out: &mut Vec<OutEdge>) {
        let (n, d) = (self.rows(), self.dim);
        let (j, row) = (v / n, v % n);
        if j + 1 >= self.levels() {
            return;
        }
        let next = (j + 1) * n;
        let mut edge = |row: u32, port: u32, substep: u8| {
            out.push(OutEdge {
                head: next + row,
                port,
                substep,
            })
        };
        match self.net {
            Net::ButterflyDirect => {
                edge(row, UP_STRAIGHT, 0);
                edge(row ^ self.bit(j), UP_CROSS, 0);
            }
            Net::ButterflyValiant if j < d => edge(row, DOWN_STRAIGHT, 0),
            Net::ButterflyValiant if j < 2 * d => {
                edge(row, UP_STRAIGHT, 0);
                edge(row ^ self.bit(j - d), UP_CROSS, 0);
            }
            Net::ButterflyValiant if j < 3 * d => {
                edge(row, DOWN_STRAIGHT, 1);
                edge(row ^ self.bit(3 * d - j - 1), DOWN_CROSS, 1);
            }
            Net::ButterflyValiant => edge(row, UP_STRAIGHT, 1),
            Net::HypercubeDirect | Net::HypercubeValiant => {
                // Hypercube port i flips bit i.
                let (bit, substep) = if j < d { (self.bit(j), 0) } else { (1 << (j - d), 1) };
                edge(row, NONE, substep);
                edge(row ^ bit, bit.trailing_zeros(), substep);
            }
        }
    }
    fn substeps(&self) -> u8 {
        match self.net {
            Net::ButterflyDirect | Net::HypercubeDirect => 1,
            Net::ButterflyValiant | Net::HypercubeValiant => 2,
        }
    }
}
