//! Players: anything that picks a turn in a game.

use fanorona_core::{Game, Move};

use crate::search::Limits;

/// A player's choice of turn, with what its search found.
#[derive(Clone, Debug)]
pub struct Decision {
    /// The chosen turn, legal in the game's position.
    pub mv: Move,
    /// Centi-stones from the mover's view; `None` if it did not search.
    pub score: Option<i32>,
    /// Completed search depth; `None` if it did not search.
    pub depth: Option<u32>,
    /// Positions visited.
    pub nodes: u64,
    /// The principal variation, starting with `mv` (may be empty).
    pub pv: Vec<Move>,
    /// Searched root turns with their scores when available (for temperature exploration in
    /// self-play); may be empty.
    pub root: Vec<(Move, i32)>,
}

impl Decision {
    /// A decision made without searching.
    pub fn unsearched(mv: Move) -> Decision {
        Decision { mv, score: None, depth: None, nodes: 0, pv: Vec::new(), root: Vec::new() }
    }
}

/// Something that plays Fanorona: deterministic given its seed and the games it was shown.
pub trait Player: Send {
    /// A short description (its spec).
    fn name(&self) -> String;

    /// A new game starts: forget what was learnt of the last one.
    fn new_game(&mut self) {}

    /// Picks a turn. `game` is not over; returns one of its legal moves.
    fn choose(&mut self, game: &Game) -> Decision;

    /// Picks a turn within `limits` instead of the player's own (a match's time control).
    /// Players that do not search ignore them.
    fn choose_within(&mut self, game: &Game, limits: Limits) -> Decision {
        let _ = limits;
        self.choose(game)
    }
}
