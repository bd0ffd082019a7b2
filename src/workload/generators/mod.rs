//! The generators behind [`super::generate`] (SPEC §5).
//!
//! Conventions shared by every generator:
//! - Randomness comes only from [`Rng`] on the `Workload` stream of
//!   `spec.seed` (`below`, `shuffle`, `sample`), so a seed gives the same
//!   instance natively and in the browser. No hash-map iteration order is
//!   ever observed.
//! - Sizes use integer arithmetic only (`ilog2`, `isqrt`, checked products);
//!   the packet count is checked against [`Limits::NATIVE`] before anything
//!   large is allocated.
//! - On a butterfly (SPEC §2) sources are the level-0 nodes and destinations
//!   the level-D nodes: a generator works on row indices `0..2^D` and
//!   [`Ends`] maps them to node ids. Elsewhere sources and destinations are
//!   all nodes and the index is the node id.
//! - Packets are listed source-major (all packets of node 0, then node 1, …),
//!   since packet ids break ties.
//! - Bad user input gives an [`Error::Invalid`] naming the field and value;
//!   nothing here panics on user input.

use super::{Instance, Limits, Workload, WorkloadSpec};

mod spatial;

use crate::error::{try_collect, Error, Result};
use crate::rng::{Rng, Stream};
use crate::topology::{Butterfly, Grid, Kind, Network, Topology};
use spatial::{greedy_worst, hotspot, local_kk, locality};

/// `locality`: L when the spec does not give one.
pub(super) const DEFAULT_LOCALITY: u32 = 2;
/// `hotspot`: the percentage of nodes that send to the hot node when the spec does not say.
pub(crate) const DEFAULT_HOT_PERCENT: u32 = 10;

/// Upper bound on the membership comparisons spent mixing a `random-lk`
/// instance (keeps huge ℓ, k fast; mixing is then shorter but still random).
const MIX_WORK: u64 = 1 << 26;
/// Upper bound on the edge examinations of the `locality` breadth-first searches.
const BFS_WORK: u64 = 1 << 28;

pub(super) fn describe(w: Workload) -> &'static str {
    match w {
        Workload::RandomPermutation => "a uniformly random permutation (butterfly: level-0 row r to level-D row pi(r))",
        Workload::Transpose => {
            "(r,c) -> (c,r) on square 2-D meshes/tori; hypercube and shuffle-exchange labels and butterfly rows rotate left by floor(D/2)"
        }
        Workload::BitReversal => "reverse the bits of the node id (node count a power of two; hypercube and shuffle-exchange label; butterfly rows)",
        Workload::BitComplement => "complement the bits of the node id (node count a power of two; hypercube and shuffle-exchange label; butterfly rows)",
        Workload::Shuffle => "perfect shuffle: rotate the id's bits left by one (node count a power of two; hypercube; shuffle-exchange; butterfly rows)",
        Workload::Tornado => "grids: every coordinate c -> (c + ceil(side/2) - 1) mod side",
        Workload::LargeShift => "k-LS: k packets from every node to c + floor(side/2) mod side in every coordinate (hypercube: complement)",
        Workload::PointReflection => "k-PR: k packets from every node to side-1-c in every coordinate (hypercube: complement)",
        Workload::RandomKk => "k-permutation: k independent uniformly random permutations; every node sends and receives exactly k",
        Workload::RandomLk => {
            "l<=k: every node sends l packets to distinct nodes; a random set of floor(Nl/k) nodes gets exactly k each, \
             the remainder (<k) one more random node; mirrored for l>k"
        }
        Workload::WorstLk => {
            "2-D meshes, l<=k: the top-left s x s square (s^2(k+l) <= Nl, s largest) gets k packets per node from \
             distinct outside sources (<= l each): >= k*s/2 steps; mirrored for l>k"
        }
        Workload::Locality => "every node sends l packets (default 1), each to a uniformly random node at distance 1..=L (default L=2)",
        Workload::LocalKk => {
            "grids: k-k routing with locality L (default 2): k layers, each a random permutation within blocks of \
             (L+1)^d nodes at a random offset (blocks wrap on a torus, are cut at a mesh's border); every node \
             sends and receives exactly k, every packet moves at most L along each axis (ring distance on a torus)"
        }
        Workload::RandomDestinations => {
            "every node sends k packets (default 1), each to an independent uniformly random node, itself included \
             (delivered at step 0); no receive limit (butterfly: level-0 row to a random level-D row)"
        }
        Workload::SortRandom => "sorting: distinct random keys, one per node (butterfly: one per level-0 row)",
        Workload::SortReversed => "sorting: the keys in reverse order, one per node (butterfly: one per level-0 row)",
        Workload::SortFew => "sorting: keys from 4 values, one per node (ties by packet id; butterfly: one per level-0 row)",
        Workload::SortSorted => "sorting: the keys already in order, one per node (butterfly: one per level-0 row)",
        Workload::GreedyWorst => {
            "2-D meshes with >= 5 rows and >= 3 columns: with t = min(floor((R-2)/3), floor((C-1)/2)) and \
             c = floor((C-1)/2), 2t packets of row 1 and t of row 0 swap places with rows 2..3t+1 of column c, \
             the rest stay: greedy XY queues 2t+1 packets at (1, c)"
        }
        Workload::Hotspot => {
            "one packet per node along a random permutation, except that a random p% of the nodes (default 10; rounded \
             down, but at least one when p > 0; never the hot node itself) send to one random hot node"
        }
    }
}

