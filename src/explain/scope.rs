//! Whether a claim applies to a run: the networks, workloads, policies,
//! options and settings its paper states it for, and why not when it does
//! not (the explain panel lists such claims as stated for other runs).

use crate::algorithms::claim::{Claim, Formula, KsTheorem, Measure, Scope};
use crate::algorithms::ks_level::runs_improved;
use crate::algorithms::{PathChoice, Smear};
use crate::claims;
use crate::simulation::Simulation;
use crate::topology::{Network, Topology};
use crate::workload::Workload;

/// Why `claim` does not apply to `sim`, if it does not.
pub(crate) fn not_applicable(claim: &Claim, sim: &Simulation) -> Option<String> {
    let topo = &sim.instance().topology;
    if let Some((kinds, shape)) = claim.scope.network() {
        if !shape.holds_for(kinds, topo) {
            return Some(format!("stated for {}; this is {topo}", shape.phrase(kinds)));
        }
    }
    // A claim about one instance (a worst case) says nothing of the others.
    if let Some(w) = claim.instance {
        let here = sim.instance().name.as_deref();
        if here != Some(w.name()) {
            let what = here.unwrap_or("a loaded instance");
            return Some(format!("stated for {w}; this run routes {what}"));
        }
    }
    // Flashsort's node-queue bounds are the light loading's (their λ is
    // the most keys a light routing brought to one input).
    if matches!(
        claim.formula,
        Formula::FlashsortNodeQueue | Formula::FlashsortArrayQueue
    ) && sim.config().options.loading == Some(crate::options::Loading::Full)
    {
        return Some("stated for the light loading (the default); this run's loading is full".to_string());
    }
    // LMRR §6 (and §10's sort, one key per node) route at most d packets
    // out of and into each node of a d-dimensional array.
    if let (Formula::DimsTimesSide, Some(grid)) = (claim.formula, topo.as_grid()) {
        let d = grid.dims().len() as u32;
        let (l, k) = sim.instance().lk();
        if l.max(k) > d {
            return Some(format!(
                "stated for at most d = {d} packets sent and received per node; this run has ℓ = {l}, k = {k}"
            ));
        }
    }
    // Bit fixing's |S| is counted for every packet, up to a size.
    let packets = sim.instance().packets.len();
    if claim.formula == Formula::RoutesMet && packets > super::delay::MAX_COUNTED {
        return Some(format!(
            "|S| is counted for at most {} packets; this run has {packets}",
            super::thousands(super::delay::MAX_COUNTED as u32)
        ));
    }
    // The lecture's average case sends one packet from every node
    // (Kaufmann–Sibeyn §5's lemmas on the same workload take any k).
    if claim.instance == Some(Workload::RandomDestinations) && claim.measure == Measure::PacketDelay {
        let l = sim.instance().measured_lk().0;
        if l > 1 {
            return Some(format!("stated for one packet from every node; here a node sends {l}"));
        }
    }
    if claim.scope == Scope::ButterflyRandomInputsToOutputs {
        if let Some(why) = not_random_inputs_to_outputs(sim) {
            return Some(why);
        }
    }
    // §6's plateaus run on 2-D meshes with Valiant paths only (direct
    // paths take Theorem 3.1's four phases there).
    let two_d = sim.instance().topology.mesh2d().is_some();
    if claim.scope == Scope::MeshPlateaus && two_d && sim.config().options.paths != PathChoice::Valiant {
        return Some(
            "stated for §6's plateaus; on a 2-D mesh they are the valiant paths, and this run takes the four phases \
             of Theorem 3.1"
                .to_string(),
        );
    }
    if claim.permutation {
        let (l, k) = sim.instance().measured_lk();
        if l > 1 || k > 1 {
            return Some(format!(
                "stated for permutations; here a node sends up to {l} and receives up to {k} packets"
            ));
        }
    }
    // The papers' bounds for phased algorithms (offline, sort-route,
    // valiant) are proved phase by phase, with barriers between them.
    if claim.separated && sim.config().options.pipelined() {
        return Some("stated for phases separated by barriers; this run pipelines them".to_string());
    }
    // LevelRoute (§6) runs one of three loops: Theorem 1 is the improved
    // version's, Corollary 4 and Lemmas 13–14 the basic loop's, Lemma 15
    // the superior regions' (§6.1.1, the basic loop with steps a′ and b′
    // in one phase: no step a of its own).
    if let Formula::Ks(theorem) = claim.formula {
        let options = &sim.config().options;
        let (superior, improved) = (options.superior, runs_improved(sim.instance(), options));
        let basic = match (superior, options.pipelined()) {
            (true, _) => "superior regions on the basic loop",
            (false, true) => "the basic loop (its phases coalesced)",
            (false, false) => "the basic loop (k·ε < 4n)",
        };
        match theorem {
            KsTheorem::Theorem1 if !improved => {
                return Some(format!("stated for the improved version; this run uses {basic}"))
            }
            KsTheorem::Corollary4 | KsTheorem::Lemma13 | KsTheorem::Lemma14 if improved => {
                return Some(
                    "stated for the basic loop; this run uses the improved version (k·ε ≥ 4n: Theorem 1)".into(),
                )
            }
            KsTheorem::Lemma13 if superior => return Some(
                "stated for step a of the basic loop; with superior regions every pass spreads and routes in one phase"
                    .into(),
            ),
            KsTheorem::Lemma15 if !superior => {
                return Some("stated for superior regions (option superior); this run has none".into())
            }
            _ => {}
        }
    }
    // Theorem 6 (Kaufmann–Sibeyn §7.5): for runs that smear in blocks of
    // m = ⌈k·log₂ n⌉ nodes (option smear = auto; a longer m smears more).
    if claim.measure == Measure::MaxBarrierLoad {
        let (need, side) = Smear::theorem_block(sim.instance());
        if need > side {
            return Some(format!(
                "stated for k ≤ n^α with α < 1, blocks of m = ⌈k·log₂ n⌉ nodes on a line of n: here m = {need} \
                 exceeds the side {side}"
            ));
        }
        match sim.report_extra().smear_block {
            None => {
                return Some(
                    "stated for runs that smear their queues after each phase (option smear = auto, §7.5); this run \
                     does not"
                        .to_string(),
                )
            }
            Some(m) if m < need => {
                return Some(format!(
                    "stated for blocks of m = ⌈k·log₂ n⌉ = {need} nodes; this run smears blocks of {m}"
                ))
            }
            Some(_) => {}
        }
    }
    if let Some(policy) = claim.policy {
        if sim.config().policy != policy {
            return Some(format!("stated for {policy}; this run uses {}", sim.config().policy));
        }
    }
    // An algorithm that bounds its own queues (lmrr's edge queues) states
    // its claims for them.
    if let Some(q) = sim.config().queue_cap.filter(|_| sim.own_queue_cap().is_none()) {
        return Some(format!("stated for unbounded queues; this run has q = {q}"));
    }
    // Corollary 6 holds for k ≥ 8 only (k: the most packets a node sends
    // or receives, as in every theorem of the paper).
    if let Some(min) = match claim.formula {
        Formula::Ks(theorem) => theorem.min_k(),
        _ => None,
    } {
        let k = sim.instance().measured_most_per_node();
        if k < min {
            return Some(format!("stated for k ≥ {min}; here k = {k}"));
        }
    }
    // Kaufmann–Sibeyn's average-case remarks (§7.4, §8.1) hold "for
    // sufficiently large k": read here as k large enough that the main
    // term is at least the mesh's diameter, which every run needs (at k = 1
    // the measured constant would only measure the diameter).
    if let Formula::Ks(KsTheorem::NoWrapNoRandomize | KsTheorem::NoWrapAverage | KsTheorem::WrapAverage) = claim.formula
    {
        let main = claims::evaluate(claim.formula, sim.instance()).map(|b| b.value);
        let diameter = topo.diameter();
        if let Some(main) = main {
            if main < diameter as f64 {
                let k = sim.instance().measured_most_per_node();
                return Some(format!(
                    "stated for sufficiently large k; here k = {k} and the main term {} is below the diameter \
                     {diameter}",
                    super::num(main)
                ));
            }
        }
    }
    // Pietracaprina–Pucci §3's allowance is for nodes not told ℓ and k.
    if claim.formula == Formula::UnknownLkAllowance && !sim.config().options.unknown_lk {
        return Some(
            "stated for nodes that are not told ℓ and k (option unknown-lk, §3); this run tells them".to_string(),
        );
    }
    // Kaufmann–Sibeyn's locality theorems: 13 and 14 for an L the nodes
    // know, 15 for one they estimate (`--locality unknown`, NoLRoute).
    if let Formula::Ks(theorem) = claim.formula {
        match (theorem.locality_known(), sim.config().options.locality_unknown) {
            (Some(true), true) => {
                return Some(
                    "stated for a locality L known to every node; this run's nodes estimate it (option locality \
                     = unknown, Theorem 15)"
                        .to_string(),
                )
            }
            (Some(false), false) => {
                return Some(
                    "stated for a locality L the nodes do not know (option locality = unknown); this run tells them L"
                        .to_string(),
                )
            }
            _ => {}
        }
    }
    // The one-dimensional cut-through lemmas (6, 12): one worm per node.
    if let Formula::Line(lemma) = claim.formula {
        if let Some(why) = claims::line_not_applicable(lemma, sim.instance()) {
            return Some(why);
        }
    }
    // §7.4's and §8.1's average cases: random k-permutations only.
    if matches!(claim.formula, Formula::Ks(t) if t.average()) {
        let here = sim.instance().name.as_deref();
        let random = [Workload::RandomKk, Workload::RandomPermutation];
        if !random.iter().any(|w| here == Some(w.name())) {
            let what = here.unwrap_or("a loaded instance");
            return Some(format!(
                "stated for the average case, random k-permutations (random-kk, random-permutation); this run \
                 routes {what}"
            ));
        }
    }
    // NoWrapRoute without its randomizing phases (`--no-randomize`, §7.4)
    // has that claim only; the others are the randomizing algorithm's.
    if let Formula::Ks(_) | Formula::KsLemma(_) = claim.formula {
        let bare = claim.formula == Formula::Ks(KsTheorem::NoWrapNoRandomize);
        match (bare, sim.config().options.no_randomize) {
            (true, false) => {
                return Some("stated for NoWrapRoute without its randomizing phases (option no-randomize)".into())
            }
            (false, true) => {
                return Some(
                    "stated for the algorithm with its randomizing phases; this run leaves them out (option \
                     no-randomize)"
                        .into(),
                )
            }
            _ => {}
        }
    }
    // §9.1's per-phase lemmas: for LocalRoute with L known to the nodes.
    if matches!(claim.formula, Formula::KsLemma(l) if l.locality()) && sim.config().options.locality_unknown {
        return Some(
            "stated for LocalRoute, with a locality L known to every node; this run's nodes estimate it (option \
             locality = unknown)"
                .to_string(),
        );
    }
    // Kaufmann–Sibeyn's cut-through theorems (Corollary 5, Theorems 5, 10,
    // 12; Lemmas 6 and 12) are for worms of F > 1 flits; every other claim
    // for store-and-forward packets.
    let worms = sim.config().options.flits.filter(|&f| f > 1);
    let cut_through = claim.formula.cut_through();
    match worms {
        Some(f) if !cut_through => Some(format!(
            "stated for store-and-forward packets; this run routes worms of {f} flits"
        )),
        None if cut_through => Some("stated for cut-through worms of F > 1 flits (option flits = F)".to_string()),
        _ => None,
    }
}

/// Why `sim` is not a random permutation from its butterfly's inputs to
/// its outputs on direct paths (Theorem 4.2's setting), if it is not.
fn not_random_inputs_to_outputs(sim: &Simulation) -> Option<String> {
    let inst = sim.instance();
    let Topology::Butterfly(b) = &inst.topology else {
        return Some("stated for a butterfly".into());
    };
    let n = b.rows();
    let inputs_to_outputs =
        inst.packets.len() as u32 == n && inst.packets.iter().all(|&(s, d)| s < n && d / n == b.dim());
    let random = inst.name.as_deref() == Some(Workload::RandomPermutation.name());
    if !random || !inputs_to_outputs {
        let what = inst.name.as_deref().unwrap_or("a loaded instance");
        return Some(format!(
            "stated for a random permutation from the {n} inputs to the {n} outputs; this is {what}"
        ));
    }
    if sim.config().options.paths != PathChoice::Direct {
        return Some(format!(
            "stated for direct paths; this run takes {} paths",
            sim.config().options.paths.name()
        ));
    }
    None
}
