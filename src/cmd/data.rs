//! `fanorona data`: inspect, check, export and merge game record files.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use fanorona_data::stats::Stats;
use fanorona_data::{Existing, GameRecord, Output, RecordReader, merge};

use super::plural;
use crate::exit::bad_input;

/// Inspect, check, export and merge game record files.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: DataCommand,
}

#[derive(Debug, clap::Subcommand)]
enum DataCommand {
    /// Games, positions, results, endings, lengths and distinct positions of record files.
    Stats(StatsArgs),
    /// Replay every game through the rules; report the first illegal turn of each bad game
    /// (exit 1 if any game or file is bad).
    Validate(ValidateArgs),
    /// One game: its turns in notation and the final board.
    Show(ShowArgs),
    /// Export games for other tools: one game per line.
    Export(ExportArgs),
    /// Join the shard files of one run (checks they belong together).
    Merge(MergeArgs),
    /// Read PGN games (as `export --format pgn` and `eval --pgnout` write them) into a record
    /// file, every game checked against the rules.
    Import(ImportArgs),
    /// Re-label games: every searched turn's score replaced by another engine's search of its
    /// position (turns, results and game identities kept).
    Rescore(super::rescore::Args),
}

#[derive(Debug, clap::Args)]
struct StatsArgs {
    /// Record files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct ValidateArgs {
    /// Record files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct ShowArgs {
    /// Record file.
    file: PathBuf,
    /// Game number, from 0.
    #[arg(long, short, default_value_t = 0)]
    game: u64,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// `<start position> | <turns separated by spaces> | <result> <termination>`.
    Text,
    /// One JSON object per line.
    Jsonl,
    /// The training samples as numpy arrays (`.npz`, schema in data/FORMAT.md); needs --out.
    Npz,
    /// PGN-shaped text: tags, turns with `{score/depth}` comments (data/FORMAT.md).
    Pgn,
}

#[derive(Debug, clap::Args)]
struct ExportArgs {
    /// Record files.
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Write here instead of standard output (an existing file only with --force).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long, requires = "out")]
    force: bool,
    /// jsonl: also write the position before every turn (`positions`).
    #[arg(long)]
    positions: bool,
    /// npz: split into OUT-00000.npz, OUT-00001.npz, ... of this many samples each.
    #[arg(long, value_name = "N")]
    shard_size: Option<std::num::NonZeroU64>,
    /// npz: print the report as one JSON object.
    #[arg(long)]
    json: bool,
    /// npz: the input encoding of `inputs`, threats (180 inputs, the trainer's default
    /// model.encoding) or stones (90).
    #[arg(long, default_value = "threats", value_parser = parse_encoding)]
    encoding: fanorona_nn::Encoding,
    #[command(flatten)]
    samples: super::sample_args::SampleArgs,
}

#[derive(Debug, clap::Args)]
struct ImportArgs {
    /// PGN file.
    input: PathBuf,
    /// Record file to write.
    #[arg(long, short)]
    out: PathBuf,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// Output file.
    out: PathBuf,
    /// Shard files of one run.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Print one JSON object.
    #[arg(long)]
    json: bool,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.command {
        DataCommand::Stats(a) => stats(a),
        DataCommand::Validate(a) => validate(a),
        DataCommand::Show(a) => show(a),
        DataCommand::Export(a) => export(a),
        DataCommand::Merge(a) => merge_cmd(a),
        DataCommand::Import(a) => super::pgn::import(&a.input, &a.out, a.force, a.json),
        DataCommand::Rescore(a) => super::rescore::run(a),
    }
}

/// Opens a record file; a file that is missing or is not one is bad input (exit 2).
fn open(path: &Path) -> anyhow::Result<RecordReader> {
    Ok(RecordReader::open(path)?)
}

fn stats(a: &StatsArgs) -> anyhow::Result<()> {
    let mut total = Stats::new();
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for f in &a.files {
        let mut r = open(f)?;
        let h = r.header().clone();
        let mut games = 0u64;
        for rec in r.by_ref() {
            match rec {
                Ok(rec) => {
                    total.add_replayed(&rec);
                    games += 1;
                }
                Err(e) => {
                    problems.push(e.to_string());
                    break;
                }
            }
        }
        files.push(serde_json::json!({
            "file": f.display().to_string(), "games": games, "kind": h.kind.to_string(),
            "program": h.program, "seed": h.seed, "shard": h.shard, "shard_count": h.shard_count,
            "shards": h.shards, "config": serde_json::from_str::<serde_json::Value>(&h.config).unwrap_or(serde_json::Value::String(h.config.clone())),
        }));
    }
    total.finish();
    let mut out = std::io::stdout().lock();
    if a.json {
        let obj = serde_json::json!({
            "files": files, "stats": total, "mean_length": total.mean_length(),
            "white_score": total.white_score(), "problems": problems,
        });
        writeln!(out, "{obj}")?;
    } else {
        write_stats(&mut out, &files, &total, &problems)?;
    }
    if !problems.is_empty() {
        return Err(anyhow::Error::new(crate::exit::BadInput(format!(
            "{} (statistics cover the games before the damage)",
            plural(problems.len(), "damaged file", "damaged files")
        ))));
    }
    Ok(())
}

