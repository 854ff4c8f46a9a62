//! Training samples: the positions of recorded games with their targets.
//!
//! Every position in which a turn was played (the final position of a game, where nobody
//! moves, is not a sample) gives one [`Sample`] with
//! - `result`: the game's result from the side to move's view, `+1` win, `0` draw, `-1` loss;
//! - `score`: the search score of the turn played there, in centi-stones from the side to
//!   move's view, when its player searched;
//! - `target`: the blend `w * squash(score) + (1 - w) * result` with `w` =
//!   [`SampleConfig::score_weight`] when there is a score, else `result`. The squashing is
//!   `squash(s) = tanh(s / score_scale)` (default scale 400: one stone up is about 0.25,
//!   four stones up about 0.76, a forced win (|s| > 29000) is 1.0).

use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::PathBuf;
use std::sync::Arc;

use fanorona_core::Position;
use fanorona_tb::{Tablebase, Wdl};

use crate::{DataError, GameId, GameRecord, RecordError, RecordReader};

/// The trainer's default weight of the squashed score in the blended target.
pub const DEFAULT_SCORE_WEIGHT: f32 = 0.5;
/// The default centi-stones for which the squashed score is `tanh(1)`.
pub const DEFAULT_SCORE_SCALE: f32 = 400.0;

/// What the target is (the trainer's `data.target`): it sets the score weight of the blend.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    /// The game result from the side to move's view (+1, 0, -1).
    Result,
    /// The squashed search score `tanh(score / score_scale)` (the result where there is none).
    Score,
    /// `score_weight * squashed score + (1 - score_weight) * result`.
    Blend,
}

impl Target {
    /// The weight of the squashed score in the target, given the blend's `score_weight`.
    pub fn score_weight(self, score_weight: f32) -> f32 {
        match self {
            Target::Result => 0.0,
            Target::Score => 1.0,
            Target::Blend => score_weight,
        }
    }
}

impl std::str::FromStr for Target {
    type Err = String;

    fn from_str(s: &str) -> Result<Target, String> {
        match s {
            "result" => Ok(Target::Result),
            "score" => Ok(Target::Score),
            "blend" => Ok(Target::Blend),
            _ => Err(format!("unknown target {s:?} (result, score or blend)")),
        }
    }
}

/// How to turn games into samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleConfig {
    /// Skip the first plies of every game (the randomised opening): positions before turn
    /// `skip_plies` give no sample.
    pub skip_plies: usize,
    /// Weight of the squashed search score in the target, `0.0..=1.0` (0 = the game result
    /// only).
    pub score_weight: f32,
    /// Centi-stones for which the squashed score is `tanh(1)` (about 0.76).
    pub score_scale: f32,
    /// Give each position (by Zobrist hash, side to move included) only the first time it
    /// occurs in the stream. Costs 8 bytes of memory per distinct position (more with the
    /// hash set's slack).
    pub dedup: bool,
    /// Also give every sample mirrored left-right (`Position::mirror_files`), marked
    /// `mirrored` (the targets are the same: the mirror is an equally good game).
    pub mirror: bool,
    /// Check every turn against the full rules (legal move generation, several times slower).
    /// Without it a turn gets the structural checks of [`crate::MoveCode::play_fast`]; files
    /// are CRC-protected and written from rule-checked games, and `fanorona data validate`
    /// checks them fully.
    pub check_rules: bool,
    /// Only positions whose side to move has no capture (quiet positions, the only ones the
    /// search evaluates: captures are compulsory, and its quiescence plays them out first).
    pub quiet_only: bool,
    /// Leave out positions already decided: those whose recorded search score is this many
    /// centi-stones from 0 or more (a forced win is about 30000; 0: keep them all). Their
    /// squashed targets are saturated and the search rarely needs to tell them apart.
    pub max_score: u32,
}

impl Default for SampleConfig {
    fn default() -> SampleConfig {
        SampleConfig {
            skip_plies: 0,
            score_weight: 0.0,
            score_scale: DEFAULT_SCORE_SCALE,
            dedup: false,
            mirror: false,
            check_rules: false,
            quiet_only: false,
            max_score: 0,
        }
    }
}

