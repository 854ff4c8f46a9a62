//! Self-play on a cluster: the loop runs the configured command (a job array), which writes one
//! shard file per task with `fanorona selfplay`, then joins the shards into the file that the
//! same self-play run here would have written.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use fanorona_data::Shard;
use fanorona_data::stats::Stats;
use fanorona_data::{DataError, Existing, Output, RecordReader, RecordWriter};
use fanorona_selfplay::{Exploration, SelfplayConfig};

use crate::error::MissingShard;
use crate::{LoopError, SelfplayStage};

/// The log of array task `%a` (Slurm's `--output` pattern), in the shard directory: the loop
/// exports it as `SBATCH_OUTPUT`, so that a failed task's log can be named.
pub const TASK_LOG_PATTERN: &str = "slurm-%a.out";

/// Lines of a failed task's log quoted in the error.
const LOG_TAIL_LINES: usize = 8;

/// Failed shards whose logs are quoted (the others are named).
const LOGS_QUOTED: usize = 3;

/// The `fanorona selfplay` arguments of one shard of `sp` (the shard comes from the job
/// array's environment; `{shard}` in `--out` names each task's file, as [`Shard::path`] does;
/// `--total-games` splits the run's games over the shards as [`Shard::split`] does).
pub fn shard_args(sp: &SelfplayConfig, shards: u32, out_pattern: &Path) -> String {
    let exploration = match sp.exploration {
        Exploration::Temperature(t) => format!("--temperature {t}"),
        Exploration::Epsilon(e) => format!("--epsilon {e}"),
        Exploration::None => "--explore-plies 0".into(),
    };
    format!(
        "--total-games {} --white {} --black {} --seed {} --random-plies {} --explore-plies {} {exploration} \
         --max-plies {} --max-quiet-plies {} --shard-count {shards} --out {} --resume --quiet",
        sp.run_games.unwrap_or(sp.games),
        sp.white,
        sp.black,
        sp.seed,
        sp.random_plies,
        sp.explore_plies,
        sp.rules.max_plies,
        sp.rules.max_quiet_plies,
        out_pattern.display(),
    )
}

/// The log file of shard `shard`'s task (array task `shard`, the array counting from 0).
pub fn task_log(dir: &Path, shard: u32) -> PathBuf {
    dir.join(TASK_LOG_PATTERN.replace("%a", &shard.to_string()))
}

/// The last [`LOG_TAIL_LINES`] lines of `log`, or `None` when it cannot be read.
fn log_tail(log: &Path) -> Option<String> {
    let bytes = std::fs::read(log).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    Some(lines[lines.len().saturating_sub(LOG_TAIL_LINES)..].join("\n"))
}

/// Runs the cluster command for generation `generation`, then joins its shards into `games`
/// (the file this self-play run would have written here, byte for byte); returns the joined
/// file's statistics.
///
/// # Errors
/// [`LoopError::Cluster`] when the command fails or a shard is missing (naming each missing
/// shard's task and log); [`LoopError::RunDir`] when a shard is not of this run.
pub fn selfplay(
    section: &SelfplayStage,
    sp: &SelfplayConfig,
    generation: u32,
    gen_dir: &Path,
    games: &Path,
) -> Result<Stats, LoopError> {
    let shards = section.shards;
    let dir = gen_dir.join("shards");
    crate::files::create_dir(&dir)?;
    let pattern = dir.join(format!("shard-{}.bin", fanorona_data::SHARD_PLACEHOLDER));
    let args = shard_args(sp, shards, &pattern);
    // The command's own output (sbatch's "Submitted batch job") goes to stderr: stdout is the
    // loop's (its --json summary).
    let status = Command::new("sh")
        .arg("-c")
        .arg(&section.cluster_command)
        .env("FANORONA_SELFPLAY_ARGS", &args)
        .env("FANORONA_SHARD_COUNT", shards.to_string())
        .env("FANORONA_SHARD_DIR", &dir)
        .env("SBATCH_OUTPUT", dir.join(TASK_LOG_PATTERN))
        .stdout(Stdio::from(std::io::stderr()))
        .status()
        .map_err(|source| LoopError::Io { path: PathBuf::from("sh"), source })?;
    let files: Vec<(Shard, PathBuf)> = Shard::all(shards).map(|s| (s, s.path(&pattern))).collect();
    let missing: Vec<MissingShard> = files
        .iter()
        .filter(|(_, p)| !p.is_file())
        .enumerate()
        .map(|(i, (s, p))| {
            let log = task_log(&dir, s.index);
            let tail = if i < LOGS_QUOTED { log_tail(&log) } else { None };
            MissingShard { shard: s.index, file: p.clone(), log_exists: log.is_file(), log, log_tail: tail }
        })
        .collect();
    if !status.success() || !missing.is_empty() {
        return Err(LoopError::Cluster {
            generation,
            command: section.cluster_command.clone(),
            status: (!status.success()).then(|| status.to_string()),
            shards,
            missing,
        });
    }
    join(sp, &files, games).map_err(|e| match e {
        Joined::Shard { path, what } => LoopError::RunDir { path, what },
        Joined::Data(d) => LoopError::from(d),
    })
}

/// Why the shards could not be joined.
enum Joined {
    /// A shard file that is not the shard of this run it should be.
    Shard { path: PathBuf, what: String },
    /// Reading or writing failed.
    Data(DataError),
}

impl From<DataError> for Joined {
    fn from(e: DataError) -> Joined {
        Joined::Data(e)
    }
}

impl From<fanorona_data::IoError> for Joined {
    fn from(e: fanorona_data::IoError) -> Joined {
        Joined::Data(e.into())
    }
}

/// Joins the shard files (in shard order) into `games` under the header of the whole run `sp`
/// played in one piece, checking that each is its shard of `sp` and that together they hold
/// every game of the run once, in order; returns the games' statistics.
fn join(sp: &SelfplayConfig, files: &[(Shard, PathBuf)], games: &Path) -> Result<Stats, Joined> {
    let total = sp.run_games.unwrap_or(sp.games);
    let whole = SelfplayConfig { run_games: None, games: total, shard: Shard::ONE, ..sp.clone() };
    let output = Output::new(games, Existing::Replace)?;
    let mut stats = Stats::new();
    let mut write = || -> Result<(), Joined> {
        let mut w = RecordWriter::create(&output.write_path(), &whole.header())?;
        let mut next = 0u64;
        for (shard, path) in files {
            let expected = SelfplayConfig { shard: *shard, ..whole.clone() }.with_run_games(total).header();
            let reader = RecordReader::open(path)?;
            let bad = |what: String| Joined::Shard { path: path.clone(), what };
            expected
                .same_run(reader.header())
                .map_err(|what| bad(format!("not shard {shard} of this self-play run: {what}")))?;
            if reader.header().shards != [shard.index] {
                return Err(bad(format!("holds shards {:?}, not shard {shard}", reader.header().shards)));
            }
            for rec in reader {
                let rec = rec?;
                if rec.index != next {
                    return Err(bad(format!("holds game {} where game {next} of the run comes", rec.index)));
                }
                next += 1;
                stats.add_replayed(&rec);
                w.write(&rec)?;
            }
        }
        if next != total {
            let path = files.last().map(|(_, p)| p.clone()).unwrap_or_default();
            return Err(Joined::Shard { path, what: format!("the shards hold {next} games, not {total}") });
        }
        w.finish()?;
        Ok(())
    };
    if let Err(e) = write() {
        output.abandon();
        return Err(e);
    }
    output.commit()?;
    stats.finish();
    Ok(stats)
}
