//! The shuffle-exchange graph (SPEC §2; Leighton–Maggs–Ranade–Rao §5):
//! node ids are D-bit labels; the neighbours of x are rotl x, rotr x (the
//! *shuffle* links, rotations by one bit) and x xor 1 (the *exchange*
//! link), minus x itself, one link each. So a label equal to its own
//! rotation (all 0s, all 1s) has no shuffle link, and in a period-2 label
//! (0101…) both rotations are one neighbour, reached by port 1 only.
//!
//! Ports: 0 the exchange link, 1 rotl ("shuffle"), 2 rotr ("unshuffle").
//! The two *dimensions* of the per-dimension policies are the link
//! classes: 0 exchange, 1 shuffle.
//!
//! # Distances
//! A walk from `a` is described in `a`'s frame: s, the net number of left
//! rotations so far, and the set of positions of `a` flipped. An exchange
//! at cumulative rotation s flips position (−s) mod D of `a`; ending at
//! net rotation t, the flips must be exactly M = a xor rotr^t(b). So a
//! shortest walk is: |M| exchanges plus the shortest walk of s on the
//! integers from 0 to some e ≡ t (mod D) that visits a residue of every
//! flipped position. A walk that rotates a label equal to its rotation is
//! no walk in the graph (there is no such link), but dropping that move
//! gives a shorter real walk to the same label; so the minimum over frame
//! walks is the exact distance. For each t and each of the three ends e ≡ t
//! the least walk is a gap scan over the flipped positions
//! ([`cover_walk`]): O(D·|M|) per pair at most, less after pruning (a walk
//! ending at e moves at least |e|, small |t| tried first); neighbours
//! answer at once. The distance bound asks only whether a pair beats the
//! largest distance so far ([`Network::distance_above`]), which most
//! pairs answer early. The unit tests check the distance against
//! breadth-first search for every pair for D ≤ 10 and from sampled
//! sources up to D = 16.

use super::{Hop, Network, RouteOrder, MAX_NODES};

/// Port of the exchange link (x xor 1).
pub const EXCHANGE: u32 = 0;
/// Port of the shuffle link to rotl x.
pub const SHUFFLE: u32 = 1;
/// Port of the unshuffle link to rotr x (none when rotr x = rotl x).
pub const UNSHUFFLE: u32 = 2;

/// The smallest D accepted (the largest is the node limit's, 26).
pub const MIN_DIM: u32 = 1;

/// `shuffle-exchange:D`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShuffleExchange {
    dim: u32,
    mask: u32,
}

impl ShuffleExchange {
    /// Builds `shuffle-exchange:D`; the error is the reason.
    pub fn new(dim: u32) -> Result<Self, String> {
        let max = MAX_NODES.ilog2();
        if !(MIN_DIM..=max).contains(&dim) {
            return Err(format!("dimension must be between {MIN_DIM} and {max}"));
        }
        Ok(ShuffleExchange {
            dim,
            mask: ((1u64 << dim) - 1) as u32,
        })
    }

    /// D.
    pub fn dim(&self) -> u32 {
        self.dim
    }

    /// x rotated left by one bit (the most significant bit becomes bit 0).
    #[inline]
    pub fn rotl(&self, x: u32) -> u32 {
        ((x << 1) | (x >> (self.dim - 1))) & self.mask
    }

    /// x rotated right by one bit.
    #[inline]
    pub fn rotr(&self, x: u32) -> u32 {
        (x >> 1) | ((x & 1) << (self.dim - 1))
    }

    /// x rotated left by `t` bits (0 ≤ t < D).
    #[inline]
    pub fn rotl_by(&self, x: u32, t: u32) -> u32 {
        if t == 0 {
            x
        } else {
            ((x << t) | (x >> (self.dim - t))) & self.mask
        }
    }

    /// Whether a and b are joined by a link (a ≠ b).
    #[inline]
    pub fn adjacent(&self, a: u32, b: u32) -> bool {
        a != b && (b == a ^ 1 || b == self.rotl(a) || b == self.rotr(a))
    }

