//! `fanorona.Position`: a position of the rules, immutable.

use fanorona_core::{Color, Position};
use numpy::PyArray1;
use pyo3::prelude::*;

use crate::errors;

/// A Fanorona position: the stones of both sides and the side to move (immutable; `play`
/// returns the next position).
#[pyclass(name = "Position", module = "fanorona", frozen, eq, hash)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PyPosition(pub Position);

/// Reads a position string as the command line does (`start` or `startpos` for the start).
pub fn parse(text: &str) -> PyResult<Position> {
    let t = text.trim();
    if t == "start" || t == "startpos" {
        return Ok(Position::start());
    }
    t.parse().map_err(|e| errors::value(format!("invalid position {text:?}: {e}")))
}

#[pymethods]
impl PyPosition {
    /// The position of a position string, like
    /// `BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w`; raises ValueError naming what is
    /// wrong.
    #[new]
    fn new(text: &str) -> PyResult<PyPosition> {
        parse(text).map(PyPosition)
    }

    /// The start position (White to move).
    #[staticmethod]
    fn start() -> PyPosition {
        PyPosition(Position::start())
    }

    /// Every legal turn, in notation (a capture's whole chain: `d3e3+,e3f4-`).
    fn legal_moves(&self) -> Vec<String> {
        self.0.legal_moves().iter().map(|m| m.to_string()).collect()
    }

    /// The position after `turn` (notation); raises ValueError naming the rule it breaks.
    fn play(&self, turn: &str) -> PyResult<PyPosition> {
        let m = self.0.parse_move(turn).map_err(|e| errors::value(format!("{turn:?}: {e}")))?;
        self.0.play(&m).map(PyPosition).map_err(errors::value)
    }

    /// Whether the side to move has no stones or no legal turn (draw rules, which depend on
    /// the game's history, are not looked at).
    fn is_game_over(&self) -> bool {
        self.0.is_game_over()
    }

    /// The network input from the side to move's view, exactly the engine's: numpy `uint8
    /// [180]` of stone and threat planes (`encoding="threats"`, the default, as the trainer's)
    /// or `[90]` of stone planes (`encoding="stones"`). Raises ValueError for another encoding.
    #[pyo3(signature = (encoding="threats"))]
    fn encode<'py>(&self, py: Python<'py>, encoding: &str) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let encoding = crate::network::parse_encoding(encoding)?;
        let mut x = Vec::with_capacity(encoding.inputs());
        fanorona_nn::encode_bytes_into(encoding, &self.0, &mut x);
        Ok(PyArray1::from_vec(py, x))
    }

    /// The position whose input row is `inputs` (`encode`'s, 90 or 180 values of 0 and 1)
    /// with `turn` (`"white"` or `"black"`: the row is from the side to move's view, so it
    /// does not say which side that is; the npz's `stm`). Raises ValueError for a row of
    /// another length, values other than 0 and 1, a stone on both planes, too many stones or
    /// threat planes that are not the position's.
    #[staticmethod]
    #[pyo3(signature = (inputs, turn="white"))]
    fn from_inputs(inputs: Vec<f32>, turn: &str) -> PyResult<PyPosition> {
        let turn = parse_color(turn)?;
        crate::decode::position_of(&inputs, turn).map(PyPosition)
    }

    /// The position mirrored left-right (files a..i swapped), same side to move.
    fn mirror(&self) -> PyPosition {
        PyPosition(self.0.mirror_files())
    }

    /// The side to move: `"white"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.0.turn())
    }

    /// The board as text, rows 5 to 1.
    fn diagram(&self) -> String {
        self.0.diagram()
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Position('{}')", self.0)
    }
}

/// `"white"` or `"black"` (also `0` and `1` as text, the npz's `stm`).
pub fn parse_color(text: &str) -> PyResult<Color> {
    match text.trim().to_ascii_lowercase().as_str() {
        "white" | "w" | "0" => Ok(Color::White),
        "black" | "b" | "1" => Ok(Color::Black),
        _ => Err(errors::value(format!("turn: {text:?} is not \"white\" or \"black\""))),
    }
}

/// `"white"` or `"black"`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}
