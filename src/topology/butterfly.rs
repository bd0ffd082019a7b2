//! The butterfly with levels 0..D (SPEC §2): node id = level·2^D + row. The
//! links between level i and i+1 join row r to row r (straight) and to row
//! r xor 2^(D−1−i) (cross), so the natural level-0-to-level-D path fixes the
//! row bits from the most significant down, as bit fixing does.
//!
//! Ports: 0 straight up, 1 cross up, 2 straight down, 3 cross down.

use super::{Hop, Network, RouteOrder, MAX_NODES};

/// The D-dimensional butterfly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Butterfly {
    dim: u32,
}

/// The largest D with (D + 1)·2^D ≤ [`MAX_NODES`].
pub const MAX_BUTTERFLY_DIM: u32 = 21;
const _: () = assert!(((MAX_BUTTERFLY_DIM as u64 + 1) << MAX_BUTTERFLY_DIM) <= MAX_NODES);
const _: () = assert!(((MAX_BUTTERFLY_DIM as u64 + 2) << (MAX_BUTTERFLY_DIM + 1)) > MAX_NODES);

impl Butterfly {
    /// Builds `butterfly:D`; the error is the reason.
    pub fn new(dim: u32) -> Result<Self, String> {
        if dim > MAX_BUTTERFLY_DIM {
            return Err(format!("dimension must be between 0 and {MAX_BUTTERFLY_DIM}"));
        }
        Ok(Butterfly { dim })
    }

    /// D.
    pub fn dim(&self) -> u32 {
        self.dim
    }

    /// Rows per level, 2^D.
    pub fn rows(&self) -> u32 {
        1 << self.dim
    }

    /// (level, row) of a node.
    #[inline]
    pub fn split(&self, node: u32) -> (u32, u32) {
        (node >> self.dim, node & (self.rows() - 1))
    }

    /// The node at (level, row).
    pub fn node_at(&self, level: u32, row: u32) -> u32 {
        (level << self.dim) | row
    }

    /// The row bit flipped by a cross link between level `i` and `i+1`.
    #[inline]
    fn edge_bit(&self, i: u32) -> u32 {
        1 << (self.dim - 1 - i)
    }
}

impl Network for Butterfly {
    fn nodes(&self) -> u32 {
        (self.dim + 1) << self.dim
    }
    fn ports(&self) -> u32 {
        4
    }
    #[inline]
    fn neighbor(&self, node: u32, port: u32) -> Option<u32> {
        let (level, row) = self.split(node);
        match port {
            0 if level < self.dim => Some(self.node_at(level + 1, row)),
            1 if level < self.dim => Some(self.node_at(level + 1, row ^ self.edge_bit(level))),
            2 if level > 0 => Some(self.node_at(level - 1, row)),
            3 if level > 0 => Some(self.node_at(level - 1, row ^ self.edge_bit(level - 1))),
            _ => None,
        }
    }
    /// Every link of the butterfly counts as its own dimension for the policies.
    fn port_dim(&self, port: u32) -> u32 {
        port
    }
    /// A shortest walk must sweep the interval of levels that holds both
    /// endpoints and every edge level whose bit differs; it goes to one end
    /// of that interval first, then to the other, then back to the target.
    #[inline]
    fn distance(&self, a: u32, b: u32) -> u32 {
        let ((la, ra), (lb, rb)) = (self.split(a), self.split(b));
        let diff = ra ^ rb;
        let (mut lo, mut hi) = (la.min(lb), la.max(lb));
        if diff != 0 {
            // Edge level i flips bit D-1-i: the highest set bit is the lowest edge level.
            let lowest_edge = self.dim - 1 - (31 - diff.leading_zeros());
            let highest_edge = self.dim - 1 - diff.trailing_zeros();
            lo = lo.min(lowest_edge);
            hi = hi.max(highest_edge + 1);
        }
        let span = hi - lo;
        let via_low = (la - lo) + span + (hi - lb);
        let via_high = (hi - la) + span + (lb - lo);
        via_low.min(via_high)
    }
    fn diameter(&self) -> u32 {
        2 * self.dim
    }
    fn bisection_width(&self) -> u64 {
        1 << self.dim
    }
    /// The first port (up before down, cross before straight going up) whose
    /// neighbour is one hop closer; from level 0 to level D this is the
    /// unique natural path. `Reversed` tries straight links first.
    #[inline]
    fn next_hop(&self, cur: u32, target: u32, _packet: u32, order: RouteOrder) -> Option<Hop> {
        if cur == target {
            return None;
        }
        let d = self.distance(cur, target);
        let ports: [u32; 4] = match order {
            RouteOrder::Standard => [1, 0, 3, 2],
            RouteOrder::Reversed => [0, 1, 2, 3],
        };
        ports.into_iter().find_map(|port| {
            let w = self.neighbor(cur, port)?;
            (self.distance(w, target) + 1 == d).then_some(Hop {
                port,
                remaining_in_dim: 1,
                next: w,
            })
        })
    }
    fn dim_distance(&self, from: u32, to: u32, _dim: u32) -> u32 {
        self.split(from).0.abs_diff(self.split(to).0)
    }
}