    /// The least walk from a to b by the frame-walk argument (see the
    /// module's text), or `cap` if none is shorter than `cap`; it returns
    /// as soon as it finds one of at most `stop` hops.
    fn shortest(&self, a: u32, b: u32, cap: u32, stop: u32) -> u32 {
        if a == b {
            return 0;
        }
        if self.adjacent(a, b) {
            return 1;
        }
        let d = self.dim as i64;
        let mut best = cap as i64;
        // Flipped positions p of a need s ≡ −p: that is bit D − p of
        // rotl(rev(flips)), and rev(a xor rotr^t b) = rev a xor rotl^t(rev b).
        let rev = |x: u32| x.reverse_bits() >> (32 - self.dim);
        let (ra, rb) = (rev(a), rev(b));
        // Small net rotations first: the likeliest short walks.
        for i in 0..self.dim {
            let t = if i % 2 == 0 { i / 2 } else { self.dim - i.div_ceil(2) };
            let flips = ra ^ self.rotl_by(rb, t);
            let h = flips.count_ones() as i64;
            let t = t as i64;
            // The walk ends at some e ≡ t (mod D), so it moves at least
            // min(t, D − t): no shorter walk can come from this t.
            if h + t.min(d - t) >= best {
                continue;
            }
            // The start (s = 0) covers residue 0.
            let need = (self.rotl(flips) & !1) as u64;
            for e in [t, t - d, t + d] {
                if h + e.abs() < best {
                    best = best.min(h + cover_walk(d, e, need));
                    if best <= stop as i64 {
                        return best as u32;
                    }
                }
            }
        }
        best as u32
    }

    /// The necklace of x: its representative (the least label among its
    /// rotations) and x's rotation from it (x = rotl^r(rep), 0 ≤ r < the
    /// necklace's length).
    pub fn necklace(&self, x: u32) -> (u32, u32) {
        let (mut best, mut at, mut y) = (x, 0, x);
        for r in 1..self.dim {
            y = self.rotr(y);
            if y == x {
                break;
            }
            if y < best {
                (best, at) = (y, r);
            }
        }
        (best, at)
    }
}

/// Where each node sits among the necklaces ([`ShuffleExchange::necklaces`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Necklaces {
    /// Per node, its necklace's index; necklaces are numbered by the
    /// weight of their labels, then by representative.
    pub necklace: Vec<u32>,
    /// Per node, its rotation in the necklace: x = rotl^position(representative).
    pub position: Vec<u32>,
    /// Per node, the weight of its label (its number of 1s).
    pub weight: Vec<u32>,
}

impl ShuffleExchange {
    /// Every node's necklace, its rotation in it and its weight: what the
    /// page draws necklaces as rings from (shuffle links join consecutive
    /// positions; exchange links join necklaces of neighbouring weights).
    /// O(N·D).
    pub fn necklaces(&self) -> Necklaces {
        let n = self.nodes() as usize;
        let (mut rep, mut position) = (vec![0u32; n], vec![0u32; n]);
        for x in 0..n {
            (rep[x], position[x]) = self.necklace(x as u32);
        }
        let mut reps: Vec<u32> = (0..n as u32).filter(|&x| rep[x as usize] == x).collect();
        reps.sort_by_key(|&r| (r.count_ones(), r));
        let mut index = vec![0u32; n];
        for (i, &r) in reps.iter().enumerate() {
            index[r as usize] = i as u32;
        }
        Necklaces {
            necklace: rep.iter().map(|&r| index[r as usize]).collect(),
            position,
            weight: (0..n as u32).map(u32::count_ones).collect(),
        }
    }
}

