//! LocalRoute (Kaufmann–Sibeyn, *Randomized multi-packet routing on
//! meshes*, §9.1 "Locality L"; `ks-local`): k-k routing when no packet
//! moves more than L along any axis, in O(k·L) steps instead of O(k·n).
//!
//! Every packet gets a random colour (one per axis; green and blue in 2-D),
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
//! it with information packets (on an n×n torus only).
//!
//! Phases separated by barriers or coalesced (`--phases`), as `ks-nowrap`.
//!
//! # Complexity
//! O(d·packets) set-up (the locality is one pass over the packets);
//! O(packets) per phase change; the steps cost what the engine's cost.

use super::ks::{ks_grid, sources};
use super::ks::{Plan, Spread, Variant};
use super::ks_nol::Nol;
use super::phased::Phased;
use super::{Algorithm, AlgorithmOptions};
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::report::Extra;
use crate::topology::instance_locality;
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

/// LocalRoute's schedule, or NoLRoute's.
#[derive(Debug, Clone)]
enum Run {
    Local(Box<Phased<Plan>>),
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
        "ks-local"
    }

    fn start(&mut self, instance: &Instance, engine: &mut Engine) -> Result<()> {
        let grid = ks_grid(self.name(), &instance.topology, 2..)?;
        if self.unknown {
            let nol = Nol::start(grid, instance, engine, self.seed, self.coalesced)?;
            self.run = Some(Run::Nol(Box::new(nol)));
            return Ok(());
        }
        let own = instance_locality(grid, &instance.packets);
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
        self.run = Some(Run::Local(Box::new(schedule)));
        self.used = Some(l);
        Ok(())
    }

    fn before_step(&mut self, engine: &mut Engine) {
        match self.run.as_mut() {
            Some(Run::Local(s)) => s.before_step(engine),
            Some(Run::Nol(n)) => n.before_step(engine),
            None => {}
        }
    }

    fn report_extra(&self) -> Extra {
        let (colours, locality_estimate) = match self.run.as_ref() {
            Some(Run::Local(s)) => (Some(s.plan().colours().to_vec()), None),
            Some(Run::Nol(n)) => (Some(n.colours().to_vec()), n.estimate()),
            None => (None, None),
        };
        Extra {
            colours,
            locality: self.used,
            locality_estimate,
            ..Extra::default()
        }
    }
}

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
