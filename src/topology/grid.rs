//! Linear arrays, rings, and d-dimensional meshes and tori (SPEC §2).
//! Node ids are row-major with the last coordinate fastest; port `2i` moves
//! +1 along dimension `i`, port `2i+1` moves −1.

use super::{Hop, Kind, Network, RouteOrder, MAX_NODES};
use std::hint::select_unpredictable;

/// Division by a fixed 32-bit divisor as a multiply (Lemire, Kaser and Kurz,
/// "Faster remainder by direct computation", 2019): exact for every u32
/// numerator. Coordinates are computed in the engine's inner loop, where a
/// hardware division would dominate the step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct FastDiv {
    divisor: u32,
    magic: u64,
}

impl FastDiv {
    fn new(divisor: u32) -> Self {
        // For divisor 1 the magic wraps to 0: `rem` is then 0 and `div` is special-cased.
        FastDiv {
            divisor,
            magic: (u64::MAX / divisor as u64).wrapping_add(1),
        }
    }

    #[inline]
    fn div(self, n: u32) -> u32 {
        if self.divisor == 1 {
            return n;
        }
        self.div_by_more_than_one(n)
    }

    /// [`FastDiv::div`] for a divisor of at least 2 (the caller knows).
    #[inline(always)]
    fn div_by_more_than_one(self, n: u32) -> u32 {
        debug_assert!(self.divisor > 1);
        mul_high(self.magic, n) as u32
    }

    #[inline]
    fn rem(self, n: u32) -> u32 {
        let low = self.magic.wrapping_mul(n as u64);
        mul_high(low, self.divisor) as u32
    }
}

/// The high 64 bits of the 96-bit product `a · b`, exactly. Natively one
/// 64×64→128 multiply; on 32-bit targets (wasm32, which has no 128-bit
/// product: `u128` becomes a call to the 128×128 `__multi3`) two 64-bit
/// products of `b` with a's halves: a·b = hi·b·2³² + lo·b, and
/// ⌊a·b / 2⁶⁴⌋ = ⌊(hi·b + ⌊lo·b / 2³²⌋) / 2³²⌋, whose sum stays below 2⁶⁴.
#[inline(always)]
fn mul_high(a: u64, b: u32) -> u64 {
    #[cfg(target_pointer_width = "64")]
    {
        ((a as u128 * b as u128) >> 64) as u64
    }
    #[cfg(not(target_pointer_width = "64"))]
    {
        mul_high_by_halves(a, b)
    }
}

/// [`mul_high`] from two 64-bit products (the 32-bit targets' way).
#[cfg(any(test, not(target_pointer_width = "64")))]
#[inline(always)]
fn mul_high_by_halves(a: u64, b: u32) -> u64 {
    let (hi, lo, b) = (a >> 32, a & 0xFFFF_FFFF, b as u64);
    (hi * b + ((lo * b) >> 32)) >> 32
}

/// A d-dimensional mesh or torus (d = 1 gives linear arrays and rings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    kind: Kind,
    sides: Vec<u32>,
    strides: Vec<u32>,
    side_div: Vec<FastDiv>,
    stride_div: Vec<FastDiv>,
    wrap: bool,
    nodes: u32,
    /// The 2-D shape, for the engine's inner loop (`None` if d ≠ 2 or
    /// there is one column).
    plane: Option<Plane>,
}

/// A 2-D mesh or torus with its sizes held by value, so that the route of
/// the common case reads no heap memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Plane {
    rows: u32,
    cols: u32,
    cols_div: FastDiv,
    wrap: bool,
}

impl Plane {
    /// [`Network::next_hop`] on the plane (dimension 1, the column, first
    /// in the standard order).
    #[inline(always)]
    fn next_hop(self, cur: u32, target: u32, packet: u32, order: RouteOrder) -> Option<Hop> {
        if cur == target {
            return None;
        }
        let div = |n| self.cols_div.div_by_more_than_one(n);
        let (r1, r2) = (div(cur), div(target));
        let (c1, c2) = (cur - r1 * self.cols, target - r2 * self.cols);
        let along_row = if order == RouteOrder::Standard {
            c1 != c2
        } else {
            r1 == r2
        };
        // (dimension, coordinates of cur and target in it, side, stride),
        // chosen without a branch: which dimension is data.
        let pick = |row: u32, col: u32| select_unpredictable(along_row, row, col);
        let (dim, c, t) = (along_row as u32, pick(c1, r1), pick(c2, r2));
        let (side, stride) = (pick(self.cols, self.rows), pick(1, self.cols));
        let (neg, remaining) = direction(self.wrap, c, t, side, packet);
        Some(Hop {
            port: 2 * dim + neg,
            remaining_in_dim: remaining,
            next: step_along(self.wrap, cur, c, side, stride, neg),
        })
    }
}

