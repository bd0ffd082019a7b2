//! The papers' bounds as numbers for one instance: each
//! [`Formula`] of the registry's claims evaluated on the instance's network
//! and packets (the page's "≤ 2n − 2 = 30 steps"), and the exact ones that
//! need more than arithmetic — Kaufmann–Sibeyn §5's one-dimensional lemmas
//! (Lemmas 2 and 7, the exact times of farthest-first routing on a linear
//! array and a ring, and the others of §5: the submodule `lines`).
//! [`crate::bounds`] holds what no algorithm can beat; this module holds
//! what the papers promise for their algorithms.
//!
//! # Complexity
//! [`lemma2`], [`lemma7`]: O((n + P) log n) for n nodes and P packets.
//! Every other formula: O(1) after the instance's (ℓ, k), which is
//! O(N + P).

use crate::algorithms::bitonic;
use crate::algorithms::claim::{Formula, KsTheorem};
use level::{level_pass, level_route};

mod level;
use crate::algorithms::pp::QUEUE_BOUND;
use crate::report::{Extra, FlashsortFields};
use crate::topology::{Kind, Network, Topology};
use crate::workload::Instance;
use serde::Serialize;

mod lecture;
mod lemmas;
mod lines;

pub use lecture::{greedy_buffer, greedy_buffer_cube, routes_met};
pub use lines::{lemma2, lemma7, line_not_applicable, Lemma2, Lemma7};

/// Greedy XY's largest queue on `greedy-worst` on an R × C mesh: 2t + 1
/// with t = min(⌊(R − 2)/3⌋, ⌊(C − 1)/2⌋) (the generator's construction;
/// `tests/it/permutation.rs` measures it under every policy).
pub fn greedy_worst_queue(rows: u32, cols: u32) -> u32 {
    2 * ((rows.saturating_sub(2)) / 3).min(cols.saturating_sub(1) / 2) + 1
}

/// A formula evaluated on one instance.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bound {
    /// The formula as the paper writes it, e.g. `2n − 2`.
    pub formula: String,
    /// Its value on this instance.
    pub value: f64,
    /// The instance's parameters it was evaluated with, e.g. `n = 16`.
    pub parameters: String,
    /// For Lemma 2: where the maximum is, in words.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub detail: String,
    /// The unit of the claim's additive term, when the claim has one
    /// ([`crate::algorithms::claim::Strength::PlusSqrtKnLogN`]): its
    /// name (`√(k·n·ln n)`, `√(k·L·ln n)`, … one per theorem) and value on
    /// this instance.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<(String, f64)>,
}

impl Bound {
    /// A bound with no detail and no unit (the formula's text, its value
    /// and the instance's parameters).
    fn plain(formula: &str, value: f64, parameters: String) -> Bound {
        Bound {
            formula: formula.to_string(),
            value,
            parameters,
            detail: String::new(),
            unit: None,
        }
    }
}

/// `formula` evaluated on `instance`, or `None` where it is not defined
/// (e.g. `2n − 2` on a hypercube); the run's options at their defaults.
pub fn evaluate(formula: Formula, instance: &Instance) -> Option<Bound> {
    evaluate_run(formula, instance, None, None, None, &Extra::default())
}

