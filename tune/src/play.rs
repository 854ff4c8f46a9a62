//! One iteration's games: the plus engine against the minus engine through the match runner
//! of fanorona-eval, here (into `iter-NNNNNN/`, resumed there after a kill) or on a cluster (a
//! job array whose tasks run `fanorona tune shard`, each playing its block of the pairs into
//! `iter-NNNNNN/shard-I/`, merged afterwards as `fanorona eval merge` does).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use fanorona_core::Rng;
use fanorona_data::Shard;
use fanorona_eval::{MatchConfig, MatchReport, OpeningSource, merge_shards, run_match};

use crate::TuneError;
use crate::config::TuneConfig;
use crate::spsa::Step;

/// The match description a cluster's tasks read, in an iteration's directory.
pub const MATCH_FILE: &str = "match.json";
/// The log of array task `%a`, in an iteration's directory (exported as `SBATCH_OUTPUT`).
pub const TASK_LOG_PATTERN: &str = "slurm-%a.out";

/// The directory of iteration `iteration` in the run directory.
pub fn iteration_dir(dir: &Path, iteration: u64) -> PathBuf {
    dir.join(format!("iter-{iteration:06}"))
}

/// The match of `step`: `pairs` pairs of the plus engine (engine 0) against the minus engine,
/// with the iteration's own seed; a file or suite source walks on through its openings, a
/// generated one draws new ones from the seed.
///
/// # Errors
/// When the engines or the openings do not parse (checked when the file was read).
pub fn iteration_match(config: &TuneConfig, step: &Step) -> Result<MatchConfig, TuneError> {
    let plus = config.engine_with(&step.plus, "plus")?;
    let minus = config.engine_with(&step.minus, "minus")?;
    let mut m = MatchConfig::new(plus, minus, config.pairs * 2);
    m.openings = config.opening_source()?;
    m.seed = Rng::derive(config.seed, 0x7E57_0000_0000 ^ step.iteration).next_u64();
    if !matches!(m.openings, OpeningSource::Random { .. } | OpeningSource::Start) {
        m.first_opening = step.iteration.saturating_mul(config.pairs);
    }
    m.concurrency = config.concurrency;
    Ok(m)
}

/// Plays the iteration's match here, into `iter_dir` (resumed when a killed run left it
/// there), calling `progress(games done, games)` after each pair.
///
/// # Errors
/// The match runner's errors.
pub fn play_here(
    m: &MatchConfig,
    iter_dir: &Path,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<MatchReport, TuneError> {
    std::fs::create_dir_all(iter_dir).map_err(|e| dir_error(iter_dir, &e))?;
    let mut m = m.clone();
    m.resume = iter_dir.join(fanorona_eval::state::STATE_FILE).exists();
    m.out = Some(iter_dir.to_path_buf());
    Ok(run_match(&m, &mut |p| progress(p.games, p.planned))?)
}

fn dir_error(dir: &Path, e: &std::io::Error) -> TuneError {
    TuneError::RunDir { dir: dir.to_path_buf(), reason: e.to_string() }
}

/// Plays the iteration's match on the cluster: writes the match to `iter_dir/match.json`, runs
/// `command` (exporting `FANORONA_TUNE_ITERATION`, `FANORONA_SHARD_COUNT` and
/// `SBATCH_OUTPUT`), then merges the shards' directories.
///
/// # Errors
/// [`TuneError::Cluster`] when the command fails or a shard is missing or unfinished (naming
/// the task's log); the merge's errors.
pub fn play_on_cluster(
    m: &MatchConfig,
    iter_dir: &Path,
    command: &str,
    shards: u32,
    iteration: u64,
) -> Result<MatchReport, TuneError> {
    std::fs::create_dir_all(iter_dir).map_err(|e| dir_error(iter_dir, &e))?;
    fanorona_data::rundir::write_json(&iter_dir.join(MATCH_FILE), m)?;
    let status = Command::new("sh")
        .arg("-c")
        .arg(command)
        .env("FANORONA_TUNE_ITERATION", iter_dir)
        .env("FANORONA_SHARD_COUNT", shards.to_string())
        .env("SBATCH_OUTPUT", iter_dir.join(TASK_LOG_PATTERN))
        .stdout(Stdio::from(std::io::stderr()))
        .status()
        .map_err(|e| TuneError::Cluster {
            iteration,
            command: command.into(),
            what: format!("did not start: {e}"),
        })?;
    let dirs: Vec<PathBuf> = (0..shards).map(|i| shard_dir(iter_dir, i)).collect();
    let unfinished: Vec<String> = dirs
        .iter()
        .enumerate()
        .filter(|(_, d)| !fanorona_eval::state::MatchState::load(d).is_ok_and(|s| s.finished))
        .map(|(i, d)| {
            format!("shard {i} ({} unfinished; its log: {})", d.display(), task_log(iter_dir, i).display())
        })
        .collect();
    if !status.success() || !unfinished.is_empty() {
        let what = format!(
            "{}{}",
            if status.success() {
                "left shards unfinished: ".to_string()
            } else {
                format!("failed ({status}); ")
            },
            unfinished.join("; ")
        );
        return Err(TuneError::Cluster { iteration, command: command.into(), what });
    }
    let merged = iter_dir.join("merged");
    if merged.exists() {
        std::fs::remove_dir_all(&merged).map_err(|e| dir_error(&merged, &e))?;
    }
    Ok(merge_shards(&dirs, &merged)?.report)
}

/// The directory of shard `index` of an iteration.
pub fn shard_dir(iter_dir: &Path, index: u32) -> PathBuf {
    iter_dir.join(format!("shard-{index}"))
}

fn task_log(iter_dir: &Path, index: usize) -> PathBuf {
    iter_dir.join(TASK_LOG_PATTERN.replace("%a", &index.to_string()))
}

/// A cluster task: plays shard `shard` of the match in `iter_dir/match.json` into its shard
/// directory on `concurrency` threads, continuing it when a requeued task finds it started.
///
/// # Errors
/// [`TuneError::RunDir`] when the match file cannot be read; the match runner's errors.
pub fn play_shard(iter_dir: &Path, shard: Shard, concurrency: usize) -> Result<MatchReport, TuneError> {
    let path = iter_dir.join(MATCH_FILE);
    let mut m: MatchConfig = fanorona_data::rundir::read_json(&path)?.ok_or_else(|| TuneError::RunDir {
        dir: iter_dir.to_path_buf(),
        reason: format!("no {MATCH_FILE}"),
    })?;
    let dir = shard_dir(iter_dir, shard.index);
    std::fs::create_dir_all(&dir).map_err(|e| dir_error(&dir, &e))?;
    m.shard = Some(shard);
    m.concurrency = concurrency.max(1);
    m.resume = dir.join(fanorona_eval::state::STATE_FILE).exists();
    m.out = Some(dir);
    Ok(run_match(&m, &mut |_| {})?)
}
