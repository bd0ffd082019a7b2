//! Ideal throughput (SPEC §6): the largest injection rate λ at which no
//! directed link's expected load exceeds one packet per step, computed
//! exactly from the pattern and the algorithm's routes.
//!
//! Every generated packet picks its destination by the pattern's traffic
//! matrix w(s, d) (probabilities per source), so a link's expected load is
//! λ·Σ w(s, d)·P(the route of (s, d) uses the link). The routes are walked
//! hop by hop with the topology's own next hop ([`Topology::walk_route`]):
//!
//! - `greedy`, `bit-fixing`: the deterministic dimension-order route (on
//!   the shuffle-exchange, bit fixing's classic route of D rounds,
//!   [`hypercube::se_route`]). On a
//!   ring or torus a tie (exactly half way round, SPEC §2) goes by the
//!   packet id's parity; open-loop ids are reused slots, so either way is
//!   counted with weight ½.
//! - `valiant`: the expectation over the uniformly random intermediate m
//!   is the average of the two legs' loads — a leg s → m from every
//!   generated packet and a leg m → d into every destination, m uniform
//!   over the N nodes — less what the packets whose first leg crosses
//!   their destination do not carry: they are delivered there (SPEC §1;
//!   the engine delivers on arrival), so the rest of that leg and the
//!   whole second leg are taken off again ([`valiant_delivered_early`];
//!   until 2026-11-30 they were not, and λ* was low by 0.5 % on
//!   torus:16x16 and 20 % on linear:6).
//! - `rand-interval`: the expectation over the random row of the source's
//!   column interval, each of the three legs walked, delivery on arrival
//!   included.
//!
//! Textbook values, tested: uniform traffic under dimension order on a
//! side × side mesh loads the middle links most, λ* = 4(N − 1)/(side·N) for
//! an even side and 4/side for an odd one (the cut between columns c and
//! c + 1 carries λ·(c+1)·side·(side−c−1)/(N−1)); on a torus every link
//! carries the same, λ* = 8(N − 1)/(side·N) for an even side; Valiant on
//! uniform traffic doubles the mean route, about halving λ*.
//!
//! # Complexity
//! O(pairs · route length) walks: N² for uniform traffic (N·|interval|·N
//! for rand-interval), N for a permutation (N² for valiant's legs) — except
//! for uniform traffic, where every ordered pair carries the same weight
//! (`greedy`, `bit-fixing`, and `valiant`'s two legs together). On a
//! hypercube every link then carries N/2 pairs; on a grid a link along dimension i at
//! coordinate x carries (the pairs of coordinates along i whose
//! one-dimensional route crosses it) × N/side_i pairs, since dimension
//! order fixes the other coordinates of the link's node to the source's
//! (dimensions not yet routed) or the destination's (those already routed)
//! and leaves the other end's free: O(N·d + Σ side_i²) ([`grid_all_pairs`],
//! tested equal to the walks). Valiant on a permutation is the same less
//! 1/N for each end of a pair that is a fixed point (it neither sends nor
//! receives), walked: O(|fixed points|·N·route).

use super::pattern::Destinations;
use super::Pattern;
use crate::algorithms::{greedy, hypercube, rand_interval, Intervals};
use crate::topology::{line_direction, Grid, Kind, Network, RouteOrder, Topology};

/// λ* for `algorithm` (one that accepts open-loop traffic) with the
/// pattern `dest` on `topo`: 1 ÷ the largest expected link load per unit
/// rate (infinite when no packet crosses a link).
pub fn ideal_throughput(topo: &Topology, algorithm: &str, dest: &Destinations) -> f64 {
    let max = link_loads(topo, algorithm, dest).into_iter().fold(0.0f64, f64::max);
    1.0 / max
}

/// The expected load of every directed link (`node · ports + port`) per
/// unit injection rate.
pub fn link_loads(topo: &Topology, algorithm: &str, dest: &Destinations) -> Vec<f64> {
    loads(topo, algorithm, dest, true)
}

