//! `fanorona suite`: opening suites by analysis: build one, check one.

use std::io::Write;
use std::path::PathBuf;

use fanorona_data::{Existing, Output};
use fanorona_engine::PlayerSpec;
use fanorona_eval::suite::{BuildReport, EmbeddedSuite, Suite, SuiteBuild, build_suite};

use crate::exit::bad_input;

/// Opening suites: positions a few turns from the start, each scored by a deep search, kept
/// when the score lies in a window (level ones, or ones where a side is somewhat ahead), for
/// `--openings FILE` (each played with both colours).
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Build a suite: every position the turns reach, decided ones and symmetric copies left
    /// out, a sample searched, those whose score lies in the window kept.
    Build(BuildArgs),
    /// Read a suite file (or `suite:NAME`, one built in) and check every entry.
    Check(CheckArgs),
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// The suite file to write.
    #[arg(short, long)]
    out: PathBuf,
    /// Turns from the start position.
    #[arg(long, default_value_t = 4)]
    plies: u32,
    /// The analysing engine, an alpha-beta spec with a depth or node limit (the same suite
    /// whatever the threads).
    #[arg(short, long, default_value = "alphabeta:depth=9,eval=embedded")]
    engine: String,
    /// The lead of the side ahead kept, `LO..HI` centi-stones (both included): `0..20` for
    /// level openings, `60..150` for openings where a side is somewhat ahead.
    #[arg(long, default_value = "0..20")]
    window: String,
    /// Positions analysed at most, drawn at random (all by default).
    #[arg(long)]
    sample: Option<usize>,
    /// Entries kept at most.
    #[arg(long, default_value_t = 1000)]
    max_entries: usize,
    /// Choose from the entries of this suite (one built with a wider window) by their scores
    /// instead of searching: `--engine`, `--plies`, `--sample` and `--seed` do not apply.
    #[arg(long)]
    from: Option<PathBuf>,
    /// Seed of the sample and of the entries' order.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions searched at once (0: one per core).
    #[arg(short, long, default_value_t = 0)]
    threads: usize,
    /// Replace an existing file.
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
struct CheckArgs {
    /// The suite file, or `suite:NAME` for one built in.
    suite: String,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.command {
        Command::Build(a) => build(a),
        Command::Check(a) => check(a),
    }
}

/// `LO..HI`, two whole numbers.
fn parse_window(text: &str) -> anyhow::Result<(i32, i32)> {
    let bad = || bad_input("--window", format!("{text:?} is not LO..HI (centi-stones, e.g. 0..20)"));
    let (lo, hi) = text.split_once("..").ok_or_else(bad)?;
    Ok((lo.trim().parse().map_err(|_| bad())?, hi.trim().parse().map_err(|_| bad())?))
}

fn build(a: &BuildArgs) -> anyhow::Result<()> {
    if let Some(from) = &a.from {
        return choose(a, from);
    }
    let search: PlayerSpec =
        a.engine.parse().map_err(|e| bad_input(format!("invalid --engine spec {:?}", a.engine), e))?;
    let threads = if a.threads == 0 { fanorona_engine::search::available_threads() } else { a.threads };
    let cfg = SuiteBuild {
        plies: a.plies,
        search,
        window: parse_window(&a.window)?,
        sample: a.sample,
        max_entries: a.max_entries,
        seed: a.seed,
        threads,
    };
    let out = Output::new(&a.out, if a.force { Existing::Replace } else { Existing::Refuse })?;
    let bar = super::progress_bar(
        a.json || a.quiet,
        0,
        "{elapsed_precise} [{bar:30}] {pos}/{len} positions analysed, {msg} ({eta})",
    );
    let report = build_suite(&cfg, &mut |p| {
        bar.set_length(p.total as u64);
        bar.set_position(p.done as u64);
        bar.set_message(format!("{} kept", p.kept));
    });
    bar.finish_and_clear();
    let report = report?;
    fanorona_data::rundir::write_atomic(&out.write_path(), report.suite.to_text().as_bytes())?;
    out.commit()?;
    print_build(a, &cfg, &report)
}