impl Plane {
    /// [`Network::neighbor`] on the plane for a node and port that exist
    /// (port 0/1: row ±1, 2/3: column ±1), without the general grid's
    /// divisions per dimension (scripted moves and control messages ask it
    /// once each).
    #[inline(always)]
    fn neighbor(self, node: u32, port: u32) -> Option<u32> {
        let r = self.cols_div.div_by_more_than_one(node);
        let c = node - r * self.cols;
        let (coord, side, stride) = if port < 2 {
            (r, self.rows, self.cols)
        } else {
            (c, self.cols, 1)
        };
        let neg = port % 2;
        let at_border = if neg == 0 { coord + 1 == side } else { coord == 0 };
        (!at_border || self.wrap).then(|| step_along(self.wrap, node, coord, side, stride, neg))
    }
}

impl Grid {
    /// Builds a grid; the error is the reason, for the caller to wrap.
    pub fn new(kind: Kind, sides: Vec<u32>) -> Result<Grid, String> {
        let wrap = matches!(kind, Kind::Ring | Kind::Torus);
        if sides.is_empty() || sides.len() > super::MAX_SIDES {
            return Err(format!("expected between 1 and {} sides", super::MAX_SIDES));
        }
        let mut nodes: u64 = 1;
        for &s in &sides {
            // A ring's or torus's 0 is refused with its own minimum (it was
            // told "at least 1"; the CLI audit of 2026-12-01).
            if wrap && s < 3 {
                return Err("rings and tori need sides of at least 3".into());
            }
            if s == 0 {
                return Err("every side must be at least 1".into());
            }
            nodes = nodes
                .checked_mul(s as u64)
                .filter(|&n| n <= MAX_NODES)
                .ok_or_else(|| format!("more than {MAX_NODES} nodes"))?;
        }
        let mut strides = vec![1u32; sides.len()];
        for i in (0..sides.len() - 1).rev() {
            strides[i] = strides[i + 1] * sides[i + 1];
        }
        let side_div = sides.iter().map(|&s| FastDiv::new(s)).collect();
        let stride_div = strides.iter().map(|&s| FastDiv::new(s)).collect();
        // (An R×1 grid is a line in disguise: the general route serves it.)
        let plane = (sides.len() == 2 && sides[1] >= 2).then(|| Plane {
            rows: sides[0],
            cols: sides[1],
            cols_div: FastDiv::new(sides[1]),
            wrap,
        });
        Ok(Grid {
            plane,
            kind,
            sides,
            strides,
            side_div,
            stride_div,
            wrap,
            nodes: nodes as u32,
        })
    }

    /// Linear, ring, mesh or torus.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// Side lengths, first coordinate first.
    pub fn dims(&self) -> &[u32] {
        &self.sides
    }

    /// Whether links wrap around (ring, torus).
    pub fn wraps(&self) -> bool {
        self.wrap
    }

    /// Coordinate `dim` of `node`.
    #[inline]
    pub fn coord(&self, node: u32, dim: usize) -> u32 {
        self.side_div[dim].rem(self.stride_div[dim].div(node))
    }

    /// All coordinates of `node`.
    pub fn coords(&self, node: u32) -> Vec<u32> {
        (0..self.sides.len()).map(|d| self.coord(node, d)).collect()
    }

    /// The node with the given coordinates (which must be in range).
    pub fn node_at(&self, coords: &[u32]) -> u32 {
        coords.iter().zip(&self.strides).map(|(c, s)| c * s).sum()
    }

    /// Id stride of dimension `dim`.
    pub fn stride(&self, dim: usize) -> u32 {
        self.strides[dim]
    }

    /// [`Network::next_hop`] for any number of dimensions.
    #[inline(never)]
    fn next_hop_any_dimension(&self, cur: u32, target: u32, packet: u32, order: RouteOrder) -> Option<Hop> {
        if cur == target {
            return None;
        }
        let d = self.sides.len();
        match order {
            RouteOrder::Standard => (0..d).rev().find_map(|dim| self.hop_in_dim(cur, target, dim, packet)),
            RouteOrder::Reversed => (0..d).find_map(|dim| self.hop_in_dim(cur, target, dim, packet)),
        }
    }