/// `data stats` as text: a line per file, then the statistics of all of them.
fn write_stats(
    out: &mut dyn Write,
    files: &[serde_json::Value],
    total: &Stats,
    problems: &[String],
) -> anyhow::Result<()> {
    for f in files {
        writeln!(
            out,
            "{}: {} games, {} shard {}/{}, seed {}, {}",
            f["file"].as_str().unwrap_or(""),
            f["games"],
            f["kind"].as_str().unwrap_or(""),
            f["shard"],
            f["shard_count"],
            f["seed"],
            f["program"].as_str().unwrap_or("")
        )?;
    }
    let s = total;
    writeln!(out, "games: {}", s.games)?;
    let approx = if s.distinct_exact { "" } else { "about " };
    writeln!(out, "positions: {} ({approx}{} distinct)", s.positions, s.distinct_positions)?;
    writeln!(
        out,
        "results: white {} / draw {} / black {} (white scores {:.1}%)",
        s.white_wins,
        s.draws,
        s.black_wins,
        100.0 * s.white_score()
    )?;
    for (k, v) in &s.terminations {
        writeln!(out, "  {k}: {v}")?;
    }
    writeln!(
        out,
        "length: avg {:.1}, min {}, max {} turns",
        s.mean_length(),
        s.min_length.unwrap_or(0),
        s.max_length.unwrap_or(0)
    )?;
    for (b, n) in &s.length_histogram {
        let lo = b * fanorona_data::stats::LENGTH_BUCKET;
        writeln!(out, "  {:>4}-{:<4} {n}", lo, lo + fanorona_data::stats::LENGTH_BUCKET - 1)?;
    }
    writeln!(
        out,
        "turns with a search score: {}, exploration turns: {}",
        s.scored_turns, s.exploration_turns
    )?;
    for p in problems {
        writeln!(out, "damaged: {p}")?;
    }
    Ok(())
}

fn validate(a: &ValidateArgs) -> anyhow::Result<()> {
    let mut bad = Vec::new();
    let mut games = 0u64;
    let mut report = Vec::new();
    for f in &a.files {
        let mut n = 0u64;
        let mut file_bad = 0u64;
        match RecordReader::open(f) {
            Err(e) => {
                bad.push(e.to_string());
                file_bad += 1;
            }
            Ok(r) => {
                for (i, rec) in r.enumerate() {
                    match rec {
                        Ok(rec) => {
                            n += 1;
                            if let Err(e) = rec.validate() {
                                file_bad += 1;
                                bad.push(format!("{}: game {i}: {e}", f.display()));
                            }
                        }
                        Err(e) => {
                            file_bad += 1;
                            bad.push(e.to_string());
                        }
                    }
                }
            }
        }
        games += n;
        report.push(serde_json::json!({"file": f.display().to_string(), "games": n, "bad": file_bad}));
    }
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(
            out,
            "{}",
            serde_json::json!({"games": games, "files": report, "problems": bad, "ok": bad.is_empty()})
        )?;
    } else {
        for r in &report {
            writeln!(
                out,
                "{}: {} games, {}",
                r["file"].as_str().unwrap_or(""),
                r["games"],
                plural(r["bad"].as_u64().unwrap_or(0) as usize, "problem", "problems")
            )?;
        }
        for b in &bad {
            writeln!(out, "bad: {b}")?;
        }
    }
    if !bad.is_empty() {
        bail!("{} in {}", plural(bad.len(), "problem", "problems"), plural(games as usize, "game", "games"));
    }
    Ok(())
}

fn find_game(path: &Path, n: u64) -> anyhow::Result<GameRecord> {
    let r = open(path)?;
    let mut count = 0;
    for (i, rec) in r.enumerate() {
        let rec = rec?;
        if i as u64 == n {
            return Ok(rec);
        }
        count += 1;
    }
    Err(bad_input(format!("--game {n}"), format!("{} has {count} games (numbered from 0)", path.display())))
}

