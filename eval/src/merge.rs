//! `fanorona eval merge`: the shards of one match (`--shard I/N`, one output directory each)
//! joined into one output directory and one report: ratings and the SPRT verdict on the union
//! of their pairs. Shards of different matches, different shard counts or a shard given twice
//! are refused before anything is written.

use std::path::{Path, PathBuf};

use fanorona_data::Shard;
use fanorona_data::rundir::write_json;
use serde::{Deserialize, Serialize};

use crate::report::{MatchReport, Tally};
use crate::state::{self, GAMES_FILE, MatchState, STATE_FILE};
use crate::{EvalError, MatchConfig};

/// What a merge joined.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MergeReport {
    /// The match over the union of the shards' pairs.
    pub report: MatchReport,
    /// The shards present, in index order.
    pub shards: Vec<u32>,
    /// The match's shard count.
    pub shard_count: u32,
    /// Every shard present and finished: the output is the whole match (it has a state file;
    /// `eval --resume` on it replays nothing).
    pub complete: bool,
}

fn refuse(dir: &Path, reason: impl Into<String>) -> EvalError {
    EvalError::Merge { dir: dir.to_path_buf(), reason: reason.into() }
}

/// Merges the shard directories `dirs` into `out` (`games.bin` in game order, `report.json`,
/// and `state.json` when the merge is complete).
///
/// # Errors
/// [`EvalError::Merge`] (bad input) when a directory holds no match state, the shards belong
/// to different matches, or `out` is an input or already holds a match; record file errors.
pub fn merge_shards(dirs: &[PathBuf], out: &Path) -> Result<MergeReport, EvalError> {
    let Some(first_dir) = dirs.first() else {
        return Err(refuse(out, "no shard directories given"));
    };
    let mut shards: Vec<(Shard, &PathBuf, MatchState)> = Vec::new();
    for dir in dirs {
        let st = MatchState::load(dir).map_err(|e| refuse(dir, e.to_string()))?;
        let shard = st.config.shard.unwrap_or(Shard::ONE);
        if let Some((_, _, first)) = shards.first() {
            let count = first.config.shard.unwrap_or(Shard::ONE).count;
            if shard.count != count {
                return Err(refuse(dir, format!("is shard {shard}, of {} shards, not {count}", shard.count)));
            }
            if !unsharded(&st.config).same_match(&unsharded(&first.config)) {
                return Err(refuse(
                    dir,
                    format!(
                        "holds another match than {} (engines, games, openings, seed or rules differ)",
                        first_dir.display()
                    ),
                ));
            }
        }
        if let Some((_, d, _)) = shards.iter().find(|(s, _, _)| s.index == shard.index) {
            return Err(refuse(dir, format!("is shard {shard}, like {}", d.display())));
        }
        shards.push((shard, dir, st));
    }
    if let Some((_, d, _)) = shards.iter().find(|(_, d, _)| crate::state::same_dir(d, out)) {
        return Err(refuse(out, format!("is the input {}: the merge would replace it", d.display())));
    }
    if out.join(STATE_FILE).exists() {
        return Err(refuse(out, "already holds a match"));
    }
    shards.sort_by_key(|(s, _, _)| s.index);
    let config = unsharded(&shards[0].2.config);
    let count = shards[0].0.count;
    // Read everything first: a damaged shard stops the merge before it writes.
    let mut tally = Tally::default();
    let mut records = Vec::new();
    let mut complete = shards.len() as u32 == count;
    for (_, dir, st) in &shards {
        let (first, end) = st.config.pair_range();
        complete &= st.finished && st.pairs_done == end - first;
        let kept = state::saved_games(dir, &st.config, first * 2, st.pairs_done * 2)?;
        tally.add_saved(&state::summaries_from_records(&kept, &st.faults), &st.cpu);
        records.extend(kept);
    }
    std::fs::create_dir_all(out).map_err(|e| EvalError::io(out, e))?;
    let path = out.join(GAMES_FILE);
    state::write_games(&path, &config, &records)?;
    let names = [config.engines[0].name.clone(), config.engines[1].name.clone()];
    let planned = config.pairs() * 2;
    let mut report = MatchReport::from_tally(names, &tally, planned, tally.sprt(config.sprt.as_ref()));
    report.stopped_early = false;
    let merged = MergeReport {
        report,
        shards: shards.iter().map(|(s, _, _)| s.index).collect(),
        shard_count: count,
        complete,
    };
    write_json(&out.join("report.json"), &merged)?;
    if complete {
        MatchState {
            version: state::STATE_VERSION,
            config,
            pairs_done: tally.penta.pairs(),
            faults: tally.faults.clone(),
            finished: true,
            cpu: tally.cpu,
        }
        .save(out)?;
    }
    Ok(merged)
}

fn unsharded(c: &MatchConfig) -> MatchConfig {
    MatchConfig { shard: None, ..c.clone() }
}
