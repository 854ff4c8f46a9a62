//! Probes per second on random positions of the largest tables: `cargo run --release -p
//! fanorona-tb --example probes -- DIR [COUNT]`.

use std::path::PathBuf;
use std::time::Instant;

use fanorona_core::{Bitboard, Color, Position};
use fanorona_tb::Tablebase;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let dir = PathBuf::from(args.next().ok_or("usage: probes DIR [COUNT]")?);
    let count: usize = args.next().map_or(Ok(1_000_000), |c| c.parse())?;
    let t = Instant::now();
    let tb = Tablebase::open(&dir)?;
    println!("opened {} stones in {:.2} s", tb.max_stones(), t.elapsed().as_secs_f64());
    let stones = tb.max_stones();
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let (mut w, mut b) = (0u64, 0u64);
        let white = 1 + positions.len() as u32 % (stones - 1);
        while (w | b).count_ones() < stones {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let p = 1u64 << (x % 45);
            if (w | b) & p == 0 {
                if w.count_ones() < white { w |= p } else { b |= p }
            }
        }
        positions.push(Position::from_stones(Bitboard(w), Bitboard(b), Color::White)?);
    }
    let t = Instant::now();
    let mut wins = 0u64;
    for pos in &positions {
        if tb.probe(pos)?.wdl() == fanorona_tb::Wdl::Win {
            wins += 1;
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{count} probes of {stones}-stone positions in {s:.3} s: {:.0} probes/s ({wins} wins)",
        count as f64 / s
    );
    Ok(())
}
