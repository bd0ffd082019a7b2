//! LevelRoute (Kaufmann–Sibeyn, *Randomized multi-packet routing on
//! meshes*, §6 "Using levels"; `ks-level`): k-k routing for even k on a 2-D
//! mesh (or torus) by k/2 levels of two colours.
//!
//! Every packet gets a random level l ∈ {1, …, k/2} and a random colour,
//! green or blue, drawn from the run's seed (algorithm stream) one packet
//! after the other in id order, as in `ks.rs`. The green packets run
//!
//! ```text
//! for l := 1 to k/2 + 1 do
//!   a. randomize each green l-packet along its column within its strip of height ε;
//!   b. route each green l-packet along the row to its destination column,
//!      route each green (l−1)-packet along the column to its destination row;
//! ```
//!
//! and the blue ones the same 90° out of phase (along the row within a strip
//! of ε columns, then the column, then the row), at the same time. The
//! report names the phases `pass1-randomize`, `pass1-route`, …,
//! `pass{k/2}-route`, `pass{k/2+1}-route` (the last pass has no level to
//! randomize). Strips are the fixed blocks of ε consecutive rows (columns
//! for blue), a last partial block joining the one before it
//! ([`super::ks::strip`]); ε is `--epsilon` (default ⌈side/8⌉, side the
//! shorter side). A packet that does not move in a phase has its position as
//! its target and does not compete. Phases are separated by barriers, or
//! coalesced (`--phases coalesced`: §3's lexicographic priority; the
//! passes then overlap).
//!
//! **Bounds (n the side).** Corollary 4: (k/2 + 1)·(n + ε + O(√(n log n)))
//! steps, w.v.h.p. (Lemma 13: a randomization ≤ ε + O(√(ε log n)); Lemma
//! 14: a step b ≤ n + O(√(n log n))). Theorem 1, the *improved version*:
//! (k + 1)/2·n + k/8·ε + k·O(√(n log n)) for k ≥ 4n/ε. The paper sketches
//! it in two sentences; we make it precise as follows, and run it
//! **automatically whenever k·ε ≥ 4n** (separated phases; n the longer
//! side): (1) Lemma 3 randomizes k/2 packets per node of one colour in a
//! strip of ε in max{ε, kε/8} steps, so the levels are randomized together
//! in one phase `randomize` at the start; (2) step b of pass 1 routes one
//! level per axis, not two, and leaves about n/2 of its n steps free on
//! every link, so the highest h = min(⌊2n/ε⌋, k/2 − 1) levels randomize
//! during `pass1-route` instead, each yielding on a link to the packets
//! that route (a ranked phase, `phased.rs`). Then the start randomizes
//! k/2 − h levels in (k/2 − h)·ε/4 = kε/8 − n/2 steps and the k/2 + 1
//! passes take n each: (k + 1)/2·n + k/8·ε, Theorem 1's main term; h ≤
//! k/2 is exactly its condition k ≥ 4n/ε. (The paper's "the highest 4n/ε
//! levels" are read as 2n/ε levels of each of the two colours, the only
//! reading that gives both the theorem's main term and its condition.) The
//! phases are then `randomize`, `pass1-route`, …, `pass{k/2+1}-route`.
//!
//! **Superior and inferior regions** (`--superior`, §6.1.1, Lemma 15): see
//! [`superior`], which says what the paper leaves open and how we decide.
//!
//! **k.** The instance's k: for a k-permutation the k of SPEC §3 (declared,
//! else measured); for any other instance the most packets one node sends
//! or receives (max(ℓ, k)). An odd k is refused: LevelRoute's k/2 levels
//! need it even (the registry's `Packets::EvenK`).
//!
//! # Complexity
//! O(packets) set-up and per phase change; O(packets) per step in a ranked
//! phase; the steps cost what the engine's cost.

mod superior;

use super::claim::{join, ks_claim, Claim, Formula, KsTheorem, Measure, Scope, Strength};
use super::ks::teaching::KS_COALESCED;
use super::ks::{ks_grid, sources};
use super::ks::{on_line, spread_draw, Spread};
use super::papers::KAUFMANN_SIBEYN;
use super::phased::{PhaseNo, PhasePlan, Phased};
use super::teaching::{Classes, PhaseText, Teaching};
use super::{check_epsilon, Algorithm, AlgorithmOptions};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::options::Field;
use crate::palette::word;
use crate::report::Extra;
use crate::rng::{Rng, Stream};
use crate::topology::Kind;
use crate::topology::{Grid, Topology};
use crate::workload::Instance;
use superior::{check_superior, superior_range};

