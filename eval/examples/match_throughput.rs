//! Match throughput on 1 and 2 (or more) threads: games per second of wall time, and CPU
//! seconds per game (from /proc/self/stat on Linux), which shows the parallel overhead even on
//! a machine busy with other work.
//!
//! `cargo run --release -p fanorona-eval --example match_throughput -- [GAMES] [SPEC] [THREADS...]`
//! (defaults: 400 games of `alphabeta:depth=2` against itself on 1 and 2 threads).

use std::time::Instant;

use fanorona_eval::{EngineSpec, MatchConfig, run_match};

/// User + system CPU seconds of this process so far (0 where /proc is missing).
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // Fields after the command name in parentheses; utime and stime are fields 14 and 15.
    let Some(rest) = stat.rsplit(')').next() else { return 0.0 };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: u64 = args.first().map_or(Ok(400), |s| s.parse())?;
    let spec_text = args.get(1).cloned().unwrap_or_else(|| "alphabeta:depth=2".into());
    let threads: Vec<usize> = if args.len() > 2 {
        args[2..].iter().map(|s| s.parse()).collect::<Result<_, _>>()?
    } else {
        vec![1, 2]
    };
    let spec: EngineSpec = spec_text.parse()?;
    let mut base = None;
    for t in threads {
        let mut c = MatchConfig::new(spec.clone(), spec.clone(), games);
        c.concurrency = t;
        let (cpu0, t0) = (cpu_seconds(), Instant::now());
        let r = run_match(&c, &mut |_| {})?;
        let (wall, cpu) = (t0.elapsed().as_secs_f64(), cpu_seconds() - cpu0);
        let gps = r.games as f64 / wall;
        let speedup = base.map_or(1.0, |b: f64| gps / b);
        base.get_or_insert(gps);
        println!(
            "{spec_text}: {t} thread(s): {} games in {wall:.2} s = {gps:.1} games/s (x{speedup:.2}), {:.2} CPU ms/game, W/D/L {}/{}/{}",
            r.games,
            1000.0 * cpu / r.games as f64,
            r.wdl.wins,
            r.wdl.draws,
            r.wdl.losses
        );
    }
    Ok(())
}
