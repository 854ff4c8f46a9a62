//! A table being solved: one state byte per slot (a [`Value`] byte, 0 while undecided) and, in
//! [`Mode::Counters`], one counter of undecided successors per slot.

use std::sync::atomic::{AtomicU8, Ordering};

use rayon::prelude::*;

use super::Mode;
use crate::format::Counts;
use crate::index::Indexer;
use crate::symmetry::canonical;
use crate::table::Table;
use crate::{Signature, Value};

/// Slots handled by one task of a parallel pass (large enough that a task's overhead is
/// nothing, small enough that both threads stay busy to the end).
pub(super) const CHUNK: u64 = 1 << 14;

/// One table's working state.
pub(super) struct Work {
    pub indexer: Indexer,
    pub values: Vec<AtomicU8>,
    /// Empty in [`Mode::Lean`].
    pub counters: Vec<AtomicU8>,
}

impl Work {
    /// A table with every slot undecided.
    pub fn new(sig: Signature, mode: Mode) -> Work {
        let indexer = Indexer::new(sig);
        let n = indexer.len() as usize;
        let counters = match mode {
            Mode::Counters => zeroed(n),
            Mode::Lean => Vec::new(),
        };
        Work { indexer, values: zeroed(n), counters }
    }

    /// A table from saved state bytes (and counters, empty in [`Mode::Lean`]).
    pub fn from_bytes(indexer: Indexer, values: Vec<u8>, counters: Vec<u8>) -> Work {
        let atomic = |v: Vec<u8>| v.into_iter().map(AtomicU8::new).collect();
        Work { indexer, values: atomic(values), counters: atomic(counters) }
    }

    /// Number of slots.
    pub fn len(&self) -> u64 {
        self.indexer.len()
    }

    /// The mode this table is solved in.
    pub fn mode(&self) -> Mode {
        if self.counters.is_empty() { Mode::Lean } else { Mode::Counters }
    }

    /// The value of slot `i` as decided so far (`Draw` while undecided).
    #[inline]
    pub fn value(&self, i: u64) -> Value {
        Value::decode(self.values[i as usize].load(Ordering::Relaxed))
    }
}

fn zeroed(n: usize) -> Vec<AtomicU8> {
    (0..n).map(|_| AtomicU8::new(0)).collect()
}

/// Calls `f` on every slot range of `len` slots, in parallel, [`CHUNK`] slots at a time.
pub(super) fn par_chunks(len: u64, f: impl Fn(std::ops::Range<u64>) + Sync) {
    (0..len.div_ceil(CHUNK)).into_par_iter().for_each(|c| f(c * CHUNK..len.min((c + 1) * CHUNK)));
}

/// The finished table: non-canonical slots copied from their canonical form (in place), the
/// counts and the longest dtc taken over canonical slots.
pub(super) fn finish(w: Work) -> (Table, u32) {
    let Work { indexer, values, counters } = w;
    drop(counters);
    par_chunks(indexer.len(), |range| {
        indexer.for_each_slot(range, |i, us, them| {
            let c = canonical(us, them);
            if c != (us, them)
                && let Some(j) = indexer.index_canonical(c.0, c.1)
            {
                values[i as usize].store(values[j as usize].load(Ordering::Relaxed), Ordering::Relaxed);
            }
        });
    });
    let (counts, longest) = count(&indexer, &values);
    // The same allocation, reused: no second copy of the table.
    let data: Vec<u8> = values.into_iter().map(AtomicU8::into_inner).collect();
    (Table::new(indexer, data, counts), longest)
}

/// Wins, draws and losses over canonical slots, and the longest dtc.
fn count(indexer: &Indexer, values: &[AtomicU8]) -> (Counts, u32) {
    let len = indexer.len();
    (0..len.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut counts = Counts::default();
            let mut longest = 0;
            indexer.for_each_slot(c * CHUNK..len.min((c + 1) * CHUNK), |i, us, them| {
                if canonical(us, them) != (us, them) {
                    return;
                }
                let value = Value::decode(values[i as usize].load(Ordering::Relaxed));
                match value {
                    Value::Win(_) => counts.wins += 1,
                    Value::Draw => counts.draws += 1,
                    Value::Loss(_) => counts.losses += 1,
                }
                longest = longest.max(value.dtc().unwrap_or(0));
            });
            (counts, longest)
        })
        .reduce(
            || (Counts::default(), 0),
            |(a, x), (b, y)| {
                let sum =
                    Counts { wins: a.wins + b.wins, draws: a.draws + b.draws, losses: a.losses + b.losses };
                (sum, x.max(y))
            },
        )
}
