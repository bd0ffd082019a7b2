//! LocalRoute (Kaufmann–Sibeyn, *Randomized multi-packet routing on
//! meshes*, §9.1 "Locality L"; `ks-local`): k-k routing when no packet
//! moves more than L along any axis, in O(k·L) steps instead of O(k·n).
//!
//! Every packet gets a random colour (one per axis; blue and green in 2-D, as `palette` draws them),
//! and colour c runs NoWrapRoute's phases (the plan of `ks.rs`) with the
//! randomization confined to the neighbourhood, 90° out of phase with the
//! other colours. In 2-D, green: (1) `phase1-randomize` — along its column
//! to a random row near its own; (2) `phase2-route` — along the row to its
//! destination column; (3) `phase3-route` — along the column to its
//! destination row; blue the same with rows and columns exchanged.
//!
//! - On a **torus** (Theorem 13) the random row is uniform among the L + 1
//!   rows from ⌊L/2⌋ above to ⌈L/2⌉ below its own, round the ring (§9.1's
//!   x_p ∈ {−L/2, …, L/2}; the whole ring when L + 1 ≥ the side):
//!   max{5L/2, kL} + max{L/2, kL/16} + O(√(kL log n)) steps w.v.h.p.;
//!   Corollary 6: 17/16·kL + … for k ≥ 8.
//! - On a **mesh** (Theorem 14) the paper applies "NoWrapRoute′ with ε =
//!   L": NoWrapRoute whose randomization stays within strips of height ε
//!   (NoWrapRoute′ is not defined in the text; this is the strips of §3 and
//!   §6). The strips are the fixed blocks of L consecutive rows (columns),
//!   the last partial block joined to the one before ([`super::ks::strip`]),
//!   so near a border nothing leaves the mesh and no packet is randomized
//!   further than 2L − 2 from its row: max{L, kL/8} + max{2L, kL} +
//!   O(√(kL log n)) steps.
//!
//! In d dimensions the same plan is NoWrapRoute(d) with each randomizing
//! axis confined the same way (the paper: "generalizations can be done in
//! the same way").
//!
//! **L.** §9.1 assumes L known to all PUs. It is `--locality L` (the
//! `local-kk` workload's option, default 2, feeds both); an instance whose
//! own locality ([`crate::topology::instance_locality`]: the largest move of a packet along
//! one axis, ring distance on a torus) exceeds the given L is refused,
//! since the theorems' premise fails. Without `--locality` (an instance, or
//! a workload that has no L) the instance's own locality is used: it is
//! the premise of §9.1 (given, not computed by the PUs), and the report
//! says which L was used (`locality`). With `--locality unknown` the nodes
//! are not told L: NoLRoute (§9.2, Theorem 15, in `ks_nol.rs`) estimates
//! it with information packets (on an n×n torus only); the report's
//! `locality` is then the instance's own, beside the nodes' estimate.
//!
//! Phases separated by barriers or coalesced (`--phases`), as `ks-nowrap`.
//!
//! # Complexity
//! O(d·packets) set-up (the locality is one pass over the packets);
//! O(packets) per phase change; the steps cost what the engine's cost.

use super::claim::{join, ks_claim, ks_lemma_claim, KsLemma, KsTheorem, Measure, Scope};
use super::ks::teaching::{ks_first_route, KS_COALESCED, KS_NEXT_ROUTES};
use super::ks::{ks_grid, sources};
use super::ks::{Plan, Spread, Variant};
use super::ks_nol::Nol;
use super::link_load::LinkLoads;
use super::papers::KAUFMANN_SIBEYN;
use super::phased::Phased;
use super::teaching::{Classes, PhaseText, Teaching};
use super::{Algorithm, AlgorithmOptions};
use super::{Entry, Packets, Shape};
use crate::engine::Engine;
use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::options::Field;
use crate::palette::word;
use crate::report::Extra;
use crate::topology::instance_locality;
use crate::topology::Kind;
use crate::workload::Instance;

