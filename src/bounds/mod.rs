//! Instance lower bounds (SPEC §4): no algorithm in the SPEC §1 model can
//! route the instance in fewer steps than `best`, the largest of them.
//!
//! Every bound has the form "these packets must use these directed links, one
//! packet per link per step", so it is ⌈packets ÷ links⌉ for some set of
//! packets and links, maximised over a family of node sets S (a *cut*):
//! a packet with its source in S and its destination outside S crosses at
//! least one directed link from S to the rest, whatever its route. Taking
//! the maximum over any sub-family of cuts still gives a valid bound, which is
//! how the work limits below stay sound.
//!
//! Packets whose source is their destination are delivered at step 0 and are
//! ignored by every bound (they contribute distance 0).
//!
//! All counting is in integers; the packet count is assumed below 2^32 (the
//! instance limits allow 2^26), and link counts are products of sizes done in
//! `u64`.
//!
//! # Complexity
//! `distance`, `sink`: O(P + N). `bisection`: grids O(d·P + Σ side) for
//! meshes and O(P + G²) per torus dimension (G = min(side,
//! [`TORUS_CUT_BUCKETS`])); hypercube O(P·D); butterfly O(P·D). `region`:
//! see [`region_bound`].

use crate::topology::{Grid, Network, Topology};
use crate::workload::Instance;
use serde::Serialize;

mod bits;
mod progress;
mod region;
mod region_nd;

use bits::bit_flows;
pub use bits::shuffle_exchange_cut_links;
pub use progress::{names_apart, OwnBound, Progress, RunAt};
pub use region::{region_bound, Region};

/// On a torus or ring dimension, cut positions are restricted to
/// `TORUS_CUT_BUCKETS` evenly spread positions when the side is longer, so
/// that the pair-of-positions table (G² cells of `u32`, 16 MiB at 2048) stays
/// small. Sides up to this value get every pair of positions, exactly.
pub const TORUS_CUT_BUCKETS: usize = 2048;

/// Default budget (in packet updates plus corner cells) of the exact region
/// computation; sizes beyond it fall back to the estimate. See [`region_bound`].
pub const REGION_EXACT_WORK: u64 = 1 << 27;

/// Meshes with more prefix-table cells ((R+1)·(C+1)) than this skip the exact
/// region computation altogether (its corner grid and packet lists would
/// cost another 4 bytes per cell and 24 per packet); they get the estimate.
pub const REGION_MAX_EXACT_CELLS: u64 = 1 << 24;

/// Default budget (in corner cells) of all region evaluations, exact or
/// estimated; past it only an evenly spaced subset of square sizes is scanned.
pub const REGION_SCAN_WORK: u64 = 1 << 29;

/// For `skip_serializing_if`: a flag written only when false.
fn is_true(b: &bool) -> bool {
    *b
}

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
    /// 2-D meshes: over square submeshes, packets that must leave (enter) ÷ links leaving (entering); 0 elsewhere.
    pub region: u32,
    /// √(ℓ·k·N), a reference curve, not an instance bound.
    pub sqrt_lkn: f64,
    /// The largest instance bound: max(distance, bisection, sink, region).
    pub best: u32,
    /// Reference values to compare a run with (not instance bounds).
    pub reference: References,
}

