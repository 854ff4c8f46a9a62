//! Playing one self-play game.

use fanorona_core::{Game, Outcome, Position, Rng};
use fanorona_data::{Ending, GameRecord, TurnInfo};
use fanorona_engine::{Player, PlayerSpec};

use crate::{Exploration, SelfplayConfig, SelfplayError, explore};

/// The seed of the run's game `global` (its index across all shards).
pub fn game_seed(seed: u64, global: u64) -> u64 {
    Rng::derive(seed, global).next_u64()
}

/// Players kept between the games of one worker thread.
///
/// Alpha-beta players use no randomness (their seed is unused) and forget everything on
/// `new_game`, so one is built per worker and reused (building one allocates its tables, and
/// an `eval=net:` player loads its file); players that use their seed (random, greedy) are
/// built for every game from the game's seed. Either way a game depends only on its index.
#[derive(Default)]
pub struct PlayerCache {
    white: Option<Box<dyn Player>>,
    black: Option<Box<dyn Player>>,
}

impl std::fmt::Debug for PlayerCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PlayerCache")
            .field("white", &self.white.as_ref().map(|p| p.name()))
            .field("black", &self.black.as_ref().map(|p| p.name()))
            .finish()
    }
}

fn ready<'a>(
    slot: &'a mut Option<Box<dyn Player>>,
    spec: &PlayerSpec,
    seed: u64,
) -> Result<&'a mut Box<dyn Player>, SelfplayError> {
    let reusable = matches!(spec, PlayerSpec::AlphaBeta(_));
    if !reusable || slot.is_none() {
        let p =
            spec.build(seed).map_err(|source| SelfplayError::Player { spec: spec.to_string(), source })?;
        *slot = Some(p);
    }
    let p = slot.as_mut().ok_or_else(|| SelfplayError::Config("no player".into()))?;
    p.new_game();
    Ok(p)
}

/// Plays the run's game with index `global` (across all shards) from the start position.
/// The same configuration and index always give the same game.
///
/// # Errors
/// [`SelfplayError::Player`] when a player cannot be built; [`SelfplayError::IllegalDecision`]
/// when a player returns an illegal turn.
pub fn play_game(config: &SelfplayConfig, global: u64) -> Result<GameRecord, SelfplayError> {
    play_game_with(config, global, &mut PlayerCache::default())
}

/// [`play_game`] reusing the players of `cache` where that cannot change the game.
///
/// # Errors
/// As [`play_game`].
pub fn play_game_with(
    config: &SelfplayConfig,
    global: u64,
    cache: &mut PlayerCache,
) -> Result<GameRecord, SelfplayError> {
    let seed = game_seed(config.seed, global);
    let white = ready(&mut cache.white, &config.white, Rng::derive(seed, 1).next_u64())?;
    let black = ready(&mut cache.black, &config.black, Rng::derive(seed, 2).next_u64())?;
    let players = [white, black];
    let tb = match &config.tb {
        Some(dir) => Some(
            fanorona_engine::tablebase::open_shared(dir)
                .map_err(|e| SelfplayError::Tablebase { dir: dir.clone(), source: e })?,
        ),
        None => None,
    };
    let mut rng = Rng::derive(seed, 0);
    let mut game = Game::new(Position::start(), config.rules);
    let mut info = Vec::with_capacity(128);
    // The tables' adjudication, when they end the game before the rules do.
    let mut decision = None;
    while game.outcome().is_none() {
        if let Some(verdict) = tb.as_ref().and_then(|tb| tb.adjudicate(&game)) {
            decision = Some(Outcome { winner: verdict.winner, termination: Ending::Tablebase });
            break;
        }
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
    GameRecord::from_decided_game(
        &game,
        decision,
        &info,
        global,
        &config.white.to_string(),
        &config.black.to_string(),
    )
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

    #[test]
    fn reused_players_play_the_same_games_as_fresh_ones() {
        let config = SelfplayConfig {
            white: "alphabeta:depth=2,hash=1,eval=handcrafted".parse().unwrap(),
            black: "random".parse().unwrap(),
            ..SelfplayConfig::default()
        };
        let mut cache = PlayerCache::default();
        for g in [5, 0, 9, 2] {
            assert_eq!(
                play_game_with(&config, g, &mut cache).unwrap(),
                play_game(&config, g).unwrap(),
                "game {g}"
            );
        }
    }
}
