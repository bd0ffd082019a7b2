//! Bit fixing and Valiant's two-phase randomized routing.
//!
//! Source: the hypercube lecture (CS174 Lecture 11), "Bit Fixing" and
//! "Randomized Routing". Bit fixing corrects the differing bits of the
//! address from the most significant down; it is optimal for one packet but
//! any deterministic oblivious scheme needs Ω(√(N/D)) steps on some
//! permutation (transpose is one). Valiant's scheme first sends every packet
//! to an independent uniformly random node, then to its destination, each
//! phase by the base route; on `hypercube:D` each phase (with a barrier
//! between them) ends within 4D steps with probability at least
//! 1 − 2^(−1.5D), so every packet arrives within 8D steps with high
//! probability (at least 1 − 2·2^(−1.5D), the two phases' failures added).
//!
//! The lecture's step 1 names "a random permutation σ"; its analysis (the
//! expected route length D/2 to "a random destination address") and SPEC
//! §5 take each intermediate independently and uniformly, as Valiant's
//! scheme does, so two packets may share one. A packet that meets its
//! destination on the way to its intermediate is delivered there (SPEC §1:
//! delivery is on arrival); the same holds in `rand-interval`'s phases.
//!
//! On a butterfly, bit fixing is the natural level-0-to-level-D path. On
//! grids, `valiant` uses dimension order as its base route.
//!
//! On `shuffle-exchange:D` bit fixing is the classic route (SPEC §5): D
//! rounds, each an exchange where bit 0 of the current label differs from
//! the destination's bit that belongs there, then a shuffle (rotl; its
//! reverse order: rotr). After k shuffles position 0 holds the source's
//! bit (−k) mod D (reversed: bit k), so round k fixes that bit: bit 0,
//! then D − 1, D − 2, …, 1 (reversed: 0, 1, …, D − 1), and after D
//! rotations the label is back in its frame, equal to the destination. A
//! label equal to its rotation (all 0s, all 1s) has no shuffle link: the
//! rotation leaves it unchanged, so the round ends without a hop. The route
//! is cut where it reaches the destination (SPEC §1). It is not a shortest
//! route, so the engine, whose routes are the topology's shortest ones,
//! gets it one hop at a time: each packet's target is the next node of its
//! route (a neighbour), set again when it gets there ([`se_hop`]); the
//! packet's state is the rounds done. Every route has at most 2D hops (D
//! exchanges, D shuffles), and 2D is reached for D ≥ 4 (a test checks
//! every pair up to D = 10), one more than the diameter 2D − 1.
//!
//! # Complexity
//! O(packets) to draw the intermediates; steps cost what the engine's cost;
//! on the shuffle-exchange O(1) per hop to set the next target.

use super::claim::{join, Claim, Formula, Measure, Scope, Strength};
use super::papers::HYPERCUBE_LECTURE;
use super::teaching::{Classes, PhaseText, Teaching};
use super::{require, Algorithm, AlgorithmOptions};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::error::Result;
use crate::options::Field;
use crate::rng::{Rng, Stream};
use crate::topology::Kind;
use crate::topology::{Network, RouteOrder, ShuffleExchange, Topology};
use crate::workload::{Instance, Workload};

fn route_order(options: &AlgorithmOptions) -> RouteOrder {
    if options.reverse_order {
        RouteOrder::Reversed
    } else {
        RouteOrder::Standard
    }
}

/// Bit fixing (hypercube) / the natural path (butterfly) / the classic
/// route (shuffle-exchange).
#[derive(Debug, Clone)]
pub struct BitFixing {
    order: RouteOrder,
    /// On a shuffle-exchange graph: the network, and each packet's rounds
    /// done (by id); `None` elsewhere.
    rounds: Option<(ShuffleExchange, Vec<u8>)>,
}

impl BitFixing {
    /// Most significant bit first unless `reverse_order`.
    pub fn new(options: &AlgorithmOptions) -> Self {
        BitFixing {
            order: route_order(options),
            rounds: None,
        }
    }

    /// Shuffle-exchange: makes the next hop of `p`'s classic route its target.
    fn advance(&mut self, engine: &mut Engine, p: u32) {
        let Some((g, rounds)) = self.rounds.as_mut() else {
            return;
        };
        let (at, dest) = (engine.position(p), engine.destination(p));
        if let Some((next, done)) = se_hop(g, at, dest, rounds[p as usize], self.order) {
            rounds[p as usize] = done;
            engine.set_target(p, next);
        }
    }
}

