//! Targeted routing on the engine, blockwise shifts, and (c,c)-routing with
//! constant queues by sorting (the "(O(1),O(1))-routing" of
//! Pietracaprina–Pucci §3, proof of Theorem 2; the sorting-based routing of
//! the permutation-routing lecture).

use super::geometry::{Mesh, Tiles};
use super::sort::SortTask;
use super::Task;
use crate::engine::Engine;

/// Routes packets to targets with the engine's dimension-order routing and
/// the run's contention policy; over when all of them are at their targets
/// (a barrier). Every other packet must be ineligible; the participants are
/// made ineligible again at the end.
#[derive(Clone)]
pub struct RouteTask {
    packets: Vec<u32>,
}

impl RouteTask {
    /// Sets each `(packet, target)` and makes the packet eligible.
    pub fn new(e: &mut Engine, moves: &[(u32, u32)]) -> RouteTask {
        for &(p, t) in moves {
            e.set_target(p, t);
            e.set_eligible(p, true);
        }
        RouteTask {
            packets: moves.iter().map(|m| m.0).collect(),
        }
    }
}

impl Task for RouteTask {
    fn over(&self, e: &Engine) -> bool {
        e.unsettled() == 0
    }

    fn poll(&mut self, e: &mut Engine) -> bool {
        if !self.over(e) {
            return true;
        }
        for &p in &self.packets {
            if !e.is_delivered(p) {
                e.set_eligible(p, false);
            }
        }
        false
    }
}

/// The blockwise shift of §3.1 Step 2.(c).iii / §3.2 Step 2.(b).iii: every
/// packet moves to the same position in the next tile of the tile cycle
/// (an adjacent tile, so every packet moves straight, side/√t′ hops).
pub fn shift(e: &mut Engine, tiles: &Tiles, packets: &[u32]) -> RouteTask {
    let moves: Vec<(u32, u32)> = packets.iter().map(|&p| (p, tiles.shifted(e.position(p)))).collect();
    RouteTask::new(e, &moves)
}

/// (c,c)-routing with constant queues inside every aligned m×m region, all
/// in parallel: sort the packets by target (row-major id) into snake order
/// with buckets of c slots, then route along columns to the target row,
/// then along rows to the target (the phases of sorting-based routing).
///
/// Why queues stay constant: the packets for one target row form an
/// interval of the sorted snake, so a column holds at most a few of them
/// (≤ c·(⌈x/c⌉ + 1) if a row receives at most x·m); a linear array in which
/// every node starts with O(1) packets and receives O(1) never holds more
/// than O(1) per node with greedy routing.
#[derive(Clone)]
pub struct CcRoute {
    name: String,
    mesh: Mesh,
    targets: Vec<(u32, u32)>,
    /// Route along rows first, then along columns.
    rows_first: bool,
    stage: u32,
    announced: u32,
    current: Box<dyn Task>,
}

impl CcRoute {
    /// Routes every `(packet, target)`; packet and target must lie in the same
    /// m×m region and every node must hold at most c of the packets.
    /// Sub-phases are reported as `{name} sort`, `{name} columns`, `{name} rows`.
    /// With `presorted` the caller guarantees that the packets already are
    /// ordered so that a column holds O(1) packets for one target row (e.g.
    /// in snake order of their targets, or in few monotone runs), and the
    /// sort is skipped.
    pub fn new(
        e: &mut Engine,
        name: &str,
        mesh: Mesh,
        (m, c): (u32, u32),
        targets: Vec<(u32, u32)>,
        presorted: bool,
    ) -> CcRoute {
        let current: Box<dyn Task> = if presorted {
            Box::new(super::Nothing)
        } else {
            let items: Vec<(u32, u64)> = targets.iter().map(|&(p, t)| (p, t as u64)).collect();
            Box::new(SortTask::new(e, mesh, m, c, &items))
        };
        Self::with_sort(name, mesh, targets, current)
    }

