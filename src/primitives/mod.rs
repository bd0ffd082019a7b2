//! Mesh primitives that drive the engine step by step: the "standard
//! primitives" Pietracaprina–Pucci build on (§3, proofs of Theorems 2 and 4;
//! §4, proof of Theorem 5), reusable by any mesh algorithm.
//!
//! | primitive | file | cost on an m×m region |
//! | --- | --- | --- |
//! | tiles, tile cycles, Hamiltonian cycles in tiles, snake order | geometry.rs | — |
//! | control-message sweeps (counters, pipelined) | sweep.rs | path length + width |
//! | pipelined prefix ranking, counters carrying their values (§4) | ranking.rs | 3m + width (blocks of side u: 3m + u + 2·width; inside stripes of h rows, group after group: 2m + 3h + width) |
//! | prefix sums / ranking (row-major, blocked, snake; segmented); two-pass row-major and blocked sums of many counters | scan.rs | ≈ 3m; two-pass 2m (blocked 2m + 2u, + 2m for the totals) |
//! | snake-order merge sort (Schimmler / LS3 style), buckets of c slots, rounds pipelined | sort.rs | ≈ 7·c·m |
//! | sorting networks whose packets walk (butterfly, shuffle-exchange): meets two links apart, moves, keys ahead | sort_walk.rs | rounds + the key steps not overlapped |
//! | targeted routing, blockwise shift, (c,c)-routing by sorting | route.rs | sort + O(c·m) |
//! | tours and greedy balancing on cycles, farthest first | ring.rs | O(cycle + load) |
//! | queue smearing along grid lines, blocks of m nodes (any grid) | smear.rs | m − 1 + the moves, O(m) |
//!
//! Nothing is computed off-stage and teleported: packets move only through
//! the engine (its routing, or scripted `force_move`s), and every counter or
//! key crosses links as a control message (SPEC §1). A task's results
//! (ranks, positions) may be used only once it has finished.

pub mod geometry;
pub mod ranking;
pub mod ring;
pub mod route;
pub mod scan;
pub mod smear;
pub mod sort;
pub mod sort_walk;
pub mod sweep;

pub use geometry::{Mesh, Tiles};

use crate::engine::Engine;

/// A primitive in progress, driven once before every engine step. Tasks
/// are `Clone` (through [`TaskClone`]), as the algorithms that hold them.
pub trait Task: TaskClone {
    /// Schedules this step's moves and messages and returns true, or returns
    /// false (scheduling nothing) when the task is over.
    fn poll(&mut self, e: &mut Engine) -> bool;

    /// Whether the task is over as the engine stands: its next `poll`
    /// would return false and schedule nothing. A task that cannot tell
    /// without polling says false (the default), and an algorithm then
    /// learns of its end only by polling, as the next step opens.
    fn over(&self, _e: &Engine) -> bool {
        false
    }

    /// Whether the task names its own (sub-)phases with `begin_phase`.
    fn names_phases(&self) -> bool {
        false
    }
}

/// Copies a task behind `Box<dyn Task>`: implemented for every `Task +
/// Clone`, so a task only derives `Clone`.
pub trait TaskClone {
    /// A boxed copy of `self`, in the same state.
    fn clone_box(&self) -> Box<dyn Task>;
}

impl<T: Task + Clone + 'static> TaskClone for T {
    fn clone_box(&self) -> Box<dyn Task> {
        Box::new(self.clone())
    }
}

impl Clone for Box<dyn Task> {
    fn clone(&self) -> Self {
        self.clone_box()
    }
}

/// A task that does nothing (for steps that turn out empty).
#[derive(Clone)]
pub struct Nothing;

impl Task for Nothing {
    fn poll(&mut self, _e: &mut Engine) -> bool {
        false
    }

    fn over(&self, _e: &Engine) -> bool {
        true
    }
}

/// Tasks running side by side (e.g. one per region, each with its own
/// duration); over when all of them are.
#[derive(Clone)]
pub struct Parallel(pub Vec<Box<dyn Task>>);

impl Task for Parallel {
    fn poll(&mut self, e: &mut Engine) -> bool {
        let mut any = false;
        for t in &mut self.0 {
            any |= t.poll(e);
        }
        any
    }

    fn over(&self, e: &Engine) -> bool {
        self.0.iter().all(|t| t.over(e))
    }
}
