//! `fanorona analyse`: search one position and print the score and principal variation.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use fanorona_core::{Outcome, Position};
use fanorona_engine::score::{forced, loss_in, win_in};
use fanorona_engine::search::{Info, MAX_DEPTH, MAX_HASH_MIB, SearchResult, check_threads};
use fanorona_engine::{EvalSpec, Limits, SearchRoot, Searcher};

use crate::exit::bad_input;

/// Search a position and print the score, depth, nodes, nodes per second and principal
/// variation. Without a limit it searches to depth 8.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Position string, or `startpos` (default: the start position).
    #[arg(long, short)]
    position: Option<String>,
    /// Depth limit in turns.
    #[arg(long, short)]
    depth: Option<u32>,
    /// Node limit (each turn made in the search counts one node).
    #[arg(long)]
    nodes: Option<u64>,
    /// Time limit in milliseconds.
    #[arg(long)]
    movetime: Option<u64>,
    /// Evaluator: material, handcrafted, embedded (the network built into the binary) or net:PATH.
    #[arg(long, default_value = "handcrafted")]
    eval: String,
    /// Transposition table size in MiB (0: none).
    #[arg(long, default_value_t = fanorona_engine::spec::DEFAULT_HASH_MIB)]
    hash: usize,
    /// Search threads sharing the table (at most the machine's; 1 is deterministic).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// A score as text: centi-stones, or `win N` / `loss N` turns.
pub fn score_text(score: i32) -> String {
    match forced(score) {
        Some((true, n)) => format!("win {n}"),
        Some((false, n)) => format!("loss {n}"),
        None => score.to_string(),
    }
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let pos = super::parse_position(args.position.as_deref())?;
    let eval: EvalSpec = args.eval.parse().map_err(|e| bad_input("--eval", e))?;
    if args.hash > MAX_HASH_MIB {
        return Err(bad_input("--hash", format!("at most {MAX_HASH_MIB} MiB")));
    }
    let threads = check_threads(args.threads).map_err(|e| bad_input("--threads", e))?;
    let limits = limits(args)?;
    let evaluator = eval.build().map_err(|e| bad_input("--eval", e))?;
    let mut out = std::io::stdout().lock();
    if let Some(o) = super::game_over(&pos) {
        return write_game_over(&mut out, &pos, &eval, o, args.json);
    }
    let mut searcher = Searcher::try_new(evaluator, args.hash).map_err(|e| bad_input("--hash", e))?;
    searcher.set_threads(threads);
    let r = search(&mut searcher, pos, limits, &mut out, args.json)?;
    if args.json {
        writeln!(out, "{}", result_json(&pos, &eval, threads, &r))?;
    } else {
        write_result(&mut out, &pos, threads, &r)?;
    }
    Ok(())
}

/// The search limits of `args`: depth 8 when none is given.
fn limits(args: &Args) -> anyhow::Result<Limits> {
    if let Some(d) = args.depth
        && !(1..=MAX_DEPTH).contains(&d)
    {
        return Err(bad_input("--depth", format!("{d} is not in 1..={MAX_DEPTH}")));
    }
    let mut limits =
        Limits { depth: args.depth, nodes: args.nodes, movetime: args.movetime.map(Duration::from_millis) };
    if limits.is_infinite() {
        limits.depth = Some(8);
    }
    Ok(limits)
}

/// A finished game: nothing to search, the rules decide (a side with no stones has lost,
/// whoever is to move).
fn write_game_over(
    out: &mut impl Write,
    pos: &Position,
    eval: &EvalSpec,
    o: Outcome,
    json: bool,
) -> anyhow::Result<()> {
    let score = if o.winner == Some(pos.turn()) { win_in(0) } else { loss_in(0) };
    if json {
        let obj = serde_json::json!({
            "position": pos.to_string(), "eval": eval.to_string(), "best": null, "score": score,
            "score_text": score_text(score), "depth": 0, "nodes": 0, "nodes_per_second": 0.0,
            "time_ms": 0, "pv": Vec::<String>::new(), "result": o.to_string(),
        });
        writeln!(out, "{obj}")?;
    } else {
        writeln!(out, "position {pos}")?;
        writeln!(out, "game over: {o}")?;
        writeln!(out, "score    {} (side to move's view)", score_text(score))?;
    }
    Ok(())
}

/// Searches `pos`, printing a line per completed iteration unless the output is JSON.
fn search(
    searcher: &mut Searcher,
    pos: Position,
    limits: Limits,
    out: &mut impl Write,
    json: bool,
) -> anyhow::Result<SearchResult> {
    let mut write_error = None;
    let r =
        searcher.search(&SearchRoot::new(pos), limits, Arc::new(AtomicBool::new(false)), &mut |i: &Info| {
            if json || write_error.is_some() {
                return;
            }
            let pv: Vec<String> = i.pv.iter().map(|m| m.to_string()).collect();
            if let Err(e) = writeln!(
                out,
                "depth {:>2}  score {:>8}  nodes {:>10}  time {:>6} ms  pv {}",
                i.depth,
                score_text(i.score),
                i.nodes,
                i.elapsed.as_millis(),
                pv.join(" ")
            ) {
                write_error = Some(e);
            }
        });
    match write_error {
        Some(e) => Err(e.into()),
        None => Ok(r),
    }
}

/// Nodes per second of a search.
fn nodes_per_second(r: &SearchResult) -> f64 {
    let secs = r.elapsed.as_secs_f64();
    if secs > 0.0 { r.nodes as f64 / secs } else { 0.0 }
}

/// The principal variation as words.
fn pv_words(r: &SearchResult) -> Vec<String> {
    r.pv.iter().map(|m| m.to_string()).collect()
}

/// The result as one JSON object (`--json`).
fn result_json(pos: &Position, eval: &EvalSpec, threads: usize, r: &SearchResult) -> serde_json::Value {
    serde_json::json!({
        "position": pos.to_string(),
        "eval": eval.to_string(),
        "threads": threads,
        "best": r.best.map(|m| m.to_string()),
        "score": r.score,
        "score_text": score_text(r.score),
        "depth": r.depth,
        "nodes": r.nodes,
        "nodes_per_second": nodes_per_second(r),
        "time_ms": r.elapsed.as_millis() as u64,
        "pv": pv_words(r),
    })
}

/// The result as text.
fn write_result(
    out: &mut impl Write,
    pos: &Position,
    threads: usize,
    r: &SearchResult,
) -> std::io::Result<()> {
    let best = r.best.map(|m| m.to_string());
    writeln!(out, "position {pos}")?;
    writeln!(out, "best     {}", best.as_deref().unwrap_or("none (no legal turn)"))?;
    writeln!(out, "score    {} (centi-stones, side to move's view)", score_text(r.score))?;
    writeln!(out, "depth    {}", r.depth)?;
    writeln!(out, "nodes    {}", r.nodes)?;
    writeln!(
        out,
        "nps      {:.0}{}",
        nodes_per_second(r),
        if threads > 1 { format!(" ({threads} threads)") } else { String::new() }
    )?;
    writeln!(out, "time     {} ms", r.elapsed.as_millis())?;
    writeln!(out, "pv       {}", pv_words(r).join(" "))
}
