//! Greedy dimension-order routing: every packet goes straight along its row
//! to the destination column, then along the column (in d dimensions the
//! last coordinate first), and the contention policy settles conflicts.
//!
//! Source: the "greedy" strategy of Kaufmann–Sibeyn §3 (its contention strategies in §2) and the permutation
//! routing lecture (Greedy XY). With `farthest-first` a permutation of an
//! n×n mesh is routed in at most 2n−2 steps, and a linear array in which
//! every node receives at most one packet in at most n−1 steps; Lemma 2 of
//! Kaufmann–Sibeyn gives the exact time on a linear array, Lemma 7 on a
//! ring, and the rest of §5 bounds it there (`greedy_lines.rs`).
//!
//! # Complexity
//! One step costs O(packets in flight); no state besides the engine's.

use super::claim::{join, Claim, Formula, Measure, Scope, Strength};
use super::greedy_lines::{self, with_line_claims};
use super::papers::LECTURE;
use super::teaching::{Classes, PhaseText, Teaching};
use super::{require, Algorithm, AlgorithmOptions};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::engine::Policy;
use crate::error::Result;
use crate::options::Field;
use crate::topology::Kind;
use crate::topology::{RouteOrder, Topology};
use crate::workload::{Instance, Workload};

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
        NAME
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

/// The SPEC §5 name.
pub const NAME: &str = "greedy";

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "dimension order, last coordinate first (X then Y); the policy settles contention",
    paper: LECTURE,
    section: "XY greedy permutation routing in 2-D mesh (Lemma); Kaufmann–Sibeyn §2 (farthest-first), §3, §5",
    kinds: GRIDS,
    shape: Shape::Any,
    packets: Packets::Any,
    open_loop: true,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::ReverseOrder, Field::Flits],
    teaching: &TEACHING,
    factory: |o| Box::new(Greedy::new(o)),
    state_bytes: None,
    size_check: None,
};

/// The grids: linear arrays, rings, meshes and tori.
const GRIDS: &[Kind] = &[Kind::Linear, Kind::Ring, Kind::Mesh, Kind::Torus];

const ROUTE_LINE: &str = "packets move along their row, then along their column (on a linear array or ring, along \
                          the line), one link per step; where several want the same link, the policy picks one and \
                          the others wait";

/// greedy.
pub const TEACHING: Teaching = Teaching {
    description: "Each packet first travels along its row until it reaches its destination's column, then along \
                  that column to its destination (on a linear array or a ring, straight along the line, the shorter \
                  way round a ring; in more dimensions, one coordinate after another). Nothing is \
                  planned ahead: when packets want the same link in the same step, the contention policy lets one \
                  through and the others wait in the node's queue.",
    phases: &[PhaseText {
        name: "route",
        text: ROUTE_LINE,
    }],
    classes: Classes::Named(&["packet"]),
    headline: 1,
    claims: &CLAIMS,
};

/// greedy's claims: its own, then Kaufmann–Sibeyn §5's on linear arrays and
/// rings ([`greedy_lines`]).
const CLAIMS: [Claim; 5 + greedy_lines::CLAIMS.len()] = with_line_claims([
    Claim {
        name: "Lemma 2",
        text: "on a linear array, farthest-first routing takes exactly T = max over i < j of (j − i + h(i, j)) \
                   steps, h(i, j) = the packets from nodes ≤ i to nodes ≥ j, minus 1 (and the same to the left)",
        scope: Scope::LinearArray,
        permutation: false,
        instance: None,
        separated: false,
        policy: Some(Policy::FarthestFirst),
        measure: Measure::Steps,
        strength: Strength::Exact,
        formula: Formula::Lemma2,
    },
    Claim {
        name: "the 2n − 2 bound",
        text: "with farthest-first, any permutation of an n × n mesh is routed in at most 2n − 2 steps, the \
                   diameter — optimal in time, but queues can grow to about 2n/3",
        scope: Scope::SquareMesh,
        permutation: true,
        instance: None,
        separated: false,
        policy: Some(Policy::FarthestFirst),
        measure: Measure::Steps,
        strength: Strength::AtMost,
        formula: Formula::MeshDiameter,
    },
    BUFFER_LEMMA,
    BUFFER_COROLLARY,
    AVERAGE_CASE,
]);

/// The lecture's buffer lemma: β counts the auxiliary buffers beyond a
/// router's standard one-packet input and output buffers (one of each per
/// link), which SPEC §1's working queue also counts, so the judged bound
/// adds them (`claims::greedy_buffer`).
const BUFFER_LEMMA: Claim = Claim {
    name: "the buffer lemma",
    text: join!(
        "with greedy XY routing a permutation of the n × n mesh needs β = ",
        Formula::GreedyBuffer.spelled(),
        " auxiliary buffers per node besides the standard ones (one input and one output buffer per link): a node \
         never holds more packets in transit than those buffers"
    ),
    scope: Scope::SquareMesh,
    permutation: true,
    instance: None,
    separated: false,
    policy: Some(Policy::FarthestFirst),
    measure: Measure::MaxQueue,
    strength: Strength::AtMost,
    formula: Formula::GreedyBuffer,
};

/// The lecture's corollary for d ≥ 3 dimensions (its k-ary n-dimensional
/// mesh: our side n and dimension d).
const BUFFER_COROLLARY: Claim = Claim {
    name: "the buffer corollary",
    text: join!(
        "with greedy dimension-order routing a permutation of the d-dimensional mesh of side n (d ≥ 3) needs ",
        Formula::GreedyBufferCube.spelled(),
        " buffers per node besides the standard ones (one input and one output buffer per link); only these are \
         judged: the corollary's d(n − 1) steps, the diameter, hold for coordinate-wise permutations, not for every \
         permutation (mesh:3x3x3 has permutations that take 7 steps)"
    ),
    scope: Scope::CubeMesh,
    permutation: true,
    instance: None,
    separated: false,
    policy: Some(Policy::FarthestFirst),
    measure: Measure::MaxQueue,
    strength: Strength::AtMost,
    formula: Formula::GreedyBufferCube,
};

/// The lecture's average case, in its own model: every node sends one
/// packet to an independent uniformly random node (`random-destinations`).
const AVERAGE_CASE: Claim = Claim {
    name: "the average case",
    text: "when every node sends one packet to an independent, uniformly random node, greedy XY routing delivers \
           any packet within its distance + O(log n) steps with probability 1 − O(1/n²) (a bound per packet); a packet is delayed z \
           steps with probability O(e^(−z/6)), and no node needs more than 4 auxiliary buffers with probability \
           1 − O(log⁴ n / n)",
    scope: Scope::SquareMesh,
    permutation: false,
    instance: Some(Workload::RandomDestinations),
    separated: false,
    policy: Some(Policy::FarthestFirst),
    measure: Measure::PacketDelay,
    strength: Strength::Order,
    formula: Formula::LogSide,
};
