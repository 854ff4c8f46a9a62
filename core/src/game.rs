//! A game: positions with their history, the draw rules and the result.

use core::fmt;

use crate::{Color, Move, MoveList, Position};

/// The project's draw rules (RULES.md, "Draw by no progress"; a project choice). Every command
/// that plays games takes them as parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DrawRules {
    /// A game is drawn after this many consecutive turns without a capture (0 = no limit).
    pub max_quiet_plies: u32,
    /// A game is drawn when it reaches this many turns (0 = no limit).
    pub max_plies: u32,
}

impl DrawRules {
    /// Default limit on consecutive turns without a capture.
    pub const DEFAULT_MAX_QUIET_PLIES: u32 = 50;
    /// Default limit on the length of a game, in turns.
    pub const DEFAULT_MAX_PLIES: u32 = 300;
}

impl Default for DrawRules {
    fn default() -> DrawRules {
        DrawRules { max_quiet_plies: Self::DEFAULT_MAX_QUIET_PLIES, max_plies: Self::DEFAULT_MAX_PLIES }
    }
}

/// How the rules end a game. Endings decided outside the rules (a forfeit, an adjudication)
/// belong to whoever decides them: matches and record files have their own type for them
/// (fanorona-data's `Ending`, which holds these five first).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Termination {
    /// The loser has no stones left.
    AllCaptured,
    /// The loser was to move and had no legal turn.
    NoMoves,
    /// The same position occurred for the third time (draw).
    Repetition,
    /// Too many consecutive turns without a capture (draw).
    NoProgress,
    /// The game reached its maximum length (draw).
    MaxLength,
}

impl Termination {
    /// Every rule ending.
    pub const ALL: [Termination; 5] = [
        Termination::AllCaptured,
        Termination::NoMoves,
        Termination::Repetition,
        Termination::NoProgress,
        Termination::MaxLength,
    ];
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Termination::AllCaptured => "all stones captured",
            Termination::NoMoves => "no legal turn",
            Termination::Repetition => "threefold repetition",
            Termination::NoProgress => "no capture for too long",
            Termination::MaxLength => "maximum game length",
        })
    }
}

/// The result of a finished game: the winner and why the game ended, by default a rule ending
/// ([`Termination`]; a [`Game`]'s outcome). Whoever ends games by other means gives its own
/// reasons as `T` (a match's forfeits and adjudications: fanorona-data's `Outcome<Ending>`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Outcome<T = Termination> {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub termination: T,
}

impl<T> Outcome<T> {
    /// The same result with its termination converted (a rule outcome as a match's).
    pub fn widen<U: From<T>>(self) -> Outcome<U> {
        Outcome { winner: self.winner, termination: self.termination.into() }
    }

    /// The score for `c`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn score(&self, c: Color) -> f64 {
        match self.winner {
            None => 0.5,
            Some(w) if w == c => 1.0,
            Some(_) => 0.0,
        }
    }

    /// `1-0`, `0-1` or `1/2-1/2`, White first.
    pub fn result_str(&self) -> &'static str {
        match self.winner {
            Some(Color::White) => "1-0",
            Some(Color::Black) => "0-1",
            None => "1/2-1/2",
        }
    }
}

impl<T: fmt::Display> fmt::Display for Outcome<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.winner {
            Some(c) => write!(f, "{} ({c} wins by {})", self.result_str(), self.termination),
            None => write!(f, "{} (draw by {})", self.result_str(), self.termination),
        }
    }
}

/// A game from a start position: every position reached, the turns, and the outcome once it
/// is over.
#[derive(Clone, Debug)]
pub struct Game {
    rules: DrawRules,
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// `quiet[i]`: consecutive turns without a capture before position `i`.
    quiet: Vec<u32>,
    /// How often each position has occurred (a position includes the side to move, and
    /// captures are irreversible, so equal positions are repetitions): the repetition check
    /// costs O(1) a turn, not a scan of the history.
    seen: std::collections::HashMap<Position, u32>,
    outcome: Option<Outcome>,
}

impl Game {
    /// A game from `start` under `rules`.
    pub fn new(start: Position, rules: DrawRules) -> Game {
        let seen = std::collections::HashMap::from([(start, 1)]);
        let mut g =
            Game { rules, positions: vec![start], moves: Vec::new(), quiet: vec![0], seen, outcome: None };
        g.outcome = g.judge();
        g
    }

    /// The draw rules.
    pub fn rules(&self) -> DrawRules {
        self.rules
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or_else(|| unreachable!("a game always has its start position"))
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The turns played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Turns played so far.
    pub fn ply(&self) -> usize {
        self.moves.len()
    }

    /// Consecutive turns without a capture up to now.
    pub fn quiet_plies(&self) -> u32 {
        self.quiet.last().copied().unwrap_or(0)
    }

    /// The outcome, once the rules end the game. An ending decided outside the rules (a
    /// forfeit, an adjudication) is not the game's: whoever decides it keeps it.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// The legal turns now (none once the game is over, draws included).
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome.is_some() { MoveList::new() } else { self.position().legal_moves() }
    }

    /// How many times the current position has occurred (1 the first time).
    pub fn repetitions(&self) -> usize {
        self.seen.get(self.position()).map_or(1, |&n| n as usize)
    }

