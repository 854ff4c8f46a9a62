//! Playing one self-play game.

use fanorona_core::{Game, Position};
use fanorona_data::{GameRecord, TurnInfo};
use fanorona_engine::Rng;

use crate::{Exploration, SelfplayConfig, SelfplayError, explore};

/// The seed of the run's game `global` (its index across all shards).
pub fn game_seed(seed: u64, global: u64) -> u64 {
    Rng::derive(seed, global).next_u64()
}

/// Plays the run's game with index `global` (across all shards) from the start position.
/// The same configuration and index always give the same game.
///
/// # Errors
/// [`SelfplayError::Player`] when a player cannot be built; [`SelfplayError::IllegalDecision`]
/// when a player returns an illegal turn.
pub fn play_game(config: &SelfplayConfig, global: u64) -> Result<GameRecord, SelfplayError> {
    let seed = game_seed(config.seed, global);
    let build = |spec: &fanorona_engine::PlayerSpec, k| {
        spec.build(Rng::derive(seed, k).next_u64())
            .map_err(|source| SelfplayError::Player { spec: spec.to_string(), source })
    };
    let mut players = [build(&config.white, 1)?, build(&config.black, 2)?];
    for p in &mut players {
        p.new_game();
    }
    let mut rng = Rng::derive(seed, 0);
    let mut game = Game::new(Position::start(), config.rules);
    let mut info = Vec::with_capacity(128);
    while game.outcome().is_none() {
        let ply = game.ply();
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let (mv, turn) = if ply < config.random_plies as usize {
            let m = legal[rng.below(legal.len() as u64) as usize];
            (m, TurnInfo { score: None, depth: None, exploration: true })
        } else {
            let mover = game.position().turn().index();
            let d = players[mover].choose(&game);
            if !legal.contains(&d.mv) {
                return Err(SelfplayError::IllegalDecision {
                    game: global,
                    ply,
                    player: players[mover].name(),
                    mv: d.mv.to_string(),
                    position: game.position().to_string(),
                });
            }
            let rule =
                if ply < config.explore_plies as usize { config.exploration } else { Exploration::None };
            let (m, explored) = explore::pick(&d, &legal, rule, &mut rng);
            let depth = d.depth.map(|x| u16::try_from(x).unwrap_or(u16::MAX));
            (m, TurnInfo { score: d.score, depth, exploration: explored })
        };
        // `mv` is one of `legal` (the generator's own move, with its captures).
        let Some(m) = legal.iter().find(|l| **l == mv) else { break };
        game.play_unchecked(m);
        info.push(turn);
    }
    GameRecord::from_game(&game, &info, global, &config.white.to_string(), &config.black.to_string())
        .map_err(|e| SelfplayError::Config(format!("game {global}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_reproducible_legal_and_distinct() {
        let config = SelfplayConfig {
            white: "greedy".parse().unwrap(),
            black: "alphabeta:depth=1,eval=material".parse().unwrap(),
            ..SelfplayConfig::default()
        };
        let a = play_game(&config, 3).unwrap();
        assert_eq!(play_game(&config, 3).unwrap(), a);
        assert_ne!(play_game(&config, 4).unwrap().turns, a.turns);
        a.validate().unwrap();
        assert_eq!(a.index, 3);
        assert_eq!(a.white, "greedy");
        assert!(a.turns[..4].iter().all(|t| t.info.exploration && t.info.score.is_none()));
        // Black searched: its turns after the random ones carry a score and depth.
        assert!(a.turns[5].info.score.is_some() && a.turns[5].info.depth == Some(1));
        assert!(a.turns[4].info.score.is_none());
    }
}
