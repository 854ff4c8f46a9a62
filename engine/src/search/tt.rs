//! The transposition table: search results keyed by Zobrist hash, shared by every thread of a
//! search without locks.
//!
//! Each slot is two atomic words: the entry packed into one word, and the key XORed with it in
//! the other (Hyatt's lockless hashing, as in Crafty and Stockfish's older tables). A slot torn
//! by two threads storing at once no longer checks out against any key, so a probe sees a whole
//! entry or nothing; relaxed loads and stores are plain moves, so one thread pays nothing.

use std::collections::TryReserveError;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

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

impl Bound {
    fn from_bits(bits: u64) -> Bound {
        match bits & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::None,
        }
    }
}

/// One stored result, unpacked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Entry {
    /// Index of the best turn in the position's generated move list, plus one (0: none).
    mv: u16,
    score: i16,
    depth: u8,
    bound: Bound,
    /// The table's age when it was stored: entries of another age count as empty.
    age: u8,
}

impl Entry {
    fn pack(self) -> u64 {
        u64::from(self.mv)
            | u64::from(self.score as u16) << 16
            | u64::from(self.depth) << 32
            | (self.bound as u64) << 40
            | u64::from(self.age) << 48
    }

    fn unpack(data: u64) -> Entry {
        Entry {
            mv: data as u16,
            score: (data >> 16) as u16 as i16,
            depth: (data >> 32) as u8,
            bound: Bound::from_bits(data >> 40),
            age: (data >> 48) as u8,
        }
    }
}

/// One slot (16 bytes): the key XOR the data, and the data.
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    /// The entry stored for `key`, if this slot holds one (whatever its age).
    #[inline]
    fn load(&self, key: u64) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        (check ^ data == key).then(|| Entry::unpack(data))
    }

    #[inline]
    fn save(&self, key: u64, e: Entry) {
        let data = e.pack();
        self.data.store(data, Ordering::Relaxed);
        self.check.store(key ^ data, Ordering::Relaxed);
    }

    fn wipe(&self) {
        self.data.store(0, Ordering::Relaxed);
        self.check.store(0, Ordering::Relaxed);
    }
}

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

/// A table of `mib` MiB that cannot be had.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a {mib} MiB transposition table: {source}")]
pub struct TableError {
    /// The size asked for.
    pub mib: usize,
    /// Why (the allocator's words).
    #[source]
    pub source: TryReserveError,
}

impl TableError {
    /// Always `true`: the size comes from the caller (an option or a spec).
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// A fixed-size table of single-entry buckets, indexed by the hash's low bits. Shared by
/// reference between threads (`&self` everywhere but [`TranspositionTable::new`]).
#[derive(Debug)]
pub struct TranspositionTable {
    slots: Vec<Slot>,
    mask: usize,
    /// Bumped by [`TranspositionTable::clear`], so that clearing costs nothing (a real wipe
    /// happens once every 255 clears, when the age wraps).
    age: AtomicU8,
}

/// The number of slots of a `mib` MiB table: a power of two (0 for 0 MiB).
fn slots_for(mib: usize) -> usize {
    let want = mib.saturating_mul(1 << 20) / size_of::<Slot>();
    if want == 0 { 0 } else { 1usize << (usize::BITS - 1 - want.leading_zeros()) }
}

fn allocate(len: usize) -> Result<Vec<Slot>, TryReserveError> {
    let mut slots = Vec::new();
    slots.try_reserve_exact(len)?;
    slots.resize_with(len, Slot::default);
    Ok(slots)
}

impl TranspositionTable {
    /// A table of at most `mib` MiB (rounded down to a power of two entries; 0: no table).
    /// When the memory cannot be had, the table is halved until it can (see
    /// [`TranspositionTable::try_new`] for a table of exactly the size asked).
    pub fn new(mib: usize) -> TranspositionTable {
        let mut len = slots_for(mib);
        loop {
            match allocate(len) {
                Ok(slots) => return TranspositionTable::from_slots(slots),
                Err(_) => len /= 2,
            }
        }
    }

    /// A table of `mib` MiB (rounded down to a power of two entries; 0: no table).
    ///
    /// # Errors
    /// [`TableError`] when the memory cannot be reserved.
    pub fn try_new(mib: usize) -> Result<TranspositionTable, TableError> {
        allocate(slots_for(mib))
            .map(TranspositionTable::from_slots)
            .map_err(|e| TableError { mib, source: e })
    }

