//! `lmrr` on the shuffle-exchange graph (Leighton–Maggs–Ranade–Rao §5):
//! permutations in O(log N) steps with edge queues of constant size.
//!
//! The good labels ([`labels`]) emulate a leveled network; a packet goes
//! in three phases, each routed by the §2.2 scheduler on a leveled network
//! whose every edge is one real link or a wait on one node:
//!
//! 1. **bad-to-good**: a packet at a bad label goes to its good label
//!    ([`Labels::bad_path`]) on the network of these paths ([`HopLeveled`]);
//! 2. good to good through a uniformly random good necklace ([`chain`]):
//!    along its necklace to level 0, up A and down A reversed to the random
//!    necklace, up and down again to the destination's necklace (or that
//!    of the good label a bad destination is associated with), along it to
//!    the node. The chain is routed as one leveled network of four
//!    substeps ([`SPLIT`]);
//! 3. **good-to-bad**: from the good label of a bad destination to it (the
//!    phase-1 path reversed).
//!
//! A packet takes part in the rounds its path crosses, each starting where
//! the last left it; it is delivered where it first reaches its
//! destination (its later rounds dropped).

mod chain;
mod labels;
#[cfg(test)]
mod tests;

use super::hop_leveled::HopLeveled;
use super::leveled::Description;
use super::{Lmrr, Round, MAX_PATH_NODES, NAME};
use crate::error::{Error, Result};
use crate::options::PathChoice;
use crate::rng::Rng;
use crate::topology::{Network, ShuffleExchange, Topology};
use chain::{Chain, Leg, Part, CHAIN, NODE};
pub use labels::{threshold, Labels, GOOD, NO_RUN, TIE, ZERO};
use std::sync::Arc;

/// The rounds the chain of the good-to-good phase is routed in (ranges of
/// [`chain::CHAIN`], as (first, end)): one. In it a directed link carries up to four
/// logical edges (an exchange link serves both legs' A and A reversed),
/// so a logical step is four real steps; split into four rounds (around +
/// up, down, up, down + along) no link carries two and the run takes
/// about 0.65 times the steps, but the packets wait between rounds at the
/// tops of A and at level 0 of the random necklaces, Θ(log N) of them on
/// one node (measured: `docs/algorithms/lmrr.md`), where in one round a
/// node holds a constant number.
pub const SPLIT: &[(usize, usize)] = &[(0, CHAIN.len())];

/// The largest D lmrr routes on (its tables and leveled networks are a
/// few arrays of N entries per part of the chain).
#[cfg(not(target_arch = "wasm32"))]
pub const MAX_DIM: u32 = 20;
/// The browser's largest D.
#[cfg(target_arch = "wasm32")]
pub const MAX_DIM: u32 = 16;

/// At most this many bad labels are associated with one good label (the
/// paper's argument, §5.4, with the packets of a good necklace spread over
/// its D nodes): type 1, ⌈2^(t+1)/D⌉ ≤ 2, since 2^t ≤ D for t = ⌊log₂ D⌋;
/// type 2, one from each of the at most two bad necklaces that map to the
/// good necklace; type 3, one. Per good necklace the paper's count is
/// 2^(t+1) + 2D + 1, which grows with D.
pub const BAD_PER_GOOD_NODE: u32 = 5;

/// The phase (stage) names, by part of the chain.
fn stage_of(part: usize) -> &'static str {
    match CHAIN[part] {
        Part::Around => "around-necklace",
        Part::Along => "along-necklace",
        _ if part <= 2 => "to-random-necklace",
        _ => "to-destination-necklace",
    }
}

/// The shuffle-exchange's labels and associations counted, exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Census {
    /// t, the least longest run of a good label.
    pub t: u32,
    /// Good labels.
    pub good: u32,
    /// Bad labels of types 1, 2 and 3.
    pub bad: [u32; 3],
    /// Good necklaces.
    pub good_necklaces: u32,
    /// The most bad labels associated with one good label.
    pub most_per_node: u32,
    /// The most bad labels associated with one good necklace.
    pub most_per_necklace: u32,
}

