//! The mesh primitives of `routesim::primitives` (Pietracaprina–Pucci's
//! "standard primitives") other than the sort (`tests/it/sort.rs`): scans give
//! the right prefixes; tiles and cycles are adjacent cycles; shifts and
//! tours put packets where they must go; ring balancing spreads packets;
//! (c, c)-routing by sorting keeps queues constant; walking packets (the
//! butterfly's and shuffle-exchange's sorts) meet where their schedule
//! says, in the steps of its timing rule, never sharing a link in a step.

use crate::common::{drive, engine};
use routesim::primitives::geometry::{comb_index, comb_rc, pow4_at_least, pow4_at_least_sqrt, Mesh, Tiles};
use routesim::primitives::ring::{stripe_cycles, tile_cycles, RingTask};
use routesim::primitives::route::{shift, CcRoute};
use routesim::primitives::scan::{scan, seg, Order};
use routesim::rng::{Rng, Stream};

fn sequential_prefix(mesh: Mesh, m: u32, order: Order, vals: &[u64], op: &dyn Fn(u64, u64) -> u64) -> Vec<u64> {
    let side = mesh.side();
    let mut out = vec![0u64; vals.len()];
    for r0 in (0..side).step_by(m as usize) {
        for c0 in (0..side).step_by(m as usize) {
            let mut nodes: Vec<u32> = (0..m * m).map(|i| mesh.node(r0 + i / m, c0 + i % m)).collect();
            match order {
                Order::RowMajor { block: u } => nodes.sort_by_key(|&v| {
                    let (r, c) = mesh.rc(v);
                    let (r, c) = (r - r0, c - c0);
                    ((r / u) * (m / u) + c / u, (r % u) * u + c % u)
                }),
                Order::Snake => nodes.sort_by_key(|&v| mesh.snake_index(v, m)),
            }
            let mut acc = 0;
            for v in nodes {
                out[v as usize] = acc;
                acc = op(acc, vals[v as usize]);
            }
        }
    }
    out
}

#[test]
fn scans_give_the_sequential_prefixes_in_o_side_steps() {
    let mut rng = Rng::new(11, Stream::Workload);
    let plus = |a: u64, b: u64| a + b;
    for side in [1u32, 2, 4, 8, 16, 32] {
        let mesh = Mesh::new(side).unwrap();
        let vals: Vec<u64> = (0..side * side).map(|_| rng.below(5) as u64).collect();
        for m in (0..=side.ilog2()).map(|i| 1u32 << i) {
            let mut orders = vec![Order::Snake];
            orders.extend((0..=m.ilog2()).map(|i| Order::RowMajor { block: 1 << i }));
            for order in orders {
                let s = scan(mesh, m, order, &vals, &plus, true);
                assert_eq!(
                    s.prefix,
                    sequential_prefix(mesh, m, order, &vals, &plus),
                    "side {side} m {m} {order:?}"
                );
                let total = s.total.unwrap();
                for v in 0..side * side {
                    let (r, c) = mesh.rc(v);
                    let sum: u64 = (0..side * side)
                        .filter(|&w| mesh.rc(w).0 / m == r / m && mesh.rc(w).1 / m == c / m)
                        .map(|w| vals[w as usize])
                        .sum();
                    assert_eq!(total[v as usize], sum);
                }
                let mut e = engine(side, &[]);
                let mut task = s.task;
                let want = task.duration();
                assert_eq!(drive(&mut e, &mut task), want);
                assert!(want <= 6 * m, "side {side} m {m} {order:?}: {want} steps");
            }
        }
    }
}

