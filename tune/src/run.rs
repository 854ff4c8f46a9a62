//! A tuning run: iteration after iteration, the draw, the games, the update, the history
//! written atomically, the chart redrawn; resumed where it stopped.

use std::path::Path;
use std::time::Instant;

use fanorona_eval::MatchReport;

use crate::TuneError;
use crate::chart::{CHART_FILE, write_chart};
use crate::config::TuneConfig;
use crate::history::{HISTORY_FILE, History, Iteration};
use crate::play::{iteration_dir, iteration_match, play_here, play_on_cluster};
use crate::spsa::{step, update};

/// What a run reports as it goes.
#[derive(Debug)]
pub enum Event<'a> {
    /// The run starts (or resumes) with `done` of `total` iterations finished.
    Started {
        /// Iterations finished.
        done: u64,
        /// Iterations in all.
        total: u64,
        /// The history so far.
        history: &'a History,
    },
    /// A pair of the iteration in flight finished.
    Games {
        /// The iteration.
        iteration: u64,
        /// Its games done.
        done: u64,
        /// Its games.
        total: u64,
    },
    /// An iteration finished and was saved.
    Iteration {
        /// The run so far, the iteration last.
        history: &'a History,
    },
}

/// Starts or resumes the run of `config` in `dir`: with `resume`, a run already there
/// continues (its settings kept, only `concurrency` and `cluster_command` taken from `config`;
/// `config` must otherwise be its), and one that is not there starts.
///
/// # Errors
/// [`TuneError::RunDir`] when `dir` holds a run and `resume` is not set, or holds another run;
/// the games' errors (a failing cluster command). Engine faults are results.
pub fn run_tune(
    config: &TuneConfig,
    dir: &Path,
    resume: bool,
    events: &mut dyn FnMut(&Event<'_>),
) -> Result<History, TuneError> {
    let mut history = open(config, dir, resume)?;
    events(&Event::Started {
        done: history.iterations.len() as u64,
        total: config.iterations,
        history: &history,
    });
    while !history.finished() {
        let iteration = history.iterations.len() as u64;
        let record = play_iteration(&history, dir, iteration, events)?;
        history.iterations.push(record);
        history.save(dir)?;
        write_chart(&history, &dir.join(CHART_FILE))?;
        let done = iteration_dir(dir, iteration);
        if done.exists() {
            std::fs::remove_dir_all(&done)
                .map_err(|e| TuneError::RunDir { dir: done, reason: e.to_string() })?;
        }
        events(&Event::Iteration { history: &history });
    }
    Ok(history)
}

/// The history to go on from: a new one, or the saved one (with this invocation's concurrency
/// and cluster command), its finished iterations' leftover directories removed.
fn open(config: &TuneConfig, dir: &Path, resume: bool) -> Result<History, TuneError> {
    let bad = |reason: String| TuneError::RunDir { dir: dir.to_path_buf(), reason };
    std::fs::create_dir_all(dir).map_err(|e| bad(e.to_string()))?;
    let Some(mut saved) = History::load(dir)? else {
        let history = History::new(config.clone());
        history.save(dir)?;
        return Ok(history);
    };
    if !resume {
        return Err(bad(format!(
            "holds a tuning run ({HISTORY_FILE}): use --resume to continue it, or another directory"
        )));
    }
    if !saved.config.same_run(config) {
        return Err(bad("holds another tuning run (its settings differ from these)".into()));
    }
    saved.config.concurrency = config.concurrency;
    saved.config.cluster_command.clone_from(&config.cluster_command);
    for i in 0..saved.iterations.len() as u64 {
        let stale = iteration_dir(dir, i);
        if stale.exists() {
            std::fs::remove_dir_all(&stale).map_err(|e| bad(e.to_string()))?;
        }
    }
    Ok(saved)
}

/// Plays iteration `iteration` (continuing its games when a killed run left some) and returns
/// its record with the updated parameters.
fn play_iteration(
    history: &History,
    dir: &Path,
    iteration: u64,
    events: &mut dyn FnMut(&Event<'_>),
) -> Result<Iteration, TuneError> {
    let config = &history.config;
    let theta = history.theta();
    let s = step(config, &theta, iteration);
    let m = iteration_match(config, &s)?;
    let iter_dir = iteration_dir(dir, iteration);
    let (t0, cpu0) = (Instant::now(), process_cpu_seconds());
    let report = if config.cluster_command.trim().is_empty() {
        play_here(&m, &iter_dir, &mut |done, total| events(&Event::Games { iteration, done, total }))?
    } else {
        play_on_cluster(&m, &iter_dir, &config.cluster_command, config.shards, iteration)?
    };
    let record = Iteration {
        wdl: [report.wdl.wins, report.wdl.draws, report.wdl.losses],
        pentanomial: report.pentanomial.0,
        faults: faults(&report),
        theta: Vec::new(),
        seconds: t0.elapsed().as_secs_f64(),
        cpu_seconds: (process_cpu_seconds() - cpu0).max(0.0),
        step: s,
    };
    let theta = update(config, &theta, &record.step, record.result());
    Ok(Iteration { theta, ..record })
}

/// The faults of an iteration's games, as the match runner reports them.
fn faults(report: &MatchReport) -> Vec<String> {
    report
        .faults
        .iter()
        .map(|(game, f)| format!("game {game}: {}: {}", report.engines[f.engine.min(1)], f.reason))
        .collect()
}

/// The processor time of this process so far, in seconds (Linux `/proc/self/stat`, its user
/// and system ticks at 100 a second; 0 elsewhere).
fn process_cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    let Some(rest) = stat.rsplit(')').next() else { return 0.0 };
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (ticks(11) + ticks(12)) / 100.0
}
