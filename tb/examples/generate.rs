//! Generates tables and prints each table's figures: `cargo run --release -p fanorona-tb
//! --example generate -- STONES DIR [THREADS]`.

use std::path::PathBuf;
use std::time::Instant;

use fanorona_tb::{GenerateOptions, generate};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let stones: u32 = args.next().ok_or("usage: generate STONES DIR [THREADS]")?.parse()?;
    let dir = PathBuf::from(args.next().ok_or("usage: generate STONES DIR [THREADS]")?);
    let threads: usize = args.next().map_or(Ok(0), |t| t.parse())?;
    let start = Instant::now();
    generate(&dir, GenerateOptions::new(stones, threads), &|r| {
        println!(
            "{} wins {} draws {} losses {} bytes {} reused {} seconds {:.2}",
            r.sig, r.counts.wins, r.counts.draws, r.counts.losses, r.bytes, r.reused, r.seconds
        );
    })?;
    println!("total {:.2} s", start.elapsed().as_secs_f64());
    Ok(())
}