/// [`link_loads`], with the closed forms of grids and hypercubes where every
/// ordered pair weighs alike (`closed`; see the module's complexity note),
/// or every route walked; Valiant's less what its packets delivered on
/// their first leg do not carry ([`valiant_delivered_early`]).
fn loads(topo: &Topology, algorithm: &str, dest: &Destinations, closed: bool) -> Vec<f64> {
    let mut load = whole_routes(topo, algorithm, dest, closed);
    if algorithm == hypercube::VALIANT_NAME {
        valiant_delivered_early(topo, tie_parities(topo), dest, &mut load);
    }
    load
}

/// Both tie parities on rings and tori (each with half the weight), one
/// elsewhere.
fn tie_parities(topo: &Topology) -> &'static [u32] {
    match topo.kind() {
        Kind::Ring | Kind::Torus => &[0, 1],
        _ => &[0],
    }
}

/// The loads of every route walked to its end (Valiant's two legs whole).
fn whole_routes(topo: &Topology, algorithm: &str, dest: &Destinations, closed: bool) -> Vec<f64> {
    let ports = topo.ports();
    let mut load = vec![0.0f64; (topo.nodes() * ports) as usize];
    let parities = tie_parities(topo);
    let share = 1.0 / parities.len() as f64;
    let add = |load: &mut [f64], from: u32, via: &[u32], to: u32, w: f64| {
        // Bit fixing on the shuffle-exchange: its classic route, not the
        // topology's shortest one (valiant and greedy do not run there).
        if let (Topology::ShuffleExchange(g), hypercube::BIT_FIXING_NAME) = (topo, algorithm) {
            hypercube::se_route(g, from, to, RouteOrder::Standard, |v, p| {
                load[(v * ports + p) as usize] += w;
            });
            return;
        }
        for &parity in parities {
            topo.walk_route(from, via, to, parity, RouteOrder::Standard, |v, p| {
                load[(v * ports + p) as usize] += w * share;
            });
        }
    };
    let n = topo.nodes();
    let uniform = dest.pattern() == Pattern::Uniform;
    if closed && n > 1 {
        // Every ordered pair weighs 1/(N − 1) for a direct route on uniform
        // traffic; for valiant every node sends 1 and receives 1 per unit
        // rate on uniform traffic and on a permutation but for its fixed
        // points, so both legs together weigh (1 + 1)/N on every ordered
        // pair, less 1/N for each end that is a fixed point.
        let weight = match algorithm {
            greedy::NAME | hypercube::BIT_FIXING_NAME if uniform => Some(1.0 / (n - 1) as f64),
            hypercube::VALIANT_NAME => Some(2.0 / n as f64),
            _ => None,
        };
        let all_pairs = match (topo, weight) {
            (Topology::Grid(g), Some(w)) => {
                grid_all_pairs(g, parities, w, &mut load);
                true
            }
            // Bit fixing: the pairs whose route takes the link v → v ⊕ 2^i
            // agree with v on the bits fixed before i (the destination's)
            // and after it (the source's) and differ in bit i, the other
            // end's bits free: N/2 of them, on every link.
            (Topology::Hypercube(_), Some(w)) => {
                load.iter_mut().for_each(|x| *x = w * (n / 2) as f64);
                true
            }
            _ => false,
        };
        if all_pairs {
            if !uniform {
                let per_end = 1.0 / n as f64;
                for v in (0..n).filter(|&v| dest.fixed(v)) {
                    for other in (0..n).filter(|&o| o != v) {
                        add(&mut load, v, &[], other, -per_end);
                        add(&mut load, other, &[], v, -per_end);
                    }
                }
            }
            return load;
        }
    }
    match algorithm {
        hypercube::VALIANT_NAME => {
            // Leg 1 from every source, leg 2 into every destination, each
            // with the intermediate uniform over all nodes.
            let n = topo.nodes();
            let mut out = vec![0.0f64; n as usize];
            let mut into = vec![0.0f64; n as usize];
            dest.for_each_pair(|s, d, w| {
                out[s as usize] += w;
                into[d as usize] += w;
            });
            for a in 0..n {
                for b in 0..n {
                    let w = (out[a as usize] + into[b as usize]) / n as f64;
                    if w > 0.0 && a != b {
                        add(&mut load, a, &[], b, w);
                    }
                }
            }
        }
        rand_interval::NAME => {
            let (rows, cols) = topo.mesh2d().unwrap_or((1, topo.nodes()));
            let intervals = Intervals::for_column(rows);
            dest.for_each_pair(|s, d, w| {
                let (first, len) = intervals.of(s / cols);
                for row in first..first + len {
                    let via = [row * cols + s % cols, row * cols + d % cols];
                    add(&mut load, s, &via, d, w / len as f64);
                }
            });
        }
        _ => dest.for_each_pair(|s, d, w| add(&mut load, s, &[], d, w)),
    }
    load
}

