//! §9's wrapped butterflies inside `shuffle-exchange:2m`
//! (`topology::SeButterflies`), checked exhaustively for D = 4..16: every
//! label hosts at most one butterfly node and exactly the labels with an
//! aperiodic odd part host one; every edge is three hops on real links
//! (dilation 3) ending where the butterfly says; no directed link carries
//! more than four edges (congestion 4), nor more than two of one hop.

use crate::common::topo;
use routesim::topology::{ButterflyNode, Network, SeButterflies, ShuffleExchange, Topology};

fn embedding(d: u32) -> (ShuffleExchange, SeButterflies) {
    let Topology::ShuffleExchange(g) = topo(&format!("shuffle-exchange:{d}")) else {
        unreachable!()
    };
    let e = SeButterflies::new(&g).expect("D even and at least 4");
    (g, e)
}

/// The m-bit words whose m rotations differ, by Möbius inversion:
/// A(m) = Σ_{d | m} μ(d)·2^(m/d).
fn aperiodic_words(m: u32) -> i64 {
    let mobius = |mut n: u32| {
        let mut sign = 1i64;
        let mut p = 2;
        while p * p <= n {
            if n.is_multiple_of(p) {
                n /= p;
                if n.is_multiple_of(p) {
                    return 0;
                }
                sign = -sign;
            }
            p += 1;
        }
        if n > 1 {
            sign = -sign;
        }
        sign
    };
    (1..=m)
        .filter(|d| m.is_multiple_of(*d))
        .map(|d| mobius(d) * (1i64 << (m / d)))
        .sum()
}

/// Bits 1, 3, …, 2m − 1 of x as an m-bit word.
fn odd_part(x: u32, m: u32) -> u32 {
    (0..m).map(|i| ((x >> (2 * i + 1)) & 1) << i).sum()
}

fn rotations(w: u32, m: u32) -> Vec<u32> {
    let mask = (1u32 << m) - 1;
    (0..m)
        .map(|t| if t == 0 { w } else { ((w << t) | (w >> (m - t))) & mask })
        .collect()
}

#[test]
fn every_label_hosts_one_node_at_most_and_exactly_the_aperiodic_odd_parts_host_one() {
    for d in (4..=16).step_by(2) {
        let (g, e) = embedding(d);
        let m = d / 2;
        assert_eq!(e.levels(), m);
        let reps = e.butterflies();
        assert_eq!(reps.len() as i64 * m as i64, aperiodic_words(m), "D = {d}");
        assert!(reps.windows(2).all(|w| w[0] < w[1]));
        for &n in reps {
            let rot = rotations(n, m);
            assert!(
                rot[1..].iter().all(|&r| r > n),
                "D = {d}: {n:b} is its necklace's least, aperiodic"
            );
        }
        let mut hosted = vec![false; g.nodes() as usize];
        for b in 0..reps.len() as u32 {
            for level in 0..m {
                for row in 0..1u32 << m {
                    let x = e.host(b, level, row);
                    assert!(!hosted[x as usize], "D = {d}: label {x} hosts two nodes");
                    hosted[x as usize] = true;
                    let node = ButterflyNode {
                        butterfly: b,
                        level,
                        row,
                    };
                    assert_eq!(e.guest(x), Some(node), "D = {d}");
                    if level == 0 {
                        assert_eq!(e.host(b, m, row), x, "D = {d}: level m is level 0");
                    }
                }
            }
        }
        let count = hosted.iter().filter(|&&h| h).count() as u32;
        assert_eq!(count, e.hosts());
        for x in 0..g.nodes() {
            let rot = rotations(odd_part(x, m), m);
            let aperiodic = rot[1..].iter().all(|&r| r != rot[0]);
            assert_eq!(hosted[x as usize], aperiodic, "D = {d}, label {x}");
            assert_eq!(e.guest(x).is_some(), aperiodic, "D = {d}, label {x}");
        }
    }
}

#[test]
fn every_edge_is_three_hops_on_links_and_a_link_carries_four_edges_at_most() {
    for d in (4..=16).step_by(2) {
        let (g, e) = embedding(d);
        let (m, ports) = (d / 2, g.ports());
        let mask = (1u32 << d) - 1;
        let rotl = |x: u32| ((x << 1) | (x >> (d - 1))) & mask;
        // Per directed link: edges over all hops, and per hop.
        let mut load = vec![0u32; (g.nodes() * ports) as usize];
        let mut per_hop = vec![[0u32; 3]; (g.nodes() * ports) as usize];
        for b in 0..e.butterflies().len() as u32 {
            for level in 0..m {
                for row in 0..1u32 << m {
                    for cross in [false, true] {
                        let hops = e.edge(b, level, row, cross);
                        assert_eq!(hops[0], e.host(b, level, row));
                        assert_eq!(hops[1], if cross { hops[0] ^ 1 } else { hops[0] });
                        assert_eq!(hops[2], rotl(hops[1]));
                        assert_eq!(hops[3], rotl(hops[2]));
                        let to = if cross { row ^ 1 << (m - 1 - level) } else { row };
                        assert_eq!(
                            hops[3],
                            e.host(b, level + 1, to),
                            "D = {d}: ⟨{level}, {row}⟩ cross {cross}"
                        );
                        for (i, pair) in hops.windows(2).enumerate() {
                            if pair[0] == pair[1] {
                                assert!(i == 0 && !cross, "only a straight edge waits, on its first hop");
                                continue;
                            }
                            let port = (0..ports)
                                .find(|&p| g.neighbor(pair[0], p) == Some(pair[1]))
                                .unwrap_or_else(|| panic!("D = {d}: no link {} → {}", pair[0], pair[1]));
                            let link = (pair[0] * ports + port) as usize;
                            load[link] += 1;
                            per_hop[link][i] += 1;
                        }
                    }
                }
            }
        }
        let exchange = (0..g.nodes()).map(|x| load[(x * ports) as usize]).max().unwrap();
        let shuffle = (0..g.nodes()).map(|x| load[(x * ports + 1) as usize]).max().unwrap();
        let unshuffle = (0..g.nodes()).map(|x| load[(x * ports + 2) as usize]).max().unwrap();
        assert_eq!((exchange, shuffle, unshuffle), (1, 4, 0), "D = {d}");
        assert!(
            per_hop.iter().all(|h| h.iter().all(|&c| c <= 2)),
            "D = {d}: two edges of one hop on a link at most"
        );
    }
}

#[test]
fn odd_and_small_dimensions_are_refused_by_name() {
    for d in [2, 3, 5, 9] {
        let Topology::ShuffleExchange(g) = topo(&format!("shuffle-exchange:{d}")) else {
            unreachable!()
        };
        let err = SeButterflies::new(&g).unwrap_err();
        assert!(
            err.contains("D must be even and at least 4") && err.contains(&format!("got {d}")),
            "{err}"
        );
    }
}
