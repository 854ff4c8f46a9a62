//! The uniformly random player.

use fanorona_core::Game;

use super::candidate_moves;
use crate::player::{Decision, Player};
use fanorona_core::Rng;

/// Picks one legal turn uniformly at random.
#[derive(Debug, Clone)]
pub struct RandomPlayer {
    seed: u64,
    rng: Rng,
}

impl RandomPlayer {
    /// A random player seeded with `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { seed, rng: Rng::new(seed) }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn new_game(&mut self) {
        // The stream goes on: each game of a series differs, and the series is reproducible.
        let _ = self.seed;
    }

    fn choose(&mut self, game: &Game) -> Decision {
        let moves = candidate_moves(game);
        assert!(!moves.is_empty(), "choose called on a position without legal turns");
        let i = self.rng.below(moves.len() as u64) as usize;
        Decision::unsearched(moves[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::{DrawRules, Position};

    #[test]
    fn legal_and_deterministic() {
        let game = Game::new(Position::start(), DrawRules::default());
        let legal = game.legal_moves();
        let picks = |seed| {
            let mut p = RandomPlayer::new(seed);
            (0..20).map(|_| p.choose(&game).mv).collect::<Vec<_>>()
        };
        let a = picks(5);
        assert_eq!(a, picks(5));
        assert!(a.iter().all(|m| legal.contains(m)));
        // 20 picks from 5 turns: several different ones.
        assert!(a.iter().any(|m| *m != a[0]));
    }
}