/// The most steps of a walk [`valiant_delivered_early`] takes (about 2 s
/// natively): mesh:32x32 (0.4 s for the whole `load` run) and torus:32x32
/// (2^27 steps, 0.8 s) are within it, mesh:64x64 is not (tens of seconds). Above it Valiant's λ* is that of both legs walked whole — what
/// the packets delivered on their first leg would load, so a lower bound of
/// the exact λ* (under uniform traffic by 0.9 % on torus:16x16, 0.5 % on
/// torus:32x32 and 0.7 % on mesh:32x32, falling about as 1/side: the
/// packets whose first leg crosses their destination grow rarer).
/// docs/algorithms/load.md says so.
pub const VALIANT_EXACT_WORK: u64 = 1 << 28;

/// Takes out of `load` — Valiant's two legs walked whole for every packet —
/// what a packet whose first leg s → m crosses its destination d does not
/// carry: it is delivered at d, so the links of that leg after d and its
/// whole second leg m → d carry it no more. Per intermediate m (each with
/// probability 1/N) and tie parity (both legs of a packet go the same way
/// on a tie, as the engine routes them): every source's first leg is
/// walked once, the weight of the destinations passed so far taken off
/// each later link and gathered per destination, whose second legs are
/// then walked once each. O(N · (sources + N) · route) steps of a walk,
/// O(N) memory.
fn valiant_delivered_early(topo: &Topology, parities: &[u32], dest: &Destinations, load: &mut [f64]) {
    let (n, ports) = (topo.nodes(), topo.ports());
    let walk = parities.len() as u64 * n as u64 * (dest.sources().len() as u64 + n as u64) * topo.diameter() as u64;
    if walk > VALIANT_EXACT_WORK {
        return;
    }
    let share = 1.0 / parities.len() as f64;
    let per_m = 1.0 / n as f64;
    let mut second = vec![0.0f64; n as usize];
    for &parity in parities {
        for m in 0..n {
            second.iter_mut().for_each(|x| *x = 0.0);
            for &s in dest.sources() {
                let (weight, mut delivered) = (dest.weights_from(s), 0.0);
                topo.walk_route(s, &[], m, parity, RouteOrder::Standard, |at, port| {
                    if at != s {
                        let w = weight(at) * per_m * share;
                        delivered += w;
                        second[at as usize] += w;
                    }
                    load[(at * ports + port) as usize] -= delivered;
                });
            }
            for d in 0..n {
                let w = second[d as usize];
                if w > 0.0 {
                    topo.walk_route(m, &[], d, parity, RouteOrder::Standard, |at, port| {
                        load[(at * ports + port) as usize] -= w;
                    });
                }
            }
        }
    }
    // Rounding leaves −1e−17 where nothing is carried.
    load.iter_mut().for_each(|x| *x = x.max(0.0));
}

