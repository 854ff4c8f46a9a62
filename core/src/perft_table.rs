//! perft's transposition table (opt-in, as chess perft tools have it): subtree counts keyed by
//! the whole position and the depth, so that a count found again is exact.
//!
//! An entry is 16 bytes and holds its whole key: the stones of the side to move (45 bits), of
//! the other side (45 bits) and the depth (5 bits), with a count of up to 33 bits (a larger
//! count, from depth 9 on, is simply not stored). Four entries share a 64-byte bucket, indexed
//! by a multiplicative hash of the key; a new entry takes the place of the bucket's shallowest
//! (the cheapest to count again).

use std::collections::TryReserveError;

use crate::Point;

/// The largest table, in MiB.
pub const MAX_PERFT_HASH_MIB: usize = 4_096;

/// A table of `mib` MiB that cannot be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PerftTableError {
    /// More than [`MAX_PERFT_HASH_MIB`].
    #[error("{0} MiB is more than the {MAX_PERFT_HASH_MIB} MiB allowed")]
    TooLarge(usize),
    /// The allocator refused.
    #[error("cannot allocate a {mib} MiB perft table: {source}")]
    Allocation {
        /// The size asked for.
        mib: usize,
        /// Why (the allocator's words).
        #[source]
        source: TryReserveError,
    },
}

impl PerftTableError {
    /// Always `true`: the size comes from the caller.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// One stored count: `lo` the side to move's stones and the low 19 bits of the other side's,
/// `hi` the other side's high 26 bits, the depth (bits 26-30; 0: empty) and the count (bits
/// 31-63).
#[derive(Clone, Copy, Debug, Default)]
struct Entry {
    lo: u64,
    hi: u64,
}

/// Bits of the other side's stones in [`Entry::lo`].
const THEM_LOW: u32 = 64 - Point::NUM as u32;
/// Where the depth starts in [`Entry::hi`].
const DEPTH_SHIFT: u32 = Point::NUM as u32 - THEM_LOW;
/// Where the count starts in [`Entry::hi`].
const COUNT_SHIFT: u32 = DEPTH_SHIFT + 5;
/// The key part of [`Entry::hi`].
const HI_KEY: u64 = (1 << COUNT_SHIFT) - 1;
/// The deepest subtree stored (the depth field's five bits).
const MAX_DEPTH: u32 = 31;

#[derive(Clone, Copy, Debug, Default)]
#[repr(align(64))]
struct Bucket([Entry; 4]);

/// A perft transposition table of a fixed size.
#[derive(Debug)]
pub struct PerftTable {
    buckets: Vec<Bucket>,
    /// `64 - log2(buckets)`: the index is the hash's high bits.
    shift: u32,
}

impl PerftTable {
    /// A table of at most `mib` MiB (rounded down to a power of two buckets; 0: no table, every
    /// probe misses).
    ///
    /// # Errors
    /// [`PerftTableError`] when `mib` is above [`MAX_PERFT_HASH_MIB`] or the memory cannot be
    /// reserved.
    pub fn try_new(mib: usize) -> Result<PerftTable, PerftTableError> {
        PerftTable::try_share(mib, 1)
    }

    /// `n` tables (at least one) of an equal share of `mib` MiB: one for each thread of
    /// [`crate::perft_divide_hashed`], which bounds the memory of them all by `mib`.
    ///
    /// # Errors
    /// As [`PerftTable::try_new`].
    pub fn try_split(mib: usize, n: usize) -> Result<Vec<PerftTable>, PerftTableError> {
        (0..n.max(1)).map(|_| PerftTable::try_share(mib, n)).collect()
    }

    /// A table of a `1 / n` share of `mib` MiB (`n` at least 1).
    fn try_share(mib: usize, n: usize) -> Result<PerftTable, PerftTableError> {
        if mib > MAX_PERFT_HASH_MIB {
            return Err(PerftTableError::TooLarge(mib));
        }
        PerftTable::with_bytes((mib << 20) / n.max(1))
            .map_err(|e| PerftTableError::Allocation { mib, source: e })
    }

    /// A table of at most `bytes` bytes (a power of two buckets).
    pub(crate) fn with_bytes(bytes: usize) -> Result<PerftTable, TryReserveError> {
        let want = bytes / size_of::<Bucket>();
        let len = if want == 0 { 0 } else { 1usize << (usize::BITS - 1 - want.leading_zeros()) };
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(len)?;
        buckets.resize(len, Bucket::default());
        Ok(PerftTable { shift: 64 - len.max(1).trailing_zeros(), buckets })
    }

