//! [`DistinctCounter`]: counts distinct 64-bit keys (Zobrist hashes) exactly up to a limit,
//! then estimates with a HyperLogLog sketch, so memory stays bounded however large the data.

use crate::samples::HashSet64;

/// Keys counted exactly before switching to the estimate (about 100 MB of hash set).
pub const EXACT_LIMIT: usize = 1 << 22;

const P: u32 = 14;
const M: usize = 1 << P;

/// Exact distinct count up to [`EXACT_LIMIT`] keys, then a HyperLogLog estimate (16 KiB,
/// standard error about 0.8%). Keys must be well mixed (Zobrist hashes are).
#[derive(Clone, Debug)]
pub struct DistinctCounter {
    exact: Option<HashSet64>,
    registers: Box<[u8; M]>,
}

impl Default for DistinctCounter {
    fn default() -> DistinctCounter {
        DistinctCounter { exact: Some(HashSet64::default()), registers: Box::new([0; M]) }
    }
}

impl DistinctCounter {
    /// Nothing counted yet.
    pub fn new() -> DistinctCounter {
        DistinctCounter::default()
    }

    /// Counts `key`; returns whether it was new (always `true` once estimating).
    #[inline]
    pub fn insert(&mut self, key: u64) -> bool {
        let j = (key >> (64 - P)) as usize;
        let rank = ((key << P) | (1 << (P - 1))).leading_zeros() as u8 + 1;
        if rank > self.registers[j] {
            self.registers[j] = rank;
        }
        match &mut self.exact {
            Some(set) => {
                let new = set.insert(key);
                if set.len() > EXACT_LIMIT {
                    self.exact = None;
                }
                new
            }
            None => true,
        }
    }

    /// Whether [`DistinctCounter::count`] is exact.
    pub fn is_exact(&self) -> bool {
        self.exact.is_some()
    }

    /// The number of distinct keys: exact, or the HyperLogLog estimate.
    pub fn count(&self) -> u64 {
        if let Some(set) = &self.exact {
            return set.len() as u64;
        }
        let m = M as f64;
        let alpha = 0.7213 / (1.0 + 1.079 / m);
        let sum: f64 = self.registers.iter().map(|&r| (-f64::from(r)).exp2()).sum();
        let zeros = self.registers.iter().filter(|&&r| r == 0).count();
        let e = alpha * m * m / sum;
        let e = if e <= 2.5 * m && zeros > 0 { m * (m / zeros as f64).ln() } else { e };
        e.round() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mix(i: u64) -> u64 {
        let mut z = i.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[test]
    fn exact_then_estimated() {
        let mut c = DistinctCounter::new();
        for i in 0..1000 {
            assert!(c.insert(mix(i)));
            assert!(!c.insert(mix(i)));
        }
        assert_eq!((c.count(), c.is_exact()), (1000, true));
        // Force the estimate: drop the exact set and compare with the truth.
        c.exact = None;
        let est = c.count() as f64;
        assert!((est - 1000.0).abs() < 30.0, "{est}");
        for i in 0..200_000 {
            c.insert(mix(i));
        }
        let est = c.count() as f64;
        assert!((est / 200_000.0 - 1.0).abs() < 0.03, "{est}");
    }
}
