//! `fanorona book`: opening books: build one from game records, show what it holds.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use fanorona_book::{Book, BookBuilder, Entry, best_entry, lower_bound, write_book};
use fanorona_core::{DrawRules, Position};
use fanorona_data::{Existing, Output, RecordReader};
use fanorona_engine::PlayerSpec;
use fanorona_selfplay::{AnalysisConfig, SelfplayError, analyse_book};
use indicatif::{ProgressBar, ProgressStyle};

use crate::exit::bad_input;

/// Opening books: for each position of the first turns of many games, the turns played and
/// how those games ended; `book=FILE` in engine specs plays from one, `--openings book:FILE`
/// draws match openings from one.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Build a book from record files (self-play or matches).
    Build(BuildArgs),
    /// Build a book by analysis: every turn from the start position searched, the best
    /// followed to a number of turns, each kept turn scored by the minimax of the analysis.
    Analyse(AnalyseArgs),
    /// Show a book's header and the turns it holds for a position.
    Show(ShowArgs),
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// Record files (`fanorona selfplay`, `fanorona eval -o`, `data import`).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The book file to write.
    #[arg(short, long)]
    out: PathBuf,
    /// Turns of each game that go into the book.
    #[arg(long, default_value_t = 16)]
    plies: usize,
    /// Keep a (position, turn) only when at least this many games played it.
    #[arg(long, default_value_t = 8)]
    min_games: u32,
    /// Replace an existing book.
    #[arg(long)]
    force: bool,
    /// Print one JSON summary instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct AnalyseArgs {
    /// The book file to write.
    #[arg(short, long)]
    out: PathBuf,
    /// The analysing engine, an alpha-beta spec; a depth or node limit gives the same book
    /// whatever the threads, e.g. `alphabeta:depth=7,eval=embedded`.
    #[arg(short, long)]
    engine: String,
    /// Turns from the start position the analysis follows.
    #[arg(long, default_value_t = 8)]
    plies: u32,
    /// The most turns kept (and followed) in a position.
    #[arg(long, default_value_t = 2)]
    width: usize,
    /// Keep a turn when its score is within this many centi-stones of the position's best.
    #[arg(long, default_value_t = 30, allow_negative_numbers = true)]
    margin: i32,
    /// Worker threads (0: one per core; at most 1024, searching on at most one per core).
    #[arg(short, long, default_value_t = 0, value_parser = super::workers::parse)]
    threads: usize,
    /// Replace an existing book.
    #[arg(long)]
    force: bool,
    /// Print one JSON summary instead of text.
    #[arg(long)]
    json: bool,
    /// No progress output.
    #[arg(short, long)]
    quiet: bool,
}

#[derive(Debug, clap::Args)]
struct ShowArgs {
    /// The book file.
    book: PathBuf,
    /// The position (the start position by default).
    #[arg(long)]
    position: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The most turns of a game a book takes.
const MAX_PLIES: usize = 200;

pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.command {
        Command::Build(a) => build(a),
        Command::Analyse(a) => analyse(a),
        Command::Show(a) => show(a),
    }
}

fn build(a: &BuildArgs) -> anyhow::Result<()> {
    if a.plies == 0 || a.plies > MAX_PLIES {
        return Err(bad_input("--plies", format!("{} is not between 1 and {MAX_PLIES}", a.plies)));
    }
    if a.min_games == 0 {
        return Err(bad_input("--min-games", "must be at least 1"));
    }
    let out = Output::new(&a.out, if a.force { Existing::Replace } else { Existing::Refuse })?;
    if let Some(input) = a.inputs.iter().find(|i| out.clobbers(i)) {
        return Err(bad_input("--out", format!("{} is also an input", input.display())));
    }
    let progress = spinner(a.json, "{spinner} {pos} games read ({per_sec}) {msg}");
    let mut builder = BookBuilder::new(a.plies);
    for path in &a.inputs {
        add_file(&mut builder, path, &progress)?;
    }
    progress.finish_and_clear();
    let built = builder.finish(a.min_games);
    write_book(&out, &built.entries, built.min_games)?;
    let summary = serde_json::json!({
        "book": a.out.display().to_string(),
        "games": built.games,
        "pairs_seen": built.pairs,
        "entries": built.entries.len(),
        "positions": built.positions,
        "plies": a.plies,
        "min_games": built.min_games,
    });
    let mut stdout = std::io::stdout().lock();
    if a.json {
        writeln!(stdout, "{summary}")?;
    } else {
        writeln!(
            stdout,
            "{}: {} entries over {} positions, from {} games ({} turns each at most; {} of {} (position, turn) pairs played in at least {} games)",
            a.out.display(),
            built.entries.len(),
            built.positions,
            built.games,
            a.plies,
            built.entries.len(),
            built.pairs,
            built.min_games
        )?;
    }
    Ok(())
}

fn analyse(a: &AnalyseArgs) -> anyhow::Result<()> {
    let spec: PlayerSpec =
        a.engine.parse().map_err(|e| bad_input(format!("invalid --engine spec {:?}", a.engine), e))?;
    let config = AnalysisConfig { plies: a.plies, width: a.width, margin: a.margin, threads: a.threads };
    let out = Output::new(&a.out, if a.force { Existing::Replace } else { Existing::Refuse })?;
    let bar = spinner(a.json || a.quiet, "{spinner} {elapsed_precise} {pos} turns searched ({per_sec})");
    let analysed = analyse_book(&spec, &config, &mut |n| bar.set_position(n));
    bar.finish_and_clear();
    let (entries, report) = analysed.map_err(|e| match e {
        SelfplayError::Config(why) => bad_input("book analyse", why),
        other => other.into(),
    })?;
    write_book(&out, &entries, 0)?;
    let mut stdout = std::io::stdout().lock();
    if a.json {
        let mut doc = serde_json::to_value(&report)?;
        doc["book"] = a.out.display().to_string().into();
        doc["engine"] = spec.to_string().into();
        writeln!(stdout, "{doc}")?;
    } else {
        writeln!(
            stdout,
            "{}: {} entries over {} positions, {} turns searched by {spec} ({} turns deep, width {}, margin {}){}",
            a.out.display(),
            report.entries,
            report.positions,
            report.searches,
            a.plies,
            a.width,
            a.margin,
            if report.truncated { "; the deepest level was cut short at the position limit" } else { "" }
        )?;
    }
    Ok(())
}

