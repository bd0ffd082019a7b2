//! SPEC §4's `region` bound on meshes of one, three or more dimensions:
//! over every cubic submesh Q (side s in every dimension; on a linear array
//! an interval), max(packets leaving, packets entering) ÷ the links leaving
//! Q, rounded up. The 2-D bound (region.rs) has a faster special form; this
//! one follows the same method in any dimension d:
//!
//! - #src∈Q and #dst∈Q from d-dimensional prefix sums (2^d terms a cube);
//! - #both∈Q (source and destination inside) from a difference array over
//!   the cubes' corners: a packet lies inside the cube with corner x exactly
//!   when lo_j ≥ x_j and hi_j ≤ x_j + s − 1 in every dimension j (lo, hi its
//!   box), a box of corners, added with 2^d signed updates; then
//!   leaving = #src∈Q − #both∈Q, entering = #dst∈Q − #both∈Q;
//! - links leaving Q: s^(d−1) through each of its faces off the border.
//!
//! Work limits as in 2-D ([`BoundsConfig`]): sizes from small to large
//! exactly while `region_exact_work` lasts (2^d per packet and per corner),
//! then the estimate |#dst∈Q − #src∈Q| ÷ links; past `region_scan_work`
//! corner evaluations only size 1 and every t-th size (a sub-family of
//! cubes: still a lower bound). Meshes with more than
//! [`REGION_MAX_EXACT_CELLS`] prefix cells get no region bound (0, not
//! exact): its tables would cost 12 bytes a cell.

use super::{BoundsConfig, Region, REGION_MAX_EXACT_CELLS};
use crate::topology::Grid;

/// Row-major strides of a table with sides `sides`.
fn strides(sides: &[usize]) -> Vec<usize> {
    let mut out = vec![1; sides.len()];
    for j in (0..sides.len().saturating_sub(1)).rev() {
        out[j] = out[j + 1] * sides[j + 1];
    }
    out
}

/// In-place prefix sums along every axis of a table with sides `sides`
/// (wrapping: every true sum fits in 32 bits).
fn prefix_sums(t: &mut [u32], sides: &[usize]) {
    let st = strides(sides);
    for (j, &side) in sides.iter().enumerate() {
        let step = st[j];
        for i in 0..t.len() {
            if !(i / step).is_multiple_of(side) {
                t[i] = t[i].wrapping_add(t[i - step]);
            }
        }
    }
}

