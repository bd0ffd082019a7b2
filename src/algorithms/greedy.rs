//! Greedy dimension-order routing: every packet goes straight along its row
//! to the destination column, then along the column (in d dimensions the
//! last coordinate first), and the contention policy settles conflicts.
//!
//! Source: the "greedy" strategy of Kaufmann–Sibeyn §2 and the permutation
//! routing lecture (Greedy XY). With `farthest-first` a permutation of an
//! n×n mesh is routed in at most 2n−2 steps, and a linear array in which
//! every node receives at most one packet in at most n−1 steps; Lemma 2 of
//! Kaufmann–Sibeyn gives the exact time on a linear array.
//!
//! # Complexity
//! One step costs O(packets in flight); no state besides the engine's.

use super::{require, Algorithm, AlgorithmOptions};
use crate::engine::Engine;
use crate::error::Result;
use crate::topology::{RouteOrder, Topology};
use crate::workload::Instance;

/// Dimension-order greedy routing.
#[derive(Debug, Clone)]
pub struct Greedy {
    order: RouteOrder,
}

impl Greedy {
    /// A greedy router with the options' route order.
    pub fn new(options: &AlgorithmOptions) -> Self {
        let order = if options.reverse_order {
            RouteOrder::Reversed
        } else {
            RouteOrder::Standard
        };
        Greedy { order }
    }
}

impl Algorithm for Greedy {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let topo = &instance.topology;
        require(
            self.name(),
            matches!(topo, Topology::Grid(_)),
            topo,
            "a linear array, ring, mesh or torus",
        )?;
        engine.set_route_order(self.order);
        engine.begin_phase("route");
        Ok(())
    }

    /// Open loop: the dimension-order route, already the engine's.
    fn admit(&mut self, engine: &mut Engine, p: u32) -> Option<u32> {
        Some(engine.route_hops(p, &[]))
    }
}
