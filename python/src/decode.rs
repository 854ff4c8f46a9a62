//! Input rows back into positions: the inverse of the network's encodings.

use fanorona_core::{Bitboard, Color, Point, Position};
use fanorona_nn::{Encoding, INPUTS};
use pyo3::PyResult;

use crate::errors;

/// The position whose `encoding` row is `row` with `turn` to move.
pub fn position_of(row: &[f32], turn: Color) -> PyResult<Position> {
    let encoding = Encoding::ALL.into_iter().find(|e| e.inputs() == row.len()).ok_or_else(|| {
        let widths: Vec<String> = Encoding::ALL.iter().map(|e| format!("{} ({e})", e.inputs())).collect();
        errors::value(format!("inputs: {} values; an encoding has {}", row.len(), widths.join(" or ")))
    })?;
    if let Some(i) = row.iter().position(|&v| v != 0.0 && v != 1.0) {
        return Err(errors::value(format!("inputs[{i}] is {}, not 0 or 1", row[i])));
    }
    let (mut own, mut enemy) = (Bitboard::EMPTY, Bitboard::EMPTY);
    for p in Point::ALL {
        // The view turns the board for Black; turning it again gives the point back.
        let square = if turn == Color::White { p.index() } else { Point::NUM - 1 - p.index() };
        let (o, e) = (row[square] == 1.0, row[Point::NUM + square] == 1.0);
        if o && e {
            return Err(errors::value(format!(
                "inputs[{square}] and inputs[{}] put two stones on {p}",
                Point::NUM + square
            )));
        }
        if o {
            own |= Bitboard::from_point(p);
        }
        if e {
            enemy |= Bitboard::from_point(p);
        }
    }
    let (white, black) = if turn == Color::White { (own, enemy) } else { (enemy, own) };
    let pos = Position::from_stones(white, black, turn).map_err(|e| errors::value(format!("inputs: {e}")))?;
    let again = fanorona_nn::encode_as(encoding, &pos);
    if let Some(i) = (INPUTS..row.len()).find(|&i| again[i] != row[i]) {
        return Err(errors::value(format!(
            "inputs[{i}] is {} but the position's threat planes give {}: not an encoded position",
            row[i], again[i]
        )));
    }
    Ok(pos)
}