/// `ks-level`.
#[derive(Debug, Clone)]
pub struct KsLevel {
    seed: u64,
    coalesced: bool,
    epsilon: Option<u32>,
    /// `--superior`: §6.1.1's superior and inferior regions.
    superior: bool,
    /// The ε the run uses (set at start).
    used: Option<u32>,
    schedule: Option<Phased<LevelPlan>>,
}

impl KsLevel {
    /// LevelRoute with the options' ε (`--epsilon`) and phases.
    pub fn new(options: &AlgorithmOptions) -> Self {
        KsLevel {
            seed: options.seed,
            coalesced: options.pipelined(),
            epsilon: options.epsilon,
            superior: options.superior,
            used: None,
            schedule: None,
        }
    }
}

/// The k LevelRoute uses for `instance`: the most packets one node sends or
/// receives (declared or measured, SPEC §3); an odd k is refused.
pub(crate) fn even_k(instance: &Instance) -> Result<u32> {
    let k = instance.most_per_node();
    if k % 2 == 1 {
        return Err(Error::unsupported(
            "ks-level",
            format!(
                "LevelRoute needs an even k (k/2 levels of two colours), but this instance has k = {k} \
                 (the most packets a node sends or receives); use a k-permutation with even k"
            ),
        ));
    }
    Ok(k)
}

/// The default strip height: ⌈side/8⌉ of the shorter side.
pub(crate) fn default_epsilon(grid: &Grid) -> u32 {
    grid.dims().iter().copied().min().unwrap_or(1).div_ceil(8).max(1)
}

/// Whether Theorem 1's improved version applies: k·ε ≥ 4n.
pub(crate) fn improved(k: u32, epsilon: u32, n: u32) -> bool {
    k as u64 * epsilon as u64 >= 4 * n as u64 && k >= 4
}

/// Whether a run of LevelRoute with `options` on `instance` (a 2-D mesh or
/// torus, k even) runs Theorem 1's improved version — as `start` decides:
/// not with superior regions, not with coalesced phases, and k·ε ≥ 4n. The
/// claims' scope reads it (Corollary 4 and Lemmas 13–14 are the basic
/// loop's, Theorem 1 the improved version's).
pub(crate) fn runs_improved(instance: &Instance, options: &AlgorithmOptions) -> bool {
    let Topology::Grid(grid) = &instance.topology else {
        return false;
    };
    let (k, n) = (instance.most_per_node(), grid.dims().iter().copied().max().unwrap_or(1));
    let epsilon = options.epsilon.unwrap_or_else(|| default_epsilon(grid));
    !options.superior && !options.pipelined() && improved(k, epsilon, n)
}

/// Which LevelRoute a run is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Version {
    /// The loop of §6, steps a and b with a barrier between them.
    Basic,
    /// Theorem 1's improved version (k·ε ≥ 4n, separated phases).
    Improved,
    /// `--superior`: the basic loop with steps a′ and b′ (§6.1.1).
    Superior,
}

/// What a packet does in a phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    /// Stays where it is (target = position; it does not compete).
    Stay,
    /// To its drawn coordinate within its strip, along its first axis.
    Randomize,
    /// Along its second axis to its destination's coordinate (green: the row).
    Cross,
    /// Along its first axis to its destination (green: the column).
    Home,
    /// `--superior`, steps a′ and b′ in one phase: to its drawn coordinate
    /// along its first axis, then on along the second axis to its
    /// destination's coordinate (two legs, no barrier between).
    Pass,
}

#[derive(Debug, Clone)]
struct LevelPlan {
    grid: Grid,
    /// k/2.
    levels: u32,
    /// Theorem 1's version (see the module notes).
    improved: bool,
    /// Improved: the first level randomized in the slack of pass 1
    /// (levels + 1 when none is).
    first_slack: u32,
    /// `--superior`: each pass's steps a′ and b′ are one phase.
    superior: bool,
    /// Each packet's colour: 0 (`palette::word(0)`: first axis 0, the column), 1 the other.
    colour: Vec<u8>,
    /// Each packet's level, 1..=levels.
    level: Vec<u32>,
    /// Each packet's randomized coordinate along its first axis.
    draw: Vec<u32>,
    names: Vec<String>,
    colours: Vec<u32>,
}