impl Network for ShuffleExchange {
    fn nodes(&self) -> u32 {
        1 << self.dim
    }
    fn ports(&self) -> u32 {
        3
    }
    #[inline]
    fn neighbor(&self, node: u32, port: u32) -> Option<u32> {
        match port {
            EXCHANGE => Some(node ^ 1),
            SHUFFLE => Some(self.rotl(node)).filter(|&w| w != node),
            UNSHUFFLE => {
                let w = self.rotr(node);
                (w != node && w != self.rotl(node)).then_some(w)
            }
            _ => None,
        }
    }
    fn port_dim(&self, port: u32) -> u32 {
        u32::from(port != EXCHANGE)
    }
    fn distance(&self, a: u32, b: u32) -> u32 {
        self.shortest(a, b, u32::MAX, 0)
    }
    /// Most pairs are dismissed as soon as a walk of at most `floor` hops is found.
    fn distance_above(&self, a: u32, b: u32, floor: u32) -> Option<u32> {
        if floor >= self.diameter() || self.shortest(a, b, floor.saturating_add(1), floor) <= floor {
            return None;
        }
        Some(self.distance(a, b))
    }
    fn diameter(&self) -> u32 {
        2 * self.dim - 1
    }
    /// The links crossing the cut by the most significant bit: a bisection,
    /// but not a minimum one, so an upper bound on the minimum bisection
    /// width (that is Θ(N / log N), not known in closed form). Nothing
    /// bounds a run with it: the cut bounds in `bounds` count the links of
    /// each label-bit cut exactly.
    fn bisection_width(&self) -> u64 {
        let top = 1u32 << (self.dim - 1);
        (0..self.nodes())
            .filter(|&v| v & top == 0)
            .map(|v| {
                (0..3)
                    .filter_map(|p| self.neighbor(v, p))
                    .filter(|&w| w & top != 0)
                    .count() as u64
            })
            .sum()
    }
    /// The first hop of a shortest route: the first port (exchange,
    /// shuffle, unshuffle) whose neighbour is one hop closer. The key of
    /// `farthest-first` is the whole remaining distance: a shortest route
    /// interleaves both link classes.
    fn next_hop(&self, cur: u32, target: u32, _packet: u32, _order: RouteOrder) -> Option<Hop> {
        if cur == target {
            return None;
        }
        // A neighbour: its link (one distance computation saved per port;
        // `bit-fixing` targets one hop at a time).
        if let Some(port) = (0..3).find(|&p| self.neighbor(cur, p) == Some(target)) {
            return Some(Hop {
                port,
                remaining_in_dim: 1,
                next: target,
            });
        }
        let d = self.distance(cur, target);
        (0..3).find_map(|port| {
            let w = self.neighbor(cur, port)?;
            (self.distance(w, target) + 1 == d).then_some(Hop {
                port,
                remaining_in_dim: d,
                next: w,
            })
        })
    }
    /// Both link classes serve one route, so the key of `farthest-origin`
    /// is the whole distance.
    fn dim_distance(&self, from: u32, to: u32, _dim: u32) -> u32 {
        self.distance(from, to)
    }
}