    /// The two routing phases alone, for packets whose order already makes
    /// them an (O(1), O(1))-routing phase by phase: along columns then rows,
    /// or with `rows_first` along rows then columns (sub-phases
    /// `{name} columns` and `{name} rows`, in that order). Each phase routes
    /// every line as a linear array in which a node starts with O(1)
    /// packets and receives O(1): it takes the line's length plus O(1)
    /// steps and keeps O(1) packets at a node. The caller states why its
    /// order has that property (e.g. [`crate::algorithms::pp`]'s spreading).
    pub fn presorted(name: &str, mesh: Mesh, targets: Vec<(u32, u32)>, rows_first: bool) -> CcRoute {
        let mut route = Self::with_sort(name, mesh, targets, Box::new(super::Nothing));
        route.rows_first = rows_first;
        route
    }

    /// As [`CcRoute::new`] with a bucket size per m×m region, `bucket(r0, c0)`
    /// for the region with top-left corner (r0, c0): every region sorts with
    /// its own bucket size (and takes its own time), all in parallel.
    pub fn per_region(
        e: &mut Engine,
        name: &str,
        mesh: Mesh,
        m: u32,
        bucket: impl Fn(u32, u32) -> u32,
        targets: Vec<(u32, u32)>,
    ) -> CcRoute {
        let g = mesh.side() / m;
        let mut items: Vec<Vec<(u32, u64)>> = vec![Vec::new(); (g * g) as usize];
        for &(p, t) in &targets {
            let (r, c) = mesh.rc(e.position(p));
            items[((r / m) * g + c / m) as usize].push((p, t as u64));
        }
        let tasks: Vec<Box<dyn Task>> = (0..g * g)
            .map(|i| {
                let origin = ((i / g) * m, (i % g) * m);
                let c = bucket(origin.0, origin.1);
                Box::new(SortTask::in_region(e, mesh, origin, m, c, &items[i as usize])) as Box<dyn Task>
            })
            .collect();
        Self::with_sort(name, mesh, targets, Box::new(super::Parallel(tasks)))
    }

    fn with_sort(name: &str, mesh: Mesh, targets: Vec<(u32, u32)>, current: Box<dyn Task>) -> CcRoute {
        CcRoute {
            name: name.to_string(),
            mesh,
            current,
            targets,
            rows_first: false,
            stage: 0,
            announced: u32::MAX,
        }
    }
}

impl Task for CcRoute {
    fn names_phases(&self) -> bool {
        true
    }

    /// Over when its last routing phase (along rows, or columns with
    /// `rows_first`) is, or all are; an earlier phase that is over says
    /// nothing of the next one's packets (false).
    fn over(&self, e: &Engine) -> bool {
        self.stage > 2 || (self.stage == 2 && self.current.over(e))
    }

    fn poll(&mut self, e: &mut Engine) -> bool {
        loop {
            if self.current.poll(e) {
                if self.announced != self.stage {
                    self.announced = self.stage;
                    let sub = match (self.stage, self.rows_first) {
                        (0, _) => "sort",
                        (1, false) | (2, true) => "columns",
                        _ => "rows",
                    };
                    e.begin_phase(&format!("{} {sub}", self.name));
                }
                return true;
            }
            self.stage += 1;
            let moves: Vec<(u32, u32)> = match self.stage {
                1 => self
                    .targets
                    .iter()
                    .map(|&(p, t)| {
                        let ((tr, tc), (r, c)) = (self.mesh.rc(t), self.mesh.rc(e.position(p)));
                        (
                            p,
                            if self.rows_first {
                                self.mesh.node(r, tc)
                            } else {
                                self.mesh.node(tr, c)
                            },
                        )
                    })
                    .collect(),
                2 => self.targets.clone(),
                _ => return false,
            };
            self.current = Box::new(RouteTask::new(e, &moves));
        }
    }
}
