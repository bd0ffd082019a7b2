//! The Kaufmann–Sibeyn family of k-k routing algorithms (Kaufmann,
//! Sibeyn, *Randomized multi-packet routing on meshes*, RUU-CS-91-48,
//! `kaufmann-sibeyn-randomized-multipacket-routing-meshes.txt`): every
//! packet gets a random colour, and each colour is routed by a uniaxial
//! algorithm of one-dimensional phases, the colours out of phase so that
//! in every phase each colour moves along its own axis and never meets
//! another on a link (§3 "Coloring", Lemma 19).
//!
//! - `ks-nowrap` — NoWrapRoute (§7.1) and NoWrapRoute(d) (§7.3): d colours
//!   (green and blue in 2-D) and 2d − 1 phases. Colour c first moves to a
//!   uniformly random coordinate along each of the axes c, …, c + d − 2 in
//!   turn (randomizing), then to its destination's coordinate along axis
//!   c + d − 1, then along the axes c, …, c + d − 2 (axes cyclic, axis 0
//!   the first coordinate; §7.3's loop over j reads "randomize p along
//!   axis l", axis j being meant, as Lemma 22's phases show). In 2-D: green to a random row of its column,
//!   along the row to its destination column, along the column to its
//!   destination row; blue the same 90° out of phase. Theorem 2: on an n×n
//!   mesh, max{3n, 2n + kn/4, kn/2} + O(√(kn log n)) steps w.v.h.p.;
//!   Theorem 4: max{(2d − 1)n, kn/2} + O(d·√(kn log n)) in d dimensions.
//!   It also runs on tori (§8's opening remark: about 3kn/8 there).
//! - `ks-wrap` — WrapRoute (§8.1) and WrapRoute(d) (§8.3): d colours and 2d
//!   phases. Colour c moves to a random coordinate along each axis in turn
//!   (after which it is at a uniformly random node, Lemma 24), then to its
//!   destination's coordinate along the axes in the same order. In 2-D:
//!   green randomizes along the row, then the column, then routes to its
//!   column, then to its row (§8.1's order: colour c's axes start at the
//!   last coordinate); blue 90° out of phase. On a torus a move of exactly
//!   half a ring goes either way at random (SPEC §2). Theorem 7: on an n×n
//!   torus max{2n, kn/4} + O(√(kn log n)); Theorem 8: max{4n, kn/2} + … on
//!   the mesh; Theorem 11: max{2dn, kn/4} + O(d·√(kn log n)) on the
//!   d-dimensional torus.
//!
//! The colour of a packet and its random coordinates are drawn at the
//! start from the run's seed (algorithm stream), one packet after the other
//! in id order, delivered or not, so a packet's draws do not depend on
//! the others'. Contention within a phase is the run's policy
//! (`farthest-first` in the theorems, any in Theorems 3 and 9). The phases
//! are separated by barriers (`--phases separated`, the analysis's
//! setting: all colours change phase together) or coalesced (`--phases
//! coalesced`, §3: a packet starts its next phase as soon as it finished
//! one, and on a link a packet in an earlier phase has absolute priority
//! over one in a later phase, the run's policy choosing within a phase).
//! The report adds `colours`, the packets of each colour.
//!
//! The same plan, with the randomizing phases confined ([`Spread`]), is
//! LocalRoute (§9.1, `ks-local`, in `ks_local.rs`); LevelRoute (§6,
//! `ks-level`, in `ks_level.rs`) shares the strips and the line targets.
//!
//! Queue smearing (`--smear M|auto`, §7.5 Theorem 6): with separated
//! phases, the packets parked at every barrier are smeared in blocks of m
//! nodes along the axis of their colour's coming phase (so no progress
//! along another axis is undone) before that phase opens; `auto` takes
//! Theorem 6's m = ⌈k·log₂ n⌉ (n the longest side, k the instance's
//! max(ℓ, k)), at most n. The smear is [`crate::primitives::smear`], driven
//! by [`Phased`]; the report adds `smear_block` and `max_barrier_load`.
//!
//! Cut-through routing (`--flits F`, §7.2 Corollary 5, §7.3 Theorem 5,
//! §8.2 Theorem 10, §8.3 Theorem 12) is the engine's (`engine/worms.rs`):
//! the same phases route worms of F flits, the reserved links acting as
//! the "arbitrary" contention of Lemmas 4–6 and 9–12.
//!
//! # Complexity
//! O(d·packets) set-up; O(packets) per phase change, or per step when
//! coalesced (the priority); the steps cost what the engine's cost.

