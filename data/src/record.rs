//! [`GameRecord`]: one game as stored: the start position, every turn with what its player
//! reported, and the outcome.

use fanorona_core::{Bitboard, Color, DrawRules, Game, Move, Outcome, Position};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::{Ending, MoveCode, RecordError};

/// What the player of one turn reported besides the turn itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TurnInfo {
    /// Search score in centi-stones from the mover's view (`None` if it did not search).
    pub score: Option<i32>,
    /// Completed search depth (`None` if it did not search).
    pub depth: Option<u16>,
    /// Whether the turn was chosen at random / by exploration rather than by the player's
    /// best judgement.
    pub exploration: bool,
}

/// One turn of a record.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Turn {
    /// The turn.
    pub mv: MoveCode,
    /// What its player reported.
    pub info: TurnInfo,
}

/// One game: the start position, the turns in order and the outcome.
///
/// Records coming from a file are only claims: [`GameRecord::replay`] and
/// [`GameRecord::validate`] check every turn against the rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's index in the run that generated it (self-play: the index its seed derives
    /// from; matches: the game number).
    pub index: u64,
    /// Who played White (a player spec or engine name; may be empty).
    pub white: String,
    /// Who played Black.
    pub black: String,
    /// The start position.
    #[serde(serialize_with = "ser_position", deserialize_with = "de_position")]
    pub start: Position,
    /// Every turn, in order.
    pub turns: Vec<Turn>,
    /// The result and why the game ended.
    pub outcome: Outcome<Ending>,
}

fn ser_position<S: Serializer>(p: &Position, s: S) -> Result<S::Ok, S::Error> {
    (p.stones(Color::White).0, p.stones(Color::Black).0, p.turn()).serialize(s)
}

fn de_position<'de, D: Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
    let (w, b, turn): (u64, u64, Color) = Deserialize::deserialize(d)?;
    Position::from_stones(Bitboard(w), Bitboard(b), turn).map_err(serde::de::Error::custom)
}

impl GameRecord {
    /// A record of a game the rules ended, with one [`TurnInfo`] per turn.
    ///
    /// # Errors
    /// [`RecordError::NotOver`] when the game has no outcome; [`RecordError::InfoMismatch`]
    /// when `info` does not have one entry per turn.
    pub fn from_game(
        game: &Game,
        info: &[TurnInfo],
        index: u64,
        white: &str,
        black: &str,
    ) -> Result<GameRecord, RecordError> {
        GameRecord::from_decided_game(game, None, info, index, white, black)
    }

    /// A record of a game ended by `decision` (a forfeit, an adjudication: an ending from
    /// outside the rules, which stands whatever the rules say of the final position) or,
    /// without one, by the rules, with one [`TurnInfo`] per turn.
    ///
    /// # Errors
    /// [`RecordError::NotOver`] when there is no decision and the rules have not ended the
    /// game; [`RecordError::InfoMismatch`] when `info` does not have one entry per turn.
    pub fn from_decided_game(
        game: &Game,
        decision: Option<Outcome<Ending>>,
        info: &[TurnInfo],
        index: u64,
        white: &str,
        black: &str,
    ) -> Result<GameRecord, RecordError> {
        let outcome = decision.or_else(|| game.outcome().map(Outcome::widen)).ok_or(RecordError::NotOver)?;
        if info.len() != game.moves().len() {
            return Err(RecordError::InfoMismatch { turns: game.moves().len(), info: info.len() });
        }
        let turns = game
            .moves()
            .iter()
            .zip(info)
            .map(|(m, i)| Turn { mv: MoveCode::from_move(m), info: *i })
            .collect();
        Ok(GameRecord {
            index,
            white: white.to_string(),
            black: black.to_string(),
            start: *game.start(),
            turns,
            outcome,
        })
    }

    /// Number of turns.
    pub fn len(&self) -> usize {
        self.turns.len()
    }

    /// Whether the game has no turns.
    pub fn is_empty(&self) -> bool {
        self.turns.is_empty()
    }

    /// The turns as moves, each checked against the position it is played in.
    ///
    /// # Errors
    /// [`RecordError::IllegalTurn`] for the first turn that is not legal.
    pub fn turn_moves(&self) -> Result<Vec<Move>, RecordError> {
        let mut pos = self.start;
        let mut out = Vec::with_capacity(self.turns.len());
        for (ply, t) in self.turns.iter().enumerate() {
            let m = checked_move(&pos, ply, &t.mv)?;
            pos.play_unchecked(&m);
            out.push(m);
        }
        Ok(out)
    }

    /// Calls `f(ply, position before the turn, turn)` for every turn, then returns the final
    /// position. Each turn is checked against the position (the rules' legal moves); the game
    /// is not checked for having ended early (see [`GameRecord::validate`]).
    ///
    /// # Errors
    /// [`RecordError::IllegalTurn`] for the first illegal turn.
    #[inline]
    pub fn for_each_position(
        &self,
        mut f: impl FnMut(usize, &Position, &Turn),
    ) -> Result<Position, RecordError> {
        let mut pos = self.start;
        for (ply, t) in self.turns.iter().enumerate() {
            let legal = pos.legal_moves();
            let Some(m) = legal.iter().find(|m| t.mv.matches(m)) else {
                return Err(illegal(&pos, ply, &t.mv));
            };
            f(ply, &pos, t);
            pos.play_unchecked(m);
        }
        Ok(pos)
    }

