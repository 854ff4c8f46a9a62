//! `fanorona.Engine`: the project's players and search in-process, from a spec string as the
//! command line takes it, with the network from a file or from a `fanorona.Network`.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use fanorona_core::{DrawRules, Game};
use fanorona_engine::eval::NetEvaluator;
use fanorona_engine::search::Limits;
use fanorona_engine::{Decision, Player, PlayerSpec};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;
use crate::game::PyGame;
use crate::network::PyNetwork;
use crate::position::PyPosition;

/// A player of the engine: `random`, `greedy` or an alpha-beta search
/// (`alphabeta:depth=4,eval=net:best.fnet`, any spec the command line takes).
#[pyclass(name = "Engine", module = "fanorona")]
pub struct PyEngine {
    player: Mutex<Box<dyn Player>>,
    name: String,
}

impl std::fmt::Debug for PyEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PyEngine").field("name", &self.name).finish_non_exhaustive()
    }
}

/// What to search: a game (its history counts for repetitions and the draw rules) or a
/// position (searched as a game's start under the default draw rules).
#[derive(FromPyObject)]
pub enum Subject<'py> {
    /// A game.
    Game(PyRef<'py, PyGame>),
    /// A position.
    Position(PyRef<'py, PyPosition>),
}

fn build(spec: &str, network: Option<&PyNetwork>, seed: u64) -> PyResult<(Box<dyn Player>, String)> {
    let parsed: PlayerSpec = spec.parse().map_err(|e| errors::value(format!("spec {spec:?}: {e}")))?;
    let Some(net) = network else {
        let player = parsed.build(seed).map_err(|e| errors::value(format!("spec {spec:?}: {e}")))?;
        return Ok((player, parsed.to_string()));
    };
    let PlayerSpec::AlphaBeta(a) = &parsed else {
        return Err(errors::value(format!("spec {spec:?}: network= needs an alphabeta spec")));
    };
    let name = format!("{parsed} (network: {})", net.network().arch());
    let eval = NetEvaluator::new(Arc::clone(net.network()), "python")
        .map_err(|e| errors::value(format!("network: {e}")))?;
    let player = a
        .player_with(Box::new(eval), seed, name.clone())
        .map_err(|e| errors::value(format!("spec {spec:?}: {e}")))?;
    Ok((Box::new(player), name))
}

/// The decision as a dict.
fn to_dict<'py>(py: Python<'py>, d: &Decision, seconds: f64) -> PyResult<Bound<'py, PyDict>> {
    let out = PyDict::new(py);
    out.set_item("best", d.mv.to_string())?;
    out.set_item("score", d.score)?;
    out.set_item("depth", d.depth)?;
    out.set_item("nodes", d.nodes)?;
    out.set_item("pv", d.pv.iter().map(ToString::to_string).collect::<Vec<_>>())?;
    out.set_item("seconds", seconds)?;
    Ok(out)
}

#[pymethods]
impl PyEngine {
    /// The player of `spec` (ValueError with the command line's message for a bad spec or a
    /// network file that does not load). `network`: a `fanorona.Network` in memory to search
    /// with instead of the spec's `eval=` (an alphabeta spec). `seed`: for the random and
    /// greedy players and `noise=`.
    #[new]
    #[pyo3(signature = (spec, network=None, seed=0))]
    fn new(spec: &str, network: Option<PyRef<'_, PyNetwork>>, seed: u64) -> PyResult<PyEngine> {
        let (player, name) = build(spec, network.as_deref(), seed)?;
        Ok(PyEngine { player: Mutex::new(player), name })
    }

    /// The player's spec.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Searches `game` (a `fanorona.Game`, whose history counts) or a `Position`, within the
    /// spec's limits or `depth`, `nodes`, `movetime` (milliseconds) given here; the GIL is
    /// released meanwhile. Returns a dict: `best` (the turn, notation), `score` (centi-stones
    /// for the side to move; None without a search), `depth`, `nodes`, `pv` (the principal
    /// variation, `best` first), `seconds`. Raises ValueError when the game is over.
    #[pyo3(signature = (game, *, depth=None, nodes=None, movetime=None))]
    fn search<'py>(
        &self,
        py: Python<'py>,
        game: Subject<'_>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<u64>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let game: Game = match &game {
            Subject::Game(g) => g.game()?.clone(),
            Subject::Position(p) => Game::new(p.0, DrawRules::default()),
        };
        if let Some(o) = game.outcome() {
            return Err(errors::value(format!("the game is over: {o}")));
        }
        if depth == Some(0) || depth.is_some_and(|d| d > fanorona_engine::search::MAX_DEPTH) {
            return Err(errors::value(format!(
                "depth: {depth:?} is not in 1..={}",
                fanorona_engine::search::MAX_DEPTH
            )));
        }
        let limits = (depth.is_some() || nodes.is_some() || movetime.is_some()).then_some(Limits {
            depth,
            nodes,
            movetime: movetime.map(Duration::from_millis),
        });
        let player = &self.player;
        let (decision, seconds) = py.detach(move || {
            let mut p = player.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            let t = Instant::now();
            let d = match limits {
                Some(l) => p.choose_within(&game, l),
                None => p.choose(&game),
            };
            (d, t.elapsed().as_secs_f64())
        });
        to_dict(py, &decision, seconds)
    }

    /// Forgets what was learnt from earlier searches (the transposition table): a new game.
    fn new_game(&self) {
        self.player.lock().unwrap_or_else(std::sync::PoisonError::into_inner).new_game();
    }

    fn __repr__(&self) -> String {
        format!("Engine({:?})", self.name)
    }
}