/// Counts the labels of `shuffle-exchange:dim` and where the bad ones go.
pub fn census(dim: u32) -> Census {
    let g = ShuffleExchange::new(dim).expect("a valid dimension");
    let labels = Labels::new(&g);
    let mut per_node = vec![0u32; g.nodes() as usize];
    let mut bad = [0u32; 3];
    for x in 0..g.nodes() {
        let k = labels.kind(x);
        if k != GOOD {
            bad[k as usize - 1] += 1;
            per_node[labels.associate(x) as usize] += 1;
        }
    }
    let mut per_necklace = vec![0u32; g.nodes() as usize];
    for x in 0..g.nodes() {
        if labels.good(x) {
            per_necklace[labels.rep(x) as usize] += per_node[x as usize];
        }
    }
    Census {
        t: labels.t,
        good: g.nodes() - bad.iter().sum::<u32>(),
        bad,
        good_necklaces: labels.good_reps.len() as u32,
        most_per_node: per_node.into_iter().max().unwrap_or(0),
        most_per_necklace: per_necklace.into_iter().max().unwrap_or(0),
    }
}

/// Refuses a shuffle-exchange above [`MAX_DIM`] (the registry's
/// `size_check`: with the request, before the workload is generated).
pub fn check_size(topology: &Topology) -> Result<()> {
    match topology {
        Topology::ShuffleExchange(g) => check_dim(g.dim()),
        _ => Ok(()),
    }
}

/// Refuses a dimension above [`MAX_DIM`].
fn check_dim(dim: u32) -> Result<()> {
    if dim > MAX_DIM {
        return Err(Error::TooLarge {
            field: format!("lmrr on shuffle-exchange:{dim}: D"),
            value: dim as u64,
            limit: MAX_DIM as u64,
        });
    }
    Ok(())
}

/// The nodes, at most, of one packet's paths over the three phases.
pub fn path_bound(dim: u32) -> u64 {
    16 * dim as u64 + 4
}

/// Checks `lmrr`'s options and the size for the shuffle-exchange `g`, and
/// plans the packets `(engine id, source, destination)`.
pub(super) fn start(g: &ShuffleExchange, lmrr: &Lmrr, packets: &[(u32, u32, u32)], rng: &mut Rng) -> Result<Plan> {
    if lmrr.paths == PathChoice::Valiant {
        return Err(Error::invalid(
            "paths",
            PathChoice::Valiant.name(),
            "on the shuffle-exchange every path already goes through a random good necklace (§5.3); valiant is \
             for the butterfly and the hypercube",
        ));
    }
    if lmrr.combine {
        return Err(Error::invalid(
            "combine",
            "true",
            "packet combining is for the mesh, the butterfly and the hypercube; on the shuffle-exchange a packet \
             takes part in several rounds",
        ));
    }
    if g.dim() < 2 {
        // shuffle-exchange:1 has no shuffle link and no good necklace to route through.
        return Err(Error::unsupported(
            NAME,
            format!(
                "§5 routes through good necklaces of at least two bits; shuffle-exchange:{} has none (D ≥ 2)",
                g.dim()
            ),
        ));
    }
    check_dim(g.dim())?;
    let nodes = packets.len() as u64 * path_bound(g.dim());
    if nodes > MAX_PATH_NODES {
        return Err(Error::TooLarge {
            field: format!(
                "lmrr on shuffle-exchange:{}: total path length of the {} packets (nodes)",
                g.dim(),
                packets.len()
            ),
            value: nodes,
            limit: MAX_PATH_NODES,
        });
    }
    // As on the other networks (`Lmrr::start`), the paths' bytes are tried
    // in one block before they are built, so that a machine without them
    // gives a message, not an abort: about 16 bytes per node of the bound
    // (the leveled networks' maps included; whole process, random
    // permutations: 281 MB at D = 16, 1.2 GB at D = 18).
    let topology = format!("shuffle-exchange:{}", g.dim());
    crate::error::try_headroom(nodes.saturating_mul(16), "lmrr's paths", &topology)?;
    Plan::new(g, packets, rng).map_err(|e| Error::unsupported(NAME, e))
}