    /// The size in bytes (a power of two, or 0).
    pub fn bytes(&self) -> usize {
        self.buckets.len() * size_of::<Bucket>()
    }

    /// The two words of the key of (`us`, `them`, `depth`), the count's bits clear.
    #[inline]
    fn key(us: u64, them: u64, depth: u32) -> (u64, u64) {
        (us | them << Point::NUM, them >> THEM_LOW | u64::from(depth) << DEPTH_SHIFT)
    }

    #[inline]
    fn bucket(&mut self, us: u64, them: u64, depth: u32) -> Option<&mut Bucket> {
        let h = (us.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ them.wrapping_mul(0xC2B2_AE3D_27D4_EB4F))
            .wrapping_add(u64::from(depth).wrapping_mul(0x1656_67B1_9E37_79F9));
        // With no buckets the index is 0 and `get_mut` finds nothing.
        let i = h.checked_shr(self.shift).unwrap_or(0) as usize;
        self.buckets.get_mut(i)
    }

    /// The count stored for (`us`, `them`, `depth`), if any.
    #[inline]
    pub(crate) fn probe(&mut self, us: u64, them: u64, depth: u32) -> Option<u64> {
        let (lo, hi) = PerftTable::key(us, them, depth);
        let bucket = self.bucket(us, them, depth)?;
        bucket.0.iter().find(|e| e.lo == lo && e.hi & HI_KEY == hi).map(|e| e.hi >> COUNT_SHIFT)
    }

    /// Stores `count` for (`us`, `them`, `depth`) (`depth` 1 to 31; a count above 33 bits is
    /// not stored) in place of the bucket's shallowest entry.
    #[inline]
    pub(crate) fn store(&mut self, us: u64, them: u64, depth: u32, count: u64) {
        if count >> (64 - COUNT_SHIFT) != 0 || depth == 0 || depth > MAX_DEPTH {
            return;
        }
        let (lo, hi) = PerftTable::key(us, them, depth);
        let Some(bucket) = self.bucket(us, them, depth) else { return };
        let depth_of = |e: &Entry| (e.hi & HI_KEY) >> DEPTH_SHIFT;
        let mut slot = 0;
        for (i, e) in bucket.0.iter().enumerate().skip(1) {
            if depth_of(e) < depth_of(&bucket.0[slot]) {
                slot = i;
            }
        }
        bucket.0[slot] = Entry { lo, hi: hi | count << COUNT_SHIFT };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_exact_keys() {
        let mut t = PerftTable::try_new(1).unwrap();
        assert_eq!(t.bytes(), 1 << 20);
        let (us, them) = ((1u64 << 45) - 1 - 0xff, 0xf0);
        assert_eq!(t.probe(us, them, 3), None);
        t.store(us, them, 3, (1 << 33) - 1);
        assert_eq!(t.probe(us, them, 3), Some((1 << 33) - 1));
        // Another depth or one stone more is another key.
        assert_eq!(t.probe(us, them, 4), None);
        assert_eq!(t.probe(us, them | 1, 3), None);
        assert_eq!(t.probe(them, us, 3), None);
        // Too large a count is not stored.
        t.store(us, them, 5, 1 << 33);
        assert_eq!(t.probe(us, them, 5), None);
    }

    #[test]
    fn a_full_bucket_keeps_its_deepest_entries() {
        // A table of one bucket: every key lands there.
        let mut t = PerftTable::with_bytes(64).unwrap();
        for d in 1..=5 {
            t.store(d, 0, d as u32, d * 10);
        }
        assert_eq!(t.probe(1, 0, 1), None);
        for d in 2..=5 {
            assert_eq!(t.probe(d, 0, d as u32), Some(d * 10));
        }
    }

    #[test]
    fn sizes() {
        assert_eq!(PerftTable::try_new(0).unwrap().bytes(), 0);
        let mut none = PerftTable::try_new(0).unwrap();
        none.store(1, 2, 3, 4);
        assert_eq!(none.probe(1, 2, 3), None);
        assert_eq!(PerftTable::with_bytes(100).unwrap().bytes(), 64);
        assert!(matches!(PerftTable::try_new(MAX_PERFT_HASH_MIB + 1), Err(PerftTableError::TooLarge(_))));
        let split = PerftTable::try_split(3, 2).unwrap();
        assert_eq!(split.iter().map(PerftTable::bytes).collect::<Vec<_>>(), [1 << 20, 1 << 20]);
    }
}
