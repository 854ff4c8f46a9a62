//! Numbering the positions of one signature: the canonical sets of the side to move's stones
//! (up to the board's symmetries), times every set of the other side's stones on the points
//! left, in the combinatorial number system.
//!
//! A `us` set that some symmetry leaves unchanged gives slots for two images of the same
//! position; only the canonical one (see [`crate::symmetry::canonical`]) is searched, and the
//! other is filled with its value when the table is finished.

use fanorona_core::Point;

use crate::Signature;
use crate::symmetry::{canonical, canonical_set};

const MAX_K: usize = 8;

/// `BINOMIAL[n][k]` = n choose k, for n <= 45 and k < 8.
pub(crate) const BINOMIAL: [[u64; MAX_K]; Point::NUM + 1] = {
    let mut t = [[0u64; MAX_K]; Point::NUM + 1];
    let mut n = 0;
    while n <= Point::NUM {
        t[n][0] = 1;
        let mut k = 1;
        while k < MAX_K {
            t[n][k] = if n == 0 { 0 } else { t[n - 1][k - 1] + t[n - 1][k] };
            k += 1;
        }
        n += 1;
    }
    t
};

/// The numbering of one signature's positions.
#[derive(Debug, Clone)]
pub struct Indexer {
    sig: Signature,
    /// The canonical `us` sets, ascending.
    us_sets: Vec<u64>,
    /// Sets of the other side's stones for each `us` set.
    them_count: u64,
}

/// The next larger mask with the same number of bits (Gosper's hack).
fn next_combination(x: u64) -> u64 {
    let c = x & x.wrapping_neg();
    let r = x + c;
    (((r ^ x) >> 2) / c) | r
}

impl Indexer {
    /// The numbering for `sig`.
    pub fn new(sig: Signature) -> Indexer {
        let k = sig.us();
        let mut us_sets = Vec::new();
        let mut x: u64 = (1 << k) - 1;
        while x < 1 << Point::NUM {
            if canonical_set(x) == x {
                us_sets.push(x);
            }
            x = next_combination(x);
        }
        let them_count = BINOMIAL[Point::NUM - k as usize][sig.them() as usize];
        Indexer { sig, us_sets, them_count }
    }

    /// The signature numbered.
    pub fn signature(&self) -> Signature {
        self.sig
    }

    /// Number of slots.
    pub fn len(&self) -> u64 {
        self.us_sets.len() as u64 * self.them_count
    }

    /// Whether there are no slots (never, for a valid signature).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The slot of a position whose masks have the signature's counts, after putting it in
    /// canonical form.
    #[inline]
    pub fn index(&self, us: u64, them: u64) -> Option<u64> {
        let (us, them) = canonical(us, them);
        self.index_canonical(us, them)
    }

    /// The slot of a position already in canonical form.
    #[inline]
    pub fn index_canonical(&self, us: u64, them: u64) -> Option<u64> {
        let u = self.us_sets.binary_search(&us).ok()? as u64;
        Some(u * self.them_count + rank_them(us, them))
    }

    /// The position of a slot below [`Indexer::len`]: (us, them) masks.
    pub fn position(&self, index: u64) -> (u64, u64) {
        let u = (index / self.them_count) as usize;
        let us = self.us_sets.get(u).copied().unwrap_or(0);
        (us, unrank_them(us, index % self.them_count, self.sig.them() as usize))
    }

    /// Whether a slot holds the canonical form of its position (the one searched).
    pub fn is_canonical(&self, index: u64) -> bool {
        let (us, them) = self.position(index);
        canonical(us, them) == (us, them)
    }
}

/// The rank of `them` among the sets of its size on the points outside `us`.
#[inline]
fn rank_them(us: u64, them: u64) -> u64 {
    let mut rank = 0;
    let mut rest = them;
    let mut i = 1;
    while rest != 0 && i < MAX_K {
        let p = rest.trailing_zeros();
        rest &= rest - 1;
        let below = us & ((1u64 << p) - 1);
        let c = p as usize - below.count_ones() as usize;
        rank += BINOMIAL[c][i];
        i += 1;
    }
    rank
}