/// The phases of one run: their networks and each round's packets.
pub(super) struct Plan {
    nets: Vec<Box<dyn Description>>,
    /// (network, packets as (engine id, logical path), stages).
    rounds: Vec<RoundPlan>,
    /// The fraction of labels that are good.
    pub good_fraction: f64,
}

/// A packet's hosts in phase 1 or 3 with the level it starts on.
type Hops = (u32, Vec<u32>);

/// A round: its network (index), packets (engine id, logical path) and stages.
type RoundPlan = (usize, Vec<(u32, Vec<u32>)>, Vec<(&'static str, u32)>);

/// Something of one packet, by engine id.
type Of<T> = Vec<(u32, T)>;

impl Plan {
    /// Plans the packets `(engine id, source, destination)` on `g`, drawing
    /// one random good necklace per packet in order.
    pub(super) fn new(
        g: &ShuffleExchange,
        packets: &[(u32, u32, u32)],
        rng: &mut Rng,
    ) -> std::result::Result<Plan, String> {
        let topo = Topology::ShuffleExchange(g.clone());
        let labels = Arc::new(Labels::new(g));
        let dim = g.dim();
        // The phase-3 paths run the phase-1 paths backwards, from level K down.
        let top = 3 * dim;
        let (mut first, mut last): (Of<Hops>, Of<Hops>) = (Vec::new(), Vec::new());
        let mut chains: Of<Vec<(usize, u32, u32)>> = Vec::new();
        let mut scratch = Vec::new();
        for &(id, src, dest) in packets {
            let via = draw(&labels, rng);
            let mut s = src;
            if !labels.good(src) {
                let (start, mut hosts) = labels.bad_path(src);
                let delivered = cut(&mut hosts, |&h| h == dest);
                s = *hosts.last().expect("a path has a host");
                first.push((id, (start, hosts)));
                if delivered {
                    continue;
                }
            }
            let d = if labels.good(dest) {
                dest
            } else {
                labels.associate(dest)
            };
            if s != d {
                scratch.clear();
                let legs = route(&labels, labels.rep(s), labels.rep(d), via, rng);
                chain::path(&labels, s, d, legs, &mut scratch);
                let delivered = cut(&mut scratch, |&(_, _, h)| h == dest);
                chains.push((id, scratch.clone()));
                if delivered {
                    continue;
                }
            }
            if !labels.good(dest) {
                let (start, mut hosts) = labels.bad_path(dest);
                let end = start + hosts.len() as u32 - 1;
                hosts.reverse();
                cut(&mut hosts, |&h| h == dest);
                last.push((id, (top - end, hosts)));
            }
        }
        let mut nets: Vec<Box<dyn Description>> = Vec::new();
        let mut rounds = Vec::new();
        let hop_round = |list: Of<Hops>, stage: &'static str, nets: &mut Vec<Box<dyn Description>>| {
            let (ids, paths): (Vec<u32>, Vec<Hops>) = list.into_iter().filter(|(_, p)| p.1.len() > 1).unzip();
            if ids.is_empty() {
                return Ok::<_, String>(None);
            }
            let (net, node_paths) = HopLeveled::build(&topo, &paths)?;
            nets.push(Box::new(net));
            let packets = ids.into_iter().zip(node_paths).collect();
            Ok(Some((nets.len() - 1, packets, vec![(stage, u32::MAX)])))
        };
        rounds.extend(hop_round(first, "bad-to-good", &mut nets)?);
        for &(a, b) in SPLIT {
            let range = a..b;
            let net = Chain::new(Arc::clone(&labels), range.clone());
            let mut packets = Vec::new();
            for (id, entries) in &chains {
                // This round's part of the path: its parts' nodes and the
                // next part's first node (the end of this round).
                let mut nodes = Vec::new();
                for &(k, kind, h) in entries {
                    if range.contains(&k) {
                        nodes.push(net.id(k, kind, h));
                    } else if k == range.end {
                        nodes.push(net.id(k, NODE, h));
                        break;
                    }
                }
                if nodes.len() > 1 {
                    packets.push((*id, nodes));
                }
            }
            if packets.is_empty() {
                continue;
            }
            let mut stages: Vec<(&'static str, u32)> = Vec::new();
            for k in range.clone() {
                let bound = chain::offset(dim, k + 1);
                match stages.last_mut() {
                    Some(s) if s.0 == stage_of(k) => s.1 = bound,
                    _ => stages.push((stage_of(k), bound)),
                }
            }
            stages.last_mut().expect("a round has a part").1 = u32::MAX;
            nets.push(Box::new(net));
            rounds.push((nets.len() - 1, packets, stages));
        }
        rounds.extend(hop_round(last, "good-to-bad", &mut nets)?);
        let good = labels.good_reps.len() as f64 * dim as f64;
        Ok(Plan {
            nets,
            rounds,
            good_fraction: good / g.nodes() as f64,
        })
    }

    /// The rounds, in order, for the scheduler (the packets move out).
    pub(super) fn rounds(&mut self) -> Vec<Round<'_>> {
        let Plan { nets, rounds, .. } = self;
        rounds
            .iter_mut()
            .map(|(net, packets, stages)| Round {
                desc: nets[*net].as_ref(),
                packets: std::mem::take(packets),
                stages: stages.clone(),
            })
            .collect()
    }
}

/// How many intermediate necklaces a packet draws, at most, before it
/// takes the merged legs.
pub const DRAWS: u32 = 32;

/// A uniformly random good necklace (its representative).
fn draw(labels: &Labels, rng: &mut Rng) -> u32 {
    labels.good_reps[rng.below(labels.good_reps.len() as u32) as usize]
}

/// A leg from frame `from` to frame `to` that stays on good labels, if
/// one of the paper's two does: correcting on the way up (top = to) when
/// `to`'s longest run is at least as long as `from`'s, else on the way down
/// (top = from); the other one if the first passes a bad label.
pub fn leg(labels: &Labels, from: u32, to: u32) -> Option<Leg> {
    let tops = if labels.block(to) >= labels.block(from) {
        [to, from]
    } else {
        [from, to]
    };
    tops.into_iter()
        .find(|&top| labels.corrects(from, top) && labels.corrects(to, top))
        .map(|top| Leg { from, top, to })
}

/// The two legs from frame `x` to frame `y` through a random good
/// necklace: `first` and then up to [`DRAWS`] − 1 more draws until both
/// legs stay on good labels; if none does, the last necklace drawn with
/// merged tops ([`Labels::merge`], always good, but concentrated).
fn route(labels: &Labels, x: u32, y: u32, first: u32, rng: &mut Rng) -> [Leg; 2] {
    let mut via = first;
    for k in 0..DRAWS {
        if k > 0 {
            via = draw(labels, rng);
        }
        if let (Some(a), Some(b)) = (leg(labels, x, via), leg(labels, via, y)) {
            return [a, b];
        }
    }
    let merged = |from, to| Leg {
        from,
        top: labels.merge(from, to),
        to,
    };
    [merged(x, via), merged(via, y)]
}

/// Cuts `path` after its first element that `at` accepts; whether it did.
fn cut<T>(path: &mut Vec<T>, at: impl Fn(&T) -> bool) -> bool {
    match path.iter().position(at) {
        Some(k) => {
            path.truncate(k + 1);
            true
        }
        None => false,
    }
}
