//! What one group of Flashsort's phases does on `butterfly:D` (Leighton–
//! Maggs–Ranade–Rao §8), worked out where the packets stand when the group
//! begins: the messages of its control phases and the paths of its routing.
//! The packets do not move until the group's routing, so every value a
//! control phase carries is known when the group is planned; what the
//! relays deliver is exactly what the pattern of their messages could
//! carry (see the module doc of [`super`]).
//!
//! Notation. Row bits are fixed from the most significant down as a packet
//! climbs (the link between levels i and i + 1 flips bit D − 1 − i). The
//! subbutterfly B(k, P) is levels k..D over the rows whose top k bits are
//! P: M = 2^m inputs, m = D − k. Its m free bits split into the *high* h =
//! ⌈m/2⌉ (flipped between levels k and k + h) and the *low* m − h.

use super::host::Host;
use super::relay::{lockstep, relay, Steps};
use crate::engine::Engine;
use crate::rng::Rng;
use crate::topology::Network;

/// Ports of the butterfly (`topology::butterfly`).
pub const UP: &[u32] = &[0, 1];
const UP_STRAIGHT: &[u32] = &[0];
const DOWN: &[u32] = &[2, 3];
const DOWN_STRAIGHT: &[u32] = &[2];
const NOWHERE: &[u32] = &[];

/// Where the packets stand: the packets at each logical node (engine ids),
/// and the sort key (key, packet id) of every packet.
pub struct Holdings<'a> {
    pub at: Vec<Vec<u32>>,
    pub keys: &'a [u64],
}

impl<'a> Holdings<'a> {
    /// The packets of `active` where the engine has them, all at logical
    /// level `level` (on a hypercube, where a node hosts every level).
    pub fn of(engine: &Engine, host: &Host, level: u32, active: &[u32], keys: &'a [u64]) -> Holdings<'a> {
        let mut at = vec![Vec::new(); host.logical().nodes() as usize];
        for &p in active {
            at[host.at_level(engine.position(p), level) as usize].push(p);
        }
        Holdings { at, keys }
    }

    /// The total order of the sort: key, then packet id (SPEC §5).
    pub fn key(&self, p: u32) -> (u64, u32) {
        (self.keys[p as usize], p)
    }
}

/// The shape of one recursion level.
#[derive(Debug, Clone, Copy)]
pub struct Level {
    /// D.
    pub dim: u32,
    /// The level the subbutterflies start at.
    pub k: u32,
    /// High bits, ⌈m/2⌉: 2^h strata, one candidate each at most.
    pub h: u32,
    /// Levels routed by the splitters: 2^b intervals.
    pub b: u32,
    /// Balanced slots (the lightly loaded sort, [`super::columnsort`]):
    /// each packet goes to the next free input of its interval's
    /// subbutterfly instead of keeping its low bits.
    pub slots: bool,
}

impl Level {
    /// m = D − k.
    pub fn m(self) -> u32 {
        self.dim - self.k
    }

    fn low(self) -> u32 {
        self.m() - self.h
    }

