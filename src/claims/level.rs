//! LevelRoute's bounds (Kaufmann–Sibeyn §6): Corollary 4 and Theorem 1 on
//! the whole run, Lemmas 13–15 on its passes.

use super::{with_unit, Bound};
use crate::algorithms::claim::KsTheorem;
use crate::workload::Instance;

/// LevelRoute (§6) on an n × n mesh or torus, k the most packets a node
/// sends or receives, ε the run's (`None`: ⌈n/8⌉): Corollary 4,
/// (k/2 + 1)·(n + ε) + (k/2 + 1)·O(√(n log n)), and, where its condition
/// k ≥ 4n/ε holds, Theorem 1, (k + 1)/2·n + k/8·ε + k·O(√(n log n)).
pub(super) fn level_route(theorem: KsTheorem, instance: &Instance, epsilon: Option<u32>) -> Option<Bound> {
    let n = instance.topology.square_side()?;
    let k = instance.most_per_node();
    let eps = epsilon.unwrap_or(n.div_ceil(8).max(1));
    let (kf, nf, ef) = (k as f64, n as f64, eps as f64);
    let root = (nf * nf.ln()).sqrt();
    let parameters = format!("k = {k}, n = {n}, ε = {eps}");
    if theorem == KsTheorem::Theorem1 {
        if (k as u64 * eps as u64) < 4 * n as u64 {
            return None; // Theorem 1 holds for k ≥ 4n/ε
        }
        let value = (kf + 1.0) / 2.0 * nf + kf / 8.0 * ef;
        let unit = ("k·√(n·ln n)".to_string(), kf * root);
        return Some(with_unit(theorem.text(), value, parameters, unit));
    }
    let unit = ("(k/2 + 1)·√(n·ln n)".to_string(), (kf / 2.0 + 1.0) * root);
    Some(with_unit(
        theorem.text(),
        (kf / 2.0 + 1.0) * (nf + ef),
        parameters,
        unit,
    ))
}

/// LevelRoute's per-pass lemmas (§6) on an n × n mesh, ε the run's
/// (`None`: ⌈n/8⌉): Lemma 13 (step a), ε + O(√(ε log n)), and Lemma 14
/// (step b), n + O(√(n log n)), for the basic loop (not where Theorem 1's
/// improved version runs, k·ε ≥ 4n, k ≥ 4); Lemma 15 (steps a′ and b′ with
/// superior regions), n + 4ε²/n + O(√(n log n)) (the proof's lower-order
/// term), where ε ≤ n/6.
pub(super) fn level_pass(theorem: KsTheorem, instance: &Instance, epsilon: Option<u32>) -> Option<Bound> {
    let n = instance.topology.square_side()?;
    let k = instance.most_per_node();
    let eps = epsilon.unwrap_or(n.div_ceil(8).max(1));
    let (nf, ef) = (n as f64, eps as f64);
    let parameters = format!("n = {n}, ε = {eps}");
    let improved = k as u64 * eps as u64 >= 4 * n as u64 && k >= 4;
    match theorem {
        KsTheorem::Lemma13 if !improved => {
            let unit = ("√(ε·ln n)".to_string(), (ef * nf.ln()).sqrt());
            Some(with_unit(theorem.text(), ef, parameters, unit))
        }
        KsTheorem::Lemma14 if !improved => {
            let unit = ("√(n·ln n)".to_string(), (nf * nf.ln()).sqrt());
            Some(with_unit(theorem.text(), nf, parameters, unit))
        }
        KsTheorem::Lemma15 if 6 * eps <= n => {
            let unit = ("√(n·ln n)".to_string(), (nf * nf.ln()).sqrt());
            Some(with_unit(theorem.text(), nf + 4.0 * ef * ef / nf, parameters, unit))
        }
        _ => None,
    }
}
