//! `fanorona solve suite`: a suite of positions from real games with proven values (the
//! endgame tables', or the solver's with its certificates checked) and the turns that keep
//! them; `fanorona solve errors` ([`super::solve_errors`]) measures engines on it.

use std::io::Write;
use std::path::{Path, PathBuf};

use fanorona_core::Position;
use fanorona_data::{Existing, Output, RecordReader};
use fanorona_solve::SolveOptions;
use fanorona_solve::suite::{BuildOptions, BuildReport, Suite, build};
use fanorona_tb::Tablebase;

use crate::exit::bad_input;

/// The subcommands of `fanorona solve` beside proving one position.
#[derive(Debug, clap::Subcommand)]
pub enum Proven {
    /// Build a suite of positions with proven values from real games (record files of
    /// self-play, the loop or matches): positions the tables cover take their values from
    /// them, larger ones are given to the solver and kept only when every turn is proven.
    Suite(SuiteArgs),
    /// Measure engines against a proven suite: the share of positions where the turn an
    /// engine chooses gives the proven value away, with a 95 % interval.
    Errors(super::solve_errors::ErrorsArgs),
}

/// Runs a subcommand.
pub fn run(p: &Proven) -> anyhow::Result<()> {
    match p {
        Proven::Suite(a) => run_suite(a),
        Proven::Errors(a) => super::solve_errors::run(a),
    }
}