/// Adds `weight` × the dimension-order routes (standard order, a tie going
/// each way of `parities` with an equal share, as the walks do) of every
/// ordered pair of `g`'s nodes to `load` (see the module's complexity note).
fn grid_all_pairs(g: &Grid, parities: &[u32], weight: f64, load: &mut [f64]) {
    let n = g.nodes();
    let ports = g.ports() as usize;
    let share = 1.0 / parities.len() as f64;
    for (dim, &side) in g.dims().iter().enumerate() {
        // crossings[neg][x]: pairs (a, b) of coordinates whose route along
        // the line leaves x in direction neg (0: +, 1: −), by difference
        // arrays over the route's run of links.
        let s = side as usize;
        let mut diff = [vec![0.0f64; s + 1], vec![0.0f64; s + 1]];
        for &parity in parities {
            for a in 0..side {
                for b in 0..side {
                    let (neg, len) = line_direction(g.wraps(), a, b, side, parity);
                    if len == 0 {
                        continue;
                    }
                    let d = &mut diff[neg as usize];
                    // The links left: a, a ± 1, …, len of them, mod side.
                    let (lo, hi) = if neg == 0 {
                        (a as i64, a as i64 + len as i64 - 1)
                    } else {
                        (a as i64 - len as i64 + 1, a as i64)
                    };
                    let mut mark = |lo: i64, hi: i64| {
                        d[lo as usize] += share;
                        d[hi as usize + 1] -= share;
                    };
                    let side = side as i64;
                    if lo < 0 {
                        mark(lo + side, side - 1);
                        mark(0, hi);
                    } else if hi >= side {
                        mark(lo, side - 1);
                        mark(0, hi - side);
                    } else {
                        mark(lo, hi);
                    }
                }
            }
        }
        let crossings: Vec<Vec<f64>> = diff
            .iter()
            .map(|d| {
                d[..s]
                    .iter()
                    .scan(0.0, |run, x| {
                        *run += x;
                        Some(*run)
                    })
                    .collect()
            })
            .collect();
        let others = (n / side) as f64 * weight;
        for v in 0..n {
            let x = g.coord(v, dim) as usize;
            for neg in 0..2 {
                load[v as usize * ports + 2 * dim + neg] += crossings[neg][x] * others;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::load::Pattern;

    fn ideal(topo: &str, algorithm: &str, pattern: &str) -> f64 {
        let topo: Topology = topo.parse().unwrap();
        let dest = Destinations::new(pattern.parse().unwrap(), &topo, 1).unwrap();
        ideal_throughput(&topo, algorithm, &dest)
    }

    /// The closed forms equal walking every pair's route, link by link:
    /// greedy and valiant on linear arrays, rings, meshes and tori of 1–3
    /// dimensions, odd and even sides, bit fixing and valiant on hypercubes,
    /// on uniform traffic and (valiant) on permutations.
    #[test]
    fn the_closed_forms_equal_the_walks() {
        let grids = [
            "linear:2",
            "linear:5",
            "ring:4",
            "ring:3",
            "ring:6",
            "ring:7",
            "mesh:2x3",
            "mesh:4x4",
            "mesh:5x3",
            "mesh:1x4",
            "torus:3x3",
            "torus:4x4",
            "torus:4x5",
            "torus:6x3",
            "mesh:2x3x4",
            "torus:3x4x5",
            "torus:4x3x4",
            "hypercube:1",
            "hypercube:3",
            "hypercube:5",
        ];
        let (mut permutations, mut with_fixed_points) = (0, 0);
        for name in grids {
            let topo: Topology = name.parse().unwrap();
            let dest = Destinations::new(Pattern::Uniform, &topo, 1).unwrap();
            let direct = if name.starts_with("hypercube") {
                "bit-fixing"
            } else {
                "greedy"
            };
            let mut cases = vec![(direct, "uniform", dest.clone()), ("valiant", "uniform", dest)];
            // Valiant on permutations, with fixed points (transpose's
            // diagonal, bit-reversal's palindromes) and without (tornado on
            // even sides, bit-complement).
            for pattern in ["transpose", "tornado", "bit-complement", "bit-reversal"] {
                if let Ok(d) = Destinations::new(pattern.parse().unwrap(), &topo, 1) {
                    cases.push(("valiant", pattern, d));
                }
            }
            for (algorithm, pattern, dest) in &cases {
                let fast = loads(&topo, algorithm, dest, true);
                let walked = loads(&topo, algorithm, dest, false);
                assert_eq!(fast.len(), walked.len());
                for (i, (a, b)) in fast.iter().zip(&walked).enumerate() {
                    assert!(
                        (a - b).abs() < 1e-9,
                        "{name} {algorithm} {pattern}: link {i}: {a} vs {b}"
                    );
                }
                let moves = *pattern == "uniform" || (0..topo.nodes()).any(|v| !dest.fixed(v));
                assert_eq!(walked.iter().any(|&x| x > 0.0), moves, "{name} {pattern}");
                permutations += (*pattern != "uniform") as u32;
                with_fixed_points += (0..topo.nodes()).any(|v| dest.fixed(v)) as u32;
            }
        }
        assert!(
            permutations >= 20 && with_fixed_points >= 8,
            "{permutations} {with_fixed_points}"
        );
    }

    /// Valiant's loads are those of the routes the engine takes: every
    /// (source, destination, intermediate, tie parity) walked as one route
    /// through the intermediate that stops where it reaches the destination
    /// (delivery on arrival), by brute force; and two values by hand.
    #[test]
    fn valiant_counts_packets_delivered_on_their_first_leg_once() {
        for name in [
            "linear:6",
            "ring:8",
            "ring:7",
            "mesh:4x4",
            "mesh:3x5",
            "torus:4x4",
            "torus:5x5",
            "mesh:2x3x2",
            "hypercube:3",
        ] {
            let topo: Topology = name.parse().unwrap();
            let (n, ports) = (topo.nodes(), topo.ports());
            let parities: &[u32] = match topo.kind() {
                Kind::Ring | Kind::Torus => &[0, 1],
                _ => &[0],
            };
            for pattern in ["uniform", "transpose", "tornado", "bit-complement"] {
                let Ok(dest) = Destinations::new(pattern.parse().unwrap(), &topo, 1) else {
                    continue;
                };
                let mut want = vec![0.0f64; (n * ports) as usize];
                dest.for_each_pair(|s, d, w| {
                    for m in 0..n {
                        for &parity in parities {
                            let w = w / n as f64 / parities.len() as f64;
                            topo.walk_route(s, &[m], d, parity, RouteOrder::Standard, |v, p| {
                                want[(v * ports + p) as usize] += w;
                            });
                        }
                    }
                });
                for closed in [true, false] {
                    let got = loads(&topo, "valiant", &dest, closed);
                    for (i, (a, b)) in got.iter().zip(&want).enumerate() {
                        assert!(
                            (a - b).abs() < 1e-9,
                            "{name} {pattern} closed {closed}: link {i}: {a} vs {b}"
                        );
                    }
                }
            }
        }
        // By hand (an audit's independent computation): λ* = 5/12 on
        // linear:6 and 4/7 on ring:8 under uniform traffic; both legs
        // walked whole gave 1/3 and 1/2.
        assert!((ideal("linear:6", "valiant", "uniform") - 5.0 / 12.0).abs() < 1e-9);
        assert!((ideal("ring:8", "valiant", "uniform") - 4.0 / 7.0).abs() < 1e-9);
    }

    #[test]
    fn a_linear_array_under_uniform_traffic_loads_its_middle_link() {
        // linear:4: the link 1 → 2 carries sources {0, 1} × dests {2, 3},
        // each with probability 1/3: load 4/3.
        let x = ideal("linear:4", "greedy", "uniform");
        assert!((x - 0.75).abs() < 1e-12, "{x}");
        assert_eq!(Pattern::Uniform.name(), "uniform");
    }
}