    /// The final position (every turn checked).
    ///
    /// # Errors
    /// [`RecordError::IllegalTurn`] for the first illegal turn.
    pub fn final_position(&self) -> Result<Position, RecordError> {
        self.for_each_position(|_, _, _| ())
    }

    /// Replays the game under `rules`, every turn checked. The game's outcome is what the
    /// rules say of it; the record's, which may come from outside the rules (a time forfeit),
    /// is [`GameRecord::outcome`].
    ///
    /// # Errors
    /// [`RecordError::IllegalTurn`] for the first illegal turn; [`RecordError::PlayedAfterEnd`]
    /// when a turn follows the end of the game under `rules`.
    pub fn replay(&self, rules: DrawRules) -> Result<Game, RecordError> {
        let mut game = Game::new(self.start, rules);
        for (ply, t) in self.turns.iter().enumerate() {
            if let Some(o) = game.outcome() {
                return Err(RecordError::PlayedAfterEnd { ply, termination: o.termination });
            }
            let m = checked_move(game.position(), ply, &t.mv)?;
            game.play_unchecked(&m);
        }
        Ok(game)
    }

    /// Checks the record against the rules: every turn legal, no turn after the game ended by
    /// capture of all stones, a side without moves, or threefold repetition, and an outcome
    /// consistent with the final position. Draws by the no-progress and length limits are
    /// accepted as recorded (those limits are a configuration, stored in the file header), as
    /// are outcomes decided outside the rules (forfeits, engine failures, adjudication).
    ///
    /// # Errors
    /// The first inconsistency found.
    pub fn validate(&self) -> Result<(), RecordError> {
        let game = self.replay(DrawRules { max_quiet_plies: 0, max_plies: 0 })?;
        let judged = Game::new(*game.position(), DrawRules { max_quiet_plies: 0, max_plies: 0 }).outcome();
        let pos = game.position();
        let recorded = format!("{} by {:?}", self.outcome.result_str(), self.outcome.termination);
        let wrong = |why: String| Err(RecordError::WrongOutcome { recorded: recorded.clone(), why });
        match self.outcome.termination {
            Ending::AllCaptured | Ending::NoMoves => {
                let Some(j) = judged else {
                    return wrong(format!("the game goes on in {pos}"));
                };
                if j.winner != self.outcome.winner || Ending::from(j.termination) != self.outcome.termination
                {
                    return wrong(format!("the rules give {} by {:?}", j.result_str(), j.termination));
                }
            }
            Ending::Repetition => {
                if self.outcome.winner.is_some() {
                    return Err(RecordError::ImpossibleWinner(
                        self.outcome.winner.unwrap_or(Color::White),
                        self.outcome.termination,
                    ));
                }
                let n = game.positions().iter().filter(|p| *p == pos).count();
                if n < 3 {
                    return wrong(format!("the final position occurred {n} times, not 3"));
                }
            }
            Ending::NoProgress | Ending::MaxLength => {
                if let Some(w) = self.outcome.winner {
                    return Err(RecordError::ImpossibleWinner(w, self.outcome.termination));
                }
                if let Some(j) = judged {
                    return wrong(format!("the game had already ended: {j}"));
                }
                if game.repetitions() >= 3 {
                    return wrong(
                        "the final position occurred for the third time: a draw by repetition".into(),
                    );
                }
            }
            Ending::IllegalMove
            | Ending::TimeForfeit
            | Ending::EngineFailure
            | Ending::Adjudication
            | Ending::Tablebase
            | Ending::DrawAdjudication
            | Ending::ResignAdjudication => {}
        }
        Ok(())
    }

    /// The turns in notation, separated by spaces.
    pub fn notation(&self) -> String {
        let mut out = String::new();
        for (i, t) in self.turns.iter().enumerate() {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&t.mv.to_string());
        }
        out
    }
}

fn checked_move(pos: &Position, ply: usize, code: &MoveCode) -> Result<Move, RecordError> {
    code.find_in(pos).ok_or_else(|| illegal(pos, ply, code))
}

