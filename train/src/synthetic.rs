//! Synthetic games for tests and benchmarks: quick, seeded, rule-correct record files.

use std::path::Path;

use fanorona_core::Rng;
use fanorona_core::{DrawRules, Game, Position};
use fanorona_data::{GameRecord, Header, Kind, RecordWriter, TurnInfo};

use crate::TrainError;

/// Writes `games` games to the record file `path`. Each side plays its biggest capture with
/// probability 3/4 and a random legal turn otherwise, and each turn carries a "search score"
/// of 100 x the material difference after it (mover's view), so both the result and the
/// score targets have something to learn. Deterministic in `seed`.
///
/// # Errors
/// When the file cannot be written.
pub fn write_synthetic_games(path: &Path, games: u64, seed: u64) -> Result<(), TrainError> {
    let header = Header::new(fanorona_data::PROGRAM, Kind::SelfPlay, "{\"synthetic\":true}", seed);
    let mut w = RecordWriter::create(path, &header)?;
    let rules = DrawRules { max_quiet_plies: 30, max_plies: 150 };
    for g in 0..games {
        let mut rng = Rng::derive(seed, g);
        let mut game = Game::new(Position::start(), rules);
        let mut info = Vec::new();
        while game.outcome().is_none() {
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = if rng.below(4) == 0 {
                moves[rng.below(moves.len() as u64) as usize]
            } else {
                let best = moves.iter().map(|m| m.captured().count()).max().unwrap_or(0);
                let top: Vec<_> = moves.iter().filter(|m| m.captured().count() == best).collect();
                *top[rng.below(top.len() as u64) as usize]
            };
            let mut after = *game.position();
            after.play_unchecked(&mv);
            // After the move, `them()` is the mover.
            let material = after.them().count() as i32 - after.us().count() as i32;
            info.push(TurnInfo { score: Some(100 * material), depth: None, exploration: false });
            game.play_unchecked(&mv);
        }
        let record = GameRecord::from_game(&game, &info, g, "synthetic", "synthetic")
            .map_err(|e| TrainError::Config(format!("synthetic game {g}: {e}")))?;
        w.write(&record)?;
    }
    w.finish()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_read_back() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s.bin");
        write_synthetic_games(&p, 5, 1).unwrap();
        let games: Vec<GameRecord> =
            fanorona_data::RecordReader::open(&p).unwrap().collect::<Result<_, _>>().unwrap();
        assert_eq!(games.len(), 5);
        for g in &games {
            g.validate().unwrap();
            assert!(!g.turns.is_empty());
        }
    }
}