/// `formula` evaluated on `instance` for a run with `ks-level`'s strip
/// height `epsilon`, `ks-local`'s locality `locality` (`None`: their
/// defaults, ⌈n/8⌉ and the instance's own locality), worms of `flits`
/// flits (`None`: store-and-forward; the cut-through theorems are defined
/// only with F > 1), and whose algorithm reported `extra` (its own report
/// fields, SPEC §5). The formulas of quantities that depend on the
/// algorithm's choices — the congestion and dilation of the paths `lmrr`
/// chose, the capacity of its edge queues — take their values from `extra`
/// and are not defined without them.
pub fn evaluate_run(
    formula: Formula,
    instance: &Instance,
    epsilon: Option<u32>,
    locality: Option<u32>,
    flits: Option<u32>,
    extra: &Extra,
) -> Option<Bound> {
    let topo = &instance.topology;
    let bound = Bound::plain;
    let mesh = topo.mesh2d().filter(|_| topo.kind() == Kind::Mesh);
    let side = |(r, c): (u32, u32)| {
        if r == c {
            format!("n = {r}")
        } else {
            format!("R = {r}, C = {c}")
        }
    };
    let dim = match topo {
        Topology::Hypercube(h) => Some(h.dim()),
        _ => None,
    };
    // The formula's one spelling (claim.rs); those without one are spelled below per instance.
    let text = formula.text().unwrap_or_default();
    match formula {
        Formula::Lemma2 => lines::lemma2_bound(instance),
        Formula::Line(lemma) => lines::evaluate(lemma, instance, flits),
        Formula::MeshDiameter => mesh.map(|(r, c)| {
            let f = if r == c { "2n − 2" } else { "R + C − 2" };
            bound(f, (r + c - 2) as f64, side((r, c)))
        }),
        Formula::ThreeLines => mesh.map(|(r, c)| {
            let f = if r == c { "3n − 3" } else { "2R + C − 3" };
            bound(f, (2 * r + c - 3) as f64, side((r, c)))
        }),
        Formula::GreedyWorstQueue => mesh.map(|(r, c)| {
            let f = if r == c {
                "2⌊(n − 2)/3⌋ + 1"
            } else {
                "2·min(⌊(R − 2)/3⌋, ⌊(C − 1)/2⌋) + 1"
            };
            bound(f, greedy_worst_queue(r, c) as f64, side((r, c)))
        }),
        Formula::TwoSide => topo
            .square_side()
            .map(|n| bound(text, (2 * n) as f64, format!("n = {n}"))),
        Formula::LogSide => topo
            .square_side()
            .map(|n| bound(text, (n as f64).log2(), format!("n = {n}"))),
        Formula::EightD => dim.map(|d| bound(text, (8 * d) as f64, format!("D = {d}"))),
        Formula::SqrtNOverThree => match topo {
            Topology::ShuffleExchange(_) => {
                let n = topo.nodes();
                Some(bound(
                    text,
                    (n as f64 / 3.0).sqrt(),
                    format!("N = {n}, 3 links out of each node"),
                ))
            }
            _ => None,
        },
        Formula::SqrtNOverD => dim.map(|d| {
            let n = topo.nodes();
            bound(text, (n as f64 / d.max(1) as f64).sqrt(), format!("N = {n}, D = {d}"))
        }),
        Formula::SqrtLkn => {
            let (l, k) = instance.lk();
            let n = topo.nodes();
            Some(bound(
                text,
                ((l as f64) * (k as f64) * (n as f64)).sqrt(),
                format!("ℓ = {l}, k = {k}, N = {n}"),
            ))
        }
        Formula::Constant(c) => Some(bound(&c.to_string(), c as f64, String::new())),
        Formula::PacketsPerNode => {
            // Kaufmann–Sibeyn's k as the algorithms take it (and `--smear
            // auto`'s m = ⌈k·log₂ n⌉): declared, else measured, max(ℓ, k).
            let k = instance.most_per_node().max(1);
            Some(bound(text, k as f64, format!("k = {k}")))
        }
        Formula::QueueBound => Some(bound(
            text,
            QUEUE_BOUND as f64,
            "B stated before measuring: a parked packet per colour, O(1) per node once balanced (Lemmas 1, 3), O(1) in transit"
                .to_string(),
        )),
        Formula::GreedyBuffer | Formula::GreedyBufferCube | Formula::RoutesMet => {
            lecture::evaluate(formula, topo, text)
        }
        Formula::UnknownLkAllowance => {
            let ((l, k), n) = (instance.measured_lk(), topo.nodes());
            let guesses = crate::algorithms::pp::guesses_up_to(l.max(1), k, n);
            let ks: Vec<String> = guesses.iter().map(|(g, _)| g.to_string()).collect();
            let parameters = format!("ℓ = {l}, k = {k}, N = {n}, kᵢ = {}", ks.join(", "));
            Some(bound(text, guesses.iter().map(|&(_, a)| a as f64).sum(), parameters))
        }
        Formula::Ks(theorem) => match theorem {
            KsTheorem::Corollary4 | KsTheorem::Theorem1 => level_route(theorem, instance, epsilon),
            KsTheorem::Lemma13 | KsTheorem::Lemma14 | KsTheorem::Lemma15 => level_pass(theorem, instance, epsilon),
            KsTheorem::Theorem13 | KsTheorem::Theorem14 | KsTheorem::Theorem15 | KsTheorem::Corollary6 => {
                local_route(theorem, instance, locality)
            }
            _ => ks(theorem, instance, flits),
        },
        Formula::KsLemma(lemma) => lemmas::ks_lemma(lemma, instance, locality),
        // Theorem 2.9's c is the congestion of the leveled network routed
        // (`leveled_congestion`, the largest over the mesh's phases), not
        // SPEC §5's per-link `congestion` over the whole run; its L is the
        // network's depth (levels − 1: "not delivered by step L + w"), not
        // the longest path (`dilation`): a packet high up waits for the
        // ghosts and end-of-stream that climb from level 0. They differ
        // where paths are short (local or partial workloads).
        Formula::CongestionDilationLogN => extra.lmrr.as_ref().map(|f| {
            let depth = f.levels.saturating_sub(1);
            bound(
                text,
                (f.leveled_congestion + depth + f.log_n) as f64,
                format!(
                    "c = {} on the leveled network, L = {depth} (its depth), log N = {}",
                    f.leveled_congestion, f.log_n
                ),
            )
        }),
        Formula::EdgeQueueCap => extra
            .lmrr
            .as_ref()
            .map(|f| bound(text, f.edge_queue_cap as f64, format!("q = {}", f.edge_queue_cap))),
        Formula::FlashsortNodeQueue => match (
            &extra.lmrr,
            extra.flashsort.as_ref().and_then(FlashsortFields::light_load),
        ) {
            (Some(f), Some(lambda)) => {
                let q = f.edge_queue_cap;
                Some(bound(
                    text,
                    (4 * q + lambda) as f64,
                    format!("q = {q}; λ = {lambda}, the most keys a routing brought to one input"),
                ))
            }
            _ => None,
        },
        Formula::FlashsortArrayQueue => match (
            &extra.lmrr,
            extra.flashsort.as_ref().and_then(FlashsortFields::light_load),
            topo.as_grid(),
        ) {
            (Some(f), Some(lambda), Some(grid)) => {
                let (q, d) = (f.edge_queue_cap, grid.dims().len() as u32);
                Some(bound(
                    text,
                    (2 * d * q + 2 * lambda + 1) as f64,
                    format!("d = {d}, q = {q}; λ = {lambda}, the most keys a routing brought to one node"),
                ))
            }
            _ => None,
        },
        Formula::LogInputs => match topo {
            Topology::Butterfly(b) => Some(bound(text, b.dim() as f64, format!("n = {} inputs", b.rows()))),
            // The butterfly the hypercube emulates (§8): its n = 2^D inputs are the nodes.
            Topology::Hypercube(_) => dim.map(|d| bound(text, d as f64, format!("n = {} inputs", 1u64 << d))),
            _ => None,
        },
        Formula::DimsTimesSide => topo.as_grid().filter(|_| topo.kind() == Kind::Mesh).map(|g| {
            let (d, m) = (g.dims().len() as u32, g.dims().iter().copied().max().unwrap_or(1));
            bound(text, (d * m) as f64, format!("d = {d}, M = {m}"))
        }),
        Formula::SevenSide => topo
            .square_side()
            .map(|n| bound(text, (7 * n) as f64, format!("n = {n}"))),
        Formula::Side => topo.square_side().map(|n| bound(text, n as f64, format!("n = {n}"))),
        // Batcher's network on each network: its exact steps, computed by the family.
        Formula::BitonicSteps => dim.map(|d| bound(text, bitonic::cube_steps(d) as f64, format!("log N = D = {d}"))),
        Formula::BitonicButterflySteps => match topo {
            Topology::Butterfly(b) => {
                let d = b.dim();
                Some(bound(
                    text,
                    bitonic::butterfly::steps(d) as f64,
                    format!("log N = D = {d}"),
                ))
            }
            _ => None,
        },
        Formula::BitonicShuffleExchangeSteps => match topo {
            Topology::ShuffleExchange(g) => {
                let d = g.dim();
                Some(bound(
                    text,
                    bitonic::shuffle::steps(d) as f64,
                    format!("log N = D = {d}"),
                ))
            }
            _ => None,
        },
        Formula::LogNodes => {
            let n = topo.nodes();
            Some(bound(text, (n as f64).log2(), format!("N = {n} nodes")))
        }
        Formula::LogNodesSquared => {
            let n = topo.nodes();
            Some(bound(text, (n as f64).log2().powi(2), format!("N = {n} nodes")))
        }
    }
}