    fn rows(self) -> u32 {
        1 << self.dim
    }
}

/// A level's plan: its two control phases and its packets' paths.
pub struct LevelPlan {
    /// Candidates: stratum samples, broadcast both ways, compared at level
    /// D, their ranks summed back down to level k + h.
    pub rank_steps: Steps,
    /// The splitters, from their holders at level k + h down to level k.
    pub spread_steps: Steps,
    /// Balanced slots only: the intervals' counts scanned up the
    /// subbutterfly and each packet's slot sent back down (empty otherwise).
    pub slot_steps: Steps,
    /// Candidates drawn, over all subbutterflies.
    pub candidates: u32,
    /// (packet, destination row at level k + b), every packet of level k.
    pub moves: Vec<(u32, u32)>,
}

/// Plans recursion level `lv` for every subbutterfly B(k, P) at once.
///
/// 1. *Candidates*: stratum i of B (its level-k nodes whose high bits are
///    i) offers one node x_i drawn uniformly from its 2^(m−h) nodes, and
///    that node one of its packets, drawn uniformly, if it holds any.
/// 2. *Ranking by comparing every pair*: candidate i climbs to level k + h
///    flooding both links (so it reaches the rows (i′, x_i) for every i′)
///    and then straight to level D; it also climbs straight to level k + h
///    and floods both links from there (reaching (i, y) for every y). Node
///    (i′, y) of level D then holds candidate i′ and every candidate j with
///    x_j = y, and counts those below i′ and all of them; the counts are
///    summed down to level k + h, level by level (an all-reduce over the
///    low bits), so every node (i′, ·) there knows the rank of candidate i′
///    and the number K of candidates.
/// 3. *Splitters*: of the K ranked candidates, the one of rank ⌊t·K/2^b⌋
///    is splitter t, t = 1..2^b − 1 (every (K/2^b)-th); each holder sends
///    its splitter down both links to level k, so every node of level k of
///    B knows them all.
/// 4. *Splitter-directed routing*: a packet's interval is the number of
///    splitters below it; it climbs b levels to the subbutterfly
///    B(k + b, P·interval), keeping its low bits.
///
/// With `slots` (the lightly loaded sort), step 4 gives every packet its
/// own input of B(k + b, P·interval): its *slot*, the number of packets of
/// its interval in the rows of B before it (row order, then packet id
/// order in a row), modulo the 2^(m−b) inputs (an interval larger than its
/// subbutterfly wraps around: two packets to a node). The slots are a
/// multi-prefix: every level-k node starts with the 2^b counts of its
/// packets' intervals, and a butterfly scan over the m free bits sends
/// each node's block total (2^b numbers, pipelined one per step) on both
/// up links, level by level — m + 2^b − 1 steps; node ⟨D, y⟩ then knows
/// the counts of every interval in the rows before y, and sends each
/// packet of row y its slot straight down. The packet then climbs to level
/// D, fixing all m bits to its slot's row, and descends straight to level
/// k + b: the low bits change only above level k + b.
pub fn level(lv: Level, host: &Host, hold: &Holdings, rng: &mut Rng) -> LevelPlan {
    let (m, h, low, b) = (lv.m(), lv.h, lv.low(), lv.b);
    let (k, d) = (lv.k, lv.dim);
    let mut rank_items = Vec::new();
    let mut spread_items = Vec::new();
    let mut slot_items = Vec::new();
    let mut moves = Vec::new();
    let mut candidates = 0;
    for prefix in 0..1u32 << k {
        let base = prefix << m;
        // 1. One candidate per stratum at most: (stratum, packet).
        let mut cands: Vec<(u32, u32)> = Vec::new();
        for i in 0..1u32 << h {
            let x = rng.below(1 << low);
            let held = &hold.at[host.node(k, base | i << low | x) as usize];
            if !held.is_empty() {
                let p = held[rng.below(held.len() as u32) as usize];
                cands.push((i, p));
                let start = host.node(k, base | i << low | x);
                let id = rank_items.len() as u32;
                rank_items.push((id, start));
                rank_items.push((id + 1, start));
            }
        }
        candidates += cands.len() as u32;
        // 2. Their order (what the all-pairs comparison establishes).
        cands.sort_by_key(|&(_, p)| hold.key(p));
        let count = cands.len() as u64;
        // 3. Splitter t is the candidate of rank ⌊t·K/2^b⌋.
        let splitters: Vec<usize> = if count == 0 {
            Vec::new()
        } else {
            (1..1u64 << b).map(|t| ((t * count) >> b) as usize).collect()
        };
        let mut holders: Vec<usize> = splitters.clone();
        holders.dedup();
        for &s in &holders {
            let stratum = cands[s].0;
            for y in 0..1u32 << low {
                spread_items.push((spread_items.len() as u32, host.node(k + h, base | stratum << low | y)));
            }
        }
        // 4. Every packet of B to its interval's subbutterfly.
        let keys: Vec<(u64, u32)> = splitters.iter().map(|&s| hold.key(cands[s].1)).collect();
        let inputs = 1u32 << (m - b);
        let mut filled = vec![0u32; 1 << b];
        for row in base..base + (1 << m) {
            let here = &hold.at[host.node(k, row) as usize];
            for &p in here {
                let interval = keys.partition_point(|&s| s < hold.key(p)) as u32;
                let rest = if lv.slots {
                    let slot = &mut filled[interval as usize];
                    *slot += 1;
                    (*slot - 1) % inputs
                } else {
                    row & (inputs - 1)
                };
                moves.push((p, base | interval << (m - b) | rest));
            }
            if lv.slots {
                for _ in 0..here.len() {
                    slot_items.push((slot_items.len() as u32, host.node(d, row)));
                }
            }
        }
    }
    // Item 2c is candidate c's flood over the high bits (then straight
    // up), item 2c + 1 its climb (then its flood over the low bits).
    let mid = k + h;
    let n = lv.rows();
    let (topo, key) = (host.logical(), |v, port| host.link_key(v, port));
    let mut rank_steps = relay(
        topo,
        &rank_items,
        |item, node, _| {
            let level = node / n;
            let ports = match (item % 2 == 0, level) {
                (_, l) if l >= d => NOWHERE,
                (true, l) if l < mid => UP,
                (true, _) => UP_STRAIGHT,
                (false, l) if l < mid => UP_STRAIGHT,
                (false, _) => UP,
            };
            ports.iter().copied()
        },
        key,
    );
    // The counts summed down from level D to level k + h, every node of
    // a level sending on both links in one step.
    let level_nodes = |l: u32| vec![(l * n, n)];
    rank_steps.extend(lockstep(topo, (mid + 1..=d).rev().map(level_nodes), DOWN));
    let spread_steps = relay(
        topo,
        &spread_items,
        |_, node, _| (if node / n > k { DOWN } else { NOWHERE }).iter().copied(),
        key,
    );
    let mut slot_steps = Steps::new();
    if lv.slots {
        // Step t of the scan: level l sends element t − (l − k) of its
        // block total, while there is one.
        let width = 1u32 << b;
        let senders = (0..m + width - 1).map(|t| {
            (k..d)
                .filter(|&l| t >= l - k && t - (l - k) < width)
                .map(|l| (l * n, n))
                .collect::<Vec<(u32, u32)>>()
        });
        slot_steps = lockstep(topo, senders, UP);
        slot_steps.extend(relay(
            topo,
            &slot_items,
            |_, node, _| (if node / n > k { DOWN_STRAIGHT } else { NOWHERE }).iter().copied(),
            key,
        ));
    }
    LevelPlan {
        rank_steps,
        spread_steps,
        slot_steps,
        candidates,
        moves,
    }
}

/// The leaf's plan: its control phases and every packet's global rank.
pub struct LeafPlan {
    /// Every packet's key floods its leaf up to level D; each node of
    /// level D, knowing the leaf's keys, sends the ranks of the packets
    /// below it (and the leaf's count, also where there is none) straight
    /// down.
    pub rank_steps: Steps,
    /// The leaves' counts, prefix-summed down to level 0 over the leaf
    /// bits and the offsets carried straight back up.
    pub offset_steps: Steps,
    /// (packet, its rank among all keys).
    pub ranks: Vec<(u32, u32)>,
}

/// Plans the leaves B(k, P) (m = D − k levels each): a deterministic sort
/// of each leaf by all-pairs comparison, and the leaves' offsets by a
/// parallel prefix over their counts.
pub fn leaf(k: u32, host: &Host, hold: &Holdings) -> LeafPlan {
    let dim = host.dim();
    let (n, m) = (1u32 << dim, dim - k);
    let (topo, key) = (host.logical(), |v, port| host.link_key(v, port));
    let mut up_items = Vec::new();
    let mut down_items = Vec::new();
    let mut ranks = Vec::new();
    let mut offset = 0u32;
    for prefix in 0..1u32 << k {
        let base = prefix << m;
        let mut leaf: Vec<u32> = Vec::new();
        for row in base..base + (1 << m) {
            let here = &hold.at[(k * n + row) as usize];
            for &p in here {
                up_items.push((up_items.len() as u32, k * n + row));
                leaf.push(p);
            }
            // One message down per packet below (its rank and the leaf's
            // count), and one to a node without packets (the count, which
            // the offsets' scan starts from).
            for _ in 0..here.len().max(1) {
                down_items.push((down_items.len() as u32, dim * n + row));
            }
        }
        leaf.sort_by_key(|&p| hold.key(p));
        ranks.extend(leaf.iter().enumerate().map(|(r, &p)| (p, offset + r as u32)));
        offset += leaf.len() as u32;
    }
    let mut rank_steps = relay(
        topo,
        &up_items,
        |_, node, _| (if node / n < dim { UP } else { NOWHERE }).iter().copied(),
        key,
    );
    rank_steps.extend(relay(
        topo,
        &down_items,
        |_, node, _| (if node / n > k { DOWN_STRAIGHT } else { NOWHERE }).iter().copied(),
        key,
    ));
    let level_nodes = |l: u32| vec![(l * n, n)];
    let mut offset_steps = lockstep(topo, (1..=k).rev().map(level_nodes), DOWN);
    offset_steps.extend(lockstep(topo, (0..k).map(level_nodes), UP_STRAIGHT));
    LeafPlan {
        rank_steps,
        offset_steps,
        ranks,
    }
}