#[test]
fn segmented_scan_ranks_inside_contiguous_groups() {
    let side = 16;
    let mesh = Mesh::new(side).unwrap();
    // Groups contiguous in row-major order, with gaps (identity elements).
    let mut vals = vec![0u64; 256];
    let mut want = vec![u32::MAX; 256];
    let mut rng = Rng::new(2, Stream::Workload);
    let (mut group, mut count) = (0u32, 0u32);
    for (v, val) in vals.iter_mut().enumerate() {
        if rng.below(5) == 0 {
            group += 1;
            count = 0;
        }
        if rng.below(3) > 0 {
            *val = seg::item(group, 1);
            want[v] = count;
            count += 1;
        }
    }
    let s = scan(mesh, side, Order::RowMajor { block: 1 }, &vals, &seg::op, false);
    for v in 0..256 {
        if let Some(g) = seg::group(vals[v]) {
            let got = if seg::group(s.prefix[v]) == Some(g) {
                seg::count(s.prefix[v])
            } else {
                0
            };
            assert_eq!(got, want[v], "node {v}");
        }
    }
}

#[test]
fn tile_orders_and_cycles_are_adjacent_cycles() {
    let adjacent = |a: (u32, u32), b: (u32, u32)| a.0.abs_diff(b.0) + a.1.abs_diff(b.1) == 1;
    for (h, w) in [(2u32, 2u32), (2, 8), (4, 4), (8, 8), (4, 16), (16, 16)] {
        let len = h * w;
        let mut seen = vec![false; len as usize];
        for i in 0..len {
            let (r, c) = comb_rc(h, w, i);
            assert_eq!(comb_index(h, w, r, c), i);
            assert!(!seen[(r * w + c) as usize]);
            seen[(r * w + c) as usize] = true;
            assert!(adjacent((r, c), comb_rc(h, w, (i + 1) % len)), "{h}x{w} at {i}");
        }
    }
    let mesh = Mesh::new(32).unwrap();
    for count in [1u32, 4, 16, 64, 256, 1024] {
        let tiles = Tiles::new(mesh, count);
        assert_eq!(tiles.tile_nodes() * count, 1024);
        for t in 0..count {
            let (a, b) = (tiles.origin(t), tiles.origin((t + 1) % count));
            let ts = tiles.tile_side();
            if count > 1 {
                assert_eq!(
                    a.0.abs_diff(b.0) + a.1.abs_diff(b.1),
                    ts,
                    "tiles {t} and {} not adjacent",
                    t + 1
                );
            }
            for i in 0..tiles.tile_nodes() {
                let v = tiles.node(t, i);
                assert_eq!((tiles.tile_of(v), tiles.local(v)), (t, i));
                let u = tiles.cycle_node(t, i);
                assert_eq!(tiles.cycle_pos(u), i);
                if tiles.tile_nodes() > 1 {
                    let next = tiles.cycle_node(t, (i + 1) % tiles.tile_nodes());
                    assert!(adjacent(mesh.rc(u), mesh.rc(next)));
                }
            }
        }
    }
}

#[test]
fn tessellation_parameters_are_powers_of_4_in_integer_arithmetic() {
    assert_eq!(pow4_at_least(16, 1, 1 << 20), 16);
    assert_eq!(pow4_at_least(17, 1, 1 << 20), 64);
    assert_eq!(pow4_at_least(4, 1, 1 << 20), 4);
    assert_eq!(pow4_at_least(1, 4, 1 << 20), 1);
    assert_eq!(pow4_at_least(1 << 30, 1, 1024), 1024);
    // s = √(Nk/ℓ): N = 1024, k/ℓ = 16 → s = 128 → 256; k/ℓ = 4 → 64 → 64; k/ℓ = 2 → 45.25 → 64.
    assert_eq!(pow4_at_least_sqrt(1024 * 16, 1, 1024), 256);
    assert_eq!(pow4_at_least_sqrt(1024 * 4, 1, 1024), 64);
    assert_eq!(pow4_at_least_sqrt(1024 * 2, 1, 1024), 64);
    assert_eq!(pow4_at_least_sqrt(1024 * 8, 2, 1024), 64);
    assert_eq!(pow4_at_least_sqrt(1024, 1024, 1024), 1);
}