impl LevelPlan {
    fn new(grid: &Grid, sources: &[u32], k: u32, epsilon: u32, version: Version, seed: u64) -> LevelPlan {
        let improved = version == Version::Improved;
        let superior = version == Version::Superior;
        let levels = k / 2;
        let n = grid.dims().iter().copied().max().unwrap_or(1);
        let slack = if improved {
            (2 * n / epsilon).min(levels.saturating_sub(1))
        } else {
            0
        };
        let names = if improved {
            std::iter::once("randomize".to_string())
                .chain((1..=levels + 1).map(|p| format!("pass{p}-route")))
                .collect()
        } else if superior {
            (1..=levels)
                .map(|p| format!("pass{p}-randomize-route"))
                .chain(std::iter::once(format!("pass{}-route", levels + 1)))
                .collect()
        } else {
            (1..=levels)
                .flat_map(|p| [format!("pass{p}-randomize"), format!("pass{p}-route")])
                .chain(std::iter::once(format!("pass{}-route", levels + 1)))
                .collect()
        };
        let mut plan = LevelPlan {
            grid: grid.clone(),
            levels,
            improved,
            first_slack: levels + 1 - slack,
            superior,
            colour: Vec::with_capacity(sources.len()),
            level: Vec::with_capacity(sources.len()),
            draw: Vec::with_capacity(sources.len()),
            names,
            colours: vec![0; 2],
        };
        let mut rng = Rng::new(seed, Stream::Algorithm);
        for &source in sources {
            let level = 1 + rng.below(levels.max(1));
            let c = rng.below(2) as u8;
            let axis = c as usize;
            let side = grid.dims()[axis];
            let draw = spread_draw(
                &mut rng,
                Spread::Strips(epsilon),
                grid.coord(source, axis),
                side,
                grid.wraps(),
            );
            plan.level.push(level);
            plan.colour.push(c);
            plan.draw.push(draw);
            plan.colours[c as usize] += 1;
        }
        if superior {
            // The superior packets' coordinates, drawn after every other
            // draw, so that levels, colours and the inferior packets' draws
            // are those of the run without `--superior` (same seed).
            for (i, &source) in sources.iter().enumerate() {
                let axis = plan.colour[i] as usize;
                if let Some((first, last)) = superior_range(grid, source, axis, epsilon) {
                    plan.draw[i] = first + rng.below(last - first + 1);
                }
            }
        }
        plan
    }

    /// What a packet of level `l` does in `phase`.
    fn role(&self, l: u32, phase: PhaseNo) -> Role {
        let phase = phase as u32;
        if self.improved {
            match phase {
                0 if l < self.first_slack => Role::Randomize,
                1 if l >= self.first_slack => Role::Randomize,
                _ if phase == l => Role::Cross,
                _ if phase == l + 1 => Role::Home,
                _ => Role::Stay,
            }
        } else if self.superior {
            match phase {
                _ if phase + 1 == l => Role::Pass,
                _ if phase == l => Role::Home,
                _ => Role::Stay,
            }
        } else {
            match phase {
                _ if phase + 2 == 2 * l => Role::Randomize,
                _ if phase + 1 == 2 * l => Role::Cross,
                // Pass l + 1's step b; the last pass has no step a.
                _ if phase == 2 * l + 1 || (l == self.levels && phase == 2 * l) => Role::Home,
                _ => Role::Stay,
            }
        }
    }
}

impl PhasePlan for LevelPlan {
    fn count(&self) -> PhaseNo {
        self.names.len() as PhaseNo
    }

    fn name(&self, phase: PhaseNo) -> &str {
        &self.names[phase as usize]
    }

    fn pipelined_name(&self) -> &str {
        "coalesced"
    }

