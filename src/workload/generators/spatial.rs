//! The generators that place packets by where nodes are: greedy's worst
//! case, packets within a distance (`locality`, by breadth-first balls),
//! k-k routing with locality (`local-kk`, by blocks) and a hot spot.

#[allow(unused_imports)]
use super::*;

/// `greedy-worst`: the worst-case buffer scenario of greedy XY routing
/// (permutation lecture, "XY greedy permutation routing in 2-D mesh": 2n−2
/// steps but β = max(2, 2n/3 − 1); the lecture's figure is missing, so this
/// is our own construction, in the spirit of Leighton's book §1.7).
///
/// On an R×C mesh let c = ⌊(C−1)/2⌋ (the hot column), h = (1, c) the hot node
/// and t = min(⌊(R−2)/3⌋, ⌊(C−1)/2⌋) ≥ 1. The 3t *stream* sources are, in
/// this order: (1, c−1), (1, c+1), (1, c−2), (1, c+2), …, (1, c±t) (row 1,
/// both sides, nearest first), then (0, c), (0, c−1), (0, c+1), (0, c−2), …
/// (t of row 0). The i-th stream source swaps places with (2+i, c): its
/// packet goes to (2+i, c) and the packet there to it. Every other node
/// keeps its packet (delivered at step 0). So the permutation is an
/// involution, and column c, rows 2..3t+1, receives the whole stream.
///
/// **Why greedy XY queues 2t+1 packets at h, with every policy.** In steps
/// 1..t, h receives one row-1 packet from the left and one from the right
/// each step (row 1 carries nothing else, so they never wait), and one
/// row-0 packet from above each step: (0, c)'s own packet in step 1, then
/// the row-0 packets that turned at (0, c), which arrive there two per step
/// and leave one per step, so the link (0,c)→(1,c) is busy in steps 1..t.
/// All 3t packets leave h by its one downward link, at most one per step and
/// not before step 2. At the end of step s ≤ t, h holds 3s − (s−1) = 2s+1,
/// so max_queue ≥ 2t+1 ≈ 2R/3 on a square mesh — linear in the side, like
/// the lecture's 2n/3 − 1 auxiliary buffers (plus the packets in the input
/// buffers, which SPEC §1 also counts). The packets going back (column c to
/// rows 0 and 1) travel along their own rows and up other columns, or up
/// column c on the upward links, which the stream never uses, so they delay
/// none of it.
pub(super) fn greedy_worst(topo: &Topology) -> Result<Vec<(u32, u32)>> {
    let w = Workload::GreedyWorst;
    let (rows, cols) = match (topo.kind(), topo.mesh2d()) {
        (Kind::Mesh, Some(rc)) => rc,
        _ => return Err(refuse(w, topo, "needs a 2-D mesh (mesh:RxC)")),
    };
    let t = ((rows.saturating_sub(2)) / 3).min(cols.saturating_sub(1) / 2);
    if t == 0 {
        return Err(refuse(w, topo, "needs at least 5 rows and 3 columns"));
    }
    let c = (cols - 1) / 2;
    let node = |r: u32, col: u32| r * cols + col;
    let mut stream: Vec<u32> = Vec::with_capacity(3 * t as usize);
    for j in 1..=t {
        stream.push(node(1, c - j));
        stream.push(node(1, c + j));
    }
    stream.push(node(0, c));
    for i in 1..t {
        let j = i.div_ceil(2);
        stream.push(if i % 2 == 1 { node(0, c - j) } else { node(0, c + j) });
    }
    let mut dest: Vec<u32> = (0..rows * cols).collect();
    for (i, &s) in stream.iter().enumerate() {
        let below = node(2 + i as u32, c);
        dest[s as usize] = below;
        dest[below as usize] = s;
    }
    Ok(dest.into_iter().enumerate().map(|(v, d)| (v as u32, d)).collect())
}