/// A Kaufmann–Sibeyn theorem's bound: its main term and the unit of its
/// additive term (name, value).
fn with_unit(formula: &str, value: f64, parameters: String, (name, unit): (String, f64)) -> Bound {
    Bound {
        formula: formula.to_string(),
        value,
        parameters,
        detail: String::new(),
        unit: Some((name, unit)),
    }
}

/// The locality theorems (§9) on a 2-D grid, k the most packets a node
/// sends or receives (a partial k-k routing, as every theorem of the
/// paper), n the (longest) side: Theorems 13 (torus) and 14 (mesh) with
/// the run's L (`None`: the instance's own), plus O(√(kL log n)); Theorem 15
/// (n × n torus, L unknown to the nodes: the instance's locality),
/// max{n, kL/16} + kL plus O(√((n + kL) log n)).
fn local_route(theorem: KsTheorem, instance: &Instance, locality: Option<u32>) -> Option<Bound> {
    let grid = instance.topology.as_grid()?;
    let own = crate::topology::instance_locality(grid, &instance.packets).max(1);
    let l = match theorem {
        KsTheorem::Theorem15 => own,
        _ => locality.unwrap_or(own),
    };
    let k = instance.measured_most_per_node().max(1);
    let n = *grid.dims().iter().max()?;
    let (kf, lf, nf) = (k as f64, l as f64, n as f64);
    let side = if instance.topology.square_side().is_some() {
        format!("n = {n}")
    } else {
        format!("n = {n} (the longest side)")
    };
    let parameters = format!("{side}, k = {k}, L = {l}");
    let local_unit = ("√(k·L·ln n)".to_string(), (kf * lf * nf.ln()).sqrt());
    Some(match theorem {
        KsTheorem::Theorem13 => {
            let value = (2.5 * lf).max(kf * lf) + (lf / 2.0).max(kf * lf / 16.0);
            with_unit(theorem.text(), value, parameters, local_unit)
        }
        KsTheorem::Theorem14 => {
            let value = lf.max(kf * lf / 8.0) + (2.0 * lf).max(kf * lf);
            with_unit(theorem.text(), value, parameters, local_unit)
        }
        KsTheorem::Corollary6 => with_unit(theorem.text(), 17.0 / 16.0 * kf * lf, parameters, local_unit),
        _ => {
            instance.topology.square_side()?;
            let value = nf.max(kf * lf / 16.0) + kf * lf;
            let unit = ("√((n + k·L)·ln n)".to_string(), ((nf + kf * lf) * nf.ln()).sqrt());
            with_unit(theorem.text(), value, parameters, unit)
        }
    })
}

