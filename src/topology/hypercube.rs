//! The binary hypercube (SPEC §2): node ids are D-bit labels and port `i`
//! flips bit `i`, so every link is its own dimension.

use super::{Hop, Network, RouteOrder, MAX_NODES};

/// The D-dimensional hypercube.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hypercube {
    dim: u32,
}

impl Hypercube {
    /// Builds `hypercube:D`; the error is the reason.
    pub fn new(dim: u32) -> Result<Self, String> {
        if (1u64 << dim.min(63)) > MAX_NODES {
            return Err(format!("dimension must be between 0 and {}", MAX_NODES.ilog2()));
        }
        Ok(Hypercube { dim })
    }

    /// D.
    pub fn dim(&self) -> u32 {
        self.dim
    }
}

impl Network for Hypercube {
    fn nodes(&self) -> u32 {
        1 << self.dim
    }
    fn ports(&self) -> u32 {
        self.dim
    }
    #[inline]
    fn neighbor(&self, node: u32, port: u32) -> Option<u32> {
        (port < self.dim).then(|| node ^ (1 << port))
    }
    fn port_dim(&self, port: u32) -> u32 {
        port
    }
    #[inline]
    fn distance(&self, a: u32, b: u32) -> u32 {
        (a ^ b).count_ones()
    }
    fn diameter(&self) -> u32 {
        self.dim
    }
    fn bisection_width(&self) -> u64 {
        1 << (self.dim - 1)
    }
    /// Bit fixing: the most significant differing bit first (Standard).
    #[inline]
    fn next_hop(&self, cur: u32, target: u32, _packet: u32, order: RouteOrder) -> Option<Hop> {
        let diff = cur ^ target;
        if diff == 0 {
            return None;
        }
        let port = match order {
            RouteOrder::Standard => 31 - diff.leading_zeros(),
            RouteOrder::Reversed => diff.trailing_zeros(),
        };
        Some(Hop {
            port,
            remaining_in_dim: 1,
            next: cur ^ (1 << port),
        })
    }
    fn dim_distance(&self, from: u32, to: u32, dim: u32) -> u32 {
        ((from ^ to) >> dim) & 1
    }
    fn degree(&self, _node: u32) -> u32 {
        self.dim
    }
    fn directed_links(&self) -> u64 {
        (self.dim as u64) << self.dim
    }
}
