//! The region bound (SPEC §4 `region`, meshes): over every square submesh
//! Q, the packets that must leave (enter) Q over the links leaving
//! (entering) it — exact with 2-D prefix sums per square size, or the
//! cheaper estimate past `BoundsConfig`'s work limit.

use super::{ceil_div, BoundsConfig, REGION_MAX_EXACT_CELLS};
use crate::topology::Topology;

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
        // A linear array (its squares are intervals) and 3+ dimensions.
        Topology::Grid(g) if g.dims().len() != 2 && !g.wraps() => {
            let moving: Vec<(u32, u32)> = packets.iter().copied().filter(|&(s, d)| s != d).collect();
            return super::region_nd::region_bound_nd(g, &moving, config);
        }
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
        for r in 0..self.rows {
            // Each packet adds 1 over its corner rectangle: +1 from its
            // first corner row (grouped by max row), −1 after its last
            // (grouped by min row).
            let x0 = (r + 1).saturating_sub(s);
            let starting = &self.by_max_row[self.max_start[r]..self.max_start[r + 1]];
            add_spans(&mut grid[x0 * w..(x0 + 1) * w], starting, s, last_y, 1);
            let x1 = r.min(last_x) + 1;
            let ending = &self.by_min_row[self.min_start[r]..self.min_start[r + 1]];
            add_spans(&mut grid[x1 * w..(x1 + 1) * w], ending, s, last_y, u32::MAX);
        }
        prefix_sums_2d(grid, w, last_x + 1, last_y + 1);
    }
}

/// One row of [`Inside::count`]'s difference array: for each packet of
/// `group` (a row's group, by distance) of Chebyshev distance below `s`,
/// adds `delta` (wrapping: `u32::MAX` is −1) at its first corner column and
/// subtracts it after its last (columns ≤ `last_y`).
#[inline(always)]
fn add_spans(row: &mut [u32], group: &[[u32; 3]], s: usize, last_y: usize, delta: u32) {
    for p in group.iter().take_while(|p| (p[0] as usize) < s) {
        let (y0, y1) = ((p[1] as usize + 1).saturating_sub(s), (p[2] as usize).min(last_y) + 1);
        row[y0] = row[y0].wrapping_add(delta);
        row[y1] = row[y1].wrapping_sub(delta);
    }
}