pub(super) fn generate(topo: &Topology, spec: &WorkloadSpec) -> Result<Instance> {
    for (field, value) in [("l", spec.l), ("k", spec.k)] {
        if value == Some(0) {
            return Err(Error::invalid(field, 0, "must be at least 1"));
        }
    }
    let w = spec.workload;
    if w.is_sort() {
        return sort_instance(topo, w, spec.seed);
    }
    let l = spec.l.unwrap_or(1);
    let k = spec.k.unwrap_or(1);
    let ends = Ends::of(topo);
    let mut rng = Rng::new(spec.seed, Stream::Workload);
    let mut declared = None;
    let packets: Vec<(u32, u32)> = match w {
        Workload::RandomPermutation => {
            // Fallibly allocated: a failure is a message, not an abort.
            let count = ends.count();
            let mut perm = try_collect(count as usize, 0..count, "the workload's permutation", topo)?;
            rng.shuffle(&mut perm);
            let pairs = (0..count).map(|i| (ends.src(i), ends.dst(perm[i as usize])));
            try_collect(count as usize, pairs, "the workload's packets", topo)?
        }
        Workload::Transpose => match topo {
            Topology::Grid(g) => {
                let (r, c) = topo.mesh2d().filter(|(r, c)| r == c).ok_or_else(|| {
                    refuse(
                        w,
                        topo,
                        "needs a square 2-D mesh or torus, a hypercube, a shuffle-exchange graph or a butterfly",
                    )
                })?;
                debug_assert_eq!(r, c);
                (0..g.nodes()).map(|v| (v, (v % c) * r + v / c)).collect()
            }
            _ => {
                let bits = label_bits(topo, w)?;
                ends.permutation(|x| rotate_left(x, bits / 2, bits))
            }
        },
        Workload::BitReversal => {
            let bits = label_bits(topo, w)?;
            ends.permutation(|x| reverse_bits(x, bits))
        }
        Workload::BitComplement => {
            let bits = label_bits(topo, w)?;
            ends.permutation(|x| complement(x, bits))
        }
        Workload::Shuffle => {
            let bits = label_bits(topo, w)?;
            ends.permutation(|x| rotate_left(x, 1, bits))
        }
        Workload::Tornado => match topo {
            Topology::Grid(g) => coordinate_map(g, |c, side| (c + side.div_ceil(2) - 1) % side),
            Topology::Hypercube(_) => {
                return Err(refuse(
                    w,
                    topo,
                    "needs a linear array, ring, mesh or torus (on a hypercube, side 2, it is the identity)",
                ))
            }
            Topology::Butterfly(_) | Topology::ShuffleExchange(_) => {
                return Err(refuse(w, topo, "needs a linear array, ring, mesh or torus"))
            }
        },
        Workload::LargeShift | Workload::PointReflection => {
            check_count(w, ends.count() as u64 * k as u64)?;
            let once = match topo {
                Topology::Grid(g) if w == Workload::LargeShift => coordinate_map(g, |c, side| (c + side / 2) % side),
                Topology::Grid(g) => coordinate_map(g, |c, side| side - 1 - c),
                // A hypercube is the D-dimensional grid of side 2: both maps flip every coordinate.
                Topology::Hypercube(h) => ends.permutation(|x| complement(x, h.dim())),
                Topology::Butterfly(_) | Topology::ShuffleExchange(_) => {
                    return Err(refuse(
                        w,
                        topo,
                        "needs a grid (linear, ring, mesh, torus) or a hypercube",
                    ))
                }
            };
            declared = Some((k, k));
            once.into_iter()
                .flat_map(|p| std::iter::repeat_n(p, k as usize))
                .collect()
        }
        Workload::RandomKk => {
            let n = ends.count();
            check_count(w, n as u64 * k as u64)?;
            let mut perms: Vec<Vec<u32>> = Vec::with_capacity(k as usize);
            for _ in 0..k {
                let mut p: Vec<u32> = (0..n).collect();
                rng.shuffle(&mut p);
                perms.push(p);
            }
            declared = Some((k, k));
            (0..n)
                .flat_map(|i| perms.iter().map(move |p| (i, p[i as usize])))
                .map(|(i, j)| (ends.src(i), ends.dst(j)))
                .collect()
        }
        Workload::RandomLk => {
            let pairs = random_lk(topo, ends.count(), l, k, &mut rng)?;
            declared = Some((l, k));
            pairs.into_iter().map(|(i, j)| (ends.src(i), ends.dst(j))).collect()
        }
        Workload::WorstLk => {
            let pairs = worst_lk(topo, l, k, &mut rng)?;
            declared = Some((l, k));
            pairs
        }
        Workload::Locality => locality(topo, ends, l, spec.locality.unwrap_or(DEFAULT_LOCALITY), &mut rng)?,
        Workload::LocalKk => {
            declared = Some((k, k));
            local_kk(topo, k, spec.locality.unwrap_or(DEFAULT_LOCALITY), &mut rng)?
        }
        Workload::Hotspot => hotspot(ends, spec.hotspot.unwrap_or(DEFAULT_HOT_PERCENT), &mut rng)?,
        Workload::RandomDestinations => {
            let n = ends.count();
            check_count(w, n as u64 * k as u64)?;
            (0..n)
                .flat_map(|i| std::iter::repeat_n(i, k as usize))
                .map(|i| (ends.src(i), ends.dst(rng.below(n))))
                .collect()
        }
        Workload::GreedyWorst => greedy_worst(topo)?,
        Workload::SortRandom | Workload::SortReversed | Workload::SortFew | Workload::SortSorted => {
            unreachable!("sorts are generated by sort_instance")
        }
    };
    let mut inst = Instance::new(topo.clone(), packets)?;
    inst.name = Some(w.name().to_string());
    if let Some((l, k)) = declared {
        inst.l = Some(l);
        inst.k = Some(k);
    }
    Ok(inst)
}