/// `locality`: every source sends `l` packets, each to an independent,
/// uniformly random node at distance 1..=L from it (the ball found by
/// breadth-first search over the links). When L is at least the diameter the
/// ball is every other node. On a butterfly every level-0 to level-D
/// distance is exactly D, so L ≥ D gives uniform level-D destinations and
/// L < D is refused.
pub(super) fn locality(topo: &Topology, ends: Ends, l: u32, radius: u32, rng: &mut Rng) -> Result<Vec<(u32, u32)>> {
    let w = Workload::Locality;
    if radius == 0 {
        return Err(Error::invalid("locality", 0, "L must be at least 1"));
    }
    let n = ends.count();
    check_count(w, n as u64 * l as u64)?;
    let mut pairs = Vec::with_capacity(n as usize * l as usize);
    if let Ends::Butterfly(b) = ends {
        if b.dim() == 0 {
            // butterfly:0's one row is its own level D: no distance 1..=L.
            return Err(Error::invalid(
                "locality",
                radius,
                format!("{topo} has no node at distance 1..=L from node 0"),
            ));
        }
        if radius < b.dim() {
            let why = format!(
                "on {topo} every level-0 to level-D path has length D = {}, so L must be at least that",
                b.dim()
            );
            return Err(Error::invalid("locality", radius, why));
        }
        for i in 0..n {
            for _ in 0..l {
                pairs.push((ends.src(i), ends.dst(rng.below(n))));
            }
        }
        return Ok(pairs);
    }
    if n == 1 {
        return Err(Error::invalid(
            "locality",
            radius,
            format!("{topo} has no node at distance 1..=L from node 0"),
        ));
    }
    if radius >= topo.diameter() {
        for v in 0..n {
            for _ in 0..l {
                let d = rng.below(n - 1);
                pairs.push((v, if d >= v { d + 1 } else { d }));
            }
        }
        return Ok(pairs);
    }
    let too_large = || {
        let why = format!(
            "the distance-L balls of {topo} are too large to enumerate; use a smaller L, or L >= the diameter {} for uniform traffic",
            topo.diameter()
        );
        Error::invalid("locality", radius, why)
    };
    let mut bfs = Ball {
        seen: vec![u32::MAX; n as usize],
        generation: 0,
        frontier: Vec::new(),
        next: Vec::new(),
    };
    let mut ball: Vec<u32> = Vec::new();
    // Refuse up front when the ball around a central node (the largest on a
    // grid) already makes the whole enumeration exceed the budget.
    let centre = match topo {
        Topology::Grid(g) => g.node_at(&g.dims().iter().map(|s| s / 2).collect::<Vec<u32>>()),
        _ => 0,
    };
    let per_node_budget = BFS_WORK / n as u64;
    if bfs.collect(topo, centre, radius, &mut ball, per_node_budget).is_none() {
        return Err(too_large());
    }
    let mut work: u64 = 0;
    for v in 0..n {
        work += bfs
            .collect(topo, v, radius, &mut ball, BFS_WORK)
            .ok_or_else(too_large)?;
        if work > BFS_WORK {
            return Err(too_large());
        }
        for _ in 0..l {
            pairs.push((v, ball[rng.below(ball.len() as u32) as usize]));
        }
    }
    Ok(pairs)
}

/// `local-kk` (SPEC §5; Kaufmann–Sibeyn §9): k layers, each a permutation
/// in which every packet moves at most L along each axis, so every node
/// sends and receives exactly k packets.
///
/// A layer cuts every axis of side s into blocks of b = L + 1 consecutive
/// coordinates starting at a uniformly random offset o ∈ [0, min(b, s)) of
/// its own: on a torus block i is the coordinates o + i·b, …, o + i·b + b −
/// 1 round the ring (the last one shorter when b does not divide s); on a
/// mesh the first block is 0..o−1 and the last is cut at the border. The
/// blocks of the d axes make boxes of at most b^d nodes, and each box gets
/// a uniformly random permutation of its nodes. A box's coordinates along an
/// axis are at most b consecutive ones (on a ring: a segment of at most
/// min(b, s)), so no packet moves more than b − 1 = L along it (ring
/// distance: ≤ ⌊s/2⌋ ≤ L when b > s). Offsets and permutations are drawn
/// layer by layer in that order; packets are listed source-major, a node's
/// k packets in layer order.
///
/// The paper's lower-bound instance for locality L (§9: every packet moves
/// exactly L right and L up, ≥ kL steps on a torus) is a shift, not a
/// random instance; `tests/it/ks_level.rs` builds it directly.
pub(super) fn local_kk(topo: &Topology, k: u32, radius: u32, rng: &mut Rng) -> Result<Vec<(u32, u32)>> {
    let w = Workload::LocalKk;
    if radius == 0 {
        return Err(Error::invalid("locality", 0, "L must be at least 1"));
    }
    let g = match topo {
        Topology::Grid(g) => g,
        _ => return Err(refuse(w, topo, "needs a grid (linear array, ring, mesh or torus)")),
    };
    let n = g.nodes();
    check_count(w, n as u64 * k as u64)?;
    let dims = g.dims();
    let wraps = g.wraps();
    let mut layers: Vec<Vec<u32>> = Vec::with_capacity(k as usize);
    let mut keyed: Vec<(u64, u32)> = Vec::with_capacity(n as usize);
    for _ in 0..k {
        let offsets: Vec<u64> = dims
            .iter()
            .map(|&side| rng.below((radius as u64 + 1).min(side as u64) as u32) as u64)
            .collect();
        let b = radius as u64 + 1;
        keyed.clear();
        for v in 0..n {
            let mut key = 0u64;
            for (axis, &side) in dims.iter().enumerate() {
                let (c, s, o) = (g.coord(v, axis) as u64, side as u64, offsets[axis]);
                let block = if wraps { (c + s - o) % s / b } else { (c + b - o) / b };
                key = key * (s / b + 2) + block;
            }
            keyed.push((key, v));
        }
        keyed.sort_unstable();
        let mut perm = vec![0u32; n as usize];
        let mut start = 0;
        while start < keyed.len() {
            let mut end = start;
            while end < keyed.len() && keyed[end].0 == keyed[start].0 {
                end += 1;
            }
            let mut to: Vec<u32> = keyed[start..end].iter().map(|&(_, v)| v).collect();
            rng.shuffle(&mut to);
            for (i, &(_, v)) in keyed[start..end].iter().enumerate() {
                perm[v as usize] = to[i];
            }
            start = end;
        }
        layers.push(perm);
    }
    Ok((0..n)
        .flat_map(|v| layers.iter().map(move |perm| (v, perm[v as usize])))
        .collect())
}

