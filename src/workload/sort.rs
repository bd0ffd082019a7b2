//! The sorting problem (SPEC §5 "Sorting"): every node of the topology's
//! order holds one key (a packet); the sort ends when the key of rank r
//! (ties by packet id) sits at node r of that order. The order is the node
//! id on every topology this file knows: row-major on meshes and tori, the
//! label on hypercubes and shuffle-exchange graphs, the row at level 0 on
//! butterflies (whose level-0 node of row r has id r, SPEC §2). So node r
//! of the topology's own order is node id r, for r < [`key_count`]; an
//! algorithm may name another ([`Order::Snake`] on a 2-D mesh,
//! [`Order::LevelDRow`] on a butterfly), and the simulation then moves each
//! destination to that order's node of its rank.

use crate::error::{Error, Result};
use crate::topology::{Network, Topology};

/// How many keys a sort on `topo` holds: one per node, or one per row of a
/// butterfly (N = 2^D).
pub fn key_count(topo: &Topology) -> u32 {
    match topo {
        Topology::Butterfly(b) => b.rows(),
        _ => topo.nodes(),
    }
}

/// The node of rank r in the topology's order (SPEC §5).
pub fn node_of_rank(r: u32) -> u32 {
    r
}

/// An order of the nodes a sort ends in (SPEC §5, the report's `order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Row-major (meshes and tori): node id r.
    RowMajor,
    /// The snake of a 2-D mesh: row r / C left to right in even rows,
    /// right to left in odd ones (only where an algorithm says so).
    Snake,
    /// The label (hypercubes, shuffle-exchange graphs): node id r.
    Label,
    /// The row at level 0 of a butterfly: node id r.
    Level0Row,
    /// The row at level D of `butterfly:D`: node id D·2^D + r (only where
    /// an algorithm says so: `bitonic`'s keys end there).
    LevelDRow,
}

impl Order {
    /// The topology's own order (SPEC §5).
    pub fn of(topo: &Topology) -> Order {
        match topo {
            Topology::Butterfly(_) => Order::Level0Row,
            Topology::Hypercube(_) | Topology::ShuffleExchange(_) => Order::Label,
            _ => Order::RowMajor,
        }
    }

    /// Its SPEC §5 name.
    pub fn name(self) -> &'static str {
        match self {
            Order::RowMajor => "row-major",
            Order::Snake => "snake",
            Order::Label => "label",
            Order::Level0Row => "level0-row",
            Order::LevelDRow => "levelD-row",
        }
    }

    /// Node r of the order on `topo` (the snake needs a 2-D grid, level D
    /// a butterfly).
    pub fn node(self, topo: &Topology, r: u32) -> u32 {
        match (self, topo.mesh2d(), topo) {
            (Order::Snake, Some((_, c)), _) => {
                let (row, col) = (r / c, r % c);
                row * c + if row % 2 == 0 { col } else { c - 1 - col }
            }
            (Order::LevelDRow, _, Topology::Butterfly(b)) => b.node_at(b.dim(), r),
            _ => node_of_rank(r),
        }
    }
}

/// The destination of every packet: the node of its key's rank in the
/// topology's own order, ties by packet id.
pub fn rank_destinations(keys: &[u64]) -> Vec<u32> {
    let mut ids: Vec<u32> = (0..keys.len() as u32).collect();
    ids.sort_by_key(|&p| (keys[p as usize], p));
    let mut dest = vec![0; keys.len()];
    for (r, &p) in ids.iter().enumerate() {
        dest[p as usize] = node_of_rank(r as u32);
    }
    dest
}

/// One key per packet: `keys` keys (an instance's count, which may be past
/// what its reader kept) for `packets` packets.
pub fn check_key_count(keys: u64, packets: usize) -> Result<()> {
    if keys != packets as u64 {
        return Err(Error::invalid(
            "keys",
            format!("{keys} keys"),
            format!("expected one key per packet ({packets} packets)"),
        ));
    }
    Ok(())
}

/// Refuses packets that do not form the sort of `keys` on `topo`: one key
/// per node of the order (sources 0..N, each once) and every destination
/// the node of its key's rank, in the topology's order or (all of them) in
/// the one an algorithm may end in there. Errors name the field and the value.
pub fn check_sort_packets(topo: &Topology, packets: &[(u32, u32)], keys: &[u64]) -> Result<()> {
    let n = key_count(topo);
    check_key_count(keys.len() as u64, packets.len())?;
    if packets.len() != n as usize {
        return Err(Error::invalid(
            "packets",
            format!("{} packets", packets.len()),
            match topo {
                Topology::Butterfly(_) => format!("a sort on {topo} holds one key at each of its {n} level-0 rows"),
                _ => format!("a sort on {topo} holds one key at each of its {n} nodes in order"),
            },
        ));
    }
    let mut seen = vec![false; n as usize];
    for (i, &(s, _)) in packets.iter().enumerate() {
        if s >= n || std::mem::replace(&mut seen[s as usize], true) {
            return Err(Error::invalid(
                format!("packets[{i}][0]"),
                s,
                format!("a sort holds one key at each node 0..{} of {topo}", n - 1),
            ));
        }
    }
    // The topology's own order, or the order an algorithm ends in (a 2-D
    // mesh's snake, a butterfly's level D: a run that ends there may write
    // its file so); the run sets the order its algorithm names anyway.
    let ranks = rank_destinations(keys);
    let own = Order::of(topo);
    let also = match topo {
        Topology::Butterfly(_) => Some(Order::LevelDRow),
        _ if topo.mesh2d().is_some() => Some(Order::Snake),
        _ => None,
    };
    let fits = |order: Order| packets.iter().zip(&ranks).all(|(&(_, d), &r)| d == order.node(topo, r));
    if fits(own) || also.is_some_and(fits) {
        return Ok(());
    }
    let (i, d, want) = packets
        .iter()
        .zip(&ranks)
        .enumerate()
        .map(|(i, (&(_, d), &r))| (i, d, own.node(topo, r)))
        .find(|&(_, d, want)| d != want)
        .expect("some destination differs");
    let or = also.map_or(String::new(), |o| format!(" (or all in the {} order)", o.name()));
    Err(Error::invalid(
        format!("packets[{i}][1]"),
        d,
        format!("with keys, a packet's destination is the node of its key's rank: {want}{or}"),
    ))
}

/// Whether `positions` (each packet's final node) put the keys in order:
/// node r of the order holds the key of rank r (ties by packet id). Checked
/// from the positions alone, not from what an algorithm says.
pub fn is_sorted(topo: &Topology, order: Order, keys: &[u64], positions: &[u32]) -> bool {
    let n = key_count(topo) as usize;
    if keys.len() != n || positions.len() != n {
        return false;
    }
    // The rank of each node of the order.
    let mut rank_of = vec![u32::MAX; topo.nodes() as usize];
    for r in 0..n as u32 {
        rank_of[order.node(topo, r) as usize] = r;
    }
    let mut at: Vec<Option<u32>> = vec![None; n];
    for (p, &v) in positions.iter().enumerate() {
        let r = rank_of.get(v as usize).copied().unwrap_or(u32::MAX) as usize;
        if r >= n || at[r].is_some() {
            return false;
        }
        at[r] = Some(p as u32);
    }
    let order: Vec<u32> = at.into_iter().map(|p| p.expect("every node filled")).collect();
    order
        .windows(2)
        .all(|w| (keys[w[0] as usize], w[0]) < (keys[w[1] as usize], w[1]))
}