/// Reference curves and sizes printed next to the bounds so a run can be
/// judged against the theory without recomputing them; none is an instance
/// lower bound.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct References {
    /// √(ℓ·k·N) for the instance's (ℓ, k) and N.
    pub sqrt_lkn: f64,
    /// The network's diameter.
    pub diameter: u32,
    /// k·side/2 on a square 2-D mesh, else null: the worst case of k-k
    /// routing (some k-k instance needs this many steps, the bisection
    /// argument), with k this instance's largest count per node — not a
    /// bound on this instance (a hotspot's k is large and its run short).
    pub k_side_over_2: Option<f64>,
    /// k·side/4 on a square 2-D torus, else null (the same, with wrap-around).
    pub k_side_over_4: Option<f64>,
    /// Whether `region` was computed exactly over every square (false when
    /// the work limits made it fall back to the estimate or to fewer sizes).
    pub region_exact: bool,
    /// Whether `bisection` tried every cut: false (and only then written)
    /// on a ring or torus with a side above [`TORUS_CUT_BUCKETS`], whose
    /// cut positions are that many evenly spread ones (the bounds audit of
    /// 2026-12-01: ring:2049 gave 25 where a cut between two of its
    /// positions gives 50, and nothing said so).
    #[serde(skip_serializing_if = "is_true")]
    pub bisection_exact: bool,
    /// Whether the network has a `region` bound at all (arrays without
    /// wrap-around; elsewhere `region` is 0 by definition, and the page's
    /// words leave it out).
    #[serde(skip)]
    pub region_defined: bool,
    /// Whether √(ℓkN) is the worst-case order of (ℓ,k)-routing here: a
    /// two-dimensional mesh or torus (Pietracaprina–Pucci); elsewhere only
    /// the reference figure the CLI prints beside every run.
    #[serde(skip)]
    pub sqrt_lkn_is_order: bool,
}

/// Work limits of [`compute_with`]; the defaults are what [`compute`] uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BoundsConfig {
    /// Budget of the exact region computation ([`REGION_EXACT_WORK`]).
    pub region_exact_work: u64,
    /// Budget of all region evaluations ([`REGION_SCAN_WORK`]).
    pub region_scan_work: u64,
}

impl Default for BoundsConfig {
    fn default() -> Self {
        BoundsConfig {
            region_exact_work: REGION_EXACT_WORK,
            region_scan_work: REGION_SCAN_WORK,
        }
    }
}

/// The most bytes computing the bounds of `packets` packets on `topo`
/// holds at once, at most (the memory estimate's, `crate::memory`): the
/// moving packets' copy (8 per packet); on a 2-D mesh the region bound's
/// corners and lists (56 per packet) and prefix tables (on 3 or more
/// dimensions 12 bytes a prefix cell); the sink bound's
/// counts (16 per node with the tables); a torus's cut table per dimension.
pub fn working_bytes(topo: &Topology, packets: u64) -> u64 {
    let nodes = topo.nodes() as u64;
    let mut bytes = packets.saturating_mul(8 + 56).saturating_add(nodes.saturating_mul(16));
    if let Topology::Grid(g) = topo {
        // A mesh of 1, 3 or more dimensions: the region bound's two prefix
        // tables and its corner table, 4 bytes a cell each (region_nd.rs).
        let cells = g.dims().iter().try_fold(1u64, |c, &v| c.checked_mul(v as u64 + 1));
        if g.dims().len() != 2 && !g.wraps() {
            if let Some(cells) = cells.filter(|&c| c <= REGION_MAX_EXACT_CELLS) {
                bytes = bytes.saturating_add(cells * 12);
            }
        }
        if g.wraps() {
            let side = g.dims().iter().copied().max().unwrap_or(1) as u64;
            let w = side.min(TORUS_CUT_BUCKETS as u64) + 1;
            bytes = bytes.saturating_add(w * w * 4);
        }
    }
    bytes
}

/// Computes the bounds of `instance` with the default work limits.
pub fn compute(instance: &Instance) -> Bounds {
    compute_with(instance, &BoundsConfig::default())
}

/// Computes the bounds of `instance` with the given work limits (tests use
/// tiny limits to exercise the fallbacks).
pub fn compute_with(instance: &Instance, config: &BoundsConfig) -> Bounds {
    let moving = moving_packets(instance);
    bounds_of(instance, &moving, &moving, config)
}