use super::claim::join;
use super::papers::KAUFMANN_SIBEYN;
use super::phased::{PhaseNo, PhasePlan, Phased};
use super::{require, Algorithm, AlgorithmOptions, Smear};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::error::Result;
use crate::options::Field;
use crate::palette::word;
use crate::report::Extra;
use crate::rng::{Rng, Stream};
use crate::topology::{Grid, Kind, Topology};
use crate::workload::Instance;
pub(super) mod teaching;
use teaching::{NOWRAP_TEACHING, WRAP_TEACHING};

/// Which of the two algorithms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Variant {
    /// NoWrapRoute(d) (§7.1, §7.3): d − 1 randomizing phases, 2d − 1 in all.
    NoWrap,
    /// WrapRoute(d) (§8.1, §8.3): d randomizing phases, 2d in all.
    Wrap,
}

/// `ks-nowrap` or `ks-wrap`.
#[derive(Debug, Clone)]
pub struct Ks {
    variant: Variant,
    seed: u64,
    coalesced: bool,
    smear: Option<Smear>,
    /// `--no-randomize` (NoWrapRoute only): no randomizing phases.
    no_randomize: bool,
    schedule: Option<Phased<Plan>>,
}

impl Ks {
    /// NoWrapRoute(d); phases separated unless `options.pipelined()`
    /// (`--phases coalesced`).
    pub fn nowrap(options: &AlgorithmOptions) -> Self {
        Self::new(Variant::NoWrap, options)
    }

    /// WrapRoute(d); phases separated unless `options.pipelined()`.
    pub fn wrap(options: &AlgorithmOptions) -> Self {
        Self::new(Variant::Wrap, options)
    }

    fn new(variant: Variant, options: &AlgorithmOptions) -> Self {
        Ks {
            variant,
            seed: options.seed,
            coalesced: options.pipelined(),
            smear: options.smear,
            no_randomize: options.no_randomize && variant == Variant::NoWrap,
            schedule: None,
        }
    }
}

/// Where a randomizing phase may send a packet along its axis.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Spread {
    /// Anywhere on the line, uniformly (NoWrapRoute, WrapRoute).
    Whole,
    /// Uniformly within the window of L + 1 consecutive coordinates from
    /// ⌊L/2⌋ before the packet's own to ⌈L/2⌉ after it, round the ring
    /// (LocalRoute on a torus, §9.1: x_p ∈ {−L/2, …, L/2}); the whole
    /// ring when L + 1 ≥ its side.
    Window(u32),
    /// Uniformly within the packet's strip of ε consecutive coordinates
    /// ([`strip`]; NoWrapRoute′ with ε = L on a mesh, §9.1, and
    /// LevelRoute's strips, §6).
    Strips(u32),
}

/// The strip of `coord` on a line of `side` nodes cut into the fixed blocks
/// of `eps` consecutive coordinates 0..ε−1, ε..2ε−1, …: `(first, last)`.
/// A last partial block (side mod ε coordinates) joins the block before it,
/// so every strip has ε to 2ε − 1 coordinates (all `side` when side < 2ε);
/// a strip of fewer than ε would randomize too little for Lemma 14's
/// spreading, and one of up to 2ε − 1 at most doubles Lemma 13's ε.
pub(crate) fn strip(coord: u32, side: u32, eps: u32) -> (u32, u32) {
    let eps = eps.clamp(1, side.max(1));
    let count = (side / eps).max(1);
    let index = (coord / eps).min(count - 1);
    let first = index * eps;
    let last = if index == count - 1 { side - 1 } else { first + eps - 1 };
    (first, last)
}

/// A uniformly random coordinate of `spread` around `coord` on a line of
/// `side` nodes (`wraps`: a ring). One draw from `rng`.
pub(crate) fn spread_draw(rng: &mut Rng, spread: Spread, coord: u32, side: u32, wraps: bool) -> u32 {
    match spread {
        Spread::Whole => rng.below(side),
        Spread::Window(l) if l as u64 + 1 >= side as u64 => rng.below(side),
        Spread::Window(l) => {
            let offset = rng.below(l + 1);
            let first = if wraps {
                (coord + side - l / 2) % side
            } else {
                coord.saturating_sub(l / 2).min(side - 1 - l)
            };
            (first + offset) % side
        }
        Spread::Strips(eps) => {
            let (first, last) = strip(coord, side, eps);
            first + rng.below(last - first + 1)
        }
    }
}

