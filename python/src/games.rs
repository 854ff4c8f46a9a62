//! `fanorona.read_games`: the games of a record file, one at a time.

use std::path::PathBuf;

use fanorona_core::Color;
use fanorona_data::{GameRecord, RecordReader};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;
use crate::position::PyPosition;

/// One recorded game (`fanorona.Game` is a game to play).
#[pyclass(module = "fanorona", frozen)]
#[derive(Debug)]
pub struct RecordedGame {
    /// The file's header: program, kind, config (JSON text), seed, shard, shard_count,
    /// shards, file.
    #[pyo3(get)]
    header: Py<PyDict>,
    /// The game's number in its file, from 0.
    #[pyo3(get)]
    number: u64,
    record: GameRecord,
}

#[pymethods]
impl RecordedGame {
    /// The game's index in its run (self-play: the index its seed derives from).
    #[getter]
    fn index(&self) -> u64 {
        self.record.index
    }

    /// White's player.
    #[getter]
    fn white(&self) -> &str {
        &self.record.white
    }

    /// Black's player.
    #[getter]
    fn black(&self) -> &str {
        &self.record.black
    }

    /// The start position.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition(self.record.start)
    }

    /// The turns in notation.
    #[getter]
    fn turns(&self) -> Vec<String> {
        self.record.turns.iter().map(|t| t.mv.to_string()).collect()
    }

    /// The search score of every turn (centi-stones, the mover's view); None where the player
    /// did not search.
    #[getter]
    fn scores(&self) -> Vec<Option<i32>> {
        self.record.turns.iter().map(|t| t.info.score).collect()
    }

    /// The completed search depth of every turn; None where there is none.
    #[getter]
    fn depths(&self) -> Vec<Option<u16>> {
        self.record.turns.iter().map(|t| t.info.depth).collect()
    }

    /// Whether each turn was a random opening turn or an exploration pick.
    #[getter]
    fn exploration(&self) -> Vec<bool> {
        self.record.turns.iter().map(|t| t.info.exploration).collect()
    }

    /// `"1-0"`, `"0-1"` or `"1/2-1/2"`.
    #[getter]
    fn result(&self) -> &'static str {
        self.record.outcome.result_str()
    }

    /// `"white"`, `"black"`, or None for a draw.
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.record.outcome.winner.map(|c| match c {
            Color::White => "white",
            Color::Black => "black",
        })
    }

    /// How the game ended, e.g. `"all stones captured"`.
    #[getter]
    fn termination(&self) -> String {
        self.record.outcome.termination.to_string()
    }

    /// The position before every turn (replayed through the rules); raises ValueError at an
    /// illegal turn.
    fn positions(&self) -> PyResult<Vec<PyPosition>> {
        let mut out = Vec::with_capacity(self.record.turns.len());
        self.record
            .for_each_position(|_, p, _| out.push(PyPosition(*p)))
            .map_err(|e| errors::value(format!("game {}: {e}", self.number)))?;
        Ok(out)
    }

    /// The position after the last turn.
    fn final_position(&self) -> PyResult<PyPosition> {
        self.record
            .final_position()
            .map(PyPosition)
            .map_err(|e| errors::value(format!("game {}: {e}", self.number)))
    }

    /// The game as a `fanorona.Game` (its turns played under the default draw rules, with
    /// `max_quiet_plies` and `max_plies` given here for another run's rules); raises ValueError
    /// at an illegal turn.
    #[pyo3(signature = (max_quiet_plies=fanorona_core::DrawRules::DEFAULT_MAX_QUIET_PLIES, max_plies=fanorona_core::DrawRules::DEFAULT_MAX_PLIES))]
    fn replay(&self, max_quiet_plies: u32, max_plies: u32) -> PyResult<crate::game::PyGame> {
        let rules = fanorona_core::DrawRules { max_quiet_plies, max_plies };
        let mut game = fanorona_core::Game::new(self.record.start, rules);
        for (ply, t) in self.record.turns.iter().enumerate() {
            let err = |e: String| errors::value(format!("game {} turn {}: {e}", self.number, ply + 1));
            let m = t.mv.to_move(game.position()).map_err(|e| err(e.to_string()))?;
            game.play(&m).map_err(|e| err(e.to_string()))?;
        }
        Ok(crate::game::PyGame::from_game(game))
    }

    fn __len__(&self) -> usize {
        self.record.turns.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "RecordedGame(number={}, white={:?}, black={:?}, turns={}, result={:?})",
            self.number,
            self.record.white,
            self.record.black,
            self.record.turns.len(),
            self.record.outcome.result_str()
        )
    }
}

/// An iterator of the games of one record file.
#[pyclass(module = "fanorona")]
#[derive(Debug)]
pub struct GameReader {
    reader: Option<RecordReader>,
    header: Py<PyDict>,
    next: u64,
}

#[pymethods]
impl GameReader {
    /// The file's header (see `RecordedGame.header`).
    #[getter]
    fn header(&self, py: Python<'_>) -> Py<PyDict> {
        self.header.clone_ref(py)
    }

    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<RecordedGame>> {
        let Some(reader) = self.reader.as_mut() else { return Ok(None) };
        match reader.read_record() {
            None => {
                self.reader = None;
                Ok(None)
            }
            Some(Err(e)) => {
                self.reader = None;
                Err(errors::data(e))
            }
            Some(Ok(record)) => {
                self.next += 1;
                Ok(Some(RecordedGame { header: self.header.clone_ref(py), number: self.next - 1, record }))
            }
        }
    }
}

/// The games of the record file `path`, one at a time (a damaged record raises ValueError
/// naming the file, the record and its byte offset; a file that cannot be read, OSError).
#[pyfunction]
pub fn read_games(py: Python<'_>, path: PathBuf) -> PyResult<GameReader> {
    let reader = RecordReader::open(&path).map_err(errors::data)?;
    let h = reader.header();
    let header = PyDict::new(py);
    header.set_item("file", path.display().to_string())?;
    header.set_item("program", &h.program)?;
    header.set_item("kind", h.kind.to_string())?;
    header.set_item("config", &h.config)?;
    header.set_item("seed", h.seed)?;
    header.set_item("shard", h.shard)?;
    header.set_item("shard_count", h.shard_count)?;
    header.set_item("shards", h.shards.clone())?;
    header.set_item("format_version", h.format_version)?;
    Ok(GameReader { reader: Some(reader), header: header.unbind(), next: 0 })
}
