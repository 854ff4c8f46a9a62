//! Where a search starts: a position with the game's history that matters for draws.

use fanorona_core::{DrawRules, Game, Position};

/// The root of a search: the position, the earlier positions that it could repeat, and the
/// draw rules' counters.
#[derive(Debug, Clone)]
pub struct SearchRoot {
    /// The position to search.
    pub position: Position,
    /// Hashes of the earlier positions since the last capture, oldest first (not the root).
    pub history: Vec<u64>,
    /// Consecutive turns without a capture before the root.
    pub quiet: u32,
    /// Turns played in the game before the root.
    pub ply: u32,
    /// The draw rules the game is played under.
    pub rules: DrawRules,
}

impl SearchRoot {
    /// A position without history, under the default draw rules.
    pub fn new(position: Position) -> SearchRoot {
        SearchRoot { position, history: Vec::new(), quiet: 0, ply: 0, rules: DrawRules::default() }
    }

    /// The current position of a game, with its history.
    pub fn from_game(game: &Game) -> SearchRoot {
        let positions = game.positions();
        let n = positions.len();
        let quiet = game.quiet_plies();
        let first = n.saturating_sub(1 + quiet as usize);
        SearchRoot {
            position: *game.position(),
            history: positions[first..n - 1].iter().map(|p| p.hash()).collect(),
            quiet,
            ply: game.ply() as u32,
            rules: game.rules(),
        }
    }
}
