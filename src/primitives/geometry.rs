//! Square meshes with a power-of-two side, their tessellations into tiles
//! (Pietracaprina–Pucci §2 and footnote 1), Hamiltonian cycles of tiles and
//! inside tiles, and snake order.
//!
//! A t-tile is one of t′ equal aligned squares of N/t′ nodes, t′ the smallest
//! power of 4 that is ≥ t (capped at N), computed in integer arithmetic.
//! Tiles are indexed along a Hamiltonian cycle of the √t′×√t′ grid of tiles
//! (the "comb" cycle of [`comb_rc`]), so tile i is adjacent to tile i+1 mod t′.

use crate::topology::{Kind, Topology};

/// A square 2-D mesh whose side is a power of two (`mesh:SxS`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mesh {
    side: u32,
    log: u32,
}

impl Mesh {
    /// The mesh of side `side`, if `side` is a power of two.
    pub fn new(side: u32) -> Option<Mesh> {
        side.is_power_of_two().then(|| Mesh {
            side,
            log: side.ilog2(),
        })
    }

    /// The mesh of `topo`, or why it is not a square mesh with a power-of-two side.
    pub fn of(topo: &Topology) -> Result<Mesh, String> {
        match (topo.kind(), topo.square_side()) {
            (Kind::Mesh, Some(side)) => {
                Mesh::new(side).ok_or_else(|| format!("a square mesh whose side is a power of two, got side {side}"))
            }
            _ => Err(format!(
                "a square mesh whose side is a power of two (mesh:SxS), got {topo}"
            )),
        }
    }

    /// Side length.
    pub fn side(&self) -> u32 {
        self.side
    }
    /// Number of nodes N = side².
    pub fn nodes(&self) -> u32 {
        self.side * self.side
    }
    /// (row, column) of node `v`.
    #[inline]
    pub fn rc(&self, v: u32) -> (u32, u32) {
        (v >> self.log, v & (self.side - 1))
    }
    /// The node at (row, column).
    #[inline]
    pub fn node(&self, r: u32, c: u32) -> u32 {
        (r << self.log) | c
    }
    /// The port of `a` that leads to its neighbour `b` (SPEC §2: port 0/1 = row ±1, 2/3 = column ±1).
    #[inline]
    pub fn port(&self, a: u32, b: u32) -> u32 {
        let ((ra, ca), (rb, cb)) = (self.rc(a), self.rc(b));
        match (rb as i64 - ra as i64, cb as i64 - ca as i64) {
            (1, 0) => 0,
            (-1, 0) => 1,
            (0, 1) => 2,
            (0, -1) => 3,
            _ => panic!("nodes {a} and {b} are not neighbours"),
        }
    }
    /// Index of `v` in the snake order of the aligned m×m square holding it
    /// (even rows left to right, odd rows right to left).
    #[inline]
    pub fn snake_index(&self, v: u32, m: u32) -> u32 {
        let (r, c) = self.rc(v);
        let (r, c) = (r & (m - 1), c & (m - 1));
        r * m + if r % 2 == 0 { c } else { m - 1 - c }
    }
    /// The node at snake index `i` of the aligned m×m square with top-left corner (r0, c0).
    #[inline]
    pub fn snake_node(&self, r0: u32, c0: u32, m: u32, i: u32) -> u32 {
        let (r, x) = (i / m, i % m);
        self.node(r0 + r, c0 + if r % 2 == 0 { x } else { m - 1 - x })
    }
}

/// The smallest power of 4 that is ≥ num/den, capped at `cap` (footnote 1 of
/// the paper; integer arithmetic). `den` ≥ 1.
pub fn pow4_at_least(num: u64, den: u64, cap: u32) -> u32 {
    let mut t: u64 = 1;
    while (t as u128) * (den as u128) < num as u128 && t < cap as u64 {
        t *= 4;
    }
    t.min(cap as u64) as u32
}

/// The smallest power of 4 that is ≥ √(num/den), capped at `cap` (the s of
/// §3: s = √(nk/ℓ) is rarely an integer).
pub fn pow4_at_least_sqrt(num: u64, den: u64, cap: u32) -> u32 {
    let mut t: u64 = 1;
    while (t as u128) * (t as u128) * (den as u128) < num as u128 && t < cap as u64 {
        t *= 4;
    }
    t.min(cap as u64) as u32
}