impl SampleConfig {
    /// Whether a position with recorded score `score` is left out as already decided.
    #[inline]
    pub fn is_decided(&self, score: Option<i32>) -> bool {
        self.max_score > 0 && score.is_some_and(|s| s.unsigned_abs() >= self.max_score)
    }
}

/// One training sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    /// The position (the side to move is the one the targets speak for).
    pub position: Position,
    /// The game's result for the side to move: 1, 0 or -1.
    pub result: f32,
    /// The search score of the turn played here, centi-stones, mover's view.
    pub score: Option<i32>,
    /// The blended target in `[-1, 1]` (see the module documentation).
    pub target: f32,
    /// Index of the game in the stream (0-based across all files read), for splitting training
    /// and validation by game.
    pub game: u64,
    /// The ply of the position in its game (0 = start).
    pub ply: u32,
    /// Whether this is a mirrored copy.
    pub mirrored: bool,
    /// The turn played here: its first step's action ([`crate::action`]; mirrored with the
    /// position), the policy target.
    pub action: u16,
    /// The completed search depth of the turn played (0: it did not search).
    pub depth: u16,
    /// Whether the turn played was a random opening turn or an exploration pick.
    pub exploration: bool,
    /// Turns from this position to the game's end (1: the last turn is played here).
    pub plies_left: u32,
}

/// `tanh(score / scale)`: centi-stones to `[-1, 1]`.
#[inline]
pub fn squash(score: i32, scale: f32) -> f32 {
    (score as f32 / scale).tanh()
}

/// A hasher that passes a Zobrist key through (it is random already).
#[derive(Clone, Copy, Debug, Default)]
pub struct ZobristHasher(u64);

impl Hasher for ZobristHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(*b);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// A set of Zobrist keys.
pub type HashSet64 = HashSet<u64, BuildHasherDefault<ZobristHasher>>;

/// Turns game records into samples, remembering seen positions when deduplicating.
#[derive(Debug, Default)]
pub struct SampleExtractor {
    config: SampleConfig,
    seen: HashSet64,
    tablebase: Option<Arc<Tablebase>>,
    exact: u64,
}

impl SampleExtractor {
    /// An extractor with `config`.
    pub fn new(config: SampleConfig) -> SampleExtractor {
        SampleExtractor { config, seen: HashSet64::default(), tablebase: None, exact: 0 }
    }

    /// Labels the positions the tables cover with their exact value instead: target and
    /// result become +1, 0 or -1 for a win, draw or loss of the side to move (the tables know
    /// no draw rule, as [`Tablebase::probe`]).
    pub fn with_tablebase(mut self, tablebase: Arc<Tablebase>) -> SampleExtractor {
        self.tablebase = Some(tablebase);
        self
    }

    /// Positions labelled by the tables so far (a mirrored copy not counted again).
    pub fn exact(&self) -> u64 {
        self.exact
    }

    /// The configuration.
    pub fn config(&self) -> &SampleConfig {
        &self.config
    }

