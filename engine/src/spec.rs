//! Player specs: `random`, `greedy`, `alphabeta:depth=4,eval=handcrafted`,
//! `alphabeta:nodes=20000,eval=net:PATH`, `alphabeta:depth=3,movetime=100,hash=16,eval=material`,
//! `alphabeta:movetime=100,tb=DIR` (endgame tables from `fanorona tb generate`),
//! `alphabeta:movetime=100,threads=2` (a shared-table search on two threads),
//! `alphabeta:nodes=20000,eval=embedded` (the network built into the binary),
//! `alphabeta:depth=1,noise=150,eval=material` (a weakened player: each position's score is
//! off by up to 1.5 stones).
//!
//! A spec is a kind, then optionally `:` and comma-separated `key=value` pairs. A value may
//! itself contain `:` (as in `net:PATH`), but not `,`.

use core::fmt;
use core::str::FromStr;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use crate::eval::{Evaluator, Handcrafted, MAX_NOISE, Material, Noisy};
use crate::knobs::{Knob, Knobs};
use crate::player::Player;
use crate::players::{AlphaBetaPlayer, GreedyPlayer, RandomPlayer};
use crate::search::{Limits, MAX_THREADS, Searcher, TableError, ThreadsError, check_threads};

/// The default transposition table size of an alpha-beta player, in MiB.
pub const DEFAULT_HASH_MIB: usize = 16;

/// The largest `qwidth=`: a spec's number is a small count of captures, and a larger one is
/// as good as 0 (every capture) in nearly every position.
pub const MAX_QWIDTH: usize = 255;

/// Which evaluator an alpha-beta player uses.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum EvalSpec {
    /// Stone difference.
    Material,
    /// Material plus positional terms.
    Handcrafted,
    /// The value network in a file.
    Net(PathBuf),
    /// The value network built into the binary ([`fanorona_nn::bench_network`]), `embedded`.
    Embedded,
}

/// The settings of an alpha-beta player.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct AlphaBetaSpec {
    /// Depth limit in turns.
    pub depth: Option<u32>,
    /// Node limit.
    pub nodes: Option<u64>,
    /// Time limit per turn in milliseconds.
    pub movetime: Option<u64>,
    /// Transposition table size in MiB (0: none).
    pub hash_mib: usize,
    /// Search threads (1: deterministic, the default).
    pub threads: usize,
    /// The evaluator.
    pub eval: EvalSpec,
    /// A directory of endgame tables to probe (`tb=DIR`), if any.
    pub tb: Option<PathBuf>,
    /// Captures searched at each quiescence node past the first turn, most stones first
    /// (`qwidth=K`; 0, the default: every one; [`Searcher::set_quiescence_width`]).
    pub qwidth: usize,
    /// The largest offset added to each evaluation (`noise=N`, in hundredths of a stone: 100
    /// is one stone; 0, the default: none), a fixed pseudo-random one per position and seed
    /// ([`Noisy`]), to weaken the player; at most [`MAX_NOISE`].
    pub noise: u32,
    /// An opening book to play from while it holds the position (`book=FILE`, from
    /// `fanorona book build`), if any.
    pub book: Option<PathBuf>,
    /// The search's and the handcrafted evaluation's tunable numbers (`lmr_base=120`,
    /// `threatened=34`; [`Knob`]), the defaults unless set.
    pub knobs: Knobs,
}

impl AlphaBetaSpec {
    /// Reads the `key=value` list of an alpha-beta spec, the text after `alphabeta:`
    /// (`depth=2,eval=material`, `movetime=20, hash=32`): for settings given without the kind.
    ///
    /// # Errors
    /// As the spec's: a part that is not `key=value`, an unknown or repeated key, a bad value,
    /// and [`SpecError::NoLimit`] when none of `depth`, `nodes` and `movetime` is set.
    pub fn from_params(params: &str) -> Result<AlphaBetaSpec, SpecError> {
        let spec = parse_alphabeta(params)?;
        if !spec.has_limit() {
            return Err(SpecError::NoLimit);
        }
        Ok(spec)
    }

    /// Whether a limit (`depth`, `nodes` or `movetime`) ends each search.
    pub fn has_limit(&self) -> bool {
        self.depth.is_some() || self.nodes.is_some() || self.movetime.is_some()
    }

