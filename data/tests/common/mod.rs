//! Helpers shared by the integration tests.
#![allow(dead_code, clippy::unwrap_used)]

use std::path::Path;

use fanorona_core::{DrawRules, Game, Position};
use fanorona_data::{GameRecord, Header, Kind, RecordWriter, TurnInfo};

/// `n` games of pseudo-random legal turns (deterministic), with made-up scores.
pub fn random_games(n: u64, seed: u64) -> Vec<GameRecord> {
    let mut x = seed | 1;
    let mut out = Vec::new();
    for i in 0..n {
        let mut g = Game::new(Position::start(), DrawRules { max_quiet_plies: 20, max_plies: 60 });
        let mut info = Vec::new();
        while g.outcome().is_none() {
            let moves = g.legal_moves();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = moves[(x % moves.len() as u64) as usize];
            g.play(&m).unwrap();
            info.push(TurnInfo {
                score: Some((x % 1000) as i32 - 500),
                depth: Some(2),
                exploration: x.is_multiple_of(5),
            });
        }
        out.push(GameRecord::from_game(&g, &info, i, "random", "random").unwrap());
    }
    out
}

pub fn header() -> Header {
    Header::new("test", Kind::SelfPlay, r#"{"test":true}"#, 42)
}

pub fn write(path: &Path, games: &[GameRecord]) {
    let mut w = RecordWriter::create(path, &header()).unwrap();
    for g in games {
        w.write(g).unwrap();
    }
    w.finish().unwrap();
}