/// The distinct values of `sort-few`'s keys.
pub const FEW_VALUES: u32 = 4;

/// A sorting instance (SPEC §5): node i of the order holds packet i with
/// its key; the packet's destination is the node of its key's rank.
fn sort_instance(topo: &Topology, w: Workload, seed: u64) -> Result<Instance> {
    let n = super::sort::key_count(topo);
    let mut rng = Rng::new(seed, Stream::Workload);
    let keys: Vec<u64> = match w {
        Workload::SortRandom => {
            let mut perm: Vec<u64> = (0..n as u64).collect();
            rng.shuffle(&mut perm);
            perm
        }
        Workload::SortReversed => (0..n as u64).rev().collect(),
        Workload::SortFew => (0..n).map(|_| rng.below(FEW_VALUES) as u64).collect(),
        _ => (0..n as u64).collect(),
    };
    let dest = super::sort::rank_destinations(&keys);
    let packets = (0..n).map(|i| (i, dest[i as usize])).collect();
    let mut inst = Instance::new(topo.clone(), packets)?;
    inst.name = Some(w.name().to_string());
    inst.keys = Some(keys);
    Ok(inst)
}

/// A refusal naming the workload and the topology.
fn refuse(w: Workload, topo: &Topology, why: &str) -> Error {
    Error::invalid("workload", w, format!("{why}; got {topo}"))
}

