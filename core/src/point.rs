//! The 45 points of the board.

use core::fmt;
use core::str::FromStr;

/// Number of files (columns `a`..`i`).
pub const FILES: usize = 9;
/// Number of ranks (rows `1`..`5`).
pub const RANKS: usize = 5;

macro_rules! points {
    ($($p:ident),* $(,)?) => {
        /// A point of the 5x9 board, `A1` (White's bottom-left) to `I5`.
        ///
        /// The index is `rank * 9 + file`, counting from 0.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u8)]
        #[allow(missing_docs)]
        pub enum Point { $($p),* }

        impl Point {
            /// All points in index order.
            pub const ALL: [Point; Point::NUM] = [$(Point::$p),*];
        }
    };
}

points! {
    A1, B1, C1, D1, E1, F1, G1, H1, I1,
    A2, B2, C2, D2, E2, F2, G2, H2, I2,
    A3, B3, C3, D3, E3, F3, G3, H3, I3,
    A4, B4, C4, D4, E4, F4, G4, H4, I4,
    A5, B5, C5, D5, E5, F5, G5, H5, I5,
}

impl Point {
    /// Number of points.
    pub const NUM: usize = 45;

    /// The point with this index, if it is below 45.
    #[inline]
    pub const fn try_from_index(index: usize) -> Option<Point> {
        if index < Self::NUM { Some(Self::ALL[index]) } else { None }
    }

    /// The point at `file` (0 = `a`) and `rank` (0 = row 1).
    #[inline]
    pub const fn from_coords(file: usize, rank: usize) -> Option<Point> {
        if file < FILES && rank < RANKS { Some(Self::ALL[rank * FILES + file]) } else { None }
    }

    /// Index 0..45.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// File index, 0 (`a`) to 8 (`i`).
    #[inline]
    pub const fn file(self) -> usize {
        self as usize % FILES
    }

    /// Rank index, 0 (row 1) to 4 (row 5).
    #[inline]
    pub const fn rank(self) -> usize {
        self as usize / FILES
    }

    /// A strong point has (file + rank) even: diagonal lines pass through it.
    #[inline]
    pub const fn is_strong(self) -> bool {
        (self.file() + self.rank()).is_multiple_of(2)
    }

    /// The point mirrored left-right (`a` <-> `i`).
    #[inline]
    pub const fn mirror_files(self) -> Point {
        Self::ALL[self.rank() * FILES + (FILES - 1 - self.file())]
    }

    /// The point turned 180 degrees about the centre `e3`.
    #[inline]
    pub const fn rotate180(self) -> Point {
        Self::ALL[Self::NUM - 1 - self as usize]
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file() as u8) as char, self.rank() + 1)
    }
}

/// A point name that is not `a1`..`i5`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid point `{0}` (expected a file a-i and a rank 1-5, like `e3`)")]
pub struct ParsePointError(pub String);

impl FromStr for Point {
    type Err = ParsePointError;

    fn from_str(s: &str) -> Result<Point, ParsePointError> {
        let b = s.as_bytes();
        if b.len() == 2 {
            let file = b[0].to_ascii_lowercase().wrapping_sub(b'a') as usize;
            let rank = b[1].wrapping_sub(b'1') as usize;
            if let Some(p) = Point::from_coords(file, rank) {
                return Ok(p);
            }
        }
        Err(ParsePointError(s.to_string()))
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Point {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(*self as u8)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Point {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Point, D::Error> {
        let i = u8::deserialize(d)?;
        Point::try_from_index(i as usize)
            .ok_or_else(|| serde::de::Error::custom(format!("point index {i} out of range 0..45")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_indices() {
        assert_eq!(Point::A1.to_string(), "a1");
        assert_eq!(Point::E3.to_string(), "e3");
        assert_eq!(Point::I5.index(), 44);
        assert_eq!("E3".parse::<Point>(), Ok(Point::E3));
        assert!("j1".parse::<Point>().is_err());
        assert!("a6".parse::<Point>().is_err());
        assert!("a".parse::<Point>().is_err());
        for p in Point::ALL {
            assert_eq!(p.to_string().parse::<Point>(), Ok(p));
            assert_eq!(p.mirror_files().mirror_files(), p);
            assert_eq!(p.rotate180().rotate180(), p);
        }
    }

    #[test]
    fn strong_points() {
        for p in [Point::A1, Point::I1, Point::A5, Point::I5, Point::E3] {
            assert!(p.is_strong(), "{p}");
        }
        assert!(!Point::B1.is_strong());
        assert!(!Point::E2.is_strong());
        assert_eq!(Point::ALL.iter().filter(|p| p.is_strong()).count(), 23);
    }
}
