//! `fanorona.Game`: a whole game under the project's rules (the draw rules, the result, the
//! history, undo), played by turns or step by step through the action numbering of
//! `fanorona_data::action` (what the environments of `fanorona.env` use).

use fanorona_core::{Color, DrawRules, Game, Move, Point, Position, Step, neighbor};
use fanorona_data::action::{ACTIONS, STOP, action_step, step_action};
use fanorona_nn::Encoding;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::prelude::*;

use crate::errors;
use crate::position::{PyPosition, color_name};

/// A game from a start position under the draw rules (`max_quiet_plies`: a draw after that
/// many turns in a row without a capture; `max_plies`: a draw at that many turns; 0: no limit;
/// threefold repetition always), with its history and outcome.
#[pyclass(name = "Game", module = "fanorona")]
#[derive(Clone, Debug)]
pub struct PyGame {
    game: Game,
    /// The steps of the turn in progress (a capture chain played by `step`).
    chain: Vec<Step>,
    /// The point the turn in progress started from.
    chain_origin: Option<Point>,
}

/// A start position: a `Position`, a position string, or None for the start.
#[derive(FromPyObject)]
pub enum Start<'py> {
    /// A position.
    Position(PyRef<'py, PyPosition>),
    /// A position string.
    Text(String),
}

impl PyGame {
    /// The legal turns that begin with the steps of the turn in progress.
    fn candidates(&self) -> Vec<Move> {
        let from = self.chain_from();
        let legal = self.game.legal_moves();
        match from {
            None => legal.to_vec(),
            Some(p) => {
                legal.into_iter().filter(|m| m.from() == p && m.steps().starts_with(&self.chain)).collect()
            }
        }
    }

    /// The origin of the turn in progress, None when no step of it has been played.
    fn chain_from(&self) -> Option<Point> {
        self.chain_origin.filter(|_| !self.chain.is_empty())
    }

    /// The turn whose steps are exactly the chain so far (legal: a chain may stop after any
    /// capture).
    fn chain_move(&self) -> Option<Move> {
        self.candidates().into_iter().find(|m| m.steps().len() == self.chain.len())
    }

    /// The points the moving stone has stood on this turn, its start first.
    fn chain_points(&self) -> Vec<Point> {
        let Some(mut at) = self.chain_from() else { return Vec::new() };
        let mut points = vec![at];
        for s in &self.chain {
            at = neighbor(at, s.direction()).unwrap_or(at);
            points.push(at);
        }
        points
    }

    /// The board now: after the steps of the turn in progress, the same side still to move.
    fn board_now(&self) -> Position {
        let pos = *self.game.position();
        match self.chain_move() {
            Some(m) if !self.chain.is_empty() => {
                let mut next = pos;
                next.play_unchecked(&m);
                next.with_turn(pos.turn())
            }
            _ => pos,
        }
    }

    fn legal_action_list(&self) -> Vec<u16> {
        let mover = self.game.position().turn();
        let n = self.chain.len();
        let mut out: Vec<u16> = Vec::new();
        let mut stop = false;
        let at = self.chain_points().last().copied();
        for m in self.candidates() {
            match m.steps().get(n) {
                Some(s) => out.push(step_action(mover, at.unwrap_or(m.from()), *s)),
                None => stop = true,
            }
        }
        out.sort_unstable();
        out.dedup();
        if stop && n > 0 {
            out.push(STOP);
        }
        out
    }

    fn refuse_in_chain(&self, what: &str) -> PyResult<()> {
        if self.chain.is_empty() {
            return Ok(());
        }
        Err(errors::value(format!(
            "{what}: a turn is in progress ({} step(s) played by step()); finish it or undo() it first",
            self.chain.len()
        )))
    }

    /// Plays the whole turn `m` (legal now).
    fn finish(&mut self, m: &Move) {
        self.game.play_unchecked(m);
        self.chain.clear();
        self.chain_origin = None;
    }
}

#[pymethods]
impl PyGame {
    /// A game from `start` (a `Position`, a position string, or None for the start position)
    /// under the draw rules (the command line's defaults: 50 quiet turns, 300 turns).
    #[new]
    #[pyo3(signature = (start=None, max_quiet_plies=DrawRules::DEFAULT_MAX_QUIET_PLIES, max_plies=DrawRules::DEFAULT_MAX_PLIES))]
    fn new(start: Option<Start<'_>>, max_quiet_plies: u32, max_plies: u32) -> PyResult<PyGame> {
        let start = match start {
            None => Position::start(),
            Some(Start::Position(p)) => p.0,
            Some(Start::Text(t)) => crate::position::parse(&t)?,
        };
        let rules = DrawRules { max_quiet_plies, max_plies };
        Ok(PyGame { game: Game::new(start, rules), chain: Vec::new(), chain_origin: None })
    }

    /// The position before the turn now to be played (during a capture chain played by `step`,
    /// the position before its first step; `board` has the steps played).
    #[getter]
    fn position(&self) -> PyPosition {
        PyPosition(*self.game.position())
    }

    /// The board after the steps of the turn in progress, the same side to move.
    #[getter]
    fn board(&self) -> PyPosition {
        PyPosition(self.board_now())
    }

