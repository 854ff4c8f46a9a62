//! The two sides.

use core::fmt;
use core::ops::{Index, IndexMut, Not};

/// A side: White moves first and starts on rows 1-2, Black starts on rows 4-5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The side that moves second.
    Black = 1,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// `0` for White, `1` for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The other side.
    #[inline]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// The letter used in position strings: `w` or `b`.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }

    /// Parses `w`/`W` or `b`/`B`.
    pub const fn from_char(c: char) -> Option<Color> {
        match c {
            'w' | 'W' => Some(Color::White),
            'b' | 'B' => Some(Color::Black),
            _ => None,
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        self.other()
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// One value per colour, indexed by [`Color`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ByColor<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Builds from a function of the colour.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> Self {
        ByColor { white: f(Color::White), black: f(Color::Black) }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn other_and_chars_round_trip() {
        for c in Color::ALL {
            assert_eq!(c.other().other(), c);
            assert_ne!(c.other(), c);
            assert_eq!(Color::from_char(c.char()), Some(c));
        }
        assert_eq!(Color::from_char('x'), None);
    }
}
