//! A seat at the board: an in-process player or an external engine, behind one interface
//! that turns every engine fault into a [`Fault`].

use std::sync::Arc;
use std::time::Duration;

use fanorona_core::{Color, Game, Move, MoveError, Position, Rng};
use fanorona_data::{Ending, TurnInfo};
use fanorona_engine::protocol::turn_budget_ms;
use fanorona_engine::search::Limits;
use fanorona_engine::thread_time;
use fanorona_engine::{Player, PlayerSpec};

use crate::EvalError;
use crate::external::{ExternalEngine, Fault};
use crate::log::EngineLog;
use crate::spec::{Clock, EngineKind, EngineSpec, ExternalSpec};
use crate::timecontrol::Control;

/// A seat's turn: the move, its info, the wall time it took and, for an in-process player
/// under a time limit, the processor time of the thread that searched it.
#[derive(Debug)]
pub(crate) struct Chosen {
    pub mv: Move,
    pub info: TurnInfo,
    pub took: Duration,
    pub cpu: Option<Duration>,
}

/// One engine of a match, as one worker thread runs it.
pub(crate) enum Seat {
    /// An in-process player. Players whose choices depend on their random stream (random,
    /// greedy) are rebuilt with each game's seed, so that results do not depend on which
    /// worker played which games; searching players are reused and told `new_game`.
    /// `control`: the limits of the engine options (time control), applied over the spec's.
    Player { spec: PlayerSpec, player: Box<dyn Player>, rebuild: bool, control: Control },
    /// An external program, started on first use and restarted after a fault; each process
    /// logged as `name#N` when the match has a log.
    External { spec: ExternalSpec, engine: Option<ExternalEngine>, name: String, log: Option<Arc<EngineLog>> },
}

impl std::fmt::Debug for Seat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Seat::Player { spec, .. } => write!(f, "Seat::Player({spec})"),
            Seat::External { spec, .. } => write!(f, "Seat::External({})", spec.program.display()),
        }
    }
}

/// What a seat needs to know about the clocks before a turn.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClockState {
    /// Milliseconds left for White and Black (`None`: that side has no clock).
    pub remaining: [Option<i64>; 2],
    /// Increments of White and Black.
    pub inc: [u64; 2],
    /// Turns until the next time period of White and Black (`tc=MOVES/...`).
    pub moves_to_go: [Option<u32>; 2],
}

impl Seat {
    pub(crate) fn new(engine: &EngineSpec, log: Option<&Arc<EngineLog>>) -> Result<Seat, EvalError> {
        Ok(match &engine.kind {
            EngineKind::Player(spec) => {
                let player = spec
                    .build(0)
                    .map_err(|e| EvalError::Spec { spec: engine.text.clone(), reason: e.to_string() })?;
                let rebuild = matches!(spec, PlayerSpec::Random | PlayerSpec::Greedy);
                Seat::Player { spec: spec.clone(), player, rebuild, control: engine.control }
            }
            EngineKind::External(spec) => Seat::External {
                spec: spec.clone(),
                engine: None,
                name: engine.name.clone(),
                log: log.cloned(),
            },
        })
    }

    /// Prepares a new game; `seed` is the game's seed for this seat.
    pub(crate) fn new_game(&mut self, seed: u64) -> Result<(), Fault> {
        match self {
            Seat::Player { spec, player, rebuild, .. } => {
                if *rebuild {
                    let s = Rng::new(seed).next_u64();
                    *player = spec.build(s).map_err(|e| Fault::failure(e.to_string()))?;
                }
                player.new_game();
                Ok(())
            }
            Seat::External { spec, engine, name, log } => {
                if engine.is_none() {
                    *engine = Some(ExternalEngine::start_logged(spec, log.as_ref().map(|l| l.handle(name)))?);
                }
                let e = engine.as_mut().ok_or_else(|| Fault::failure("engine missing"))?;
                let r = e.send("newgame").and_then(|()| e.sync());
                if r.is_err() {
                    *engine = None;
                }
                r
            }
        }
    }

    /// The clock this seat plays under, if any.
    pub(crate) fn clock(&self) -> Option<Clock> {
        match self {
            Seat::External { spec, .. } => spec.clock,
            Seat::Player { control, .. } => control.clock,
        }
    }

    /// Turns per clock period, if the clock has periods.
    pub(crate) fn period(&self) -> Option<u32> {
        match self {
            Seat::External { spec, .. } => spec.period,
            Seat::Player { control, .. } => control.period,
        }
    }

