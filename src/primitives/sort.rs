//! Snake-order mesh sort in O(side) steps for every power-of-two side: a
//! merge sort in the style of Schimmler's 4-way mergesort ("roughly sorted"
//! blocks) with the perfect shuffle of LS3 sort (Lang, Schimmler, Schmeck,
//! Schröder) — the "standard sorting" that Pietracaprina–Pucci §3 (proof of
//! Theorem 2) and §4 Step 2.(a).ii rely on.
//!
//! Every aligned m×m region sorts its items into snake order, all regions in
//! parallel. Merge level k = 2, 4, …, m works on every aligned k×k block
//! (h = k/2) whose four h×h quadrants are *roughly sorted*: for 0-1 keys,
//! every column holds its 0s on top and the columns' 0-counts differ by at
//! most one — all rows above one *dirty* row are 0, all rows below it 1.
//! Rows and columns are sorted by odd–even transposition (OETS: rounds of
//! compare-exchanges between neighbours, alternately on the pairs starting at
//! even and at odd positions); OETS sorts a line of n in n rounds.
//! 1. *quadrant rows*: OETS on the rows of every quadrant, h rounds (1 for
//!    h = 2, none for h = 1): 0s to the left in the upper quadrants, to the
//!    right in the lower ones;
//! 2. *columns*: k − 1 rounds of OETS on every column, starting with the
//!    pair across the middle;
//! 3. *half rows*: OETS on the rows of the left half (0s to the left) and
//!    of the right half (0s to the right), h rounds (as in 1);
//! 4. *shuffle* each row (left half to even columns, right half to odd
//!    ones): k/2 − 1 rounds of unconditional exchanges;
//! 5. *balance* every double column (columns 2i, 2i+1): one round across it
//!    (the smaller key to the left in even rows, to the right in odd rows),
//!    then h rounds of OETS on every column;
//! 6. on the last level (k = m) only: OETS on every row towards its snake
//!    direction, m rounds (1 for m = 2).
//!
//! Why it sorts (0-1 principle; a 1×1 quadrant is roughly sorted). Let
//! quadrant Q have a_Q full 0-rows and t_Q < h 0s in its dirty row.
//! After 1 those t_Q 0s are a prefix (upper quadrants) or a suffix (lower
//! ones) of the dirty row. Step 2 merges two sorted runs per column: with
//! p 0s on top of the upper run, the i-th 0 of the lower run starts moving
//! in round i at the latest and then moves every round until it is home, by
//! round i − 1 + (h − p) ≤ k − 1. A left-half column j then holds
//! a_UL + a_LL + \[j < t_UL\] + \[j ≥ h − t_LL\] 0s; a prefix and a suffix
//! indicator add up to e or e + 1 everywhere (e = 0 or 1), so each half is
//! roughly sorted again: its columns hold L or L + 1 (left half), R or
//! R + 1 (right half) 0s. After 3 the extra 0s of the left half are a
//! prefix (x of them) and those of the right half a suffix (y), and after
//! the shuffle double column d holds l = L + \[d < x\] 0s in its left column
//! and r = R + [d ≥ h − y] in its right one: l + r is L + R + e or
//! L + R + e + 1 for every d. The cross round of 5 leaves the 0 of every
//! row between s = min(l, r) and max(l, r) in the left column in even rows
//! and in the right one in odd rows; the column OETS closes up these spaced
//! 0s. A 0 in an odd row moves from round 1 on, one in an even row from
//! round 2 on, every round until home (it never catches the one ahead).
//! The n-th spaced 0 of a column is n − 1 + [the first is in row s + 1]
//! rows from home, so home by round n − 1 + [even row] + [row s + 1] ≤ h:
//! n ≤ h, and n ≤ h − 1 when both brackets are 1 (then s is odd, s ≥ 1).
//! The two columns then hold ⌊(l+r)/2⌋
//! and ⌈(l+r)/2⌉ 0s, so all columns of the block are within one: roughly
//! sorted. Step 6 sorts the region's one dirty row in its snake direction.
//!
//! Each node holds a *bucket* of c slots (c = 1 normally); an empty slot is
//! +∞. A compare-exchange between neighbours is a merge-split of buckets:
//! the c keys cross the link both ways (c steps of control messages), then
//! the lower node keeps the c smallest and packets cross (c steps) — 2 steps
//! for c = 1 (SPEC §1). An exchange round is a compare-exchange whose
//! outcome is fixed (its keys cross too, so that every node knows the key of
//! the packet it will hold). The network above sorts every input (0-1
//! principle), so its merge-split version sorts buckets (Knuth, TAOCP 3,
//! §5.3.4 ex. 38).
//!
//! Rounds are pipelined (SPEC §1): once round r's keys have crossed, every
//! node knows which packets it will hold, so round r + 1's keys cross in the
//! same steps as round r's packets — allowed because every two consecutive
//! rounds use disjoint links (rows after columns and back; OETS rounds
//! alternate parity; the shuffle's rounds alternate parity, its first uses
//! the middle link that half rows never use and its last the odd links that
//! the cross round never uses). Time: per level k ≥ 8, 3k − 1 rounds
//! (5k/2 compare rounds and k/2 − 1 exchanges); in all R = 7m − 10 − log₂ m
//! rounds for m ≥ 8 and (R + 1)·c steps (e.g. 433 at side 64 for c = 1,
//! 6.77·side), ≈ 7·c·m.