fn show(a: &ShowArgs) -> anyhow::Result<()> {
    let rec = find_game(&a.file, a.game)?;
    let fin = rec.final_position();
    let mut out = std::io::stdout().lock();
    if a.json {
        let turns: Vec<_> = rec
            .turns
            .iter()
            .map(|t| {
                serde_json::json!({"turn": t.mv.to_string(), "score": t.info.score, "depth": t.info.depth, "exploration": t.info.exploration})
            })
            .collect();
        let obj = serde_json::json!({
            "game": a.game, "index": rec.index, "white": rec.white, "black": rec.black,
            "start": rec.start.to_string(), "turns": turns,
            "result": rec.outcome.result_str(), "termination": rec.outcome.termination.to_string(),
            "final": fin.as_ref().map(|p| p.to_string()).ok(), "error": fin.as_ref().err().map(|e| e.to_string()),
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    writeln!(
        out,
        "game {} (run index {}): {} (white) vs {} (black)",
        a.game, rec.index, rec.white, rec.black
    )?;
    writeln!(out, "start: {}", rec.start)?;
    for (i, t) in rec.turns.iter().enumerate() {
        let mut line = format!("{:>4}. {} {}", i / 2 + 1, if i % 2 == 0 { "w" } else { "b" }, t.mv);
        if let Some(s) = t.info.score {
            line.push_str(&format!("  score {s}"));
        }
        if let Some(d) = t.info.depth {
            line.push_str(&format!(" depth {d}"));
        }
        if t.info.exploration {
            line.push_str("  (exploration)");
        }
        writeln!(out, "{line}")?;
    }
    writeln!(out, "result: {}", rec.outcome)?;
    match fin {
        Ok(p) => {
            write!(out, "{}", p.diagram())?;
            writeln!(out, "{p}")?;
        }
        Err(e) => writeln!(out, "the game cannot be replayed: {e}")?,
    }
    Ok(())
}

fn export(a: &ExportArgs) -> anyhow::Result<()> {
    if a.format == Format::Npz {
        return super::export_npz::run(
            &a.files,
            a.out.as_deref(),
            a.force,
            a.shard_size,
            (&a.samples, a.encoding),
            a.json,
        );
    }
    let write_all = |w: &mut dyn Write| -> anyhow::Result<u64> {
        let mut n = 0;
        for f in &a.files {
            let reader = open(f)?;
            let tags = super::pgn::export_tags(reader.header());
            for rec in reader {
                let rec = rec?;
                match a.format {
                    Format::Pgn => fanorona_data::pgn::write_game(w, &rec, &tags, None)?,
                    Format::Text => writeln!(
                        w,
                        "{} | {} | {} {}",
                        rec.start,
                        rec.notation(),
                        rec.outcome.result_str(),
                        rec.outcome.termination
                    )?,
                    Format::Jsonl => {
                        let obj = super::export_jsonl::line(&rec, a.positions).map_err(|e| {
                            bad_input(format!("{}: game with run index {}", f.display(), rec.index), e)
                        })?;
                        writeln!(w, "{obj}")?;
                    }
                    Format::Npz => unreachable!("exported above"),
                }
                n += 1;
            }
        }
        Ok(n)
    };
    match &a.out {
        None => {
            let mut out = std::io::stdout().lock();
            write_all(&mut out)?;
        }
        Some(path) => {
            let existing = if a.force { Existing::Replace } else { Existing::Refuse };
            let output = Output::new(path, existing)?;
            if let Some(f) = a.files.iter().find(|f| output.clobbers(f)) {
                return Err(bad_input(
                    format!("--out {}", path.display()),
                    format!("{} is an input: the export would replace it", f.display()),
                ));
            }
            let part = output.write_path();
            let file =
                std::fs::File::create(&part).with_context(|| format!("creating {}", part.display()))?;
            let mut w = std::io::BufWriter::new(file);
            let r = write_all(&mut w).and_then(|n| {
                w.flush()?;
                Ok(n)
            });
            match r {
                Ok(n) => {
                    output.commit()?;
                    eprintln!("wrote {} to {}", plural(n as usize, "game", "games"), path.display());
                }
                Err(e) => {
                    output.abandon();
                    return Err(e);
                }
            }
        }
    }
    Ok(())
}

fn merge_cmd(a: &MergeArgs) -> anyhow::Result<()> {
    let existing = if a.force { Existing::Replace } else { Existing::Refuse };
    let report = merge(&a.inputs, &a.out, existing).context("cannot merge")?;
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        writeln!(
            out,
            "wrote {}: {} games from shards {:?} of {}",
            report.out, report.games, report.shards, report.shard_count
        )?;
        if report.shards.len() < report.shard_count as usize {
            writeln!(out, "note: {} of {} shards present", report.shards.len(), report.shard_count)?;
        }
    }
    Ok(())
}

fn parse_encoding(s: &str) -> Result<fanorona_nn::Encoding, String> {
    s.parse().map_err(|e: fanorona_nn::FormatError| e.to_string())
}
