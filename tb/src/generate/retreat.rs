//! One retrograde level: every position decided at `level` is un-moved (paika turns only, into
//! positions whose mover had no capture). A lost one makes each undecided predecessor a win at
//! `level + 1`. A won one, in [`Mode::Counters`], takes one from each predecessor's counter, and
//! a counter reaching zero makes that predecessor a loss at `level + 1`; in [`Mode::Lean`] the
//! predecessor's successors are generated again, and it is lost at `level + 1` when every one
//! of them is won within `level`.

use std::sync::atomic::{AtomicBool, Ordering};

use fanorona_core::{Bitboard, Direction, for_each_successor, has_capture, neighbor};

use super::work::{Work, par_chunks};
use super::{Mode, Progress, sort_dedup};
use crate::index::Indexer;
use crate::{Signature, TbError, Value};

/// The most paika predecessors a position can have: eight directions for each of the other
/// side's stones.
const MAX_PREDECESSORS: usize = 8 * (crate::MAX_TB_STONES as usize - 1);

/// Un-moves every slot of `w` decided at `level`, deciding predecessors in `partner` at
/// `level + 1`; returns whether any was decided.
///
/// # Errors
/// [`TbError::DtcOverflow`] when a predecessor's dtc does not fit the format.
pub(super) fn retreat_level(
    w: &Work,
    partner: &Work,
    level: u32,
    sig: Signature,
    progress: &Progress,
) -> Result<bool, TbError> {
    let win = Value::Win(level).encode().ok();
    let loss = Value::Loss(level).encode().ok();
    let next = [Value::Win(level + 1).encode().ok(), Value::Loss(level + 1).encode().ok()];
    let decided = AtomicBool::new(false);
    let overflow = AtomicBool::new(false);
    par_chunks(w.len(), |range| {
        let mut done = 0;
        for i in range {
            let b = w.values[i as usize].load(Ordering::Relaxed);
            let lost = Some(b) == loss;
            if b == 0 || !(lost || Some(b) == win) {
                continue;
            }
            done += 1;
            let Some(byte) = next[usize::from(!lost)] else {
                overflow.store(true, Ordering::Relaxed);
                continue;
            };
            if retreat_slot(w, partner, i, lost, level, byte) {
                decided.store(true, Ordering::Relaxed);
            }
        }
        progress.add(done);
    });
    if overflow.load(Ordering::Relaxed) {
        return Err(TbError::DtcOverflow { sig, dtc: level + 1 });
    }
    Ok(decided.into_inner())
}

/// Un-moves slot `i` of `w` (decided at `level`, `lost` for its side to move), writing `byte`
/// into the predecessors it decides; returns whether it decided any.
fn retreat_slot(w: &Work, partner: &Work, i: u64, lost: bool, level: u32, byte: u8) -> bool {
    let (us, them) = w.indexer.position(i);
    let mut preds = [0u64; MAX_PREDECESSORS];
    let n = predecessors(us, them, &partner.indexer, &mut preds);
    let mut any = false;
    for &j in &preds[..n] {
        let slot = &partner.values[j as usize];
        if slot.load(Ordering::Relaxed) != 0 {
            continue;
        }
        let decide = lost
            || match partner.mode() {
                Mode::Counters => partner.counters[j as usize].fetch_sub(1, Ordering::Relaxed) == 1,
                Mode::Lean => every_successor_won(partner, j, w, level),
            };
        if decide && slot.compare_exchange(0, byte, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
            any = true;
        }
    }
    any
}

/// The predecessors of a position (`us` to move) by a paika turn of `them`, in canonical form
/// in `partner`, distinct; returns how many were written to `out`.
fn predecessors(us: u64, them: u64, partner: &Indexer, out: &mut [u64; MAX_PREDECESSORS]) -> usize {
    let mut n = 0;
    let empty = !(us | them) & Bitboard::ALL.0;
    for p in Bitboard(them) {
        for d in Direction::ALL {
            let Some(q) = neighbor(p, d).filter(|q| empty & (1 << q.index()) != 0) else { continue };
            let before = them & !(1 << p.index()) | 1 << q.index();
            if has_capture(Bitboard(before), Bitboard(us)) {
                continue;
            }
            if let Some(j) = partner.index(before, us)
                && n < out.len()
            {
                out[n] = j;
                n += 1;
            }
        }
    }
    sort_dedup(&mut out[..n])
}

/// In [`Mode::Lean`]: whether every successor of slot `j` of `w` (a position without capture)
/// is, in `successors`, won for its side to move within `level`. A successor won later (at
/// `level + 1`, perhaps decided in this very pass) is not counted: it decides the predecessor
/// at its own level.
fn every_successor_won(w: &Work, j: u64, successors: &Work, level: u32) -> bool {
    let (us, them) = w.indexer.position(j);
    let mut all = true;
    for_each_successor(Bitboard(us), Bitboard(them), |moved, other| {
        if !all {
            return;
        }
        all = successors
            .indexer
            .index(other.0, moved.0)
            .is_some_and(|k| matches!(successors.value(k), Value::Win(d) if d <= level));
    });
    all
}

#[cfg(test)]
mod tests {
    use fanorona_core::Point;

    use super::*;

    #[test]
    fn a_lone_stone_has_predecessors_from_each_free_neighbour() {
        // Black (to move) on a5, White's last stone on e3 came from one of its 8 neighbours.
        let us = 1u64 << Point::A5.index();
        let them = 1u64 << Point::E3.index();
        let sig = Signature::new(1, 1).unwrap_or_else(|| unreachable!());
        let partner = Indexer::new(sig);
        let mut out = [0u64; MAX_PREDECESSORS];
        let n = predecessors(us, them, &partner, &mut out);
        // Up to symmetry some of the 8 may coincide; none has a capture (the stones are far).
        assert!((1..=8).contains(&n), "{n}");
    }
}