/// The region bound of `moving` (source ≠ destination) packets on the
/// d-dimensional mesh `g` (d ≠ 2, no wrap links).
pub(super) fn region_bound_nd(g: &Grid, moving: &[(u32, u32)], config: &BoundsConfig) -> Region {
    let n: Vec<usize> = g.dims().iter().map(|&v| v as usize).collect();
    let d = n.len();
    let cells_sides: Vec<usize> = n.iter().map(|&v| v + 1).collect();
    let cells: u64 = cells_sides.iter().map(|&v| v as u64).product();
    if moving.is_empty() {
        return Region { value: 0, exact: true };
    }
    if cells > REGION_MAX_EXACT_CELLS {
        return Region { value: 0, exact: false };
    }
    let coords = |v: u32| (0..d).map(move |j| g.coord(v, j) as usize);
    let cst = strides(&cells_sides);
    // Prefix tables of source and destination counts, shifted by one.
    let (mut src, mut dst) = (vec![0u32; cells as usize], vec![0u32; cells as usize]);
    for &(s, t) in moving {
        let at = |v: u32| coords(v).zip(&cst).map(|(c, &k)| (c + 1) * k).sum::<usize>();
        src[at(s)] += 1;
        dst[at(t)] += 1;
    }
    prefix_sums(&mut src, &cells_sides);
    prefix_sums(&mut dst, &cells_sides);
    // The packets by the largest side of their box (a packet fits a cube
    // of side s iff it is < s): (extent, packet), each extent computed once.
    let extent = |&(s, t): &(u32, u32)| coords(s).zip(coords(t)).map(|(a, b)| a.abs_diff(b)).max().unwrap_or(0);
    let mut order: Vec<(u32, u32)> = moving
        .iter()
        .enumerate()
        .map(|(i, p)| (extent(p) as u32, i as u32))
        .collect();
    order.sort_unstable();
    let corners_of = |s: usize| n.iter().map(|&v| (v - s + 1) as u64).product::<u64>();
    let smallest = *n.iter().min().expect("a mesh has dimensions");
    let whole = |s: usize| n.iter().all(|&v| v == s);
    // Work per cube and per packet: its 2^d vertices.
    let per_cube = 1u64 << d;
    let total: u64 = (1..=smallest)
        .filter(|&s| !whole(s))
        .map(|s| corners_of(s) * per_cube)
        .sum();
    let stride = total.div_ceil(config.region_scan_work.max(1)).max(1) as usize;
    let mut exact = stride == 1;
    let mut budget = config.region_exact_work;
    let mut counting = budget > 0;
    let mut next = 0usize; // packets in `order` with extent < s
    let mut both: Vec<u32> = Vec::new();
    let mut best = 0u32;
    for s in (1..=smallest).filter(|&s| !whole(s) && (s == 1 || s % stride == 0)) {
        while next < order.len() && (order[next].0 as usize) < s {
            next += 1;
        }
        let m: Vec<usize> = n.iter().map(|&v| v - s + 1).collect();
        if counting {
            let work = (next as u64 + corners_of(s)) * per_cube;
            if work <= budget {
                budget -= work;
                count_inside(
                    &mut both,
                    g,
                    &m,
                    s,
                    order[..next].iter().map(|&(_, i)| moving[i as usize]),
                );
            } else {
                counting = false;
                exact = false;
            }
        } else {
            exact = false;
        }
        // Each corner of the cubes of side s.
        let dsides: Vec<usize> = m.iter().map(|&v| v + 1).collect();
        let dst_st = strides(&dsides);
        let faces = (s as u64).pow(d as u32 - 1);
        // The cube's 2^d vertices: their prefix-table offsets from its
        // corner, and their inclusion–exclusion signs (+ with an even
        // number of low ends).
        let vertices: Vec<(usize, bool)> = (0..1usize << d)
            .map(|mask| {
                let offset = (0..d).filter(|&j| (mask >> j) & 1 == 1).map(|j| s * cst[j]).sum();
                (offset, (d - mask.count_ones() as usize).is_multiple_of(2))
            })
            .collect();
        let mut x = vec![0usize; d];
        loop {
            let (mut from, mut into) = (0u32, 0u32);
            let corner: usize = x.iter().zip(&cst).map(|(c, k)| c * k).sum();
            for &(offset, plus) in &vertices {
                let (a, b) = (src[corner + offset], dst[corner + offset]);
                if plus {
                    from = from.wrapping_add(a);
                    into = into.wrapping_add(b);
                } else {
                    from = from.wrapping_sub(a);
                    into = into.wrapping_sub(b);
                }
            }
            let value = if counting {
                let inside = both[x.iter().zip(&dst_st).map(|(c, k)| c * k).sum::<usize>()];
                (from - inside).max(into - inside)
            } else {
                from.abs_diff(into)
            };
            let open: u64 = (0..d).map(|j| (x[j] > 0) as u64 + (x[j] + s < n[j]) as u64).sum();
            if open > 0 && value > 0 {
                best = best.max((value as u64).div_ceil(open * faces) as u32);
            }
            if !next_corner(&mut x, &m) {
                break;
            }
        }
    }
    Region { value: best, exact }
}

/// Moves `x` to the next corner (last coordinate fastest) of a box with
/// `m` corners per dimension; false after the last.
fn next_corner(x: &mut [usize], m: &[usize]) -> bool {
    for j in (0..x.len()).rev() {
        x[j] += 1;
        if x[j] < m[j] {
            return true;
        }
        x[j] = 0;
    }
    false
}

/// `both` := for every corner x of the cubes of side s (`m` corners per
/// dimension; the table has m_j + 1 cells a side), the packets of `inside`
/// (each with all box sides < s) whose box lies in the cube at x: a
/// difference array over the corners, then its prefix sums.
fn count_inside(both: &mut Vec<u32>, g: &Grid, m: &[usize], s: usize, inside: impl Iterator<Item = (u32, u32)>) {
    let d = m.len();
    let sides: Vec<usize> = m.iter().map(|&v| v + 1).collect();
    let st = strides(&sides);
    both.clear();
    both.resize(sides.iter().product(), 0);
    let (mut first, mut after) = (vec![0usize; d], vec![0usize; d]);
    for (a, b) in inside {
        for j in 0..d {
            let (p, q) = (g.coord(a, j) as usize, g.coord(b, j) as usize);
            let (lo, hi) = (p.min(q), p.max(q));
            // Corners x_j from hi − s + 1 to lo (within 0..m_j): never empty for a box side < s.
            first[j] = (hi + 1).saturating_sub(s);
            after[j] = lo.min(m[j] - 1) + 1;
        }
        for mask in 0..(1usize << d) {
            let mut at = 0;
            let mut ends = 0u32;
            for j in 0..d {
                if (mask >> j) & 1 == 1 {
                    at += after[j] * st[j];
                    ends += 1;
                } else {
                    at += first[j] * st[j];
                }
            }
            both[at] = if ends.is_multiple_of(2) {
                both[at].wrapping_add(1)
            } else {
                both[at].wrapping_sub(1)
            };
        }
    }
    prefix_sums(both, &sides);
}
