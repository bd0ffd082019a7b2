//! Flashsort on a d-dimensional mesh (Leighton–Maggs–Ranade–Rao §10; the
//! text is lost, the design is ours: docs/algorithms/flashsort.md,
//! "d-dimensional arrays"). Keys end in row-major order: node r holds the
//! key of rank r.
//!
//! d recursion levels; level t works in every subarray of the nodes
//! sharing coordinates 0..t − 1 at once ([`array_plan::level`]):
//! `candidates t` draws a random sample and floods it through the
//! subarray (an all-gather: every node learns every candidate, so their
//! ranks and the M − 1 splitters); `intervals t` takes every packet along
//! dimension t to the coordinate of its interval, scheduled by the §2.2
//! scheduler on the [`Line`] network. The last level is a line: every key
//! is a candidate and goes to the place of its rank in the line. Then
//! `offsets` prefix-sums the lines' counts ([`array_plan::offsets`]), and
//! `final-route j` takes every packet to its rank's node along dimension
//! j, for j = 1..d.
//!
//! # Complexity
//! See [`array_plan`]; each routing step is the scheduler's O(N) on the
//! line network.

use super::array_plan::{self, Line};
use super::driver::{most_per_node, Driver, FINAL};
use crate::engine::Engine;
use crate::report::FlashsortLevel;
use crate::topology::{Grid, Network};

/// Where the recursion goes next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Recursion level t (routing along dimension t).
    Level(usize),
    /// The final routing along dimension j.
    Final(usize),
    Done,
}

/// The array recursion's state.
#[derive(Clone)]
pub struct Array {
    pub grid: Grid,
    keys: Vec<u64>,
    active: Vec<u32>,
    oversample: u32,
    next: Next,
}

impl Array {
    /// The recursion on `grid` for the packets `active` with `keys`, s = `oversample`.
    pub fn new(grid: Grid, keys: Vec<u64>, active: Vec<u32>, oversample: u32) -> Array {
        Array {
            grid,
            keys,
            active,
            oversample,
            next: Next::Level(0),
        }
    }

    /// Why Flashsort does not run on this mesh, if it does not.
    pub fn refusal(grid: &Grid) -> Option<String> {
        let dims = grid.dims();
        if dims.len() < 2 || dims.iter().any(|&s| s < 2) {
            let sides: Vec<String> = dims.iter().map(u32::to_string).collect();
            return Some(format!(
                "runs on meshes of 2 or more dimensions with every side at least 2, got mesh:{}",
                sides.join("x")
            ));
        }
        None
    }

    /// Plans the next group of phases; false when the sort is planned out.
    pub fn plan_next(&mut self, dr: &mut Driver, engine: &Engine) -> bool {
        let grid = &self.grid;
        let dims = grid.dims();
        let d = dims.len();
        match self.next {
            Next::Done => false,
            Next::Level(t) => {
                let mut at = vec![Vec::new(); grid.nodes() as usize];
                for &p in &self.active {
                    at[engine.position(p) as usize].push(p);
                }
                let plan = array_plan::level(grid, t, &at, &self.keys, self.oversample, &mut dr.rng);
                let (m, size) = (dims[t], array_plan::block(grid, t));
                let blocks = grid.nodes() / size;
                let last = t + 1 == d;
                let n = t + 1;
                let what = if last {
                    format!("recursion level {n}: {blocks} lines of {m} nodes")
                } else {
                    let shape: Vec<String> = dims[t..].iter().map(u32::to_string).collect();
                    let plural = if blocks == 1 { "" } else { "s" };
                    format!("recursion level {n}: {blocks} subarray{plural} of {}", shape.join("×"))
                };
                let line = Line::new(grid, t);
                let stride = grid.stride(t);
                // Where each packet stands after the routing.
                let mut after = Vec::with_capacity(plan.moves.len());
                let packets: Vec<(u32, Vec<u32>)> = plan
                    .moves
                    .iter()
                    .map(|&(p, c)| {
                        let v = engine.position(p);
                        after.push((p, v - grid.coord(v, t) * stride + c * stride));
                        (p, line.path(v, c))
                    })
                    .collect();
                let routing = dr.routing(engine, &line, &packets);
                dr.levels.push(FlashsortLevel {
                    level: t as u32,
                    inputs: size,
                    candidates: plan.candidates,
                    intervals: m,
                    input_load: most_per_node(after.iter().map(|&(_, v)| v)),
                    congestion: routing.as_ref().map_or(0, |r| r.1),
                    route_steps: 0,
                    delay: 0,
                    steps: 0,
                });
                let level = Some(dr.levels.len() - 1);
                let every = if last { ", every key a candidate" } else { "" };
                dr.push_control(format!("candidates {n} ({what}{every})"), plan.gather, level);
                if let Some((s, _, l)) = routing {
                    let name = if last {
                        format!("intervals {n} ({what}, each key to its rank's place in its line)")
                    } else {
                        format!("intervals {n} ({what}, into {m} intervals along dimension {n})")
                    };
                    dr.push_route(name, s, level, l);
                }
                if !last {
                    self.next = Next::Level(n);
                    return true;
                }
                for &(p, g) in &plan.ranks {
                    debug_assert_eq!(engine.destination(p), g, "node r holds the key of rank r");
                }
                dr.push_control("offsets".into(), array_plan::offsets(grid), None);
                let home = after
                    .iter()
                    .filter(|&&(p, v)| v == engine.destination(p))
                    .map(|&(p, _)| p)
                    .collect();
                if let Some(offsets) = dr.queue.back_mut() {
                    offsets.home = home;
                }
                self.next = Next::Final(0);
                true
            }
            Next::Final(j) => {
                let line = Line::new(grid, j);
                let packets: Vec<(u32, Vec<u32>)> = self
                    .active
                    .iter()
                    .map(|&p| {
                        let goal = grid.coord(engine.destination(p), j);
                        (p, line.path(engine.position(p), goal))
                    })
                    .collect();
                if let Some((s, _, l)) = dr.routing(engine, &line, &packets) {
                    let name = format!("{FINAL} {} (dimension {})", j + 1, j + 1);
                    dr.push_route(name, s, None, l);
                }
                self.next = if j + 1 < d { Next::Final(j + 1) } else { Next::Done };
                true
            }
        }
    }
}
