//! [`generate`]: a whole self-play run, in parallel, written in game order.

use std::io::Read;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use fanorona_data::ordered::{Workers, run_ordered};
use fanorona_data::stats::Stats;
use fanorona_data::{DataError, Existing, GameRecord, Output, RecordReader, RecordWriter};

use crate::{PlayerCache, Progress, SelfplayConfig, SelfplayError, Summary, play_game_with};

/// A worker's task: plays game `i` of the run with its own player cache.
fn player(
    config: &SelfplayConfig,
) -> impl FnMut(u64, &AtomicBool) -> Option<Result<GameRecord, SelfplayError>> {
    let mut cache = PlayerCache::default();
    move |i, _| Some(play_game_with(config, config.global_index(i), &mut cache))
}

/// The file a run writes to until it is complete: `OUT.part`.
pub fn part_path(out: &Path) -> PathBuf {
    fanorona_data::output::part_path(out)
}

/// What [`generate`] does with an output (or its `OUT.part`) that exists already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Refuse an existing output or temporary: nothing is replaced by accident.
    New,
    /// Start over, replacing them (`--force`).
    Replace,
    /// Continue them when they belong to the same run (`--resume`); start when there are none.
    Resume,
}

/// Runs `config` and writes its games to `out`.
///
/// Games are played on `config.threads` threads and written in game order, so the file is
/// byte-identical whatever the thread count. The file is written as `OUT.part` (its header
/// synced at once), flushed after every game, and renamed to `out` when complete; a killed
/// run loses at most the games being played. With [`Start::Resume`], an existing `OUT.part`
/// (or a complete `out` with fewer games) of the same run is repaired (a truncated last record
/// is cut off) and continued from its next game; the result is the file an uninterrupted run
/// writes. An empty `OUT.part`, or one holding only (a part of) the header, holds no game yet.
///
/// A symlink `out` is followed; a FIFO or device (`/dev/null`) is written directly, without a
/// temporary, and cannot be resumed.
///
/// `progress` is called on the calling thread after every game written.
///
/// # Errors
/// A bad configuration or player spec, an existing output with [`Start::New`], a file that
/// belongs to another run, an I/O error, or a player returning an illegal turn (the games
/// before it stay in `OUT.part`).
pub fn generate(
    config: &SelfplayConfig,
    out: &Path,
    start: Start,
    progress: &mut dyn FnMut(&Progress),
) -> Result<Summary, SelfplayError> {
    config.check()?;
    for spec in [&config.white, &config.black] {
        spec.build(0).map_err(|source| SelfplayError::Player { spec: spec.to_string(), source })?;
    }
    let threads = if config.threads == 0 { rayon::current_num_threads() } else { config.threads };
    let t0 = Instant::now();
    let existing = if start == Start::New { Existing::Refuse } else { Existing::Replace };
    let output = Output::new(out, existing).map_err(DataError::from)?;
    let part = output.part();
    if output.is_special() && start == Start::Resume {
        return Err(SelfplayError::Resume {
            path: out.to_path_buf(),
            what: "it is not a regular file (a FIFO or a device): nothing to continue".into(),
        });
    }
    if start == Start::New && output.found_part() {
        return Err(SelfplayError::Resume {
            path: part.clone(),
            what: "an interrupted run left it: continue it with --resume, or start over with --force".into(),
        });
    }
    let resume = start == Start::Resume && !output.is_special();
    let Opened { mut writer, mut stats, resumed_games, repaired_bytes } =
        open_writer(config, &output, resume)?;
    let (mut played, mut turns) = (0u64, 0u64);
    let workers = Workers { threads, name: "selfplay" };
    let make = |_| Ok::<_, SelfplayError>(player(config));
    let written = run_ordered(
        workers,
        writer.records()..config.games,
        make,
        |i, r: GameRecord| {
            writer.write(&r).and_then(|()| writer.flush())?;
            played += 1;
            turns += r.turns.len() as u64;
            stats.add_replayed(&r);
            progress(&Progress {
                done: i + 1,
                total: config.games,
                played,
                white_wins: stats.white_wins,
                black_wins: stats.black_wins,
                draws: stats.draws,
                mean_length: stats.mean_length(),
                elapsed_s: t0.elapsed().as_secs_f64(),
            });
            Ok(ControlFlow::Continue(()))
        },
        |source| SelfplayError::Threads { threads, source },
    );
    if let Err(e) = written {
        let _ = writer.flush();
        return Err(e);
    }
    writer.finish()?;
    stats.finish();
    output.commit().map_err(DataError::from)?;
    let elapsed_s = t0.elapsed().as_secs_f64();
    Ok(Summary {
        out: out.display().to_string(),
        shard: config.shard.to_string(),
        seed: config.seed,
        resumed_games,
        repaired_bytes,
        played,
        elapsed_s,
        games_per_s: played as f64 / elapsed_s.max(1e-9),
        turns_per_s: turns as f64 / elapsed_s.max(1e-9),
        threads,
        stats,
    })
}