    fn target(&self, engine: &Engine, p: u32, phase: PhaseNo) -> u32 {
        let i = p as usize;
        let pos = engine.position(p);
        let first = self.colour[i] as usize;
        let dest = engine.destination(p);
        match self.role(self.level[i], phase) {
            Role::Stay => pos,
            Role::Randomize => on_line(&self.grid, pos, first, self.draw[i]),
            Role::Cross => on_line(&self.grid, pos, 1 - first, self.grid.coord(dest, 1 - first)),
            Role::Home => on_line(&self.grid, pos, first, self.grid.coord(dest, first)),
            Role::Pass if self.grid.coord(pos, first) != self.draw[i] => on_line(&self.grid, pos, first, self.draw[i]),
            Role::Pass => on_line(&self.grid, pos, 1 - first, self.grid.coord(dest, 1 - first)),
        }
    }

    fn legs(&self, phase: PhaseNo) -> bool {
        self.superior && (phase as u32) < self.levels
    }

    fn class(&self, p: u32, _phase: PhaseNo) -> u8 {
        self.colour[p as usize]
    }

    fn lexicographic(&self) -> bool {
        true
    }

    fn ranked(&self, phase: PhaseNo) -> bool {
        (self.improved && phase == 1 && self.first_slack <= self.levels) || self.legs(phase)
    }

    fn rank(&self, engine: &Engine, p: u32, phase: PhaseNo) -> u8 {
        let i = p as usize;
        match self.role(self.level[i], phase) {
            // Improved: the packets randomizing in pass 1 yield.
            Role::Randomize => 1,
            // Superior: a packet still doing step a′ goes first.
            Role::Pass => (self.grid.coord(engine.position(p), self.colour[i] as usize) == self.draw[i]) as u8,
            _ => self.superior as u8,
        }
    }
}

impl Algorithm for KsLevel {
    fn name(&self) -> &'static str {
        NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let topo = &instance.topology;
        let grid = ks_grid(self.name(), topo, 2..=2)?;
        let k = even_k(instance)?;
        // A phase per level and pass, k + 1 at most (the basic version).
        if k >= PhaseNo::MAX as u32 {
            return Err(Error::unsupported(
                NAME,
                format!("k = {k} (the most packets a node sends or receives) needs k + 1 phases, one per level and pass; at most {} are numbered", PhaseNo::MAX),
            ));
        }
        let epsilon = self.epsilon.unwrap_or_else(|| default_epsilon(grid));
        check_epsilon(epsilon, topo)?;
        let n = grid.dims().iter().copied().max().unwrap_or(1);
        let version = if self.superior {
            check_superior(grid, epsilon)?;
            Version::Superior
        } else if !self.coalesced && improved(k, epsilon, n) {
            Version::Improved
        } else {
            Version::Basic
        };
        let plan = LevelPlan::new(grid, &sources(engine), k, epsilon, version, self.seed);
        let mut schedule = Phased::new(plan, self.coalesced);
        schedule.start(engine);
        self.schedule = Some(schedule);
        self.used = Some(epsilon);
        Ok(())
    }

    fn before_step(&mut self, engine: &mut Engine) {
        if let Some(s) = self.schedule.as_mut() {
            s.before_step(engine);
        }
    }

    fn report_extra(&self) -> Extra {
        Extra {
            colours: self.schedule.as_ref().map(|s| s.plan().colours.clone()),
            epsilon: self.used,
            ..Extra::default()
        }
    }
}

/// The SPEC §5 name.
pub const NAME: &str = "ks-level";

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: "k/2 random levels of two colours; per pass: randomize a level in strips of height epsilon, route it along the row while the previous level goes along the column",
    paper: KAUFMANN_SIBEYN,
    section: "§6 LevelRoute (Corollary 4; Theorem 1, the improved version, when k >= 4n/epsilon)",
    kinds: &[Kind::Mesh, Kind::Torus],
    shape: Shape::TwoD,
    packets: Packets::EvenK,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::Epsilon, Field::Phases, Field::Superior],
    teaching: &TEACHING,
    factory: |o| Box::new(KsLevel::new(o)),
    state_bytes: None,
    size_check: None,
};

