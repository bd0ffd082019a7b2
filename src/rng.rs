//! The one portable seeded generator. ChaCha8 gives the same stream on every
//! target (native 64-bit and wasm32), unlike `SmallRng`. Integer draws go
//! through [`Rng::below`], which never uses `usize`, so a seed gives the same
//! run natively and in the browser.

use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Independent streams derived from one seed, so that (say) the workload and
/// the contention policy do not consume each other's numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
pub enum Stream {
    /// Workload generation.
    Workload = 1,
    /// The `random` contention policy.
    Policy = 2,
    /// Algorithm choices (random intermediates, colours, …).
    Algorithm = 3,
    /// Open-loop traffic (SPEC §6): which node generates a packet in which
    /// step, and its destination under a random pattern.
    Load = 4,
}

/// A seeded, portable random generator.
#[derive(Debug, Clone)]
pub struct Rng(ChaCha8Rng);

impl Rng {
    /// A generator for `stream` of `seed`.
    pub fn new(seed: u64, stream: Stream) -> Self {
        let mut inner = ChaCha8Rng::seed_from_u64(seed);
        inner.set_stream(stream as u64);
        Rng(inner)
    }

    /// A uniformly random 64-bit word.
    #[inline]
    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// Uniform in `0..n` (n ≥ 1), by Lemire's multiply-and-reject: exact and portable.
    #[inline]
    pub fn below(&mut self, n: u32) -> u32 {
        assert!(n > 0, "Rng::below(0)");
        let n = n as u64;
        loop {
            let x = self.0.next_u32() as u64;
            let m = x * n;
            let low = m as u32 as u64;
            if low >= (1u64 << 32) % n {
                return (m >> 32) as u32;
            }
        }
    }

    /// Fisher–Yates shuffle with portable draws.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u32 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// A uniformly random sample of `m` distinct values from `0..n`, in random order.
    pub fn sample(&mut self, n: u32, m: u32) -> Vec<u32> {
        assert!(m <= n);
        let mut all: Vec<u32> = (0..n).collect();
        for i in 0..m as usize {
            let j = i + self.below(n - i as u32) as usize;
            all.swap(i, j);
        }
        all.truncate(m as usize);
        all
    }
}

/// A bijective 64-bit mixer (the SplitMix64 finaliser): hashing a counter
/// gives independent-looking draws that do not depend on the order in which
/// they are asked for (the `random` contention policy draws one per packet
/// and step this way).
#[inline]
pub fn mix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_streams_differ() {
        let a: Vec<u32> = (0..8).map(|_| Rng::new(7, Stream::Workload).below(1000)).collect();
        let mut r1 = Rng::new(7, Stream::Workload);
        let mut r2 = Rng::new(7, Stream::Workload);
        let mut r3 = Rng::new(7, Stream::Policy);
        let x: Vec<u32> = (0..8).map(|_| r1.below(1000)).collect();
        let y: Vec<u32> = (0..8).map(|_| r2.below(1000)).collect();
        let z: Vec<u32> = (0..8).map(|_| r3.below(1000)).collect();
        assert_eq!(x, y);
        assert_ne!(x, z);
        assert!(a.iter().all(|&v| v < 1000));
    }

    #[test]
    fn below_is_in_range_and_hits_all_values() {
        let mut r = Rng::new(1, Stream::Algorithm);
        let mut seen = [false; 5];
        for _ in 0..200 {
            seen[r.below(5) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }

    #[test]
    fn sample_is_distinct() {
        let mut r = Rng::new(3, Stream::Workload);
        let mut s = r.sample(100, 40);
        s.sort_unstable();
        s.dedup();
        assert_eq!(s.len(), 40);
    }
}