/// Refuses instances with more packets than the native limit, before allocating them.
fn check_count(w: Workload, count: u64) -> Result<()> {
    let limit = Limits::NATIVE.max_packets;
    if count > limit {
        return Err(Error::TooLarge {
            field: format!("{w} packets"),
            value: count,
            limit,
        });
    }
    Ok(())
}

/// Sources and destinations of a workload (see the module notes).
#[derive(Debug, Clone, Copy)]
enum Ends<'a> {
    /// Every node is a source and a destination; index = node id.
    All(u32),
    /// Level-0 rows send, level-D rows receive; index = row.
    Butterfly(&'a Butterfly),
}

impl<'a> Ends<'a> {
    fn of(topo: &'a Topology) -> Self {
        match topo {
            Topology::Butterfly(b) => Ends::Butterfly(b),
            _ => Ends::All(topo.nodes()),
        }
    }

    /// Number of source (and of destination) indices.
    fn count(self) -> u32 {
        match self {
            Ends::All(n) => n,
            Ends::Butterfly(b) => b.rows(),
        }
    }

    fn src(self, i: u32) -> u32 {
        match self {
            Ends::All(_) => i,
            Ends::Butterfly(b) => b.node_at(0, i),
        }
    }

    fn dst(self, j: u32) -> u32 {
        match self {
            Ends::All(_) => j,
            Ends::Butterfly(b) => b.node_at(b.dim(), j),
        }
    }

    /// One packet from every source index `i` to destination index `f(i)`.
    fn permutation(self, f: impl Fn(u32) -> u32) -> Vec<(u32, u32)> {
        (0..self.count()).map(|i| (self.src(i), self.dst(f(i)))).collect()
    }
}

/// The number of bits of the labels a bit workload permutes: D on a
/// hypercube or butterfly (rows), log2 N on a grid whose node count is a
/// power of two. Refuses other grids.
fn label_bits(topo: &Topology, w: Workload) -> Result<u32> {
    match topo {
        Topology::Hypercube(h) => Ok(h.dim()),
        Topology::Butterfly(b) => Ok(b.dim()),
        Topology::ShuffleExchange(g) => Ok(g.dim()),
        Topology::Grid(g) => {
            let n = g.nodes();
            if n.is_power_of_two() {
                Ok(n.ilog2())
            } else {
                let why =
                    format!("permutes the bits of node ids, so the node count must be a power of two ({n} is not)");
                Err(refuse(w, topo, &why))
            }
        }
    }
}

/// `x` (a `bits`-bit label) rotated left by `r`.
fn rotate_left(x: u32, r: u32, bits: u32) -> u32 {
    if bits == 0 {
        return x;
    }
    let r = r % bits;
    let mask = (1u64 << bits) - 1;
    let x = x as u64;
    (((x << r) | (x >> (bits - r))) & mask) as u32
}

/// `x` (a `bits`-bit label) with its bits in reverse order.
fn reverse_bits(x: u32, bits: u32) -> u32 {
    if bits == 0 {
        0
    } else {
        x.reverse_bits() >> (32 - bits)
    }
}

/// `x` (a `bits`-bit label) with every bit flipped.
fn complement(x: u32, bits: u32) -> u32 {
    x ^ ((1u64 << bits) - 1) as u32
}