    /// Writes the limits, the table size, the threads, the quiescence width, the noise and the
    /// knobs (each when not the default), each followed by `,`, in the canonical order of a
    /// player spec's text: `depth=2,nodes=5000,hash=32,threads=2,qwidth=2,noise=50,asp=40,`.
    ///
    /// # Errors
    /// When `out` fails.
    pub fn write_limits(&self, out: &mut dyn fmt::Write) -> fmt::Result {
        if let Some(d) = self.depth {
            write!(out, "depth={d},")?;
        }
        if let Some(n) = self.nodes {
            write!(out, "nodes={n},")?;
        }
        if let Some(t) = self.movetime {
            write!(out, "movetime={t},")?;
        }
        if self.hash_mib != DEFAULT_HASH_MIB {
            write!(out, "hash={},", self.hash_mib)?;
        }
        if self.threads != 1 {
            write!(out, "threads={},", self.threads)?;
        }
        if self.qwidth != 0 {
            write!(out, "qwidth={},", self.qwidth)?;
        }
        if self.noise != 0 {
            write!(out, "noise={},", self.noise)?;
        }
        self.knobs.write(out)
    }

    /// The search limits of one turn.
    pub fn limits(&self) -> Limits {
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime.map(std::time::Duration::from_millis),
        }
    }

    /// The evaluator of these settings for a player seeded with `seed`: `eval=`'s, wrapped in
    /// [`Noisy`] when `noise=` is set (the seed picks the offsets).
    ///
    /// # Errors
    /// [`SpecError::Net`] when the network cannot be loaded.
    pub fn evaluator(&self, seed: u64) -> Result<Box<dyn Evaluator>, SpecError> {
        Ok(self.with_noise(self.base_evaluator()?, seed))
    }

    /// `eval=`'s evaluator before noise: the handcrafted one with these settings' weights.
    fn base_evaluator(&self) -> Result<Box<dyn Evaluator>, SpecError> {
        Ok(match self.eval {
            EvalSpec::Handcrafted => Box::new(Handcrafted::new(self.knobs.weights())),
            _ => self.eval.build()?,
        })
    }

    /// `eval` wrapped in [`Noisy`] when `noise=` is set (the seed picks the offsets).
    fn with_noise(&self, eval: Box<dyn Evaluator>, seed: u64) -> Box<dyn Evaluator> {
        if self.noise == 0 { eval } else { Box::new(Noisy::new(eval, self.noise, seed)) }
    }

    /// The searcher of these settings: a table of exactly `hash=` MiB and `threads=` threads,
    /// both checked against this machine.
    ///
    /// # Errors
    /// [`SpecError::Threads`] or [`SpecError::Hash`] when the machine cannot give them.
    pub fn searcher(&self, eval: Box<dyn Evaluator>) -> Result<Searcher, SpecError> {
        let threads = check_threads(self.threads)?;
        let mut searcher = Searcher::try_new(eval, self.hash_mib)?;
        searcher.set_threads(threads);
        searcher.set_knobs(&self.knobs.search());
        searcher.set_quiescence_width(self.qwidth);
        Ok(searcher)
    }
}

/// A player, as text.
// A spec is read once per player, never in a search: its size does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum PlayerSpec {
    /// Uniformly random turns.
    Random,
    /// The turn that captures the most stones.
    Greedy,
    /// Alpha-beta search.
    AlphaBeta(AlphaBetaSpec),
}

