//! Ending a game by the tables as soon as it reaches a position they cover (as chess match
//! runners do with `-tb` / `-tbadjudicate`).

use fanorona_core::{Color, Game};

use crate::{Tablebase, Wdl};

/// What the tables say of a game they cover: its result with best play. Whoever stops the game
/// on it records the ending (a match's or a self-play run's "tablebase adjudication").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// The winner, or `None` for a draw.
    pub winner: Option<Color>,
}

impl Tablebase {
    /// The tables' verdict on a game's current position, if they cover it: the value of its
    /// best turn under the game's no-progress rule, counting the quiet turns already played.
    /// `None` once the game is over or when the position has more stones than the tables.
    pub fn adjudicate(&self, game: &Game) -> Option<Verdict> {
        if game.outcome().is_some() {
            return None;
        }
        let pos = game.position();
        let best = self.best_moves(pos, game.quiet_plies(), game.rules().max_quiet_plies).ok()?;
        let winner = match best.first()?.rule_value.wdl() {
            Wdl::Win => Some(pos.turn()),
            Wdl::Draw => None,
            Wdl::Loss => Some(pos.turn().other()),
        };
        Some(Verdict { winner })
    }
}