/// A spinner drawn with `template` on a terminal, hidden when `quiet` or not on one.
fn spinner(quiet: bool, template: &str) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(
        ProgressStyle::with_template(template).unwrap_or_else(|_| ProgressStyle::default_spinner()),
    );
    bar
}

/// Adds every game of a record file, each replayed (so checked) first.
fn add_file(builder: &mut BookBuilder, path: &Path, progress: &ProgressBar) -> anyhow::Result<()> {
    progress.set_message(path.display().to_string());
    let reader = RecordReader::open(path)?;
    for (i, rec) in reader.enumerate() {
        let rec = rec?;
        let no_limits = DrawRules { max_quiet_plies: 0, max_plies: 0 };
        let game =
            rec.replay(no_limits).map_err(|e| bad_input(format!("{}: game {i}", path.display()), e))?;
        builder
            .add_game(rec.start, game.moves(), rec.outcome.winner)
            .map_err(|e| bad_input(format!("{}: game {i}", path.display()), e))?;
        progress.inc(1);
    }
    Ok(())
}

fn show(a: &ShowArgs) -> anyhow::Result<()> {
    let position = super::parse_position(a.position.as_deref())?;
    let book = Book::open(&a.book)?;
    let mut entries = book.entries(&position)?;
    let chosen = best_entry(&entries, book.header().min_games).map(|e| e.turn);
    if book.header().scored {
        entries.sort_by_key(|e| std::cmp::Reverse(e.score));
    } else {
        entries.sort_by(|x, y| lower_bound(&y.stats).total_cmp(&lower_bound(&x.stats)));
    }
    let rows: Vec<serde_json::Value> =
        entries.iter().map(|e| row(&position, e, chosen == Some(e.turn))).collect();
    let header = book.header();
    let mut stdout = std::io::stdout().lock();
    if a.json {
        let doc = serde_json::json!({
            "book": a.book.display().to_string(),
            "entries": header.entries,
            "min_games": header.min_games,
            "analysed": header.scored,
            "position": position.to_string(),
            "turns": rows,
        });
        writeln!(stdout, "{doc}")?;
        return Ok(());
    }
    if header.scored {
        writeln!(stdout, "{}: {} entries, by analysis", a.book.display(), header.entries)?;
    } else {
        writeln!(
            stdout,
            "{}: {} entries, each played in at least {} games",
            a.book.display(),
            header.entries,
            header.min_games
        )?;
    }
    if rows.is_empty() {
        writeln!(stdout, "{position}: not in the book")?;
        return Ok(());
    }
    writeln!(stdout, "{position}:")?;
    if header.scored {
        return show_analysed(&mut stdout, &rows);
    }
    writeln!(
        stdout,
        "  {:<24} {:>7} {:>7} {:>7} {:>7} {:>7} {:>7}",
        "turn", "games", "wins", "draws", "losses", "score", "bound"
    )?;
    for r in &rows {
        writeln!(
            stdout,
            "{} {:<24} {:>7} {:>7} {:>7} {:>7} {:>6.1}% {:>6.1}%",
            if r["played"] == true { '*' } else { ' ' },
            r["turn"].as_str().unwrap_or("?"),
            r["games"].to_string(),
            r["wins"].to_string(),
            r["draws"].to_string(),
            r["losses"].to_string(),
            r["score"].as_f64().unwrap_or(0.0) * 100.0,
            r["lower_bound"].as_f64().unwrap_or(0.0) * 100.0,
        )?;
    }
    writeln!(stdout, "(* the turn an engine with this book plays: the best lower bound)")?;
    Ok(())
}

/// The rows of an analysed book: each turn's analysed score and what it means as a result.
fn show_analysed(out: &mut impl Write, rows: &[serde_json::Value]) -> anyhow::Result<()> {
    writeln!(out, "  {:<24} {:>9} {:>9}", "turn", "analysed", "expected")?;
    for r in rows {
        writeln!(
            out,
            "{} {:<24} {:>9} {:>8.1}%",
            if r["played"] == true { '*' } else { ' ' },
            r["turn"].as_str().unwrap_or("?"),
            r["analysed_score"].to_string(),
            r["score"].as_f64().unwrap_or(0.0) * 100.0,
        )?;
    }
    writeln!(
        out,
        "(centi-stones for the side that plays the turn; * the turn an engine with this book plays)"
    )?;
    Ok(())
}

/// One entry as shown: its turn in notation, games, results, score and lower bound.
fn row(position: &Position, e: &Entry, played: bool) -> serde_json::Value {
    let turn = position
        .legal_moves()
        .iter()
        .find(|m| m.turn() == e.turn)
        .map_or_else(|| fanorona_book::format::describe(&e.turn), |m| m.to_string());
    serde_json::json!({
        "turn": turn,
        "games": e.stats.games(),
        "wins": e.stats.wins,
        "draws": e.stats.draws,
        "losses": e.stats.losses,
        "score": e.mover_score(),
        "lower_bound": lower_bound(&e.stats),
        "analysed_score": e.score,
        "played": played,
    })
}
