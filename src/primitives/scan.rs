//! Prefix sums (scans) on a mesh in O(side) steps, with counters as control
//! messages (SPEC §1): the "standard prefix" of Pietracaprina–Pucci §3, and
//! the row/column pattern of the proof of Theorem 5 (§4).
//!
//! Every aligned m×m *region* scans independently, all in parallel. The
//! order inside a region is either
//! - [`Order::RowMajor`] with blocks of side u: the u×u blocks in row-major
//!   order, row-major inside each block (u = 1: plain row-major; u = the
//!   side of an s-tile: every s-tile is an interval, as §3.2 Step 2.(a)
//!   needs), or
//! - [`Order::Snake`]: snake order, the order of the mesh sort.
//!
//! The operation is any associative `op` on `u64` with identity 0 (sums,
//! maxima, segmented counts — see [`seg`]). The values are computed pass by
//! pass over exactly the paths the counters take ([`carry`]), and the task
//! plays those passes on the engine. Row-major, u < m: 3 passes inside
//! blocks, 3 over blocks, 2 broadcasts back: about 3m + 2u steps; snake:
//! 4(m − 1); the region total, if asked for, 2(m − 1) more.
//!
//! [`row_major_sums`] is a row-major prefix of sums in 2(m − 1) steps: a
//! node's prefix is the sum over the rows above it plus its row's prefix,
//! and the rows above sum, column by column, to what one pass down every
//! column brings each node; one pass east and one west along every row at
//! once (opposite links) then add up those column sums left and right of
//! the node. It needs a commutative operation (sums).

use super::geometry::Mesh;
use super::sweep::{carry, Paths, Sweeps};

/// The order of a scan inside a region.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Blocks of side `block` (dividing the region side) in row-major order,
    /// row-major inside each block.
    RowMajor {
        /// Side of a block.
        block: u32,
    },
    /// Snake order (even rows left to right).
    Snake,
}

/// A scan: its results and the task that plays its messages.
pub struct Scan {
    /// Per node: the combination of the values before it in its region's order (exclusive).
    pub prefix: Vec<u64>,
    /// Per node: its region's total, when asked for.
    pub total: Option<Vec<u64>>,
    /// The passes to play on the engine before the results may be used.
    pub task: Sweeps,
}

/// Segmented counting (§3.1 Step 2.(c).i: ranks inside groups): an element
/// is `seg::item(group, count)`; combining keeps counting inside a group and
/// restarts at a new group. Associative on sequences whose groups are
/// contiguous; 0 is the identity.
pub mod seg {
    /// The element `count` items of `group`.
    pub fn item(group: u32, count: u32) -> u64 {
        ((group as u64 + 1) << 32) | count as u64
    }
    /// The group of an element (`None` for the identity).
    pub fn group(x: u64) -> Option<u32> {
        (x != 0).then(|| ((x >> 32) - 1) as u32)
    }
    /// The count of an element.
    pub fn count(x: u64) -> u32 {
        x as u32
    }
    /// The operation.
    pub fn op(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else if a == 0 || a >> 32 != b >> 32 {
            b
        } else {
            a + count(b) as u64
        }
    }
}

/// Row-major prefix sums of `vals` in every aligned m×m region in two
/// passes, 2(m − 1) steps (module doc): down every column, node (r, c)
/// receives a(c, r) = Σ of the values above it in its column; then along
/// every row at once, eastwards Σ_{c′ < c} (value + a) and westwards
/// Σ_{c′ > c} a. The prefix of (r, c) is the sum of the two plus a(c, r):
/// the rows above, then the row up to c.
pub fn row_major_sums(mesh: Mesh, m: u32, vals: &[u64]) -> Scan {
    let n = mesh.nodes() as usize;
    assert!(m.is_power_of_two() && m <= mesh.side() && vals.len() == n);
    let (down, east, west) = block_lines(mesh, m);
    let prefix = two_pass(&down, &east, &west, n, |v| vals[v as usize], |_| true);
    let mut row = east;
    row.append(&west);
    Scan {
        prefix,
        total: None,
        task: Sweeps::new(mesh, vec![(down, 1), (row, 1)]),
    }
}

