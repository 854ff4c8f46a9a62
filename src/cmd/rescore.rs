//! `fanorona data rescore`: the scores of recorded games searched again by another engine.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use fanorona_data::Existing;
use fanorona_engine::PlayerSpec;

use crate::exit::bad_input;

/// Re-label a record file: every searched turn's score replaced by a new search of its
/// position (the turns, results and game identities kept).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The record file to re-score.
    input: PathBuf,
    /// Output record file.
    #[arg(long, short)]
    out: PathBuf,
    /// The searching engine, an alpha-beta spec, e.g. `alphabeta:depth=2,eval=net:best.fnet`.
    #[arg(long, short)]
    engine: String,
    /// Worker threads (0: one per core; at most 1024, searching on at most one per core).
    /// Does not change the output.
    #[arg(long, short, default_value_t = 0, value_parser = super::workers::parse)]
    threads: usize,
    /// Replace an existing output file.
    #[arg(long)]
    force: bool,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress output.
    #[arg(long, short)]
    quiet: bool,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    let spec: PlayerSpec =
        a.engine.parse().map_err(|e| bad_input(format!("invalid --engine spec {:?}", a.engine), e))?;
    if !matches!(spec, PlayerSpec::AlphaBeta(_)) {
        return Err(bad_input("--engine", format!("{spec} does not search: give an alphabeta spec")));
    }
    let bar = (std::io::stderr().is_terminal() && !a.quiet).then(|| {
        let bar = indicatif::ProgressBar::no_length();
        let style =
            indicatif::ProgressStyle::with_template("{elapsed_precise} {pos} games re-scored, {per_sec}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner());
        bar.set_style(style);
        bar
    });
    let existing = if a.force { Existing::Replace } else { Existing::Refuse };
    let mut progress = |done: u64| {
        if let Some(bar) = &bar {
            bar.set_position(done);
        }
    };
    let report = fanorona_selfplay::rescore(&a.input, &a.out, existing, &spec, a.threads, &mut progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let report =
        report.with_context(|| format!("re-scoring {} into {}", a.input.display(), a.out.display()))?;
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::to_string(&report)?)?;
    } else {
        writeln!(
            out,
            "wrote {}: {} games, {} turns re-scored by {spec}, {} unscored turns kept",
            a.out.display(),
            report.games,
            report.rescored,
            report.unscored
        )?;
    }
    Ok(())
}