    fn from_slots(slots: Vec<Slot>) -> TranspositionTable {
        let mask = slots.len().saturating_sub(1);
        TranspositionTable { slots, mask, age: AtomicU8::new(1) }
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no entries (size 0).
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// The size in MiB (a power of two, or 0).
    pub fn mib(&self) -> usize {
        (self.slots.len() * size_of::<Slot>()) >> 20
    }

    /// Forgets everything: what it stored before is never found again, exactly as if the table
    /// had been wiped (searches after a clear are the same as in a new table). Not to be called
    /// while a search uses the table.
    pub fn clear(&self) {
        let age = self.age.load(Ordering::Relaxed);
        if age == u8::MAX {
            self.slots.iter().for_each(Slot::wipe);
            self.age.store(1, Ordering::Relaxed);
        } else {
            self.age.store(age + 1, Ordering::Relaxed);
        }
    }

    /// Asks the processor to fetch the slot of `key` into the cache, without waiting for it:
    /// called as soon as a child's hash is known, so that the probe of the child finds its slot
    /// there (a probe is a random read of a table far larger than the caches, and without this
    /// its miss is the single most expensive instruction of the search). A hint only: no
    /// effect on what is found.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        if let Some(slot) = self.slots.get(key as usize & self.mask) {
            prefetch_read(slot);
        }
    }

    /// Looks `key` up; `ply` adjusts forced-result scores to the probing node.
    #[inline]
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let e = self.slots.get(key as usize & self.mask)?.load(key)?;
        if e.bound == Bound::None || e.age != self.age.load(Ordering::Relaxed) {
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
    pub fn store(&self, key: u64, ply: usize, mv: Option<usize>, score: i32, depth: u32, bound: Bound) {
        let Some(slot) = self.slots.get(key as usize & self.mask) else { return };
        let age = self.age.load(Ordering::Relaxed);
        if let Some(e) = slot.load(key)
            && e.age == age
            && u32::from(e.depth) > depth
            && bound != Bound::Exact
        {
            return;
        }
        slot.save(
            key,
            Entry {
                mv: mv.map_or(0, |i| u16::try_from(i + 1).unwrap_or(0)),
                score: to_tt(score, ply) as i16,
                depth: depth.min(255) as u8,
                bound,
                age,
            },
        );
    }
}

/// Fetches the cache line of `slot` (a hint: nothing on targets without a prefetch).
#[inline(always)]
fn prefetch_read(slot: &Slot) {
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    // SAFETY: a prefetch reads nothing architecturally and cannot fault; the pointer is that of
    // a live slot anyway, and SSE (which has the instruction) is part of every x86-64 target.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(slot).cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
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
        let tt = TranspositionTable::new(1);
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
        let tt = TranspositionTable::new(1);
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

    #[test]
    fn a_table_that_cannot_be_had_is_an_error_or_a_smaller_table() {
        // More bytes than the address space: refused before anything is touched.
        let e = TranspositionTable::try_new(usize::MAX).unwrap_err();
        assert_eq!(e.mib, usize::MAX);
        assert!(e.to_string().starts_with("cannot allocate a "), "{e}");
        assert_eq!(TranspositionTable::try_new(2).map(|t| t.mib()), Ok(2));
        assert_eq!(TranspositionTable::new(3).mib(), 2);
    }

    #[test]
    fn a_torn_slot_is_never_found() {
        let tt = TranspositionTable::new(1);
        tt.store(5, 0, Some(1), 10, 3, Bound::Exact);
        let slot = &tt.slots[5];
        // Another key's data with this key's check word: what a race between two stores leaves.
        let other = Entry { mv: 9, score: -7, depth: 9, bound: Bound::Lower, age: 1 }.pack();
        slot.data.store(other, Ordering::Relaxed);
        assert_eq!(tt.probe(5, 0), None);
    }

    #[test]
    fn threads_share_the_table_and_only_see_whole_entries() {
        let tt = TranspositionTable::new(1);
        // Every key's entry is a function of the key, so a hit can be checked.
        let score = |key: u64| (key % 1000) as i32 - 500;
        std::thread::scope(|s| {
            for t in 0..2u64 {
                let tt = &tt;
                s.spawn(move || {
                    for i in 0..200_000u64 {
                        // Keys that collide in the table's slots, stored from both threads.
                        let key = (i % 64) | ((i * 2 + t) << 32);
                        tt.store(
                            key,
                            0,
                            Some((key % 100) as usize),
                            score(key),
                            (key % 50) as u32,
                            Bound::Exact,
                        );
                        let probe = key ^ (1 << 32);
                        if let Some(h) = tt.probe(probe, 0) {
                            assert_eq!(
                                (h.score, h.mv, h.depth),
                                (score(probe), Some((probe % 100) as usize), (probe % 50) as u32)
                            );
                        }
                    }
                });
            }
        });
        assert!(tt.probe(63 | (399_999 << 32), 0).is_some() || tt.probe(63 | (399_998 << 32), 0).is_some());
    }
}