/// The classic route's next hop on `g` from `cur` towards `dest` with
/// `round` rounds done (see the module's text): `(next node, rounds done
/// then)`, or `None` once the D rounds are done (then `cur` = `dest`).
pub fn se_hop(g: &ShuffleExchange, cur: u32, dest: u32, round: u8, order: RouteOrder) -> Option<(u32, u8)> {
    if cur == dest {
        return None;
    }
    let d = g.dim();
    let mut k = round as u32;
    while k < d {
        // The destination's bit that position 0 holds after k rotations.
        let bit = match order {
            RouteOrder::Standard => (d - k) % d,
            RouteOrder::Reversed => k,
        };
        if cur & 1 != (dest >> bit) & 1 {
            return Some((cur ^ 1, k as u8));
        }
        let next = match order {
            RouteOrder::Standard => g.rotl(cur),
            RouteOrder::Reversed => g.rotr(cur),
        };
        k += 1;
        // A label equal to its rotation has no shuffle link: no hop.
        if next != cur {
            return Some((next, k as u8));
        }
    }
    None
}

/// Walks the classic route on `g` from `from` to `dest` (cut where it
/// reaches `dest`), calling `link(node, port)` for every hop; returns the hops.
pub fn se_route(g: &ShuffleExchange, from: u32, dest: u32, order: RouteOrder, mut link: impl FnMut(u32, u32)) -> u32 {
    let (mut at, mut round, mut hops) = (from, 0, 0);
    while at != dest {
        let (next, done) = se_hop(g, at, dest, round, order).expect("D rounds end at the destination");
        link(at, g.port_to(at, next).expect("a hop is a link"));
        (at, round, hops) = (next, done, hops + 1);
    }
    hops
}

impl Algorithm for BitFixing {
    fn name(&self) -> &'static str {
        BIT_FIXING_NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let topo = &instance.topology;
        let ok = matches!(
            topo,
            Topology::Hypercube(_) | Topology::Butterfly(_) | Topology::ShuffleExchange(_)
        );
        require(
            self.name(),
            ok,
            topo,
            "a hypercube, butterfly or shuffle-exchange graph",
        )?;
        engine.set_route_order(self.order);
        engine.begin_phase("route");
        if let Topology::ShuffleExchange(g) = topo {
            self.rounds = Some((g.clone(), vec![0; engine.packet_count() as usize]));
            for p in engine.active() {
                self.advance(engine, p);
            }
        }
        Ok(())
    }

    /// Shuffle-exchange: the packets that reached the node their route
    /// targeted go on to the next one.
    fn before_step(&mut self, engine: &mut Engine) {
        if self.rounds.is_some() {
            for p in engine.arrived_at_target().to_vec() {
                self.advance(engine, p);
            }
        }
    }

    /// Open loop: the bit-fixing route, already the engine's (on the
    /// shuffle-exchange, its first hop as the target).
    fn admit(&mut self, engine: &mut Engine, p: u32) -> Option<u32> {
        let Some((g, rounds)) = self.rounds.as_mut() else {
            return Some(engine.route_hops(p, &[]));
        };
        if rounds.len() <= p as usize {
            rounds.resize(p as usize + 1, 0);
        }
        rounds[p as usize] = 0;
        let hops = se_route(g, engine.position(p), engine.destination(p), self.order, |_, _| {});
        self.advance(engine, p);
        Some(hops)
    }
}

/// Valiant's two-phase randomized routing.
#[derive(Debug, Clone)]
pub struct Valiant {
    order: RouteOrder,
    seed: u64,
    pipeline: bool,
    second_phase: bool,
    /// The intermediates' generator, kept after `start` for the packets
    /// that open-loop traffic admits later.
    rng: Option<Rng>,
}

impl Valiant {
    /// Phases separated by a barrier unless `pipeline`.
    pub fn new(options: &AlgorithmOptions) -> Self {
        Valiant {
            order: route_order(options),
            seed: options.seed,
            pipeline: options.pipelined(),
            second_phase: false,
            rng: None,
        }
    }

    fn release(engine: &mut Engine, p: u32) {
        engine.set_target(p, engine.destination(p));
        engine.set_class(p, 1);
    }
}

