//! Sweeps across machines (SPEC §4): `--shard i/N` runs the i-th of N
//! contiguous slices of a grid in its order, so that an existing scheduler
//! (a Slurm job array, GNU parallel) can spread one grid over many
//! machines and the shards' outputs, concatenated in shard order, equal the
//! unsharded output byte for byte.

use crate::error::{Error, Result};
use std::ops::Range;
use std::str::FromStr;

/// The most shards a grid may be split into.
pub const MAX_SHARDS: u64 = 1 << 20;

/// The i-th of N slices (i from 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    index: u64,
    count: u64,
}

impl Shard {
    /// The whole grid: one slice of one.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// The grid indices of this slice of a grid of `total` points: N
    /// contiguous slices whose sizes differ by at most one, the larger
    /// ones first, so the first shard is empty only when the grid is.
    pub fn range(self, total: u64) -> Range<u64> {
        let (base, extra) = (total / self.count, total % self.count);
        let start = |i: u64| i * base + i.min(extra);
        start(self.index - 1)..start(self.index)
    }

    /// Whether this slice writes a CSV header: the first only.
    pub fn writes_header(self) -> bool {
        self.index == 1
    }
}

impl FromStr for Shard {
    type Err = Error;

    /// `i/N` with 1 ≤ i ≤ N ≤ [`MAX_SHARDS`].
    fn from_str(text: &str) -> Result<Shard> {
        let bad = |why: &str| Error::invalid("shard", text, why.to_string());
        let (i, n) = text
            .split_once('/')
            .ok_or_else(|| bad("expected i/N, e.g. 2/8 (the 2nd of 8 slices of the grid)"))?;
        let number = |t: &str| t.trim().parse::<u64>().ok();
        let (Some(index), Some(count)) = (number(i), number(n)) else {
            return Err(bad("expected i/N with whole numbers, e.g. 2/8"));
        };
        if count == 0 || count > MAX_SHARDS {
            return Err(bad(&format!("N must be 1 to {MAX_SHARDS}")));
        }
        if index == 0 || index > count {
            return Err(bad(&format!("i must be 1 to N = {count}")));
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slices_cover_the_grid_in_order_and_differ_by_at_most_one() {
        for total in 0..40u64 {
            for count in 1..12u64 {
                let mut next = 0;
                let mut sizes = Vec::new();
                for index in 1..=count {
                    let r = Shard { index, count }.range(total);
                    assert_eq!(r.start, next, "total {total}, {index}/{count}");
                    next = r.end;
                    sizes.push(r.end - r.start);
                }
                assert_eq!(next, total);
                assert!(sizes.windows(2).all(|w| w[0] >= w[1] && w[0] - w[1] <= 1), "{sizes:?}");
                assert_eq!(sizes[0] == 0, total == 0);
            }
        }
    }

    #[test]
    fn bad_shards_are_named() {
        for bad in ["", "3", "0/4", "5/4", "1/0", "a/b", "-1/4", "1/2/3"] {
            let e = bad.parse::<Shard>().unwrap_err().to_string();
            assert!(e.contains("shard"), "{bad}: {e}");
        }
        assert_eq!("2/8".parse::<Shard>().unwrap(), Shard { index: 2, count: 8 });
    }
}