/// The bounds of `instance` for a run that combines packets (Leighton–Maggs–
/// Ranade–Rao §2.3.1, `lmrr --combine`): packets for one destination that
/// meet travel on as one message, so "one packet per link per step" no
/// longer bounds the packets crossing a cut. It still bounds packets that
/// can never be combined: `bisection`, `sink` and `region` count one packet
/// per destination (the farthest from its source; ties to the smaller id),
/// each of which needs a message of its own on every cut it crosses.
/// `distance` is every packet's: a combined packet still makes its whole way.
pub fn compute_combining(instance: &Instance) -> Bounds {
    let moving = moving_packets(instance);
    let topo = &instance.topology;
    let mut farthest: Vec<Option<(u32, u32)>> = vec![None; topo.nodes() as usize];
    for &(s, d) in &moving {
        let slot = &mut farthest[d as usize];
        if slot.is_none_or(|(t, _)| topo.distance(s, d) > topo.distance(t, d)) {
            *slot = Some((s, d));
        }
    }
    let distinct: Vec<(u32, u32)> = farthest.into_iter().flatten().collect();
    bounds_of(instance, &moving, &distinct, &BoundsConfig::default())
}

/// The bounds with `distance` over `moving` and the counting bounds over `counted`.
fn bounds_of(instance: &Instance, moving: &[(u32, u32)], counted: &[(u32, u32)], config: &BoundsConfig) -> Bounds {
    let topo = &instance.topology;
    let distance = distance_bound(topo, moving);
    let bisection = bisection_bound(topo, counted);
    let sink = sink_bound(topo, counted);
    let region = region_bound(topo, counted, config);
    let best = distance.max(bisection).max(sink).max(region.value);

    let (l, k) = instance.lk();
    let n = topo.nodes() as f64;
    let sqrt_lkn = (l as f64 * k as f64 * n).sqrt();
    let square = match topo {
        Topology::Grid(g) if g.dims().len() == 2 && g.dims()[0] == g.dims()[1] => Some((g.dims()[0] as f64, g.wraps())),
        _ => None,
    };
    let reference = References {
        sqrt_lkn,
        diameter: topo.diameter(),
        k_side_over_2: square.filter(|&(_, wrap)| !wrap).map(|(side, _)| k as f64 * side / 2.0),
        k_side_over_4: square.filter(|&(_, wrap)| wrap).map(|(side, _)| k as f64 * side / 4.0),
        region_exact: region.exact,
        bisection_exact: !matches!(topo, Topology::Grid(g) if g.wraps() && g.dims().iter().any(|&side| side as usize > TORUS_CUT_BUCKETS)),
        region_defined: matches!(topo, Topology::Grid(g) if !g.wraps()),
        sqrt_lkn_is_order: matches!(topo, Topology::Grid(g) if g.dims().len() == 2),
    };
    Bounds {
        distance,
        bisection,
        sink,
        region: region.value,
        sqrt_lkn,
        best,
        reference,
    }
}

impl Bounds {
    /// ", region R" where the network has a region bound, else nothing (a
    /// list of the bounds behind `best`, as the page words it).
    pub fn region_words(&self) -> String {
        match self.reference.region_defined {
            true => format!(", region {}", self.region),
            false => String::new(),
        }
    }
}

/// The packets that have to move (source ≠ destination).
fn moving_packets(instance: &Instance) -> Vec<(u32, u32)> {
    instance.packets.iter().copied().filter(|&(s, d)| s != d).collect()
}

/// ⌈a ÷ b⌉ for a positive number of links `b`.
pub(crate) fn ceil_div(a: u64, b: u64) -> u32 {
    debug_assert!(b > 0);
    u32::try_from(a.div_ceil(b)).unwrap_or(u32::MAX)
}

/// The largest source–destination distance: a packet moves one hop per step.
pub fn distance_bound(topo: &Topology, packets: &[(u32, u32)]) -> u32 {
    packets
        .iter()
        .fold(0, |most, &(s, d)| topo.distance_above(s, d, most).unwrap_or(most))
}

/// Max over nodes v of ⌈packets into v ÷ degree(v)⌉ and ⌈packets out of v ÷
/// degree(v)⌉: every packet for v arrives over one of v's incoming links,
/// every packet from v leaves over one of its outgoing links, and links are
/// full duplex, so in-degree = out-degree = degree. Self-packets are ignored.
pub fn sink_bound(topo: &Topology, packets: &[(u32, u32)]) -> u32 {
    let n = topo.nodes() as usize;
    let (mut into, mut out) = (vec![0u32; n], vec![0u32; n]);
    for &(s, d) in packets {
        if s != d {
            out[s as usize] += 1;
            into[d as usize] += 1;
        }
    }
    let mut best = 0;
    for v in 0..n {
        let most = into[v].max(out[v]);
        if most > 0 {
            // A node with a packet to move has a link (else distance is infinite).
            let degree = topo.degree(v as u32).max(1);
            best = best.max(ceil_div(most as u64, degree as u64));
        }
    }
    best
}

