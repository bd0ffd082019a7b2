//! Destinations of open-loop traffic (SPEC §6): `uniform` (a uniformly
//! random node other than the source) or a permutation workload of SPEC §5
//! by name (a fixed destination per source; a node the pattern maps to
//! itself generates nothing).
//!
//! On a butterfly, as for every workload (SPEC §2), packets go from level 0
//! to level D: only the 2^D level-0 nodes generate, and `uniform` draws a
//! uniformly random level-D node. A node with no other node to send to (a
//! one-node network) generates nothing under `uniform`.

use crate::error::{Error, Result};
use crate::rng::Rng;
use crate::topology::{Network, Topology};
use crate::workload::{self, Workload, WorkloadSpec};
use std::fmt;
use std::str::FromStr;

/// A traffic pattern, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    /// A uniformly random destination other than the source, per packet.
    Uniform,
    /// The destination a permutation workload gives the source.
    Workload(Workload),
}

impl Pattern {
    /// The patterns' names for messages and `list`: `uniform` and the
    /// permutation workloads (whether one is defined on a topology is
    /// checked when its destinations are built).
    pub fn names() -> Vec<&'static str> {
        let mut names = vec!["uniform"];
        names.extend(PERMUTATIONS.iter().map(|w| w.name()));
        names
    }

    /// The SPEC name.
    pub fn name(self) -> &'static str {
        match self {
            Pattern::Uniform => "uniform",
            Pattern::Workload(w) => w.name(),
        }
    }
}

/// The permutation workloads of SPEC §5 (one packet per source, at most
/// one per destination) that open-loop traffic takes as patterns.
const PERMUTATIONS: [Workload; 9] = [
    Workload::Transpose,
    Workload::BitComplement,
    Workload::BitReversal,
    Workload::Shuffle,
    Workload::Tornado,
    Workload::PointReflection,
    Workload::LargeShift,
    Workload::RandomPermutation,
    Workload::GreedyWorst,
];

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Pattern {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self> {
        if s == "uniform" {
            return Ok(Pattern::Uniform);
        }
        PERMUTATIONS
            .into_iter()
            .find(|w| w.name() == s)
            .map(Pattern::Workload)
            .ok_or_else(|| Error::invalid("pattern", s, format!("expected one of {}", Pattern::names().join(", "))))
    }
}

/// A pattern on one topology: which nodes generate and where their
/// packets go.
#[derive(Debug, Clone)]
pub struct Destinations {
    pattern: Pattern,
    /// The nodes that generate packets, ascending.
    sources: Vec<u32>,
    /// Nodes that may generate under some pattern (all nodes; a
    /// butterfly's level-0 nodes): the "per node" of `offered` and `accepted`.
    inputs: u32,
    /// `uniform`: the candidate destinations (all nodes; a butterfly's
    /// level D). Permutations: unused.
    targets: Vec<u32>,
    /// Permutations: the destination of each node (itself: none).
    fixed: Vec<u32>,
}

impl Destinations {
    /// The pattern on `topo`; a permutation workload comes from `seed`
    /// (only `random-permutation` reads it). Refused with the pattern's
    /// name where the workload is not defined (e.g. `transpose` on a
    /// non-square mesh).
    pub fn new(pattern: Pattern, topo: &Topology, seed: u64) -> Result<Destinations> {
        let nodes = topo.nodes();
        // The inputs are nodes 0.. (a butterfly's level 0 comes first).
        let inputs: Vec<u32> = (0..Destinations::inputs_of(topo) as u32).collect();
        let targets: Vec<u32> = match topo {
            Topology::Butterfly(b) => (b.dim() << b.dim()..nodes).collect(),
            _ => (0..nodes).collect(),
        };
        let mut fixed: Vec<u32> = (0..nodes).collect();
        let sources = match pattern {
            // A source with no other target (a one-node network) has
            // nowhere to send: like a node a permutation maps to itself,
            // it generates nothing.
            Pattern::Uniform => inputs
                .iter()
                .copied()
                .filter(|&s| targets.iter().any(|&d| d != s))
                .collect(),
            Pattern::Workload(w) => {
                // The workload's refusal, named as the pattern it is here.
                let instance = workload::generate(topo, &WorkloadSpec::new(w, seed)).map_err(|e| {
                    let reason = match e {
                        Error::Invalid { field, reason, .. } if field == "workload" => reason,
                        other => other.to_string(),
                    };
                    Error::invalid("pattern", w.name(), reason)
                })?;
                for &(s, d) in &instance.packets {
                    if fixed[s as usize] != s {
                        return Err(Error::invalid(
                            "pattern",
                            w.name(),
                            format!("node {s} has two destinations on {topo}: not a permutation"),
                        ));
                    }
                    fixed[s as usize] = d;
                }
                (0..nodes).filter(|&v| fixed[v as usize] != v).collect()
            }
        };
        Ok(Destinations {
            pattern,
            sources,
            inputs: inputs.len() as u32,
            targets,
            fixed,
        })
    }

