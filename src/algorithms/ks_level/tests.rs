//! The plan's unit tests: roles per phase, draws, Theorem 1's condition and
//! the superior packets' draws.

use super::superior::superior_range;
use super::{improved, LevelPlan, Role, Version};
use crate::topology::{Network, Topology};

fn plan_of(topo: &str, k: u32, eps: u32, version: Version) -> LevelPlan {
    let topo: Topology = topo.parse().unwrap();
    let g = topo.as_grid().unwrap();
    let sources: Vec<u32> = (0..2000).map(|p| p % g.nodes()).collect();
    LevelPlan::new(g, &sources, k, eps, version, 3)
}

fn plan(topo: &str, k: u32, eps: u32, better: bool) -> LevelPlan {
    plan_of(topo, k, eps, if better { Version::Improved } else { Version::Basic })
}

#[test]
fn every_level_randomizes_once_then_crosses_then_goes_home() {
    for better in [false, true] {
        let p = plan("mesh:16x16", 8, 8, better);
        for l in 1..=4 {
            let roles: Vec<Role> = (0..p.names.len() as u16).map(|ph| p.role(l, ph)).collect();
            let moving: Vec<Role> = roles.iter().copied().filter(|&r| r != Role::Stay).collect();
            assert_eq!(
                moving,
                [Role::Randomize, Role::Cross, Role::Home],
                "level {l}, improved {better}"
            );
            let at = |r| roles.iter().position(|&x| x == r).unwrap();
            // Pass l routes level l across, pass l + 1 takes it home.
            assert_eq!(p.names[at(Role::Cross)], format!("pass{l}-route"));
            assert_eq!(p.names[at(Role::Home)], format!("pass{}-route", l + 1));
        }
    }
    assert_eq!(plan("mesh:16x16", 8, 2, false).names.len(), 9);
    let p = plan("mesh:16x16", 8, 8, true);
    // h = min(2n/ε, k/2 − 1) = 3 levels in the slack of pass 1.
    assert_eq!((p.names.len(), p.first_slack), (6, 2));
}

#[test]
fn draws_stay_in_the_strip_and_levels_in_range() {
    let p = plan("mesh:16x16", 6, 5, false);
    for i in 0..2000 {
        let source = (i % 256) as u32;
        let own = if p.colour[i] == 0 { source / 16 } else { source % 16 };
        // Strips of 5 on 16: 0–4, 5–9, 10–15 (the last partial one merged).
        let strip = |c: u32| (c / 5).min(2);
        assert_eq!(strip(p.draw[i]), strip(own));
        assert!((1..=3).contains(&p.level[i]));
    }
}

#[test]
fn theorem_1_s_condition() {
    assert!(improved(8, 8, 16) && !improved(8, 7, 16) && !improved(2, 16, 16));
}

#[test]
fn superior_packets_draw_towards_the_centre_and_the_rest_as_without() {
    for (topo, eps) in [("mesh:16x16", 2u32), ("mesh:15x12", 3), ("mesh:13x13", 6)] {
        let t: Topology = topo.parse().unwrap();
        let g = t.as_grid().unwrap();
        let basic = plan_of(topo, 6, eps, Version::Basic);
        let sup = plan_of(topo, 6, eps, Version::Superior);
        assert_eq!((&basic.level, &basic.colour), (&sup.level, &sup.colour));
        let mut superior = 0;
        for i in 0..2000usize {
            let source = (i as u32) % g.nodes();
            let axis = sup.colour[i] as usize;
            let (x, y) = (g.coord(source, axis), g.coord(source, 1 - axis));
            let (s, t) = (g.dims()[axis], g.dims()[1 - axis]);
            let corner = (x < eps || x >= s - eps) && (y < eps || y >= t - eps);
            match superior_range(g, source, axis, eps) {
                None => {
                    assert!(!corner);
                    assert_eq!(sup.draw[i], basic.draw[i], "an inferior packet draws as without");
                }
                Some((lo, hi)) => {
                    assert!(corner);
                    superior += 1;
                    // 1-based rows ε + 1 … n/2 and n − ε … n/2 + 1.
                    if x < eps {
                        assert_eq!((lo, hi), (eps, s.div_ceil(2) - 1));
                    } else {
                        assert_eq!((lo, hi), (s / 2, s - 1 - eps));
                        assert_eq!(s - 1 - lo, s.div_ceil(2) - 1, "the ranges mirror");
                    }
                    assert!(
                        (lo..=hi).contains(&sup.draw[i]),
                        "{topo}: {} not in {lo}..={hi}",
                        sup.draw[i]
                    );
                }
            }
        }
        assert!(superior > 0);
        // One phase per pass: a′ and b′ (two legs), then the last pass's b.
        assert_eq!(
            sup.names,
            [
                "pass1-randomize-route",
                "pass2-randomize-route",
                "pass3-randomize-route",
                "pass4-route"
            ]
        );
        for l in 1..=3 {
            let roles: Vec<Role> = (0..4).map(|ph| sup.role(l, ph)).collect();
            let mut want = vec![Role::Stay; 4];
            want[l as usize - 1] = Role::Pass;
            want[l as usize] = Role::Home;
            assert_eq!(roles, want);
        }
    }
}