/// The node on `pos`'s line along `axis` at coordinate `to`.
pub(crate) fn on_line(grid: &Grid, pos: u32, axis: usize, to: u32) -> u32 {
    let stride = grid.stride(axis);
    pos - grid.coord(pos, axis) * stride + to * stride
}

/// The phases of one run: each packet's colour and random coordinates.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    grid: Grid,
    /// Randomizing phases: d − 1 (NoWrapRoute) or d (WrapRoute).
    randomizing: PhaseNo,
    /// Phases in all: 2d − 1 or 2d.
    count: PhaseNo,
    /// The axis colour 0 moves along in the first phase.
    first_axis: usize,
    /// Each packet's colour, `0..d`.
    colour: Vec<u8>,
    /// The coordinates of each packet's randomizing phases, `randomizing`
    /// per packet.
    draws: Vec<u32>,
    /// WrapRoute on a torus: bit i of a packet's word is the way it goes
    /// round in phase i on a tie (1: negative). Empty otherwise.
    ties: Vec<u64>,
    names: Vec<String>,
    colours: Vec<u32>,
}

impl Plan {
    #[cfg(test)]
    fn new(variant: Variant, grid: &Grid, packets: u32, seed: u64) -> Plan {
        Plan::with_spread(variant, grid, &vec![0; packets as usize], seed, Spread::Whole)
    }

    /// The plan of `variant` for packets starting at `sources` (by id), its
    /// randomizing phases confined to `spread` around the packet's own
    /// coordinate (which it still has then: each axis is randomized once,
    /// before the packet moved along it).
    pub(crate) fn with_spread(variant: Variant, grid: &Grid, sources: &[u32], seed: u64, spread: Spread) -> Plan {
        let packets = sources.len() as u32;
        let d = grid.dims().len();
        let randomizing = match variant {
            Variant::NoWrap => d - 1,
            Variant::Wrap => d,
        };
        let count = d + randomizing;
        let first_axis = match variant {
            Variant::NoWrap => 0,
            Variant::Wrap => d - 1,
        };
        let names = (0..count)
            .map(|i| {
                let what = if i < randomizing { "randomize" } else { "route" };
                format!("phase{}-{what}", i + 1)
            })
            .collect();
        let mut plan = Plan {
            grid: grid.clone(),
            randomizing: randomizing as PhaseNo,
            count: count as PhaseNo,
            first_axis,
            colour: Vec::with_capacity(packets as usize),
            draws: Vec::with_capacity(packets as usize * randomizing),
            ties: Vec::new(),
            names,
            colours: vec![0; d],
        };
        // WrapRoute draws the ways round on a mesh too (and ignores them),
        // so that a seed gives the same colours and coordinates on both.
        let random_ties = variant == Variant::Wrap && grid.wraps();
        let mut rng = Rng::new(seed, Stream::Algorithm);
        for &source in sources {
            let c = rng.below(d as u32) as u8;
            plan.colour.push(c);
            plan.colours[c as usize] += 1;
            for i in 0..randomizing as PhaseNo {
                let axis = plan.axis(c, i);
                let side = grid.dims()[axis];
                let draw = spread_draw(&mut rng, spread, grid.coord(source, axis), side, grid.wraps());
                plan.draws.push(draw);
            }
            if variant == Variant::Wrap {
                let word = rng.next_u64();
                if random_ties {
                    plan.ties.push(word);
                }
            }
        }
        plan
    }

    /// NoWrapRoute(d) without its randomizing phases (`--no-randomize`,
    /// §7.4: "for routing random permutations, the randomization phases
    /// can be left away"): the d routing phases alone, each colour along
    /// the same axes in the same order as before, named `phase1-route` …
    /// `phase{d}-route`. The colours are the same draws as with them.
    pub(crate) fn without_randomizing(mut self) -> Plan {
        let d = self.grid.dims().len();
        let shift = self.randomizing as usize;
        self.first_axis = (self.first_axis + shift) % d;
        self.randomizing = 0;
        self.count = d as PhaseNo;
        self.draws.clear();
        self.names = (1..=d).map(|i| format!("phase{i}-route")).collect();
        self
    }

    /// Packets per colour.
    pub(crate) fn colours(&self) -> &[u32] {
        &self.colours
    }

    /// The axis colour `c` moves along in `phase`: the colours are out of
    /// phase, so in any phase no two colours share an axis.
    pub(crate) fn axis(&self, c: u8, phase: PhaseNo) -> usize {
        (self.first_axis + c as usize + phase as usize) % self.grid.dims().len()
    }
}

impl PhasePlan for Plan {
    fn count(&self) -> PhaseNo {
        self.count
    }

