//! Flashsort on a d-dimensional mesh (Leighton–Maggs–Ranade–Rao §10; the
//! text is lost, the design is ours: docs/algorithms/flashsort.md,
//! "d-dimensional arrays"). Keys end in row-major order: node r holds the
//! key of rank r.
//!
//! d recursion levels; level t works in every subarray of the nodes
//! sharing coordinates 0..t − 1 at once ([`array_plan::level`]):
//! `candidates t` draws a random sample and floods it through the
//! subarray (an all-gather: every node learns every candidate, so their
//! ranks and the M − 1 splitters); `intervals t` takes every packet into
//! the slab of its interval (coordinate t = the interval), scheduled by the
//! §2.2 scheduler. The last level is a line: every key is a candidate and
//! goes to the place of its rank in the line. Then `offsets` prefix-sums
//! the lines' counts ([`array_plan::offsets`]), and the keys go to their
//! ranks' nodes.
//!
//! Two loadings ([`Target::slots`]):
//! - *full* (`--loading full`): every key through one recursion; a key
//!   moves along dimension t only ([`Line`]), keys of one interval from one
//!   line pile up on one node, and `final-route j` takes every key to its
//!   rank's node one dimension j at a time;
//! - *light* (the lightly loaded sort inside Columnsort,
//!   [`super::columnsort`]): half the keys at a time, each to a node of its
//!   own in its interval's slab (`slots t`, [`array_plan::scan`]), routed
//!   monotonely in all the subarray's dimensions at once
//!   ([`array_plan::Orthants`]), and placed on their positions by one
//!   such routing (`place`).
//!
//! # Complexity
//! See [`array_plan`]; each routing step is the scheduler's O(N) on its
//! leveled network.

use super::array_plan::{self, Line, Orthants};
use super::driver::{most_per_node, Driver, Target, FINAL, PLACE};
use crate::algorithms::lmrr::scheduler::Scheduler;
use crate::engine::Engine;
use crate::report::FlashsortLevel;
use crate::topology::{Grid, Network};

/// Where the recursion goes next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// Recursion level t.
    Level(usize),
    /// The full loading's final routing along dimension j.
    Final(usize),
    /// The light loading's one routing to the positions.
    Place,
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
    target: Target,
    /// (packet, its rank among the sort's), known after the last level.
    ranks: Vec<(u32, u32)>,
}

/// Routes every (packet, node) of `moves` monotonely within the subarrays
/// of level `t`: one routing per pair of opposite orthants that has a
/// packet to move, in order ([`Orthants`]).
pub fn orthant_routings(
    dr: &mut Driver,
    engine: &Engine,
    grid: &Grid,
    t: usize,
    moves: &[(u32, u32)],
) -> Vec<(Scheduler, u32, u32)> {
    let rounds = Orthants::rounds(grid, t);
    let nets: Vec<Orthants> = (0..rounds).map(|r| Orthants::new(grid, t, r)).collect();
    let mut paths = vec![Vec::new(); rounds as usize];
    for &(p, to) in moves {
        let from = engine.position(p);
        let (round, copy) = Orthants::round_of(grid, t, from, to);
        paths[round as usize].push((p, nets[round as usize].path(copy, from, to)));
    }
    nets.iter()
        .zip(&paths)
        .filter_map(|(net, paths)| dr.routing(engine, net, paths))
        .collect()
}

/// Queues `routings` as phases named `name (context, what)`, with
/// `part i of n` when there are several.
pub fn push_parts(
    dr: &mut Driver,
    target: &Target,
    name: &str,
    what: &str,
    routings: Vec<(Scheduler, u32, u32)>,
    level: Option<usize>,
) {
    let parts = routings.len();
    for (i, (s, _, l)) in routings.into_iter().enumerate() {
        let what = match (parts, what) {
            (1, w) => w.to_string(),
            (_, "") => format!("part {} of {parts}", i + 1),
            (_, w) => format!("{w}, part {} of {parts}", i + 1),
        };
        dr.push_route(target.named(name, &what), s, level, l);
    }
}