    /// Appends the samples of `record` (game number `game`) to `out`.
    ///
    /// # Errors
    /// [`RecordError::IllegalTurn`] when a turn is illegal (samples of the turns before it are
    /// appended).
    pub fn extract(
        &mut self,
        record: &GameRecord,
        game: u64,
        out: &mut Vec<Sample>,
    ) -> Result<(), RecordError> {
        let c = self.config;
        let winner = record.outcome.winner;
        let seen = &mut self.seen;
        let tablebase = self.tablebase.as_deref();
        let exact_count = &mut self.exact;
        let plies = record.turns.len();
        let mut visit = |ply: usize, pos: &Position, turn: &crate::Turn| {
            let score = turn.info.score;
            if ply < c.skip_plies || (c.quiet_only && pos.has_capture()) || c.is_decided(score) {
                return;
            }
            let mut result = match winner {
                None => 0.0,
                Some(w) if w == pos.turn() => 1.0,
                Some(_) => -1.0,
            };
            let mut target = match score {
                Some(s) => c.score_weight * squash(s, c.score_scale) + (1.0 - c.score_weight) * result,
                None => result,
            };
            if let Some(exact) = tablebase.and_then(|tb| exact_value(tb, pos)) {
                (result, target) = (exact, exact);
                *exact_count += 1;
            }
            let mut s = Sample {
                position: *pos,
                result,
                score,
                target,
                game,
                ply: ply as u32,
                mirrored: false,
                action: crate::action::first_action(pos.turn(), &turn.mv),
                depth: turn.info.depth.unwrap_or(0),
                exploration: turn.info.exploration,
                plies_left: (plies - ply) as u32,
            };
            if !c.dedup || seen.insert(pos.hash()) {
                out.push(s);
            }
            if c.mirror {
                s.position = pos.mirror_files();
                s.action = crate::action::mirror_action(s.action);
                s.mirrored = true;
                if !c.dedup || seen.insert(s.position.hash()) {
                    out.push(s);
                }
            }
        };
        if c.check_rules {
            record.for_each_position(visit)?;
            return Ok(());
        }
        let mut pos = record.start;
        for (ply, turn) in record.turns.iter().enumerate() {
            visit(ply, &pos, turn);
            match turn.mv.play_fast(&pos) {
                Some(next) => pos = next,
                None => {
                    // Let the full check name the broken rule.
                    record.for_each_position(|_, _, _| ())?;
                    return Err(RecordError::MalformedTurn {
                        ply,
                        what: format!("{} cannot be played in {pos}", turn.mv),
                    });
                }
            }
        }
        Ok(())
    }

    /// Distinct positions seen so far (only counted when deduplicating).
    pub fn distinct(&self) -> usize {
        self.seen.len()
    }
}

/// The tables' value of `pos` for its side to move (+1, 0, -1), when they cover it.
#[inline]
fn exact_value(tablebase: &Tablebase, pos: &Position) -> Option<f32> {
    // A position beyond the tables is an error of the probe, which counts the stones itself.
    tablebase.probe(pos).ok().map(|v| wdl_value(v.wdl()))
}

/// A table result as a label: +1, 0 or -1 for the side to move.
fn wdl_value(wdl: Wdl) -> f32 {
    match wdl {
        Wdl::Win => 1.0,
        Wdl::Draw => 0.0,
        Wdl::Loss => -1.0,
    }
}

/// Which games a [`Samples`] stream keeps, asked before a game's body is decoded.
pub type GameFilter = Box<dyn FnMut(GameId) -> bool + Send + Sync>;

/// An iterator of samples from record files read in order, one game in memory at a time.
///
/// Errors (a damaged file, an illegal turn) are yielded in place and end the iteration; every
/// sample of the good games before them comes first.
pub struct Samples {
    files: Vec<PathBuf>,
    next_file: usize,
    reader: Option<RecordReader>,
    extractor: SampleExtractor,
    filter: Option<GameFilter>,
    buf: Vec<Sample>,
    next: usize,
    game: u64,
    done: bool,
}

impl std::fmt::Debug for Samples {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Samples")
            .field("files", &self.files)
            .field("next_file", &self.next_file)
            .field("extractor", &self.extractor)
            .field("filtered", &self.filter.is_some())
            .field("game", &self.game)
            .field("done", &self.done)
            .finish_non_exhaustive()
    }
}

impl Samples {
    /// Samples of the games of `files`, in order.
    pub fn open(files: &[PathBuf], config: SampleConfig) -> Samples {
        Samples {
            files: files.to_vec(),
            next_file: 0,
            reader: None,
            extractor: SampleExtractor::new(config),
            filter: None,
            buf: Vec::with_capacity(1024),
            next: 0,
            game: 0,
            done: false,
        }
    }

    /// Samples of the games of `files` that `keep` accepts, in order. The games it refuses
    /// are passed over without being decoded (their frames and CRCs are still checked), and
    /// are not counted in [`Samples::games`].
    pub fn filtered(
        files: &[PathBuf],
        config: SampleConfig,
        keep: impl FnMut(GameId) -> bool + Send + Sync + 'static,
    ) -> Samples {
        Samples { filter: Some(Box::new(keep)), ..Samples::open(files, config) }
    }