    /// The start position.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition(*self.game.start())
    }

    /// The side to move: `"white"` or `"black"`.
    #[getter]
    fn turn(&self) -> &'static str {
        color_name(self.game.position().turn())
    }

    /// The legal turns in notation (none once the game is over, draws included).
    fn legal_moves(&self) -> Vec<String> {
        self.game.legal_moves().iter().map(ToString::to_string).collect()
    }

    /// Plays a whole turn (notation); raises ValueError naming the rule an illegal turn breaks,
    /// or saying that the game is over.
    fn play(&mut self, turn: &str) -> PyResult<()> {
        self.refuse_in_chain(turn)?;
        if let Some(o) = self.game.outcome() {
            return Err(errors::value(format!("{turn:?}: the game is over: {o}")));
        }
        let m = self.game.position().parse_move(turn).map_err(|e| errors::value(format!("{turn:?}: {e}")))?;
        self.finish(&m);
        Ok(())
    }

    /// Takes back the steps of the turn in progress, else the last turn; False when there is
    /// nothing to take back.
    fn undo(&mut self) -> bool {
        if !self.chain.is_empty() {
            self.chain.clear();
            self.chain_origin = None;
            return true;
        }
        self.game.undo()
    }

    /// Whether the rules have ended the game.
    #[getter]
    fn is_over(&self) -> bool {
        self.game.outcome().is_some()
    }

    /// `"1-0"`, `"0-1"`, `"1/2-1/2"`, or None while the game goes on.
    #[getter]
    fn result(&self) -> Option<&'static str> {
        self.game.outcome().map(|o| o.result_str())
    }

    /// `"white"`, `"black"`, or None (a draw, or the game goes on).
    #[getter]
    fn winner(&self) -> Option<&'static str> {
        self.game.outcome().and_then(|o| o.winner).map(color_name)
    }

    /// Why the game ended (`"all stones captured"`, `"no legal turn"`, `"threefold
    /// repetition"`, `"no capture for too long"`, `"maximum game length"`), or None.
    #[getter]
    fn termination(&self) -> Option<String> {
        self.game.outcome().map(|o| o.termination.to_string())
    }

    /// The turns played, in notation.
    #[getter]
    fn history(&self) -> Vec<String> {
        self.game.moves().iter().map(ToString::to_string).collect()
    }

    /// Every position of the game, the start first and the current one last.
    fn positions(&self) -> Vec<PyPosition> {
        self.game.positions().iter().map(|p| PyPosition(*p)).collect()
    }

    /// Turns played.
    #[getter]
    fn ply(&self) -> usize {
        self.game.ply()
    }

    /// Turns in a row without a capture up to now.
    #[getter]
    fn quiet_plies(&self) -> u32 {
        self.game.quiet_plies()
    }

    /// How often the current position has occurred (3 ends the game).
    #[getter]
    fn repetitions(&self) -> usize {
        self.game.repetitions()
    }

    /// `(max_quiet_plies, max_plies)`.
    #[getter]
    fn rules(&self) -> (u32, u32) {
        let r = self.game.rules();
        (r.max_quiet_plies, r.max_plies)
    }

    /// The actions legal now, ascending (`fanorona.ACTIONS` numbers: a step of the side to
    /// move as it sees the board, or `STOP` to end a capture chain); none once the game is over.
    fn legal_actions(&self) -> Vec<u16> {
        self.legal_action_list()
    }

    /// `legal_actions` as a mask: numpy uint8 `[ACTIONS]`, 1 where legal.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u8>> {
        let mut mask = vec![0u8; ACTIONS];
        for a in self.legal_action_list() {
            mask[usize::from(a)] = 1;
        }
        PyArray1::from_vec(py, mask)
    }

    /// Plays one action: a step (the turn ends when no capture can follow it) or `STOP`.
    /// Returns the turn in notation when it ended, else None (the same side acts again).
    /// Raises ValueError for an action out of range or not legal now.
    fn step(&mut self, action: i64) -> PyResult<Option<String>> {
        let legal = self.legal_action_list();
        let Some(a) = u16::try_from(action).ok().filter(|&a| usize::from(a) < ACTIONS) else {
            return Err(errors::value(format!("action {action} is not in 0..{ACTIONS}")));
        };
        if !legal.contains(&a) {
            let over = self.game.outcome().map(|o| format!(": the game is over: {o}")).unwrap_or_default();
            return Err(errors::value(format!(
                "action {a} ({}) is not legal here{over}",
                action_name(self.game.position().turn(), a)
            )));
        }
        if a != STOP {
            let mover = self.game.position().turn();
            let Some((from, step)) = action_step(mover, a) else { return Ok(None) };
            if self.chain.is_empty() {
                self.chain_origin = Some(from);
            }
            self.chain.push(step);
            if self.candidates().iter().any(|m| m.steps().len() > self.chain.len()) {
                return Ok(None);
            }
        }
        let Some(m) = self.chain_move() else {
            return Err(errors::value("no turn has the steps played (a bug: please report it)"));
        };
        self.finish(&m);
        Ok(Some(m.to_string()))
    }

    /// The actions of `turn` (notation) in the current position: its steps, then `STOP` when a
    /// longer chain was legal. Raises ValueError for an illegal turn.
    fn turn_actions(&self, turn: &str) -> PyResult<Vec<u16>> {
        self.refuse_in_chain(turn)?;
        let pos = self.game.position();
        let m = pos.parse_move(turn).map_err(|e| errors::value(format!("{turn:?}: {e}")))?;
        Ok(fanorona_data::action::turn_actions(pos, &m))
    }

    /// The environment's observation: `board`'s network input (`encoding`, threats by
    /// default: 180 values) followed by two planes of 45 in the same view: the stone that is
    /// capturing (during a chain) and the points it has stood on this turn. numpy uint8.
    /// `view` ("white" or "black", default the side to move): whose view; the other side's
    /// sees the board as if it were to move, with empty chain planes.
    #[pyo3(signature = (encoding="threats", view=None))]
    fn observation<'py>(
        &self,
        py: Python<'py>,
        encoding: &str,
        view: Option<&str>,
    ) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let encoding = crate::network::parse_encoding(encoding)?;
        let view = view.map(crate::position::parse_color).transpose()?;
        Ok(PyArray1::from_vec(py, self.observation_row(encoding, view)))
    }

    /// An independent copy.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __repr__(&self) -> String {
        let state = match self.game.outcome() {
            Some(o) => o.to_string(),
            None => format!("{} to move", color_name(self.game.position().turn())),
        };
        format!("Game(ply={}, {state}, position='{}')", self.game.ply(), self.game.position())
    }
}

