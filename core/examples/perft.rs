//! Prints perft of the start position (or a given position) with nodes per second.
//!
//! `cargo run --release -p fanorona-core --example perft -- 7 ["<position>"]`
use std::time::Instant;

use fanorona_core::{Position, perft};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(6);
    let pos = match args.next() {
        Some(s) => match s.parse::<Position>() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(2);
            }
        },
        None => Position::start(),
    };
    for d in 1..=depth {
        let t = Instant::now();
        let n = perft(&pos, d);
        let s = t.elapsed().as_secs_f64();
        println!("perft {d}: {n} in {s:.3} s ({:.1} M moves/s)", n as f64 / s / 1e6);
    }
}
