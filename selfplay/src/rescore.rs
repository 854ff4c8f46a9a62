//! Re-scoring recorded games: every searched turn's score is replaced by a new search of its
//! position (MuZero's "reanalyse", the newer network labelling older games), the turns and
//! results kept.

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

use fanorona_core::{DrawRules, Game};
use fanorona_data::ordered::{Workers, run_ordered};
use fanorona_data::{DataError, Existing, GameRecord, Output, RecordError, RecordReader, RecordWriter};
use fanorona_engine::{Player, PlayerSpec};

use crate::SelfplayError;

/// Games read into memory at a time (each worker takes whole games from the batch).
const BATCH: usize = 256;

/// What [`rescore`] did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RescoreReport {
    /// Games written.
    pub games: u64,
    /// Turns whose score was replaced.
    pub rescored: u64,
    /// Turns without a score, left as they were (random or unsearched turns).
    pub unscored: u64,
}

/// Writes `input`'s games to `out` with every scored turn's score and depth replaced by what
/// `search` (an alpha-beta spec) finds in its position, on `threads` threads (0: one per
/// core); the output is the same whatever the thread count. The header (and so every game's
/// identity, which decides its side of the trainer's validation split) is kept. `out` is
/// written to `OUT.part` and renamed when complete; an existing `out` is replaced only with
/// [`Existing::Replace`].
///
/// # Errors
/// [`SelfplayError::Player`] when `search` cannot be built; [`SelfplayError::Data`] when the
/// input cannot be read, holds an illegal turn (named by game and ply), or the output cannot be
/// written.
pub fn rescore(
    input: &Path,
    out: &Path,
    existing: Existing,
    search: &PlayerSpec,
    threads: usize,
    progress: &mut dyn FnMut(u64),
) -> Result<RescoreReport, SelfplayError> {
    let reader = RecordReader::open(input)?;
    let threads = if threads == 0 { rayon::current_num_threads() } else { threads };
    let players = Players::new(search, threads)?;
    let output = Output::new(out, existing).map_err(DataError::from)?;
    if output.clobbers(input) {
        return Err(SelfplayError::Config(format!(
            "{} is the input and the output (or its temporary)",
            input.display()
        )));
    }
    match write_rescored(reader, &output, &players, progress) {
        Ok(report) => {
            output.commit().map_err(DataError::from)?;
            Ok(report)
        }
        Err(e) => {
            output.abandon();
            Err(e)
        }
    }
}

/// One searching player per worker thread, reused game after game (`new_game` makes each
/// game's search independent of the games before it). The workers that search are held to the
/// machine's cores (more cannot search faster, and the output does not depend on their
/// number), and each worker's player (its hash table, a network read from its file) is built
/// when the worker first searches: memory grows with the work, not with the count asked for.
pub(crate) struct Players {
    spec: PlayerSpec,
    slots: Vec<OnceLock<Mutex<Box<dyn Player>>>>,
}

impl Players {
    /// Players for `threads` workers (at least 1, at most the cores), the first built now so
    /// that a spec that cannot be built is refused before any work.
    pub(crate) fn new(spec: &PlayerSpec, threads: usize) -> Result<Players, SelfplayError> {
        let n = threads.clamp(1, fanorona_engine::search::available_threads());
        let players = Players { spec: spec.clone(), slots: (0..n).map(|_| OnceLock::new()).collect() };
        drop(players.lock(0)?);
        Ok(players)
    }

    /// How many workers search.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Worker `k`'s player, built on its first use.
    pub(crate) fn lock(&self, k: usize) -> Result<MutexGuard<'_, Box<dyn Player>>, SelfplayError> {
        let build = || {
            self.spec.build(0).map_err(|source| SelfplayError::Player { spec: self.spec.to_string(), source })
        };
        let slot = &self.slots[k.min(self.slots.len() - 1)];
        if slot.get().is_none() {
            let _ = slot.set(Mutex::new(build()?));
        }
        match slot.get() {
            Some(m) => Ok(m.lock().unwrap_or_else(PoisonError::into_inner)),
            None => Err(SelfplayError::Config(format!("{}: no player for worker {k}", self.spec))),
        }
    }
}