/// `ks-local`.
#[derive(Debug, Clone)]
pub struct KsLocal {
    seed: u64,
    coalesced: bool,
    locality: Option<u32>,
    /// `--locality unknown`: NoLRoute (§9.2).
    unknown: bool,
    /// The L the run uses (set at start; LocalRoute only).
    used: Option<u32>,
    run: Option<Run>,
}

/// LocalRoute's schedule (with its per-phase link loads), or NoLRoute's.
#[derive(Debug, Clone)]
enum Run {
    Local(Box<(Phased<Plan>, LinkLoads)>),
    Nol(Box<Nol>),
}

impl KsLocal {
    /// LocalRoute with the options' L (`--locality`) and phases, or
    /// NoLRoute when the options say L is unknown.
    pub fn new(options: &AlgorithmOptions) -> Self {
        KsLocal {
            seed: options.seed,
            coalesced: options.pipelined(),
            locality: options.known_locality(),
            unknown: options.locality_unknown,
            used: None,
            run: None,
        }
    }
}

impl Algorithm for KsLocal {
    fn name(&self) -> &'static str {
        NAME
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let grid = ks_grid(self.name(), &instance.topology, 2..)?;
        let own = instance_locality(grid, &instance.packets);
        if self.unknown {
            let nol = Nol::start(grid, instance, engine, self.seed, self.coalesced)?;
            self.run = Some(Run::Nol(Box::new(nol)));
            // The nodes are not told L; the report is (SPEC §5: `locality`
            // beside `locality_estimate`, the instance's own L the estimate
            // is judged against).
            self.used = Some(own.max(1));
            return Ok(());
        }
        let l = match self.locality {
            Some(0) => return Err(Error::invalid("locality", 0, "L must be at least 1")),
            Some(l) if l < own => {
                return Err(Error::invalid(
                    "locality",
                    l,
                    format!(
                        "ks-local routes with locality L known to all nodes (§9.1), but a packet of this \
                         instance moves {own} along one axis; give --locality {own} or more"
                    ),
                ))
            }
            Some(l) => l,
            None => own.max(1),
        };
        let spread = if grid.wraps() {
            Spread::Window(l)
        } else {
            Spread::Strips(l)
        };
        let plan = Plan::with_spread(Variant::NoWrap, grid, &sources(engine), self.seed, spread);
        let mut schedule = Phased::new(plan, self.coalesced);
        schedule.start(engine);
        self.run = Some(Run::Local(Box::new((schedule, LinkLoads::start(engine)))));
        self.used = Some(l);
        Ok(())
    }

    fn before_step(&mut self, engine: &mut Engine) {
        match self.run.as_mut() {
            Some(Run::Local(s)) => s.0.before_step(engine),
            Some(Run::Nol(n)) => n.before_step(engine),
            None => {}
        }
    }

    fn after_step(&mut self, engine: &Engine) {
        if let Some(Run::Local(s)) = self.run.as_mut() {
            s.1.after_step(engine);
        }
    }

    fn report_extra(&self) -> Extra {
        let (colours, locality_estimate, phase_link_load) = match self.run.as_ref() {
            Some(Run::Local(s)) => (Some(s.0.plan().colours().to_vec()), None, Some(s.1.most())),
            Some(Run::Nol(n)) => (Some(n.colours().to_vec()), n.estimate(), None),
            None => (None, None, None),
        };
        Extra {
            colours,
            locality: self.used,
            locality_estimate,
            phase_link_load,
            ..Extra::default()
        }
    }
}

/// The SPEC §5 name.
pub const NAME: &str = "ks-local";