impl Algorithm for Valiant {
    fn name(&self) -> &'static str {
        VALIANT_NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let topo = &instance.topology;
        let ok = matches!(topo, Topology::Hypercube(_) | Topology::Grid(_));
        require(self.name(), ok, topo, "a hypercube, linear array, ring, mesh or torus")?;
        engine.set_route_order(self.order);
        let mut rng = Rng::new(self.seed, Stream::Algorithm);
        let nodes = topo.nodes();
        // One draw per packet in id order, delivered or not, so the choice of
        // a packet's intermediate does not depend on the others' sources.
        for p in 0..engine.packet_count() {
            let mid = rng.below(nodes);
            if !engine.is_delivered(p) {
                engine.set_target(p, mid);
            }
        }
        engine.begin_phase(if self.pipeline {
            "pipelined"
        } else {
            "phase1-random-intermediate"
        });
        if self.pipeline {
            let at_mid: Vec<u32> = engine
                .active()
                .iter()
                .copied()
                .filter(|&p| engine.position(p) == engine.target(p))
                .collect();
            for p in at_mid {
                Self::release(engine, p);
            }
        }
        self.rng = Some(rng);
        Ok(())
    }

    /// Open loop (SPEC §6): the packet's own random intermediate, drawn
    /// on admission; it heads for its destination as soon as it gets there
    /// (per packet, no barrier: pipelined only).
    fn admit(&mut self, engine: &mut Engine, p: u32) -> Option<u32> {
        if !self.pipeline {
            return None;
        }
        let mid = self.rng.as_mut()?.below(engine.topology().nodes());
        engine.set_class(p, 0);
        engine.set_target(p, mid);
        let hops = engine.route_hops(p, &[mid]);
        if engine.position(p) == mid {
            Self::release(engine, p);
        }
        Some(hops)
    }

    fn before_step(&mut self, engine: &mut Engine) {
        if self.pipeline {
            let arrived = engine.arrived_at_target().to_vec();
            for p in arrived {
                Self::release(engine, p);
            }
        } else if !self.second_phase && engine.unsettled() == 0 {
            self.second_phase = true;
            engine.begin_phase("phase2-destination");
            let active = engine.active();
            for p in active {
                Self::release(engine, p);
            }
        }
    }
}

/// The SPEC §5 name of bit fixing.
pub const BIT_FIXING_NAME: &str = "bit-fixing";
/// The SPEC §5 name of Valiant's two-phase routing.
pub const VALIANT_NAME: &str = "valiant";

/// The registry entry.
pub const BIT_FIXING: Entry = Entry {
    name: BIT_FIXING_NAME,
    summary: "corrects differing bits, most significant first (butterfly: level 0 to level D; shuffle-exchange: D rounds of exchange, then shuffle, fixing bit 0, then D-1, ..., 1)",
    paper: HYPERCUBE_LECTURE,
    section: "Bit Fixing",
    kinds: &[Kind::Hypercube, Kind::Butterfly, Kind::ShuffleExchange],
    shape: Shape::Any,
    packets: Packets::Any,
    open_loop: true,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::ReverseOrder, Field::Flits],
    teaching: &BIT_FIXING_TEACHING,
    factory: |o| Box::new(BitFixing::new(o)),
    state_bytes: None,
    size_check: None,
};

/// The registry entry.
pub const VALIANT: Entry = Entry {
    name: VALIANT_NAME,
    summary: "to a uniformly random node, then to the destination (barrier, or option pipeline)",
    paper: HYPERCUBE_LECTURE,
    section: join!(
        "Randomized Routing (Theorem: delay ≤ |S|; 4D per phase, ",
        Formula::EightD.spelled(),
        " in all)"
    ),
    kinds: &[Kind::Hypercube, Kind::Linear, Kind::Ring, Kind::Mesh, Kind::Torus],
    shape: Shape::Any,
    packets: Packets::Any,
    open_loop: true,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::Pipeline, Field::ReverseOrder, Field::Flits],
    teaching: &VALIANT_TEACHING,
    factory: |o| Box::new(Valiant::new(o)),
    state_bytes: None,
    size_check: None,
};