/// The two passes' lines inside every aligned m×m block: down its
/// columns, and along its rows eastwards and westwards.
fn block_lines(mesh: Mesh, m: u32) -> (Paths, Paths, Paths) {
    let (mut down, mut east, mut west) = (Paths::new(), Paths::new(), Paths::new());
    for r0 in (0..mesh.side()).step_by(m as usize) {
        for c0 in (0..mesh.side()).step_by(m as usize) {
            for i in 0..m {
                down.push_line(mesh, (r0, c0 + i), (1, 0), m);
                east.push_line(mesh, (r0 + i, c0), (0, 1), m);
                west.push_line(mesh, (r0 + i, c0 + m - 1), (0, -1), m);
            }
        }
    }
    (down, east, west)
}

/// The values of the two passes of [`row_major_sums`] over `down`, then
/// `east` and `west` at once: per node, a(v) (the sum carried down to it)
/// plus the eastward sum of value + a and the westward sum of a, of the
/// nodes before it on its row line. Only the nodes where `on` holds take
/// part in the row passes with their a (the corners of the block grid in
/// [`blocked_sums`]); elsewhere a counts as 0 there.
fn two_pass(
    down: &Paths,
    east: &Paths,
    west: &Paths,
    n: usize,
    val: impl Fn(u32) -> u64,
    on: impl Fn(u32) -> bool,
) -> Vec<u64> {
    let plus = |a: u64, b: u64| a + b;
    let mut above = vec![0u64; n];
    carry(down, plus, &val, &val, &mut above);
    let a = |v: u32| if on(v) { above[v as usize] } else { 0 };
    let both = |v: u32| val(v) + a(v);
    let mut left = vec![0u64; n];
    carry(east, plus, both, both, &mut left);
    let mut right = vec![0u64; n];
    carry(west, plus, a, a, &mut right);
    (0..n).map(|v| left[v] + right[v] + above[v]).collect()
}

/// Prefix sums of `width` counters at once (`vals[i]`, one element per
/// node, counter i) over the whole mesh in blocked row-major order (blocks
/// of side u in row-major order, row-major inside: §3.2 Step 2.(a), every
/// s-tile an interval), each node also learning every counter's total.
/// The two-pass scheme of [`row_major_sums`], twice: inside every block
/// (down its columns, then along its rows both ways), which brings each
/// block's total to its bottom-right corner; then on the grid of those
/// corners (down the corners' columns, then along the corners' rows both
/// ways), which gives each corner the sum of the blocks before it; that
/// offset goes up the block's last column and west along its rows. The
/// last corner's offset plus its block's total is the total, which goes
/// west along the bottom row and up every column. Every pass carries the
/// counters pipelined: 2·side + 2u − 4 steps for the prefixes (1 < u <
/// side; 2(side − 1) if u is 1 or side) and 2(side − 1) for the totals,
/// plus `width − 1` per pass (8 passes; 4 if u is 1 or side).
pub struct BlockedSums {
    /// Per counter, per node: the sum of the values before it.
    pub prefix: Vec<Vec<u64>>,
    /// Per counter: the total (every node has it when the task is over).
    pub total: Vec<u64>,
    /// The passes.
    pub task: Sweeps,
}