#[cold]
fn illegal(pos: &Position, ply: usize, code: &MoveCode) -> RecordError {
    match code.to_move(pos) {
        Err(fanorona_core::MoveError::Illegal(reason)) => {
            RecordError::IllegalTurn { ply, text: code.to_string(), reason }
        }
        Err(fanorona_core::MoveError::Parse(e)) => RecordError::MalformedTurn { ply, what: e.to_string() },
        Ok(_) => RecordError::MalformedTurn { ply, what: format!("{code} is not a legal turn in {pos}") },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::Termination;

    pub(crate) fn short_game() -> (Game, Vec<TurnInfo>) {
        // A tiny endgame: White captures the last black stone.
        let start: Position = "9/9/4B4/9/4W4 w".parse().unwrap();
        let mut g = Game::new(start, DrawRules::default());
        let m = g.position().parse_move("e1e2+").unwrap();
        g.play(&m).unwrap();
        (g, vec![TurnInfo { score: Some(29999), depth: Some(3), exploration: false }])
    }

    #[test]
    fn from_game_and_replay() {
        let (g, info) = short_game();
        let r = GameRecord::from_game(&g, &info, 7, "w", "b").unwrap();
        assert_eq!(r.len(), 1);
        assert_eq!(r.outcome.winner, Some(Color::White));
        assert_eq!(r.outcome.termination, Ending::AllCaptured);
        assert_eq!(r.notation(), "e1e2+");
        assert_eq!(r.turn_moves().unwrap(), g.moves());
        r.validate().unwrap();
        assert_eq!(r.final_position().unwrap().to_string(), "9/9/9/4W4/9 b");
        assert!(matches!(
            GameRecord::from_game(&g, &[], 0, "", ""),
            Err(RecordError::InfoMismatch { turns: 1, info: 0 })
        ));
        assert_eq!(
            GameRecord::from_game(&Game::new(Position::start(), DrawRules::default()), &[], 0, "", ""),
            Err(RecordError::NotOver)
        );
    }

    #[test]
    fn a_decision_ends_a_game_the_rules_have_not_and_stands_over_theirs() {
        let going = Game::new(Position::start(), DrawRules::default());
        let forfeit = Outcome { winner: Some(Color::Black), termination: Ending::TimeForfeit };
        let r = GameRecord::from_decided_game(&going, Some(forfeit), &[], 0, "", "").unwrap();
        assert_eq!(r.outcome, forfeit);
        r.validate().unwrap();
        let (over, info) = short_game();
        let adjudged = Outcome { winner: None, termination: Ending::Adjudication };
        let r = GameRecord::from_decided_game(&over, Some(adjudged), &info, 0, "", "").unwrap();
        assert_eq!(r.outcome, adjudged);
        let r = GameRecord::from_decided_game(&over, None, &info, 0, "", "").unwrap();
        assert_eq!(r.outcome, Outcome { winner: Some(Color::White), termination: Ending::AllCaptured });
        assert_eq!(GameRecord::from_decided_game(&going, None, &[], 0, "", ""), Err(RecordError::NotOver));
    }

    #[test]
    fn validate_checks_repetition_draws() {
        let mut g =
            Game::new("B8/9/9/9/8W w".parse().unwrap(), DrawRules { max_quiet_plies: 0, max_plies: 0 });
        for t in ["i1i2", "a5a4", "i2i1", "a4a5", "i1i2", "a5a4", "i2i1", "a4a5"] {
            let m = g.position().parse_move(t).unwrap();
            g.play(&m).unwrap();
        }
        assert_eq!(g.outcome().map(|o| o.termination), Some(Termination::Repetition));
        let info = vec![TurnInfo::default(); 8];
        let r = GameRecord::from_game(&g, &info, 0, "", "").unwrap();
        r.validate().unwrap();
        let mut wrong = r.clone();
        wrong.outcome.termination = Ending::NoProgress;
        assert!(matches!(wrong.validate(), Err(RecordError::WrongOutcome { .. })), "{:?}", wrong.validate());
        let mut early = r.clone();
        early.turns.pop();
        assert!(matches!(early.validate(), Err(RecordError::WrongOutcome { .. })), "{:?}", early.validate());
        let mut winner = r;
        winner.outcome.winner = Some(Color::White);
        assert!(matches!(winner.validate(), Err(RecordError::ImpossibleWinner(Color::White, _))));
    }

    #[test]
    fn validate_catches_wrong_outcome_and_illegal_turn() {
        let (g, info) = short_game();
        let mut r = GameRecord::from_game(&g, &info, 0, "", "").unwrap();
        r.outcome.winner = Some(Color::Black);
        assert!(matches!(r.validate(), Err(RecordError::WrongOutcome { .. })));
        let mut r = GameRecord::from_game(&g, &info, 0, "", "").unwrap();
        r.turns.push(r.turns[0]);
        assert!(
            matches!(r.validate(), Err(RecordError::PlayedAfterEnd { ply: 1, .. })),
            "{:?}",
            r.validate()
        );
        // A game from the start whose second turn repeats the first (its origin is now empty).
        let pos = Position::start();
        let m = pos.parse_move("d3e3+").unwrap();
        let t = Turn { mv: MoveCode::from_move(&m), info: TurnInfo::default() };
        let r = GameRecord {
            index: 0,
            white: String::new(),
            black: String::new(),
            start: pos,
            turns: vec![t, t],
            outcome: Outcome { winner: None, termination: Ending::Adjudication },
        };
        match r.validate() {
            Err(RecordError::IllegalTurn { ply: 1, text, .. }) => assert_eq!(text, "d3e3+"),
            other => panic!("{other:?}"),
        }
        assert!(r.turn_moves().is_err());
    }
}
