//! Flashsort's recursion on `butterfly:D` (and `hypercube:D` through its
//! emulated butterfly): the groups of phases of [`super`]'s module doc,
//! planned one at a time by [`plan::level`] and [`plan::leaf`].

use super::driver::{Driver, FINAL};
use super::host::Host;
use super::plan::{self, Holdings};
use super::{LEAF_LEVELS, OVERSAMPLE_LOG};
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
}

impl Butterfly {
    /// The recursion on `host` for the packets `active` with `keys`.
    pub fn new(host: Host, keys: Vec<u64>, active: Vec<u32>) -> Butterfly {
        Butterfly {
            host,
            keys,
            active,
            next: Next::Level(0),
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
                let h = m.div_ceil(2);
                let b = h.saturating_sub(OVERSAMPLE_LOG).clamp(1, m - LEAF_LEVELS);
                let lv = plan::Level { dim: d, k, h, b };
                let hold = Holdings::of(engine, host, k, &self.active, &self.keys);
                let plan = plan::level(lv, host, &hold, &mut dr.rng);
                let t = dr.levels.len() + 1;
                let count = match k {
                    0 => "1 subbutterfly".to_string(),
                    _ => format!("{} subbutterflies", 1u32 << k),
                };
                let what = format!("recursion level {t}: {count} of {} inputs", 1u32 << m);
                let net = host.climb();
                let packets: Vec<(u32, Vec<u32>)> = plan
                    .moves
                    .iter()
                    .map(|&(p, row)| (p, host.climb_path(k, engine.position(p) % n, k + b, row)))
                    .collect();
                let routing = dr.routing(engine, &net, &packets);
                dr.levels.push(FlashsortLevel {
                    level: k,
                    inputs: 1 << m,
                    candidates: plan.candidates,
                    intervals: 1 << b,
                    congestion: routing.as_ref().map_or(0, |r| r.1),
                    route_steps: 0,
                    delay: 0,
                    steps: 0,
                });
                let at = Some(dr.levels.len() - 1);
                dr.push_control(format!("candidates {t} ({what})"), plan.rank_steps, at);
                dr.push_control(format!("splitters {t} ({what})"), plan.spread_steps, at);
                if let Some((s, _, _)) = routing {
                    let name = format!("intervals {t} ({what}, into {} intervals each)", 1u32 << b);
                    dr.push_route(name, s, at, b);
                }
                self.next = Next::Level(k + b);
                true
            }
            Next::Leaf(k) => {
                let hold = Holdings::of(engine, host, k, &self.active, &self.keys);
                let plan = plan::leaf(k, host, &hold);
                dr.push_control("leaf-sort".into(), plan.rank_steps, None);
                dr.push_control("offsets".into(), plan.offset_steps, None);
                let net = host.final_route(k);
                let packets: Vec<(u32, Vec<u32>)> = plan
                    .ranks
                    .iter()
                    .map(|&(p, g)| {
                        debug_assert_eq!(engine.destination(p), g, "the rank's row at level 0");
                        (p, net.path(engine.position(p) % n, g))
                    })
                    .collect();
                let home = plan
                    .ranks
                    .iter()
                    .filter(|&&(p, _)| engine.position(p) == engine.destination(p))
                    .map(|&(p, _)| p)
                    .collect();
                if let Some(last) = dr.queue.back_mut() {
                    last.home = home;
                }
                if let Some((s, _, _)) = dr.routing(engine, &net, &packets) {
                    dr.push_route(FINAL.into(), s, None, 0);
                }
                self.next = Next::Done;
                true
            }
        }
    }
}
