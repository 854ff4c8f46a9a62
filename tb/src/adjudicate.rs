//! Ending a game by the tables as soon as it reaches a position they cover (as chess match
//! runners do with `-tb` / `-tbadjudicate`).

use fanorona_core::{Game, Outcome, Termination};

use crate::{Tablebase, Wdl};

impl Tablebase {
    /// The tables' verdict on a game's current position, if they cover it: the value of its
    /// best turn under the game's no-progress rule, counting the quiet turns already played,
    /// with termination [`Termination::Tablebase`]. `None` once the game is over or when the
    /// position has more stones than the tables.
    pub fn adjudicate(&self, game: &Game) -> Option<Outcome> {
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
        Some(Outcome { winner, termination: Termination::Tablebase })
    }
}
