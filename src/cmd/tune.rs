//! `fanorona tune`: SPSA tuning of an engine spec's numbers by games (the `fanorona-tune`
//! crate): the tuning file, the progress bar with the current values, the summary.

use std::io::Write;
use std::path::{Path, PathBuf};

use fanorona_tune::{Event, History, TuneConfig, read_config, run_tune};
use indicatif::ProgressBar;

use crate::exit::bad_input;

/// Tune numbers of an engine spec (search knobs, handcrafted weights) by SPSA, as fishtest and
/// OpenBench do: each iteration plays the numbers nudged up against them nudged down and moves
/// them towards the winner. `DIR/history.json` holds every iteration, `DIR/params.png` charts
/// the numbers; a killed run continues with `--resume`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The tuning file (TOML; docs/guide/tune.md). With `--resume`, the run's own settings
    /// are used when it is left out.
    config: Option<PathBuf>,
    /// The run directory.
    #[arg(short, long)]
    out: Option<PathBuf>,
    /// Continue the run in the directory (or start it when there is none yet).
    #[arg(long)]
    resume: bool,
    /// Games played at once (instead of the file's `concurrency`).
    #[arg(short, long)]
    concurrency: Option<usize>,
    /// Check the tuning file and print the schedule (each number's perturbation and step at
    /// the first and last iteration), playing nothing.
    #[arg(long, conflicts_with_all = ["out", "resume"])]
    check: bool,
    /// Print one JSON summary instead of text.
    #[arg(long)]
    json: bool,
    /// No progress output.
    #[arg(short, long)]
    quiet: bool,
    /// Play one shard of a cluster iteration (a job array task: the shard from
    /// SLURM_ARRAY_TASK_ID; tune/tune-array.sbatch runs this).
    #[arg(long, value_name = "ITERATION_DIR", conflicts_with_all = ["config", "out", "resume"])]
    shard_task: Option<PathBuf>,
}

pub fn run(a: &Args) -> anyhow::Result<()> {
    if let Some(iter_dir) = &a.shard_task {
        return shard_task(iter_dir, a.concurrency);
    }
    if a.check {
        let file = a.config.as_deref().ok_or_else(|| bad_input("--check", "give the tuning file"))?;
        return check(&read_config(file)?, a.json);
    }
    let out = a.out.as_deref().ok_or_else(|| bad_input("tune", "-o DIR (the run directory) is required"))?;
    let mut config = load(a, out)?;
    if let Some(c) = a.concurrency {
        if c == 0 {
            return Err(bad_input("--concurrency", "must be at least 1"));
        }
        config.concurrency = c;
    }
    let bar = super::progress_bar(
        a.json || a.quiet,
        config.iterations,
        "{elapsed_precise} [{bar:25}] {pos}/{len} iterations ({eta}) {prefix}\n  {msg}",
    );
    let mut lines =
        Lines { every: (config.iterations / 10).max(1), quiet: a.json || a.quiet || !bar.is_hidden() };
    let history = run_tune(&config, out, a.resume, &mut |e| show(e, &bar, &mut lines));
    bar.finish_and_clear();
    summary(a, out, &history?)
}

/// The settings: the file's, or with `--resume` and no file the saved run's.
fn load(a: &Args, out: &Path) -> anyhow::Result<TuneConfig> {
    match (&a.config, a.resume) {
        (Some(file), _) => Ok(read_config(file)?),
        (None, true) => match History::load(out)? {
            Some(h) => Ok(h.config),
            None => Err(bad_input(
                "--resume",
                format!("{} holds no tuning run; give the tuning file", out.display()),
            )),
        },
        (None, false) => Err(bad_input("tune", "a tuning file is required (or --resume -o DIR)")),
    }
}

/// Progress lines off a terminal: one every `every` iterations.
struct Lines {
    every: u64,
    quiet: bool,
}

fn show(e: &Event<'_>, bar: &ProgressBar, lines: &mut Lines) {
    match e {
        Event::Started { done, history, .. } => {
            bar.set_position(*done);
            bar.set_message(values(history));
        }
        Event::Games { iteration, done, total } => {
            bar.set_prefix(format!("iteration {} games {done}/{total}", iteration + 1));
        }
        Event::Iteration { history } => {
            let done = history.iterations.len() as u64;
            bar.set_position(done);
            bar.set_message(values(history));
            if let Some(it) = history.iterations.last() {
                for f in &it.faults {
                    bar.suspend(|| eprintln!("iteration {}: fault: {f}", done));
                }
            }
            if !lines.quiet && (done.is_multiple_of(lines.every) || history.finished()) {
                eprintln!("iteration {done}/{}: {}", history.config.iterations, values(history));
            }
        }
    }
}