/// The record writer of a run, and what the file held already.
struct Opened {
    writer: RecordWriter,
    stats: Stats,
    resumed_games: u64,
    repaired_bytes: u64,
}

/// Opens the output: a new file, or with `resume` the run's `OUT.part` (or complete `OUT`)
/// checked to be this run's, its torn tail repaired and its games counted.
fn open_writer(config: &SelfplayConfig, output: &Output, resume: bool) -> Result<Opened, SelfplayError> {
    let part = output.part();
    let header = config.header();
    let mut stats = Stats::new();
    let io = |path: &Path, source| SelfplayError::Io { path: path.to_path_buf(), source };
    let holds_games = |path: &Path| -> Result<bool, SelfplayError> {
        let head = RecordWriter::header_bytes(&header)?;
        let file = std::fs::File::open(path).map_err(|e| io(path, e))?;
        let mut bytes = Vec::new();
        file.take(head.len() as u64 + 1).read_to_end(&mut bytes).map_err(|e| io(path, e))?;
        Ok(!head.starts_with(&bytes))
    };
    let target = output.target();
    let existing = if resume && part.exists() && holds_games(&part)? {
        Some(part.clone())
    } else if resume && target.exists() {
        Some(target.to_path_buf())
    } else {
        None
    };
    match existing {
        Some(path) => {
            let mut reader = RecordReader::open(&path)?;
            let found = reader.header().clone();
            let mismatch = |what: String| SelfplayError::Resume { path: path.clone(), what };
            found.same_run(&header).map_err(|e| mismatch(format!("it is another run: {e}")))?;
            if found.shard != header.shard {
                return Err(mismatch(format!("it is shard {}, not {}", found.shard, header.shard)));
            }
            for rec in reader.by_ref() {
                match rec {
                    Ok(r) => stats.add_replayed(&r),
                    Err(e) if e.is_truncation() => break,
                    Err(e) => return Err(e.into()),
                }
            }
            drop(reader);
            if stats.games > config.games {
                return Err(mismatch(format!(
                    "it has {} games, more than the {} asked for",
                    stats.games, config.games
                )));
            }
            if path != part {
                // A complete file of the same run: continue it under the temporary name.
                output.adopt(&path).map_err(DataError::from)?;
            }
            let (w, info) = RecordWriter::append(&part)?;
            if info.records > config.games {
                return Err(mismatch(format!(
                    "it has {} games, more than the {} asked for",
                    info.records, config.games
                )));
            }
            Ok(Opened { writer: w, stats, resumed_games: info.records, repaired_bytes: info.repaired_bytes })
        }
        None => Ok(Opened {
            writer: RecordWriter::create(&output.write_path(), &header)?,
            stats,
            resumed_games: 0,
            repaired_bytes: 0,
        }),
    }
}