    #[inline]
    fn hop_in_dim(&self, cur: u32, target: u32, dim: usize, packet: u32) -> Option<Hop> {
        let (c, t) = (self.coord(cur, dim), self.coord(target, dim));
        if c == t {
            return None;
        }
        let (neg, remaining) = direction(self.wrap, c, t, self.sides[dim], packet);
        Some(Hop {
            port: 2 * dim as u32 + neg,
            remaining_in_dim: remaining,
            next: self.step_from(cur, c, dim, neg),
        })
    }

    /// [`Network::neighbor`] in any number of dimensions.
    fn neighbor_any_dimension(&self, node: u32, port: u32) -> Option<u32> {
        let dim = (port / 2) as usize;
        let side = *self.sides.get(dim)?;
        let c = self.coord(node, dim);
        let neg = port % 2;
        let at_border = if neg == 0 { c + 1 == side } else { c == 0 };
        (!at_border || self.wrap).then(|| self.step_from(node, c, dim, neg))
    }

    /// The neighbour of `node` (coordinate `c` in `dim`) one step in
    /// direction `neg` (0 for +, 1 for −), wrapping on rings and tori; the
    /// caller guarantees the link exists.
    #[inline]
    fn step_from(&self, node: u32, c: u32, dim: usize, neg: u32) -> u32 {
        step_along(self.wrap, node, c, self.sides[dim], self.strides[dim], neg)
    }
}

/// Step along one dimension of size `side` from coordinate `c` to `t`:
/// (port offset 0 for +, 1 for −; hops remaining that way). With `wrap`
/// (rings, tori) the shorter way, a tie going + for even packet ids.
#[inline(always)]
pub(crate) fn direction(wrap: bool, c: u32, t: u32, side: u32, packet: u32) -> (u32, u32) {
    // Written without branches: which way a packet goes is data the
    // processor cannot predict, and routing is the engine's inner loop.
    if !wrap {
        return ((t < c) as u32, t.abs_diff(c));
    }
    let fwd = t.wrapping_sub(c).wrapping_add(side * (t < c) as u32);
    let back = side - fwd;
    let neg = (fwd > back) as u32 | ((fwd == back) as u32 & packet);
    let neg = neg & 1;
    (neg, if neg == 0 { fwd } else { back })
}

/// The neighbour of `node`, at coordinate `c` of a dimension with `side`
/// and id `stride`, one step in direction `neg` (0 for +, 1 for −),
/// wrapping around if `wrap`; the caller guarantees the link exists.
#[inline(always)]
fn step_along(wrap: bool, node: u32, c: u32, side: u32, stride: u32, neg: u32) -> u32 {
    if !wrap {
        return node.wrapping_add(stride.wrapping_mul(1u32.wrapping_sub(2 * neg)));
    }
    let to = c.wrapping_add(1).wrapping_sub(2 * neg);
    let to = if to == side {
        0
    } else if to == u32::MAX {
        side - 1
    } else {
        to
    };
    node.wrapping_add(to.wrapping_sub(c).wrapping_mul(stride))
}

impl Network for Grid {
    #[inline]
    fn nodes(&self) -> u32 {
        self.nodes
    }

    #[inline]
    fn ports(&self) -> u32 {
        2 * self.sides.len() as u32
    }

    #[inline]
    fn neighbor(&self, node: u32, port: u32) -> Option<u32> {
        if let Some(plane) = self.plane {
            if node < self.nodes && port < 4 {
                return plane.neighbor(node, port);
            }
        }
        self.neighbor_any_dimension(node, port)
    }

    #[inline]
    fn port_dim(&self, port: u32) -> u32 {
        port / 2
    }

    fn distance(&self, a: u32, b: u32) -> u32 {
        (0..self.sides.len()).map(|d| self.dim_distance(a, b, d as u32)).sum()
    }

    fn diameter(&self) -> u32 {
        self.sides.iter().map(|&s| if self.wrap { s / 2 } else { s - 1 }).sum()
    }

    fn bisection_width(&self) -> u64 {
        if self.nodes == 1 {
            return 0;
        }
        let longest = *self.sides.iter().max().expect("at least one side") as u64;
        let cross_section = self.nodes as u64 / longest;
        if self.wrap {
            2 * cross_section
        } else {
            cross_section
        }
    }