#[test]
fn blockwise_shift_moves_every_packet_to_the_same_place_in_the_next_tile() {
    let side = 16;
    let mesh = Mesh::new(side).unwrap();
    for count in [4u32, 16, 64] {
        let tiles = Tiles::new(mesh, count);
        let packets: Vec<(u32, u32)> = (0..side * side).map(|v| (v, (v + 1) % (side * side))).collect();
        let mut e = engine(side, &packets);
        let ids: Vec<u32> = (0..packets.len() as u32).collect();
        let mut task = shift(&mut e, &tiles, &ids);
        let steps = drive(&mut e, &mut task);
        assert_eq!(steps, tiles.tile_side(), "a shift takes one tile side");
        for &p in &ids {
            let (from, to) = (packets[p as usize].0, e.position(p));
            assert_eq!(tiles.tile_of(to), (tiles.tile_of(from) + 1) % count);
            assert_eq!(tiles.local(to), tiles.local(from));
        }
        assert!(e.stats().max_queue <= 2);
    }
}

#[test]
fn tours_deliver_every_packet_inside_its_tile() {
    let side = 16;
    let mesh = Mesh::new(side).unwrap();
    let mut rng = Rng::new(4, Stream::Workload);
    for count in [1u32, 4, 16, 64, 256] {
        let tiles = Tiles::new(mesh, count);
        // Two packets per node to random nodes of the same tile.
        let mut packets = Vec::new();
        for v in 0..side * side {
            for _ in 0..2 {
                let t = tiles.tile_of(v);
                packets.push((v, tiles.node(t, rng.below(tiles.tile_nodes()))));
            }
        }
        let mut e = engine(side, &packets);
        let moves: Vec<(u32, u32)> = (0..packets.len() as u32)
            .filter(|&p| !e.is_delivered(p))
            .map(|p| (p, packets[p as usize].1))
            .collect();
        let mut task = RingTask::new(&mut e, mesh, tile_cycles(&tiles, mesh), &moves, true);
        let steps = drive(&mut e, &mut task);
        assert!(e.finished(), "{count} tiles");
        assert!(steps <= tiles.tile_nodes() + 4, "{count} tiles: {steps} steps");
        assert!(e.stats().max_queue <= 2);
    }
}

#[test]
fn ring_balancing_spreads_packets_along_stripes() {
    let side = 16;
    let mesh = Mesh::new(side).unwrap();
    // Node 0 of every 2-row stripe holds 32 packets; spread them one per node.
    let packets: Vec<(u32, u32)> = (0..side / 2)
        .flat_map(|s| (0..32).map(move |_| (s * 2 * side, side * side - 1)))
        .collect();
    let mut e = engine(side, &packets);
    let cycles = stripe_cycles(mesh, 2);
    let moves: Vec<(u32, u32)> = (0..packets.len() as u32)
        .map(|p| {
            let stripe = p / 32;
            let i = p % 32;
            let (r, c) = comb_rc(2, side, i);
            (p, mesh.node(stripe * 2 + r, c))
        })
        .collect();
    let _ = cycles.len(0);
    let mut task = RingTask::new(&mut e, mesh, cycles, &moves, false);
    let steps = drive(&mut e, &mut task);
    for &(p, t) in &moves {
        assert_eq!(e.position(p), t);
    }
    assert!(steps <= 32, "{steps}");
    assert!(e.stats().max_queue <= 3, "{}", e.stats().max_queue);
}

