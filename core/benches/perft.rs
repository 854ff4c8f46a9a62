//! `cargo bench -p fanorona-core`: perft of fixed positions, asserting the counts and printing
//! moves per second (single thread; the last ply is counted without being played), then the
//! deepest once more with a transposition table (`perft --hash`, a line of its own: the plain
//! generator's figures above stay what they measure).

use std::time::Instant;

use fanorona_core::{PerftTable, Position, perft, perft_hashed};

/// The table of the hashed line, in MiB.
const HASH_MIB: usize = 64;

/// (position, depth, expected count). The start position's counts are RULES.md's.
const CASES: &[(&str, u32, u64)] = &[
    ("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w", 6, 9_205_774),
    ("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w", 7, 175_243_243),
];

fn main() {
    let mut total = 0u64;
    let mut seconds = 0.0;
    for &(fen, depth, expected) in CASES {
        let pos: Position = match fen.parse() {
            Ok(p) => p,
            Err(e) => panic!("bad bench position {fen}: {e}"),
        };
        let t = Instant::now();
        let n = perft(&pos, depth);
        let s = t.elapsed().as_secs_f64();
        assert_eq!(n, expected, "perft({depth}) of {fen}");
        println!("perft {depth} {fen}: {n} moves in {s:.3} s = {:.1} M moves/s", n as f64 / s / 1e6);
        total += n;
        seconds += s;
    }
    println!("total {total} moves in {seconds:.3} s = {:.1} M moves/s", total as f64 / seconds / 1e6);
    let Some(&(fen, depth, expected)) = CASES.last() else { return };
    let pos: Position = fen.parse().unwrap_or_else(|e| panic!("bad bench position {fen}: {e}"));
    let mut table = PerftTable::try_new(HASH_MIB).unwrap_or_else(|e| panic!("{e}"));
    let t = Instant::now();
    let n = perft_hashed(&pos, depth, &mut table);
    let s = t.elapsed().as_secs_f64();
    assert_eq!(n, expected, "hashed perft({depth}) of {fen}");
    println!(
        "hashed ({HASH_MIB} MiB table) perft {depth}: {n} moves in {s:.3} s = {:.1} M moves/s",
        n as f64 / s / 1e6
    );
}
