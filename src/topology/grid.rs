//! Linear arrays, rings, and d-dimensional meshes and tori (SPEC §2).
//! Node ids are row-major with the last coordinate fastest; port `2i` moves
//! +1 along dimension `i`, port `2i+1` moves −1.

use super::{Hop, Kind, Network, RouteOrder, MAX_NODES};

/// A d-dimensional mesh or torus (d = 1 gives linear arrays and rings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grid {
    kind: Kind,
    sides: Vec<u32>,
    strides: Vec<u32>,
    wrap: bool,
    nodes: u32,
}

impl Grid {
    /// Builds a grid; the error is the reason, for the caller to wrap.
    pub fn new(kind: Kind, sides: Vec<u32>) -> Result<Grid, String> {
        let wrap = matches!(kind, Kind::Ring | Kind::Torus);
        if sides.is_empty() || sides.len() > 16 {
            return Err("expected between 1 and 16 sides".into());
        }
        let mut nodes: u64 = 1;
        for &s in &sides {
            if s == 0 {
                return Err("every side must be at least 1".into());
            }
            if wrap && s < 3 {
                return Err("rings and tori need sides of at least 3".into());
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
        Ok(Grid {
            kind,
            sides,
            strides,
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
        (node / self.strides[dim]) % self.sides[dim]
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

    /// Step along one dimension from coordinate `c` to `t`: (port offset 0
    /// for +, 1 for −; hops remaining that way).
    #[inline]
    fn direction(&self, c: u32, t: u32, side: u32, packet: u32) -> (u32, u32) {
        if !self.wrap {
            return if t > c { (0, t - c) } else { (1, c - t) };
        }
        let fwd = if t >= c { t - c } else { t + side - c };
        let back = side - fwd;
        if fwd < back || (fwd == back && packet % 2 == 0) {
            (0, fwd)
        } else {
            (1, back)
        }
    }

    #[inline]
    fn hop_in_dim(&self, cur: u32, target: u32, dim: usize, packet: u32) -> Option<Hop> {
        let (c, t) = (self.coord(cur, dim), self.coord(target, dim));
        if c == t {
            return None;
        }
        let (neg, remaining) = self.direction(c, t, self.sides[dim], packet);
        Some(Hop {
            port: 2 * dim as u32 + neg,
            remaining_in_dim: remaining,
        })
    }
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
        let dim = (port / 2) as usize;
        let (side, stride) = (*self.sides.get(dim)?, self.strides[dim]);
        let c = self.coord(node, dim);
        if port % 2 == 0 {
            if c + 1 < side {
                Some(node + stride)
            } else if self.wrap {
                Some(node - c * stride)
            } else {
                None
            }
        } else if c > 0 {
            Some(node - stride)
        } else if self.wrap {
            Some(node + (side - 1) * stride)
        } else {
            None
        }
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

    #[inline]
    fn next_hop(&self, cur: u32, target: u32, packet: u32, order: RouteOrder) -> Option<Hop> {
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
