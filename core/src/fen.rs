//! Position strings: `BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w`.
//!
//! Rows from row 5 down to row 1, each from file `a` to `i`: `W` a white stone, `B` a black
//! stone, a digit `1`-`9` that many empty points (on input `.` is one empty point too); then a
//! space and the side to move, `w` or `b` (upper case accepted on input).

use core::fmt;
use core::str::FromStr;

use crate::{Bitboard, Color, FILES, Point, Position, PositionError, RANKS};

/// Why a position string was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParsePositionError {
    /// Nothing was given.
    #[error("empty position string")]
    Empty,
    /// Not five rows.
    #[error("expected 5 rows separated by '/', found {found}")]
    RowCount {
        /// Rows found.
        found: usize,
    },
    /// A row does not describe nine points.
    #[error("row {row} describes {length} points, expected 9")]
    RowLength {
        /// The row number, 5 (top) to 1.
        row: usize,
        /// How many points it described (so far, when it overflowed).
        length: usize,
    },
    /// A character that is not `W`, `B`, `.` or a digit 1-9.
    #[error("unknown character {ch:?} in row {row} (expected W, B, '.' or a digit 1-9)")]
    BadChar {
        /// The row number.
        row: usize,
        /// The character.
        ch: char,
    },
    /// The side to move is missing.
    #[error("missing side to move after the rows (expected 'w' or 'b')")]
    MissingSide,
    /// The side to move is not `w` or `b`.
    #[error("invalid side to move {0:?} (expected 'w' or 'b')")]
    BadSide(String),
    /// Text after the side to move.
    #[error("unexpected text {0:?} after the side to move")]
    Trailing(String),
    /// The stones do not make a valid position.
    #[error(transparent)]
    Invalid(#[from] PositionError),
}

impl FromStr for Position {
    type Err = ParsePositionError;

    fn from_str(s: &str) -> Result<Position, ParsePositionError> {
        let mut words = s.split_whitespace();
        let board = words.next().ok_or(ParsePositionError::Empty)?;
        let rows: Vec<&str> = board.split('/').collect();
        if rows.len() != RANKS {
            return Err(ParsePositionError::RowCount { found: rows.len() });
        }
        let mut white = Bitboard::EMPTY;
        let mut black = Bitboard::EMPTY;
        for (i, text) in rows.iter().enumerate() {
            let row = RANKS - i;
            let rank = row - 1;
            let mut file = 0usize;
            for ch in text.chars() {
                let (run, stone) = match ch {
                    'W' => (1, Some(Color::White)),
                    'B' => (1, Some(Color::Black)),
                    '.' => (1, None),
                    '1'..='9' => (ch as usize - '0' as usize, None),
                    _ => return Err(ParsePositionError::BadChar { row, ch }),
                };
                if file + run > FILES {
                    return Err(ParsePositionError::RowLength { row, length: file + run });
                }
                if let Some(c) = stone {
                    let p = Point::from_coords(file, rank)
                        .ok_or(ParsePositionError::RowLength { row, length: file + 1 })?;
                    match c {
                        Color::White => white = white.with(p),
                        Color::Black => black = black.with(p),
                    }
                }
                file += run;
            }
            if file != FILES {
                return Err(ParsePositionError::RowLength { row, length: file });
            }
        }
        let side = words.next().ok_or(ParsePositionError::MissingSide)?;
        let turn = match side {
            "w" | "W" => Color::White,
            "b" | "B" => Color::Black,
            other => return Err(ParsePositionError::BadSide(other.to_string())),
        };
        if let Some(extra) = words.next() {
            return Err(ParsePositionError::Trailing(extra.to_string()));
        }
        Ok(Position::from_stones(white, black, turn)?)
    }
}

impl fmt::Display for Position {
    /// The position string, with runs of empty points as digits.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANKS).rev() {
            let mut empties = 0;
            for file in 0..FILES {
                let c = Point::from_coords(file, rank).and_then(|p| self.color_at(p));
                match c {
                    None => empties += 1,
                    Some(c) => {
                        if empties > 0 {
                            write!(f, "{empties}")?;
                            empties = 0;
                        }
                        f.write_str(if c == Color::White { "W" } else { "B" })?;
                    }
                }
            }
            if empties > 0 {
                write!(f, "{empties}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(f, " {}", self.turn().char())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const START: &str = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";

    #[test]
    fn start_round_trip() {
        let p: Position = START.parse().unwrap();
        assert_eq!(p, Position::start());
        assert_eq!(p.to_string(), START);
        let dotted: Position = "BBBBBBBBB/BBBBBBBBB/BWBW.BWBW/WWWWWWWWW/WWWWWWWWW W".parse().unwrap();
        assert_eq!(dotted, p);
    }

    #[test]
    fn errors_name_the_problem() {
        use ParsePositionError::*;
        let e = |s: &str| s.parse::<Position>().unwrap_err();
        assert_eq!(e(""), Empty);
        assert_eq!(e("9/9/9/9 w"), RowCount { found: 4 });
        assert_eq!(e("9/9/9/9/8 w"), RowLength { row: 1, length: 8 });
        assert_eq!(e("9/9/9/WW8/9 w"), RowLength { row: 2, length: 10 });
        assert_eq!(e("9/9/4X4/9/9 w"), BadChar { row: 3, ch: 'X' });
        assert_eq!(e("9/9/4w4/9/9 w"), BadChar { row: 3, ch: 'w' });
        assert_eq!(e("9/9/9/9/9"), MissingSide);
        assert_eq!(e("9/9/9/9/9 x"), BadSide("x".into()));
        assert_eq!(e("9/9/9/9/9 w extra"), Trailing("extra".into()));
        assert_eq!(e("9/9/9/9/9 0"), BadSide("0".into()));
        assert_eq!(e("9/9/4041/9/9 w"), BadChar { row: 3, ch: '0' });
        assert!(matches!(
            e("WWWWWWWWW/WWWWWWWWW/WWWWW4/9/9 w"),
            Invalid(PositionError::TooManyStones { color: Color::White, count: 23 })
        ));
        for err in [e("9/9/9/9/9"), e("9/9/4X4/9/9 w"), e("9/9/9/9/8 w")] {
            assert!(!err.to_string().is_empty());
        }
    }
}