/// One packet from every grid node to the node whose coordinate in every
/// dimension is `f(coordinate, side)` (which must be `< side`).
fn coordinate_map(g: &Grid, f: impl Fn(u32, u32) -> u32) -> Vec<(u32, u32)> {
    let sides = g.dims();
    (0..g.nodes())
        .map(|v| {
            let to = (0..sides.len()).map(|d| f(g.coord(v, d), sides[d]) * g.stride(d)).sum();
            (v, to)
        })
        .collect()
}

/// `random-lk` on `n` source and `n` destination indices (SPEC §5).
///
/// ℓ ≤ k: every source sends exactly ℓ packets to distinct destinations; a
/// uniformly random set of m = ⌊nℓ/k⌋ destinations receives exactly k each.
/// **Remainder rule:** when k does not divide nℓ, the r = nℓ − mk < k
/// packets left over go to one more uniformly random node (which receives
/// r < k, from distinct sources). So every node sends exactly ℓ, exactly m
/// nodes receive exactly k, and no node receives more than k. (When r > 0,
/// m < n, so the extra node exists.)
///
/// ℓ > k is the mirror image: every node receives exactly k from distinct
/// sources; a random set of ⌊nk/ℓ⌋ sources sends exactly ℓ each, and one more
/// random source sends the remainder (< ℓ).
///
/// Construction (ℓ ≤ k): list the destination slots — every chosen node k
/// times in a row, then the extra node r times — and deal slot j to source
/// j mod n. A node's slots are consecutive and at most k ≤ n of them, so its
/// sources are distinct; a source's slots are n ≥ k apart, so they fall in
/// different blocks and its destinations are distinct. Source labels and the
/// destination set are uniformly random permutations, and then random
/// switches (swap the destinations of two packets when both sources stay
/// distinct-destination) mix the bipartite pattern; switches keep every
/// degree, so the counts above are exact.
fn random_lk(topo: &Topology, n: u32, l: u32, k: u32, rng: &mut Rng) -> Result<Vec<(u32, u32)>> {
    // A receiver's packets come from distinct sources (mirrored: a sender's
    // go to distinct destinations), so k ≤ n, except where no node receives
    // all k: ℓ = 1 and k > n sends all n packets to one node (the workloads
    // audit of 2026-12-01: refused, "only 1 sources"). So min(k, nℓ) ≤ n.
    // `most` per concentrated node, `each` per node of the other side.
    let beyond = |most: u32, each: u32| u64::from(most).min(u64::from(n) * u64::from(each)) > u64::from(n);
    // A butterfly's ends are its 2^D rows (level 0 to level D).
    let nodes = if matches!(topo, Topology::Butterfly(_)) {
        "rows"
    } else {
        "nodes"
    };
    if l <= k {
        if beyond(k, l) {
            let why = format!(
                "with l={l}, each receiving node gets k packets from distinct sources, but {topo} has only {n} {nodes} (k above that takes l=1: every packet to one node)"
            );
            return Err(Error::invalid("k", k, why));
        }
        check_count(Workload::RandomLk, n as u64 * l as u64)?;
        Ok(lk_simple_bipartite(n, l, k, rng))
    } else {
        if beyond(l, k) {
            let why = format!(
                "with k={k}, each sending node sends l packets to distinct destinations, but {topo} has only {n} {nodes} (l above that takes k=1: every packet from one node)"
            );
            return Err(Error::invalid("l", l, why));
        }
        check_count(Workload::RandomLk, n as u64 * k as u64)?;
        let mut pairs: Vec<(u32, u32)> = lk_simple_bipartite(n, k, l, rng)
            .into_iter()
            .map(|(a, b)| (b, a))
            .collect();
        pairs.sort_by_key(|&(s, _)| s); // stable: keeps the random order within a source
        Ok(pairs)
    }
}