impl SpecError {
    /// Always `true`: a spec, its network or its tables come from the user.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// Why a spec cannot be read or built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SpecError {
    /// The text is empty.
    #[error("empty player spec (expected random, greedy or alphabeta:depth=N,...)")]
    Empty,
    /// The kind before `:` is unknown.
    #[error("unknown player kind {0:?} (expected random, greedy or alphabeta)")]
    UnknownKind(String),
    /// A kind that takes no parameters was given some.
    #[error("player {kind} takes no parameters, got {params:?}")]
    NoParameters {
        /// The kind.
        kind: String,
        /// What followed the `:`.
        params: String,
    },
    /// A parameter is not `key=value`.
    #[error("parameter {0:?} is not key=value")]
    NotKeyValue(String),
    /// An unknown key.
    #[error("unknown parameter {key:?} for {kind} (expected {expected})")]
    UnknownKey {
        /// The kind.
        kind: String,
        /// The key.
        key: String,
        /// The keys it takes.
        expected: String,
    },
    /// A key appears twice.
    #[error("parameter {0:?} is given twice")]
    Duplicate(String),
    /// A value is out of range or not a number.
    #[error("bad value {value:?} for {key}: {reason}")]
    BadValue {
        /// The key.
        key: String,
        /// The value.
        value: String,
        /// What is wrong.
        reason: String,
    },
    /// A weight of the handcrafted evaluation given to a player with another evaluator.
    #[error("{knob} is a weight of the handcrafted evaluation; this player's evaluator is {eval}")]
    NotHandcrafted {
        /// The weight.
        knob: Knob,
        /// The evaluator.
        eval: EvalSpec,
    },
    /// An alpha-beta player without any limit would never move.
    #[error("alphabeta needs at least one limit: depth=N, nodes=N or movetime=MS")]
    NoLimit,
    /// The evaluator is unknown.
    #[error("unknown evaluator {0:?} (expected material, handcrafted, embedded or net:PATH)")]
    UnknownEval(String),
    /// The network file could not be loaded.
    #[error("cannot load network {path}: {reason}")]
    Net {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The thread count is more than this machine runs at once.
    #[error("threads: {0}")]
    Threads(#[from] ThreadsError),
    /// The transposition table cannot be allocated.
    #[error("hash: {0}")]
    Hash(#[from] TableError),
    /// The endgame tables could not be opened.
    #[error("cannot open the endgame tables in {path}: {reason}")]
    Tablebase {
        /// The directory.
        path: PathBuf,
        /// Why.
        reason: String,
    },
    /// The opening book could not be opened.
    #[error("cannot open the opening book {path}: {reason}")]
    Book {
        /// The file.
        path: PathBuf,
        /// Why (the book's own message: the byte of a damaged file).
        reason: String,
    },
}

impl EvalSpec {
    /// Builds the evaluator (loading the network file for `net:PATH`).
    ///
    /// # Errors
    /// [`SpecError::Net`] when the network cannot be loaded.
    pub fn build(&self) -> Result<Box<dyn Evaluator>, SpecError> {
        match self {
            EvalSpec::Material => Ok(Box::new(Material)),
            EvalSpec::Handcrafted => Ok(Box::new(Handcrafted::default())),
            EvalSpec::Net(path) => load_net(path),
            EvalSpec::Embedded => embedded(),
        }
    }
}

/// The embedded network as an evaluator: read and quantised once per process, then copied
/// (a copy shares the weights), so building a player is cheap.
fn embedded() -> Result<Box<dyn Evaluator>, SpecError> {
    static EMBEDDED: OnceLock<Result<crate::eval::NetEvaluator, String>> = OnceLock::new();
    let built = EMBEDDED.get_or_init(|| {
        let net = fanorona_nn::bench_network().map_err(|e| e.to_string())?;
        crate::eval::NetEvaluator::new(std::sync::Arc::new(net), "embedded").map_err(|e| e.to_string())
    });
    match built {
        Ok(eval) => Ok(eval.box_clone()),
        Err(reason) => Err(SpecError::Net { path: PathBuf::from("embedded"), reason: reason.clone() }),
    }
}

/// Loads a value network as an evaluator.
fn load_net(path: &Path) -> Result<Box<dyn Evaluator>, SpecError> {
    match crate::eval::NetEvaluator::load(path) {
        Ok(net) => Ok(Box::new(net)),
        Err(e) => Err(SpecError::Net { path: path.to_path_buf(), reason: e.reason() }),
    }
}

impl FromStr for EvalSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<EvalSpec, SpecError> {
        let t = s.trim();
        match t {
            "material" => Ok(EvalSpec::Material),
            "handcrafted" => Ok(EvalSpec::Handcrafted),
            "embedded" => Ok(EvalSpec::Embedded),
            _ => match t.strip_prefix("net:") {
                Some(path) if !path.trim().is_empty() => Ok(EvalSpec::Net(PathBuf::from(path.trim()))),
                _ => Err(SpecError::UnknownEval(t.to_string())),
            },
        }
    }
}

impl fmt::Display for EvalSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalSpec::Material => f.write_str("material"),
            EvalSpec::Handcrafted => f.write_str("handcrafted"),
            EvalSpec::Net(p) => write!(f, "net:{}", p.display()),
            EvalSpec::Embedded => f.write_str("embedded"),
        }
    }
}

fn number<T: FromStr>(key: &str, value: &str) -> Result<T, SpecError>
where
    T::Err: fmt::Display,
{
    value.parse().map_err(|e: T::Err| SpecError::BadValue {
        key: key.to_string(),
        value: value.to_string(),
        reason: e.to_string(),
    })
}

fn positive<T: FromStr + Default + PartialEq>(key: &str, value: &str) -> Result<T, SpecError>
where
    T::Err: fmt::Display,
{
    let n: T = number(key, value)?;
    if n == T::default() {
        return Err(SpecError::BadValue {
            key: key.to_string(),
            value: value.to_string(),
            reason: "must be at least 1".into(),
        });
    }
    Ok(n)
}

