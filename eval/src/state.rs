//! The output directory of a match: `games.bin` (every game in the record format of
//! fanorona-data, in game order) and `state.json` (the configuration and the finished games),
//! rewritten atomically (temp file + rename) after every pair, so that `--resume` continues
//! where an interrupted match stopped.

use std::path::{Path, PathBuf};

use fanorona_data::{GameRecord, Header, Kind, PROGRAM, RecordReader, RecordWriter};
use serde::{Deserialize, Serialize};

use crate::report::{FaultRecord, GameSummary};
use crate::{EvalError, MatchConfig};

/// The state file's name in the output directory.
pub const STATE_FILE: &str = "state.json";
/// The game record file's name in the output directory.
pub const GAMES_FILE: &str = "games.bin";

/// What `state.json` holds.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchState {
    /// Version of this file's layout.
    pub version: u32,
    /// The match's configuration.
    pub config: MatchConfig,
    /// Complete pairs counted; `games.bin` holds their games first.
    pub pairs_done: u64,
    /// Games decided by an engine fault, with why (the record file keeps only the
    /// termination).
    pub faults: Vec<(u64, FaultRecord)>,
    /// Whether the match has ended (all pairs played or the SPRT decided).
    pub finished: bool,
}

impl MatchState {
    /// Reads `DIR/state.json`.
    ///
    /// # Errors
    /// [`EvalError::Resume`] when the file is missing or not a match state.
    pub fn load(dir: &Path) -> Result<MatchState, EvalError> {
        let path = dir.join(STATE_FILE);
        let text = std::fs::read_to_string(&path).map_err(|e| EvalError::Resume {
            dir: dir.to_path_buf(),
            reason: format!("{}: {e}", path.display()),
        })?;
        serde_json::from_str(&text).map_err(|e| EvalError::Resume {
            dir: dir.to_path_buf(),
            reason: format!("{}: {e}", path.display()),
        })
    }

    /// Writes `DIR/state.json` atomically.
    pub(crate) fn save(&self, dir: &Path) -> Result<(), EvalError> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| EvalError::io(dir.join(STATE_FILE), std::io::Error::other(e)))?;
        write_atomic(&dir.join(STATE_FILE), text.as_bytes())
    }
}

/// Writes a file through a temporary name and a rename, so readers never see half of it.
///
/// # Errors
/// [`EvalError::Io`] naming the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), EvalError> {
    let tmp = tmp_name(path);
    std::fs::write(&tmp, bytes).map_err(|e| EvalError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| EvalError::io(path, e))
}

fn tmp_name(path: &Path) -> PathBuf {
    let mut name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
    name.push(".tmp");
    path.with_file_name(name)
}

/// The record file header of a match.
pub(crate) fn header(config: &MatchConfig) -> Header {
    let json = serde_json::to_string(config).unwrap_or_default();
    Header::new(PROGRAM, Kind::Match, json, config.seed)
}

/// Opens the record file for a new match.
pub(crate) fn create_games(dir: &Path, config: &MatchConfig) -> Result<RecordWriter, EvalError> {
    std::fs::create_dir_all(dir).map_err(|e| EvalError::io(dir, e))?;
    Ok(RecordWriter::create(&dir.join(GAMES_FILE), &header(config))?)
}

/// Reopens the record file of an interrupted match holding exactly the first `games` records
/// (records written after the last saved state are dropped: their pair is replayed). Returns
/// the writer and the kept records.
pub(crate) fn reopen_games(
    dir: &Path,
    config: &MatchConfig,
    games: usize,
) -> Result<(RecordWriter, Vec<GameRecord>), EvalError> {
    let path = dir.join(GAMES_FILE);
    let mut kept = Vec::with_capacity(games);
    if path.exists() {
        let reader = RecordReader::open(&path)?;
        for r in reader {
            match r {
                Ok(rec) if kept.len() < games => kept.push(rec),
                // A torn last record from a killed run is dropped like any extra one.
                _ => break,
            }
        }
    }
    if kept.len() < games {
        return Err(EvalError::Resume {
            dir: dir.to_path_buf(),
            reason: format!("{} holds {} games, the state file {games}", path.display(), kept.len()),
        });
    }
    let tmp = tmp_name(&path);
    let mut w = RecordWriter::create(&tmp, &header(config))?;
    for r in &kept {
        w.write(r)?;
    }
    w.finish()?;
    std::fs::rename(&tmp, &path).map_err(|e| EvalError::io(&path, e))?;
    let (w, _) = RecordWriter::append(&path)?;
    Ok((w, kept))
}

/// The summaries of resumed games, rebuilt from their records and the saved faults.
pub(crate) fn summaries_from_records(
    records: &[GameRecord],
    faults: &[(u64, FaultRecord)],
) -> Vec<GameSummary> {
    records
        .iter()
        .map(|r| GameSummary {
            index: r.index,
            pair: r.index / 2,
            white_engine: (r.index % 2) as usize,
            outcome: r.outcome,
            plies: r.len(),
            fault: faults.iter().find(|(g, _)| *g == r.index).map(|(_, f)| f.clone()),
        })
        .collect()
}
