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

use bits::bit_flows;
pub use bits::shuffle_exchange_cut_links;
pub use progress::Progress;

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
    /// k·side/2 on a square 2-D mesh (the k-k routing lower bound), else null.
    pub k_side_over_2: Option<f64>,
    /// k·side/4 on a square 2-D torus, else null.
    pub k_side_over_4: Option<f64>,
    /// Whether `region` was computed exactly over every square (false when
    /// the work limits made it fall back to the estimate or to fewer sizes).
    pub region_exact: bool,
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
/// corners and lists (56 per packet) and prefix tables; the sink bound's
/// counts (16 per node with the tables); a torus's cut table per dimension.
pub fn working_bytes(topo: &Topology, packets: u64) -> u64 {
    let nodes = topo.nodes() as u64;
    let mut bytes = packets.saturating_mul(8 + 56).saturating_add(nodes.saturating_mul(16));
    if let Topology::Grid(g) = topo {
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

/// The packets that have to move (source ≠ destination).
fn moving_packets(instance: &Instance) -> Vec<(u32, u32)> {
    instance.packets.iter().copied().filter(|&(s, d)| s != d).collect()
}

/// ⌈a ÷ b⌉ for a positive number of links `b`.
fn ceil_div(a: u64, b: u64) -> u32 {
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
            let links = 1u64 << (h.dim() - 1);
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

/// The region bound and whether it was computed exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Region {
    /// The bound, in steps.
    pub value: u32,
    /// False when a work limit replaced part of the exact computation by a
    /// weaker valid one.
    pub exact: bool,
}

/// The region bound on a 2-D mesh (R×C, no wrap-around); 0 on every other
/// topology.
///
/// Over every square submesh Q of side s (every size up to min(R, C) and
/// every position, except the whole mesh): max(⌈packets from Q to outside ÷
/// links leaving Q⌉, ⌈packets from outside into Q ÷ links entering Q⌉),
/// where links leaving (= entering) Q is s × the number of Q's sides that are
/// not on the mesh border.
///
/// Exact method: prefix sums of source and destination counts give
/// #src∈Q and #dst∈Q in O(1); the packets with *both* ends in Q are counted
/// per size s with a difference array over top-left corners (the corners of
/// the squares holding both endpoints form a rectangle, non-empty iff the
/// endpoints' Chebyshev distance is below s), so leaving = #src∈Q − #both and
/// entering = #dst∈Q − #both. Only packets of Chebyshev distance below s take
/// part at size s; they are grouped by their larger (and, in a second copy,
/// smaller) row, by distance within a group, so size s reads a prefix of
/// each group and the difference-array writes sweep the rows in order. Work
/// of size s = (packets with Chebyshev distance < s) + (R−s+1)(C−s+1)
/// corners.
///
/// Work limits ([`BoundsConfig`]): sizes are processed from small to large,
/// exactly while the running exact work stays within `region_exact_work`;
/// the remaining (larger) sizes use the SPEC §4 estimate |#dst∈Q − #src∈Q| ÷
/// links, valid because leaving ≥ #src∈Q − #dst∈Q and entering ≥ #dst∈Q −
/// #src∈Q. If scanning every corner of every size would exceed
/// `region_scan_work` cells, only size 1 and every t-th size are scanned, t
/// chosen to fit the budget (a sub-family of squares, so still valid).
/// Meshes above [`REGION_MAX_EXACT_CELLS`] use the estimate for every size.
/// `Region::exact` says whether no limit was hit.
///
/// With the defaults (release build, 2 shared cores): a 256×256 mesh with a
/// random permutation is exact in about 0.2 s; 512×512 is still exact (about
/// 1.6 s under load); a 1024×1024 random permutation is exact for the small
/// sizes and estimated above, about 2.5 s in all.
pub fn region_bound(topo: &Topology, packets: &[(u32, u32)], config: &BoundsConfig) -> Region {
    let g = match topo {
        Topology::Grid(g) if g.dims().len() == 2 && !g.wraps() => g,
        _ => return Region { value: 0, exact: true },
    };
    let (rows, cols) = (g.dims()[0] as usize, g.dims()[1] as usize);
    let moving: Vec<[u32; 4]> = packets
        .iter()
        .filter(|&&(s, d)| s != d)
        .map(|&(s, d)| {
            let (r1, c1, r2, c2) = (g.coord(s, 0), g.coord(s, 1), g.coord(d, 0), g.coord(d, 1));
            [r1.max(r2), r1.min(r2), c1.max(c2), c1.min(c2)]
        })
        .collect();
    if moving.is_empty() {
        return Region { value: 0, exact: true };
    }
    let cheb = |p: &[u32; 4]| (p[0] - p[1]).max(p[2] - p[3]) as usize;

    // Prefix sums of source and destination counts, (rows+1)×(cols+1).
    let w = cols + 1;
    let (mut src, mut dst) = (vec![0u32; (rows + 1) * w], vec![0u32; (rows + 1) * w]);
    for &(s, d) in packets.iter().filter(|&&(s, d)| s != d) {
        src[(g.coord(s, 0) as usize + 1) * w + g.coord(s, 1) as usize + 1] += 1;
        dst[(g.coord(d, 0) as usize + 1) * w + g.coord(d, 1) as usize + 1] += 1;
    }
    for t in [&mut src, &mut dst] {
        prefix_sums_2d(t, w, rows + 1, cols + 1);
    }

    // Packets bucketed by Chebyshev distance: below[c] = how many have distance < c.
    let span = rows.max(cols);
    let mut below = vec![0usize; span + 1];
    for p in &moving {
        below[cheb(p) + 1] += 1;
    }
    for c in 1..=span {
        below[c] += below[c - 1];
    }
    let cells = ((rows + 1) * (cols + 1)) as u64;
    let mut inside = (cells <= REGION_MAX_EXACT_CELLS && config.region_exact_work > 0)
        .then(|| Inside::new(rows, cols, &moving, &below));
    drop(moving);

    let whole = |s: usize| s == rows && s == cols;
    let corners = |s: usize| ((rows - s + 1) * (cols - s + 1)) as u64;
    let total_cells: u64 = (1..=rows.min(cols)).filter(|&s| !whole(s)).map(corners).sum();
    let stride = total_cells.div_ceil(config.region_scan_work.max(1)).max(1) as usize;
    let mut exact = stride == 1 && inside.is_some();
    let mut budget = config.region_exact_work;
    let mut values = vec![0u32; cols];
    let mut best = 0u32;
    for s in (1..=rows.min(cols)).filter(|&s| !whole(s) && (s == 1 || s % stride == 0)) {
        let (last_x, last_y) = (rows - s, cols - s);
        let upto = below[s.min(span)];
        // Exact while the budget lasts; from the first size that does not fit, estimate.
        let mut both: Option<&[u32]> = None;
        if let Some(counter) = inside.as_mut() {
            let work = upto as u64 + corners(s);
            if work <= budget {
                budget -= work;
                counter.count(s);
            } else {
                inside = None;
                exact = false;
            }
        }
        if let Some(counter) = inside.as_ref() {
            both = Some(&counter.grid);
        }
        // most[k]: the largest count over squares with k sides off the border.
        let mut most = [0u32; 5];
        for x in 0..=last_x {
            let v = (x > 0) as usize + (x < last_x) as usize;
            let vals = &mut values[..=last_y];
            let both_row = both.map(|b| &b[x * w..x * w + last_y + 1]);
            let mid = row_values(
                vals,
                s,
                [&src[x * w..(x + 1) * w], &src[(x + s) * w..(x + s + 1) * w]],
                [&dst[x * w..(x + 1) * w], &dst[(x + s) * w..(x + s + 1) * w]],
                both_row,
            );
            // Columns 0 and last_y touch the left / right border (when they differ).
            most[v + (last_y > 0) as usize] = most[v + (last_y > 0) as usize].max(vals[0]);
            if last_y > 0 {
                most[v + 1] = most[v + 1].max(vals[last_y]);
            }
            if last_y > 1 {
                most[v + 2] = most[v + 2].max(mid);
            }
        }
        for (sides, &count) in most.iter().enumerate().skip(1) {
            best = best.max(ceil_div(count as u64, (s * sides) as u64));
        }
    }
    Region { value: best, exact }
}

/// In-place 2-D prefix sums of a `height`×`width` table with row stride `w`
/// (wrapping arithmetic: every true sum is below 2^32).
fn prefix_sums_2d(t: &mut [u32], w: usize, height: usize, width: usize) {
    for x in 0..height {
        let mut run = 0u32;
        for y in 0..width {
            run = run.wrapping_add(t[x * w + y]);
            t[x * w + y] = run;
        }
        if x > 0 {
            let (above, here) = t.split_at_mut(x * w);
            for (h, a) in here[..width].iter_mut().zip(&above[(x - 1) * w..(x - 1) * w + width]) {
                *h = h.wrapping_add(*a);
            }
        }
    }
}

/// For one row x of corners: the leaving/entering count of every s×s square
/// with top-left corner (x, y), y = 0..vals.len(). `src`/`dst` are the prefix
/// rows x and x+s; `both` the inside counts (exact) or `None` (estimate
/// |#dst − #src|). Returns the largest count off both ends of the row
/// (`vals[1..n − 1]`, 0 when there is none).
///
/// Not inlined: the page's wasm engine (V8) runs a function called once in
/// its baseline tier to the end, so the scan is a function of its own,
/// called once per row and soon optimised.
#[inline(never)]
fn row_values(vals: &mut [u32], s: usize, src: [&[u32]; 2], dst: [&[u32]; 2], both: Option<&[u32]>) -> u32 {
    let n = vals.len();
    let (a0, a1, b0, b1) = (&src[0][..n], &src[0][s..s + n], &src[1][..n], &src[1][s..s + n]);
    let (c0, c1, d0, d1) = (&dst[0][..n], &dst[0][s..s + n], &dst[1][..n], &dst[1][s..s + n]);
    let rect = |lo: u32, lo_s: u32, hi: u32, hi_s: u32| hi_s.wrapping_sub(lo_s).wrapping_sub(hi).wrapping_add(lo);
    match both {
        Some(inside) => {
            let inside = &inside[..n];
            for y in 0..n {
                let from = rect(a0[y], a1[y], b0[y], b1[y]);
                let into = rect(c0[y], c1[y], d0[y], d1[y]);
                vals[y] = (from - inside[y]).max(into - inside[y]);
            }
        }
        None => {
            for y in 0..n {
                let from = rect(a0[y], a1[y], b0[y], b1[y]);
                let into = rect(c0[y], c1[y], d0[y], d1[y]);
                vals[y] = from.abs_diff(into);
            }
        }
    }
    vals.get(1..n.saturating_sub(1))
        .and_then(|mid| mid.iter().copied().max())
        .unwrap_or(0)
}

/// Counts, for one square size at a time, the packets with both ends inside
/// each square. Packets are `[max row, min row, max col, min col]`.
struct Inside {
    rows: usize,
    cols: usize,
    /// `[Chebyshev distance, max col, min col]` grouped by max row (group r
    /// is `by_max_row[max_start[r]..max_start[r + 1]]`), by distance within a
    /// group, so size s reads a prefix of each group: row-ordered writes at
    /// the first corner row of each packet.
    by_max_row: Vec<[u32; 3]>,
    max_start: Vec<usize>,
    /// The same grouped by min row, for the writes after the last corner row.
    by_min_row: Vec<[u32; 3]>,
    min_start: Vec<usize>,
    /// After `count(s)`: grid[x·(cols+1) + y] = packets inside the square at (x, y).
    grid: Vec<u32>,
}

impl Inside {
    /// Groups `packets` (whose Chebyshev distances are counted cumulatively
    /// in `below`) by row, ordered by distance within each row: a counting
    /// sort by distance, then a stable one by row.
    fn new(rows: usize, cols: usize, packets: &[[u32; 4]], below: &[usize]) -> Self {
        let cheb = |p: &[u32; 4]| (p[0] - p[1]).max(p[2] - p[3]);
        let mut by_cheb = vec![[0u32; 4]; packets.len()];
        let mut next = below.to_vec();
        for p in packets {
            let c = cheb(p) as usize;
            by_cheb[next[c]] = *p;
            next[c] += 1;
        }
        let group = |key: usize| {
            let mut start = vec![0usize; rows + 1];
            for p in &by_cheb {
                start[p[key] as usize + 1] += 1;
            }
            for r in 1..=rows {
                start[r] += start[r - 1];
            }
            let mut list = vec![[0u32; 3]; by_cheb.len()];
            let mut next = start.clone();
            for p in &by_cheb {
                let r = p[key] as usize;
                list[next[r]] = [cheb(p), p[2], p[3]];
                next[r] += 1;
            }
            (list, start)
        };
        let (by_max_row, max_start) = group(0);
        let (by_min_row, min_start) = group(1);
        let grid = vec![0u32; (rows + 1) * (cols + 1)];
        Inside {
            rows,
            cols,
            by_max_row,
            max_start,
            by_min_row,
            min_start,
            grid,
        }
    }

    /// Fills `grid` for squares of side `s` from the packets of Chebyshev
    /// distance < s (the others fit in no such square). Such a packet's
    /// corner rectangle is non-empty: rows max_r+1−s ..= min(min_r, R−s),
    /// columns likewise; a 2-D difference array and prefix sums add them up.
    #[inline(never)]
    fn count(&mut self, s: usize) {
        let w = self.cols + 1;
        let (last_x, last_y) = (self.rows - s, self.cols - s);
        let grid = &mut self.grid;
        for x in 0..=last_x + 1 {
            grid[x * w..x * w + last_y + 2].fill(0);
        }
        let cols_of = |p: &[u32; 3]| ((p[1] as usize + 1).saturating_sub(s), (p[2] as usize).min(last_y) + 1);
        for r in 0..self.rows {
            let x0 = (r + 1).saturating_sub(s);
            let row = &mut grid[x0 * w..(x0 + 1) * w];
            for p in self.by_max_row[self.max_start[r]..self.max_start[r + 1]]
                .iter()
                .take_while(|p| (p[0] as usize) < s)
            {
                let (y0, y1) = cols_of(p);
                row[y0] = row[y0].wrapping_add(1);
                row[y1] = row[y1].wrapping_sub(1);
            }
            let x1 = r.min(last_x) + 1;
            let row = &mut grid[x1 * w..(x1 + 1) * w];
            for p in self.by_min_row[self.min_start[r]..self.min_start[r + 1]]
                .iter()
                .take_while(|p| (p[0] as usize) < s)
            {
                let (y0, y1) = cols_of(p);
                row[y0] = row[y0].wrapping_sub(1);
                row[y1] = row[y1].wrapping_add(1);
            }
        }
        prefix_sums_2d(grid, w, last_x + 1, last_y + 1);
    }
}
