//! The greedy player: captures the most stones now.

use fanorona_core::Game;

use super::candidate_moves;
use crate::player::{Decision, Player};
use fanorona_core::Rng;

/// Picks a turn that captures the most stones, ties broken by its seeded generator.
#[derive(Debug, Clone)]
pub struct GreedyPlayer {
    rng: Rng,
}

impl GreedyPlayer {
    /// A greedy player seeded with `seed`.
    pub fn new(seed: u64) -> GreedyPlayer {
        GreedyPlayer { rng: Rng::new(seed) }
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, game: &Game) -> Decision {
        let moves = candidate_moves(game);
        assert!(!moves.is_empty(), "choose called on a position without legal turns");
        let best = moves.iter().map(|m| m.captured().count()).max().unwrap_or(0);
        let ties = moves.iter().filter(|m| m.captured().count() == best).count() as u64;
        let pick = self.rng.below(ties) as usize;
        let mv = moves.iter().filter(|m| m.captured().count() == best).nth(pick).copied().unwrap_or(moves[0]);
        let mut d = Decision::unsearched(mv);
        d.score = None;
        d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::{DrawRules, Position};

    #[test]
    fn takes_the_biggest_capture() {
        // White e3 can approach d3... : a position where one turn captures 3 and others 1.
        // Row 3: W on a3, black on c3 d3 e3; White b1 can withdraw nothing. a3b3+ takes c3-e3.
        let pos: Position = "9/9/W1BBB3B/9/8W w".parse().unwrap();
        let game = Game::new(pos, DrawRules::default());
        let mut p = GreedyPlayer::new(1);
        let d = p.choose(&game);
        assert_eq!(d.mv.captured().count(), 3, "{}", d.mv);
        assert_eq!(d.mv.to_string(), "a3b3+");
    }
}