use super::geometry::Mesh;
use super::Task;
use crate::engine::Engine;
use crate::topology::Network;
use plan::Round;
use std::sync::Arc;

mod plan;

/// A sorting network on any topology, for [`SortTask::on_network`]: its
/// rounds of compare-exchanges between neighbours, each comparator a pair
/// of nodes (the first keeps the smaller key) with the ports from one to
/// the other. Two consecutive rounds must use disjoint links (SPEC §1), so
/// that they may overlap.
pub trait Comparators: Send + Sync {
    /// The nodes that hold keys: 0..nodes().
    fn nodes(&self) -> u32;
    /// The number of rounds.
    fn rounds(&self) -> u32;
    /// Round `i`'s comparators into `pairs` (first keeps the smaller) and
    /// `ports` (from the first to the second, and back); both start empty.
    fn round(&self, i: u32, pairs: &mut Vec<(u32, u32)>, ports: &mut Vec<(u32, u32)>);
}

/// An empty slot's key.
pub const EMPTY: u128 = u128::MAX;

/// A round of a merge level: unconditional exchanges, or compare-exchanges
/// in which the first node of each pair keeps the smaller keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoundKind {
    /// Swap the buckets.
    Exchange,
    /// Merge-split: the first node gets the smaller half.
    Compare,
}

/// A comparator of a round: two block-local (row, column) cells; the first
/// keeps the smaller keys.
pub type CellPair = ((u32, u32), (u32, u32));

/// The phases of a merge level, in order (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    QuadrantRows,
    Columns,
    HalfRows,
    Shuffle,
    Cross,
    Balance,
    SnakeRows,
}

/// Rounds OETS needs on a line of n (n rounds; for n = 2 the second would be empty).
fn oets_rounds(n: u32) -> u32 {
    if n <= 2 {
        n.saturating_sub(1)
    } else {
        n
    }
}

/// The phases of merge level k with their numbers of rounds; `last` adds the
/// final row sort (k = m).
fn phases(k: u32, last: bool) -> [(Phase, u32); 7] {
    let h = k / 2;
    [
        (Phase::QuadrantRows, oets_rounds(h)),
        (Phase::Columns, k - 1),
        (Phase::HalfRows, oets_rounds(h)),
        (Phase::Shuffle, exchanges_in_level(k)),
        (Phase::Cross, 1),
        (Phase::Balance, h),
        (Phase::SnakeRows, if last { oets_rounds(k) } else { 0 }),
    ]
}

/// Number of rounds of merge level k; `last` if k is the side m of the
/// regions (the level that ends with the row sort).
pub fn rounds_in_level(k: u32, last: bool) -> u32 {
    phases(k, last).iter().map(|&(_, n)| n).sum()
}

/// Number of exchange rounds of merge level k (the shuffle).
pub fn exchanges_in_level(k: u32) -> u32 {
    k / 2 - 1
}

/// Pushes one OETS round on a line of `n` cells: `cell(i)` is the i-th cell,
/// the smaller key goes to the lower index; `parity` picks the pairs (i, i + 1)
/// with i ≡ parity (mod 2).
fn oets_round(n: u32, parity: u32, cell: impl Fn(u32) -> (u32, u32), out: &mut Vec<CellPair>) {
    let mut i = parity % 2;
    while i + 1 < n {
        out.push((cell(i), cell(i + 1)));
        i += 2;
    }
}

