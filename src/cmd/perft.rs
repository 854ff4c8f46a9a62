//! `fanorona perft`: count turn sequences, the move generator's check and benchmark.

use std::io::Write;
use std::time::Instant;

use fanorona_core::{MAX_PERFT_HASH_MIB, PerftTable, perft_divide_hashed, perft_divide_parallel};

use crate::exit::bad_input;

/// Count the turn sequences of exactly DEPTH turns from a position.
///
/// Each complete turn is one move: every stopping point of a capture chain counts, and
/// approach and withdrawal are different moves (RULES.md, "Counting moves").
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Number of turns.
    #[arg(long, short)]
    depth: u32,
    /// Position string (default: the start position).
    #[arg(long, short)]
    position: Option<String>,
    /// Print each first turn with its count.
    #[arg(long)]
    divide: bool,
    /// Share the first turns out over this many threads.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Transposition table of this many MiB (0: none), as chess perft tools have; with more
    /// than one thread each has its own table of an equal share. The counts are the same.
    #[arg(long, default_value_t = 0, value_name = "MIB")]
    hash: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Threads at most: the bound of every worker-thread count.
use super::workers::MAX_WORKERS as MAX_THREADS;

pub fn run(args: &Args) -> anyhow::Result<()> {
    let pos = super::parse_position(args.position.as_deref())?;
    if args.threads == 0 || args.threads > MAX_THREADS {
        return Err(bad_input("--threads", format!("must be 1..={MAX_THREADS}")));
    }
    // More threads than first turns have nothing to do: do not ask the system for them.
    let threads = args.threads.min(pos.legal_moves().len().max(1));
    if args.depth > 30 {
        return Err(bad_input(
            "--depth",
            format!("{} is beyond any useful perft depth (at most 30)", args.depth),
        ));
    }
    if args.hash > MAX_PERFT_HASH_MIB {
        return Err(bad_input("--hash", format!("at most {MAX_PERFT_HASH_MIB} MiB")));
    }
    // The tables are made before the clock starts (zeroing them is not counting).
    let mut tables = if args.hash == 0 {
        Vec::new()
    } else {
        PerftTable::try_split(args.hash, threads).map_err(|e| bad_input("--hash", e))?
    };
    let start = Instant::now();
    let (nodes, divide) = if args.depth == 0 {
        (1, Vec::new())
    } else {
        let d = if tables.is_empty() {
            perft_divide_parallel(&pos, args.depth, threads)
        } else {
            perft_divide_hashed(&pos, args.depth, &mut tables)
        };
        (d.iter().map(|(_, n)| n).sum::<u64>(), d)
    };
    let seconds = start.elapsed().as_secs_f64();
    let nps = if seconds > 0.0 { nodes as f64 / seconds } else { 0.0 };
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut obj = serde_json::json!({
            "position": pos.to_string(),
            "depth": args.depth,
            "nodes": nodes,
            "seconds": seconds,
            "nodes_per_second": nps,
            "threads": args.threads,
            "hash_mib": args.hash,
        });
        if args.divide {
            obj["divide"] =
                divide.iter().map(|(m, n)| serde_json::json!({"move": m.to_string(), "nodes": n})).collect();
        }
        writeln!(out, "{obj}")?;
    } else {
        if args.divide {
            for (m, n) in &divide {
                writeln!(out, "{m}: {n}")?;
            }
        }
        writeln!(out, "time {seconds:.3} s, {:.1} M moves/s", nps / 1e6)?;
        writeln!(out, "nodes {nodes}")?;
    }
    Ok(())
}
