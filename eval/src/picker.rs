//! One engine asked for single turns, as a match's seat asks it: built from an
//! [`EngineSpec`] the same way, told of a new game before each position, searched under the
//! same limits (the spec's, each overridden by the engine options: `;st=0.02`), its turn
//! checked for legality. For measurements over positions rather than games (`fanorona solve
//! errors`).

use std::time::Duration;

use fanorona_core::{Game, Move, Rng};

use crate::EvalError;
use crate::external::Fault;
use crate::seat::{ClockState, Seat};
use crate::spec::EngineSpec;

/// An engine choosing turns in positions.
#[derive(Debug)]
pub struct Picker {
    seat: Seat,
}

/// A turn an engine chose.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Picked {
    /// The turn (legal).
    pub mv: Move,
    /// The wall time it took.
    pub took: Duration,
    /// The score the engine gave (centi-stones, the mover's view), if it searched.
    pub score: Option<i32>,
}

/// No clocks: an engine plays under its own limits.
const NO_CLOCKS: ClockState = ClockState { remaining: [None, None], inc: [0, 0], moves_to_go: [None, None] };

impl Picker {
    /// The engine of `engine` (an in-process player is built now; a program starts on its
    /// first turn).
    ///
    /// # Errors
    /// [`EvalError::Spec`] when the player cannot be built (a network or tables that do not
    /// open).
    pub fn new(engine: &EngineSpec) -> Result<Picker, EvalError> {
        Ok(Picker { seat: Seat::new(engine, None)? })
    }

    /// The engine's turn in `game` (not over), as the first turn of a new game whose seed for
    /// this engine derives from `seed` (a random or greedy player's choices depend on it).
    ///
    /// # Errors
    /// The [`Fault`] that would lose a match game: an external engine that fails or answers
    /// an illegal turn, a player choosing an illegal one.
    pub fn choose(&mut self, game: &Game, seed: u64) -> Result<Picked, Fault> {
        self.seat.new_game(Rng::new(seed).next_u64())?;
        let c = self.seat.choose(game, &NO_CLOCKS)?;
        Ok(Picked { mv: c.mv, took: c.took, score: c.info.score })
    }

    /// Stops an external engine politely.
    pub fn shutdown(self) {
        self.seat.shutdown();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::{Color, DrawRules, Position};

    #[test]
    fn greedy_takes_the_most_stones_and_searches_keep_their_time_limit() {
        // White takes a1 (c1b1+) or e3 (c1d2+), one stone each, or e3 and f3 (c3d3+).
        let pos: Position = "9/9/2W1BB3/9/B1W6 w".parse().unwrap();
        let game = Game::new(pos, DrawRules::default());
        let greedy: EngineSpec = "greedy".parse().unwrap();
        let mut p = Picker::new(&greedy).unwrap();
        let picked = p.choose(&game, 1).unwrap();
        assert!(game.legal_moves().contains(&picked.mv));
        let mut after = pos;
        after.play_unchecked(&picked.mv);
        assert_eq!(after.stones(Color::Black).count(), 1, "greedy took {}", picked.mv);
        let timed: EngineSpec = "alphabeta:eval=material;st=0.02".parse().unwrap();
        let mut p = Picker::new(&timed).unwrap();
        let picked = p.choose(&Game::new(Position::start(), DrawRules::default()), 1).unwrap();
        assert!(picked.score.is_some() && picked.took < Duration::from_secs(2), "{picked:?}");
        let broken: EngineSpec = "alphabeta:depth=1,eval=net:/nonexistent.fnet".parse().unwrap();
        assert!(matches!(Picker::new(&broken), Err(EvalError::Spec { .. })));
    }
}