#[test]
fn cc_routing_by_sorting_keeps_queues_constant_where_greedy_piles_up() {
    // Every node of row r sends to column r of row 0..: a transpose-like
    // many-to-few pattern; each target receives at most 2.
    let side = 32;
    let mesh = Mesh::new(side).unwrap();
    let n = side * side;
    let packets: Vec<(u32, u32)> = (0..n)
        .map(|v| {
            let (r, c) = mesh.rc(v);
            (v, mesh.node(c, r / 2 * 2 + c % 2))
        })
        .collect();
    let mut e = engine(side, &packets);
    let targets: Vec<(u32, u32)> = (0..n)
        .filter(|&p| !e.is_delivered(p))
        .map(|p| (p, packets[p as usize].1))
        .collect();
    let mut task = CcRoute::new(&mut e, "cc", mesh, (side, 1), targets.clone(), false);
    drive(&mut e, &mut task);
    for &(p, t) in &targets {
        assert_eq!(e.position(p), t);
    }
    assert!(e.stats().max_queue <= 6, "{}", e.stats().max_queue);
}

#[test]
fn engine_additions_mark_busy_deliver_many_and_the_eligible_count() {
    // A step that moves nothing reports `busy` only when the algorithm marked it.
    let mut e = engine(4, &[(0, 5), (1, 1), (2, 3)]);
    e.mark_busy();
    let s = e.step();
    assert!(s.busy && s.packet_moves == 0 && s.control_messages == 0);
    assert!(!e.step().busy);
    // Scripted moves to the destinations, then one batched delivery.
    assert!(e.force_move(2, 2)); // 2 -> 3: column + 1
    e.step();
    assert_eq!(e.position(2), 3);
    assert!(!e.is_delivered(2), "delivery on arrival is off in these tests");
    e.deliver_many(&[2]);
    assert!(e.is_delivered(2));
    assert_eq!(e.active(), vec![0]);
    assert_eq!(e.delivered(), 2);
    // Eligible packets route (the contention pass runs only when some are eligible).
    e.set_eligible(0, true);
    e.set_target(0, 5);
    while e.unsettled() > 0 {
        e.step();
    }
    assert_eq!(e.position(0), 5);
}

/// A step's scripted messages and moves handed over in one call
/// (`send_control_links`, `force_moves`) do what that many single calls
/// do: the same links reserved, the same refusals (a link off the mesh, one
/// taken already or named twice, a packet scripted twice), the same order
/// of the step's links; and an eligible packet still loses a reserved link.
#[test]
fn batched_messages_and_moves_equal_single_calls() {
    // mesh:4x4; packets 0..3 held back, packet 4 eligible from 8 to 10.
    let packets = [(0, 15), (1, 14), (5, 13), (6, 12), (8, 10)];
    let (mut one, mut batch) = (engine(4, &packets), engine(4, &packets));
    for e in [&mut one, &mut batch] {
        e.set_eligible(4, true);
        e.set_target(4, 10);
    }
    let link = |node: u32, port: u32| node * 4 + port;
    // Node 3's port 2 (column + 1) leaves the mesh; link (5, 2) twice; the
    // eligible packet's first hop (8 -> 9, port 2) reserved by a message.
    let messages = [(0, 2), (3, 2), (5, 2), (5, 2), (8, 2), (9, 3)];
    let moves = [(0, 0), (1, 2), (1, 0), (2, 2), (3, 1)];
    // Single calls: a link taken before the batch (packet 3's 6 -> 7) too.
    assert!(one.send_control(6, 2));
    let sent: Vec<bool> = messages.iter().map(|&(v, p)| one.send_control(v, p)).collect();
    let forced: Vec<bool> = moves.iter().map(|&(q, p)| one.force_move(q, p)).collect();
    assert_eq!(sent, [true, false, true, false, true, true]);
    // Packet 2's move 5 -> 6 is taken by the message on (5, 2); packet 1 is scripted twice.
    assert_eq!(forced, [true, true, false, false, true]);
    assert!(batch.send_control(6, 2));
    let links: Vec<u32> = messages.iter().map(|&(v, p)| link(v, p)).collect();
    assert!(!batch.send_control_links(&links));
    assert!(!batch.force_moves(&moves));
    let (a, b) = (one.step(), batch.step());
    assert_eq!(a, b);
    assert_eq!((a.control_messages, a.packet_moves), (5, 3));
    assert_eq!(one.last_links(), batch.last_links());
    assert_eq!(one.positions(), batch.positions());
    assert_eq!(batch.position(4), 8, "the eligible packet waits for its reserved link");
    // The reservations end with the step: the packet moves on, and every
    // link is free again for one batch of all-valid messages.
    batch.step();
    assert_eq!(batch.position(4), 9);
    assert!(batch.send_control_links(&[link(5, 2), link(6, 2), link(0, 2)]));
    assert_eq!(batch.step().control_messages, 3);
}

