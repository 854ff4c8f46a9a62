//! Benchmark: positions per second from a record file into training samples, on one core.
//!
//! `cargo run --release -p fanorona-data --example sample_throughput [-- FILE [GAMES]]`
//!
//! Without FILE it writes GAMES (default 20000) random games to a temporary file first.

use std::path::PathBuf;
use std::time::Instant;

use fanorona_core::{DrawRules, Game, Position};
use fanorona_data::{GameRecord, Header, Kind, RecordWriter, SampleConfig, Samples, TurnInfo};

fn random_games(path: &std::path::Path, games: u64) -> Result<(), Box<dyn std::error::Error>> {
    let mut w = RecordWriter::create(path, &Header::new(fanorona_data::PROGRAM, Kind::SelfPlay, "{}", 1))?;
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for i in 0..games {
        let mut g = Game::new(Position::start(), DrawRules::default());
        let mut info = Vec::new();
        while g.outcome().is_none() {
            let moves = g.legal_moves();
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let m = moves[(x % moves.len() as u64) as usize];
            g.play_unchecked(&m);
            info.push(TurnInfo { score: Some((x % 400) as i32 - 200), depth: Some(2), exploration: false });
        }
        w.write(&GameRecord::from_game(&g, &info, i, "random", "random")?)?;
    }
    w.finish()?;
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = tempfile::tempdir()?;
    let path = match args.first() {
        Some(p) => PathBuf::from(p),
        None => {
            let games = args.get(1).and_then(|g| g.parse().ok()).unwrap_or(20_000);
            let p = dir.path().join("random.bin");
            random_games(&p, games)?;
            p
        }
    };
    let size = std::fs::metadata(&path)?.len();
    let t = Instant::now();
    let mut turns = 0usize;
    let mut games = 0usize;
    for r in fanorona_data::RecordReader::open(&path)? {
        turns += r?.turns.len();
        games += 1;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "{:>15}: {games} games, {turns} turns in {secs:.3} s: {:.2} M turns/s ({:.1} MB/s)",
        "decode only",
        turns as f64 / secs / 1e6,
        size as f64 / secs / 1e6
    );
    for (name, config) in [
        ("plain", SampleConfig { score_weight: 0.5, ..SampleConfig::default() }),
        (
            "skip 4 + dedup",
            SampleConfig { skip_plies: 4, score_weight: 0.5, dedup: true, ..SampleConfig::default() },
        ),
        ("mirror", SampleConfig { score_weight: 0.5, mirror: true, ..SampleConfig::default() }),
    ] {
        let t = Instant::now();
        let mut n = 0u64;
        let mut sum = 0f64;
        let mut samples = Samples::open(std::slice::from_ref(&path), config);
        for s in samples.by_ref() {
            let s = s?;
            n += 1;
            sum += f64::from(s.target);
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name:>15}: {} games, {n} samples in {secs:.3} s: {:.2} M samples/s ({:.1} MB/s; mean target {:.3})",
            samples.games(),
            n as f64 / secs / 1e6,
            size as f64 / secs / 1e6,
            sum / n.max(1) as f64
        );
    }
    Ok(())
}
