//! The shuffle-exchange's labels, paths and networks, checked exhaustively
//! on small graphs.

use super::chain::{self, Chain, Leg, CHAIN};
use super::labels::{Labels, GOOD};
use super::*;
use crate::algorithms::lmrr::leveled::{Description, OutEdge, NONE};
use std::collections::HashSet;

fn labels(dim: u32) -> Labels {
    Labels::new(&ShuffleExchange::new(dim).unwrap())
}

/// Every leg the planner may take, for every pair of good necklaces (and
/// a few levels of the source and the destination), stays on good
/// labels, climbs one level per node and uses only edges of the network:
/// the paper's legs where `leg` finds one, the merged legs always.
#[test]
fn chain_paths_stay_good_and_leveled() {
    for dim in 2..=9 {
        let l = Arc::new(labels(dim));
        let whole = Chain::new(Arc::clone(&l), 0..CHAIN.len());
        let (mut path, mut out) = (Vec::new(), Vec::new());
        let (mut found, mut pairs) = (0, 0);
        for &x in &l.good_reps {
            for &i in &l.good_reps {
                pairs += 1;
                let mut legs = vec![Leg {
                    from: x,
                    top: l.merge(x, i),
                    to: i,
                }];
                if let Some(leg) = leg(&l, x, i) {
                    found += 1;
                    legs.push(leg);
                }
                let stay = Leg { from: i, top: i, to: i };
                for first in legs {
                    for (s, d) in [
                        (l.node(x, 0), l.node(i, dim - 1)),
                        (x, l.node(i, 0)),
                        (l.node(x, dim / 2), i),
                    ] {
                        path.clear();
                        chain::path(&l, s, d, [first, stay], &mut path);
                        let ids: Vec<u32> = path.iter().map(|&(k, kind, h)| whole.id(k, kind, h)).collect();
                        assert_eq!((whole.host(ids[0]), whole.host(*ids.last().unwrap())), (s, d));
                        for w in ids.windows(2) {
                            let what = format!("D={dim} {s:b}->{d:b} by {first:?}: {w:?}");
                            assert!(l.good(whole.host(w[1])), "{what}");
                            assert_eq!(whole.level(w[1]), whole.level(w[0]) + 1, "{what}");
                            out.clear();
                            whole.out_edges(w[0], &mut out);
                            assert!(out.iter().any(|e| e.head == w[1]), "{what}: no such edge");
                        }
                        // Through the random necklace at level 0 of part 3.
                        let at = path.iter().position(|&(k, _, _)| k == 3).unwrap();
                        assert_eq!(path[at].2, l.node(i, 0));
                    }
                }
            }
        }
        eprintln!("D={dim}: a paper leg for {found} of {pairs} pairs");
    }
}

/// Every edge of every network built climbs one level and its port leads
/// from its tail's host to its head's host (or it is internal); no
/// directed link carries two edges in one substep.
fn check_network(topo: &Topology, net: &dyn Description, what: &str) -> u8 {
    let mut used = HashSet::new();
    let mut out: Vec<OutEdge> = Vec::new();
    for v in 0..net.count() {
        if net.level(v) == NONE {
            continue;
        }
        out.clear();
        net.out_edges(v, &mut out);
        for e in &out {
            assert_ne!(net.level(e.head), NONE, "{what}: edge to a missing node");
            assert_eq!(net.level(e.head), net.level(v) + 1, "{what}: {v} -> {}", e.head);
            if e.port == NONE {
                assert_eq!(net.host(v), net.host(e.head), "{what}");
            } else {
                assert_eq!(topo.neighbor(net.host(v), e.port), Some(net.host(e.head)), "{what}");
                assert!(e.substep < net.substeps(), "{what}");
                assert!(used.insert((net.host(v), e.port, e.substep)), "{what}: link used twice");
            }
        }
    }
    net.substeps()
}

#[test]
fn networks_are_leveled_and_physical() {
    for dim in 2..=10 {
        let g = ShuffleExchange::new(dim).unwrap();
        let topo = Topology::ShuffleExchange(g.clone());
        let l = Arc::new(Labels::new(&g));
        for range in SPLIT
            .iter()
            .map(|&(a, b)| a..b)
            .chain([0..2, 2..3, 3..4, 4..6, 0..3, 3..6])
        {
            let net = Chain::new(Arc::clone(&l), range.clone());
            let s = check_network(&topo, &net, &format!("D={dim} chain {range:?}"));
            // An exchange link serves the four parts of A: four substeps in
            // one round; around + up, down, up, down + along need one each.
            if dim > 2 {
                let want = if range == (0..CHAIN.len()) {
                    4
                } else if range.len() == 3 {
                    2
                } else {
                    1
                };
                assert_eq!(s, want, "D={dim} {range:?}");
            }
        }
        // Phases 1 and 3 with every bad label's path.
        let bad: Vec<(u32, Vec<u32>)> = (0..g.nodes()).filter(|&x| !l.good(x)).map(|x| l.bad_path(x)).collect();
        let (net, _) = HopLeveled::build(&topo, &bad).unwrap();
        let s1 = check_network(&topo, &net, &format!("D={dim} bad-to-good"));
        let top = 3 * dim;
        let back: Vec<(u32, Vec<u32>)> = bad
            .iter()
            .map(|(start, hosts)| {
                let end = start + hosts.len() as u32 - 1;
                assert!(end <= top);
                (top - end, hosts.iter().rev().copied().collect())
            })
            .collect();
        let (net, _) = HopLeveled::build(&topo, &back).unwrap();
        let s3 = check_network(&topo, &net, &format!("D={dim} good-to-bad"));
        eprintln!("D={dim}: substeps bad-to-good {s1}, good-to-bad {s3}");
    }
}

/// Every bad label's path ends at a good label; the good fraction is at
/// least 1/5; a good label receives at most BAD_PER_GOOD_NODE bad labels.
#[test]
fn bad_labels_reach_good_ones() {
    for dim in 2..=12 {
        let l = labels(dim);
        let n = 1u32 << dim;
        for x in 0..n {
            if l.kind(x) != GOOD {
                let (_, hosts) = l.bad_path(x);
                assert_eq!(hosts[0], x);
                assert!(l.good(*hosts.last().unwrap()), "D={dim} {x:b}: {hosts:?}");
            }
        }
        let c = census(dim);
        assert!(c.most_per_node <= BAD_PER_GOOD_NODE, "D={dim}: {c:?}");
        assert_eq!(c.good, c.good_necklaces * dim, "D={dim}");
    }
}
