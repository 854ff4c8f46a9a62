//! Benchmark: self-play games per second on 1 and on 2 threads (and more if asked).
//!
//! `cargo run --release -p fanorona-selfplay --example throughput [-- GAMES [SPEC [THREADS...]]]`
//!
//! Defaults: 200 games of `alphabeta:depth=2,eval=material` against itself, on 1 and 2
//! threads. Both runs produce the same file (checked), so they do the same work.

use std::time::Instant;

use fanorona_selfplay::{SelfplayConfig, generate};

/// CPU seconds used by this process so far (Linux `/proc/self/stat`; 0 elsewhere).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
    let after = stat.rsplit(')').next().unwrap_or("");
    let f: Vec<&str> = after.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    // Fields 14 and 15 of the file (utime, stime) are 11 and 12 after the command name.
    (ticks(11) + ticks(12)) / 100.0
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().and_then(|g| g.parse().ok()).unwrap_or(200);
    let spec = args.get(1).map_or("alphabeta:depth=2,eval=material", |s| s.as_str());
    let mut threads: Vec<usize> = args.iter().skip(2).filter_map(|t| t.parse().ok()).collect();
    if threads.is_empty() {
        threads = vec![1, 2];
    }
    let dir = tempfile::tempdir()?;
    let mut base: Option<(f64, Vec<u8>)> = None;
    println!("{games} games of {spec} vs itself ({} cores available)", std::thread::available_parallelism()?);
    for t in threads {
        let config = SelfplayConfig {
            games,
            white: spec.parse()?,
            black: spec.parse()?,
            threads: t,
            ..SelfplayConfig::default()
        };
        let out = dir.path().join(format!("t{t}.bin"));
        let t0 = Instant::now();
        let c0 = cpu_seconds();
        let s = generate(&config, &out, fanorona_selfplay::Start::New, &mut |_| {})?;
        let secs = t0.elapsed().as_secs_f64();
        let cpu = cpu_seconds() - c0;
        let rate = games as f64 / secs;
        let bytes = std::fs::read(&out)?;
        let (speedup, same) = match &base {
            None => (1.0, true),
            Some((r, b)) => (rate / r, *b == bytes),
        };
        println!(
            "{t:>2} threads: {rate:8.2} games/s, {:9.0} turns/s, {secs:6.2} s wall, {cpu:6.2} s CPU ({:.2} cores busy), speedup {speedup:.2}x{}",
            s.stats.positions as f64 / secs,
            cpu / secs,
            if same { "" } else { "  OUTPUT DIFFERS" }
        );
        if base.is_none() {
            base = Some((rate, bytes));
        }
    }
    Ok(())
}
