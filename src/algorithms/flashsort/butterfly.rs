//! Flashsort's recursion on `butterfly:D` (and `hypercube:D` through its
//! emulated butterfly): the groups of phases of [`super`]'s module doc,
//! planned one at a time by [`plan::level`] and [`plan::leaf`].

pub use super::driver::Target;
use super::driver::{most_per_node, Driver, FINAL, PLACE};
use super::host::Host;
use super::plan::{self, Holdings};
use super::{LEAF_LEVELS, LIGHT_OVERSAMPLE_LOG, LIGHT_STRATA_EXTRA, OVERSAMPLE_LOG};
use crate::algorithms::lmrr::leveled::Description;
use crate::engine::Engine;
use crate::report::FlashsortLevel;

/// Where the recursion goes next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Next {
    /// A recursion level at level k of the butterfly.
    Level(u32),
    /// The leaves at level k.
    Leaf(u32),
    Done,
}

/// The butterfly recursion's state.
#[derive(Clone)]
pub struct Butterfly {
    pub host: Host,
    keys: Vec<u64>,
    active: Vec<u32>,
    next: Next,
    target: Target,
}

impl Butterfly {
    /// The recursion on `host` for the packets `active` with `keys`: the
    /// sort of all keys, ranks to rows, delivered at the end.
    pub fn new(host: Host, keys: Vec<u64>, active: Vec<u32>) -> Butterfly {
        Butterfly::sort(host, keys, active, Target::all())
    }

    /// The recursion for the packets `active`, placed as `target` says.
    pub fn sort(host: Host, keys: Vec<u64>, active: Vec<u32>, target: Target) -> Butterfly {
        Butterfly {
            host,
            keys,
            active,
            next: Next::Level(0),
            target,
        }
    }

    /// Plans the next group of phases; false when the sort is planned out.
    pub fn plan_next(&mut self, dr: &mut Driver, engine: &Engine) -> bool {
        let host = &self.host;
        let d = host.dim();
        let n = 1u32 << d;
        match self.next {
            Next::Done => false,
            Next::Level(k) if d - k <= LEAF_LEVELS => {
                self.next = Next::Leaf(k);
                true
            }
            Next::Level(k) => {
                let m = d - k;
                let slots = self.target.slots;
                let (h, b) = if slots {
                    // About half the strata's drawn nodes hold a packet.
                    let h = (m.div_ceil(2) + LIGHT_STRATA_EXTRA).min(m);
                    (
                        h,
                        (h.saturating_sub(1 + LIGHT_OVERSAMPLE_LOG)).clamp(1, m - LEAF_LEVELS),
                    )
                } else {
                    let h = m.div_ceil(2);
                    (h, h.saturating_sub(OVERSAMPLE_LOG).clamp(1, m - LEAF_LEVELS))
                };
                let lv = plan::Level { dim: d, k, h, b, slots };
                let ctx = match self.target.context.as_str() {
                    "" => String::new(),
                    c => format!("{c}, "),
                };
                let hold = Holdings::of(engine, host, k, &self.active, &self.keys);
                let plan = plan::level(lv, host, &hold, &mut dr.rng);
                let t = dr.levels.len() + 1;
                let count = match k {
                    0 => "1 subbutterfly".to_string(),
                    _ => format!("{} subbutterflies", 1u32 << k),
                };
                let what = format!("recursion level {t}: {count} of {} inputs", 1u32 << m);
                // Lightly loaded, up to level D and down to k + b (the slot
                // changes the low bits); else b levels up.
                let (up_down, climb) = (host.up_down(k, k + b), host.climb());
                let net: &dyn Description = if slots { &up_down } else { &climb };
                let packets: Vec<(u32, Vec<u32>)> = (plan.moves.iter())
                    .map(|&(p, row)| {
                        let from = engine.position(p) % n;
                        let path = match slots {
                            true => up_down.path(from, row),
                            false => host.climb_path(k, from, k + b, row),
                        };
                        (p, path)
                    })
                    .collect();
                let routing = dr.routing(engine, net, &packets);
                dr.levels.push(FlashsortLevel {
                    level: k,
                    inputs: 1 << m,
                    candidates: plan.candidates,
                    intervals: 1 << b,
                    input_load: most_per_node(plan.moves.iter().map(|&(_, row)| row)),
                    congestion: routing.as_ref().map_or(0, |r| r.1),
                    route_steps: 0,
                    delay: 0,
                    steps: 0,
                });
                let at = Some(dr.levels.len() - 1);
                dr.push_control(format!("candidates {t} ({ctx}{what})"), plan.rank_steps, at);
                dr.push_control(format!("splitters {t} ({ctx}{what})"), plan.spread_steps, at);
                dr.push_control(format!("slots {t} ({ctx}{what})"), plan.slot_steps, at);
                if let Some((s, _, _)) = routing {
                    let name = format!("intervals {t} ({ctx}{what}, into {} intervals each)", 1u32 << b);
                    let distance = if slots { 2 * m - b } else { b };
                    dr.push_route(name, s, at, distance);
                }
                self.next = Next::Level(k + b);
                true
            }
            Next::Leaf(k) => {
                let hold = Holdings::of(engine, host, k, &self.active, &self.keys);
                let plan = plan::leaf(k, host, &hold);
                let target = &mut self.target;
                let named = |name: &str| match target.context.as_str() {
                    "" => name.to_string(),
                    c => format!("{name} ({c})"),
                };
                dr.push_control(named("leaf-sort"), plan.rank_steps, None);
                dr.push_control(named("offsets"), plan.offset_steps, None);
                let net = host.final_route(k);
                let goal = |g: u32| target.lo + g;
                // A packet at its rank's node has no edge to take (and is
                // delivered with the phase before, on the last sort).
                let packets: Vec<(u32, Vec<u32>)> = (plan.ranks.iter())
                    .map(|&(p, g)| {
                        debug_assert!(
                            !target.last || engine.destination(p) == goal(g),
                            "the rank's row at level 0"
                        );
                        (p, net.path(engine.position(p) % n, goal(g)))
                    })
                    .collect();
                if target.last {
                    let home: Vec<u32> = (plan.ranks.iter())
                        .filter(|&&(p, _)| engine.position(p) == engine.destination(p))
                        .map(|&(p, _)| p)
                        .collect();
                    if let Some(last) = dr.queue.back_mut() {
                        last.home = home;
                    }
                }
                let name = named(if target.last { FINAL } else { PLACE });
                if let Some((s, _, _)) = dr.routing(engine, &net, &packets) {
                    dr.push_route(name, s, None, 0);
                }
                self.next = Next::Done;
                true
            }
        }
    }
}