/// Reusable breadth-first search state for [`locality`].
struct Ball {
    /// `generation` of the last search that reached each node.
    seen: Vec<u32>,
    generation: u32,
    frontier: Vec<u32>,
    next: Vec<u32>,
}

impl Ball {
    /// Fills `out` with the nodes at distance 1..=radius from `v`; returns the
    /// edge examinations spent, or `None` once they exceed `budget`.
    fn collect(&mut self, topo: &Topology, v: u32, radius: u32, out: &mut Vec<u32>, budget: u64) -> Option<u64> {
        self.generation = self.generation.wrapping_add(1);
        let g = self.generation;
        out.clear();
        self.frontier.clear();
        self.frontier.push(v);
        self.seen[v as usize] = g;
        let mut work = 0u64;
        for _ in 0..radius {
            self.next.clear();
            for &u in &self.frontier {
                for p in 0..topo.ports() {
                    work += 1;
                    if let Some(x) = topo.neighbor(u, p) {
                        if self.seen[x as usize] != g {
                            self.seen[x as usize] = g;
                            self.next.push(x);
                        }
                    }
                }
            }
            if work > budget {
                return None;
            }
            out.extend_from_slice(&self.next);
            std::mem::swap(&mut self.frontier, &mut self.next);
        }
        Some(work)
    }
}

/// `hotspot`: a uniformly random hot destination h; every source sends one
/// packet along a uniformly random permutation, except that H = ⌊n·p/100⌋
/// sources, at least one when p > 0 (a uniformly random set, never h
/// itself; at most n−1), send to h instead. So h receives H packets (plus
/// its permutation packet if that source was not chosen), every other node
/// at most one. (Below 100/p nodes ⌊n·p/100⌋ = 0 gave a hotspot workload
/// without a hot spot, e.g. hypercube:3 at p = 10; the workloads audit of
/// 2026-12-01.)
pub(super) fn hotspot(ends: Ends, percent: u32, rng: &mut Rng) -> Result<Vec<(u32, u32)>> {
    if percent > 100 {
        return Err(Error::invalid(
            "hotspot",
            percent,
            "the percentage of nodes sending to the hot node must be 0..=100",
        ));
    }
    let n = ends.count();
    let hot = rng.below(n);
    let mut dest: Vec<u32> = (0..n).collect();
    rng.shuffle(&mut dest);
    // Candidate hot sources: every source index except the hot node itself
    // (on a butterfly source and destination are different nodes, so all).
    let candidates: Vec<u32> = match ends {
        Ends::All(_) => (0..n).filter(|&i| i != hot).collect(),
        Ends::Butterfly(_) => (0..n).collect(),
    };
    let want = (n as u64 * percent as u64 / 100)
        .max(u64::from(percent > 0))
        .min(candidates.len() as u64) as u32;
    for c in rng.sample(candidates.len() as u32, want) {
        dest[candidates[c as usize] as usize] = hot;
    }
    Ok(ends.permutation(|i| dest[i as usize]))
}