/// The points outside `us`, ascending, and how many there are.
fn free_points(us: u64) -> ([u8; Point::NUM], usize) {
    let mut free = [0u8; Point::NUM];
    let mut n = 0;
    for p in 0..Point::NUM {
        if us & (1 << p) == 0 {
            free[n] = p as u8;
            n += 1;
        }
    }
    (free, n)
}

/// The `k`-set of indices below `n` with colex rank `rank`, as a mask of indices.
fn unrank_indices(mut rank: u64, k: usize, n: usize) -> u64 {
    let mut set = 0u64;
    let mut c = n;
    for i in (1..=k.min(MAX_K - 1)).rev() {
        // The largest c with C(c, i) <= rank.
        while c > 0 && BINOMIAL[c - 1][i] > rank {
            c -= 1;
        }
        if c == 0 {
            break;
        }
        c -= 1;
        rank -= BINOMIAL[c][i];
        set |= 1 << c;
    }
    set
}

/// The board mask of a mask of indices into `free`.
#[inline]
fn expand(mut indices: u64, free: &[u8; Point::NUM]) -> u64 {
    let mut out = 0u64;
    while indices != 0 {
        out |= 1 << free[indices.trailing_zeros() as usize];
        indices &= indices - 1;
    }
    out
}

/// The set of `k` points outside `us` with rank `rank`.
fn unrank_them(us: u64, rank: u64, k: usize) -> u64 {
    let (free, n) = free_points(us);
    expand(unrank_indices(rank, k, n), &free)
}

impl Indexer {
    /// Calls `f(slot, us, them)` for every slot in `range` (clipped to [`Indexer::len`]), in
    /// order. Much faster than [`Indexer::position`] per slot: the `them` sets of one `us` set
    /// follow each other in colex order, the next one a few bit operations away.
    pub fn for_each_slot(&self, range: std::ops::Range<u64>, mut f: impl FnMut(u64, u64, u64)) {
        let end = range.end.min(self.len());
        let k = self.sig.them() as usize;
        let mut i = range.start;
        while i < end {
            let u = i / self.them_count;
            let us = self.us_sets[u as usize];
            let (free, n) = free_points(us);
            let mut set = unrank_indices(i % self.them_count, k, n);
            let stop = end.min((u + 1) * self.them_count);
            while i < stop {
                f(i, us, expand(set, &free));
                set = next_combination(set);
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomials() {
        assert_eq!(BINOMIAL[45][1], 45);
        assert_eq!(BINOMIAL[45][2], 990);
        assert_eq!(BINOMIAL[44][4], 135_751);
        assert_eq!(BINOMIAL[3][4], 0);
    }

    #[test]
    fn every_slot_round_trips() {
        for sig in Signature::up_to(4) {
            let ix = Indexer::new(sig);
            for i in 0..ix.len() {
                let (us, them) = ix.position(i);
                assert_eq!(us.count_ones(), sig.us(), "{sig} {i}");
                assert_eq!(them.count_ones(), sig.them(), "{sig} {i}");
                assert_eq!(us & them, 0);
                if ix.is_canonical(i) {
                    assert_eq!(ix.index(us, them), Some(i));
                }
            }
        }
        assert_eq!(Indexer::new(Signature::new(1, 1).unwrap()).len(), 15 * 44);
    }

    #[test]
    fn slots_in_order_match_positions() {
        for sig in Signature::up_to(5) {
            let ix = Indexer::new(sig);
            let mut next = 3;
            ix.for_each_slot(3..ix.len() + 5, |i, us, them| {
                assert_eq!(i, next, "{sig}");
                assert_eq!((us, them), ix.position(i), "{sig} {i}");
                next += 1;
            });
            assert_eq!(next, ix.len(), "{sig}");
        }
    }
}