    fn judge(&self) -> Option<Outcome> {
        let pos = self.position();
        let mover = pos.turn();
        if pos.us().is_empty() {
            return Some(Outcome { winner: Some(mover.other()), termination: Termination::AllCaptured });
        }
        if pos.them().is_empty() {
            return Some(Outcome { winner: Some(mover), termination: Termination::AllCaptured });
        }
        if pos.count_moves() == 0 {
            return Some(Outcome { winner: Some(mover.other()), termination: Termination::NoMoves });
        }
        let draw = |termination| Some(Outcome { winner: None, termination });
        if self.repetitions() >= 3 {
            return draw(Termination::Repetition);
        }
        if self.rules.max_quiet_plies > 0 && self.quiet_plies() >= self.rules.max_quiet_plies {
            return draw(Termination::NoProgress);
        }
        if self.rules.max_plies > 0 && self.ply() >= self.rules.max_plies as usize {
            return draw(Termination::MaxLength);
        }
        None
    }

    /// Plays a turn generated for the current position (not checked; see [`Game::play`]).
    pub fn play_unchecked(&mut self, m: &Move) {
        let mut next = *self.position();
        next.play_unchecked(m);
        let quiet = if m.is_paika() { self.quiet_plies() + 1 } else { 0 };
        self.positions.push(next);
        self.moves.push(*m);
        self.quiet.push(quiet);
        *self.seen.entry(next).or_insert(0) += 1;
        self.outcome = self.judge();
    }

    /// Plays a turn after checking that the game goes on and the turn is legal.
    ///
    /// # Errors
    /// [`GameError::Over`] when the game has ended; [`GameError::Illegal`] when the turn is not
    /// legal now.
    pub fn play(&mut self, m: &Move) -> Result<(), GameError> {
        if let Some(o) = self.outcome {
            return Err(GameError::Over(o));
        }
        match self.position().legal_moves().iter().find(|l| *l == m) {
            Some(l) => {
                let l = *l;
                self.play_unchecked(&l);
                Ok(())
            }
            None => Err(GameError::Illegal(m.to_string())),
        }
    }

    /// Takes back the last turn; `false` when there is none.
    pub fn undo(&mut self) -> bool {
        if self.moves.pop().is_none() {
            return false;
        }
        if let Some(p) = self.positions.pop()
            && let Some(n) = self.seen.get_mut(&p)
        {
            *n -= 1;
            if *n == 0 {
                self.seen.remove(&p);
            }
        }
        self.quiet.pop();
        self.outcome = self.judge();
        true
    }
}

/// Why a turn could not be added to a game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// The game is already over.
    #[error("the game is over: {0}")]
    Over(Outcome),
    /// The turn is not legal in the current position.
    #[error("{0} is not a legal turn here")]
    Illegal(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(s: &str) -> Position {
        s.parse().unwrap()
    }

    #[test]
    fn repetition_is_a_draw_on_the_third_occurrence() {
        // Two lone stones far apart: paika moves only, shuffling back and forth.
        let mut g = Game::new(pos("B8/9/9/9/8W w"), DrawRules { max_quiet_plies: 0, max_plies: 0 });
        for (i, t) in ["i1i2", "a5a4", "i2i1", "a4a5", "i1i2", "a5a4", "i2i1"].iter().enumerate() {
            let m = g.position().parse_move(t).unwrap();
            g.play(&m).unwrap();
            assert_eq!(g.outcome(), None, "after turn {}", i + 1);
        }
        assert_eq!(g.repetitions(), 2);
        let m = g.position().parse_move("a4a5").unwrap();
        g.play(&m).unwrap();
        assert_eq!(g.repetitions(), 3);
        assert_eq!(g.outcome(), Some(Outcome { winner: None, termination: Termination::Repetition }));
        assert!(matches!(g.play(&m), Err(GameError::Over(_))));
        assert!(g.undo());
        assert_eq!(g.outcome(), None);
    }

    #[test]
    fn no_progress_and_max_length() {
        let rules = DrawRules { max_quiet_plies: 3, max_plies: 0 };
        let mut g = Game::new(pos("B8/9/9/9/8W w"), rules);
        for t in ["i1i2", "a5a4", "i2i3"] {
            let m = g.position().parse_move(t).unwrap();
            g.play(&m).unwrap();
        }
        assert_eq!(g.outcome(), Some(Outcome { winner: None, termination: Termination::NoProgress }));

        let rules = DrawRules { max_quiet_plies: 0, max_plies: 2 };
        let mut g = Game::new(pos("B8/9/9/9/8W w"), rules);
        for t in ["i1i2", "a5a4"] {
            let m = g.position().parse_move(t).unwrap();
            g.play(&m).unwrap();
        }
        assert_eq!(g.outcome().map(|o| o.termination), Some(Termination::MaxLength));
    }

    #[test]
    fn capturing_the_last_stone_wins() {
        let mut g = Game::new(pos("9/9/9/9/W1B6 w"), DrawRules::default());
        let m = g.position().parse_move("a1b1+").unwrap();
        g.play(&m).unwrap();
        assert_eq!(
            g.outcome(),
            Some(Outcome { winner: Some(Color::White), termination: Termination::AllCaptured })
        );
        assert_eq!(g.outcome().map(|o| o.score(Color::Black)), Some(0.0));
    }

    #[test]
    fn start_game_goes_on() {
        let g = Game::new(Position::start(), DrawRules::default());
        assert_eq!(g.outcome(), None);
        assert_eq!(g.legal_moves().len(), 5);
    }
}