/// A Kaufmann–Sibeyn theorem's main term on an n × … × n mesh or torus, k
/// the most packets a node sends or receives (a partial k-permutation),
/// with the unit of its additive term: √(k·n·ln n), times d in d ≥ 3
/// dimensions (Theorems 4 and 11). `None` where the theorem is not stated
/// (the scope is checked before: the theorems are for n × … × n).
fn ks(theorem: KsTheorem, instance: &Instance, flits: Option<u32>) -> Option<Bound> {
    let grid = instance.topology.as_grid()?;
    let dims = grid.dims();
    let n = dims[0];
    if dims.iter().any(|&s| s != n) || dims.len() < 2 {
        return None;
    }
    // The cut-through theorems' k is the worms' F (the paper's k flits of
    // one packet); the others' the most packets a node sends or receives.
    let k = if theorem.cut_through() {
        flits.filter(|&f| f > 1)?
    } else {
        instance.measured_most_per_node().max(1)
    };
    let d = dims.len() as u32;
    let (nf, kf, df) = (n as f64, k as f64, d as f64);
    let value = match theorem {
        KsTheorem::Theorem2 => (3.0 * nf).max(2.0 * nf + kf * nf / 4.0).max(kf * nf / 2.0),
        KsTheorem::Theorem3 => (3.0 * nf).max(kf * nf / 2.0 + nf / kf + 1.5 * nf),
        KsTheorem::Theorem4 => ((2.0 * df - 1.0) * nf).max(kf * nf / 2.0),
        KsTheorem::Theorem7 => (2.0 * nf).max(kf * nf / 4.0),
        KsTheorem::Theorem8 => (4.0 * nf).max(kf * nf / 2.0),
        KsTheorem::Theorem9 => kf * nf / 4.0 + 2.0 * nf,
        KsTheorem::Theorem11 => (2.0 * df * nf).max(kf * nf / 4.0),
        KsTheorem::Corollary5 => (3.0 * nf).max(kf * nf / 2.0 + nf / kf + 1.5 * nf),
        KsTheorem::Theorem5 => {
            ((2.0 * df - 1.0) * nf).max(kf * nf / 2.0 + (df - 1.0) * nf / kf + (df - 0.5) * nf)
        }
        KsTheorem::Theorem10 => kf * nf / 4.0 + 2.0 * nf,
        KsTheorem::Theorem12 => kf * nf / 2.0 + df * nf,
        KsTheorem::NoWrapOnTorus => 3.0 * kf * nf / 8.0,
        KsTheorem::NoWrapNoRandomize => kf * nf / 4.0,
        KsTheorem::NoWrapAverage => (2.0 * df - 1.0) * kf * nf / (4.0 * df),
        KsTheorem::WrapAverage => kf * nf / 2.0,
        KsTheorem::Corollary4
        | KsTheorem::Theorem1
        | KsTheorem::Lemma13
        | KsTheorem::Lemma14
        | KsTheorem::Lemma15
        | KsTheorem::Theorem13
        | KsTheorem::Theorem14
        | KsTheorem::Corollary6
        // LevelRoute's and the locality theorems are evaluated apart.
        | KsTheorem::Theorem15 => return None,
    };
    let d_times = theorem.d_unit();
    let (name, root) = if theorem.cut_through() {
        ("F·√(n·ln n)", kf * (nf * nf.ln()).sqrt())
    } else {
        ("√(k·n·ln n)", (kf * nf * nf.ln()).sqrt())
    };
    let unit = if d_times {
        (format!("d·{name}"), df * root)
    } else {
        (name.to_string(), root)
    };
    let letter = if theorem.cut_through() { "F" } else { "k" };
    let parameters = if d > 2 {
        format!("n = {n}, d = {d}, {letter} = {k}")
    } else {
        format!("n = {n}, {letter} = {k}")
    };
    Some(with_unit(theorem.text(), value, parameters, unit))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formulas_on_a_16_by_16_mesh() {
        let topo: Topology = "mesh:16x16".parse().unwrap();
        let inst = Instance::new(topo, vec![(0, 255)]).unwrap();
        let value = |f| evaluate(f, &inst).map(|b| (b.formula, b.value));
        assert_eq!(value(Formula::MeshDiameter), Some(("2n − 2".into(), 30.0)));
        assert_eq!(value(Formula::ThreeLines), Some(("3n − 3".into(), 45.0)));
        assert_eq!(value(Formula::GreedyWorstQueue), Some(("2⌊(n − 2)/3⌋ + 1".into(), 9.0)));
        assert_eq!(value(Formula::TwoSide), Some(("2n".into(), 32.0)));
        assert_eq!(value(Formula::EightD), None);
        assert_eq!(value(Formula::Lemma2), None);
        assert_eq!(value(Formula::QueueBound).unwrap().1, QUEUE_BOUND as f64);
        let cube = Instance::new("hypercube:12".parse().unwrap(), vec![]).unwrap();
        assert_eq!(evaluate(Formula::EightD, &cube).unwrap().value, 96.0);
        assert_eq!(evaluate(Formula::MeshDiameter, &cube), None);
    }
}