/// ks-level.
pub const TEACHING: Teaching = Teaching {
    description: join!(
        "A k-k routing in k/2 rounds: every packet draws a level from 1 to k/2 and a colour, ",
        word(0),
        " or ",
        word(1),
        ". In pass l the ",
        word(0),
        " packets of level l first spread out inside their strip of ε rows (a random row of their column, \
         close by), then move along the row to their destination column, while the ",
        word(0),
        " packets of level l − 1 move down or up their column to their destination; ",
        word(1),
        " packets do the same 90° out of phase. Each pass routes about one permutation per colour in \
                  about n steps, so the whole takes about ",
        KsTheorem::Corollary4.text(),
        " — simple, but k·n/2 + n, not the \
                  bisection bound k·n/2 that NoWrapRoute reaches. When k·ε ≥ 4n the improved version randomizes \
                  all levels together at the start, the highest ones in the spare capacity of pass 1. With superior \
                  regions (option superior) the packets that start in the four corner squares of ε × ε nodes move \
                  towards the middle instead, and each pass spreads and routes its level in one phase."
    ),
    phases: &[
        PhaseText {
            name: "randomize",
            text: join!(
                "the improved version of Theorem 1 (k·ε ≥ 4n): the packets of the lower levels move inside their \
                 strip of ε rows (",
                word(0),
                ") or columns (",
                word(1),
                ") to a random row or column, all those levels together; the highest min(⌊2n/ε⌋, k/2 − 1) \
                 levels randomize later, in the spare capacity of pass 1's route"
            ),
        },
        PhaseText {
            name: "pass-randomize",
            text: join!(
                "step a of the pass: this pass's level (only it) moves inside its strip of ε rows (",
                word(0),
                ") or columns (",
                word(1),
                ") to a random row or column"
            ),
        },
        PhaseText {
            name: "route",
            text: join!(
                "this pass's level moves along the row (",
                word(0),
                ") or column (",
                word(1),
                ") to its destination's column or row, while the previous level moves along the column (",
                word(0),
                ") or row (",
                word(1),
                ") to its destination"
            ),
        },
        PhaseText {
            name: "randomize-route",
            text: join!(
                "with superior regions: the packets of this pass's level first move inside their strip to a random \
                 row (",
                word(0),
                ") or column (",
                word(1),
                "), those starting in the four corner squares of ε × ε nodes to a random row or column between \
                 their square and the middle, and each goes on to its destination's column or row as soon as it \
                 got there, while the previous level moves to its destination"
            ),
        },
        KS_COALESCED,
    ],
    classes: Classes::Colours,
    headline: 0,
    claims: &[
        ks_claim(
            "Corollary 4",
            "LevelRoute routes k-permutations (k even) with (k/2 + 1)·(n + ε + O(√(n log n))) steps, with very \
             high probability",
            Scope::SquareMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::Corollary4,
        ),
        ks_claim(
            "Theorem 1",
            join!(
                "for k ≥ 4n/ε the improved version routes k-permutations with ",
                KsTheorem::Theorem1.text(),
                " + k·O(√(n log n)) \
             steps, with very high probability"
            ),
            Scope::SquareMesh,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem1,
        ),
        pass_claim(
            "Lemma 13",
            "step a of every pass of LevelRoute takes at most ε + O(√(ε log n)) steps, with very high probability",
            &["pass*-randomize"],
            Strength::PlusSqrtKnLogN,
            KsTheorem::Lemma13,
        ),
        pass_claim(
            "Lemma 14",
            "step b of every pass of LevelRoute takes at most n + O(√(n log n)) steps, with very high probability",
            &["pass*-route"],
            Strength::PlusSqrtKnLogN,
            KsTheorem::Lemma14,
        ),
        pass_claim(
            "Lemma 15",
            join!(
                "with superior regions and ε ≤ n/6, steps a′ and b′ of every pass 2 … k/2 take at most ",
                KsTheorem::Lemma15.text(),
                " steps; the proof carries a lower-order term O(√(n log n)), whose constant is measured"
            ),
            &["pass*-randomize-route", "!^pass*-randomize-route"],
            Strength::PlusSqrtKnLogN,
            KsTheorem::Lemma15,
        ),
    ],
};

/// A per-pass lemma of §6 (farthest-first, phases separated by barriers,
/// n × n meshes) on the report phases `phases` names.
const fn pass_claim(
    name: &'static str,
    text: &'static str,
    phases: &'static [&'static str],
    strength: Strength,
    lemma: KsTheorem,
) -> Claim {
    Claim {
        name,
        text,
        scope: Scope::SquareMesh,
        permutation: false,
        instance: None,
        separated: true,
        policy: Some(Policy::FarthestFirst),
        measure: Measure::PhaseSteps(phases),
        strength,
        formula: Formula::Ks(lemma),
    }
}

#[cfg(test)]
mod tests;
