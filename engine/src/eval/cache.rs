//! A table of the evaluations made recently, keyed by the whole position.

use core::fmt;

use fanorona_core::{Color, Point, Position};

/// Entries of the default table, as a power of two: 16,384 of 16 bytes, 256 KiB (a table of
/// 1 MiB searched no faster and made depth-2 self-play slower than no table at all,
/// docs/BENCHMARKS.md).
const DEFAULT_BITS: u32 = 14;
/// Points on the board, the bits of a board.
const BOARD_BITS: u32 = Point::NUM as u32;
/// The board and side-to-move bits of an entry's first word.
const KEY_MASK: u64 = (1 << (BOARD_BITS + 1)) - 1;
/// Set in an entry's second word when it holds a position.
const FILLED: u64 = 1 << 63;
/// Where the score sits in an entry's first word.
const SCORE_SHIFT: u32 = 48;

/// The scores of recently evaluated positions, in a direct-mapped table whose entries hold the
/// position exactly (both boards and the side to move) with its score, so a hit returns the
/// score the evaluator gave that position: a search is the same node for node with or without
/// it. A search meets the same leaf again in a re-search (a null window that failed, a reduced
/// move searched again), in the next iteration and by transposition: about a sixth of the
/// bench's evaluations are found here (docs/BENCHMARKS.md).
#[derive(Clone)]
pub struct EvalCache {
    entries: Box<[[u64; 2]]>,
    shift: u32,
}

/// Where a position missing from the table goes: its entry's index and key words, worked out
/// once by [`EvalCache::probe`] for [`EvalCache::store`].
#[derive(Clone, Copy, Debug)]
pub struct Slot {
    index: usize,
    first: u64,
    second: u64,
}

impl fmt::Debug for EvalCache {
    /// The size, not the 16,384 entries.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EvalCache").field("entries", &self.entries.len()).finish()
    }
}

impl Default for EvalCache {
    fn default() -> EvalCache {
        EvalCache::new()
    }
}

impl EvalCache {
    /// An empty table of 16,384 entries (256 KiB).
    pub fn new() -> EvalCache {
        EvalCache::with_bits(DEFAULT_BITS)
    }

    /// An empty table of `2^bits` entries (`bits` from 1 to 30).
    fn with_bits(bits: u32) -> EvalCache {
        let bits = bits.clamp(1, 30);
        EvalCache { entries: vec![[0; 2]; 1 << bits].into_boxed_slice(), shift: u64::BITS - bits }
    }

    /// The entry of `pos`: its index and the two words it holds (the score not yet in).
    #[inline]
    fn slot(&self, pos: &Position) -> Slot {
        let side = u64::from(pos.turn() == Color::Black);
        let first = pos.stones(Color::White).0 | side << BOARD_BITS;
        let second = pos.stones(Color::Black).0;
        let mixed = (first ^ second.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        Slot { index: (mixed >> self.shift) as usize, first, second: second | FILLED }
    }

    /// The score stored for `pos`, or where to store it ([`EvalCache::store`]).
    #[inline]
    pub fn probe(&self, pos: &Position) -> Result<i32, Slot> {
        let slot = self.slot(pos);
        match self.entries.get(slot.index) {
            Some(&[a, b]) if b == slot.second && a & KEY_MASK == slot.first => {
                Ok(i32::from((a >> SCORE_SHIFT) as u16 as i16))
            }
            _ => Err(slot),
        }
    }

    /// Stores `score` in `slot` (from [`EvalCache::probe`] on this table), in place of the
    /// entry there (a score outside `i16` is not stored).
    #[inline]
    pub fn store(&mut self, slot: Slot, score: i32) {
        let Ok(score) = i16::try_from(score) else { return };
        if let Some(entry) = self.entries.get_mut(slot.index) {
            *entry = [slot.first | u64::from(score as u16) << SCORE_SHIFT, slot.second];
        }
    }

    /// The score stored for `pos`, if it is there.
    pub fn get(&self, pos: &Position) -> Option<i32> {
        self.probe(pos).ok()
    }

    /// Stores `score` for `pos` (a score outside `i16` is not stored).
    pub fn put(&mut self, pos: &Position, score: i32) {
        self.store(self.slot(pos), score);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn finds_what_it_stored_and_only_that() {
        let mut cache = EvalCache::new();
        let start = Position::start();
        assert_eq!(cache.get(&start), None);
        cache.put(&start, -1198);
        assert_eq!(cache.get(&start), Some(-1198));
        cache.put(&start, 37);
        assert_eq!(cache.get(&start), Some(37));
        // The same stones with the other side to move are another position.
        let black = pos("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b");
        assert_eq!(cache.get(&black), None);
        // A score that does not fit 16 bits is not stored.
        let other = pos("9/9/4B4/9/4W4 w");
        cache.put(&other, 40_000);
        assert_eq!(cache.get(&other), None);
        cache.put(&other, i32::from(i16::MIN));
        assert_eq!(cache.get(&other), Some(i32::from(i16::MIN)));
    }

    #[test]
    fn an_entry_taken_by_another_position_is_a_miss() {
        // Two entries: of three positions, two share one.
        let mut cache = EvalCache::with_bits(1);
        let positions = [pos("9/9/4B4/9/4W4 w"), pos("9/9/3B5/9/4W4 w"), pos("9/9/2B6/9/4W4 w")];
        for (i, p) in positions.iter().enumerate() {
            cache.put(p, i as i32 + 1);
        }
        let found: Vec<Option<i32>> = positions.iter().map(|p| cache.get(p)).collect();
        // The last one stored is always there; every hit is the position's own score.
        assert_eq!(found[2], Some(3));
        for (i, f) in found.iter().enumerate() {
            assert!(f.is_none() || *f == Some(i as i32 + 1), "{found:?}");
        }
        assert!(found.contains(&None), "{found:?}");
    }
}