/// Round `q` of merge level k (`last` as in [`rounds_in_level`]), as pairs of
/// block-local (row, column) cells.
pub fn level_round(k: u32, last: bool, q: u32, out: &mut Vec<CellPair>) -> RoundKind {
    out.clear();
    let h = k / 2;
    let mut q = q;
    let mut phase = Phase::SnakeRows;
    for (p, n) in phases(k, last) {
        if q < n {
            phase = p;
            break;
        }
        q -= n;
    }
    debug_assert!(q < phases(k, last)[phase as usize].1, "round beyond level {k}");
    match phase {
        Phase::QuadrantRows | Phase::HalfRows => {
            // Two lines of h per row; in QuadrantRows the direction depends on
            // the row (upper half: 0s left), in HalfRows on the half (left: 0s left).
            for r in 0..k {
                for c0 in [0, h] {
                    let left = if phase == Phase::QuadrantRows { r < h } else { c0 == 0 };
                    let cell = |i: u32| (r, if left { c0 + i } else { c0 + h - 1 - i });
                    oets_round(h, q, cell, out);
                }
            }
        }
        Phase::Columns | Phase::Balance => {
            // Columns starts with the pair (h − 1, h) across the middle.
            let parity = if phase == Phase::Columns { h - 1 + q } else { q };
            for c in 0..k {
                oets_round(k, parity, |i| (i, c), out);
            }
        }
        Phase::Shuffle => {
            let t = q + 1;
            for r in 0..k {
                for j in 0..t {
                    let c = h - t + 2 * j;
                    out.push(((r, c), (r, c + 1)));
                }
            }
            return RoundKind::Exchange;
        }
        Phase::Cross => {
            for r in 0..k {
                for d in 0..h {
                    let (a, b) = ((r, 2 * d), (r, 2 * d + 1));
                    out.push(if r % 2 == 0 { (a, b) } else { (b, a) });
                }
            }
        }
        Phase::SnakeRows => {
            for r in 0..k {
                let cell = |i: u32| (r, if r % 2 == 0 { i } else { k - 1 - i });
                oets_round(k, q, cell, out);
            }
        }
    }
    RoundKind::Compare
}

/// Sorts `keys` (row-major, side×side, one key per cell) into snake order
/// inside every aligned m×m region with the same network, off the engine
/// (for tests of the network).
pub fn sort_offline(side: u32, m: u32, keys: &mut [u128]) {
    sort_buckets_offline(side, m, 1, false, keys);
}

/// The merge-split version of the network off the engine (for tests of the
/// network): `slots` holds c keys per node (row-major nodes, each bucket
/// ascending, EMPTY for an empty slot); every aligned m×m region is sorted
/// into row-major snake order, or column-major snake order if `transposed`.
pub fn sort_buckets_offline(side: u32, m: u32, c: usize, transposed: bool, slots: &mut [u128]) {
    let mut pairs = Vec::new();
    let mut merged = Vec::with_capacity(2 * c);
    let mut k = 2;
    while k <= m {
        let last = k == m;
        for q in 0..rounds_in_level(k, last) {
            let kind = level_round(k, last, q, &mut pairs);
            for br in (0..side).step_by(k as usize) {
                for bc in (0..side).step_by(k as usize) {
                    for &(x, y) in &pairs {
                        let node = |(r, col): (u32, u32)| {
                            let (r, col) = if transposed { (col, r) } else { (r, col) };
                            (((br + r) * side + bc + col) as usize) * c
                        };
                        let (a, b) = (node(x), node(y));
                        if kind == RoundKind::Exchange {
                            for s in 0..c {
                                slots.swap(a + s, b + s);
                            }
                        } else {
                            merged.clear();
                            merged.extend_from_slice(&slots[a..a + c]);
                            merged.extend_from_slice(&slots[b..b + c]);
                            merged.sort_unstable();
                            slots[a..a + c].copy_from_slice(&merged[..c]);
                            slots[b..b + c].copy_from_slice(&merged[c..]);
                        }
                    }
                }
            }
        }
        k *= 2;
    }
}

