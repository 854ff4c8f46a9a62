//! First-layer rows an evaluation still has to add to an accumulator and take from it.

use crate::MAX_THREATS;

/// Rows added by one evaluation at most: the last move's new point and the threat inputs.
const MAX_ADDED: usize = 1 + MAX_THREATS;

/// Rows taken away by one evaluation at most: the moved stone's old point and up to 22
/// captured stones (one move's worth; [`crate::LazyAccumulator`] applies earlier moves itself).
const MAX_TAKEN: usize = 24;

/// The rows that an evaluation adds to an accumulator and takes from it as it activates it,
/// without storing the sum (as [`crate::simd::ExtraRows`]): the last move of a position whose
/// own accumulator was never computed, and the threat inputs of
/// [`crate::Encoding::ThreatPlanes`]. Filled by [`crate::LazyAccumulator::values_pending`] and
/// the network's scoring; a row beyond the capacity (never the case for a legal position) is
/// not kept and [`PendingRows::overflowed`] says so.
#[derive(Clone, Copy, Debug)]
pub struct PendingRows {
    added: [u16; MAX_ADDED],
    n_added: usize,
    taken: [u16; MAX_TAKEN],
    n_taken: usize,
    overflowed: bool,
}

impl Default for PendingRows {
    fn default() -> PendingRows {
        PendingRows::new()
    }
}

impl PendingRows {
    /// No rows.
    pub const fn new() -> PendingRows {
        PendingRows {
            added: [0; MAX_ADDED],
            n_added: 0,
            taken: [0; MAX_TAKEN],
            n_taken: 0,
            overflowed: false,
        }
    }

    /// Forgets every row.
    #[inline]
    pub fn clear(&mut self) {
        self.n_added = 0;
        self.n_taken = 0;
        self.overflowed = false;
    }

    /// Adds row `r`.
    #[inline]
    pub fn add(&mut self, r: u16) {
        self.overflowed |= !push(&mut self.added, &mut self.n_added, r);
    }

    /// Takes row `r` away.
    #[inline]
    pub fn take(&mut self, r: u16) {
        self.overflowed |= !push(&mut self.taken, &mut self.n_taken, r);
    }

    /// The free room for added rows (to be filled, then counted by [`PendingRows::added_more`]).
    #[inline]
    pub(crate) fn room(&mut self) -> &mut [u16] {
        &mut self.added[self.n_added..]
    }

    /// Counts `n` rows written into [`PendingRows::room`].
    #[inline]
    pub(crate) fn added_more(&mut self, n: usize) {
        self.n_added = (self.n_added + n).min(MAX_ADDED);
    }

    /// The rows added.
    #[inline]
    pub fn added(&self) -> &[u16] {
        &self.added[..self.n_added]
    }

    /// The rows taken away.
    #[inline]
    pub fn taken(&self) -> &[u16] {
        &self.taken[..self.n_taken]
    }

    /// Whether a row did not fit (the rows kept are then not the whole change).
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }
}

/// Writes `r` into `slots` after the `n` already there; `false` when there is no room.
#[inline]
fn push(slots: &mut [u16], n: &mut usize, r: u16) -> bool {
    let Some(slot) = slots.get_mut(*n) else { return false };
    *slot = r;
    *n += 1;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_rows_up_to_its_capacity_and_says_when_one_did_not_fit() {
        let mut p = PendingRows::new();
        p.add(3);
        p.take(7);
        p.take(9);
        assert_eq!((p.added(), p.taken(), p.overflowed()), (&[3][..], &[7, 9][..], false));
        p.room()[..2].copy_from_slice(&[11, 12]);
        p.added_more(2);
        assert_eq!(p.added(), [3, 11, 12]);
        for r in 0..MAX_TAKEN as u16 {
            p.take(r);
        }
        assert_eq!(p.taken().len(), MAX_TAKEN);
        assert!(p.overflowed());
        p.clear();
        assert_eq!((p.added().len(), p.taken().len(), p.overflowed()), (0, 0, false));
    }
}
