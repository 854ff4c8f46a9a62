//! [`SelfplayConfig`]: everything that decides a self-play run's games.

use fanorona_core::DrawRules;
use fanorona_data::{Header, Kind, Shard};
use fanorona_engine::PlayerSpec;
use serde::{Deserialize, Serialize};

use crate::SelfplayError;

/// How turns are picked during the exploration plies.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Exploration {
    /// No exploration: the player's choice.
    None,
    /// Sample a root turn with probability proportional to `exp((score - best) / T)`, scores
    /// in centi-stones (T = 100: a turn one stone worse is e times less likely). Players that
    /// report no root scores (random, greedy) keep their choice.
    Temperature(f64),
    /// With this probability a uniformly random legal turn, else the player's choice.
    Epsilon(f64),
}

/// A self-play run.
#[derive(Clone, Debug, PartialEq)]
pub struct SelfplayConfig {
    /// Games in this shard.
    pub games: u64,
    /// The whole run's game count when it is split over the shards by [`Shard::split`] (then
    /// `games` must be this shard's part); `None`: every shard plays `games` games.
    pub run_games: Option<u64>,
    /// White's player.
    pub white: PlayerSpec,
    /// Black's player.
    pub black: PlayerSpec,
    /// The run's seed. Game `g` of a shard is game `first + g` of the run (`first` from
    /// [`Shard::split`], or `s * games` for shard `s` without `run_games`), with its own seed
    /// derived from (seed, that index), so shards never repeat each other's games.
    pub seed: u64,
    /// Which shard this is.
    pub shard: Shard,
    /// Worker threads (0: one per core). The output does not depend on it.
    pub threads: usize,
    /// The first turns of every game are uniformly random legal turns (marked exploration).
    pub random_plies: u32,
    /// Turns before this ply (after the random ones) use `exploration`.
    pub explore_plies: u32,
    /// The exploration rule.
    pub exploration: Exploration,
    /// The draw rules.
    pub rules: DrawRules,
    /// Endgame tables: a game ends as soon as it reaches a position they cover, scored by them
    /// (termination `Tablebase`). None by default.
    pub tb: Option<std::path::PathBuf>,
}

impl Default for SelfplayConfig {
    fn default() -> SelfplayConfig {
        SelfplayConfig {
            games: 100,
            run_games: None,
            white: default_spec(),
            black: default_spec(),
            seed: 1,
            shard: Shard::ONE,
            threads: 0,
            random_plies: 4,
            explore_plies: 12,
            exploration: Exploration::Temperature(100.0),
            rules: DrawRules::default(),
            tb: None,
        }
    }
}

/// The default player: `alphabeta:depth=2,eval=handcrafted`.
pub fn default_spec() -> PlayerSpec {
    PlayerSpec::AlphaBeta(fanorona_engine::AlphaBetaSpec {
        depth: Some(2),
        nodes: None,
        movetime: None,
        hash_mib: fanorona_engine::spec::DEFAULT_HASH_MIB,
        threads: 1,
        eval: fanorona_engine::EvalSpec::Handcrafted,
        tb: None,
        qwidth: 0,
        noise: 0,
        book: None,
        knobs: fanorona_engine::Knobs::DEFAULT,
    })
}

/// The default player spec's text.
pub const DEFAULT_SPEC: &str = "alphabeta:depth=2,eval=handcrafted";

/// The part of the configuration stored in the file header (as JSON), which decides the games
/// (the thread count does not).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// Games per shard, or the whole run's games when `split`.
    pub games: u64,
    /// The run's games are split over its shards ([`Shard::split`]).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub split: bool,
    /// White's player spec.
    pub white: String,
    /// Black's player spec.
    pub black: String,
    /// Random opening turns.
    pub random_plies: u32,
    /// Exploration ends at this ply.
    pub explore_plies: u32,
    /// The exploration rule.
    pub exploration: Exploration,
    /// Draw after this many turns without a capture (0: never).
    pub max_quiet_plies: u32,
    /// Draw at this many turns (0: never).
    pub max_plies: u32,
}

impl SelfplayConfig {
    /// Checks value ranges.
    ///
    /// # Errors
    /// [`SelfplayError::Config`] naming the bad value.
    pub fn check(&self) -> Result<(), SelfplayError> {
        let bad = |s: String| Err(SelfplayError::Config(s));
        match self.exploration {
            Exploration::Temperature(t) if !(t.is_finite() && t > 0.0) => {
                return bad(format!("temperature {t} must be a positive number of centi-stones"));
            }
            Exploration::Epsilon(e) if !(0.0..=1.0).contains(&e) => {
                return bad(format!("epsilon {e} must be between 0 and 1"));
            }
            _ => {}
        }
        if self.shard.count == 0 || self.shard.index >= self.shard.count {
            return bad(format!("shard {} is out of range", self.shard));
        }
        match self.run_games {
            Some(total) if self.shard.split(total).games != self.games => {
                return bad(format!(
                    "shard {} of a {total}-game run plays {} games, not {}",
                    self.shard,
                    self.shard.split(total).games,
                    self.games
                ));
            }
            Some(_) => {}
            None if u64::from(self.shard.count).checked_mul(self.games).is_none() => {
                return bad("games times shard count overflows".into());
            }
            None => {}
        }
        Ok(())
    }

    /// The configuration stored in the header.
    pub fn run_config(&self) -> RunConfig {
        RunConfig {
            games: self.run_games.unwrap_or(self.games),
            split: self.run_games.is_some(),
            white: self.white.to_string(),
            black: self.black.to_string(),
            random_plies: self.random_plies,
            explore_plies: self.explore_plies,
            exploration: self.exploration,
            max_quiet_plies: self.rules.max_quiet_plies,
            max_plies: self.rules.max_plies,
        }
    }

    /// The output file's header.
    pub fn header(&self) -> Header {
        let config = serde_json::to_string(&self.run_config()).unwrap_or_default();
        Header::new(fanorona_data::PROGRAM, Kind::SelfPlay, config, self.seed)
            .with_shard(self.shard.index, self.shard.count)
    }

    /// The run-wide index of this shard's game `g`.
    pub fn global_index(&self, g: u64) -> u64 {
        match self.run_games {
            Some(total) => self.shard.split(total).first + g,
            None => u64::from(self.shard.index) * self.games + g,
        }
    }

    /// This shard of a run of `total` games split over the shards: `games` and `run_games` set
    /// from [`Shard::split`].
    pub fn with_run_games(mut self, total: u64) -> SelfplayConfig {
        self.games = self.shard.split(total).games;
        self.run_games = Some(total);
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_spec_is_its_text() {
        assert_eq!(default_spec().to_string(), DEFAULT_SPEC);
        assert_eq!(DEFAULT_SPEC.parse::<PlayerSpec>(), Ok(default_spec()));
    }
}