fn write_rescored(
    mut reader: RecordReader,
    output: &Output,
    players: &Players,
    progress: &mut dyn FnMut(u64),
) -> Result<RescoreReport, SelfplayError> {
    let rules = recorded_rules(&reader.header().config);
    let path = reader.path().to_path_buf();
    let mut writer = RecordWriter::create(&output.write_path(), &reader.header().clone())?;
    let mut report = RescoreReport { games: 0, rescored: 0, unscored: 0 };
    loop {
        let first = reader.records_read();
        let mut batch = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            match reader.read_record() {
                Some(r) => batch.push(r?),
                None => break,
            }
        }
        if batch.is_empty() {
            break;
        }
        let (batch, path) = (&batch, &path);
        // Worker k searches with player k, whatever the batch.
        let make = |k: usize| -> Result<_, SelfplayError> {
            let mut player = players.lock(k)?;
            Ok(move |i: u64, _: &AtomicBool| {
                Some(rescore_game(player.as_mut(), &batch[i as usize], rules).map_err(|source| {
                    DataError::Record { path: path.clone(), record: first + i, source }.into()
                }))
            })
        };
        let threads = players.len().min(batch.len());
        run_ordered(
            Workers { threads, name: "rescore" },
            0..batch.len() as u64,
            make,
            |_, (record, rescored, unscored): (GameRecord, u64, u64)| {
                writer.write(&record)?;
                report.games += 1;
                report.rescored += rescored;
                report.unscored += unscored;
                progress(report.games);
                Ok(ControlFlow::Continue(()))
            },
            |source| SelfplayError::Threads { threads, source },
        )?;
    }
    writer.finish()?;
    Ok(report)
}

/// The draw rules the games were played under, as the header's configuration (self-play's
/// and matches' JSON) names them; the defaults where it names none. The search sees the game
/// as its players did: a position about to be drawn by the no-capture limit scores a draw.
fn recorded_rules(config: &str) -> DrawRules {
    let d = DrawRules::default();
    let v: serde_json::Value = serde_json::from_str(config).unwrap_or(serde_json::Value::Null);
    let get = |key: &str, default: u32| {
        v.get(key).and_then(serde_json::Value::as_u64).and_then(|x| u32::try_from(x).ok()).unwrap_or(default)
    };
    DrawRules {
        max_quiet_plies: get("max_quiet_plies", d.max_quiet_plies),
        max_plies: get("max_plies", d.max_plies),
    }
}

/// The game with its scored turns searched again by `player`, and the counts of turns
/// re-scored and left alone.
fn rescore_game(
    player: &mut dyn Player,
    record: &GameRecord,
    rules: DrawRules,
) -> Result<(GameRecord, u64, u64), RecordError> {
    // A record is a claim: its turns and result checked against the rules, as on every way a
    // game enters (PGN, upload, validate), before anything is copied.
    record.validate()?;
    let mut out = record.clone();
    let mut game = Game::new(record.start, rules);
    player.new_game();
    let (mut rescored, mut unscored) = (0, 0);
    for (ply, turn) in out.turns.iter_mut().enumerate() {
        let legal = game.legal_moves();
        let Some(m) = legal.iter().find(|m| turn.mv.matches(m)).copied() else {
            return Err(RecordError::MalformedTurn {
                ply,
                what: format!("{} cannot be played in {}", turn.mv, game.position()),
            });
        };
        if turn.info.score.is_some() {
            let d = player.choose(&game);
            turn.info.score = d.score;
            turn.info.depth = d.depth.map(|x| x.min(u32::from(u16::MAX)) as u16);
            rescored += 1;
        } else {
            unscored += 1;
        }
        game.play_unchecked(&m);
    }
    Ok((out, rescored, unscored))
}