    /// The fixed time per turn an in-process player must keep to (external engines are held
    /// to theirs by the deadline on their `bestmove`).
    pub(crate) fn movetime_ms(&self) -> Option<u64> {
        match self {
            Seat::External { .. } => None,
            Seat::Player { control, .. } => control.movetime_ms,
        }
    }

    /// The grace on a time limit before a late turn loses.
    pub(crate) fn margin_ms(&self) -> u64 {
        match self {
            Seat::External { spec, .. } => spec.margin_ms,
            Seat::Player { control, .. } => control.margin_ms.unwrap_or(ExternalSpec::DEFAULT_MARGIN_MS),
        }
    }

    /// Picks a turn in `game` (not over). Returns the turn (legal) with its info and how long
    /// it took, or the fault that loses the game; an external engine is dropped (killed) after
    /// a fault and restarted for the next game.
    pub(crate) fn choose(&mut self, game: &Game, clocks: &ClockState) -> Result<Chosen, Fault> {
        match self {
            Seat::Player { spec, player, control, .. } => {
                let t = std::time::Instant::now();
                let limits = player_limits(spec, control, game.position().turn(), clocks);
                let timed = limits.movetime.is_some();
                let set = control.is_set();
                let mut choose =
                    || if set { player.choose_within(game, limits) } else { player.choose(game) };
                // The search of a one-thread engine runs on this thread; its processor time is
                // read (two reads of a /proc file) only for a time-limited turn.
                let (d, took, cpu) = if timed {
                    thread_time::timed(choose)
                } else {
                    let d = choose();
                    (d, t.elapsed(), None)
                };
                if !game.legal_moves().contains(&d.mv) {
                    return Err(Fault {
                        termination: Ending::IllegalMove,
                        reason: format!("player {} chose {} which is not legal", player.name(), d.mv),
                    });
                }
                let info = TurnInfo {
                    score: d.score,
                    depth: d.depth.map(|x| x.min(u16::MAX as u32) as u16),
                    exploration: false,
                };
                Ok(Chosen { mv: d.mv, info, took, cpu })
            }
            Seat::External { spec, engine, .. } => {
                let r = Self::choose_external(spec, engine, game, clocks);
                if r.is_err() {
                    *engine = None;
                }
                r.map(|(mv, info, took)| Chosen { mv, info, took, cpu: None })
            }
        }
    }

    fn choose_external(
        spec: &ExternalSpec,
        engine: &mut Option<ExternalEngine>,
        game: &Game,
        clocks: &ClockState,
    ) -> Result<(Move, TurnInfo, Duration), Fault> {
        let e = engine.as_mut().ok_or_else(|| Fault::failure("engine not running"))?;
        e.send(&position_command(game))?;
        let mover = game.position().turn();
        let mut go = format!("go{}", spec.go_limits());
        if let Some(mine) = clocks.remaining[mover.index()] {
            let other = clocks.remaining[mover.other().index()].unwrap_or(mine);
            let (w, b) = if mover == Color::White { (mine, other) } else { (other, mine) };
            let inc = clocks.inc[mover.index()];
            go.push_str(&format!(" wtime {} btime {} winc {inc} binc {inc}", w.max(0), b.max(0)));
            if let Some(m) = clocks.moves_to_go[mover.index()] {
                go.push_str(&format!(" movestogo {m}"));
            }
        }
        let limit = spec.turn_deadline(clocks.remaining[mover.index()]);
        let (best, took) = e.go(&go, limit)?;
        let pos = game.position();
        let mv = parse_bestmove(pos, &best.text)?;
        let info = TurnInfo {
            score: best.score,
            depth: best.depth.map(|x| x.min(u16::MAX as u32) as u16),
            exploration: false,
        };
        Ok((mv, info, took))
    }

    /// Stops external engines politely.
    pub(crate) fn shutdown(self) {
        if let Seat::External { engine: Some(e), .. } = self {
            e.shutdown();
        }
    }
}