/// bit-fixing.
pub const BIT_FIXING_TEACHING: Teaching = Teaching {
    description: "A packet compares its address with its destination's, bit by bit from the most significant, and \
                  fixes the first bit that differs: it crosses the link of that bit's dimension (on a butterfly, \
                  it moves one level per bit, from level 0 on the left to level D on the right, over the cross edge where the bit differs and the straight edge \
                  where it agrees); once every bit agrees it has arrived. Alone, a packet is never faster. Together, packets can pile up: \
                  on the transpose, all packets whose destinations share the high bits pass through one node. \
                  On the shuffle-exchange graph a packet runs D rounds instead: in each, it crosses the exchange \
                  link (which flips the last bit) if that bit differs from the destination's bit that belongs \
                  there, then the shuffle link (which rotates the label one bit left); after D rounds its label is \
                  the destination's. The route has at most 2D hops, one more than the network's diameter, and on \
                  the transpose the queues grow with the network.",
    phases: &[PhaseText {
        name: "route",
        text: "each packet fixes its differing bits, most significant first: one hop per differing bit (on a \
               butterfly, one level per bit, D hops). On the shuffle-exchange instead D rounds, each an exchange \
               where the last bit differs, then a shuffle: bit 0 first, then D − 1, …, 1, up to 2D hops. Where \
               several want the same link, the policy picks one",
    }],
    classes: Classes::Named(&["packet"]),
    headline: 0,
    claims: &[
        Claim {
        name: "the oblivious lower bound",
        text: join!(
            "any deterministic oblivious scheme — bit fixing among them — has permutations that need Ω(",
            Formula::SqrtNOverD.spelled(),
            ") steps (the lecture states that they exist; for bit fixing the transpose is one, the standard example \
             this claim is judged on)"
        ),
        scope: Scope::Hypercube,
        permutation: true,
        instance: Some(Workload::Transpose),
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::Omega,
        formula: Formula::SqrtNOverD,
    },
    Claim {
        name: "the oblivious lower bound on the shuffle-exchange",
        text: join!(
            "the lecture's bound for any machine of N processors with n links out of each: a deterministic \
               oblivious scheme — bit fixing among them — has permutations that need Ω(√(N/n)) steps; the \
               shuffle-exchange has n = 3, so Ω(",
            Formula::SqrtNOverThree.spelled(),
            "), measured here on the transpose (labels rotated by ⌊D/2⌋), where bit fixing's queues grow"
        ),
        scope: Scope::ShuffleExchange,
        permutation: true,
        instance: Some(Workload::Transpose),
        separated: false,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::Omega,
        formula: Formula::SqrtNOverThree,
    },
    Claim {
        name: "the delay theorem",
        text: "a packet's delay (its arrival step minus its distance) is at most |S|, the number of other packets \
               whose bit-fixing routes share a link with its route: two routes meet at most once, and each packet \
               met delays it by at most one step",
        scope: Scope::Hypercube,
        permutation: false,
        instance: None,
        separated: false,
        policy: None,
        measure: Measure::PacketDelay,
        strength: Strength::AtMost,
        formula: Formula::RoutesMet,
    }],
};

/// valiant.
pub const VALIANT_TEACHING: Teaching = Teaching {
    description: "Every packet first goes to a node chosen uniformly at random, then on to its real destination, \
                  each leg by the base route (bit fixing on the hypercube, row then column on grids). The random \
                  detour turns any permutation — even the worst — into two random ones, on which queues stay \
                  short. It costs about twice the distance.",
    phases: &[
        PhaseText {
            name: "phase1-random-intermediate",
            text: "every packet travels to its own random intermediate node",
        },
        PhaseText {
            name: "phase2-destination",
            text: "after a barrier, every packet travels from its intermediate node to its destination",
        },
        PhaseText {
            name: "pipelined",
            text: "no barrier: each packet heads for its destination as soon as it reaches its intermediate node",
        },
    ],
    classes: Classes::Named(&["phase 1: to a random node", "phase 2: to the destination"]),
    headline: 0,
    claims: &[Claim {
        name: join!("the ", Formula::EightD.spelled(), " bound"),
        text: join!(
            "on the hypercube each phase delivers every packet to its target within 4D steps with probability at \
               least 1 − 2^(−1.5D), so every packet arrives within ",
            Formula::EightD.spelled(),
            " steps with high probability (at least \
               1 − 2·2^(−1.5D))"
        ),
        scope: Scope::Hypercube,
        permutation: true,
        instance: None,
        separated: true,
        policy: None,
        measure: Measure::Steps,
        strength: Strength::AtMostWhp,
        formula: Formula::EightD,
    }],
};