/// The registry entry.
pub const ENTRY: Entry = Entry {
    name: NAME,
    summary: join!(
        "locality L: random colour; ",
        word(0),
        " to a random row within L/2 (mesh: its strip of L rows), along the row, along the column; ",
        word(1),
        " 90° out of phase"
    ),
    paper: KAUFMANN_SIBEYN,
    section: "§9.1 LocalRoute (Theorem 13 on tori, Corollary 6; Theorem 14 on meshes, NoWrapRoute′ with ε = L); §9.2 NoLRoute with locality unknown (Theorem 15)",
    kinds: &[Kind::Mesh, Kind::Torus],
    shape: Shape::MultiD,
    packets: Packets::Any,
    open_loop: false,
    refused_policies: &[],
    policy_note: "",
    not_built: &[],
    options: &[Field::Locality, Field::Phases],
    teaching: &TEACHING,
    factory: |o| Box::new(KsLocal::new(o)),
    state_bytes: None,
    size_check: None,
};

/// ks-local.
pub const TEACHING: Teaching = Teaching {
    description: join!(
        "When no packet has to move more than L along a row or a column (locality L), routing should take \
         about k·L steps, not k·n. Every packet gets a random colour. A ",
        word(0),
        " packet first moves to a random row near its own (within L/2 on a torus; inside its strip of L rows \
         on a mesh), then along that row to its destination column, then along the column to its \
         destination; ",
        word(1),
        " packets do the same 90° out of phase. The short randomization keeps every link's load near \
                  k·L/2 per colour, whatever the pattern, so the time is about k·L — the lower bound for packets \
                  that all move L right and L up. When the nodes are not told L (NoLRoute, on a torus), they \
                  first agree on an estimate with small information packets while the packets already spread out \
                  within 8n/k, and spread further only if the estimate asks for it."
    ),
    phases: &[
        PhaseText {
            name: "phase1-randomize",
            text: "every packet moves along one axis (its colour's first) to a random position near its own: within \
                   L/2 on a torus, inside its strip of L on a mesh",
        },
        PhaseText {
            name: "phase2-randomize",
            text: "every packet moves along its colour's next axis to a random position near its own",
        },
        PhaseText {
            name: "phase2-route",
            text: ks_first_route!(", at most L (the locality: this axis was not randomized)"),
        },
        KS_NEXT_ROUTES[0],
        KS_NEXT_ROUTES[1],
        KS_NEXT_ROUTES[2],
        KS_COALESCED,
        PhaseText {
            name: "phase1ab-randomize",
            text: "L unknown (NoLRoute): every node sends the largest move of its packets, rounded down to a power of \
                   two, to its four neighbours; a node that hears a larger one adopts it and passes it on (information \
                   packets, first on every link). Meanwhile every packet moves along its colour's first axis to a \
                   random position within 8n/k of its own. After step n every node knows the same estimate L′, the \
                   power of two in (L/2, L]",
        },
        PhaseText {
            name: "phase1d-randomize",
            text: "L unknown, and L′/2 larger than 8n/k: every packet stretches its random offset by L′k/(16n), so it \
                   ends within L′/2 of its own position, as with L known",
        },
    ],
    classes: Classes::Colours,
    headline: 0,
    claims: &[
        ks_claim(
            "Theorem 13",
            join!(
                "k-k routing with locality L on a torus takes ",
                KsTheorem::Theorem13.text(),
                " + O(√(kL log n)) \
             steps, with very high probability (for k ≥ 8 see Corollary 6)"
            ),
            Scope::Torus2d,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem13,
        ),
        ks_claim(
            "Corollary 6",
            join!(
                "for k ≥ 8, k-k routing with locality L on a torus takes ",
                KsTheorem::Corollary6.text(),
                " + O(√(kL log n)) steps, with very high probability"
            ),
            Scope::Torus2d,
            Some(Policy::FarthestFirst),
            KsTheorem::Corollary6,
        ),
        ks_claim(
            "Theorem 14",
            join!(
                "k-k routing with locality L on a mesh takes ",
                KsTheorem::Theorem14.text(),
                " + O(√(kL log n)) steps, \
             with very high probability"
            ),
            Scope::Mesh2d,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem14,
        ),
        ks_claim(
            "Theorem 15",
            join!(
                "k-k routing with unknown locality L (NoLRoute: the nodes estimate it) on an n×n torus takes \
             ",
                KsTheorem::Theorem15.text(),
                " + O(√((n + kL) log n)) steps, with very high probability"
            ),
            Scope::SquareTorus,
            Some(Policy::FarthestFirst),
            KsTheorem::Theorem15,
        ),
        // §9.1's per-phase lemmas, for PUs at least L from a boundary: on a
        // torus every PU (there is none), so they are judged on tori only;
        // stated for the uniaxial LocalRoute with k per PU, here each
        // colour's k/2 (KsLemma).
        ks_lemma_claim(
            "Lemma 26",
            join!(
                "phase 1 (randomizing within L/2) takes at most ",
                KsLemma::LocalFirst.text(),
                " + O(√(kL log n)) routing steps (each colour carries k/2 packets per node; on a torus, \
                 where no node is near a boundary)"
            ),
            Scope::Torus2d,
            Some(Policy::FarthestFirst),
            Measure::PhaseSteps(&["phase1-randomize"]),
            KsLemma::LocalFirst,
        ),
        ks_lemma_claim(
            "Lemma 27",
            join!(
                "during phase 2 no connection transmits more than ",
                KsLemma::LocalLinkLoad.text(),
                " + O(√(kL log n)) packets (k/2 packets per node of one colour; on a torus)"
            ),
            Scope::Torus2d,
            Some(Policy::FarthestFirst),
            Measure::PhaseLinkLoad(&["phase2-route"]),
            KsLemma::LocalLinkLoad,
        ),
        ks_lemma_claim(
            "Lemma 28",
            join!(
                "phase 2 takes at most ",
                KsLemma::LocalSecond.text(),
                " + O(√(kL log n)) routing steps (Lemma 27 and moves of at most L; k/2 per colour; on a torus)"
            ),
            Scope::Torus2d,
            Some(Policy::FarthestFirst),
            Measure::PhaseSteps(&["phase2-route"]),
            KsLemma::LocalSecond,
        ),
        ks_lemma_claim(
            "Lemma 29",
            join!(
                "phase 3 takes at most ",
                KsLemma::LocalThird.text(),
                " + O(√(kL log n)) routing steps (moves of at most 3L/2; k/2 per colour; on a torus)"
            ),
            Scope::Torus2d,
            Some(Policy::FarthestFirst),
            Measure::PhaseSteps(&["phase3-route"]),
            KsLemma::LocalThird,
        ),
    ],
};

