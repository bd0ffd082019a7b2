//! Ideal throughput (SPEC §6): the largest injection rate λ at which no
//! directed link's expected load exceeds one packet per step, computed
//! exactly from the pattern and the algorithm's routes.
//!
//! Every generated packet picks its destination by the pattern's traffic
//! matrix w(s, d) (probabilities per source), so a link's expected load is
//! λ·Σ w(s, d)·P(the route of (s, d) uses the link). The routes are walked
//! hop by hop with the topology's own next hop ([`Topology::walk_route`]):
//!
//! - `greedy`, `bit-fixing`: the deterministic dimension-order route. On a
//!   ring or torus a tie (exactly half way round, SPEC §2) goes by the
//!   packet id's parity; open-loop ids are reused slots, so either way is
//!   counted with weight ½.
//! - `valiant`: the expectation over the uniformly random intermediate m
//!   is the average of the two legs' loads — a leg s → m from every
//!   generated packet and a leg m → d into every destination, m uniform
//!   over the N nodes. (A packet whose first leg happens to cross its
//!   destination is delivered there, so the true load is at most this.)
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
//! for rand-interval), N for a permutation (N² for valiant's legs).

use super::pattern::Destinations;
use crate::algorithms::Intervals;
use crate::topology::{Kind, Network, RouteOrder, Topology};

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
    let ports = topo.ports();
    let mut load = vec![0.0f64; (topo.nodes() * ports) as usize];
    // Both tie parities on rings and tori, with half the weight each.
    let parities: &[u32] = match topo.kind() {
        Kind::Ring | Kind::Torus => &[0, 1],
        _ => &[0],
    };
    let share = 1.0 / parities.len() as f64;
    let mut add = |from: u32, via: &[u32], to: u32, w: f64| {
        for &parity in parities {
            topo.walk_route(from, via, to, parity, RouteOrder::Standard, |v, p| {
                load[(v * ports + p) as usize] += w * share;
            });
        }
    };
    match algorithm {
        "valiant" => {
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
                        add(a, &[], b, w);
                    }
                }
            }
        }
        "rand-interval" => {
            let (rows, cols) = topo.mesh2d().unwrap_or((1, topo.nodes()));
            let intervals = Intervals::for_column(rows);
            dest.for_each_pair(|s, d, w| {
                let (first, len) = intervals.of(s / cols);
                for row in first..first + len {
                    let via = [row * cols + s % cols, row * cols + d % cols];
                    add(s, &via, d, w / len as f64);
                }
            });
        }
        _ => dest.for_each_pair(|s, d, w| add(s, &[], d, w)),
    }
    load
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

    #[test]
    fn a_linear_array_under_uniform_traffic_loads_its_middle_link() {
        // linear:4: the link 1 → 2 carries sources {0, 1} × dests {2, 3},
        // each with probability 1/3: load 4/3.
        let x = ideal("linear:4", "greedy", "uniform");
        assert!((x - 0.75).abs() < 1e-12, "{x}");
        assert_eq!(Pattern::Uniform.name(), "uniform");
    }
}
