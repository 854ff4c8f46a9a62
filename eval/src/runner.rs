//! Running a match: pairs of games from shared openings, spread over worker threads, counted
//! in pair order (so the statistics, the SPRT stopping point and the record file do not depend
//! on the number of threads for depth- or node-limited engines), saved as they finish.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use fanorona_core::Rng;
use fanorona_core::{Color, DrawRules};
use fanorona_data::{GameRecord, RecordWriter};
use serde::{Deserialize, Serialize};

use crate::EvalError;
use fanorona_data::Shard;
use fanorona_data::ordered::{Task, Workers, run_ordered};

use crate::adjudication::Adjudication;
use crate::external::ExternalEngine;
use crate::game::{Played, Referee, play_game};
use crate::log::EngineLog;
use crate::openings::{OpeningSource, Openings};
use crate::pgnout::PgnOut;
use crate::report::{FaultRecord, GameSummary, MatchReport, Tally};
use crate::seat::Seat;
use crate::spec::{EngineKind, EngineSpec};
use crate::state::{self, MatchState};
use crate::stats::{EloEstimate, Pentanomial, SprtConfig, SprtVerdict, Wdl};

/// Games a match may have at most (a billion: years of play; more is a typo).
pub const MAX_GAMES: u64 = 1_000_000_000;

/// A match between two engines.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchConfig {
    /// Engine 0 (the one the statistics speak for) and engine 1.
    pub engines: [EngineSpec; 2],
    /// Games to play, rounded up to whole pairs.
    pub games: u64,
    /// Where the openings come from.
    pub openings: OpeningSource,
    /// Seed of the openings and of the players' random streams.
    pub seed: u64,
    /// The opening of the first pair: pair `i` plays opening `first_opening + i` of the source
    /// (0: from its first; a tuning run's iterations walk through a suite this way).
    #[serde(default)]
    pub first_opening: u64,
    /// Draw rules.
    pub rules: DrawRules,
    /// Stop as soon as this test decides.
    pub sprt: Option<SprtConfig>,
    /// Endgame tables: a game is adjudicated by them as soon as it reaches a position they
    /// cover (termination [`fanorona_data::Ending::Tablebase`]).
    #[serde(default)]
    pub tb: Option<PathBuf>,
    /// Score adjudication (`--draw`, `--resign`).
    #[serde(default)]
    pub adjudication: Adjudication,
    /// Play only this shard's block of pairs (`--shard I/N`); `eval merge` joins the shards.
    #[serde(default)]
    pub shard: Option<Shard>,
    /// Games played at once.
    #[serde(skip, default = "one")]
    pub concurrency: usize,
    /// Output directory for `games.bin` and `state.json` (none: nothing is written).
    #[serde(skip)]
    pub out: Option<PathBuf>,
    /// Continue the match saved in `out` instead of starting over.
    #[serde(skip)]
    pub resume: bool,
    /// Keep every game record in the report.
    #[serde(skip)]
    pub keep_records: bool,
    /// Append every game to this PGN file (`--pgnout`).
    #[serde(skip)]
    pub pgn_out: Option<PathBuf>,
    /// Log every line exchanged with external engines, and their standard error, to this
    /// file, bounded by `log_limit` bytes (`--log`).
    #[serde(skip)]
    pub log: Option<PathBuf>,
    /// The bound on the log file.
    #[serde(skip, default = "log_limit")]
    pub log_limit: u64,
}

fn log_limit() -> u64 {
    crate::log::DEFAULT_LOG_BYTES
}

fn one() -> usize {
    1
}

impl MatchConfig {
    /// A match of `games` games between two engines with default settings: openings
    /// `random:plies=6`, seed 1, the default draw rules, one thread, no SPRT, no output.
    pub fn new(first: EngineSpec, second: EngineSpec, games: u64) -> MatchConfig {
        MatchConfig {
            engines: [first, second],
            games,
            openings: OpeningSource::Random { plies: 6, imbalance: 2 },
            seed: 1,
            first_opening: 0,
            rules: DrawRules::default(),
            sprt: None,
            tb: None,
            adjudication: Adjudication::default(),
            shard: None,
            concurrency: 1,
            out: None,
            resume: false,
            keep_records: false,
            pgn_out: None,
            log: None,
            log_limit: log_limit(),
        }
    }

    /// Pairs of the whole match (all shards).
    pub fn pairs(&self) -> u64 {
        self.games.div_ceil(2)
    }

    /// The pairs this run plays: `first..end` (all of them without a shard).
    pub fn pair_range(&self) -> (u64, u64) {
        match self.shard {
            None => (0, self.pairs()),
            Some(s) => {
                let g = s.split(self.pairs());
                (g.first, g.first + g.games)
            }
        }
    }

