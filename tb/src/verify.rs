//! Checking tables against their own rules, independently of how they were generated: every
//! canonical position's value must be what one turn of minimax over its successors gives (the
//! twin table for paika turns, the smaller tables or the end of the game for captures), with
//! its dtc; every other slot must repeat its canonical form; and the canonical positions'
//! symmetry classes must cover every placement of the signature exactly once.
//!
//! Local agreement with distances is enough: by induction on the dtc, a table that agrees
//! everywhere has every win and loss right (a win's dtc falls by one along its best line, a
//! loss's successors are wins with smaller dtc), and what is left are draws.

use std::sync::atomic::{AtomicU64, Ordering};

use fanorona_core::{Bitboard, Color, Position, for_each_successor, has_capture};
use rayon::prelude::*;

use crate::format::Counts;
use crate::generate::capture_value;
use crate::symmetry::{COUNT, apply, canonical};
use crate::table::Table;
use crate::{Signature, Tablebase, Value};

/// One table checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TableCheck {
    /// The table.
    pub sig: Signature,
    /// Slots read.
    pub slots: u64,
    /// Canonical positions whose value was recomputed.
    pub positions: u64,
    /// Placements the canonical positions stand for (their symmetry classes' sizes added up);
    /// equal to [`Signature::placements`] when the numbering covers the signature.
    pub placements: u64,
    /// Wins, draws and losses counted over placements (every position, not up to symmetry).
    pub counts: Counts,
    /// Slots whose value disagrees with the rules.
    pub mismatches: u64,
    /// The first disagreement found, if any.
    pub first: Option<Mismatch>,
}

impl TableCheck {
    /// Whether the table passed: no mismatch and every placement covered.
    pub fn passed(&self) -> bool {
        self.mismatches == 0 && self.placements == self.sig.placements()
    }
}

/// A slot whose stored value disagrees with its successors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mismatch {
    /// The position (White to move, from the table's view).
    pub position: Position,
    /// The value stored.
    pub stored: Value,
    /// The value its successors give.
    pub expected: Value,
}

/// Checks every table of `tb`, smallest first, calling `on_slots(n)` as slots are done.
pub fn verify(tb: &Tablebase, on_slots: &(dyn Fn(u64) + Sync)) -> Vec<TableCheck> {
    Signature::up_to(tb.max_stones())
        .filter_map(|sig| tb.table(sig).map(|t| verify_table(tb, t, on_slots)))
        .collect()
}

/// Total slots [`verify`] will read.
pub fn slots_to_verify(tb: &Tablebase) -> u64 {
    Signature::up_to(tb.max_stones()).filter_map(|s| tb.table(s)).map(|t| t.len() as u64).sum()
}

const CHUNK: u64 = 1 << 14;

/// Checks one table.
fn verify_table(tb: &Tablebase, table: &Table, on_slots: &(dyn Fn(u64) + Sync)) -> TableCheck {
    let sig = table.signature();
    let ix = table.indexer();
    let len = ix.len();
    let first = std::sync::Mutex::new(None::<(u64, Mismatch)>);
    let mismatches = AtomicU64::new(0);
    let (positions, placements, counts) = (0..len.div_ceil(CHUNK))
        .into_par_iter()
        .map(|c| {
            let mut acc = (0u64, 0u64, Counts::default());
            ix.for_each_slot(c * CHUNK..len.min((c + 1) * CHUNK), |i, us, them| {
                let stored = table.slot_value(i).unwrap_or(Value::Draw);
                let c = canonical(us, them);
                let expected = if c == (us, them) {
                    let orbit = orbit_size(us, them);
                    acc.0 += 1;
                    acc.1 += orbit;
                    add(&mut acc.2, stored, orbit);
                    local_value(tb, us, them)
                } else {
                    ix.index_canonical(c.0, c.1).and_then(|j| table.slot_value(j)).unwrap_or(Value::Draw)
                };
                if stored != expected {
                    mismatches.fetch_add(1, Ordering::Relaxed);
                    keep_first(&first, i, us, them, stored, expected);
                }
            });
            on_slots(len.min((c + 1) * CHUNK) - c * CHUNK);
            acc
        })
        .reduce(|| (0, 0, Counts::default()), |a, b| (a.0 + b.0, a.1 + b.1, sum(a.2, b.2)));
    let first = first.into_inner().unwrap_or_else(|e| e.into_inner()).map(|(_, m)| m);
    TableCheck { sig, slots: len, positions, placements, counts, mismatches: mismatches.into_inner(), first }
}

/// Keeps the disagreement of the lowest slot, so that the report is the same on every run.
fn keep_first(
    first: &std::sync::Mutex<Option<(u64, Mismatch)>>,
    i: u64,
    us: u64,
    them: u64,
    stored: Value,
    expected: Value,
) {
    let Ok(position) = Position::from_stones(Bitboard(us), Bitboard(them), Color::White) else { return };
    let mut slot = first.lock().unwrap_or_else(|e| e.into_inner());
    if slot.is_none_or(|(j, _)| i < j) {
        *slot = Some((i, Mismatch { position, stored, expected }));
    }
}

/// The value one turn of minimax gives the position `us` (to move) against `them`.
pub fn local_value(tb: &Tablebase, us: u64, them: u64) -> Value {
    if has_capture(Bitboard(us), Bitboard(them)) {
        return capture_value(tb, us, them);
    }
    let mut fastest_win: Option<u32> = None;
    let mut slowest_loss: Option<u32> = None;
    let mut draw = false;
    let mut any = false;
    for_each_successor(Bitboard(us), Bitboard(them), |moved, other| {
        any = true;
        match tb.value(other.0, moved.0) {
            Some(Value::Loss(d)) => fastest_win = Some(fastest_win.map_or(d + 1, |w| w.min(d + 1))),
            Some(Value::Win(d)) => slowest_loss = Some(slowest_loss.map_or(d + 1, |l| l.max(d + 1))),
            Some(Value::Draw) | None => draw = true,
        }
    });
    match (any, fastest_win, draw, slowest_loss) {
        (false, ..) => Value::Loss(0),
        (_, Some(d), ..) => Value::Win(d),
        (_, None, true, _) => Value::Draw,
        (_, None, false, d) => Value::Loss(d.unwrap_or(0)),
    }
}

/// How many distinct placements the board's symmetries make of a position.
fn orbit_size(us: u64, them: u64) -> u64 {
    let mut images = [(0u64, 0u64); COUNT];
    for (s, image) in images.iter_mut().enumerate() {
        *image = (apply(s, us), apply(s, them));
    }
    images.sort_unstable();
    1 + images.windows(2).filter(|w| w[0] != w[1]).count() as u64
}

fn add(counts: &mut Counts, value: Value, n: u64) {
    match value {
        Value::Win(_) => counts.wins += n,
        Value::Draw => counts.draws += n,
        Value::Loss(_) => counts.losses += n,
    }
}

fn sum(a: Counts, b: Counts) -> Counts {
    Counts { wins: a.wins + b.wins, draws: a.draws + b.draws, losses: a.losses + b.losses }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orbits() {
        // A stone on the centre alone is its own image under every symmetry.
        let e3 = 1u64 << fanorona_core::Point::E3.index();
        let a1 = 1u64 << fanorona_core::Point::A1.index();
        assert_eq!(orbit_size(e3, 0), 1);
        assert_eq!(orbit_size(a1, 0), 4);
        assert_eq!(orbit_size(a1, e3), 4);
    }
}
