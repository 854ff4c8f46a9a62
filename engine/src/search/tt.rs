//! The transposition table: search results keyed by Zobrist hash.

use crate::score::FORCED;

/// What a stored score means.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// Nothing stored.
    None = 0,
    /// The exact score.
    Exact = 1,
    /// At least the score (a cutoff happened).
    Lower = 2,
    /// At most the score (no move raised alpha).
    Upper = 3,
}

/// One stored result (16 bytes).
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    key: u64,
    /// Index of the best turn in the position's generated move list, plus one (0: none).
    mv: u16,
    score: i16,
    depth: u8,
    bound: Bound,
    /// The table's age when it was stored: entries of another age count as empty.
    age: u8,
}

const EMPTY: Entry = Entry { key: 0, mv: 0, score: 0, depth: 0, bound: Bound::None, age: 0 };

/// What a probe found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// The best turn's index in the generated move list.
    pub mv: Option<usize>,
    /// The score, already adjusted to the probing ply for forced results.
    pub score: i32,
    /// The depth it was searched to.
    pub depth: u32,
    /// What the score means.
    pub bound: Bound,
}

/// A fixed-size table of single-entry buckets, indexed by the hash's low bits.
#[derive(Debug, Clone)]
pub struct TranspositionTable {
    entries: Vec<Entry>,
    mask: usize,
    /// Bumped by [`TranspositionTable::clear`], so that clearing costs nothing (a real wipe
    /// happens once every 255 clears, when the age wraps).
    age: u8,
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (rounded down to a power of two entries; 0: no table).
    /// When the memory cannot be had, the table is halved until it can.
    pub fn new(mib: usize) -> TranspositionTable {
        let bytes = mib.saturating_mul(1 << 20);
        let want = bytes / size_of::<Entry>();
        let mut len = if want == 0 { 0 } else { 1usize << (usize::BITS - 1 - want.leading_zeros()) };
        let mut entries = Vec::new();
        while len > 0 && entries.try_reserve_exact(len).is_err() {
            len /= 2;
        }
        entries.resize(len, EMPTY);
        TranspositionTable { entries, mask: len.saturating_sub(1), age: 1 }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the table has no entries (size 0).
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets everything: what it stored before is never found again, exactly as if the table
    /// had been wiped (searches after a clear are the same as in a new table).
    pub fn clear(&mut self) {
        if self.age == u8::MAX {
            self.entries.fill(EMPTY);
            self.age = 1;
        } else {
            self.age += 1;
        }
    }

    /// Looks `key` up; `ply` adjusts forced-result scores to the probing node.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let e = self.entries.get(key as usize & self.mask)?;
        if e.key != key || e.bound == Bound::None || e.age != self.age {
            return None;
        }
        Some(Hit {
            mv: (e.mv as usize).checked_sub(1),
            score: from_tt(i32::from(e.score), ply),
            depth: u32::from(e.depth),
            bound: e.bound,
        })
    }

    /// Stores a result (always replacing, unless the slot holds a deeper result for the same
    /// position).
    #[inline]
    pub fn store(&mut self, key: u64, ply: usize, mv: Option<usize>, score: i32, depth: u32, bound: Bound) {
        let Some(e) = self.entries.get_mut(key as usize & self.mask) else { return };
        if e.key == key && e.age == self.age && u32::from(e.depth) > depth && bound != Bound::Exact {
            return;
        }
        *e = Entry {
            key,
            mv: mv.map_or(0, |i| u16::try_from(i + 1).unwrap_or(0)),
            score: to_tt(score, ply) as i16,
            depth: depth.min(255) as u8,
            bound,
            age: self.age,
        };
    }
}

/// Forced results are stored relative to the node (turns from it), not the root.
fn to_tt(score: i32, ply: usize) -> i32 {
    if score > FORCED {
        score + ply as i32
    } else if score < -FORCED {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > FORCED {
        score - ply as i32
    } else if score < -FORCED {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::win_in;

    #[test]
    fn store_and_probe() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.len(), (1 << 20) / 16);
        assert_eq!(tt.probe(42, 0), None);
        tt.store(42, 3, Some(7), 150, 5, Bound::Lower);
        assert_eq!(tt.probe(42, 0), Some(Hit { mv: Some(7), score: 150, depth: 5, bound: Bound::Lower }));
        assert_eq!(tt.probe(43, 0), None);
        // A win in 2 turns seen at ply 3 is a win in 2 from that node: in 4 from ply 1.
        tt.store(99, 3, None, win_in(5), 2, Bound::Exact);
        assert_eq!(tt.probe(99, 1).map(|h| h.score), Some(win_in(3)));
        let none = TranspositionTable::new(0);
        assert!(none.is_empty());
        assert_eq!(none.probe(42, 0), None);
    }

    #[test]
    fn clear_forgets_every_time_even_when_the_age_wraps() {
        let mut tt = TranspositionTable::new(1);
        for round in 0..600u64 {
            let key = 1000 + round;
            tt.store(key, 0, Some(1), 10, 3, Bound::Exact);
            assert!(tt.probe(key, 0).is_some(), "round {round}");
            tt.clear();
            assert_eq!(tt.probe(key, 0), None, "round {round}");
            // A shallower result for the same key is stored after a clear.
            tt.store(key, 0, None, -5, 1, Bound::Upper);
            assert_eq!(tt.probe(key, 0).map(|h| h.depth), Some(1));
            tt.clear();
        }
    }
}