/// Position `i` of the comb Hamiltonian cycle of an h×w grid: row 0 left to
/// right, rows 1..h−1 as a snake over columns w−1..1, then column 0 upwards.
/// Needs h even and w ≥ 2 (or h = w = 1). Consecutive positions (and the
/// last and the first) are grid neighbours.
pub fn comb_rc(h: u32, w: u32, i: u32) -> (u32, u32) {
    if h * w == 1 {
        return (0, 0);
    }
    if i < w {
        return (0, i);
    }
    let j = i - w;
    let body = (h - 1) * (w - 1);
    if j < body {
        let row = 1 + j / (w - 1);
        let off = j % (w - 1);
        let col = if (row - 1).is_multiple_of(2) {
            w - 1 - off
        } else {
            1 + off
        };
        (row, col)
    } else {
        (h - 1 - (j - body), 0)
    }
}

/// Inverse of [`comb_rc`].
pub fn comb_index(h: u32, w: u32, r: u32, c: u32) -> u32 {
    if h * w == 1 {
        0
    } else if r == 0 {
        c
    } else if c == 0 {
        w + (h - 1) * (w - 1) + (h - 1 - r)
    } else {
        w + (r - 1) * (w - 1) + if (r - 1).is_multiple_of(2) { w - 1 - c } else { c - 1 }
    }
}

/// A tessellation of a mesh into t′ = g² equal aligned square tiles, indexed
/// along the comb cycle of the g×g grid of tiles (§2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Tiles {
    mesh: Mesh,
    g: u32,
    ts: u32,
}

impl Tiles {
    /// `count` tiles; `count` must be a power of 4 and at most N.
    pub fn new(mesh: Mesh, count: u32) -> Tiles {
        assert!(count.is_power_of_two() && count.ilog2().is_multiple_of(2) && count <= mesh.nodes());
        let g = 1u32 << (count.ilog2() / 2);
        Tiles {
            mesh,
            g,
            ts: mesh.side() / g,
        }
    }
    /// The number of tiles t′.
    pub fn count(&self) -> u32 {
        self.g * self.g
    }
    /// Side of one tile.
    pub fn tile_side(&self) -> u32 {
        self.ts
    }
    /// Nodes per tile, N/t′.
    pub fn tile_nodes(&self) -> u32 {
        self.ts * self.ts
    }
    /// Index (along the tile cycle) of the tile holding node `v`.
    #[inline]
    pub fn tile_of(&self, v: u32) -> u32 {
        let (r, c) = self.mesh.rc(v);
        comb_index(self.g, self.g, r / self.ts, c / self.ts)
    }
    /// Top-left (row, column) of tile `t`.
    #[inline]
    pub fn origin(&self, t: u32) -> (u32, u32) {
        let (tr, tc) = comb_rc(self.g, self.g, t);
        (tr * self.ts, tc * self.ts)
    }
    /// Row-major index of `v` inside its tile.
    #[inline]
    pub fn local(&self, v: u32) -> u32 {
        let (r, c) = self.mesh.rc(v);
        (r % self.ts) * self.ts + c % self.ts
    }
    /// The node of row-major index `i` in tile `t`.
    #[inline]
    pub fn node(&self, t: u32, i: u32) -> u32 {
        let (r0, c0) = self.origin(t);
        self.mesh.node(r0 + i / self.ts, c0 + i % self.ts)
    }
    /// The node `i` of the Hamiltonian cycle inside tile `t`.
    #[inline]
    pub fn cycle_node(&self, t: u32, i: u32) -> u32 {
        let (r0, c0) = self.origin(t);
        let (r, c) = comb_rc(self.ts, self.ts, i);
        self.mesh.node(r0 + r, c0 + c)
    }
    /// Position of `v` on the Hamiltonian cycle of its tile.
    #[inline]
    pub fn cycle_pos(&self, v: u32) -> u32 {
        let (r, c) = self.mesh.rc(v);
        comb_index(self.ts, self.ts, r % self.ts, c % self.ts)
    }
    /// The node at the same position as `v` in the next tile of the cycle
    /// (the blockwise shift of §3.1, Step 2.(c).iii).
    #[inline]
    pub fn shifted(&self, v: u32) -> u32 {
        let t = self.tile_of(v);
        self.node((t + 1) % self.count(), self.local(v))
    }
}
