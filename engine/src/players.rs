//! The players: uniformly random, greedy and alpha-beta.

mod alphabeta;
mod greedy;
mod random;

pub use alphabeta::AlphaBetaPlayer;
pub use greedy::GreedyPlayer;
pub use random::RandomPlayer;

use fanorona_core::{Game, MoveList};

/// The turns a player may choose from: the legal turns of the game's position (generated even
/// when the caller passes a finished game, so that a player never has nothing to return when a
/// turn exists).
pub(crate) fn candidate_moves(game: &Game) -> MoveList {
    game.position().legal_moves()
}