/// `build --from`: the entries of an analysed suite within the window.
fn choose(a: &BuildArgs, from: &std::path::Path) -> anyhow::Result<()> {
    let window = parse_window(&a.window)?;
    let out = Output::new(&a.out, if a.force { Existing::Replace } else { Existing::Refuse })?;
    if out.clobbers(from) {
        return Err(bad_input("--out", format!("{} is also the input", from.display())));
    }
    let all = Suite::read(from)?;
    let suite = all.within(window, a.max_entries);
    if suite.entries.is_empty() {
        return Err(bad_input(
            "--window",
            format!(
                "none of the {} entries of {} has a lead of {}..{}",
                all.entries.len(),
                from.display(),
                window.0,
                window.1
            ),
        ));
    }
    fanorona_data::rundir::write_atomic(&out.write_path(), suite.to_text().as_bytes())?;
    out.commit()?;
    let mut stdout = std::io::stdout().lock();
    if a.json {
        let doc = serde_json::json!({
            "suite": a.out.display().to_string(),
            "from": from.display().to_string(),
            "entries": suite.entries.len(),
            "candidates": all.entries.len(),
            "window": [window.0, window.1],
        });
        writeln!(stdout, "{doc}")?;
    } else {
        writeln!(
            stdout,
            "{}: {} entries of the {} of {} with a lead of {}..{}",
            a.out.display(),
            suite.entries.len(),
            all.entries.len(),
            from.display(),
            window.0,
            window.1
        )?;
    }
    Ok(())
}

fn print_build(a: &BuildArgs, cfg: &SuiteBuild, r: &BuildReport) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    if a.json {
        let mut doc = serde_json::to_value(r)?;
        doc["suite"] = a.out.display().to_string().into();
        doc["entries"] = r.suite.entries.len().into();
        doc["engine"] = cfg.search.to_string().into();
        doc["window"] = serde_json::json!([cfg.window.0, cfg.window.1]);
        writeln!(stdout, "{doc}")?;
        return Ok(());
    }
    writeln!(
        stdout,
        "{}: {} entries; {} positions after {} turns, {} undecided, {} without symmetric copies, {} analysed by {}, {} forced, {} with a lead of {}..{}",
        a.out.display(),
        r.suite.entries.len(),
        r.reachable,
        cfg.plies,
        r.undecided,
        r.distinct,
        r.analysed,
        cfg.search,
        r.forced,
        r.in_window,
        cfg.window.0,
        cfg.window.1
    )?;
    Ok(())
}

fn check(a: &CheckArgs) -> anyhow::Result<()> {
    let suite = match a.suite.strip_prefix("suite:") {
        Some(name) => EmbeddedSuite::from_name(name)
            .ok_or_else(|| bad_input("suite", format!("no suite {name:?} is built in")))?
            .suite()?,
        None => Suite::read(std::path::Path::new(&a.suite))?,
    };
    let scores: Vec<i32> = suite.entries.iter().map(|e| e.score).collect();
    let mean_lead = scores.iter().map(|s| f64::from(s.abs())).sum::<f64>() / scores.len().max(1) as f64;
    let mut stdout = std::io::stdout().lock();
    if a.json {
        let doc = serde_json::json!({
            "suite": a.suite,
            "entries": suite.entries.len(),
            "comments": suite.comments,
            "mean_lead": mean_lead,
            "min_score": scores.iter().min(),
            "max_score": scores.iter().max(),
        });
        writeln!(stdout, "{doc}")?;
        return Ok(());
    }
    for c in &suite.comments {
        writeln!(stdout, "# {c}")?;
    }
    writeln!(
        stdout,
        "{}: {} entries, every one legal and undecided; scores {} to {}, mean lead {mean_lead:.1} centi-stones",
        a.suite,
        suite.entries.len(),
        scores.iter().min().unwrap_or(&0),
        scores.iter().max().unwrap_or(&0)
    )?;
    Ok(())
}