    /// Labels the positions `tablebase` covers by their exact value
    /// ([`SampleExtractor::with_tablebase`]).
    pub fn with_tablebase(mut self, tablebase: Arc<Tablebase>) -> Samples {
        self.extractor = self.extractor.with_tablebase(tablebase);
        self
    }

    /// Games read so far (with a filter: the games it kept).
    pub fn games(&self) -> u64 {
        self.game
    }

    /// The next game the filter keeps from the open file, `None` at its end.
    fn next_record(&mut self) -> Option<Result<(GameRecord, u64), DataError>> {
        let reader = self.reader.as_mut()?;
        let seed = reader.header().seed;
        let record = match self.filter.as_mut() {
            Some(keep) => reader.read_record_where(&mut |index| keep(GameId { seed, index })),
            None => reader.read_record(),
        }?;
        Some(record.map(|r| (r, reader.records_read() - 1)))
    }

    fn refill(&mut self) -> Result<bool, DataError> {
        loop {
            if self.reader.is_none() {
                match self.files.get(self.next_file) {
                    Some(p) => {
                        self.next_file += 1;
                        self.reader = Some(RecordReader::open(p)?);
                        continue;
                    }
                    None => return Ok(false),
                }
            }
            match self.next_record() {
                None => self.reader = None,
                Some(Err(e)) => return Err(e),
                Some(Ok((rec, record))) => {
                    self.buf.clear();
                    self.next = 0;
                    let path = || self.reader.as_ref().map(|r| r.path().to_path_buf()).unwrap_or_default();
                    self.extractor
                        .extract(&rec, self.game, &mut self.buf)
                        .map_err(|source| DataError::Record { path: path(), record, source })?;
                    self.game += 1;
                    if !self.buf.is_empty() {
                        return Ok(true);
                    }
                }
            }
        }
    }
}

impl Iterator for Samples {
    type Item = Result<Sample, DataError>;

    #[inline]
    fn next(&mut self) -> Option<Self::Item> {
        if self.next < self.buf.len() {
            self.next += 1;
            return Some(Ok(self.buf[self.next - 1]));
        }
        if self.done {
            return None;
        }
        match self.refill() {
            Ok(true) => {
                self.next = 1;
                Some(Ok(self.buf[0]))
            }
            Ok(false) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sample_stream_may_be_shared_between_threads() {
        // The Python package holds one in a class that must be Send + Sync.
        fn shared<T: Send + Sync>() {}
        shared::<Samples>();
    }
    use crate::{Ending, MoveCode, Turn, TurnInfo};
    use fanorona_core::{Color, Outcome};

    fn record() -> GameRecord {
        // White wins from the start position after two turns, as far as the record says.
        let p0 = Position::start();
        let m0 = p0.parse_move("d3e3+").unwrap();
        let p1 = p0.play(&m0).unwrap();
        let m1 = p1.legal_moves()[0];
        let t = |m, score| Turn {
            mv: MoveCode::from_move(&m),
            info: TurnInfo { score, depth: None, exploration: false },
        };
        GameRecord {
            index: 0,
            white: String::new(),
            black: String::new(),
            start: p0,
            turns: vec![t(m0, Some(400)), t(m1, None)],
            outcome: Outcome { winner: Some(Color::White), termination: Ending::Adjudication },
        }
    }

    #[test]
    fn targets_from_the_movers_view() {
        let r = record();
        let mut x = SampleExtractor::new(SampleConfig { score_weight: 0.5, ..SampleConfig::default() });
        let mut out = Vec::new();
        x.extract(&r, 3, &mut out).unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].position, Position::start());
        assert_eq!((out[0].result, out[0].score, out[0].game, out[0].ply), (1.0, Some(400), 3, 0));
        let expect = 0.5 * 1f32.tanh() + 0.5;
        assert!((out[0].target - expect).abs() < 1e-6);
        assert_eq!(out[1].position.turn(), Color::Black);
        assert_eq!((out[1].result, out[1].score, out[1].target), (-1.0, None, -1.0));
    }