/// The ℓ ≤ k core of [`random_lk`]; requires 1 ≤ ℓ ≤ k, min(k, nℓ) ≤ n and
/// nℓ within the packet limit. Returns source-major pairs of indices.
fn lk_simple_bipartite(n: u32, l: u32, k: u32, rng: &mut Rng) -> Vec<(u32, u32)> {
    let total = n as u64 * l as u64; // ≤ the packet limit, so fits u32
    let full = (total / k as u64) as u32; // m: nodes that receive exactly k
    let rest = (total - full as u64 * k as u64) as u32; // r < k
    let mut dest_order: Vec<u32> = (0..n).collect();
    rng.shuffle(&mut dest_order);
    let mut src_label: Vec<u32> = (0..n).collect();
    rng.shuffle(&mut src_label);
    let slot_dest = |j: u64| -> u32 {
        let block = (j / k as u64) as u32;
        debug_assert!(block < full || (block == full && rest > 0));
        dest_order[block as usize]
    };
    // dst[s*l .. (s+1)*l] are the destinations of source s.
    let (lu, nu) = (l as usize, n as u64);
    let mut dst = vec![0u32; total as usize];
    for i in 0..n {
        let s = src_label[i as usize] as usize;
        for t in 0..l {
            dst[s * lu + t as usize] = slot_dest(i as u64 + t as u64 * nu);
        }
    }
    let attempts = (2 * total).min(MIX_WORK / l as u64);
    let total32 = total as u32;
    for _ in 0..attempts {
        let (a, b) = (rng.below(total32) as usize, rng.below(total32) as usize);
        let (s1, s2) = (a / lu, b / lu);
        let (d1, d2) = (dst[a], dst[b]);
        if s1 == s2 || d1 == d2 {
            continue;
        }
        if dst[s1 * lu..(s1 + 1) * lu].contains(&d2) || dst[s2 * lu..(s2 + 1) * lu].contains(&d1) {
            continue;
        }
        dst.swap(a, b);
    }
    dst.iter().enumerate().map(|(p, &d)| ((p / lu) as u32, d)).collect()
}

/// The corner square of `worst-lk`: the largest s with s²·(k+ℓ) ≤ N·min(ℓ,k)
/// (integer arithmetic), i.e. |D| = s² ≤ N·min(ℓ,k)/(k+ℓ).
pub(super) fn worst_lk_side(nodes: u32, l: u32, k: u32) -> u32 {
    let cap = nodes as u64 * l.min(k) as u64 / (l as u64 + k as u64);
    cap.isqrt() as u32
}

