//! The eight directions a stone can step in.

use core::fmt;

/// Calls `$body` with `$d` bound to each direction index 0..8 as a constant, so that shifts
/// by direction compile to single shifts (the move generator's form, where the index also
/// picks table rows in constant expressions; [`Direction::unrolled`] is the public one).
macro_rules! each_direction {
    ($d:ident => $body:block) => {
        $crate::direction::each_direction!(@indices $d => $body; 0 1 2 3 4 5 6 7)
    };
    (@indices $d:ident => $body:block; $($i:literal)*) => {{
        $({
            const $d: usize = $i;
            $body
        })*
    }};
}
pub(crate) use each_direction;

/// A direction on the board. Diagonal directions are usable only from strong points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum Direction {
    /// Towards row 5.
    North = 0,
    /// Towards row 5 and file `i`.
    NorthEast = 1,
    /// Towards file `i`.
    East = 2,
    /// Towards row 1 and file `i`.
    SouthEast = 3,
    /// Towards row 1.
    South = 4,
    /// Towards row 1 and file `a`.
    SouthWest = 5,
    /// Towards file `a`.
    West = 6,
    /// Towards row 5 and file `a`.
    NorthWest = 7,
}

impl Direction {
    /// All eight directions, clockwise from north.
    pub const ALL: [Direction; 8] = [
        Direction::North,
        Direction::NorthEast,
        Direction::East,
        Direction::SouthEast,
        Direction::South,
        Direction::SouthWest,
        Direction::West,
        Direction::NorthWest,
    ];

    /// Calls `f` with each direction of [`Direction::ALL`], in order, unrolled: once `f` is
    /// inlined each call sees its direction as a constant, so that [`crate::Bitboard::shift`]
    /// by it is one shift and a mask. A `for` loop over [`Direction::ALL`] is not unrolled by
    /// the compiler and dispatches every shift through a jump table, several times slower in
    /// an evaluator's inner loop.
    ///
    /// ```
    /// use fanorona_core::{Bitboard, Direction, Point};
    /// let mut around = Bitboard::EMPTY;
    /// Direction::unrolled(|d| around |= Bitboard::from_point(Point::E3).shift(d));
    /// assert_eq!(around.count(), 8);
    /// ```
    #[inline(always)]
    pub fn unrolled(mut f: impl FnMut(Direction)) {
        each_direction!(D => {
            f(Direction::ALL[D]);
        });
    }

    /// Index 0..8.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction with index `i` (taken modulo 8).
    #[inline]
    pub const fn from_index(i: usize) -> Direction {
        Self::ALL[i % 8]
    }

    /// The opposite direction.
    #[inline]
    pub const fn opposite(self) -> Direction {
        Self::ALL[(self as usize + 4) % 8]
    }

    /// Whether this is one of the four diagonal directions.
    #[inline]
    pub const fn is_diagonal(self) -> bool {
        self as u8 % 2 == 1
    }

    /// (file delta, rank delta).
    #[inline]
    pub const fn delta(self) -> (i32, i32) {
        match self {
            Direction::North => (0, 1),
            Direction::NorthEast => (1, 1),
            Direction::East => (1, 0),
            Direction::SouthEast => (1, -1),
            Direction::South => (0, -1),
            Direction::SouthWest => (-1, -1),
            Direction::West => (-1, 0),
            Direction::NorthWest => (-1, 1),
        }
    }

    /// The direction with this (file, rank) delta, each in -1..=1, not both 0.
    pub const fn from_delta(df: i32, dr: i32) -> Option<Direction> {
        let mut i = 0;
        while i < 8 {
            let (f, r) = Self::ALL[i].delta();
            if f == df && r == dr {
                return Some(Self::ALL[i]);
            }
            i += 1;
        }
        None
    }

    /// The direction mirrored left-right.
    pub const fn mirror_files(self) -> Direction {
        let (f, r) = self.delta();
        match Self::from_delta(-f, r) {
            Some(d) => d,
            None => self,
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::North => "N",
            Direction::NorthEast => "NE",
            Direction::East => "E",
            Direction::SouthEast => "SE",
            Direction::South => "S",
            Direction::SouthWest => "SW",
            Direction::West => "W",
            Direction::NorthWest => "NW",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposite_and_delta() {
        for d in Direction::ALL {
            assert_eq!(d.opposite().opposite(), d);
            let (f, r) = d.delta();
            assert_eq!(d.opposite().delta(), (-f, -r));
            assert_eq!(Direction::from_delta(f, r), Some(d));
            assert_eq!(d.is_diagonal(), f != 0 && r != 0);
            assert_eq!(d.mirror_files().mirror_files(), d);
        }
        assert_eq!(Direction::from_delta(0, 0), None);
    }
}