impl PyGame {
    /// A game already played to where it is.
    pub fn from_game(game: Game) -> PyGame {
        PyGame { game, chain: Vec::new(), chain_origin: None }
    }

    /// The observation row (see `observation`) from `view`'s side (default: the mover's).
    pub fn observation_row(&self, encoding: Encoding, view: Option<Color>) -> Vec<u8> {
        let now = self.board_now();
        let viewer = view.unwrap_or(now.turn());
        let board = now.with_turn(viewer);
        let mut row = Vec::with_capacity(encoding.inputs() + 2 * Point::NUM);
        fanorona_nn::encode_bytes_into(encoding, &board, &mut row);
        let start = row.len();
        row.resize(start + 2 * Point::NUM, 0);
        if viewer != now.turn() {
            return row;
        }
        let points = self.chain_points();
        let square = |p: Point| match viewer {
            Color::White => p.index(),
            Color::Black => Point::NUM - 1 - p.index(),
        };
        if let Some(&at) = points.last() {
            row[start + square(at)] = 1;
        }
        for &p in &points {
            row[start + Point::NUM + square(p)] = 1;
        }
        row
    }

    /// The game under the rules (for the engine).
    pub fn game(&self) -> PyResult<&Game> {
        self.refuse_in_chain("search")?;
        Ok(&self.game)
    }
}

/// An action in words: the step in notation (`d3e3+`) or `stop`.
pub fn action_name(mover: Color, a: u16) -> String {
    match action_step(mover, a) {
        None => "stop".into(),
        Some((from, s)) => match neighbor(from, s.direction()) {
            Some(to) => format!("{from}{to}{}", s.kind().mark()),
            None => format!("{from} off the board"),
        },
    }
}

/// A position or a game, for the batched masks.
#[derive(FromPyObject)]
pub enum Decider<'py> {
    /// A game: its decision now (within a capture chain too).
    Game(PyRef<'py, PyGame>),
    /// A position: the first step of its turn.
    Position(PyRef<'py, PyPosition>),
}

/// The legal-action masks of many games or positions at once: numpy uint8 `[n, ACTIONS]`
/// (row `i` is `items[i].action_mask()`; a position's is that of a game starting there).
#[pyfunction]
pub fn action_masks<'py>(py: Python<'py>, items: Vec<Decider<'_>>) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let n = items.len();
    let mut mask = vec![0u8; n * ACTIONS];
    for (i, item) in items.iter().enumerate() {
        let legal = match item {
            Decider::Game(g) => g.legal_action_list(),
            Decider::Position(p) => {
                PyGame::from_game(Game::new(p.0, DrawRules { max_quiet_plies: 0, max_plies: 0 }))
                    .legal_action_list()
            }
        };
        for a in legal {
            mask[i * ACTIONS + usize::from(a)] = 1;
        }
    }
    PyArray1::from_vec(py, mask).reshape([n, ACTIONS])
}

/// The step of action `action` for `turn` ("white" or "black") in notation (`d3e3+`), `stop`
/// for STOP; ValueError out of range.
#[pyfunction]
#[pyo3(signature = (action, turn="white"))]
#[pyo3(name = "action_name")]
pub fn action_name_of(action: i64, turn: &str) -> PyResult<String> {
    let mover = crate::position::parse_color(turn)?;
    let Some(a) = u16::try_from(action).ok().filter(|&a| usize::from(a) < ACTIONS) else {
        return Err(errors::value(format!("action {action} is not in 0..{ACTIONS}")));
    };
    Ok(action_name(mover, a))
}