/// `n` when it is at most `max`, else the error "at most `max``unit`" for `key=value`.
fn at_most<T: PartialOrd + fmt::Display>(
    key: &str,
    value: &str,
    n: T,
    max: T,
    unit: &str,
) -> Result<T, SpecError> {
    if n > max {
        return Err(SpecError::BadValue {
            key: key.into(),
            value: value.into(),
            reason: format!("at most {max}{unit}"),
        });
    }
    Ok(n)
}

/// The settings of an alpha-beta spec's `key=value` list, limited or not.
fn parse_alphabeta(params: &str) -> Result<AlphaBetaSpec, SpecError> {
    let mut spec = AlphaBetaSpec {
        depth: None,
        nodes: None,
        movetime: None,
        hash_mib: DEFAULT_HASH_MIB,
        threads: 1,
        eval: EvalSpec::Handcrafted,
        tb: None,
        qwidth: 0,
        noise: 0,
        book: None,
        knobs: Knobs::DEFAULT,
    };
    let mut seen: Vec<&str> = Vec::new();
    for part in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once('=').ok_or_else(|| SpecError::NotKeyValue(part.to_string()))?;
        let (key, value) = (key.trim(), value.trim());
        if seen.contains(&key) {
            return Err(SpecError::Duplicate(key.to_string()));
        }
        seen.push(key);
        match key {
            "depth" => {
                let d = positive(key, value)?;
                spec.depth = Some(at_most(key, value, d, crate::search::MAX_DEPTH, "")?);
            }
            "nodes" => spec.nodes = Some(positive(key, value)?),
            "movetime" => spec.movetime = Some(positive(key, value)?),
            "hash" => {
                let h = number(key, value)?;
                spec.hash_mib = at_most(key, value, h, crate::search::MAX_HASH_MIB, " MiB")?;
            }
            "threads" => spec.threads = at_most(key, value, positive(key, value)?, MAX_THREADS, "")?,
            "eval" => spec.eval = value.parse()?,
            "qwidth" => {
                let k = number(key, value)?;
                spec.qwidth = at_most(key, value, k, MAX_QWIDTH, " (0: every capture)")?;
            }
            "noise" => {
                let n = number(key, value)?;
                spec.noise = at_most(key, value, n, MAX_NOISE, " (hundredths of a stone; 0: none)")?;
            }
            "tb" => {
                if value.is_empty() {
                    return Err(SpecError::BadValue {
                        key: key.into(),
                        value: value.into(),
                        reason: "needs a directory of endgame tables".into(),
                    });
                }
                spec.tb = Some(PathBuf::from(value));
            }
            "book" => {
                if value.is_empty() {
                    return Err(SpecError::BadValue {
                        key: key.into(),
                        value: value.into(),
                        reason: "needs a book file (from fanorona book build)".into(),
                    });
                }
                spec.book = Some(PathBuf::from(value));
            }
            _ => set_knob(&mut spec.knobs, key, value)?,
        }
    }
    if let Some(knob) = spec.knobs.changed_weight()
        && spec.eval != EvalSpec::Handcrafted
    {
        return Err(SpecError::NotHandcrafted { knob, eval: spec.eval });
    }
    Ok(spec)
}

/// Sets the knob of spec key `key` to `value`.
fn set_knob(knobs: &mut Knobs, key: &str, value: &str) -> Result<(), SpecError> {
    let Some(knob) = Knob::from_name(key) else {
        return Err(SpecError::UnknownKey {
            kind: "alphabeta".into(),
            key: key.to_string(),
            expected: format!(
                "depth, nodes, movetime, hash, threads, eval, tb, qwidth, noise, book, {}",
                Knob::names()
            ),
        });
    };
    let n: i64 = number(key, value)?;
    knobs.set(knob, n).map_err(|e| SpecError::BadValue {
        key: key.into(),
        value: value.into(),
        reason: format!("must be within {}..={}", e.knob.info().min, e.knob.info().max),
    })
}

impl FromStr for PlayerSpec {
    type Err = SpecError;

    fn from_str(s: &str) -> Result<PlayerSpec, SpecError> {
        match PlayerSpec::parse_without_limit(s)? {
            PlayerSpec::AlphaBeta(a) if !a.has_limit() => Err(SpecError::NoLimit),
            spec => Ok(spec),
        }
    }
}