/// The current values: `lmr_base 112.4, threatened 31.0`.
fn values(history: &History) -> String {
    let theta = history.theta();
    history
        .config
        .params
        .iter()
        .zip(&theta)
        .map(|(p, v)| format!("{} {v:.1}", p.name))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The tuned spec: the engine with every number rounded.
fn tuned_spec(history: &History) -> String {
    let theta = history.theta();
    let values: Vec<i64> = theta.iter().map(|v| v.round() as i64).collect();
    history.config.engine_with(&values, "tuned").map(|e| e.to_string()).unwrap_or_default()
}

fn summary(a: &Args, out: &Path, history: &History) -> anyhow::Result<()> {
    let its = &history.iterations;
    let games: u64 = its.iter().map(|i| i.wdl.iter().sum::<u64>()).sum();
    let faults: usize = its.iter().map(|i| i.faults.len()).sum();
    let cpu: f64 = its.iter().map(|i| i.cpu_seconds).sum();
    let theta = history.theta();
    let mut stdout = std::io::stdout().lock();
    if a.json {
        let params: serde_json::Map<String, serde_json::Value> =
            history.config.params.iter().zip(&theta).map(|(p, v)| (p.name.clone(), (*v).into())).collect();
        let doc = serde_json::json!({
            "dir": out.display().to_string(),
            "iterations": its.len(),
            "games": games,
            "faults": faults,
            "cpu_seconds": cpu,
            "params": params,
            "tuned": tuned_spec(history),
        });
        writeln!(stdout, "{doc}")?;
        return Ok(());
    }
    writeln!(
        stdout,
        "{}: {} iterations, {games} games ({faults} decided by a fault), {cpu:.0} s of processor time",
        out.display(),
        its.len()
    )?;
    for (p, v) in history.config.params.iter().zip(&theta) {
        writeln!(stdout, "  {:<12} {:>9.2} (start {}, {}..{})", p.name, v, p.start, p.min, p.max)?;
    }
    writeln!(stdout, "tuned: {}", tuned_spec(history))?;
    Ok(())
}

/// `--check`: the schedule of every number at the first and the last iteration.
fn check(config: &TuneConfig, json: bool) -> anyhow::Result<()> {
    let theta: Vec<f64> = config.params.iter().map(|p| p.start).collect();
    let steps = [0, config.iterations - 1].map(|i| fanorona_tune::spsa::step(config, &theta, i));
    let mut stdout = std::io::stdout().lock();
    let rows: Vec<serde_json::Value> = config
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            serde_json::json!({
                "name": p.name, "start": p.start, "min": p.min, "max": p.max,
                "c_first": steps[0].c[i], "c_last": steps[1].c[i],
                "step_per_game_first": steps[0].r[i] * steps[0].c[i],
                "step_per_game_last": steps[1].r[i] * steps[1].c[i],
            })
        })
        .collect();
    if json {
        writeln!(
            stdout,
            "{}",
            serde_json::json!({ "pairs": config.iterations * config.pairs, "params": rows })
        )?;
        return Ok(());
    }
    writeln!(
        stdout,
        "{} iterations of {} pairs ({} games), {} numbers; perturbation c_k and move per game won a_k/c_k, first and last iteration:",
        config.iterations,
        config.pairs,
        config.iterations * config.pairs * 2,
        config.params.len()
    )?;
    for r in &rows {
        let f = |k: &str| r[k].as_f64().unwrap_or(0.0);
        writeln!(
            stdout,
            "  {:<12} start {:>7} in {}..{}: c {:.2} -> {:.2}, move {:.4} -> {:.4}",
            r["name"].as_str().unwrap_or(""),
            f("start"),
            f("min"),
            f("max"),
            f("c_first"),
            f("c_last"),
            f("step_per_game_first"),
            f("step_per_game_last")
        )?;
    }
    Ok(())
}

/// `--shard-task`: one array task's shard of an iteration's pairs.
fn shard_task(iter_dir: &Path, concurrency: Option<usize>) -> anyhow::Result<()> {
    let shard = fanorona_data::Shard::from_env(|k| std::env::var(k).ok(), None)
        .map_err(|e| bad_input("shard", e))?
        .ok_or_else(|| bad_input("--shard-task", "no shard in the environment (SLURM_ARRAY_TASK_ID)"))?;
    let r = fanorona_tune::play::play_shard(iter_dir, shard, concurrency.unwrap_or(1))?;
    eprintln!("{}: shard {shard}: {} games", iter_dir.display(), r.games);
    Ok(())
}