/// See [`BlockedSums`]; without `want_total` the totals' two passes are
/// not played (and `total` is empty).
pub fn blocked_sums(mesh: Mesh, u: u32, vals: &[Vec<u64>], want_total: bool) -> BlockedSums {
    let (side, n) = (mesh.side(), mesh.nodes() as usize);
    assert!(u.is_power_of_two() && u <= side);
    let width = vals.len() as u32;
    let nb = side / u;
    // Inside blocks.
    let (down, east, west) = block_lines(mesh, u);
    // The grid of blocks: columns and rows through the corners.
    let corner = |v: u32| {
        let (r, c) = mesh.rc(v);
        r % u == u - 1 && c % u == u - 1
    };
    let (mut gdown, mut geast, mut gwest) = (Paths::new(), Paths::new(), Paths::new());
    if nb > 1 {
        for b in 0..nb {
            gdown.push_line(mesh, (u - 1, b * u + u - 1), (1, 0), side - u + 1);
            geast.push_line(mesh, (b * u + u - 1, u - 1), (0, 1), side - u + 1);
            gwest.push_line(mesh, (b * u + u - 1, side - 1), (0, -1), side - u + 1);
        }
    }
    // Offsets back into the blocks: up the last column, then west.
    let (mut up, mut back) = (Paths::new(), Paths::new());
    for br in 0..nb {
        for bc in 0..nb {
            up.push_line(mesh, (br * u + u - 1, bc * u + u - 1), (-1, 0), u);
            for i in 0..u {
                back.push_line(mesh, (br * u + i, bc * u + u - 1), (0, -1), u);
            }
        }
    }
    // The totals: west along the bottom row, up every column.
    let (mut tw, mut tn) = (Paths::new(), Paths::new());
    tw.push_line(mesh, (side - 1, side - 1), (0, -1), side);
    for c in 0..side {
        tn.push_line(mesh, (side - 1, c), (-1, 0), side);
    }
    let last = mesh.node(side - 1, side - 1) as usize;
    let mut prefix = Vec::with_capacity(vals.len());
    let mut total = Vec::with_capacity(vals.len());
    for a in vals {
        assert_eq!(a.len(), n);
        let inner = two_pass(&down, &east, &west, n, |v| a[v as usize], |_| true);
        // A block's total, at its corner; the same two passes on the corners.
        let btot = |v: u32| {
            if corner(v) {
                inner[v as usize] + a[v as usize]
            } else {
                0
            }
        };
        let offset = two_pass(&gdown, &geast, &gwest, n, btot, corner);
        // Each node's block offset: its block corner's.
        let mut p = vec![0u64; n];
        for v in 0..n as u32 {
            let (r, c) = mesh.rc(v);
            let cv = mesh.node(r - r % u + u - 1, c - c % u + u - 1) as usize;
            p[v as usize] = offset[cv] + inner[v as usize];
        }
        total.push(p[last] + a[last]);
        prefix.push(p);
    }
    let both = |mut x: Paths, y: Paths| {
        x.append(&y);
        x
    };
    let w = width.max(1);
    let mut passes = vec![(down, w), (both(east, west), w)];
    if nb > 1 {
        passes.extend([(gdown, w), (both(geast, gwest), w), (up, w), (back, w)]);
    }
    if want_total {
        passes.extend([(tw, w), (tn, w)]);
    } else {
        total.clear();
    }
    if width == 0 {
        passes.clear();
    }
    BlockedSums {
        prefix,
        total,
        task: Sweeps::new(mesh, passes),
    }
}