    #[inline(always)]
    fn next_hop(&self, cur: u32, target: u32, packet: u32, order: RouteOrder) -> Option<Hop> {
        match self.plane {
            Some(plane) => plane.next_hop(cur, target, packet, order),
            None => self.next_hop_any_dimension(cur, target, packet, order),
        }
    }

    #[inline]
    fn dim_distance(&self, from: u32, to: u32, dim: u32) -> u32 {
        let dim = dim as usize;
        let (a, b) = (self.coord(from, dim), self.coord(to, dim));
        let diff = a.abs_diff(b);
        if self.wrap {
            diff.min(self.sides[dim] - diff)
        } else {
            diff
        }
    }

    fn degree(&self, node: u32) -> u32 {
        if self.wrap {
            return self.ports();
        }
        (0..self.sides.len())
            .map(|d| {
                let c = self.coord(node, d);
                (c > 0) as u32 + (c + 1 < self.sides[d]) as u32
            })
            .sum()
    }

    fn directed_links(&self) -> u64 {
        let n = self.nodes as u64;
        self.sides
            .iter()
            .map(|&s| {
                let s = s as u64;
                let per_line = if self.wrap { s } else { s - 1 };
                2 * per_line * (n / s)
            })
            .sum()
    }
}

/// The distance from `a` to `b` along one axis of `side` nodes (`wraps`:
/// the shorter way round).
fn axis_distance(a: u32, b: u32, side: u32, wraps: bool) -> u32 {
    let d = a.abs_diff(b);
    if wraps {
        d.min(side - d)
    } else {
        d
    }
}

/// The largest distance a packet from `s` to `d` moves along one axis of
/// `grid` (ring distance on a torus).
pub fn packet_locality(grid: &Grid, s: u32, d: u32) -> u32 {
    let wraps = grid.wraps();
    (0..grid.dims().len())
        .map(|axis| axis_distance(grid.coord(s, axis), grid.coord(d, axis), grid.dims()[axis], wraps))
        .max()
        .unwrap_or(0)
}

/// The locality of `packets` on `grid` (Kaufmann–Sibeyn §9): the largest distance a packet
/// moves along one axis (ring distance on a torus); 0 for none.
pub fn instance_locality(grid: &Grid, packets: &[(u32, u32)]) -> u32 {
    packets
        .iter()
        .map(|&(s, d)| packet_locality(grid, s, d))
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::{FastDiv, Grid};
    use crate::topology::{Kind, Network};

    #[test]
    fn plane_neighbors_are_the_general_ones() {
        for (kind, rows, cols) in [
            (Kind::Mesh, 1, 2),
            (Kind::Mesh, 2, 2),
            (Kind::Mesh, 5, 7),
            (Kind::Mesh, 16, 16),
            (Kind::Torus, 3, 3),
            (Kind::Torus, 4, 9),
        ] {
            let g = Grid::new(kind, vec![rows, cols]).expect("a valid grid");
            assert!(g.plane.is_some());
            for node in 0..g.nodes() + 3 {
                for port in 0..6 {
                    assert_eq!(
                        g.neighbor(node, port),
                        g.neighbor_any_dimension(node, port),
                        "{kind:?} {rows}x{cols} node {node} port {port}"
                    );
                }
            }
        }
    }

    #[test]
    fn high_product_by_halves_is_exact() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut cases = vec![(u64::MAX, u32::MAX), (0, 0), (u64::MAX, 1), (1 << 32, u32::MAX)];
        for _ in 0..10_000 {
            x = x
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            cases.push((x, (x >> 17) as u32));
        }
        for (a, b) in cases {
            let want = ((a as u128 * b as u128) >> 64) as u64;
            assert_eq!(super::mul_high_by_halves(a, b), want, "{a} × {b}");
        }
    }

    #[test]
    fn fast_division_is_exact() {
        for d in [1u32, 2, 3, 7, 10, 255, 256, 1000, 65_535, 1 << 20, u32::MAX] {
            let f = FastDiv::new(d);
            for n in [
                0u32,
                1,
                2,
                d - 1,
                d,
                d.wrapping_add(1),
                12_345_678,
                u32::MAX - 1,
                u32::MAX,
            ] {
                assert_eq!((f.div(n), f.rem(n)), (n / d, n % d), "{n} / {d}");
            }
        }
    }
}