/// The batch reads whether a link exists from the engine's bitmap of the
/// network's links: on every kind of network (borders, wrap links, the
/// butterfly's missing ports at its first and last level, the
/// shuffle-exchange's labels without a shuffle link) and for every link
/// id up to two nodes past the last, it accepts exactly the links a single
/// `send_control` accepts — also after the engine was cloned.
#[test]
fn batched_messages_accept_exactly_the_links_that_exist() {
    use routesim::engine::{Engine, EngineConfig};
    use routesim::topology::{Network, Topology};
    for name in [
        "mesh:3x4",
        "mesh:2x3x2",
        "torus:3x3",
        "mesh:5",
        "hypercube:3",
        "butterfly:2",
        "shuffle-exchange:4",
        "shuffle-exchange:6",
    ] {
        let topo: Topology = name.parse().unwrap();
        let ports = topo.ports();
        let mut batch = Engine::new(topo.clone(), &[], EngineConfig::default());
        let mut single = batch.clone();
        let mut existing = 0;
        for lid in 0..(topo.nodes() + 2) * ports {
            let (node, port) = (lid / ports, lid % ports);
            let one = node < topo.nodes() && single.send_control(node, port);
            assert_eq!(
                batch.send_control_links(&[lid]),
                one,
                "{name}: link {lid} (node {node}, port {port})"
            );
            existing += u32::from(one);
            if lid % 5 == 4 {
                // Clones share the map; reservations end with each step.
                batch = batch.clone();
                let (a, b) = (single.step(), batch.step());
                assert_eq!(a.control_messages, b.control_messages, "{name}");
            }
        }
        let links: u32 = (0..topo.nodes())
            .map(|v| (0..ports).filter(|&p| topo.neighbor(v, p).is_some()).count() as u32)
            .sum();
        assert_eq!(existing, links, "{name}: every existing link accepted once");
    }
}

/// A schedule of walking packets on hypercube:3 (`primitives::sort_walk`):
/// two moves without keys, a move whose keys go ahead, a round of meets
/// around the 4-cycles of dimensions 0 and 1 (each pair meets at the two
/// other nodes of its cycle), and a compare-exchange across dimension 2.
struct CubeWalks;

impl routesim::primitives::sort_walk::Walks for CubeWalks {
    fn rounds(&self) -> u32 {
        5
    }
    fn sends_keys(&self, i: u32) -> bool {
        i >= 2
    }
    fn round(&self, i: u32, ops: &mut Vec<routesim::primitives::sort_walk::Op>) {
        use routesim::primitives::sort_walk::Op;
        match i {
            0..=2 => ops.extend((0..8).map(|x| Op::Go {
                from: x,
                to: x ^ (1 << i),
            })),
            3 => {
                for a in [0, 4] {
                    ops.push(Op::Meet {
                        from: [a, a ^ 3],
                        to: [a ^ 1, a ^ 2],
                        tell: Some([a ^ 1, a ^ 2]),
                    });
                    ops.push(Op::Meet {
                        from: [a ^ 1, a ^ 2],
                        to: [a ^ 3, a],
                        tell: Some([a, a ^ 3]),
                    });
                }
            }
            _ => ops.extend((0..4).map(|x| Op::Meet {
                from: [x, x ^ 4],
                to: [x ^ 4, x],
                tell: None,
            })),
        }
    }
}