    /// The configuration saved in an output directory (for `--resume`), with `out` set.
    ///
    /// # Errors
    /// [`EvalError::Resume`] when there is no readable state file.
    pub fn load(dir: &std::path::Path) -> Result<MatchConfig, EvalError> {
        let mut c = MatchState::load(dir)?.config;
        c.out = Some(dir.to_path_buf());
        c.resume = true;
        Ok(c)
    }

    pub(crate) fn same_match(&self, other: &MatchConfig) -> bool {
        let strip = |c: &MatchConfig| MatchConfig {
            concurrency: 1,
            out: None,
            resume: false,
            keep_records: false,
            pgn_out: None,
            log: None,
            log_limit: 0,
            ..c.clone()
        };
        strip(self) == strip(other)
    }
}

/// A snapshot for progress displays, after each counted pair.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Games counted.
    pub games: u64,
    /// Games planned.
    pub planned: u64,
    /// Engine 0's results.
    pub wdl: Wdl,
    /// Pair results.
    pub pentanomial: Pentanomial,
    /// Current Elo estimate.
    pub elo: Option<EloEstimate>,
    /// Current LLR with the bounds, when an SPRT runs.
    pub llr: Option<(f64, f64, f64)>,
}

/// One pair as a worker hands it over.
struct PairDone {
    pair: u64,
    played: [Played; 2],
}

/// Plays a match (see [`MatchConfig`]), calling `progress` after every counted pair.
///
/// # Errors
/// [`EvalError`] for an invalid configuration, an engine that cannot be built or started, an
/// output directory that cannot be written or resumed. Engine faults during games are results.
pub fn run_match(
    config: &MatchConfig,
    progress: &mut dyn FnMut(&Progress),
) -> Result<MatchReport, EvalError> {
    let started = Instant::now();
    check_config(config)?;
    let names = [config.engines[0].name.clone(), config.engines[1].name.clone()];
    // A shard plays its block of pairs, `first..end` of the whole match's.
    let (first, end) = config.pair_range();
    let total_pairs = end - first;
    let openings = Openings::new(&config.openings, config.seed)?;
    let mut saved = open_output(config, first)?;
    let mut pgn = config.pgn_out.as_deref().map(|p| PgnOut::open(p, &config.engines)).transpose()?;
    let log = config.log.as_deref().map(|p| EngineLog::create(p, config.log_limit)).transpose()?;
    let done_pairs = saved.summaries.len() as u64 / 2;
    let sprt = match_sprt(config);
    let decided = |t: &Tally| t.sprt(sprt).is_some_and(|r| r.verdict != SprtVerdict::Continue);
    let already_over = saved.finished || done_pairs >= total_pairs || decided(&saved.tally);

    let mut played = PlayedPairs::default();
    if !already_over {
        let mut count = Counter {
            config,
            names: &names,
            first,
            end,
            saved: &mut saved,
            pgn: pgn.as_mut(),
            progress,
            played: &mut played,
        };
        let workers = config.concurrency.min((total_pairs - done_pairs) as usize).max(1);
        let shared = Shared { config, openings: &openings, log: log.as_ref() };
        run_ordered(
            Workers { threads: workers, name: "match" },
            first + done_pairs..end,
            |_| PairPlayer::new(&shared),
            |_, done| count.pair(done),
            |source| EvalError::Threads { threads: workers, source },
        )?;
    }
    if let Some(w) = saved.writer {
        w.finish()?;
    }
    let tally = &saved.tally;
    let mut report = MatchReport::from_tally(names, tally, total_pairs * 2, tally.sprt(sprt));
    report.stopped_early = played.stopped_early || (decided(tally) && tally.penta.pairs() < total_pairs);
    report.seconds = started.elapsed().as_secs_f64();
    report.games_this_run = played.games;
    report.records = saved.records;
    Ok(report)
}

/// Checks what can be checked before any game: the numbers, specs build, programs start.
fn check_config(config: &MatchConfig) -> Result<(), EvalError> {
    if config.games == 0 || config.games > MAX_GAMES {
        return Err(EvalError::Config(format!("games must be 1..={MAX_GAMES}")));
    }
    if let Some(s) = config.shard {
        Shard::new(s.index, s.count).map_err(EvalError::Config)?;
    }
    if config.concurrency == 0 {
        return Err(EvalError::Config("concurrency must be at least 1".into()));
    }
    if config.resume && config.out.is_none() {
        return Err(EvalError::Config("resume needs an output directory".into()));
    }
    for e in &config.engines {
        Seat::new(e, None)?;
        if let EngineKind::External(x) = &e.kind {
            let eng = ExternalEngine::start(x)
                .map_err(|f| EvalError::EngineStart { name: e.name.clone(), reason: f.reason })?;
            eng.shutdown();
        }
    }
    Ok(())
}