    fn name(&self, phase: PhaseNo) -> &str {
        &self.names[phase as usize]
    }

    fn pipelined_name(&self) -> &str {
        "coalesced"
    }

    /// The node on the packet's line along its phase's axis: at a random
    /// coordinate while randomizing, else at its destination's.
    fn target(&self, engine: &Engine, p: u32, phase: PhaseNo) -> u32 {
        let i = p as usize;
        let axis = self.axis(self.colour[i], phase);
        let pos = engine.position(p);
        let to = if phase < self.randomizing {
            self.draws[i * self.randomizing as usize + phase as usize]
        } else {
            self.grid.coord(engine.destination(p), axis)
        };
        on_line(&self.grid, pos, axis, to)
    }

    fn class(&self, p: u32, _phase: PhaseNo) -> u8 {
        self.colour[p as usize]
    }

    fn tie(&self, p: u32, phase: PhaseNo) -> Option<bool> {
        self.ties.get(p as usize).map(|word| word >> phase & 1 == 1)
    }

    fn lexicographic(&self) -> bool {
        true
    }

    /// §7.5: smeared along the axis of the coming phase (see the module doc).
    fn smear_axis(&self, p: u32, phase: PhaseNo) -> Option<usize> {
        Some(self.axis(self.colour[p as usize], phase))
    }
}

/// The mesh or torus of the family's algorithms, with a number of
/// dimensions in `dims`; refused otherwise (naming `algorithm`).
pub(super) fn ks_grid<'t>(
    algorithm: &str,
    topo: &'t Topology,
    dims: impl std::ops::RangeBounds<usize>,
) -> Result<&'t Grid> {
    let grid = match topo {
        Topology::Grid(g) if matches!(g.kind(), Kind::Mesh | Kind::Torus) && dims.contains(&g.dims().len()) => Some(g),
        _ => None,
    };
    let what = match dims.end_bound() {
        std::ops::Bound::Unbounded => "a mesh or torus of 2 or more dimensions",
        _ => "a 2-D mesh or torus",
    };
    require(algorithm, grid.is_some(), topo, what)?;
    Ok(grid.expect("checked"))
}

/// Every packet's source, by id (the colours' and levels' draws follow it).
pub(super) fn sources(engine: &Engine) -> Vec<u32> {
    (0..engine.packet_count()).map(|p| engine.source(p)).collect()
}

impl Algorithm for Ks {
    fn name(&self) -> &'static str {
        match self.variant {
            Variant::NoWrap => NOWRAP_NAME,
            Variant::Wrap => WRAP_NAME,
        }
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let grid = ks_grid(self.name(), &instance.topology, 2..)?;
        let mut plan = Plan::with_spread(self.variant, grid, &sources(engine), self.seed, Spread::Whole);
        if self.no_randomize {
            plan = plan.without_randomizing();
        }
        let m = self.smear.filter(|_| !self.coalesced).map(|s| s.block_for(instance));
        let mut schedule = Phased::new(plan, self.coalesced).with_smear(m);
        schedule.start(engine);
        self.schedule = Some(schedule);
        Ok(())
    }

    fn before_step(&mut self, engine: &mut Engine) {
        if let Some(s) = self.schedule.as_mut() {
            s.before_step(engine);
        }
    }

    fn report_extra(&self) -> Extra {
        let schedule = self.schedule.as_ref();
        let smear_block = schedule.and_then(Phased::smear_block);
        Extra {
            colours: schedule.map(|s| s.plan().colours.clone()),
            smear_block,
            max_barrier_load: smear_block.and(schedule.map(Phased::barrier_load)),
            ..Extra::default()
        }
    }
}

/// The SPEC §5 name of NoWrapRoute.
pub const NOWRAP_NAME: &str = "ks-nowrap";
/// The SPEC §5 name of WrapRoute.
pub const WRAP_NAME: &str = "ks-wrap";

/// The registry entry.
pub const NOWRAP: Entry = Entry {
    name: NOWRAP_NAME,
    summary: join!(
        "random colour per axis; ",
        word(0),
        ": random row of its column, row, column; ",
        word(1),
        " 90° out of phase"
    ),
    paper: KAUFMANN_SIBEYN,
    section: "§7.1 NoWrapRoute (Theorem 2); §7.3 NoWrapRoute(d) (Theorem 4)",
    kinds: &[Kind::Mesh, Kind::Torus],
    shape: Shape::MultiD,
    packets: Packets::Any,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::Phases, Field::Smear, Field::Flits, Field::NoRandomize],
    teaching: &NOWRAP_TEACHING,
    factory: |o| Box::new(Ks::nowrap(o)),
    state_bytes: None,
    size_check: None,
};