impl PlayerSpec {
    /// Reads a player spec as [`FromStr`] does, but takes an alpha-beta search without a limit
    /// of its own (`alphabeta:eval=material`, see [`AlphaBetaSpec::has_limit`]), for a caller
    /// that limits it otherwise (a time control).
    ///
    /// # Errors
    /// As [`FromStr`]'s, but for [`SpecError::NoLimit`].
    pub fn parse_without_limit(s: &str) -> Result<PlayerSpec, SpecError> {
        let s = s.trim();
        if s.is_empty() {
            return Err(SpecError::Empty);
        }
        let (kind, params) = match s.split_once(':') {
            Some((k, p)) => (k.trim(), Some(p)),
            None => (s, None),
        };
        let no_params = |spec: PlayerSpec| match params {
            Some(p) if !p.trim().is_empty() => {
                Err(SpecError::NoParameters { kind: kind.to_string(), params: p.to_string() })
            }
            _ => Ok(spec),
        };
        match kind {
            "random" => no_params(PlayerSpec::Random),
            "greedy" => no_params(PlayerSpec::Greedy),
            "alphabeta" | "ab" => Ok(PlayerSpec::AlphaBeta(parse_alphabeta(params.unwrap_or(""))?)),
            _ => Err(SpecError::UnknownKind(kind.to_string())),
        }
    }
}

impl fmt::Display for PlayerSpec {
    /// The canonical text: `alphabeta:` then depth, nodes, movetime, hash, threads, qwidth and
    /// noise (when not the default), eval, tb and book (when set), in that order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::AlphaBeta(a) => {
                f.write_str("alphabeta:")?;
                a.write_limits(f)?;
                write!(f, "eval={}", a.eval)?;
                if let Some(tb) = &a.tb {
                    write!(f, ",tb={}", tb.display())?;
                }
                if let Some(book) = &a.book {
                    write!(f, ",book={}", book.display())?;
                }
                Ok(())
            }
        }
    }
}

impl PlayerSpec {
    /// Builds the player, seeded with `seed` (random and greedy players draw their choices
    /// from it, a `noise=` player its evaluation offsets).
    ///
    /// # Errors
    /// When the evaluator cannot be built (a network file that does not load), the table
    /// cannot be allocated or the machine has fewer threads than the spec asks for.
    pub fn build(&self, seed: u64) -> Result<Box<dyn Player>, SpecError> {
        Ok(match self {
            PlayerSpec::Random => Box::new(RandomPlayer::new(seed)),
            PlayerSpec::Greedy => Box::new(GreedyPlayer::new(seed)),
            PlayerSpec::AlphaBeta(a) => Box::new(a.player(seed, self.to_string())?),
        })
    }
}

impl AlphaBetaSpec {
    /// The alpha-beta player of these settings named `name`, seeded with `seed` (what
    /// [`PlayerSpec::build`] boxes): its evaluator, table, threads and endgame tables.
    ///
    /// # Errors
    /// As [`PlayerSpec::build`].
    pub fn player(&self, seed: u64, name: String) -> Result<AlphaBetaPlayer, SpecError> {
        self.player_with(self.base_evaluator()?, seed, name)
    }