impl Array {
    /// The full loading's recursion on `grid` for the packets `active` with
    /// `keys`, s = `oversample`: ranks to nodes, delivered at the end.
    pub fn new(grid: Grid, keys: Vec<u64>, active: Vec<u32>, oversample: u32) -> Array {
        Array::sort(grid, keys, active, oversample, Target::all())
    }

    /// The recursion for the packets `active`, placed as `target` says.
    pub fn sort(grid: Grid, keys: Vec<u64>, active: Vec<u32>, oversample: u32, target: Target) -> Array {
        Array {
            grid,
            keys,
            active,
            oversample,
            next: Next::Level(0),
            target,
            ranks: Vec::new(),
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
        let target = &self.target;
        match self.next {
            Next::Done => false,
            Next::Level(t) => {
                let mut at = vec![Vec::new(); grid.nodes() as usize];
                for &p in &self.active {
                    at[engine.position(p) as usize].push(p);
                }
                let slots = target.slots;
                let plan = array_plan::level(grid, t, &at, &self.keys, self.oversample, slots, &mut dr.rng);
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
                // Where each packet stands after the routing: the node of
                // its interval's slab (its slot's, with slots), on the last
                // level its node of the line.
                let after = &plan.moves;
                let routings = if last || !slots {
                    let line = Line::new(grid, t);
                    let paths: Vec<(u32, Vec<u32>)> = after
                        .iter()
                        .map(|&(p, to)| (p, line.path(engine.position(p), grid.coord(to, t))))
                        .collect();
                    dr.routing(engine, &line, &paths).into_iter().collect()
                } else {
                    orthant_routings(dr, engine, grid, t, after)
                };
                dr.levels.push(FlashsortLevel {
                    level: t as u32,
                    inputs: size,
                    candidates: plan.candidates,
                    intervals: m,
                    input_load: most_per_node(after.iter().map(|&(_, v)| v)),
                    congestion: routings.iter().map(|r| r.1).max().unwrap_or(0),
                    route_steps: 0,
                    delay: 0,
                    steps: 0,
                });
                let level = Some(dr.levels.len() - 1);
                let every = if last { ", every key a candidate" } else { "" };
                dr.push_relay(
                    target.named(&format!("candidates {n}"), &format!("{what}{every}")),
                    plan.gather,
                    level,
                );
                if slots && !last {
                    let name = target.named(
                        &format!("slots {n}"),
                        &format!("{what}: each key's place among its interval's keys"),
                    );
                    dr.push_control(name, array_plan::scan(grid, t, m), level);
                }
                let into = if last {
                    format!("{what}, each key to its rank's place in its line")
                } else if slots {
                    format!("{what}, into {m} intervals along dimension {n}, each key to its slot")
                } else {
                    format!("{what}, into {m} intervals along dimension {n}")
                };
                push_parts(dr, target, &format!("intervals {n}"), &into, routings, level);
                if !last {
                    self.next = Next::Level(n);
                    return true;
                }
                let goal = |rank: u32| target.lo + rank;
                for &(p, g) in &plan.ranks {
                    debug_assert!(
                        !target.last || engine.destination(p) == goal(g),
                        "node r holds the key of rank r"
                    );
                }
                dr.push_control(target.named("offsets", ""), array_plan::offsets(grid), None);
                if target.last {
                    let home = (plan.ranks.iter().zip(after))
                        .filter(|&(&(_, g), &(_, v))| v == goal(g))
                        .map(|(&(p, _), _)| p)
                        .collect();
                    if let Some(offsets) = dr.queue.back_mut() {
                        offsets.home = home;
                    }
                }
                self.ranks = plan.ranks;
                self.next = if slots { Next::Place } else { Next::Final(0) };
                true
            }
            Next::Place => {
                let moves: Vec<(u32, u32)> = (self.ranks.iter())
                    .map(|&(p, g)| (p, target.lo + g))
                    .filter(|&(p, to)| engine.position(p) != to)
                    .collect();
                let routings = orthant_routings(dr, engine, grid, 0, &moves);
                let name = if target.last { FINAL } else { PLACE };
                push_parts(dr, target, name, "", routings, None);
                self.next = Next::Done;
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