/// The largest cut bound over the topology's axis-aligned cuts, both
/// directions:
///
/// - **Mesh / linear dimension i** (side s, cross-section M = N/s): the cut
///   between coordinates p and p+1 for every p; the packets with source
///   coordinate ≤ p < destination coordinate must cross it over the M links
///   pointing up, and symmetrically downwards. (A slab between two cuts is
///   never better: its leavers split into those crossing each side.)
/// - **Torus / ring dimension i**: a cut is *two* positions splitting every
///   ring of dimension i into arcs A and B; the packets with source
///   coordinate in A and destination coordinate in B must use the 2·M links
///   from A to B (one at each position per ring), whichever way round they
///   go. Every pair of positions is tried via a G×G histogram of (source
///   coordinate, destination coordinate) with 2-D prefix sums; for sides
///   above [`TORUS_CUT_BUCKETS`] only pairs of G evenly spread positions are
///   tried (a sub-family, so still valid).
/// - **Hypercube bit j**: packets whose bit j goes 0→1 ÷ the 2^(D−1) links
///   from the 0-half to the 1-half, and 1→0.
/// - **Shuffle-exchange bit j** (its "axis-aligned" cuts): the labels with
///   bit j = 0 against those with bit j = 1; packets whose bit j goes 0→1 ÷
///   the directed links from the 0-side to the 1-side
///   ([`shuffle_exchange_cut_links`]), and 1→0 (the same number, by
///   complementing labels).
/// - **Butterfly**: (a) the cut between levels i and i+1 (the 2·2^D directed
///   links between those levels point each way): packets with source level ≤
///   i < destination level must go up across it, and the reverse down; (b)
///   the cut by row bit j: only the cross links of edge level D−1−j join the
///   two halves, 2^D directed links each way (2^(D−1) up and 2^(D−1) down),
///   crossed by every packet whose row bit j differs, in its direction.
pub fn bisection_bound(topo: &Topology, packets: &[(u32, u32)]) -> u32 {
    match topo {
        Topology::Grid(g) => (0..g.dims().len())
            .map(|dim| grid_dim_cut(g, dim, packets))
            .max()
            .unwrap_or(0),
        Topology::Hypercube(h) => {
            let (up, down) = bit_flows(h.dim(), packets);
            // Half the nodes send across each cut (none on hypercube:0, which has no cut).
            let links = 1u64 << h.dim().saturating_sub(1);
            up.iter().chain(&down).map(|&c| ceil_div(c, links)).max().unwrap_or(0)
        }
        Topology::ShuffleExchange(g) => {
            let (up, down) = bit_flows(g.dim(), packets);
            (0..g.dim())
                .map(|j| {
                    let links = shuffle_exchange_cut_links(g.dim(), j);
                    ceil_div(up[j as usize], links).max(ceil_div(down[j as usize], links))
                })
                .max()
                .unwrap_or(0)
        }
        Topology::Butterfly(b) => {
            let dim = b.dim() as usize;
            let rows = b.rows() as u64;
            // Level cuts: starts[l] / ends[l] count upward packets starting
            // (ending) at level l; cut i is crossed by those with start ≤ i < end.
            let mut up_start = vec![0u64; dim + 1];
            let mut up_end = vec![0u64; dim + 1];
            let mut down_start = vec![0u64; dim + 1];
            let mut down_end = vec![0u64; dim + 1];
            let (mut bit_up, mut bit_down) = (vec![0u64; dim], vec![0u64; dim]);
            for &(s, d) in packets {
                let ((ls, rs), (ld, rd)) = (b.split(s), b.split(d));
                if ls < ld {
                    up_start[ls as usize] += 1;
                    up_end[ld as usize] += 1;
                } else if ld < ls {
                    down_start[ld as usize] += 1;
                    down_end[ls as usize] += 1;
                }
                let mut diff = rs ^ rd;
                while diff != 0 {
                    let j = diff.trailing_zeros() as usize;
                    if (rd >> j) & 1 == 1 {
                        bit_up[j] += 1;
                    } else {
                        bit_down[j] += 1;
                    }
                    diff &= diff - 1;
                }
            }
            let mut most = 0u64;
            let (mut up, mut down) = (0u64, 0u64);
            for i in 0..dim {
                // Packets crossing cut i upward: started at ≤ i, end at > i.
                up = up + up_start[i] - up_end[i];
                down = down + down_start[i] - down_end[i];
                most = most.max(up).max(down);
            }
            let level_cut = ceil_div(most, 2 * rows);
            let bit_cut = bit_up
                .iter()
                .chain(&bit_down)
                .map(|&c| ceil_div(c, rows))
                .max()
                .unwrap_or(0);
            level_cut.max(bit_cut)
        }
    }
}

