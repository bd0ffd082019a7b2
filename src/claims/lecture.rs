//! The lectures' bounds that [`super::evaluate_run`] evaluates: greedy's
//! buffer lemma on the n × n mesh and its corollary in d dimensions (the
//! permutation-routing lecture), and the hypercube lecture's |S|, counted
//! per packet ([`routes_met`]).

use super::Bound;
use crate::algorithms::claim::Formula;
use crate::topology::{Kind, Topology};

/// `formula` (one of the lectures' above) on `topo`; `text` is its spelling.
pub(super) fn evaluate(formula: Formula, topo: &Topology, text: &str) -> Option<Bound> {
    match formula {
        Formula::GreedyBuffer => topo
            .mesh2d()
            .filter(|&(r, c)| r == c && topo.kind() == Kind::Mesh)
            .map(|(n, _)| {
                let beta = greedy_buffer(n);
                Bound::plain(
                    &format!("{text} + 8"),
                    beta + 8.0,
                    format!(
                        "n = {n}: β = {}, plus the 4 input and 4 output one-packet buffers of a router with 4 links",
                        num(beta)
                    ),
                )
            }),
        Formula::GreedyBufferCube => topo.as_grid().filter(|_| topo.kind() == Kind::Mesh).and_then(|g| {
            let (d, n) = (g.dims().len() as u32, g.dims()[0]);
            (d >= 3 && g.dims().iter().all(|&s| s == n)).then(|| {
                let beta = greedy_buffer_cube(d, n);
                Bound::plain(
                    &format!("{text} + {}", 4 * d),
                    beta + f64::from(4 * d),
                    format!(
                        "d = {d}, n = {n}: {} buffers, plus the {} input and {} output one-packet buffers of a router \
                         with {} links",
                        num(beta),
                        2 * d,
                        2 * d,
                        2 * d
                    ),
                )
            })
        }),
        // Per packet: the judge counts each packet's |S| on the run's routes.
        Formula::RoutesMet => (topo.kind() == Kind::Hypercube).then(|| {
            Bound::plain(
                "|S|",
                0.0,
                "per packet: S = the other packets whose routes share a link with its route".to_string(),
            )
        }),
        _ => None,
    }
}

/// The permutation-routing lecture's β for greedy XY routing of a
/// permutation on the n × n mesh: max(2, 2n/3 − 1) auxiliary buffers
/// beyond a router's standard one-packet input and output buffers.
pub fn greedy_buffer(n: u32) -> f64 {
    (2.0 * f64::from(n) / 3.0 - 1.0).max(2.0)
}

/// The lecture's corollary for greedy dimension-order routing of a
/// permutation on the d-dimensional mesh of side n (d ≥ 3; the lecture's
/// k-ary n-dimensional mesh with k = side, n = d): max(2d − 2, n − 2 −
/// (n − 3)/(2d − 1)) buffers.
pub fn greedy_buffer_cube(d: u32, n: u32) -> f64 {
    let (d, n) = (f64::from(d), f64::from(n));
    (2.0 * d - 2.0).max(n - 2.0 - (n - 3.0) / (2.0 * d - 1.0))
}

/// A number as a bound's parameters print it: whole numbers plainly, others to two decimals.
fn num(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.2}")
    }
}

/// The hypercube lecture's |S| for every packet: how many other packets'
/// routes share a directed link with its route, on the routes `route`
/// gives (each packet's route as a list of directed link ids). O(P·D·c)
/// for P packets, routes of at most D links and at most c routes per link.
pub fn routes_met(routes: &[Vec<u32>], links: usize) -> Vec<u32> {
    let mut users: Vec<Vec<u32>> = vec![Vec::new(); links];
    for (p, route) in routes.iter().enumerate() {
        for &l in route {
            users[l as usize].push(p as u32);
        }
    }
    let mut seen = vec![u32::MAX; routes.len()];
    routes
        .iter()
        .enumerate()
        .map(|(p, route)| {
            let mut met = 0;
            for &l in route {
                for &q in &users[l as usize] {
                    if q as usize != p && seen[q as usize] != p as u32 {
                        seen[q as usize] = p as u32;
                        met += 1;
                    }
                }
            }
            met
        })
        .collect()
}
