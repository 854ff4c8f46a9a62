//! Sets of points as 45-bit masks.

use core::fmt;
use core::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use crate::{Direction, FILES, Point, RANKS};

/// A set of points: bit `i` is the point with index `i` (`a1` = bit 0, `i5` = bit 44).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bitboard(pub u64);

const FILE_A: u64 = 1 | 1 << 9 | 1 << 18 | 1 << 27 | 1 << 36; // a1 a2 a3 a4 a5
const FILE_I: u64 = FILE_A << 8;

impl Bitboard {
    /// No points.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 45 points.
    pub const ALL: Bitboard = Bitboard((1 << Point::NUM) - 1);
    /// The points of file `a`.
    pub const FILE_A: Bitboard = Bitboard(FILE_A);
    /// The points of file `i`.
    pub const FILE_I: Bitboard = Bitboard(FILE_I);
    /// The 23 strong points, where diagonal lines cross.
    pub const STRONG: Bitboard = {
        let mut bb = 0u64;
        let mut i = 0;
        while i < Point::NUM {
            if Point::ALL[i].is_strong() {
                bb |= 1 << i;
            }
            i += 1;
        }
        Bitboard(bb)
    };

    /// The set holding just `p`.
    #[inline]
    pub const fn from_point(p: Point) -> Bitboard {
        Bitboard(1 << p as u8)
    }

    /// Whether `p` is in the set.
    #[inline]
    pub const fn contains(self, p: Point) -> bool {
        self.0 & (1 << p as u8) != 0
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set has at least one point.
    #[inline]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of points in the set.
    #[inline]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// The set with `p` added.
    #[inline]
    pub const fn with(self, p: Point) -> Bitboard {
        Bitboard(self.0 | (1 << p as u8))
    }

    /// The set with `p` removed.
    #[inline]
    pub const fn without(self, p: Point) -> Bitboard {
        Bitboard(self.0 & !(1 << p as u8))
    }

    /// The lowest point of the set.
    #[inline]
    pub const fn first(self) -> Option<Point> {
        if self.0 == 0 { None } else { Point::try_from_index(self.0.trailing_zeros() as usize) }
    }

    /// Every point moved one step in `d`; points that would leave the board are dropped.
    /// (This is a geometric shift: it does not know that diagonals need strong points.)
    #[inline]
    pub const fn shift(self, d: Direction) -> Bitboard {
        let b = self.0;
        Bitboard(match d {
            Direction::North => (b << FILES) & Self::ALL.0,
            Direction::South => b >> FILES,
            Direction::East => (b << 1) & !FILE_A & Self::ALL.0,
            Direction::West => (b >> 1) & !FILE_I,
            Direction::NorthEast => (b << (FILES + 1)) & !FILE_A & Self::ALL.0,
            Direction::NorthWest => (b << (FILES - 1)) & !FILE_I & Self::ALL.0,
            Direction::SouthEast => (b >> (FILES - 1)) & !FILE_A,
            Direction::SouthWest => (b >> (FILES + 1)) & !FILE_I,
        })
    }

    /// The set mirrored left-right.
    pub fn mirror_files(self) -> Bitboard {
        self.into_iter().fold(Bitboard::EMPTY, |acc, p| acc.with(p.mirror_files()))
    }

    /// The set turned 180 degrees about `e3`.
    #[inline]
    pub const fn rotate180(self) -> Bitboard {
        Bitboard(self.0.reverse_bits() >> (64 - Point::NUM))
    }
}

/// Iterates the points of a set in index order.
#[derive(Clone, Debug)]
pub struct BitboardIter(u64);

impl Iterator for BitboardIter {
    type Item = Point;

    #[inline]
    fn next(&mut self) -> Option<Point> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Point::try_from_index(i)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for BitboardIter {}

impl IntoIterator for Bitboard {
    type Item = Point;
    type IntoIter = BitboardIter;
    #[inline]
    fn into_iter(self) -> BitboardIter {
        BitboardIter(self.0 & Bitboard::ALL.0)
    }
}

impl FromIterator<Point> for Bitboard {
    fn from_iter<I: IntoIterator<Item = Point>>(iter: I) -> Bitboard {
        iter.into_iter().fold(Bitboard::EMPTY, Bitboard::with)
    }
}

impl From<Point> for Bitboard {
    fn from(p: Point) -> Bitboard {
        Bitboard::from_point(p)
    }
}

macro_rules! binop {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard { Bitboard(self.0 $op rhs.0) }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, rhs: Bitboard) { self.0 = self.0 $op rhs.0; }
        }
    };
}
binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    /// The complement within the 45 points.
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & Bitboard::ALL.0)
    }
}

impl fmt::Debug for Bitboard {
    /// `{:?}` prints the mask; `{:#?}` draws the board, row 5 on top.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !f.alternate() {
            return write!(f, "Bitboard({:#x})", self.0);
        }
        for rank in (0..RANKS).rev() {
            for file in 0..FILES {
                let on = Point::from_coords(file, rank).is_some_and(|p| self.contains(p));
                f.write_str(if on { "X" } else { "." })?;
                if file < FILES - 1 {
                    f.write_str(" ")?;
                }
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

/// Builds a [`Bitboard`] from a drawing of the board, row 5 first, `X` for a point in the set
/// and `.` for one outside it.
///
/// ```
/// use fanorona_core::{bitboard, Bitboard, Point};
/// let bb = bitboard! {
///     . . . . . . . . .
///     . . . . . . . . .
///     . . . . X . . . .
///     . . . . . . . . .
///     X . . . . . . . X
/// };
/// assert_eq!(bb, Bitboard::from_point(Point::E3) | Point::A1.into() | Point::I1.into());
/// ```
#[macro_export]
macro_rules! bitboard {
    ($($t:tt)*) => {{
        let cells: &[u8] = stringify!($($t)*).as_bytes();
        let mut bits: u64 = 0;
        let mut n = 0usize;
        for &c in cells {
            if c == b'X' || c == b'.' {
                let rank = $crate::RANKS - 1 - n / $crate::FILES;
                let file = n % $crate::FILES;
                if c == b'X' {
                    bits |= 1 << (rank * $crate::FILES + file);
                }
                n += 1;
            }
        }
        assert!(n == $crate::Point::NUM, "bitboard! needs 45 cells");
        $crate::Bitboard(bits)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_follow_point_geometry() {
        for p in Point::ALL {
            for d in Direction::ALL {
                let (df, dr) = d.delta();
                let expected =
                    Point::from_coords((p.file() as i32 + df) as usize, (p.rank() as i32 + dr) as usize);
                let got = Bitboard::from_point(p).shift(d);
                match expected {
                    Some(q) if p.file() as i32 + df >= 0 && p.rank() as i32 + dr >= 0 => {
                        assert_eq!(got, Bitboard::from_point(q), "{p} {d}")
                    }
                    _ => assert!(got.is_empty(), "{p} {d}"),
                }
            }
        }
    }

    #[test]
    fn strong_and_rotation() {
        assert_eq!(Bitboard::STRONG.count(), 23);
        assert_eq!(Bitboard::ALL.rotate180(), Bitboard::ALL);
        assert_eq!(Bitboard::from_point(Point::A1).rotate180(), Bitboard::from_point(Point::I5));
        assert_eq!(Bitboard::FILE_A.mirror_files(), Bitboard::FILE_I);
        assert_eq!(!Bitboard::EMPTY, Bitboard::ALL);
        let v: Vec<Point> = (Bitboard::from_point(Point::C2) | Point::A1.into()).into_iter().collect();
        assert_eq!(v, vec![Point::A1, Point::C2]);
    }
}