/// `worst-lk` (SPEC §5) on a square 2-D mesh of side `side`, N = side² nodes.
///
/// ℓ ≤ k: D is the top-left s×s square, s the largest integer with
/// s²(k+ℓ) ≤ Nℓ. Every node of D receives exactly k packets, from k distinct
/// sources outside D; the k·s² packets are dealt round-robin over the
/// M = N − s² outside nodes in random order, so every outside node sends
/// ⌊ks²/M⌋ or ⌈ks²/M⌉ ≤ ℓ packets (s²(k+ℓ) ≤ Nℓ ⟺ ks² ≤ Mℓ), to distinct
/// destinations (a source's slots are M ≥ k apart, D's blocks k long).
///
/// **Why every algorithm needs ≥ k·s/2 = k·√|D|/2 steps.** D is a corner
/// square with s < side (s² ≤ N/2), so exactly 2s directed links enter it:
/// s from column s into column s−1 and s from row s into row s−1. All k·s²
/// packets start outside D and end inside it, so each crosses one of these
/// links, and a link carries one packet per step: ≥ k·s²/(2s) = k·s/2 steps.
/// With s² ≈ Nℓ/(k+ℓ) ≥ Nℓ/(2k) this is ≈ √(ℓkN)/(2√2) or more. Exactly,
/// because s is rounded down, (s+1)² > Nℓ/(k+ℓ) ≥ Nℓ/(2k) gives
/// k·(s+1)/2 > √(ℓkN)/(2√2): the bound holds up to the one row lost to
/// rounding. The SPEC's k·√|D|/2 ≥ √(ℓkN)/(2√2) without that slack is tight
/// at ℓ = k and then fails at every size (s² ≤ N/2 is never an equality, as
/// √2 is irrational; mesh:8x8, ℓ = k = 1: s = 5, 2.5 < 2.83);
/// it holds when 2k·s² ≥ ℓN (tested).
///
/// ℓ > k mirrors this: the s×s corner (s²(k+ℓ) ≤ Nk) sends ℓ packets per
/// node to distinct outside destinations, each receiving ≤ k; ≥ ℓ·s/2 steps
/// over the 2s links leaving D.
///
/// On an R×C mesh (SPEC §5 asks only for "a corner square") the same, s
/// also at most min(R, C): a square as tall as the mesh has s links into
/// it (from column s), so ≥ k·s steps, more than the k·s/2 above.
fn worst_lk(topo: &Topology, l: u32, k: u32, rng: &mut Rng) -> Result<Vec<(u32, u32)>> {
    let (rows, side) = match (topo.kind(), topo.mesh2d()) {
        (Kind::Mesh, Some((r, c))) => (r, c),
        _ => {
            let why = "needs a 2-D mesh (mesh:RxC): its bound counts the links into a corner square";
            return Err(refuse(Workload::WorstLk, topo, why));
        }
    };
    let n = rows * side;
    let many = l.max(k); // packets per node of D
    let s = worst_lk_side(n, l, k).min(rows).min(side);
    let (field, value) = if l <= k { ("k", k) } else { ("l", l) };
    if s == 0 {
        let why =
            format!("worst-lk with l={l}, k={k} on {topo}: the corner square would be empty (needs N*min(l,k) >= k+l)");
        return Err(Error::invalid(field, value, why));
    }
    let outside_count = n - s * s;
    if many > outside_count {
        let why = format!("worst-lk on {topo}: each of the {} corner nodes needs {many} distinct partners outside it, but only {outside_count} exist", s * s);
        return Err(Error::invalid(field, value, why));
    }
    check_count(Workload::WorstLk, many as u64 * (s * s) as u64)?;
    let mut corner: Vec<u32> = (0..s).flat_map(|r| (0..s).map(move |c| r * side + c)).collect();
    let mut outside: Vec<u32> = (0..n).filter(|&v| v / side >= s || v % side >= s).collect();
    rng.shuffle(&mut corner);
    rng.shuffle(&mut outside);
    let m = outside.len();
    let mut pairs: Vec<(u32, u32)> = Vec::with_capacity(many as usize * corner.len());
    for (b, &inner) in corner.iter().enumerate() {
        for t in 0..many as usize {
            let far = outside[(b * many as usize + t) % m];
            pairs.push(if l <= k { (far, inner) } else { (inner, far) });
        }
    }
    pairs.sort_by_key(|&(src, _)| src);
    Ok(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_helpers_by_hand() {
        assert_eq!(rotate_left(0b0001, 2, 4), 0b0100);
        assert_eq!(rotate_left(0b1011, 2, 4), 0b1110);
        assert_eq!(rotate_left(0b10110, 1, 5), 0b01101);
        assert_eq!(rotate_left(5, 0, 0), 5);
        assert_eq!(reverse_bits(0b0011, 4), 0b1100);
        assert_eq!(reverse_bits(0b110, 3), 0b011);
        assert_eq!(reverse_bits(0, 0), 0);
        assert_eq!(complement(0b0101, 4), 0b1010);
        assert_eq!(complement(0, 0), 0);
    }

    #[test]
    fn worst_lk_side_is_the_largest_fitting_square() {
        // N = 64, l = k = 1: s^2 <= 32 -> 5.  N = 256, l = 1, k = 3: s^2 <= 64 -> 8.
        assert_eq!(worst_lk_side(64, 1, 1), 5);
        assert_eq!(worst_lk_side(256, 1, 3), 8);
        assert_eq!(worst_lk_side(256, 3, 1), 8);
        assert_eq!(worst_lk_side(1, 1, 1), 0);
        for n in 1..300u32 {
            for (l, k) in [(1, 1), (1, 5), (4, 9), (7, 2)] {
                let s = worst_lk_side(n, l, k) as u64;
                let cap = n as u64 * l.min(k) as u64;
                assert!(s * s * (l + k) as u64 <= cap && (s + 1) * (s + 1) * ((l + k) as u64) > cap);
            }
        }
    }
}