/// Scans `vals` (one element per node) in every aligned m×m region.
pub fn scan(mesh: Mesh, m: u32, order: Order, vals: &[u64], op: &dyn Fn(u64, u64) -> u64, want_total: bool) -> Scan {
    let n = mesh.nodes() as usize;
    assert!(m.is_power_of_two() && m <= mesh.side() && vals.len() == n);
    let regions: Vec<(u32, u32)> = (0..mesh.side() / m)
        .flat_map(|i| (0..mesh.side() / m).map(move |j| (i * m, j * m)))
        .collect();
    let mut passes: Vec<(Paths, u32)> = Vec::new();
    let mut prefix = vec![0u64; n];
    let mut region_total = vec![0u64; n]; // at each region's bottom-right node
    let zero = |_: u32| 0u64;
    let keep = |a: u64, _b: u64| a;
    match order {
        Order::RowMajor { block: u } => {
            assert!(u.is_power_of_two() && u <= m);
            let mut rowpre = vec![0u64; n];
            let mut rows_before = vec![0u64; n];
            let mut btot = vec![0u64; n]; // block totals, at block bottom-right nodes
            let blocks: Vec<(u32, u32)> = regions
                .iter()
                .flat_map(|&(r0, c0)| (0..m / u).flat_map(move |i| (0..m / u).map(move |j| (r0 + i * u, c0 + j * u))))
                .collect();
            if u > 1 {
                // Inside blocks: rows east, then row totals south along the block's last column.
                let mut p1 = Paths::new();
                for &(br, bc) in &blocks {
                    for r in 0..u {
                        p1.push_line(mesh, (br + r, bc), (0, 1), u);
                    }
                }
                let ends = carry(&p1, op, |v| vals[v as usize], |v| vals[v as usize], &mut rowpre);
                let mut rowtot = vec![0u64; n];
                for (i, &x) in ends.iter().enumerate() {
                    rowtot[*p1.path(i).last().unwrap() as usize] = x;
                }
                let mut p2 = Paths::new();
                for &(br, bc) in &blocks {
                    p2.push_line(mesh, (br, bc + u - 1), (1, 0), u);
                }
                let ends = carry(
                    &p2,
                    op,
                    |v| rowtot[v as usize],
                    |v| rowtot[v as usize],
                    &mut rows_before,
                );
                for (i, &x) in ends.iter().enumerate() {
                    btot[*p2.path(i).last().unwrap() as usize] = x;
                }
                passes.push((p1, 1));
                passes.push((p2, 1));
            } else {
                btot.copy_from_slice(vals);
            }
            let mut block_excl = vec![0u64; n]; // at block bottom-right nodes
            if m > u {
                let is_br_col = |v: u32| mesh.rc(v).1 % u == u - 1;
                let is_br_row = |v: u32| mesh.rc(v).0 % u == u - 1;
                let mut blkrow_excl = vec![0u64; n];
                let mut p3 = Paths::new();
                for &(r0, c0) in &regions {
                    for bu in 0..m / u {
                        p3.push_line(mesh, (r0 + bu * u + u - 1, c0 + u - 1), (0, 1), m - u + 1);
                    }
                }
                let contrib = |v: u32| if is_br_col(v) { btot[v as usize] } else { 0 };
                let ends = carry(&p3, op, |v| btot[v as usize], contrib, &mut blkrow_excl);
                let mut browtot = vec![0u64; n];
                for (i, &x) in ends.iter().enumerate() {
                    browtot[*p3.path(i).last().unwrap() as usize] = x;
                }
                let mut p4 = Paths::new();
                for &(r0, c0) in &regions {
                    p4.push_line(mesh, (r0 + u - 1, c0 + m - 1), (1, 0), m - u + 1);
                }
                let mut brows_before = vec![0u64; n];
                let contrib = |v: u32| if is_br_row(v) { browtot[v as usize] } else { 0 };
                let ends = carry(&p4, op, |v| browtot[v as usize], contrib, &mut brows_before);
                for (i, &x) in ends.iter().enumerate() {
                    region_total[*p4.path(i).last().unwrap() as usize] = x;
                }
                let mut p5 = Paths::new();
                for &(r0, c0) in &regions {
                    for bu in 0..m / u {
                        p5.push_line(mesh, (r0 + bu * u + u - 1, c0 + m - 1), (0, -1), m - u + 1);
                    }
                }
                let mut got = vec![0u64; n];
                carry(&p5, keep, |v| brows_before[v as usize], zero, &mut got);
                for i in 0..p5.len() {
                    let start = p5.path(i)[0];
                    got[start as usize] = brows_before[start as usize];
                    for &v in p5.path(i) {
                        if is_br_col(v) {
                            block_excl[v as usize] = op(got[v as usize], blkrow_excl[v as usize]);
                        }
                    }
                }
                passes.push((p3, 1));
                passes.push((p4, 1));
                passes.push((p5, 1));
            } else {
                for &(r0, c0) in &regions {
                    let br = mesh.node(r0 + m - 1, c0 + m - 1) as usize;
                    region_total[br] = btot[br];
                }
            }
            if u > 1 {
                // Broadcast each block's offset up its last column, then with
                // the row offsets west along its rows.
                let mut at_col = vec![0u64; n];
                if m > u {
                    let mut p6 = Paths::new();
                    for &(br, bc) in &blocks {
                        p6.push_line(mesh, (br + u - 1, bc + u - 1), (-1, 0), u);
                    }
                    carry(&p6, keep, |v| block_excl[v as usize], zero, &mut at_col);
                    for &(br, bc) in &blocks {
                        let v = mesh.node(br + u - 1, bc + u - 1) as usize;
                        at_col[v] = block_excl[v];
                    }
                    passes.push((p6, 1));
                }
                let mut p7 = Paths::new();
                for &(br, bc) in &blocks {
                    for r in 0..u {
                        p7.push_line(mesh, (br + r, bc + u - 1), (0, -1), u);
                    }
                }
                let mut got = vec![0u64; n];
                let first = |v: u32| op(at_col[v as usize], rows_before[v as usize]);
                carry(&p7, keep, first, zero, &mut got);
                for i in 0..p7.len() {
                    let start = p7.path(i)[0];
                    got[start as usize] = first(start);
                }
                for v in 0..n {
                    prefix[v] = op(got[v], rowpre[v]);
                }
                passes.push((p7, 1));
            } else {
                prefix.copy_from_slice(&block_excl);
            }
        }
        Order::Snake => {
            let mut rowpre = vec![0u64; n];
            let mut s1 = Paths::new();
            for &(r0, c0) in &regions {
                for r in 0..m {
                    if r % 2 == 0 {
                        s1.push_line(mesh, (r0 + r, c0), (0, 1), m);
                    } else {
                        s1.push_line(mesh, (r0 + r, c0 + m - 1), (0, -1), m);
                    }
                }
            }
            let ends = carry(&s1, op, |v| vals[v as usize], |v| vals[v as usize], &mut rowpre);
            let mut rowtot = vec![0u64; n]; // moved to the last column
            let mut s2 = Paths::new();
            for (i, &x) in ends.iter().enumerate() {
                let end = *s1.path(i).last().unwrap();
                rowtot[end as usize] = x;
                let (r, c) = mesh.rc(end);
                if c % m == 0 && m > 1 {
                    s2.push_line(mesh, (r, c), (0, 1), m);
                    rowtot[mesh.node(r, c + m - 1) as usize] = x;
                }
            }
            let mut rows_before = vec![0u64; n];
            let mut s3 = Paths::new();
            for &(r0, c0) in &regions {
                s3.push_line(mesh, (r0, c0 + m - 1), (1, 0), m);
            }
            let ends = carry(
                &s3,
                op,
                |v| rowtot[v as usize],
                |v| rowtot[v as usize],
                &mut rows_before,
            );
            for (i, &x) in ends.iter().enumerate() {
                region_total[*s3.path(i).last().unwrap() as usize] = x;
            }
            let mut s4 = Paths::new();
            for &(r0, c0) in &regions {
                for r in 0..m {
                    s4.push_line(mesh, (r0 + r, c0 + m - 1), (0, -1), m);
                }
            }
            let mut got = vec![0u64; n];
            carry(&s4, keep, |v| rows_before[v as usize], zero, &mut got);
            for i in 0..s4.len() {
                let start = s4.path(i)[0];
                got[start as usize] = rows_before[start as usize];
            }
            for v in 0..n {
                prefix[v] = op(got[v], rowpre[v]);
            }
            passes.push((s1, 1));
            if !s2.is_empty() {
                passes.push((s2, 1));
            }
            passes.push((s3, 1));
            passes.push((s4, 1));
        }
    }
    let total = want_total.then(|| {
        let mut t1 = Paths::new();
        let mut t2 = Paths::new();
        for &(r0, c0) in &regions {
            t1.push_line(mesh, (r0 + m - 1, c0 + m - 1), (-1, 0), m);
            for r in 0..m {
                t2.push_line(mesh, (r0 + r, c0 + m - 1), (0, -1), m);
            }
        }
        let mut total = vec![0u64; n];
        for &(r0, c0) in &regions {
            let br = mesh.node(r0 + m - 1, c0 + m - 1) as usize;
            for r in 0..m {
                for c in 0..m {
                    // What t1 then t2 carry: the total travels up, then west.
                    total[mesh.node(r0 + r, c0 + c) as usize] = region_total[br];
                }
            }
        }
        passes.push((t1, 1));
        passes.push((t2, 1));
        total
    });
    Scan {
        prefix,
        total,
        task: Sweeps::new(mesh, passes),
    }
}