/// The SPRT the match stops by: none for a shard (the SPRT is for the union of the shards,
/// `eval merge`).
fn match_sprt(config: &MatchConfig) -> Option<&SprtConfig> {
    if config.shard.is_some() { None } else { config.sprt.as_ref() }
}

/// What a match has counted so far: the pairs of an earlier run when resuming, and where the
/// games go.
#[derive(Default)]
struct Saved {
    tally: Tally,
    summaries: Vec<GameSummary>,
    records: Vec<GameRecord>,
    writer: Option<RecordWriter>,
    finished: bool,
}

/// Opens the output directory, if any: the saved state and games of an interrupted match
/// (`resume`), or a new state file and record file.
fn open_output(config: &MatchConfig, first: u64) -> Result<Saved, EvalError> {
    let mut saved = Saved::default();
    let Some(dir) = &config.out else { return Ok(saved) };
    if !config.resume {
        if dir.join(state::STATE_FILE).exists() {
            return Err(EvalError::Config(format!(
                "{} already holds a match (use --resume to continue it, or another directory)",
                dir.display()
            )));
        }
        saved.writer = Some(state::create_games(dir, config)?);
        state_after(config, 0, &Tally::default(), false).save(dir)?;
        return Ok(saved);
    }
    let st = MatchState::load(dir)?;
    if !st.config.same_match(config) {
        return Err(EvalError::Resume {
            dir: dir.clone(),
            reason: "the saved match has a different configuration".into(),
        });
    }
    let (w, kept) = state::reopen_games(dir, config, first * 2, st.pairs_done * 2)?;
    saved.summaries = state::summaries_from_records(&kept, &st.faults);
    saved.tally.add_saved(&saved.summaries, &st.cpu);
    saved.finished = st.finished;
    if config.keep_records {
        saved.records = kept;
    }
    saved.writer = Some(w);
    Ok(saved)
}

/// The state file of `config` after `pairs_done` pairs, counted in `tally`.
fn state_after(config: &MatchConfig, pairs_done: u64, tally: &Tally, finished: bool) -> MatchState {
    MatchState {
        version: state::STATE_VERSION,
        config: config.clone(),
        pairs_done,
        faults: tally.faults.clone(),
        finished,
        cpu: tally.cpu,
    }
}

/// What this run played.
#[derive(Default)]
struct PlayedPairs {
    games: u64,
    stopped_early: bool,
}

/// Counts the pairs in order as the workers hand them over: outputs, progress, state file, the
/// SPRT's stop.
struct Counter<'a> {
    config: &'a MatchConfig,
    names: &'a [String; 2],
    first: u64,
    end: u64,
    saved: &'a mut Saved,
    pgn: Option<&'a mut PgnOut>,
    progress: &'a mut dyn FnMut(&Progress),
    played: &'a mut PlayedPairs,
}

impl Counter<'_> {
    fn pair(&mut self, done: PairDone) -> Result<ControlFlow<()>, EvalError> {
        let (config, saved) = (self.config, &mut *self.saved);
        let next = done.pair + 1;
        let mut outputs = Outputs {
            summaries: &mut saved.summaries,
            records: &mut saved.records,
            writer: saved.writer.as_mut(),
            pgn: self.pgn.as_deref_mut(),
        };
        count_pair(config, self.names, done, &mut saved.tally, &mut outputs)?;
        self.played.games += 2;
        let tally = &saved.tally;
        let sprt = tally.sprt(match_sprt(config));
        (self.progress)(&Progress {
            games: tally.wdl.games(),
            planned: (self.end - self.first) * 2,
            wdl: tally.wdl,
            pentanomial: tally.penta,
            elo: tally.penta.elo(),
            llr: sprt.map(|s| (s.llr, s.bounds.0, s.bounds.1)),
        });
        let is_decided = sprt.is_some_and(|s| s.verdict != SprtVerdict::Continue);
        let all = next >= self.end;
        if let Some(dir) = &config.out {
            state_after(config, next - self.first, tally, is_decided || all).save(dir)?;
        }
        if is_decided || all {
            self.played.stopped_early = is_decided && !all;
            return Ok(ControlFlow::Break(()));
        }
        Ok(ControlFlow::Continue(()))
    }
}

/// Seed of engine `engine`'s seat in game `game`.
fn seat_seed(seed: u64, game: u64, engine: usize) -> u64 {
    Rng::derive(seed, game * 2 + engine as u64).next_u64()
}

/// What the workers share.
struct Shared<'a> {
    config: &'a MatchConfig,
    openings: &'a Openings,
    log: Option<&'a Arc<EngineLog>>,
}