/// The cut bound of one grid dimension (see [`bisection_bound`]).
fn grid_dim_cut(g: &Grid, dim: usize, packets: &[(u32, u32)]) -> u32 {
    let side = g.dims()[dim] as usize;
    if side < 2 || packets.is_empty() {
        return 0;
    }
    let cross_section = g.nodes() as u64 / side as u64;
    if !g.wraps() {
        // starts[c]/ends[c]: packets moving up (down) this dimension whose
        // lower / upper coordinate is c; cut p is crossed by lower ≤ p < upper.
        let mut up_start = vec![0u64; side];
        let mut up_end = vec![0u64; side];
        let mut down_start = vec![0u64; side];
        let mut down_end = vec![0u64; side];
        for &(s, d) in packets {
            let (a, b) = (g.coord(s, dim) as usize, g.coord(d, dim) as usize);
            if a < b {
                up_start[a] += 1;
                up_end[b] += 1;
            } else if b < a {
                down_start[b] += 1;
                down_end[a] += 1;
            }
        }
        let (mut up, mut down, mut most) = (0u64, 0u64, 0u64);
        for p in 0..side - 1 {
            up = up + up_start[p] - up_end[p];
            down = down + down_start[p] - down_end[p];
            most = most.max(up).max(down);
        }
        return ceil_div(most, cross_section);
    }
    // Torus: buckets of consecutive coordinates; an arc of buckets [x, y] is
    // an arc of coordinates, and each pair of positions is one such arc (the
    // other arc is its complement, covered by the reverse direction).
    let buckets = side.min(TORUS_CUT_BUCKETS);
    let bucket = |c: u32| (c as u64 * buckets as u64 / side as u64) as usize;
    let w = buckets + 1;
    // table[(a+1)·w + (b+1)] → 2-D prefix sums of (source bucket, destination bucket).
    let mut table = vec![0u32; w * w];
    for &(s, d) in packets {
        let (a, b) = (bucket(g.coord(s, dim)), bucket(g.coord(d, dim)));
        table[(a + 1) * w + (b + 1)] += 1;
    }
    for i in 1..w {
        for j in 1..w {
            let v = table[i * w + j]
                .wrapping_add(table[(i - 1) * w + j])
                .wrapping_add(table[i * w + j - 1])
                .wrapping_sub(table[(i - 1) * w + j - 1]);
            table[i * w + j] = v;
        }
    }
    let at = |i: usize, j: usize| table[i * w + j] as u64;
    let total_row = |i: usize| at(i, buckets); // sources in buckets < i
    let total_col = |j: usize| at(buckets, j); // destinations in buckets < j
    let mut most = 0u64;
    for x in 0..buckets {
        for y in x..buckets {
            if x == 0 && y == buckets - 1 {
                continue; // the whole ring is no cut
            }
            let both = at(y + 1, y + 1) + at(x, x) - at(x, y + 1) - at(y + 1, x);
            let sources = total_row(y + 1) - total_row(x);
            let dests = total_col(y + 1) - total_col(x);
            most = most.max(sources - both).max(dests - both);
        }
    }
    ceil_div(most, 2 * cross_section)
}
