//! The 2-D mesh as four leveled networks (Leighton–Maggs–Ranade–Rao §3,
//! proof of Theorem 3.1).
//!
//! Packets are split by direction: *up-right* packets go to a row at or
//! above theirs (row 0 is the top, SPEC §2) and a column at or right of
//! theirs; then *up-left*, *down-right*, *down-left*. Each class is routed
//! in its own phase on the leveled network made of the mesh's links that
//! point its way: in the up-right phase the up links and the right links,
//! and a node's level is its distance from the bottom-left corner,
//! (R − 1 − row) + column (mirrored in the other phases), so that every link
//! of the phase climbs one level. Paths are greedy as in the proof: first
//! along the column to the destination row, then along the row. One logical
//! step is one real step: every edge of a phase is its own directed link.
//!
//! Congestion and levels are O(√N) (a column link is crossed only by packets
//! that start in its column, a row link only by packets bound for its row),
//! so each phase takes O(√N) steps with high probability (Theorem 2.9).

use super::leveled::{Description, OutEdge};

/// The four phases, in the paper's order: (name, goes up, goes right).
pub const PHASES: [(&str, bool, bool); 4] = [
    ("up-right", true, true),
    ("up-left", true, false),
    ("down-right", false, true),
    ("down-left", false, false),
];

/// The phase of a packet from `src` to `dest` on an R×C mesh (an index of
/// [`PHASES`]): up if the destination row is not below, right if the
/// destination column is not to the left.
pub fn phase_of(cols: u32, src: u32, dest: u32) -> usize {
    let (up, right) = (dest / cols <= src / cols, dest % cols >= src % cols);
    match (up, right) {
        (true, true) => 0,
        (true, false) => 1,
        (false, true) => 2,
        (false, false) => 3,
    }
}

/// One phase's leveled network on an R×C mesh.
#[derive(Debug, Clone, Copy)]
pub struct MeshPhase {
    name: &'static str,
    rows: u32,
    cols: u32,
    up: bool,
    right: bool,
}

// Grid ports (SPEC §2 numbering, `topology::grid`): 2·dim + (negative),
// dimension 0 the row, 1 the column.
const ROW_DOWN: u32 = 0;
const ROW_UP: u32 = 1;
const COL_RIGHT: u32 = 2;
const COL_LEFT: u32 = 3;

impl MeshPhase {
    /// Phase `k` of [`PHASES`] on an R×C mesh.
    pub fn new(rows: u32, cols: u32, k: usize) -> MeshPhase {
        let (name, up, right) = PHASES[k];
        MeshPhase {
            name,
            rows,
            cols,
            up,
            right,
        }
    }

    /// The phase's name (`up-right`, …).
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// The level of node (row, col): its distance from the phase's starting corner.
    fn level_of(&self, row: u32, col: u32) -> u32 {
        let r = if self.up { self.rows - 1 - row } else { row };
        let c = if self.right { col } else { self.cols - 1 - col };
        r + c
    }

    /// The number of nodes of [`MeshPhase::path`]: the distance plus one.
    pub fn path_len(&self, src: u32, dest: u32) -> u64 {
        let (r, c) = (src / self.cols, src % self.cols);
        let (dr, dc) = (dest / self.cols, dest % self.cols);
        (r.abs_diff(dr) + c.abs_diff(dc)) as u64 + 1
    }

    /// The path from `src` to `dest` as nodes: the column to the destination
    /// row, then the row to the destination column.
    pub fn path(&self, src: u32, dest: u32, out: &mut Vec<u32>) {
        let (mut r, c) = (src / self.cols, src % self.cols);
        let (dr, dc) = (dest / self.cols, dest % self.cols);
        out.push(src);
        while r != dr {
            r = if self.up { r - 1 } else { r + 1 };
            out.push(r * self.cols + c);
        }
        let mut c = c;
        while c != dc {
            c = if self.right { c + 1 } else { c - 1 };
            out.push(r * self.cols + c);
        }
    }
}

impl Description for MeshPhase {
    fn count(&self) -> u32 {
        self.rows * self.cols
    }
    fn level(&self, v: u32) -> u32 {
        self.level_of(v / self.cols, v % self.cols)
    }
    fn host(&self, v: u32) -> u32 {
        v
    }
    fn out_edges(&self, v: u32, out: &mut Vec<OutEdge>) {
        let (r, c) = (v / self.cols, v % self.cols);
        let vertical = if self.up {
            (r > 0).then(|| (v - self.cols, ROW_UP))
        } else {
            (r + 1 < self.rows).then(|| (v + self.cols, ROW_DOWN))
        };
        let horizontal = if self.right {
            (c + 1 < self.cols).then(|| (v + 1, COL_RIGHT))
        } else {
            (c > 0).then(|| (v - 1, COL_LEFT))
        };
        for (head, port) in [vertical, horizontal].into_iter().flatten() {
            out.push(OutEdge { head, port, substep: 0 });
        }
    }
}