#[cfg(test)]
mod tests {
    /// Blocked sums: the prefixes of every counter are the blocked
    /// row-major scan's, the totals the sums, in the stated steps.
    #[test]
    fn blocked_sums_are_the_blocked_scans_with_totals() {
        let mut rng = Rng::new(9, Stream::Workload);
        let plus = |a: u64, b: u64| a + b;
        for side in [1u32, 2, 4, 8, 16, 32] {
            let mesh = Mesh::new(side).unwrap();
            for width in [1u32, 3] {
                let vals: Vec<Vec<u64>> = (0..width)
                    .map(|_| (0..side * side).map(|_| rng.below(4) as u64).collect())
                    .collect();
                for u in (0..=side.ilog2()).map(|i| 1u32 << i) {
                    let without = blocked_sums(mesh, u, &vals, false);
                    let b = blocked_sums(mesh, u, &vals, true);
                    assert!(without.total.is_empty());
                    assert_eq!(without.prefix, b.prefix);
                    let s1 = side - 1;
                    let totals = if side == 1 { 0 } else { 2 * s1 + 2 * (width - 1) };
                    assert_eq!(without.task.duration() + totals, b.task.duration());
                    for (i, a) in vals.iter().enumerate() {
                        let slow = scan(mesh, side, Order::RowMajor { block: u }, a, &plus, false);
                        assert_eq!(b.prefix[i], slow.prefix, "side {side} u {u} counter {i}");
                        assert_eq!(b.total[i], a.iter().sum::<u64>());
                    }
                    let w = width - 1;
                    let want = if side == 1 {
                        0
                    } else if u == side {
                        2 * (u - 1) + 2 * s1 + 4 * w
                    } else if u == 1 {
                        2 * (side - u) + 2 * s1 + 4 * w
                    } else {
                        4 * (u - 1) + 2 * (side - u) + 2 * s1 + 8 * w
                    };
                    let mut task = b.task;
                    assert_eq!(task.duration(), want, "side {side} u {u} width {width}");
                    assert_eq!(steps_on_mesh(side, &mut task), want);
                }
            }
        }
    }

