//! The engine against a second reading of SPEC §1–§2: a plain simulator of
//! dimension-order routing written from the text alone — every packet's
//! next hop, one contest per directed link, the policy's key with ties to
//! the smaller id, node queues and edge queues checked on start-of-step
//! occupancy, the torus's half-way tie by the id's parity, cut-through
//! worms of F flits (SPEC §5: a crossed link carries the worm's other flits
//! for F − 1 steps; `steps` counts to the last flit) — with none of the
//! engine's machinery (slots, re-sorts, incremental bids, witnesses,
//! lanes). On random instances (any number of packets per node, sources
//! equal to destinations included) greedy (and `--reverse-order`) on linear
//! arrays, rings, meshes and tori of one to three dimensions, and
//! bit-fixing on hypercubes (the same model on sides of 2), under every
//! deterministic policy, with no queue capacity, one per node and one per
//! incoming link, and with worms of 2–4 flits, must agree with it on
//! `steps`, `delivered`, `stalled`, `max_queue` and `max_load`, on one
//! thread and with the parallel step forced on two (`steps` of a run that
//! stalls: the steps it ran, as the report says).

use std::cmp::Reverse;
use std::collections::BTreeMap;

use proptest::prelude::*;
use routesim::engine::Policy;
use routesim::topology::Topology;
use routesim::workload::Instance;
use routesim::{AlgorithmOptions, SimConfig, Simulation};

/// A grid: sides in row-major order (the last coordinate fastest), with or
/// without wrap-around links.
struct Grid {
    sides: Vec<u32>,
    wrap: bool,
}

impl Grid {
    fn nodes(&self) -> u32 {
        self.sides.iter().product()
    }

    fn coords(&self, mut v: u32) -> Vec<u32> {
        let mut c = vec![0; self.sides.len()];
        for (i, &side) in self.sides.iter().enumerate().rev() {
            c[i] = v % side;
            v /= side;
        }
        c
    }

    fn id(&self, c: &[u32]) -> u32 {
        c.iter().zip(&self.sides).fold(0, |v, (&x, &side)| v * side + x)
    }

    /// The way along dimension `dim` from `a` to `b` for packet `p`: the
    /// step (+1 or −1) and the distance left, or None when they agree. On a
    /// ring the shorter way; exactly half way round, the positive way for
    /// an even id and the negative way for an odd one (SPEC §2).
    fn way(&self, a: &[u32], b: &[u32], dim: usize, p: usize) -> Option<(i64, u32)> {
        let (x, y, side) = (a[dim], b[dim], self.sides[dim]);
        if x == y {
            return None;
        }
        if !self.wrap {
            return Some(if y > x { (1, y - x) } else { (-1, x - y) });
        }
        let (up, down) = ((y + side - x) % side, (x + side - y) % side);
        Some(match up.cmp(&down) {
            std::cmp::Ordering::Less => (1, up),
            std::cmp::Ordering::Greater => (-1, down),
            std::cmp::Ordering::Equal if p.is_multiple_of(2) => (1, up),
            std::cmp::Ordering::Equal => (-1, down),
        })
    }

    /// The total distance left from `a` to `b`.
    fn distance(&self, a: &[u32], b: &[u32], p: usize) -> u32 {
        (0..self.sides.len())
            .filter_map(|d| self.way(a, b, d, p))
            .map(|(_, r)| r)
            .sum()
    }
}

/// Queue capacity: none, q per node, or q per incoming link (SPEC §1).
#[derive(Clone, Copy, Debug)]
enum Cap {
    None,
    Node(u32),
    Edge(u32),
}

/// A directed link: (from, to).
type Link = (u32, u32);

/// A bid: the policy's key (larger wins), the id (smaller wins a tie),
/// the dimension of the hop.
type Bid = (i64, Reverse<usize>, usize);

#[derive(Debug, PartialEq)]
struct Outcome {
    steps: u32,
    delivered: u32,
    stalled: bool,
    max_queue: u32,
    max_load: u32,
}