/// The sort as a task on the engine: every participating packet (at most c
/// per node) ends in snake order of its key inside its m×m region, with
/// node i of the snake holding the keys of ranks c·i .. c·i + c − 1.
///
/// The rounds are pipelined (SPEC §1): round r's keys cross in c steps,
/// and while its packets cross (c steps more) round r + 1's keys cross on
/// its own links — consecutive rounds never share a link (checked by
/// [`consecutive_rounds_share_no_link`] in the tests, and asserted on every
/// message and move). So R rounds take c·(R + 1) steps.
#[derive(Clone)]
pub struct SortTask {
    mesh: Mesh,
    /// Top-left corner and side of the area this task sorts in (the whole
    /// mesh, or one region).
    origin: (u32, u32),
    span: u32,
    m: u32,
    c: u32,
    /// Per node, c items ascending (empty slots last), each item as the
    /// rank of its key among the task's keys: ranks compare as the keys do
    /// (keys are distinct: a key ends with its packet), in a quarter of the
    /// memory. An empty slot holds the number of items, after every rank
    /// as [`EMPTY`] is after every key.
    slots: Vec<u32>,
    /// The packet of each rank, and `u32::MAX` for an empty slot's.
    packets: Vec<u32>,
    /// Ports per node of the engine's topology: a link's id is
    /// node · ports + port (4 on the mesh).
    ports: u32,
    /// The next round to start: merge level k, round q of it.
    k: u32,
    q: u32,
    /// Step within the current window of c steps.
    sub: u32,
    local: Vec<CellPair>,
    /// `local` as link-id offsets from a block's top-left node, a to b and
    /// b to a (laid out once per round, added to every block's corner).
    offsets: Vec<(u32, u32)>,
    /// The round whose keys cross in this window.
    keys: Option<Round>,
    /// The round whose packets cross in this window (planned at its start).
    swaps: Option<Round>,
    /// Packets to move in `swaps`, per pair: (from a to b, from b to a), flattened c per pair (c > 1).
    moves: Vec<(u32, u32)>,
    /// The scripted moves `(packet, port)` of `swaps`, window step after
    /// window step: those of step s are `scripted[starts[s]..starts[s + 1]]`,
    /// handed to the engine in one call.
    scripted: Vec<(u32, u32)>,
    starts: Vec<usize>,
    /// Sort into column-major snake order instead (every block transposed).
    transposed: bool,
    /// A sorting network on any topology instead of the mesh's (the mesh
    /// fields are then unused; node v's slots are v·c..).
    network: Option<Arc<dyn Comparators>>,
    /// The network's next round.
    next: u32,
}

/// Ports (SPEC §2) from cell x to its neighbour y and back.
fn port_pair((r1, c1): (u32, u32), (r2, c2): (u32, u32)) -> (u32, u32) {
    if r2 == r1 + 1 {
        (0, 1)
    } else if r1 == r2 + 1 {
        (1, 0)
    } else if c2 == c1 + 1 {
        (2, 3)
    } else {
        (3, 2)
    }
}

/// A sort key: `primary` then the packet id.
pub fn key(primary: u64, packet: u32) -> u128 {
    ((primary as u128) << 32) | packet as u128
}

/// The network's rounds in order, as (level k, round q) — all levels 2, 4, …, m.
pub fn all_rounds(m: u32) -> impl Iterator<Item = (u32, u32)> {
    let levels = if m < 2 { 0 } else { m.ilog2() };
    (1..=levels).flat_map(move |i| {
        let k = 1u32 << i;
        (0..rounds_in_level(k, k == m)).map(move |q| (k, q))
    })
}

/// Whether two consecutive rounds of the network for m×m regions share no
/// link (SPEC §1: only then may round r + 1's keys cross while round r's
/// packets do). Returns the first pair of rounds that share one, if any.
pub fn consecutive_rounds_share_no_link(m: u32) -> Option<((u32, u32), (u32, u32))> {
    let links = |k: u32, q: u32| -> std::collections::HashSet<((u32, u32), (u32, u32))> {
        let mut pairs = Vec::new();
        level_round(k, k == m, q, &mut pairs);
        let mut set = std::collections::HashSet::new();
        for br in (0..m).step_by(k as usize) {
            for bc in (0..m).step_by(k as usize) {
                for &((r1, c1), (r2, c2)) in &pairs {
                    let (a, b) = ((br + r1, bc + c1), (br + r2, bc + c2));
                    set.insert((a.min(b), a.max(b)));
                }
            }
        }
        set
    };
    let rounds: Vec<(u32, u32)> = all_rounds(m).collect();
    rounds
        .windows(2)
        .find(|w| !links(w[0].0, w[0].1).is_disjoint(&links(w[1].0, w[1].1)))
        .map(|w| (w[0], w[1]))
}

