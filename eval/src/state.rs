//! The output directory of a match: `games.bin` (every game in the record format of
//! fanorona-data, in game order) and `state.json` (the configuration and the finished games),
//! rewritten atomically (temp file + rename) after every pair, so that `--resume` continues
//! where an interrupted match stopped.

use std::io::Read;
use std::path::Path;

use fanorona_data::rundir::{read_state, write_json};
use fanorona_data::{
    DataError, Existing, GameRecord, Header, Kind, Output, PROGRAM, RecordReader, RecordWriter,
};
use serde::{Deserialize, Serialize};

use crate::report::{FaultRecord, GameSummary};
use crate::{CpuShare, EvalError, MatchConfig};

/// The state file's name in the output directory.
pub const STATE_FILE: &str = "state.json";
/// The layout version of `state.json`, checked when it is read.
pub const STATE_VERSION: u32 = 1;
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
    /// The timed turns of engine 0 and engine 1 in the counted pairs, over every run of the
    /// match ([`CpuShare`]; absent from files written before it was kept: none).
    #[serde(default)]
    pub cpu: [CpuShare; 2],
}

impl MatchState {
    /// Reads `DIR/state.json`.
    ///
    /// # Errors
    /// [`EvalError::Resume`] when the file is missing or holds an impossible state,
    /// [`EvalError::Data`] when it is not a match state of this version.
    pub fn load(dir: &Path) -> Result<MatchState, EvalError> {
        let path = dir.join(STATE_FILE);
        let resume = |reason: String| EvalError::Resume { dir: dir.to_path_buf(), reason };
        let st: MatchState = read_state(&path, STATE_VERSION)?
            .ok_or_else(|| resume(format!("{}: no such file", path.display())))?;
        st.check().map_err(|reason| resume(format!("{}: {reason}", path.display())))?;
        Ok(st)
    }

    /// Checks what a state file may hold: the known version, at most the configured pairs,
    /// faults of finished games by engine 0 or 1, each game once.
    ///
    /// # Errors
    /// What is wrong, as text.
    pub fn check(&self) -> Result<(), String> {
        if self.version != STATE_VERSION {
            return Err(format!("state version {} is not {STATE_VERSION}", self.version));
        }
        if self.config.games == 0 || self.config.games > crate::runner::MAX_GAMES {
            return Err(format!(
                "the match has {} games, not 1..={}",
                self.config.games,
                crate::runner::MAX_GAMES
            ));
        }
        if let Some(s) = self.config.shard {
            fanorona_data::Shard::new(s.index, s.count)?;
        }
        let (first, end) = self.config.pair_range();
        let pairs = end - first;
        if self.pairs_done > pairs {
            return Err(format!("{} pairs done, more than the {pairs} of the match", self.pairs_done));
        }
        let games = self.pairs_done * 2;
        let mut seen = std::collections::BTreeSet::new();
        for (game, f) in &self.faults {
            if f.engine > 1 {
                return Err(format!("the fault of game {game} names engine {}, not 0 or 1", f.engine));
            }
            if *game < first * 2 || *game >= first * 2 + games {
                return Err(format!("a fault in game {game}, which is not among the {games} finished"));
            }
            if !seen.insert(*game) {
                return Err(format!("two faults in game {game}"));
            }
        }
        Ok(())
    }

    /// Writes `DIR/state.json` atomically.
    pub(crate) fn save(&self, dir: &Path) -> Result<(), EvalError> {
        Ok(write_json(&dir.join(STATE_FILE), self)?)
    }
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
/// the writer and the kept records. A missing or empty file, or one cut inside its header,
/// holds no game yet; a file of another match or of self-play is refused, and so is a damaged
/// record among the kept ones.
pub(crate) fn reopen_games(
    dir: &Path,
    config: &MatchConfig,
    first_game: u64,
    games: u64,
) -> Result<(RecordWriter, Vec<GameRecord>), EvalError> {
    let path = dir.join(GAMES_FILE);
    let kept = saved_games(dir, config, first_game, games)?;
    write_games(&path, config, &kept)?;
    let (w, _) = RecordWriter::append(&path)?;
    Ok((w, kept))
}

/// Writes `records` as the record file of the match `config` at `path`, through `PATH.part`
/// and a rename.
pub(crate) fn write_games(
    path: &Path,
    config: &MatchConfig,
    records: &[GameRecord],
) -> Result<(), EvalError> {
    let out = Output::new(path, Existing::Replace).map_err(DataError::from)?;
    let mut w = RecordWriter::create(&out.write_path(), &header(config))?;
    for r in records {
        w.write(r)?;
    }
    w.finish()?;
    Ok(out.commit().map_err(DataError::from)?)
}

/// The first `games` records of `DIR/games.bin`, games `first_game..` of the match `config`
/// (see [`reopen_games`]); an [`EvalError::Resume`] when the file holds fewer, another run's
/// games or damage among them.
pub(crate) fn saved_games(
    dir: &Path,
    config: &MatchConfig,
    first_game: u64,
    games: u64,
) -> Result<Vec<GameRecord>, EvalError> {
    let path = dir.join(GAMES_FILE);
    let refuse = |reason: String| EvalError::Resume { dir: dir.to_path_buf(), reason };
    let mut kept = Vec::new();
    let head = RecordWriter::header_bytes(&header(config))?;
    let mut start = Vec::new();
    if let Ok(f) = std::fs::File::open(&path) {
        f.take(head.len() as u64 + 1).read_to_end(&mut start).map_err(|e| EvalError::io(&path, e))?;
    }
    if !head.starts_with(&start) {
        let mut reader = RecordReader::open(&path)?;
        let found = reader.header();
        let theirs = serde_json::from_str::<MatchConfig>(&found.config).ok();
        if found.kind != Kind::Match || !theirs.is_some_and(|c| c.same_match(config)) {
            return Err(refuse(format!(
                "{} holds the games of another run ({} {})",
                path.display(),
                found.kind,
                found.program
            )));
        }
        while (kept.len() as u64) < games {
            match reader.read_record() {
                Some(Ok(rec)) if rec.index == first_game + kept.len() as u64 => kept.push(rec),
                Some(Ok(rec)) => {
                    return Err(refuse(format!(
                        "{}: record {} is game {} of its run, not of this match",
                        path.display(),
                        kept.len(),
                        rec.index
                    )));
                }
                // A torn last record from a killed run is dropped like any extra one.
                Some(Err(e)) if e.is_truncation() => break,
                Some(Err(e)) => return Err(e.into()),
                None => break,
            }
        }
    }
    if (kept.len() as u64) < games {
        return Err(refuse(format!("{} holds {} games, the state file {games}", path.display(), kept.len())));
    }
    Ok(kept)
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

/// Whether two paths name the same directory (both existing), or are equal as written.
pub(crate) fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}