/// The search limits of an in-process player's turn: its spec's, each overridden by the engine
/// option of the same kind, the time bounded by its clock's budget as `fanorona engine` would
/// spend it (like `go depth N wtime ...`).
fn player_limits(spec: &PlayerSpec, control: &Control, mover: Color, clocks: &ClockState) -> Limits {
    let mut limits = match spec {
        PlayerSpec::AlphaBeta(a) if !control.spec_unlimited => a.limits(),
        _ => Limits::default(),
    };
    limits.depth = control.depth.or(limits.depth);
    limits.nodes = control.nodes.or(limits.nodes);
    limits.movetime = control.movetime_ms.map(Duration::from_millis).or(limits.movetime);
    if let Some(left) = clocks.remaining[mover.index()] {
        let m = mover.index();
        let budget = turn_budget_ms(left.max(0) as u64, clocks.inc[m], clocks.moves_to_go[m].map(u64::from));
        let budget = Duration::from_millis(budget);
        limits.movetime = Some(limits.movetime.map_or(budget, |t| t.min(budget)));
    }
    limits
}

fn parse_bestmove(pos: &Position, text: &str) -> Result<Move, Fault> {
    if text.is_empty() {
        return Err(Fault::failure("bestmove without a turn"));
    }
    if text == "none" {
        return Err(Fault {
            termination: Ending::IllegalMove,
            reason: "bestmove none although legal turns exist".into(),
        });
    }
    pos.parse_move(text).map_err(|e| match e {
        MoveError::Parse(p) => Fault::failure(format!("unreadable bestmove {text:?}: {p}")),
        MoveError::Illegal(i) => {
            Fault { termination: Ending::IllegalMove, reason: format!("bestmove {text}: {i}") }
        }
    })
}

/// `position startpos|fen ... [moves ...]` for the game so far.
pub(crate) fn position_command(game: &Game) -> String {
    let mut s = if *game.start() == Position::start() {
        "position startpos".to_string()
    } else {
        format!("position fen {}", game.start())
    };
    if !game.moves().is_empty() {
        s.push_str(" moves");
        for m in game.moves() {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::DrawRules;

    #[test]
    fn player_limits_follow_the_options_and_the_clock() {
        let e: EngineSpec = "alphabeta:depth=9,eval=material;tc=40/60+0.6".parse().unwrap();
        let EngineKind::Player(spec) = &e.kind else { panic!("player expected") };
        let clocks = ClockState { remaining: [Some(9_000), None], inc: [0, 0], moves_to_go: [Some(2), None] };
        let l = player_limits(spec, &e.control, Color::White, &clocks);
        // The spec's depth and the clock's budget: a third of 9 s with two turns to go.
        assert_eq!((l.depth, l.movetime), (Some(9), Some(Duration::from_millis(3_000))));
        // A spec without a limit of its own searches on the clock alone.
        let e: EngineSpec = "alphabeta:eval=material;tc=40/60+0.6".parse().unwrap();
        let EngineKind::Player(spec) = &e.kind else { panic!("player expected") };
        let l = player_limits(spec, &e.control, Color::White, &clocks);
        assert_eq!((l.depth, l.movetime), (None, Some(Duration::from_millis(3_000))));
        let e: EngineSpec = "alphabeta:depth=9,eval=material;nodes=300".parse().unwrap();
        let EngineKind::Player(spec) = &e.kind else { panic!("player expected") };
        let none = ClockState { remaining: [None, None], inc: [0, 0], moves_to_go: [None, None] };
        let l = player_limits(spec, &e.control, Color::Black, &none);
        assert_eq!((l.depth, l.nodes, l.movetime), (Some(9), Some(300), None));
    }

    #[test]
    fn position_lines_and_bestmove_faults() {
        let mut g = Game::new(Position::start(), DrawRules::default());
        assert_eq!(position_command(&g), "position startpos");
        let m = g.position().parse_move("d3e3+").unwrap();
        g.play(&m).unwrap();
        assert_eq!(position_command(&g), "position startpos moves d3e3+");
        let p: Position = "9/9/9/9/W1B6 w".parse().unwrap();
        let g = Game::new(p, DrawRules::default());
        assert_eq!(position_command(&g), "position fen 9/9/9/9/W1B6 w");

        assert_eq!(parse_bestmove(&p, "a1b1+").unwrap().to_string(), "a1b1+");
        assert_eq!(parse_bestmove(&p, "a1a2").unwrap_err().termination, Ending::IllegalMove);
        assert_eq!(parse_bestmove(&p, "hello").unwrap_err().termination, Ending::EngineFailure);
        assert_eq!(parse_bestmove(&p, "none").unwrap_err().termination, Ending::IllegalMove);
    }
}
