//! A position: the stones of both sides and the side to move.

use core::fmt;

use crate::zobrist::{self, SIDE_KEY};
use crate::{Bitboard, ByColor, Color, Move, Point, Turn};

/// Most stones a side can have.
pub const MAX_STONES: u32 = 22;

/// A valid position: no point holds two stones and neither side has more than 22 stones.
///
/// It holds nothing but the stones and the side to move: its Zobrist key is computed when asked
/// ([`Position::hash`]), and a search keeps the key of each position it visits incrementally
/// from [`Position::hash_delta`] (as shakmaty's positions and its `Zobrist` wrapper), so the
/// positions a search does not look up in its table (the quiescence search's) cost no hashing.
/// Positions built from user input go through [`Position::from_stones`] or `str::parse`, which
/// validate them once.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    stones: ByColor<Bitboard>,
    turn: Color,
}

/// Why a set of stones is not a valid position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PositionError {
    /// A point holds a white and a black stone.
    #[error("{0} holds both a white and a black stone")]
    Overlap(Point),
    /// A side has more than 22 stones.
    #[error("{color} has {count} stones, more than the 22 a side starts with")]
    TooManyStones {
        /// The side.
        color: Color,
        /// How many it has.
        count: u32,
    },
    /// A bit above the 45 points is set.
    #[error("stone mask {0:#x} has bits beyond the 45 points")]
    OffBoard(u64),
}

/// Why a turn cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{mv} is not a legal turn in {position}")]
pub struct PlayError {
    /// The position, unchanged.
    pub position: Position,
    /// The rejected turn.
    pub mv: Move,
}

impl Position {
    /// The start position: `BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w`.
    pub const fn start() -> Position {
        // Rows 1-2 white, rows 4-5 black; row 3: a3 B, b3 W, c3 B, d3 W, e3 empty, f3 B, g3 W,
        // h3 B, i3 W.
        const ROW3_WHITE: u64 = (1 << 1) | (1 << 3) | (1 << 6) | (1 << 8);
        const ROW3_BLACK: u64 = (1 << 0) | (1 << 2) | (1 << 5) | (1 << 7);
        let white = Bitboard(((1 << 18) - 1) | (ROW3_WHITE << 18));
        let black = Bitboard((ROW3_BLACK << 18) | (((1 << 18) - 1) << 27));
        Position { stones: ByColor { white, black }, turn: Color::White }
    }

    /// Builds and validates a position.
    ///
    /// # Errors
    /// When a point holds two stones, a side has more than 22 stones, or a mask has bits
    /// beyond the 45 points.
    pub fn from_stones(white: Bitboard, black: Bitboard, turn: Color) -> Result<Position, PositionError> {
        for bb in [white, black] {
            if bb.0 & !Bitboard::ALL.0 != 0 {
                return Err(PositionError::OffBoard(bb.0));
            }
        }
        if let Some(p) = (white & black).first() {
            return Err(PositionError::Overlap(p));
        }
        for (color, bb) in [(Color::White, white), (Color::Black, black)] {
            if bb.count() > MAX_STONES {
                return Err(PositionError::TooManyStones { color, count: bb.count() });
            }
        }
        Ok(Position { stones: ByColor { white, black }, turn })
    }

    /// The stones of colour `c`.
    #[inline]
    pub const fn stones(&self, c: Color) -> Bitboard {
        match c {
            Color::White => self.stones.white,
            Color::Black => self.stones.black,
        }
    }

    /// The side to move.
    #[inline]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The stones of the side to move.
    #[inline]
    pub const fn us(&self) -> Bitboard {
        self.stones(self.turn)
    }

    /// The stones of the side not to move.
    #[inline]
    pub const fn them(&self) -> Bitboard {
        self.stones(self.turn.other())
    }