/// Dimension-order routing of `packets` on `grid` as SPEC §1 describes
/// it: the last coordinate first (greedy), or with `first_first` the first
/// coordinate first (bit-fixing on a hypercube, a grid of sides 2 whose
/// first coordinate is the most significant bit).
fn reference(grid: &Grid, packets: &[(u32, u32)], policy: Policy, cap: Cap, first_first: bool, flits: u32) -> Outcome {
    let n = packets.len();
    let d = grid.sides.len();
    let dest: Vec<Vec<u32>> = packets.iter().map(|&(_, t)| grid.coords(t)).collect();
    let mut pos: Vec<Vec<u32>> = packets.iter().map(|&(s, _)| grid.coords(s)).collect();
    let mut left = vec![false; n]; // has left its source
    let mut since = vec![0u32; n]; // the step it arrived where it is (its source: 0)
    let mut travelled = vec![vec![0u32; d]; n];
    let mut via: Vec<Option<Link>> = vec![None; n]; // the link it arrived by
                                                    // Worms of `flits` flits (SPEC §5): a link a head crossed in step t
                                                    // carries the worm's other flits in steps t + 1 … t + flits − 1, and
                                                    // nothing else then; a worm's last flit arrives flits − 1 steps after
                                                    // its head.
    let mut busy_until: BTreeMap<Link, u32> = BTreeMap::new();
    let mut done: Vec<bool> = packets.iter().map(|&(s, t)| s == t).collect();
    let (mut steps, mut max_queue) = (0, 0);
    // Undelivered packets per node, transit (`working`) and all (`load`).
    let count = |pos: &[Vec<u32>], done: &[bool], left: &[bool], transit: bool| {
        let mut per = vec![0u32; grid.nodes() as usize];
        for p in (0..n).filter(|&p| !done[p] && (left[p] || !transit)) {
            per[grid.id(&pos[p]) as usize] += 1;
        }
        per
    };
    let mut max_load = count(&pos, &done, &left, false).into_iter().max().unwrap_or(0);
    let mut stalled = false;
    let mut t = 0;
    while done.iter().any(|&x| !x) {
        t += 1;
        let working = count(&pos, &done, &left, true);
        // Each undelivered packet bids for the link of its next hop, in
        // dimension order. Key: larger wins, then the smaller id.
        let mut contests: BTreeMap<Link, Vec<Bid>> = BTreeMap::new();
        let order: Vec<usize> = if first_first {
            (0..d).collect()
        } else {
            (0..d).rev().collect()
        };
        for p in (0..n).filter(|&p| !done[p]) {
            let Some((dim, (step, rem))) = order
                .iter()
                .find_map(|&k| grid.way(&pos[p], &dest[p], k, p).map(|w| (k, w)))
            else {
                continue;
            };
            let key = match policy {
                Policy::FarthestFirst => i64::from(rem),
                Policy::NearestFirst => -i64::from(rem),
                Policy::FarthestTotal => i64::from(grid.distance(&pos[p], &dest[p], p)),
                Policy::FarthestOrigin => i64::from(travelled[p][dim]),
                Policy::Fifo => -i64::from(since[p]),
                // Outside lmrr a packet's rank is its id.
                Policy::Rank => -(p as i64),
                other => unreachable!("{other:?} is not drawn"),
            };
            let mut next = pos[p].clone();
            let side = i64::from(grid.sides[dim]);
            next[dim] = ((i64::from(next[dim]) + step).rem_euclid(side)) as u32;
            let link = (grid.id(&pos[p]), grid.id(&next));
            if busy_until.get(&link).is_some_and(|&u| u >= t) {
                continue;
            }
            contests.entry(link).or_default().push((key, Reverse(p), dim));
        }
        let mut winners: Vec<(Link, Bid)> = contests
            .into_iter()
            .map(|(link, bids)| (link, bids.into_iter().max_by_key(|&(k, id, _)| (k, id)).unwrap()))
            .collect();
        // A node takes at most q − (its working queue at the start of the
        // step) arriving transit packets, the best by the same key; with
        // edge queues, a link's queue at the node it enters takes one
        // while it holds fewer than q at the start of the step. Packets
        // arriving at their destination are always taken.
        let mut refused = vec![false; n];
        match cap {
            Cap::None => {}
            Cap::Node(q) => {
                let mut arriving: BTreeMap<u32, Vec<(i64, Reverse<usize>)>> = BTreeMap::new();
                for &((_, to), (k, id, _)) in &winners {
                    if to != packets[id.0].1 {
                        arriving.entry(to).or_default().push((k, id));
                    }
                }
                for (node, mut bids) in arriving {
                    bids.sort_by(|a, b| b.cmp(a));
                    let room = q.saturating_sub(working[node as usize]) as usize;
                    for &(_, id) in bids.iter().skip(room) {
                        refused[id.0] = true;
                    }
                }
            }
            Cap::Edge(q) => {
                for &(link, (_, Reverse(p), _)) in &winners {
                    let held = (0..n).filter(|&o| !done[o] && via[o] == Some(link)).count() as u32;
                    if link.1 != packets[p].1 && held >= q {
                        refused[p] = true;
                    }
                }
            }
        }
        winners.retain(|&(_, (_, id, _))| !refused[id.0]);
        if winners.is_empty() && busy_until.values().all(|&u| u < t) {
            // A run that stalls reports the steps it ran: the step that
            // moved nothing is not counted.
            stalled = true;
            steps = t - 1;
            break;
        }
        for ((from, to), (_, Reverse(p), dim)) in winners {
            via[p] = Some((from, to));
            if flits > 1 {
                busy_until.insert((from, to), t + flits - 1);
            }
            pos[p] = grid.coords(to);
            left[p] = true;
            since[p] = t;
            travelled[p][dim] += 1;
            if to == packets[p].1 {
                done[p] = true;
                steps = steps.max(t + flits - 1);
            }
        }
        max_queue = max_queue.max(count(&pos, &done, &left, true).into_iter().max().unwrap_or(0));
        max_load = max_load.max(count(&pos, &done, &left, false).into_iter().max().unwrap_or(0));
    }
    Outcome {
        steps,
        delivered: done.iter().filter(|&&x| x).count() as u32,
        stalled,
        max_queue,
        max_load,
    }
}

