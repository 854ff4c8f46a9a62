//! Seeding: every canonical position gets what is known before any retrograde step. One whose
//! side to move must capture takes its value at once from the smaller tables (`Win(1)`, `Draw`
//! or `Loss(1)`); one with no legal turn is `Loss(0)`; any other waits, with (in
//! [`super::Mode::Counters`]) a counter of its distinct successor classes.

use std::sync::atomic::{AtomicU32, Ordering};

use fanorona_core::{Bitboard, for_each_successor, has_capture};

use super::work::{Work, par_chunks};
use super::{Progress, sort_dedup};
use crate::index::Indexer;
use crate::symmetry::canonical;
use crate::{Tablebase, Value};

/// The most paika turns a position of the tables can have: eight directions for each of at
/// most six stones of the side to move.
pub(super) const MAX_PAIKA: usize = 8 * (crate::MAX_TB_STONES as usize - 1);

/// Seeds every slot of `w` (whose successors by paika turns lie in `partner`); returns the
/// highest dtc seeded.
pub(super) fn seed(smaller: &Tablebase, w: &Work, partner: &Indexer, progress: &Progress) -> u32 {
    let top = AtomicU32::new(0);
    par_chunks(w.len(), |range| {
        let n = range.end - range.start;
        w.indexer.for_each_slot(range, |i, us, them| {
            if let Some(level) = seed_slot(smaller, w, partner, i, us, them) {
                top.fetch_max(level, Ordering::Relaxed);
            }
        });
        progress.add(n);
    });
    top.into_inner()
}

/// Seeds slot `i`, the position `us` (to move) against `them`: returns the level it is decided
/// at, if it is.
fn seed_slot(smaller: &Tablebase, w: &Work, partner: &Indexer, i: u64, us: u64, them: u64) -> Option<u32> {
    if canonical(us, them) != (us, them) {
        return None;
    }
    let value = if has_capture(Bitboard(us), Bitboard(them)) {
        capture_value(smaller, us, them)
    } else {
        let mut children = [0u64; MAX_PAIKA];
        let distinct = paika_children(us, them, partner, &mut children);
        if distinct > 0 {
            if let Some(counter) = w.counters.get(i as usize) {
                counter.store(distinct as u8, Ordering::Relaxed);
            }
            return None;
        }
        Value::Loss(0)
    };
    w.values[i as usize].store(value.encode().unwrap_or(0), Ordering::Relaxed);
    value.dtc()
}

/// The slots in `partner` of the positions a paika turn leads to from `us` (to move, with no
/// capture) against `them`, distinct, at the front of `out`; returns how many.
pub(super) fn paika_children(us: u64, them: u64, partner: &Indexer, out: &mut [u64; MAX_PAIKA]) -> usize {
    let mut n = 0;
    for_each_successor(Bitboard(us), Bitboard(them), |moved, other| {
        if let Some(j) = partner.index(other.0, moved.0)
            && n < out.len()
        {
            out[n] = j;
            n += 1;
        }
    });
    sort_dedup(&mut out[..n])
}

/// The value of a position whose side to move (`us`) must capture: every turn leads to a
/// smaller table or ends the game.
pub(crate) fn capture_value(smaller: &Tablebase, us: u64, them: u64) -> Value {
    let mut best = Value::Loss(1);
    for_each_successor(Bitboard(us), Bitboard(them), |moved, other| {
        if best == Value::Win(1) {
            return;
        }
        if other.is_empty() {
            best = Value::Win(1);
            return;
        }
        match smaller.value(other.0, moved.0) {
            Some(Value::Loss(_)) => best = Value::Win(1),
            Some(Value::Draw) => best = Value::Draw,
            Some(Value::Win(_)) => {}
            None => debug_assert!(false, "smaller table missing for {other:?} {moved:?}"),
        }
    });
    best
}
