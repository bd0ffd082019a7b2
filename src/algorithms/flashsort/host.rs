//! The butterfly Flashsort runs on, and the real network that hosts it:
//! `butterfly:D` itself, or `hypercube:D` through its emulation of the
//! butterfly (LMRR §8, "the hypercube by emulation"; `lmrr` routes the
//! same way): logical node ⟨l, x⟩ lives at hypercube node x, the cross edge
//! between levels l and l + 1 is the link of dimension D − 1 − l, and the
//! straight edges stay inside a node — they take no link, but a message or
//! a packet on one still takes its step, as in `lmrr`'s emulation.
//!
//! On the hypercube the up cross edge out of ⟨l, x⟩ and the down cross
//! edge out of ⟨l + 1, x⟩ are one directed link: Flashsort never sends
//! both ways in one phase, and the relays key their queues by the real
//! link, so the engine still sees one message per link per step.

use super::updown::UpDown;
use crate::algorithms::lmrr::butterfly::{Layered, Net};
use crate::topology::{Butterfly, Topology};

/// Butterfly ports (`topology::butterfly`).
const UP_CROSS: u32 = 1;
const DOWN_CROSS: u32 = 3;

/// The logical butterfly of dimension D and its host.
#[derive(Debug, Clone)]
pub struct Host {
    dim: u32,
    /// Hosted by `hypercube:D` (else the butterfly is the network).
    cube: bool,
    logical: Topology,
}

impl Host {
    /// The butterfly of `topo` (a butterfly, or a hypercube's emulated one);
    /// `None` for other networks.
    pub fn of(topo: &Topology) -> Option<Host> {
        let (dim, cube) = match topo {
            Topology::Butterfly(b) => (b.dim(), false),
            Topology::Hypercube(h) => (crate::topology::Network::ports(h), true),
            _ => return None,
        };
        let logical = Topology::Butterfly(Butterfly::new(dim.max(1)).ok()?);
        Some(Host { dim, cube, logical })
    }

    /// D.
    pub fn dim(&self) -> u32 {
        self.dim
    }

    /// The logical butterfly (its links give the relays' next nodes).
    pub fn logical(&self) -> &Topology {
        &self.logical
    }

    /// The logical node ⟨level, row⟩.
    pub fn node(&self, level: u32, row: u32) -> u32 {
        (level << self.dim) | row
    }

    /// The logical node at level `level` of the packet at real node `real`.
    pub fn at_level(&self, real: u32, level: u32) -> u32 {
        if self.cube {
            self.node(level, real)
        } else {
            real
        }
    }

    /// The real node hosting logical node `v`.
    pub fn host(&self, v: u32) -> u32 {
        if self.cube {
            v & ((1 << self.dim) - 1)
        } else {
            v
        }
    }

    /// The real link a logical (node, port) message takes — (host, port),
    /// or `None` for a straight edge inside a hypercube node.
    pub fn real(&self, v: u32, port: u32) -> Option<(u32, u32)> {
        if !self.cube {
            return Some((v, port));
        }
        let level = v >> self.dim;
        // The cross edge between levels l and l + 1 flips bit D − 1 − l.
        match port {
            UP_CROSS => Some((self.host(v), self.dim - 1 - level)),
            DOWN_CROSS => Some((self.host(v), self.dim - level)),
            _ => None,
        }
    }

    /// The queue a relay keeps for logical (node, port): the real link's,
    /// or one of its own for an internal edge.
    pub fn link_key(&self, v: u32, port: u32) -> u64 {
        match self.real(v, port) {
            Some((host, p)) => u64::from(host) * 8 + u64::from(p),
            None => (1 << 40) + u64::from(v) * 4 + u64::from(port),
        }
    }

    /// The leveled network of the splitter-directed routings.
    pub fn climb(&self) -> Layered {
        Layered::new(
            if self.cube {
                Net::HypercubeDirect
            } else {
                Net::ButterflyDirect
            },
            self.dim,
        )
    }

    /// The leveled network of the final routing from level `from`.
    pub fn final_route(&self, from: u32) -> UpDown {
        self.up_down(from, 0)
    }

    /// Up from level `from` to D, then down to level `to`.
    pub fn up_down(&self, from: u32, to: u32) -> UpDown {
        UpDown::new(self.dim, from, to, self.cube)
    }

    /// The path (logical ids of [`Host::climb`]) from ⟨k, row⟩ up to ⟨to, goal⟩.
    pub fn climb_path(&self, k: u32, row: u32, to: u32, goal: u32) -> Vec<u32> {
        let mut row = row;
        let mut out = vec![self.node(k, row)];
        for l in k..to {
            let bit = 1 << (self.dim - 1 - l);
            row ^= (row ^ goal) & bit;
            out.push(self.node(l + 1, row));
        }
        out
    }

    /// Directed links of the real network (for the page's edge queues).
    pub fn real_links(&self) -> (u32, u32) {
        if self.cube {
            (1 << self.dim, self.dim)
        } else {
            ((self.dim + 1) << self.dim, 4)
        }
    }
}