/// A run's settings: the algorithm, `--reverse-order`, `--flits`, the
/// engine's threads, the policy and the queue capacity.
#[derive(Debug)]
struct Setup {
    algorithm: &'static str,
    reverse: bool,
    flits: u32,
    threads: usize,
    policy: Policy,
    cap: Cap,
}

/// The same run through the engine (its invariants checked every step).
fn engine(topo: Topology, packets: &[(u32, u32)], setup: &Setup) -> Outcome {
    let &Setup {
        algorithm,
        reverse,
        flits,
        threads,
        policy,
        cap,
    } = setup;
    let mut sim = Simulation::new(
        Instance::new(topo, packets.to_vec()).unwrap(),
        SimConfig {
            algorithm: algorithm.into(),
            policy,
            queue_cap: match cap {
                Cap::None => None,
                Cap::Node(q) | Cap::Edge(q) => Some(q),
            },
            edge_queues: matches!(cap, Cap::Edge(_)),
            // With two threads, every step that can split takes the parallel path.
            threads,
            parallel_min: 0,
            options: AlgorithmOptions {
                reverse_order: reverse,
                flits: (flits > 1).then_some(flits),
                ..Default::default()
            },
            check_invariants: true,
            ..Default::default()
        },
    )
    .expect("a valid run");
    sim.run();
    let r = sim.report();
    Outcome {
        steps: r.steps,
        delivered: r.delivered,
        stalled: r.stalled,
        max_queue: r.max_queue,
        max_load: r.max_load,
    }
}

const POLICIES: [Policy; 6] = [
    Policy::FarthestFirst,
    Policy::NearestFirst,
    Policy::FarthestTotal,
    Policy::FarthestOrigin,
    Policy::Fifo,
    Policy::Rank,
];

