//! Kaufmann–Sibeyn's per-phase lemmas ([`KsLemma`]) evaluated on an
//! instance: the main term of one phase (or of one phase's link load) and
//! the unit of its additive term.

use super::{with_unit, Bound};
use crate::algorithms::claim::KsLemma;
use crate::topology::instance_locality;
use crate::workload::Instance;

/// `lemma` on `instance`, with the run's locality `locality` (`None`: the
/// instance's own) for §9's lemmas. `None` where the lemma is not stated:
/// §7's and §8's need every side equal (§7.1's and §7.2's two
/// dimensions), §9's a grid.
pub(super) fn ks_lemma(lemma: KsLemma, instance: &Instance, locality: Option<u32>) -> Option<Bound> {
    let grid = instance.topology.as_grid()?;
    let dims = grid.dims();
    let n = *dims.iter().max()?;
    let d = dims.len() as u32;
    let k = instance.measured_most_per_node().max(1);
    let (nf, kf, df) = (n as f64, k as f64, d as f64);
    let text = lemma.text();
    if lemma.locality() {
        let l = locality
            .unwrap_or_else(|| instance_locality(grid, &instance.packets))
            .max(1);
        let lf = l as f64;
        let value = match lemma {
            KsLemma::LocalFirst => (lf / 2.0).max(kf * lf / 16.0),
            KsLemma::LocalLinkLoad => kf * lf / 2.0,
            KsLemma::LocalSecond => lf.max(kf * lf / 2.0),
            _ => (1.5 * lf).max(kf * lf / 2.0),
        };
        let unit = ("√(k·L·ln n)".to_string(), (kf * lf * nf.ln()).sqrt());
        return Some(with_unit(text, value, format!("k = {k}, L = {l}, n = {n}"), unit));
    }
    if dims.iter().any(|&s| s != n) || d < 2 {
        return None;
    }
    let two_d = matches!(
        lemma,
        KsLemma::NoWrapOuter | KsLemma::NoWrapMiddle | KsLemma::NoWrapOuterAny | KsLemma::NoWrapMiddleAny
    );
    if two_d && d != 2 {
        return None;
    }
    let value = match lemma {
        KsLemma::NoWrapOuter => nf.max(kf * nf / 8.0),
        KsLemma::NoWrapMiddle => nf.max(kf * nf / 4.0),
        KsLemma::NoWrapOuterAny => nf.max(kf * nf / 8.0 + nf / (2.0 * kf) + nf / 2.0),
        KsLemma::NoWrapMiddleAny => nf.max(kf * nf / 4.0 + nf / 2.0),
        KsLemma::PerDimension => nf.max(kf * nf / (4.0 * df)),
        KsLemma::WrapPerDimension => nf.max(kf * nf / (8.0 * df)),
        _ => nf.max(kf * nf / (2.0 * df)),
    };
    let parameters = if two_d {
        format!("n = {n}, k = {k}")
    } else {
        format!("n = {n}, d = {d}, k = {k}")
    };
    let unit = ("√(k·n·ln n)".to_string(), (kf * nf * nf.ln()).sqrt());
    Some(with_unit(text, value, parameters, unit))
}