    /// The pattern.
    pub fn pattern(&self) -> Pattern {
        self.pattern
    }

    /// Whether `node` is a fixed point of a permutation pattern: it
    /// generates nothing and no packet is bound for it.
    pub fn fixed(&self, node: u32) -> bool {
        matches!(self.pattern, Pattern::Workload(_)) && self.fixed[node as usize] == node
    }

    /// The nodes that generate packets, ascending.
    pub fn sources(&self) -> &[u32] {
        &self.sources
    }

    /// The number of nodes that may generate under some pattern on `topo`
    /// (all nodes; a butterfly's level-0 nodes), known without building
    /// anything: an upper bound of any pattern's sources there.
    pub fn inputs_of(topo: &Topology) -> u64 {
        match topo {
            Topology::Butterfly(b) => 1u64 << b.dim(),
            _ => topo.nodes() as u64,
        }
    }

    /// The nodes `offered` and `accepted` are per (see the field).
    pub fn inputs(&self) -> u32 {
        self.inputs
    }

    /// The destination of a packet generated at `src` (a source), drawing
    /// from `rng` for `uniform`.
    pub fn draw(&self, src: u32, rng: &mut Rng) -> u32 {
        match self.pattern {
            Pattern::Uniform => {
                // Uniform over the targets other than the source.
                let others = self.targets.len() as u32 - self.targets.binary_search(&src).is_ok() as u32;
                let k = rng.below(others.max(1)) as usize;
                let d = self.targets[k];
                if d >= src && self.targets.binary_search(&src).is_ok() {
                    self.targets[k + 1]
                } else {
                    d
                }
            }
            Pattern::Workload(_) => self.fixed[src as usize],
        }
    }

    /// The row of source `s` in [`Destinations::for_each_pair`]'s matrix:
    /// the probability that a packet generated at `s` is bound for `d`, as
    /// a function of `d` (0 where `s` generates nothing or never sends to
    /// `d`). What depends on `s` alone is found once, not per `d`.
    pub fn weights_from(&self, s: u32) -> impl Fn(u32) -> f64 + '_ {
        let source = self.sources.binary_search(&s).is_ok();
        let others = self.targets.len() - self.targets.binary_search(&s).is_ok() as usize;
        let uniform = if source && others > 0 { 1.0 / others as f64 } else { 0.0 };
        move |d| match self.pattern {
            _ if !source || s == d => 0.0,
            Pattern::Uniform => uniform * self.targets.binary_search(&d).is_ok() as u8 as f64,
            Pattern::Workload(_) => (self.fixed[s as usize] == d) as u8 as f64,
        }
    }

    /// Every (source, destination, probability) of one generated packet:
    /// the pattern's traffic matrix per unit rate. Calls `f` for each.
    pub fn for_each_pair(&self, mut f: impl FnMut(u32, u32, f64)) {
        for &s in &self.sources {
            match self.pattern {
                Pattern::Uniform => {
                    let others = self.targets.iter().filter(|&&d| d != s).count();
                    let p = 1.0 / others as f64;
                    for &d in self.targets.iter().filter(|&&d| d != s) {
                        f(s, d, p);
                    }
                }
                Pattern::Workload(_) => f(s, self.fixed[s as usize], 1.0),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Stream;

    #[test]
    fn uniform_never_draws_the_source_and_reaches_every_other_node() {
        let topo: Topology = "mesh:3x3".parse().unwrap();
        let d = Destinations::new(Pattern::Uniform, &topo, 1).unwrap();
        let mut rng = Rng::new(1, Stream::Load);
        let mut seen = vec![0u32; 9];
        for _ in 0..2000 {
            let x = d.draw(4, &mut rng);
            seen[x as usize] += 1;
        }
        assert_eq!(seen[4], 0);
        assert!(seen.iter().enumerate().all(|(v, &c)| v == 4 || c > 150), "{seen:?}");
    }

    #[test]
    fn transpose_leaves_the_diagonal_silent() {
        let topo: Topology = "mesh:4x4".parse().unwrap();
        let d = Destinations::new(Pattern::Workload(Workload::Transpose), &topo, 1).unwrap();
        assert_eq!(d.sources().len(), 12);
        let mut rng = Rng::new(1, Stream::Load);
        assert_eq!(d.draw(1, &mut rng), 4);
    }

    #[test]
    fn bad_names_and_undefined_patterns_are_refused_by_name() {
        let e = "hotspot".parse::<Pattern>().unwrap_err().to_string();
        assert!(e.contains("pattern") && e.contains("hotspot"), "{e}");
        let topo: Topology = "mesh:4x6".parse().unwrap();
        let e = Destinations::new(Pattern::Workload(Workload::Transpose), &topo, 1).unwrap_err();
        assert!(e.to_string().contains("transpose"), "{e}");
    }
}