/// The shortest walk of s on the integers from 0 to `e` that visits a
/// residue mod `d` of every bit of `need` (bit 0 clear: 0 is the start).
/// It covers an interval [lo, hi] ∋ 0, e and costs 2(hi − lo) − |e| (the
/// far side first). The segment between 0 and e covers its residues; the
/// others lie on the rest of the circle, G = d − |e| long, and the walk
/// reaches them by going a past the segment's right end and b past its
/// left end: the least a + b is G less the largest gap between
/// consecutive points of {0, the residues' distances from the right end,
/// G}. O(popcount).
fn cover_walk(d: i64, e: i64, need: u64) -> i64 {
    let ae = e.abs();
    if ae >= d - 1 {
        return ae;
    }
    let g = d - ae;
    // Distances from the segment's right end (max(0, e)) of the residues
    // it does not cover.
    let mut rest = if e >= 0 {
        (need >> e) & !1
    } else {
        need & ((1u64 << (d + e)) - 1)
    };
    let (mut prev, mut gap) = (0i64, 0i64);
    while rest != 0 {
        let x = rest.trailing_zeros() as i64;
        gap = gap.max(x - prev);
        prev = x;
        rest &= rest - 1;
    }
    gap = gap.max(g - prev);
    ae + 2 * (g - gap)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::VecDeque;

    fn bfs(g: &ShuffleExchange, a: u32) -> Vec<u32> {
        let mut dist = vec![u32::MAX; g.nodes() as usize];
        dist[a as usize] = 0;
        let mut q = VecDeque::from([a]);
        while let Some(v) = q.pop_front() {
            for p in 0..3 {
                if let Some(w) = g.neighbor(v, p) {
                    if dist[w as usize] == u32::MAX {
                        dist[w as usize] = dist[v as usize] + 1;
                        q.push_back(w);
                    }
                }
            }
        }
        dist
    }

    #[test]
    fn distance_is_exact_and_diameter_is_2d_minus_1() {
        for dim in 2..=10 {
            let g = ShuffleExchange::new(dim).unwrap();
            let mut diameter = 0;
            for a in 0..g.nodes() {
                let bfs = bfs(&g, a);
                for b in 0..g.nodes() {
                    assert_eq!(g.distance(a, b), bfs[b as usize], "D={dim} {a:b}->{b:b}");
                    diameter = diameter.max(bfs[b as usize]);
                }
            }
            assert_eq!(g.diameter(), diameter, "D={dim}");
        }
    }

    #[test]
    fn distance_is_exact_from_sampled_sources_up_to_16() {
        for dim in [12, 14, 16] {
            let g = ShuffleExchange::new(dim).unwrap();
            for a in [0, 1, 0b1011, g.nodes() / 3, g.nodes() - 2] {
                let bfs = bfs(&g, a);
                for b in (0..g.nodes()).step_by(7) {
                    assert_eq!(g.distance(a, b), bfs[b as usize], "D={dim} {a:b}->{b:b}");
                }
            }
        }
    }

    #[test]
    fn links_are_one_each_and_symmetric() {
        for dim in 2..=8 {
            let g = ShuffleExchange::new(dim).unwrap();
            for v in 0..g.nodes() {
                let ns: Vec<u32> = (0..3).filter_map(|p| g.neighbor(v, p)).collect();
                let mut uniq = ns.clone();
                uniq.sort_unstable();
                uniq.dedup();
                assert_eq!(uniq.len(), ns.len(), "D={dim} v={v:b}: a neighbour twice");
                assert!(!ns.contains(&v));
                for w in ns {
                    assert!((0..3).any(|q| g.neighbor(w, q) == Some(v)));
                }
            }
        }
        let g = ShuffleExchange::new(4).unwrap();
        assert_eq!(g.neighbor(0b0000, SHUFFLE), None);
        assert_eq!(g.neighbor(0b0101, SHUFFLE), Some(0b1010));
        assert_eq!(g.neighbor(0b0101, UNSHUFFLE), None);
        assert_eq!(g.neighbor(0b0011, UNSHUFFLE), Some(0b1001));
        assert_eq!(g.necklace(0b0110), (0b0011, 1));
    }

    #[test]
    fn next_hop_walks_a_shortest_route() {
        let g = ShuffleExchange::new(7).unwrap();
        for a in (0..g.nodes()).step_by(5) {
            for b in 0..g.nodes() {
                let (mut at, mut hops) = (a, 0);
                while let Some(h) = g.next_hop(at, b, 0, RouteOrder::Standard) {
                    assert_eq!(g.neighbor(at, h.port), Some(h.next));
                    at = h.next;
                    hops += 1;
                }
                assert_eq!((at, hops), (b, g.distance(a, b)));
            }
        }
    }

    #[test]
    fn necklaces_are_numbered_by_weight_and_rotate_by_shuffles() {
        let g = ShuffleExchange::new(4).unwrap();
        let Necklaces {
            necklace,
            position,
            weight,
        } = g.necklaces();
        assert_eq!(weight[0b1011], 3);
        // 0000 | 0001 | 0011, 0101 | 0111 | 1111, each by weight.
        assert_eq!(necklace.iter().max(), Some(&5));
        assert_eq!((necklace[0b0000], necklace[0b0010], necklace[0b0011]), (0, 1, 2));
        assert_eq!((necklace[0b1010], necklace[0b1110], necklace[0b1111]), (3, 4, 5));
        for dim in 2..=9 {
            let g = ShuffleExchange::new(dim).unwrap();
            let Necklaces { necklace, position, .. } = g.necklaces();
            for x in 0..g.nodes() {
                let w = g.rotl(x);
                assert_eq!(necklace[w as usize], necklace[x as usize]);
                let len = (1..=dim).find(|&r| g.rotl_by(x, r % dim) == x).unwrap();
                assert_eq!(position[w as usize], (position[x as usize] + 1) % len, "D={dim} {x:b}");
            }
        }
        assert_eq!(position[0b0110], 1);
    }

    #[test]
    fn sizes_are_limited() {
        assert!(ShuffleExchange::new(0).is_err());
        assert_eq!(ShuffleExchange::new(1).unwrap().nodes(), 2);
        assert!(ShuffleExchange::new(27).is_err());
        assert_eq!(ShuffleExchange::new(26).unwrap().nodes(), 1 << 26);
    }
}
