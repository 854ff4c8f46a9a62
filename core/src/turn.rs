//! A turn reduced to what playing it needs: the stone's origin, where it ends and what it
//! removes (the steps between are for notation, not for the board).

use smallvec::SmallVec;

use crate::{Bitboard, Point};

/// A turn without its steps: origin, end point and every enemy stone it removes. The position
/// after it is fully determined by these, so the search plays and evaluates turns in this form
/// (16 bytes, against 40 for a [`crate::Move`]).
///
/// Two different turns of one position may share all three (two paths through the same
/// stones); a turn is identified by its index in [`crate::Position::generate_moves`]'s order,
/// which [`crate::Position::generate_captures`] keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Turn {
    captured: Bitboard,
    from: Point,
    to: Point,
}

impl Turn {
    /// The turn of a stone on `from` that ends on `to` and removes `captured`.
    #[inline]
    pub const fn new(from: Point, to: Point, captured: Bitboard) -> Turn {
        Turn { captured, from, to }
    }

    /// The point the stone starts from.
    #[inline]
    pub const fn from(&self) -> Point {
        self.from
    }

    /// The point the stone ends on.
    #[inline]
    pub const fn to(&self) -> Point {
        self.to
    }

    /// Every enemy stone the turn removes.
    #[inline]
    pub const fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether the turn is a paika move (it captures nothing).
    #[inline]
    pub const fn is_paika(&self) -> bool {
        self.captured.is_empty()
    }
}

/// Turns of a position, inline for up to 128 as [`crate::MoveList`] (2 KiB instead of 5).
pub type TurnList = SmallVec<[Turn; 128]>;

#[cfg(test)]
mod tests {
    use crate::Position;

    #[test]
    fn a_move_and_its_turn_play_alike() {
        let p = Position::start();
        for m in p.legal_moves() {
            let t = m.turn();
            assert_eq!(
                (t.from(), t.to(), t.captured(), t.is_paika()),
                (m.from(), m.to(), m.captured(), false)
            );
            let (mut a, mut b) = (p, p);
            a.play_unchecked(&m);
            b.play_turn(&t);
            assert_eq!(a, b);
            assert_ne!(a, p);
        }
    }
}
