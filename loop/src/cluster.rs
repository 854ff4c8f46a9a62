//! Self-play on a cluster: the loop runs the configured command (a job array), which writes one
//! shard file per task with `fanorona selfplay`, then merges the shards.

use std::path::{Path, PathBuf};
use std::process::Command;

use fanorona_data::Shard;
use fanorona_data::stats::Stats;
use fanorona_data::{RecordReader, merge};
use fanorona_selfplay::{Exploration, SelfplayConfig};

use crate::{LoopError, SelfplayStage};

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

/// Runs the cluster command and merges its shards into `games`; returns the merged file's
/// statistics.
pub fn selfplay(
    section: &SelfplayStage,
    sp: &SelfplayConfig,
    gen_dir: &Path,
    games: &Path,
) -> Result<Stats, LoopError> {
    let shards = section.shards;
    let dir = gen_dir.join("shards");
    crate::files::create_dir(&dir)?;
    let pattern = dir.join(format!("shard-{}.bin", fanorona_data::SHARD_PLACEHOLDER));
    let args = shard_args(sp, shards, &pattern);
    let status = Command::new("sh")
        .arg("-c")
        .arg(&section.cluster_command)
        .env("FANORONA_SELFPLAY_ARGS", &args)
        .env("FANORONA_SHARD_COUNT", shards.to_string())
        .env("FANORONA_SHARD_DIR", &dir)
        .status()
        .map_err(|source| LoopError::Io { path: PathBuf::from("sh"), source })?;
    let fail = |what: String| LoopError::RunDir { path: dir.clone(), what };
    if !status.success() {
        return Err(fail(format!("cluster command {:?} failed ({status})", section.cluster_command)));
    }
    let inputs: Vec<PathBuf> = Shard::all(shards).map(|s| s.path(&pattern)).collect();
    if let Some(missing) = inputs.iter().find(|p| !p.is_file()) {
        return Err(fail(format!("the cluster command returned but {} is missing", missing.display())));
    }
    merge(&inputs, games, fanorona_data::Existing::Replace)
        .map_err(|e| fail(format!("merging shards: {e}")))?;
    let mut stats = Stats::new();
    let reader = RecordReader::open(games).map_err(|e| fail(e.to_string()))?;
    for rec in reader {
        stats.add_replayed(&rec.map_err(|e| fail(e.to_string()))?);
    }
    stats.finish();
    Ok(stats)
}