/// The packets of `items` (packet, primary key) in the order of their
/// keys ([`key`]): the packet of each rank, then `u32::MAX` (that of an
/// empty slot, whose rank is the number of items).
fn ranked(items: &[(u32, u64)]) -> Vec<u32> {
    let mut keys: Vec<u128> = items.iter().map(|&(p, primary)| key(primary, p)).collect();
    keys.sort_unstable();
    keys.iter().map(|&k| k as u32).chain([u32::MAX]).collect()
}

impl SortTask {
    /// Sorts `items` (packet, primary key) inside every aligned m×m region
    /// with buckets of `c` slots; every node must hold at most c of them.
    pub fn new(e: &Engine, mesh: Mesh, m: u32, c: u32, items: &[(u32, u64)]) -> SortTask {
        Self::in_area(e, mesh, (0, 0), mesh.side(), m, c, items)
    }

    /// Sorts inside the one m×m region with top-left corner `origin` (every
    /// item must lie in it); regions sorted by separate tasks may use
    /// different bucket sizes.
    pub fn in_region(e: &Engine, mesh: Mesh, origin: (u32, u32), m: u32, c: u32, items: &[(u32, u64)]) -> SortTask {
        Self::in_area(e, mesh, origin, m, m, c, items)
    }

    fn in_area(
        e: &Engine,
        mesh: Mesh,
        origin: (u32, u32),
        span: u32,
        m: u32,
        c: u32,
        items: &[(u32, u64)],
    ) -> SortTask {
        let n = (span * span) as usize;
        let cu = c as usize;
        let packets = ranked(items);
        let none = items.len() as u32;
        let mut slots = vec![none; n * cu];
        let mut fill = vec![0usize; n];
        let local = |v: u32| {
            let (r, col) = mesh.rc(v);
            ((r - origin.0) * span + col - origin.1) as usize
        };
        for (rank, &p) in packets[..items.len()].iter().enumerate() {
            let v = local(e.position(p));
            assert!(fill[v] < cu, "node {v} holds more than {c} items to sort");
            slots[v * cu + fill[v]] = rank as u32;
            fill[v] += 1;
        }
        // Ranks enter in ascending order: every bucket is sorted.
        Self::first_round(SortTask {
            mesh,
            origin,
            span,
            m,
            c,
            slots,
            packets,
            ports: 4,
            network: None,
            ..Self::fresh()
        })
    }

    /// The fields every new task starts with (a mesh of side 1, nothing
    /// sorted yet); the constructors set their own.
    fn fresh() -> SortTask {
        SortTask {
            mesh: Mesh::new(1).expect("1 is a power of two"),
            origin: (0, 0),
            span: 1,
            m: 1,
            c: 1,
            slots: Vec::new(),
            packets: Vec::new(),
            ports: 4,
            k: 2,
            q: 0,
            sub: 0,
            local: Vec::new(),
            offsets: Vec::new(),
            keys: None,
            swaps: None,
            moves: Vec::new(),
            scripted: Vec::new(),
            starts: Vec::new(),
            transposed: false,
            network: None,
            next: 0,
        }
    }

    /// A new task with its first round's keys on their way.
    fn first_round(mut task: SortTask) -> SortTask {
        task.keys = task.next_round(Round::default());
        task
    }

    /// Runs the sorting network `network` (one key per node, c = 1) with
    /// the same machinery: keys cross both ways, packets swap if out of
    /// order, consecutive rounds overlap; R rounds take R + 1 steps.
    pub fn on_network(e: &Engine, network: Arc<dyn Comparators>, items: &[(u32, u64)]) -> SortTask {
        let n = network.nodes() as usize;
        let packets = ranked(items);
        let none = items.len() as u32;
        let mut slots = vec![none; n];
        for (rank, &p) in packets[..items.len()].iter().enumerate() {
            let v = e.position(p) as usize;
            assert!(slots[v] == none, "node {v} holds more than one key to sort");
            slots[v] = rank as u32;
        }
        Self::first_round(SortTask {
            slots,
            packets,
            ports: e.topology().ports(),
            network: Some(network),
            ..Self::fresh()
        })
    }

    /// The same sort into *column-major* snake order (column 0 top to
    /// bottom, column 1 bottom to top, …): the comparator network with every
    /// aligned block transposed, which is the network of the transposed
    /// mesh, so it sorts for the same reason. Sorting-based routing
    /// (permutation lecture, Phase 1) sorts this way.
    pub fn column_major(mut self) -> SortTask {
        self.transposed = true;
        // The first round's pairs were laid out untransposed: lay them out again.
        self.k = 2;
        self.q = 0;
        let first = self.keys.take().unwrap_or_default();
        self.keys = self.next_round(first);
        self
    }