    /// As [`AlphaBetaSpec::player`], with `eval` in place of `eval=`'s evaluator (a network
    /// held in memory: the Python package's `Engine(spec, network=...)`).
    ///
    /// # Errors
    /// As [`PlayerSpec::build`], less the evaluator's.
    pub fn player_with(
        &self,
        eval: Box<dyn Evaluator>,
        seed: u64,
        name: String,
    ) -> Result<AlphaBetaPlayer, SpecError> {
        let searcher = self.searcher(self.with_noise(eval, seed))?;
        let mut player = AlphaBetaPlayer::with_searcher(self.limits(), searcher, name);
        if let Some(dir) = &self.tb {
            let tb = crate::tablebase::open_shared(dir)
                .map_err(|e| SpecError::Tablebase { path: dir.clone(), reason: e.to_string() })?;
            player.searcher_mut().set_tablebase(Some(tb));
        }
        if let Some(path) = &self.book {
            let book = crate::book::open_shared(path)
                .map_err(|e| SpecError::Book { path: path.clone(), reason: e.to_string() })?;
            player.set_book(Some(book));
        }
        Ok(player)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(text: &str, canonical: &str) {
        let spec: PlayerSpec = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(spec.to_string(), canonical);
        assert_eq!(canonical.parse::<PlayerSpec>().unwrap(), spec);
    }

    #[test]
    fn parses_and_round_trips() {
        round_trip("random", "random");
        round_trip(" greedy ", "greedy");
        round_trip("alphabeta:depth=4,eval=handcrafted", "alphabeta:depth=4,eval=handcrafted");
        round_trip(
            "alphabeta:eval=material,depth=3,movetime=100,hash=16",
            "alphabeta:depth=3,movetime=100,eval=material",
        );
        round_trip(
            "alphabeta:nodes=20000,eval=net:/tmp/a:b.net",
            "alphabeta:nodes=20000,eval=net:/tmp/a:b.net",
        );
        round_trip("alphabeta:depth=2,hash=0", "alphabeta:depth=2,hash=0,eval=handcrafted");
        round_trip("alphabeta:tb=/tmp/tables,depth=2", "alphabeta:depth=2,eval=handcrafted,tb=/tmp/tables");
        round_trip(
            "alphabeta:book=/tmp/b.fbk,depth=2,tb=/tmp/tables",
            "alphabeta:depth=2,eval=handcrafted,tb=/tmp/tables,book=/tmp/b.fbk",
        );
        assert!(matches!("alphabeta:depth=2,book=".parse::<PlayerSpec>(), Err(SpecError::BadValue { .. })));
        let missing: PlayerSpec = "alphabeta:depth=2,book=/nonexistent/b.fbk".parse().unwrap();
        assert!(matches!(missing.build(1), Err(SpecError::Book { .. })));
        round_trip(
            "alphabeta:threads=2,hash=8,movetime=50",
            "alphabeta:movetime=50,hash=8,threads=2,eval=handcrafted",
        );
        round_trip("alphabeta:depth=2,threads=1", "alphabeta:depth=2,eval=handcrafted");
        round_trip("alphabeta:qwidth=2,movetime=20", "alphabeta:movetime=20,qwidth=2,eval=handcrafted");
        round_trip("alphabeta:qwidth=0,depth=2,eval=material", "alphabeta:depth=2,eval=material");
        let spec: PlayerSpec = "alphabeta:nodes=20000,eval=net:runs/x.net".parse().unwrap();
        assert!(
            matches!(spec, PlayerSpec::AlphaBeta(AlphaBetaSpec { eval: EvalSpec::Net(ref p), .. }) if p == Path::new("runs/x.net"))
        );
    }

    #[test]
    fn partial_specs_parse_to_the_same_settings() {
        let full = |s: &str| match s.parse::<PlayerSpec>().unwrap() {
            PlayerSpec::AlphaBeta(a) => a,
            p => panic!("{p} is not alphabeta"),
        };
        let a = AlphaBetaSpec::from_params("movetime=20, hash=32").unwrap();
        assert_eq!(a, full("alphabeta:movetime=20,hash=32"));
        assert!(a.has_limit());
        let PlayerSpec::AlphaBeta(mut u) = PlayerSpec::parse_without_limit(" ab:eval=material").unwrap()
        else {
            panic!("alphabeta expected")
        };
        assert!(!u.has_limit());
        u.depth = Some(1);
        assert_eq!(u, full("alphabeta:eval=material,depth=1"));
        assert_eq!(PlayerSpec::parse_without_limit("greedy"), Ok(PlayerSpec::Greedy));
        assert!(PlayerSpec::parse_without_limit("alphabeta:depth=0").is_err());
    }

    #[test]
    fn errors_name_the_bad_part() {
        let e = |s: &str| s.parse::<PlayerSpec>().unwrap_err();
        assert_eq!(e(""), SpecError::Empty);
        assert_eq!(e("minimax"), SpecError::UnknownKind("minimax".into()));
        assert!(matches!(e("random:depth=3"), SpecError::NoParameters { .. }));
        assert_eq!(e("alphabeta:depth"), SpecError::NotKeyValue("depth".into()));
        assert!(matches!(e("alphabeta:depth=x"), SpecError::BadValue { ref key, .. } if key == "depth"));
        assert!(matches!(e("alphabeta:depth=0"), SpecError::BadValue { .. }));
        assert!(
            matches!(e("alphabeta:depth=2,speed=3"), SpecError::UnknownKey { ref key, .. } if key == "speed")
        );
        assert_eq!(e("alphabeta:depth=2,depth=3"), SpecError::Duplicate("depth".into()));
        assert_eq!(e("alphabeta:eval=material"), SpecError::NoLimit);
        assert_eq!(e("alphabeta"), SpecError::NoLimit);
        assert_eq!(AlphaBetaSpec::from_params(" eval=material, "), Err(SpecError::NoLimit));
        assert_eq!(AlphaBetaSpec::from_params("depth=x").map(|_| ()), Err(e("alphabeta:depth=x")));
        assert_eq!(e("alphabeta:depth=2,eval=nn"), SpecError::UnknownEval("nn".into()));
        assert!(e("alphabeta:depth=2,eval=net:").to_string().contains("net:"));
        assert!(
            matches!(e("alphabeta:depth=2,threads=0"), SpecError::BadValue { ref key, .. } if key == "threads")
        );
        assert!(
            matches!(e("alphabeta:depth=2,threads=257"), SpecError::BadValue { ref reason, .. } if reason == "at most 256")
        );
        for bad in ["-1", "256", "x", ""] {
            let text = format!("alphabeta:depth=2,qwidth={bad}");
            assert!(matches!(e(&text), SpecError::BadValue { ref key, .. } if key == "qwidth"), "{text}");
        }
    }

    #[test]
    fn builds_players() {
        for s in ["random", "greedy", "alphabeta:depth=2,eval=material", "alphabeta:nodes=100"] {
            let spec: PlayerSpec = s.parse().unwrap();
            assert!(spec.build(1).is_ok(), "{s}");
        }
        let net: PlayerSpec = "alphabeta:depth=2,eval=net:/nonexistent/file.net".parse().unwrap();
        assert!(matches!(net.build(1), Err(SpecError::Net { .. })));
        let tb: PlayerSpec = "alphabeta:depth=2,tb=/nonexistent/tables".parse().unwrap();
        assert!(matches!(tb.build(1), Err(SpecError::Tablebase { .. })));
    }

    #[test]
    fn threads_and_hash_the_machine_cannot_give_are_errors() {
        let n = crate::search::available_threads();
        let two: PlayerSpec = format!("alphabeta:depth=2,threads={}", n.min(2)).parse().unwrap();
        assert!(two.build(1).is_ok());
        if n < MAX_THREADS {
            let many: PlayerSpec = format!("alphabeta:depth=2,threads={}", n + 1).parse().unwrap();
            let e = many.build(1).err().unwrap();
            assert!(matches!(e, SpecError::Threads(ThreadsError::TooMany { .. })), "{e}");
            assert!(e.to_string().starts_with("threads: "), "{e}");
        }
        let spec = AlphaBetaSpec { hash_mib: usize::MAX, ..alphabeta("depth=2") };
        let e = spec.searcher(Box::new(Material)).unwrap_err();
        assert!(matches!(e, SpecError::Hash(_)), "{e}");
    }

    fn alphabeta(params: &str) -> AlphaBetaSpec {
        parse_alphabeta(params).unwrap()
    }

    use fanorona_core::Position;

    fn start_game() -> fanorona_core::Game {
        fanorona_core::Game::new(fanorona_core::Position::start(), fanorona_core::DrawRules::default())
    }

    #[test]
    fn embedded_round_trips_builds_and_plays() {
        round_trip("alphabeta:eval=embedded,nodes=500", "alphabeta:nodes=500,eval=embedded");
        round_trip(" alphabeta:depth=2,eval= embedded ", "alphabeta:depth=2,eval=embedded");
        assert_eq!("embedded".parse::<EvalSpec>().unwrap(), EvalSpec::Embedded);
        assert_eq!(EvalSpec::Embedded.to_string(), "embedded");
        let eval = EvalSpec::Embedded.build().unwrap();
        assert_eq!(eval.name(), "embedded");
        let spec: PlayerSpec = "alphabeta:depth=2,eval=embedded".parse().unwrap();
        let mut player = spec.build(1).unwrap();
        let game = start_game();
        let decision = player.choose(&game);
        assert!(game.legal_moves().contains(&decision.mv), "{decision:?}");
        assert!(decision.score.is_some() && decision.nodes > 0, "{decision:?}");
        // A second player reuses the network read once.
        assert!(spec.build(2).is_ok());
    }

    #[test]
    fn noise_round_trips_and_is_bounded() {
        round_trip("alphabeta:noise=150,depth=1,eval=material", "alphabeta:depth=1,noise=150,eval=material");
        round_trip(
            "alphabeta:noise=40,qwidth=2,hash=8,depth=3",
            "alphabeta:depth=3,hash=8,qwidth=2,noise=40,eval=handcrafted",
        );
        round_trip("alphabeta:noise=0,depth=2", "alphabeta:depth=2,eval=handcrafted");
        round_trip(
            "alphabeta:noise=10000,nodes=9,eval=embedded",
            "alphabeta:nodes=9,noise=10000,eval=embedded",
        );
        assert_eq!(alphabeta("depth=2,noise=75").noise, 75);
        assert_eq!(alphabeta("depth=2").noise, 0);
        let e = |s: &str| s.parse::<PlayerSpec>().unwrap_err();
        for bad in ["10001", "-1", "x", ""] {
            let text = format!("alphabeta:depth=2,noise={bad}");
            assert!(matches!(e(&text), SpecError::BadValue { ref key, .. } if key == "noise"), "{text}");
        }
        assert!(e("alphabeta:depth=2,noise=10001").to_string().contains("at most 10000"));
        assert!(e("alphabeta:depth=2,nois=3").to_string().contains("noise"));
    }

    #[test]
    fn knobs_round_trip_are_bounded_and_reach_the_player() {
        round_trip(
            "alphabeta:threatened=34,movetime=20,lmr_base=120,asp=0",
            "alphabeta:movetime=20,lmr_base=120,threatened=34,eval=handcrafted",
        );
        round_trip(
            "alphabeta:depth=3,rfp_depth=2,qdepth=6",
            "alphabeta:depth=3,rfp_depth=2,qdepth=6,eval=handcrafted",
        );
        round_trip("alphabeta:nodes=9,asp=40,eval=embedded", "alphabeta:nodes=9,asp=40,eval=embedded");
        let a = alphabeta("depth=2,killer1=700,strong=9");
        assert_eq!(a.knobs.get(Knob::Killer1), 700);
        assert_eq!(a.knobs.weights().strong, 9);
        let e = |s: &str| s.parse::<PlayerSpec>().unwrap_err();
        assert!(
            matches!(e("alphabeta:depth=2,lmr_base=401"), SpecError::BadValue { ref reason, .. } if reason == "must be within 0..=400")
        );
        assert!(matches!(e("alphabeta:depth=2,asp=x"), SpecError::BadValue { ref key, .. } if key == "asp"));
        // A weight of the handcrafted evaluation with another evaluator, in either order.
        for text in ["alphabeta:depth=2,eval=embedded,strong=5", "alphabeta:depth=2,strong=5,eval=material"] {
            assert!(matches!(e(text), SpecError::NotHandcrafted { knob: Knob::Strong, .. }), "{text}");
        }
        assert!(e("alphabeta:depth=2,lmr=3").to_string().contains("lmr_base"));
        // The weights reach the evaluator: a threatened stone costs what the knob says.
        let pos = Position::start();
        let score = |spec: &str| alphabeta(spec).evaluator(1).unwrap().evaluate(&pos);
        assert_eq!(score("depth=1"), -150);
        assert_eq!(score("depth=1,threatened=10"), -50);
        // The search's knobs reach the searcher: a deeper quiescence visits more nodes.
        let nodes = |spec: &str| {
            let game = start_game();
            alphabeta(spec).player(1, spec.into()).unwrap().choose(&game).nodes
        };
        assert_eq!(nodes("depth=3"), nodes("depth=3,lmr_base=100,qdepth=4"));
        assert!(nodes("depth=3,qdepth=8") > nodes("depth=3,qdepth=1"));
        // Reverse futility pruning cuts nodes; an aspiration window searches to the same depth
        // and answers a legal turn with a score near the full window's.
        assert!(nodes("depth=6,rfp_depth=3,rfp_margin=50") < nodes("depth=6"));
        let decide = |spec: &str| {
            let game = start_game();
            let d = alphabeta(spec).player(1, spec.into()).unwrap().choose(&game);
            assert!(game.legal_moves().contains(&d.mv), "{spec}: {d:?}");
            d
        };
        let (full, narrow) = (decide("depth=7"), decide("depth=7,asp=10"));
        assert_eq!(narrow.depth, Some(7));
        assert!((narrow.score.unwrap() - full.score.unwrap()).abs() <= 100, "{full:?} {narrow:?}");
    }

    #[test]
    fn noise_wraps_the_evaluator_by_seed() {
        let spec = alphabeta("depth=1,noise=50,eval=material");
        let pos: fanorona_core::Position = "9/9/W1BBB3B/9/8W w".parse().unwrap();
        let score = |seed: u64| spec.evaluator(seed).unwrap().evaluate(&pos);
        assert!((score(1) + 200).abs() <= 50, "{}", score(1));
        assert_eq!(score(1), score(1));
        assert!((1..20).any(|seed| score(seed) != score(1)));
        assert_eq!(alphabeta("depth=1,eval=material").evaluator(3).unwrap().evaluate(&pos), -200);
        let noisy: PlayerSpec = "alphabeta:depth=2,noise=100,eval=handcrafted".parse().unwrap();
        let game = start_game();
        let decision = noisy.build(5).unwrap().choose(&game);
        assert!(game.legal_moves().contains(&decision.mv));
    }
}