/// The registry entry.
pub const WRAP: Entry = Entry {
    name: WRAP_NAME,
    summary: join!(
        "random colour per axis; ",
        word(0),
        ": random column, random row, to its column, to its row; ",
        word(1),
        " 90° out of phase"
    ),
    paper: KAUFMANN_SIBEYN,
    section: "§8.1 WrapRoute (Theorems 7, 8); §8.3 WrapRoute(d) (Theorem 11)",
    kinds: &[Kind::Mesh, Kind::Torus],
    shape: Shape::MultiD,
    packets: Packets::Any,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::Phases, Field::Smear, Field::Flits],
    teaching: &WRAP_TEACHING,
    factory: |o| Box::new(Ks::wrap(o)),
    state_bytes: None,
    size_check: None,
};

#[cfg(test)]
mod tests {
    use super::{PhaseNo, Plan, Variant};
    use crate::topology::Topology;

    fn plan(variant: Variant, topo: &str) -> Plan {
        let topo: Topology = topo.parse().unwrap();
        Plan::new(variant, topo.as_grid().unwrap(), 1000, 7)
    }

    #[test]
    fn colours_move_along_different_axes_in_every_phase() {
        for (variant, topo, count) in [
            (Variant::NoWrap, "mesh:6x6", 3),
            (Variant::Wrap, "torus:6x6", 4),
            (Variant::NoWrap, "mesh:4x5x6", 5),
            (Variant::Wrap, "torus:4x5x6", 6),
        ] {
            let p = plan(variant, topo);
            let d = p.grid.dims().len() as u8;
            assert_eq!(p.count, count);
            for phase in 0..p.count {
                let mut axes: Vec<usize> = (0..d).map(|c| p.axis(c, phase)).collect();
                axes.sort_unstable();
                axes.dedup();
                assert_eq!(axes.len(), d as usize, "{topo} phase {phase}");
            }
            // Every colour visits every axis while randomizing (WrapRoute)
            // or all but its routing axis (NoWrapRoute), and routes along
            // every axis once.
            for c in 0..d {
                let mut routed: Vec<usize> = (p.randomizing..p.count).map(|i| p.axis(c, i)).collect();
                routed.sort_unstable();
                assert_eq!(routed, (0..d as usize).collect::<Vec<_>>());
            }
        }
    }

    #[test]
    fn the_paper_s_green_packets_in_two_dimensions() {
        // NoWrapRoute, green: column (rows, axis 0), row, column.
        let p = plan(Variant::NoWrap, "mesh:8x8");
        assert_eq!((0..3).map(|i| p.axis(0, i)).collect::<Vec<_>>(), [0, 1, 0]);
        assert_eq!((0..3).map(|i| p.axis(1, i)).collect::<Vec<_>>(), [1, 0, 1]);
        // WrapRoute, green: row, column, row, column.
        let p = plan(Variant::Wrap, "torus:8x8");
        assert_eq!((0..4).map(|i| p.axis(0, i)).collect::<Vec<_>>(), [1, 0, 1, 0]);
        assert_eq!(p.ties.len(), 1000);
        assert!(plan(Variant::Wrap, "mesh:8x8").ties.is_empty());
    }

    #[test]
    fn without_randomizing_each_colour_routes_along_the_same_axes() {
        for topo in ["mesh:6x6", "mesh:4x5x6"] {
            let full = plan(Variant::NoWrap, topo);
            let bare = full.clone().without_randomizing();
            let d = full.grid.dims().len() as u8;
            assert_eq!((bare.count, bare.randomizing), (d as PhaseNo, 0));
            assert_eq!(bare.colour, full.colour);
            for c in 0..d {
                for j in 0..d as PhaseNo {
                    assert_eq!(bare.axis(c, j), full.axis(c, full.randomizing + j), "{topo} colour {c}");
                }
            }
            assert_eq!(bare.names[0], "phase1-route");
        }
    }

    #[test]
    fn draws_are_in_range_and_colours_count_every_packet() {
        let p = plan(Variant::NoWrap, "mesh:3x5x7");
        assert_eq!(p.colours.iter().sum::<u32>(), 1000);
        for (i, &c) in p.colour.iter().enumerate() {
            for phase in 0..p.randomizing {
                let side = p.grid.dims()[p.axis(c, phase)];
                assert!(p.draws[i * 2 + phase as usize] < side);
            }
        }
    }
}