    /// Every stone.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.stones.white.0 | self.stones.black.0)
    }

    /// Every empty point.
    #[inline]
    pub const fn empty(&self) -> Bitboard {
        Bitboard(!self.occupied().0 & Bitboard::ALL.0)
    }

    /// The colour of the stone on `p`, if any.
    #[inline]
    pub const fn color_at(&self, p: Point) -> Option<Color> {
        if self.stones.white.contains(p) {
            Some(Color::White)
        } else if self.stones.black.contains(p) {
            Some(Color::Black)
        } else {
            None
        }
    }

    /// The Zobrist key: the xor of a key per stone (by colour and point) and, when Black is to
    /// move, the side key. Computed from the stones on each call (a loop over them); a search
    /// keeps it incrementally with [`Position::hash_delta`].
    #[inline]
    pub fn hash(&self) -> u64 {
        let side = if self.turn == Color::Black { SIDE_KEY } else { 0 };
        side ^ zobrist::stones_key(Color::White, self.stones.white)
            ^ zobrist::stones_key(Color::Black, self.stones.black)
    }

    /// Plays a turn generated for this position, without checking it.
    ///
    /// The turn must come from this position's legal moves; anything else leaves a
    /// meaningless (but memory-safe) position.
    #[inline]
    pub fn play_unchecked(&mut self, m: &Move) {
        self.play_turn(&m.turn());
    }

    /// Plays a turn given without its steps ([`Move::turn`], [`Position::generate_captures`]),
    /// without checking that it is legal, as [`Position::play_unchecked`].
    #[inline]
    pub fn play_turn(&mut self, m: &Turn) {
        let us = self.turn;
        let them = us.other();
        self.stones[us] = self.stones[us].without(m.from()).with(m.to());
        self.stones[them] &= !m.captured();
        self.turn = them;
    }

    /// What the turn `m` (legal here) changes in the Zobrist key: the key of the position it
    /// leads to is `self.hash() ^ self.hash_delta(m)`, worked out from the turn alone (a few
    /// table reads, one per captured stone), without playing it.
    #[inline]
    pub fn hash_delta(&self, m: &Turn) -> u64 {
        let us = self.turn;
        let them = us.other();
        let captured = m.captured() & self.stones[them];
        zobrist::stone_key(us, m.from())
            ^ zobrist::stone_key(us, m.to())
            ^ zobrist::stones_key(them, captured)
            ^ SIDE_KEY
    }

    /// Plays a turn after checking that it is legal here.
    ///
    /// # Errors
    /// Gives the position back, unchanged, when the turn is not one of its legal moves.
    pub fn play(self, m: &Move) -> Result<Position, PlayError> {
        if self.legal_moves().iter().any(|l| l == m && l.captured() == m.captured()) {
            let mut next = self;
            next.play_unchecked(m);
            Ok(next)
        } else {
            Err(PlayError { position: self, mv: *m })
        }
    }

    /// The position with the side to move swapped (not reachable by a legal turn; for tests
    /// and analysis).
    pub fn with_turn(&self, turn: Color) -> Position {
        let mut p = *self;
        p.turn = turn;
        p
    }

    /// The position mirrored left-right.
    pub fn mirror_files(&self) -> Position {
        Position {
            stones: ByColor {
                white: self.stones.white.mirror_files(),
                black: self.stones.black.mirror_files(),
            },
            turn: self.turn,
        }
    }

    /// The position turned 180 degrees with the colours and the side to move swapped: the same
    /// game seen from the other side.
    pub fn rotate180_swap(&self) -> Position {
        Position {
            stones: ByColor { white: self.stones.black.rotate180(), black: self.stones.white.rotate180() },
            turn: self.turn.other(),
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        let p = Position::start();
        assert_eq!(p.stones(Color::White).count(), 22);
        assert_eq!(p.stones(Color::Black).count(), 22);
        assert_eq!(p.color_at(Point::E3), None);
        assert_eq!(p.color_at(Point::B3), Some(Color::White));
        assert_eq!(p.color_at(Point::A3), Some(Color::Black));
        assert_eq!(p.color_at(Point::I3), Some(Color::White));
        assert_eq!(p.hash(), brute_force_key(&p));
        // Two boards and the side to move: no stored key (a search copies one per turn made).
        assert_eq!(core::mem::size_of::<Position>(), 24);
        assert_eq!(p.rotate180_swap().with_turn(Color::White), p);
    }

    /// The Zobrist key by its definition, point by point.
    fn brute_force_key(p: &Position) -> u64 {
        let side = if p.turn() == Color::Black { SIDE_KEY } else { 0 };
        Point::ALL.iter().fold(side, |h, &q| match p.color_at(q) {
            Some(c) => h ^ zobrist::stone_key(c, q),
            None => h,
        })
    }

    #[test]
    fn keys_follow_every_turn_of_a_game_by_their_delta() {
        let mut p = Position::start();
        let mut turns = 0;
        // The first turn of each list: a game of captures and, once they run out, paika moves.
        while let Some(m) = p.legal_moves().first().copied() {
            let mut q = p;
            q.play_unchecked(&m);
            assert_eq!(q.hash(), p.hash() ^ p.hash_delta(&m.turn()), "{p} then {m}");
            assert_eq!(q.hash(), brute_force_key(&q));
            assert_ne!(q.hash(), p.hash());
            p = q;
            turns += 1;
            if turns == 200 {
                break;
            }
        }
        assert!(turns >= 10, "only {turns} turns");
        assert_eq!(p.with_turn(p.turn().other()).hash(), p.hash() ^ SIDE_KEY);
    }

    #[test]
    fn validation() {
        let w = Bitboard::from_point(Point::A1);
        assert_eq!(Position::from_stones(w, w, Color::White), Err(PositionError::Overlap(Point::A1)));
        let all_but = Bitboard((1 << 23) - 1);
        assert!(matches!(
            Position::from_stones(all_but, Bitboard::EMPTY, Color::White),
            Err(PositionError::TooManyStones { color: Color::White, count: 23 })
        ));
        assert!(matches!(
            Position::from_stones(Bitboard(1 << 50), Bitboard::EMPTY, Color::White),
            Err(PositionError::OffBoard(_))
        ));
    }
}