#[derive(Debug, clap::Args)]
pub struct SuiteArgs {
    /// Record files whose games' positions are drawn from (self-play, a loop's, a match's
    /// games.bin).
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    games: Vec<PathBuf>,
    /// The endgame tables (`fanorona tb generate`): the values of the positions they cover.
    #[arg(long, value_name = "DIR")]
    tb: PathBuf,
    /// The suite file to write.
    #[arg(long, short = 'o', value_name = "SUITE")]
    out: PathBuf,
    /// Positions wanted (fewer when the games hold too few).
    #[arg(long, default_value_t = 400)]
    positions: usize,
    /// The fewest stones of a position.
    #[arg(long, default_value_t = 3)]
    min_stones: u32,
    /// The most stones of a position (default: 3 more than the tables'; beyond the tables
    /// every turn is given to the solver).
    #[arg(long)]
    max_stones: Option<u32>,
    /// The solver's budget: nodes per question (a position beyond the tables asks one or
    /// two).
    #[arg(long, default_value_t = 50_000)]
    nodes: u64,
    /// The solver's transposition table per question, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 32)]
    memory: u64,
    /// Seed of the draw of positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Replace an existing file.
    #[arg(long)]
    force: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The most MiB of transposition table a question may take here.
const MAX_MEMORY_MIB: u64 = 4096;

fn run_suite(a: &SuiteArgs) -> anyhow::Result<()> {
    let tb = Tablebase::open(&a.tb)
        .map_err(|e| bad_input(format!("opening the tables in {}", a.tb.display()), e))?;
    if a.memory == 0 || a.memory > MAX_MEMORY_MIB {
        return Err(bad_input("--memory", format!("must be 1..={MAX_MEMORY_MIB} MiB")));
    }
    if a.nodes == 0 {
        return Err(bad_input("--nodes", "must be 1 or more"));
    }
    let max_stones = a.max_stones.unwrap_or(tb.max_stones() + 3);
    let opts = BuildOptions {
        positions: a.positions,
        min_stones: a.min_stones,
        max_stones,
        seed: a.seed,
        solve: SolveOptions {
            memory: a.memory << 20,
            nodes: a.nodes,
            rebuild: a.nodes,
            ..SolveOptions::default()
        },
    };
    let out = Output::new(&a.out, if a.force { Existing::Replace } else { Existing::Refuse })?;
    if let Some(f) = a.games.iter().find(|f| out.clobbers(f)) {
        return Err(bad_input("--out", format!("{} is also an input", f.display())));
    }
    let (positions, games) = read_games(&a.games, (a.min_stones, max_stones))?;
    let bar = super::progress_bar(
        a.json,
        0,
        "{elapsed_precise} [{bar:30}] {pos}/{len} positions tried, {msg} ({eta})",
    );
    let (mut suite, report) = build(positions, &tb, &opts, &mut |p| {
        bar.set_length(p.candidates as u64);
        bar.set_position(p.tried as u64);
        bar.set_message(format!("{}/{} kept", p.kept, p.wanted));
    })
    .map_err(|e| match e.is_bad_input() {
        true => bad_input("solve suite", e),
        false => anyhow::Error::new(e),
    })?;
    bar.finish_and_clear();
    if suite.entries.is_empty() {
        return Err(bad_input(
            "--games",
            format!(
                "no position of {}..={max_stones} stones in these games has a proven value and a wrong turn",
                a.min_stones
            ),
        ));
    }
    suite.comments = comments(a, max_stones, games);
    fanorona_data::rundir::write_atomic(&out.write_path(), suite.to_text().as_bytes())?;
    out.commit()?;
    print_build(a, &suite, &report, games)
}

/// Every position within `stones` of every game of the files (each turn checked), and how many
/// games were read.
fn read_games(files: &[PathBuf], (lo, hi): (u32, u32)) -> anyhow::Result<(Vec<Position>, usize)> {
    let mut out = Vec::new();
    let mut games = 0;
    for path in files {
        let reader = RecordReader::open(path)?;
        for (i, rec) in reader.enumerate() {
            let rec = rec?;
            let mut keep = |p: &Position| {
                if (lo..=hi).contains(&p.occupied().count()) {
                    out.push(*p);
                }
            };
            let last = rec
                .for_each_position(|_, p, _| keep(p))
                .map_err(|e| bad_input(format!("{}: game {i}", path.display()), e))?;
            keep(&last);
            games += 1;
        }
    }
    Ok((out, games))
}

fn comments(a: &SuiteArgs, max_stones: u32, games: usize) -> Vec<String> {
    let files: Vec<String> = a.games.iter().map(|f| name_of(f)).collect();
    vec![
        "built by fanorona solve suite".into(),
        format!("games: {} ({games} games)", files.join(" ")),
        format!(
            "positions of {}..={max_stones} stones, seed {}, the solver's budget {} nodes a question",
            a.min_stones, a.seed, a.nodes
        ),
    ]
}

/// A file's name without its directories (the suite does not record where it was built).
fn name_of(f: &Path) -> String {
    f.file_name().map_or_else(|| f.display().to_string(), |n| n.to_string_lossy().into_owned())
}

fn print_build(a: &SuiteArgs, suite: &Suite, r: &BuildReport, games: usize) -> anyhow::Result<()> {
    let mut stdout = std::io::stdout().lock();
    let by_stones: serde_json::Map<String, serde_json::Value> = r
        .by_stones
        .iter()
        .map(|(s, c)| {
            let v = serde_json::json!({
                "candidates": c.candidates, "kept": c.kept, "skipped": c.skipped, "dropped": c.dropped,
            });
            (s.to_string(), v)
        })
        .collect();
    let by_value: serde_json::Map<String, serde_json::Value> =
        r.by_value.iter().map(|(v, n)| (v.to_string(), (*n).into())).collect();
    let bytes = std::fs::metadata(&a.out).map_or(0, |m| m.len());
    if a.json {
        let doc = serde_json::json!({
            "suite": a.out.display().to_string(),
            "bytes": bytes,
            "tables": suite.tables,
            "games": games,
            "positions": suite.entries.len(),
            "skipped": suite.skipped,
            "dropped": suite.dropped,
            "by_value": by_value,
            "by_stones": by_stones,
            "solver": {
                "positions": r.prover.solved, "proven": r.prover.proven, "uncertified": r.prover.uncertified,
                "nodes": r.prover.nodes, "seconds": r.prover.seconds,
            },
            "seconds": r.seconds,
        });
        writeln!(stdout, "{doc}")?;
        return Ok(());
    }
    writeln!(
        stdout,
        "{}: {} positions ({bytes} bytes) from {games} games, tables up to {} stones; {} skipped (every turn keeps the value), {} dropped (a turn not proven)",
        a.out.display(),
        suite.entries.len(),
        suite.tables,
        suite.skipped,
        suite.dropped
    )?;
    let values: Vec<String> = r.by_value.iter().map(|(v, n)| format!("{n} {v}")).collect();
    writeln!(stdout, "values: {}", values.join(", "))?;
    writeln!(stdout, "stones  candidates  kept  skipped  dropped")?;
    for (s, c) in &r.by_stones {
        writeln!(stdout, "{s:>6}  {:>10}  {:>4}  {:>7}  {:>7}", c.candidates, c.kept, c.skipped, c.dropped)?;
    }
    writeln!(
        stdout,
        "solver: {} positions, {} proven, {} nodes in {:.1} s; {:.1} s in all",
        r.prover.solved, r.prover.proven, r.prover.nodes, r.prover.seconds, r.seconds
    )?;
    Ok(())
}