#[cfg(test)]
mod tests {
    use crate::algorithms::ks::{spread_draw, Spread};
    use crate::rng::{Rng, Stream};
    use crate::topology::instance_locality;
    use crate::topology::Topology;

    #[test]
    fn locality_is_the_largest_move_along_one_axis() {
        let mesh: Topology = "mesh:8x8".parse().unwrap();
        let torus: Topology = "torus:8x8".parse().unwrap();
        // (0,0) -> (1,7): 1 down, 7 right on the mesh; 1 left round the torus.
        let packets = [(0, 15), (9, 9)];
        assert_eq!(instance_locality(mesh.as_grid().unwrap(), &packets), 7);
        assert_eq!(instance_locality(torus.as_grid().unwrap(), &packets), 1);
        assert_eq!(instance_locality(mesh.as_grid().unwrap(), &[]), 0);
    }

    #[test]
    fn windows_hold_l_plus_one_rows_round_the_ring() {
        let mut rng = Rng::new(1, Stream::Algorithm);
        for l in [1, 2, 3, 4, 8] {
            let mut seen = std::collections::BTreeSet::new();
            for _ in 0..2000 {
                let x = spread_draw(&mut rng, Spread::Window(l), 1, 16, true);
                let back = (x + 16 - 1) % 16; // x - 1 round the ring
                let ahead = back.min(16 - back);
                assert!(ahead <= l.div_ceil(2), "L {l}: {x}");
                seen.insert(x);
            }
            assert_eq!(seen.len() as u32, l + 1, "L {l}");
        }
    }
}