/// A worker's seats and tables: plays pair after pair; shuts its engines down when dropped.
struct PairPlayer<'a> {
    shared: &'a Shared<'a>,
    tb: Option<Arc<fanorona_tb::Tablebase>>,
    seats: Option<[Seat; 2]>,
}

impl<'a> PairPlayer<'a> {
    fn new(shared: &'a Shared<'a>) -> Result<PairPlayer<'a>, EvalError> {
        let Shared { config, log, .. } = *shared;
        let tb =
            config.tb.as_deref().map(fanorona_engine::tablebase::open_shared).transpose().map_err(|e| {
                EvalError::Tablebase { dir: config.tb.clone().unwrap_or_default(), source: e }
            })?;
        let seats = [Seat::new(&config.engines[0], log)?, Seat::new(&config.engines[1], log)?];
        Ok(PairPlayer { shared, tb, seats: Some(seats) })
    }
}

impl Task<PairDone, EvalError> for PairPlayer<'_> {
    fn run(&mut self, pair: u64, stop: &AtomicBool) -> Option<Result<PairDone, EvalError>> {
        let Shared { config, openings, .. } = *self.shared;
        let start = match openings.get(config.first_opening.saturating_add(pair)) {
            Ok(p) => p,
            Err(e) => return Some(Err(e)),
        };
        let referee =
            Referee { rules: config.rules, tb: self.tb.as_deref(), adjudication: config.adjudication };
        let [s0, s1] = self.seats.as_mut()?;
        let mut played = Vec::with_capacity(2);
        for k in 0..2u64 {
            let game = pair * 2 + k;
            // Game 0: engine 0 White; game 1: colours swapped.
            let (w, b) = if k == 0 { (0, 1) } else { (1, 0) };
            let seeds = [seat_seed(config.seed, game, w), seat_seed(config.seed, game, b)];
            let (white, black) = if k == 0 { (&mut *s0, &mut *s1) } else { (&mut *s1, &mut *s0) };
            played.push(play_game(start, &referee, white, black, seeds, stop)?);
        }
        let played = <[Played; 2]>::try_from(played).ok()?;
        Some(Ok(PairDone { pair, played }))
    }
}

impl Drop for PairPlayer<'_> {
    fn drop(&mut self) {
        for s in self.seats.take().into_iter().flatten() {
            s.shutdown();
        }
    }
}

/// Where counted games go.
struct Outputs<'a> {
    summaries: &'a mut Vec<GameSummary>,
    records: &'a mut Vec<GameRecord>,
    writer: Option<&'a mut RecordWriter>,
    pgn: Option<&'a mut PgnOut>,
}

fn count_pair(
    config: &MatchConfig,
    names: &[String; 2],
    done: PairDone,
    tally: &mut Tally,
    out: &mut Outputs<'_>,
) -> Result<(), EvalError> {
    let mut pair_summaries = Vec::with_capacity(2);
    let mut pair_records = Vec::with_capacity(2);
    let mut pair_times = Vec::with_capacity(2);
    for (k, p) in done.played.into_iter().enumerate() {
        let index = done.pair * 2 + k as u64;
        let white_engine = k;
        let (white, black) = (&names[white_engine], &names[1 - white_engine]);
        let record = GameRecord::from_decided_game(&p.game, p.decision, &p.info, index, white, black)
            .map_err(|e| EvalError::Config(format!("game {index} cannot be recorded: {e}")))?;
        let outcome = record.outcome;
        let fault = p.fault.map(|(side, f)| FaultRecord {
            engine: if side == Color::White { white_engine } else { 1 - white_engine },
            reason: format!("{}: {}", f.termination, f.reason),
        });
        pair_summaries.push(GameSummary {
            index,
            pair: done.pair,
            white_engine,
            outcome,
            plies: record.len(),
            fault,
        });
        pair_records.push(record);
        tally.cpu[white_engine].merge(&p.cpu[Color::White.index()]);
        tally.cpu[1 - white_engine].merge(&p.cpu[Color::Black.index()]);
        pair_times.push(p.times);
    }
    if let Some(w) = out.writer.as_deref_mut() {
        for r in &pair_records {
            w.write(r)?;
        }
        w.flush()?;
    }
    if let Some(pgn) = out.pgn.as_deref_mut() {
        for (r, t) in pair_records.iter().zip(&pair_times) {
            pgn.write(r, t)?;
        }
        pgn.flush()?;
    }
    let pair: [GameSummary; 2] = [pair_summaries[0].clone(), pair_summaries[1].clone()];
    tally.add_pair(&pair);
    out.summaries.extend(pair_summaries);
    if config.keep_records {
        out.records.extend(pair_records);
    }
    Ok(())
}