    use super::*;
    use crate::engine::{Engine, EngineConfig};
    use crate::primitives::Task;
    use crate::rng::{Rng, Stream};

    /// The steps `task` takes on an empty side × side mesh, invariants checked.
    fn steps_on_mesh(side: u32, task: &mut impl Task) -> u32 {
        let topo = format!("mesh:{side}x{side}").parse().unwrap();
        let config = EngineConfig {
            check_invariants: true,
            ..Default::default()
        };
        let mut e = Engine::new(topo, &[], config);
        let mut steps = 0;
        while task.poll(&mut e) {
            e.step();
            steps += 1;
        }
        steps
    }

    #[test]
    fn row_major_sums_are_the_row_major_scan_in_two_passes() {
        let mut rng = Rng::new(5, Stream::Workload);
        let plus = |a: u64, b: u64| a + b;
        for side in [1u32, 2, 4, 8, 16, 32] {
            let mesh = Mesh::new(side).unwrap();
            let vals: Vec<u64> = (0..side * side).map(|_| rng.below(4) as u64).collect();
            for m in (0..=side.ilog2()).map(|i| 1u32 << i) {
                let fast = row_major_sums(mesh, m, &vals);
                let slow = scan(mesh, m, Order::RowMajor { block: 1 }, &vals, &plus, false);
                assert_eq!(fast.prefix, slow.prefix, "side {side} m {m}");
                let mut task = fast.task;
                assert_eq!(task.duration(), 2 * (m - 1), "side {side} m {m}");
                assert_eq!(steps_on_mesh(side, &mut task), 2 * (m - 1), "side {side} m {m}");
            }
        }
    }
}
