//! `fanorona loop`: the self-improvement loop (self-play, train, gate, promote, repeat).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use fanorona_loop::{Event, LoopConfig, finished, run};
use indicatif::{ProgressBar, ProgressStyle};

use crate::exit::bad_input;

/// Run the self-improvement loop: generate games with the current best engine, train a value
/// network on them, gate it in a match against the best, promote it if it wins, repeat; then
/// play the best network against the engine it started from.
///
/// Everything goes to the run directory (`--out`): games, checkpoints, metrics, matches,
/// `summary.json`, `report.md`, `ratings.png`, `losses.png`. A killed run continues with
/// `--resume`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Loop configuration (TOML); missing fields take the built-in defaults.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Run directory.
    #[arg(long, default_value = "runs/default")]
    out: PathBuf,
    /// Number of generations (overrides the configuration; with --resume, raises the run's
    /// own count, which is kept otherwise).
    #[arg(long)]
    generations: Option<u32>,
    /// Continue the run in `--out` where it stopped, with its saved configuration (a finished
    /// run is left as it is).
    #[arg(long)]
    resume: bool,
    /// With --resume and --config: replace the run's saved configuration by the file's (checked
    /// first), for a run stopped by a setting that cannot work; stages already done are kept,
    /// the others run with the new settings.
    #[arg(long, requires_all = ["resume", "config"])]
    amend: bool,
    /// Print the final summary as JSON.
    #[arg(long)]
    json: bool,
    /// Print the resolved configuration (the file and --generations over every default) as
    /// TOML, and exit without running.
    #[arg(long)]
    print_config: bool,
}

pub fn run_cmd(args: &Args) -> anyhow::Result<()> {
    let config = resolve(args)?;
    if args.print_config {
        print!("{}", config.to_toml()?);
        return Ok(());
    }
    if args.resume && finished(&args.out).context("loop")? == Some(config.generations) {
        eprintln!(
            "{}: the run is finished ({} generations); nothing to do (--generations N continues it)",
            args.out.display(),
            config.generations
        );
        if args.json {
            let summary = std::fs::read_to_string(args.out.join("summary.json"))?;
            writeln!(std::io::stdout().lock(), "{}", summary.trim())?;
        }
        return Ok(());
    }
    let tty = std::io::stderr().is_terminal();
    let bar = if tty { ProgressBar::new(0) } else { ProgressBar::hidden() };
    bar.set_style(
        ProgressStyle::with_template("{prefix:>18} [{bar:30}] {pos}/{len} {msg} ({elapsed}, ETA {eta})")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    let generations = config.generations;
    let mut on_event = |e: &Event| match e {
        Event::Stage { generation, stage, done } => {
            let what = if *generation == 0 {
                stage.to_string()
            } else {
                format!("gen {generation}/{generations} {stage}")
            };
            if *done {
                bar.println(format!("{what}: already done"));
            } else {
                bar.set_prefix(what.clone());
                bar.set_position(0);
                bar.set_message("");
                if !tty {
                    eprintln!("{what} ...");
                }
            }
        }
        Event::Progress { done, total, message } => {
            bar.set_length(*total);
            bar.set_position(*done);
            bar.set_message(message.clone());
        }
        Event::Finished { message } => {
            let line = format!("{}: {message}", bar.prefix());
            if tty {
                bar.println(line);
            } else {
                eprintln!("{line}");
            }
        }
    };
    let record = run(&config, &args.out, args.resume, &mut on_event).context("loop")?;
    bar.finish_and_clear();
    let summary = std::fs::read_to_string(args.out.join("summary.json"))?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", summary.trim())?;
    } else {
        let report = std::fs::read_to_string(args.out.join("report.md"))?;
        writeln!(out, "{report}")?;
        writeln!(out, "best: generation {} ({})", record.best.generation, record.best.eval)?;
        writeln!(out, "run directory: {}", args.out.display())?;
    }
    Ok(())
}

/// The configuration to run with. A new run: `--config` (or the defaults) and
/// `--generations`. A resumed run: the run's own `loop.toml`, with only what the command line
/// gives explicitly on top (`--generations`, or `generations` set in `--config`); `--config`
/// must otherwise agree with the saved settings.
fn resolve(args: &Args) -> anyhow::Result<LoopConfig> {
    let saved_path = args.out.join("loop.toml");
    if args.resume && !saved_path.exists() {
        return Err(bad_input(
            "--resume",
            format!(
                "nothing to resume in {}: it holds no run (no loop.toml); start a run there without --resume",
                args.out.display()
            ),
        ));
    }
    let file = match &args.config {
        Some(p) => Some(LoopConfig::from_file_explicit(p).map_err(|e| bad_input("--config", e))?),
        None => None,
    };
    if let (true, Some((file, explicit))) = (args.amend && !args.print_config, &file) {
        let mut fixed = file.clone();
        // The run's own count unless the command line or the file sets one.
        let saved_generations = LoopConfig::from_file(&saved_path).map(|c| c.generations);
        fixed.generations =
            args.generations.or(*explicit).or(saved_generations.ok()).unwrap_or(fixed.generations);
        let changed = fanorona_loop::amend(&args.out, &fixed).context("loop --amend")?;
        eprintln!(
            "{}: the run's configuration amended{}",
            saved_path.display(),
            if changed.is_empty() {
                " (nothing changed)".to_string()
            } else {
                format!(" in {}", changed.join(", "))
            }
        );
    }
    let mut config = if args.resume && saved_path.exists() {
        let saved = LoopConfig::from_file(&saved_path)
            .map_err(|e| bad_input(format!("the run's configuration {}", saved_path.display()), e))?;
        let mut config = saved.clone();
        if let Some((file, explicit)) = &file {
            let differ = saved.differences(file);
            if !differ.is_empty() {
                return Err(bad_input(
                    "--config",
                    format!(
                        "it differs from the run's own {} in {}: a resumed run keeps its settings \
                         (only the generations may be raised)",
                        saved_path.display(),
                        differ.join(", ")
                    ),
                ));
            }
            if let Some(g) = explicit {
                config.generations = *g;
            }
        }
        config
    } else {
        file.map(|(c, _)| c).unwrap_or_default()
    };
    if let Some(g) = args.generations {
        config.generations = g;
    }
    config.check().map_err(|e| bad_input("configuration", e))?;
    Ok(config)
}