    #[test]
    fn skip_mirror_and_dedup() {
        let r = record();
        let mut x =
            SampleExtractor::new(SampleConfig { skip_plies: 1, mirror: true, ..SampleConfig::default() });
        let mut out = Vec::new();
        x.extract(&r, 0, &mut out).unwrap();
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].ply, 1);
        assert_eq!(out[1].position, out[0].position.mirror_files());
        assert!(out[1].mirrored);
        // Deduplicating: the same game twice gives its positions (and their mirrors) once.
        let mut x =
            SampleExtractor::new(SampleConfig { dedup: true, mirror: true, ..SampleConfig::default() });
        let mut out = Vec::new();
        x.extract(&r, 0, &mut out).unwrap();
        x.extract(&r, 1, &mut out).unwrap();
        assert_eq!(out.len(), 4);
        assert_eq!(x.distinct(), 4);
        assert!(out.iter().all(|s| s.game == 0));
    }

    #[test]
    fn squash_values() {
        assert_eq!(squash(0, 400.0), 0.0);
        assert!((squash(400, 400.0) - 0.761_594_2).abs() < 1e-6);
        assert_eq!(squash(29_990, 400.0), 1.0);
        assert_eq!(squash(-29_990, 400.0), -1.0);
    }

    #[test]
    fn decided_positions_are_left_out_by_their_score() {
        let r = record(); // scores 400 and none
        let extract = |max_score| {
            let mut x = SampleExtractor::new(SampleConfig { max_score, ..SampleConfig::default() });
            let mut out = Vec::new();
            x.extract(&r, 0, &mut out).unwrap();
            out.iter().map(|s| s.ply).collect::<Vec<_>>()
        };
        assert_eq!(extract(0), [0, 1]);
        assert_eq!(extract(401), [0, 1]);
        // |400| >= 400: decided; the unscored position is kept.
        assert_eq!(extract(400), [1]);
        assert!(SampleConfig { max_score: 300, ..SampleConfig::default() }.is_decided(Some(-300)));
        assert!(!SampleConfig { max_score: 300, ..SampleConfig::default() }.is_decided(None));
    }

    #[test]
    fn positions_the_tables_cover_take_their_exact_value() {
        // White d3, e3 against Black c5: 3 stones. The record says White lost (a forfeit, say)
        // and scores the turn -500; the tables know better.
        let dir = tempfile::tempdir().unwrap();
        let tb = fanorona_tb::generate(dir.path(), fanorona_tb::GenerateOptions::new(3, 1), &|_| {}).unwrap();
        let start: Position = "9/9/9/2B6/3WW4 w".parse().unwrap();
        let truth = wdl_value(tb.probe(&start).unwrap().wdl());
        let m = start.legal_moves()[0];
        let r = GameRecord {
            start,
            turns: vec![crate::Turn {
                mv: crate::MoveCode::from_move(&m),
                info: crate::TurnInfo { score: Some(-500), depth: None, exploration: false },
            }],
            outcome: fanorona_core::Outcome {
                winner: Some(fanorona_core::Color::Black),
                termination: crate::Ending::Adjudication,
            },
            ..record()
        };
        let config = SampleConfig { score_weight: 0.5, mirror: true, ..SampleConfig::default() };
        let mut x = SampleExtractor::new(config).with_tablebase(Arc::new(tb));
        let mut out = Vec::new();
        x.extract(&r, 0, &mut out).unwrap();
        assert_eq!(out.len(), 2);
        assert!(out.iter().all(|s| s.target == truth && s.result == truth), "{out:?}");
        assert_eq!(x.exact(), 1);
        // Beyond the tables (the start position's 44 stones): the blend as before.
        let mut x = SampleExtractor::new(config).with_tablebase(Arc::new(fanorona_tb::Tablebase::default()));
        let mut out = Vec::new();
        x.extract(&record(), 0, &mut out).unwrap();
        assert!((out[0].target - (0.5 * 1f32.tanh() + 0.5)).abs() < 1e-6);
        assert_eq!(x.exact(), 0);
    }
}
