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
//! walks is the exact distance. It costs O(D²) per pair (a walk covers an
//! interval [lo, hi] ∋ 0, e; for each lo the least hi is a bit scan), and
//! the unit tests check it against breadth-first search for D ≤ 10.

use super::{Hop, Network, RouteOrder, MAX_NODES};

/// Port of the exchange link (x xor 1).
pub const EXCHANGE: u32 = 0;
/// Port of the shuffle link to rotl x.
pub const SHUFFLE: u32 = 1;
/// Port of the unshuffle link to rotr x (none when rotr x = rotl x).
pub const UNSHUFFLE: u32 = 2;

/// The smallest and largest D accepted.
pub const MIN_DIM: u32 = 2;

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
        if a == b {
            return 0;
        }
        let d = self.dim as i64;
        let mut best = i64::MAX;
        for t in 0..self.dim {
            // Flips needed (positions of a), for a net left rotation t.
            let flips = a ^ self.rotl_by(b, (self.dim - t) % self.dim);
            let h = flips.count_ones() as i64;
            if h >= best {
                continue;
            }
            // Residues of s at which each flip can happen: s ≡ −p.
            let mut need: u64 = 0;
            let mut f = flips;
            while f != 0 {
                let p = f.trailing_zeros() as i64;
                need |= 1 << ((d - p) % d);
                f &= f - 1;
            }
            let rest = need & !1;
            let t = t as i64;
            for lo in -(d - 1)..=0 {
                // [lo, −1] covers residues D+lo .. D−1.
                let left = if lo < 0 {
                    ((1u64 << d) - 1) & !((1u64 << (d + lo)) - 1)
                } else {
                    0
                };
                let right = rest & !left;
                let hi_min = if right == 0 {
                    0
                } else {
                    63 - right.leading_zeros() as i64
                };
                for e in [t - d, t, t + d] {
                    let lo = lo.min(e);
                    let hi = hi_min.max(e);
                    let walk = ((-lo) + (hi - lo) + (hi - e)).min(hi + (hi - lo) + (e - lo));
                    best = best.min(h + walk);
                }
            }
        }
        best as u32
    }
    fn diameter(&self) -> u32 {
        2 * self.dim - 1
    }
    /// The links crossing the cut by the most significant bit: a bisection,
    /// but not a minimum one (the minimum is Θ(N / log N) and not known in
    /// closed form); the cut bounds in `bounds` use their own family.
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
        let d = self.distance(cur, target);
        if d == 0 {
            return None;
        }
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
    fn sizes_are_limited() {
        assert!(ShuffleExchange::new(1).is_err());
        assert!(ShuffleExchange::new(27).is_err());
        assert_eq!(ShuffleExchange::new(26).unwrap().nodes(), 1 << 26);
    }
}
