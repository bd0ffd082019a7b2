//! The generators behind [`super::generate`].

use super::{Instance, Workload, WorkloadSpec};
use crate::error::{Error, Result};
use crate::rng::{Rng, Stream};
use crate::topology::{Network, Topology};

pub(super) fn describe(w: Workload) -> &'static str {
    match w {
        Workload::RandomPermutation => "a uniformly random permutation",
        Workload::Transpose => "(r,c) -> (c,r) on square meshes; label rotation on hypercubes",
        _ => "not implemented yet",
    }
}

pub(super) fn generate(topo: &Topology, spec: &WorkloadSpec) -> Result<Instance> {
    let n = topo.nodes();
    let mut rng = Rng::new(spec.seed, Stream::Workload);
    let packets: Vec<(u32, u32)> = match spec.workload {
        Workload::RandomPermutation => {
            let mut perm: Vec<u32> = (0..n).collect();
            rng.shuffle(&mut perm);
            (0..n).map(|v| (v, perm[v as usize])).collect()
        }
        Workload::Transpose => {
            let (r, c) = topo.mesh2d().filter(|(r, c)| r == c).ok_or_else(|| {
                Error::invalid(
                    "workload",
                    "transpose",
                    format!("needs a square 2-D mesh or torus, got {topo}"),
                )
            })?;
            (0..n).map(|v| (v, (v % c) * r + v / c)).collect()
        }
        other => return Err(Error::invalid("workload", other, "not implemented yet")),
    };
    let mut inst = Instance::new(topo.clone(), packets)?;
    inst.name = Some(spec.workload.name().to_string());
    Ok(inst)
}
