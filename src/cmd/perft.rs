//! `fanorona perft`: count turn sequences, the move generator's check and benchmark.

use std::io::Write;
use std::time::Instant;

use fanorona_core::perft_divide_parallel;

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
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// Threads at most.
const MAX_THREADS: usize = 1024;

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
    let start = Instant::now();
    let (nodes, divide) = if args.depth == 0 {
        (1, Vec::new())
    } else {
        let d = perft_divide_parallel(&pos, args.depth, threads);
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
