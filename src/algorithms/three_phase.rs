//! The column–row–column schedule shared by `rand-interval`, `offline` and
//! `sort-route` on an R×C mesh (permutation lecture, "Randomized
//! permutation routing" Phases 1b–3 and "Off-line permutation routing"
//! Phases 2–4):
//!
//! 1. every packet moves inside its column to a row chosen by the algorithm
//!    (a random row of its interval; the colour of its matching);
//! 2. along that row to its destination column;
//! 3. along the destination column to its destination row.
//!
//! A [`PhasePlan`] for the [`Phased`] driver (barriers by default, or
//! pipelined; see `phased.rs`). A packet's class is its phase.
//!
//! # Complexity
//! O(packets) per phase change; O(arrivals) per step when pipelined.

use super::phased::{PhaseNo, PhasePlan, Phased};
use crate::engine::Engine;

/// The three phases of the schedule, driven from an algorithm's `start` and
/// `before_step` (permutation lecture, Phases 1b–3 of the randomized
/// algorithm, Phases 2–4 of the off-line one).
pub(crate) type ThreePhase = Phased<ColumnRowColumn>;

/// The plan of [`ThreePhase`].
#[derive(Debug, Clone)]
pub(crate) struct ColumnRowColumn {
    names: [&'static str; 3],
    /// Phase-1 row of every packet.
    rows: Vec<u32>,
    /// Columns of the mesh (node id = row·cols + col, SPEC §2).
    cols: u32,
}

impl ThreePhase {
    /// A schedule in which packet `p` first moves to row `rows[p]` of its
    /// source column; `names` are the phases' report names.
    pub(crate) fn three_phase(names: [&'static str; 3], rows: Vec<u32>, cols: u32, pipeline: bool) -> Self {
        Phased::new(ColumnRowColumn { names, rows, cols }, pipeline)
    }
}

impl ColumnRowColumn {
    /// Sets the phase-1 row of `p` (open-loop traffic: a new packet).
    pub(crate) fn set_row(&mut self, p: u32, row: u32) {
        let i = p as usize;
        if self.rows.len() <= i {
            self.rows.resize(i + 1, 0);
        }
        self.rows[i] = row;
    }
}

impl PhasePlan for ColumnRowColumn {
    fn count(&self) -> PhaseNo {
        3
    }

    fn name(&self, phase: PhaseNo) -> &str {
        self.names[phase as usize]
    }

    fn pipelined_name(&self) -> &str {
        "pipelined"
    }

    fn target(&self, engine: &Engine, p: u32, phase: PhaseNo) -> u32 {
        let (pos, dest) = (engine.position(p), engine.destination(p));
        match phase {
            0 => self.rows[p as usize] * self.cols + pos % self.cols,
            1 => pos - pos % self.cols + dest % self.cols,
            _ => dest,
        }
    }

    fn class(&self, _p: u32, phase: PhaseNo) -> u8 {
        phase as u8
    }
}