/// The one difference the properties found, kept as a case: a run that
/// stalls reports the steps it ran (3 here: packets still move in steps 2
/// and 3, and step 4 moves nothing), not the step of its last delivery (1).
#[test]
fn a_stalled_run_reports_the_steps_it_ran() {
    let packets = [
        (4, 0),
        (0, 3),
        (4, 0),
        (4, 0),
        (0, 5),
        (3, 0),
        (1, 0),
        (0, 5),
        (6, 0),
        (6, 0),
        (1, 4),
        (6, 0),
        (2, 4),
    ];
    let grid = Grid {
        sides: vec![7],
        wrap: false,
    };
    let (policy, cap) = (Policy::FarthestTotal, Cap::Node(1));
    let want = reference(&grid, &packets, policy, cap, false, 1);
    assert!(want.stalled);
    assert_eq!((want.steps, want.delivered), (3, 1));
    let setup = Setup {
        algorithm: "greedy",
        reverse: false,
        flits: 1,
        threads: 1,
        policy,
        cap,
    };
    assert_eq!(engine("linear:7".parse().unwrap(), &packets, &setup), want);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn greedy_agrees_with_a_plain_reading_of_the_model(
        wrap in any::<bool>(),
        sides in proptest::collection::vec(1u32..8, 1..4),
        raw in proptest::collection::vec((any::<u32>(), any::<u32>()), 0..120),
        policy in 0..POLICIES.len(),
        cap in (0u32..3, 1u32..4),
        reverse in any::<bool>(),
        flits in prop_oneof![Just(1u32), 2u32..5],
        threads in 1usize..3,
    ) {
        // Worms take no queue capacity (SPEC §1's queues are not a flit buffer model).
        let cap = if flits > 1 { Cap::None } else { [Cap::None, Cap::Node(cap.1), Cap::Edge(cap.1)][cap.0 as usize] };
        // Rings and tori have sides of at least 3 (SPEC §2).
        let sides: Vec<u32> = sides.into_iter().map(|s| if wrap { s.max(3) } else { s }).collect();
        let grid = Grid { sides, wrap };
        let n = grid.nodes();
        let packets: Vec<(u32, u32)> = raw.iter().map(|&(s, t)| (s % n, t % n)).collect();
        let name = match (grid.sides.as_slice(), wrap) {
            ([side], false) => format!("linear:{side}"),
            ([side], true) => format!("ring:{side}"),
            (_, _) => {
                let size: Vec<String> = grid.sides.iter().map(u32::to_string).collect();
                format!("{}:{}", if wrap { "torus" } else { "mesh" }, size.join("x"))
            }
        };
        let topo: Topology = name.parse().unwrap();
        let policy = POLICIES[policy];
        // --reverse-order: the first coordinate first.
        let want = reference(&grid, &packets, policy, cap, reverse, flits);
        let setup = Setup { algorithm: "greedy", reverse, flits, threads, policy, cap };
        let got = engine(topo, &packets, &setup);
        prop_assert_eq!(got, want, "{} {:?} packets {:?}", name, setup, packets);
    }

    /// Bit-fixing on hypercube:D is dimension order on a grid of D sides
    /// of 2, the most significant bit (the first coordinate) first; every
    /// link is its own dimension, so farthest-first is a tie to the
    /// smaller id (SPEC §5).
    #[test]
    fn bit_fixing_agrees_with_a_plain_reading_of_the_model(
        dim in 0usize..7,
        raw in proptest::collection::vec((any::<u32>(), any::<u32>()), 0..200),
        policy in 0..POLICIES.len(),
        cap in (0u32..3, 1u32..4),
        flits in prop_oneof![Just(1u32), 2u32..5],
    ) {
        let cap = if flits > 1 { Cap::None } else { [Cap::None, Cap::Node(cap.1), Cap::Edge(cap.1)][cap.0 as usize] };
        let grid = Grid { sides: vec![2; dim], wrap: false };
        let n = grid.nodes();
        let packets: Vec<(u32, u32)> = raw.iter().map(|&(s, t)| (s % n, t % n)).collect();
        let topo: Topology = format!("hypercube:{dim}").parse().unwrap();
        let policy = POLICIES[policy];
        let want = reference(&grid, &packets, policy, cap, true, flits);
        let setup = Setup { algorithm: "bit-fixing", reverse: false, flits, threads: 1, policy, cap };
        let got = engine(topo, &packets, &setup);
        prop_assert_eq!(got, want, "hypercube:{} {:?} packets {:?}", dim, setup, packets);
    }
}