    /// Steps the whole sort takes: R rounds (exchanges included, whose keys
    /// cross too, so that the next round may start early), c steps of keys
    /// each, pipelined with the c steps of the previous round's packets:
    /// c·(R + 1).
    pub fn duration(m: u32, c: u32) -> u32 {
        let rounds = all_rounds(m).count() as u32;
        if rounds == 0 {
            0
        } else {
            c * (rounds + 1)
        }
    }

    #[inline]
    fn slot_of(&self, v: u32) -> usize {
        if self.network.is_some() {
            return v as usize;
        }
        let (r, c) = self.mesh.rc(v);
        ((r - self.origin.0) * self.span + c - self.origin.1) as usize
    }

    /// Lays out the next round of the network (level k, round q) on the
    /// mesh, reusing `round`'s buffers, and advances (k, q); `None` past the
    /// last round.
    fn next_round(&mut self, mut round: Round) -> Option<Round> {
        if let Some(network) = &self.network {
            if self.next >= network.rounds() {
                return None;
            }
            round.exchange = false;
            let (mut pairs, mut ports) = (Vec::new(), Vec::new());
            network.round(self.next, &mut pairs, &mut ports);
            round.links.clear();
            let n = self.ports;
            let pairs = pairs.iter().zip(&ports);
            round
                .links
                .extend(pairs.flat_map(|(&(a, b), &(pab, pba))| [a * n + pab, b * n + pba]));
            self.next += 1;
            return Some(round);
        }
        if self.k > self.m {
            return None;
        }
        let kind = level_round(self.k, self.k == self.m, self.q, &mut self.local);
        round.exchange = kind == RoundKind::Exchange;
        let (r0, c0, span) = (self.origin.0, self.origin.1, self.span);
        let k = self.k;
        if self.transposed {
            for pair in self.local.iter_mut() {
                let ((r1, c1), (r2, c2)) = *pair;
                *pair = ((c1, r1), (c2, r2));
            }
        }
        // A cell (r, c) of the block with corner (br, bc) is node
        // node(br, bc) + node(r, c): the sum never carries from the column
        // into the row, as bc + c < side; so its link over port p is
        // 4·node(br, bc) + (4·node(r, c) + p).
        let mesh = self.mesh;
        self.offsets.clear();
        self.offsets.extend(self.local.iter().map(|&(x, y)| {
            let (pab, pba) = port_pair(x, y);
            (4 * mesh.node(x.0, x.1) + pab, 4 * mesh.node(y.0, y.1) + pba)
        }));
        round.links.clear();
        for br in (r0..r0 + span).step_by(k as usize) {
            for bc in (c0..c0 + span).step_by(k as usize) {
                let corner = 4 * mesh.node(br, bc);
                round
                    .links
                    .extend(self.offsets.iter().flat_map(|&(la, lb)| [corner + la, corner + lb]));
            }
        }
        self.q += 1;
        if self.q == rounds_in_level(self.k, self.k == self.m) {
            self.q = 0;
            self.k *= 2;
        }
        Some(round)
    }
}

impl Task for SortTask {
    /// Over once the last round's packets have crossed: no round's keys
    /// nor swaps are left.
    fn over(&self, _e: &Engine) -> bool {
        self.keys.is_none() && self.swaps.is_none()
    }

    fn poll(&mut self, e: &mut Engine) -> bool {
        if self.over(e) {
            return false;
        }
        let s = self.sub as usize;
        let mut any = false;
        if self.swaps.is_some() {
            any |= self.force(e, s);
        }
        if let Some(round) = &self.keys {
            // The s-th key of every bucket crosses both ways: the key of the
            // packet each node will hold once the previous round's packets
            // have crossed (SPEC §1).
            let ok = e.send_control_links(&round.links);
            assert!(ok, "sort: link taken twice in a step");
            e.note_control_queue(self.c.min(2));
            any = true;
        }
        if !any {
            e.mark_busy();
        }
        self.sub += 1;
        if self.sub == self.c {
            // The window is over: the round whose keys crossed swaps next,
            // and the next round's keys cross meanwhile.
            self.sub = 0;
            let done = self.swaps.take().unwrap_or_default();
            self.swaps = self.keys.take();
            if let Some(round) = self.swaps.take() {
                self.plan_moves(&round);
                self.swaps = Some(round);
            }
            self.keys = self.next_round(done);
        }
        true
    }
}