/// The same ops applied to keys directly: where each key ends.
fn walk_offline(walks: &dyn routesim::primitives::sort_walk::Walks, keys: &mut [u64]) {
    use routesim::primitives::sort_walk::Op;
    for i in 0..walks.rounds() {
        let mut ops = Vec::new();
        walks.round(i, &mut ops);
        let mut next = vec![u64::MAX; keys.len()];
        for op in ops {
            match op {
                Op::Go { from, to } => next[to as usize] = keys[from as usize],
                Op::Meet {
                    from: [a, b],
                    to: [c, d],
                    ..
                } => {
                    let (x, y) = (keys[a as usize], keys[b as usize]);
                    next[c as usize] = x.min(y);
                    next[d as usize] = x.max(y);
                }
            }
        }
        keys.copy_from_slice(&next);
    }
}

#[test]
fn walking_packets_meet_where_the_schedule_says_in_the_steps_of_its_timing_rule() {
    use routesim::engine::{Engine, EngineConfig};
    use routesim::primitives::sort_walk::{steps, WalkTask};
    // Keyless moves cost a step each, the keyed move two (its keys wait for
    // the packets of the move before), the meets at other nodes two (their
    // sources are told where to send, the step after the keys cross), the
    // compare-exchange across a link one: 1 + 1 + 2 + 2 + 1.
    assert_eq!(steps(&CubeWalks), 7);
    let mut rng = Rng::new(11, Stream::Workload);
    for _ in 0..20 {
        let keys: Vec<u64> = (0..8).map(|_| rng.below(4) as u64).collect();
        let packets: Vec<(u32, u32)> = (0..8).map(|v| (v, v)).collect();
        let config = EngineConfig {
            check_invariants: true,
            ..Default::default()
        };
        let mut e = Engine::new_holding(crate::common::topo("hypercube:3"), &packets, config);
        e.set_deliver_on_arrival(false);
        for p in 0..8 {
            e.set_eligible(p, false);
        }
        let items: Vec<(u32, u64)> = (0..8).map(|p| (p, keys[p as usize])).collect();
        let mut task = WalkTask::new(&e, std::sync::Arc::new(CubeWalks), &items);
        assert_eq!(drive(&mut e, &mut task), 7);
        let mut want = keys.clone();
        walk_offline(&CubeWalks, &mut want);
        let got: Vec<u64> = {
            let mut at = vec![u64::MAX; 8];
            for p in 0..8 {
                at[e.position(p) as usize] = keys[p as usize];
            }
            at
        };
        assert_eq!(got, want, "keys {keys:?}");
    }
}

/// Two moves in a row that both send keys ahead over the same links: the
/// second one's keys would share the first one's links in one step, and
/// the task refuses rather than count a step that breaks SPEC §1.
struct RingTwice;

impl routesim::primitives::sort_walk::Walks for RingTwice {
    fn rounds(&self) -> u32 {
        2
    }
    fn sends_keys(&self, _i: u32) -> bool {
        true
    }
    fn round(&self, _i: u32, ops: &mut Vec<routesim::primitives::sort_walk::Op>) {
        ops.extend((0..8).map(|x| routesim::primitives::sort_walk::Op::Go {
            from: x,
            to: (x + 1) % 8,
        }));
    }
}

#[test]
#[should_panic(expected = "taken twice in a step")]
fn walking_keys_and_packets_never_share_a_link_in_a_step() {
    use routesim::engine::{Engine, EngineConfig};
    use routesim::primitives::sort_walk::WalkTask;
    let packets: Vec<(u32, u32)> = (0..8).map(|v| (v, v)).collect();
    let mut e = Engine::new_holding(crate::common::topo("ring:8"), &packets, EngineConfig::default());
    e.set_deliver_on_arrival(false);
    let items: Vec<(u32, u64)> = (0..8).map(|p| (p, p as u64)).collect();
    let mut task = WalkTask::new(&e, std::sync::Arc::new(RingTwice), &items);
    drive(&mut e, &mut task);
}
