//! Openings: start positions for the game pairs, from a file of position strings or generated
//! by random turns from the start position.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use fanorona_core::Rng;
use fanorona_core::{Color, Position};
use serde::{Deserialize, Serialize};

use crate::EvalError;
use crate::suite::{EmbeddedSuite, Suite};

/// The openings of `fanorona eval` when none are given.
pub const DEFAULT_OPENINGS: &str = "random:plies=6";

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpeningSource {
    /// Every pair starts from the start position (only meaningful with non-deterministic
    /// players).
    Start,
    /// Position strings, one per line (`#` starts a comment), used in file order and cycled.
    File(PathBuf),
    /// `file=F [order=sequential|random] [start=K] [plies=P]`: the lines of a file, each a
    /// position string optionally followed by turns (`moves` may come first), the opening
    /// being the position after the first P of them (all by default); in file order or
    /// shuffled by the match seed, from the K-th (from 1), cycled.
    Book {
        /// The file.
        path: PathBuf,
        /// Shuffled (by the seed) instead of in file order.
        random: bool,
        /// The first opening used, from 1.
        start: u64,
        /// Turns of each line played at most.
        plies: Option<u32>,
    },
    /// `book:FILE[,plies=K][,min=N][,score=LO-HI]`: the positions an opening book's lines
    /// reach in K turns (default 8) from the start position, each turn played in at least N
    /// games (default: the book's own minimum), whose side ahead scores between LO and HI in
    /// the book's games (default 0.5-1: all; `score=0.5-0.6` keeps balanced openings,
    /// `score=0.6-0.8` unbalanced ones, each played with both colours), undecided (as
    /// `random:`, at most 2 stones apart), the most played first, cycled.
    FromBook {
        /// The book file.
        path: PathBuf,
        /// Turns from the start position.
        plies: u32,
        /// Fewest games of each turn (0: the book's minimum).
        min_games: u32,
        /// Lowest score of the side ahead, in thousandths (500 to 1000).
        lo: u32,
        /// Highest score of the side ahead, in thousandths.
        hi: u32,
    },
    /// `suite:NAME`: an opening suite built into the program ([`EmbeddedSuite`]), its entries
    /// in order, cycled. (A suite file is a [`OpeningSource::File`].)
    Suite(EmbeddedSuite),
    /// `random:plies=K[,imbalance=N]`: K uniformly random turns from the start position, each
    /// opening distinct, skipping positions already decided: the game over, a side ahead by
    /// more than N stones (default 2), or the side to move able to win at once.
    Random {
        /// Turns played from the start position.
        plies: u32,
        /// Largest stone difference allowed.
        imbalance: u32,
    },
}

impl FromStr for OpeningSource {
    type Err = EvalError;

    fn from_str(text: &str) -> Result<OpeningSource, EvalError> {
        let t = text.trim();
        let bad = |reason: String| EvalError::Openings { source_name: t.to_string(), reason };
        if t == "start" || t == "startpos" {
            return Ok(OpeningSource::Start);
        }
        if t.starts_with("file=") {
            return parse_book(t);
        }
        if let Some(rest) = t.strip_prefix("book:") {
            return parse_from_book(t, rest);
        }
        if let Some(name) = t.strip_prefix("suite:") {
            let names = EmbeddedSuite::ALL.map(EmbeddedSuite::name).join(", ");
            return EmbeddedSuite::from_name(name.trim()).map(OpeningSource::Suite).ok_or_else(|| {
                bad(format!(
                    "no suite {name:?} is built in (built in: {names}; a suite file is given by its path)"
                ))
            });
        }
        let Some(params) = t.strip_prefix("random:").or(if t == "random" { Some("") } else { None }) else {
            return if t.is_empty() {
                Err(bad("empty".into()))
            } else {
                Ok(OpeningSource::File(PathBuf::from(t)))
            };
        };
        let (mut plies, mut imbalance) = (None, 2);
        for part in params.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| bad(format!("{part:?} is not key=value")))?;
            let n: u32 = v.trim().parse().map_err(|_| bad(format!("{k}={v:?} is not a number")))?;
            match k.trim() {
                "plies" => plies = Some(n),
                "imbalance" => imbalance = n,
                other => return Err(bad(format!("unknown key {other:?} (expected plies, imbalance)"))),
            }
        }
        let plies = plies.ok_or_else(|| bad("random: needs plies=K".into()))?;
        if plies == 0 || plies > 40 {
            return Err(bad("plies must be between 1 and 40".into()));
        }
        Ok(OpeningSource::Random { plies, imbalance })
    }
}

/// `book:FILE[,plies=K][,min=N][,score=LO-HI]`.
fn parse_from_book(t: &str, rest: &str) -> Result<OpeningSource, EvalError> {
    let bad = |reason: String| EvalError::Openings { source_name: t.to_string(), reason };
    let mut parts = rest.split(',').map(str::trim);
    let path = parts.next().filter(|p| !p.is_empty()).ok_or_else(|| bad("book: needs a file".into()))?;
    let (mut plies, mut min_games, mut lo, mut hi) = (8, 0, 500, 1000);
    for part in parts.filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').ok_or_else(|| bad(format!("{part:?} is not key=value")))?;
        let number = |v: &str| v.trim().parse::<u32>().map_err(|_| bad(format!("{k}={v:?} is not a number")));
        match k.trim() {
            "plies" => plies = number(v)?,
            "min" => min_games = number(v)?,
            "score" => {
                (lo, hi) = score_band(v).ok_or_else(|| {
                    bad(format!("score={v:?}: expected LO-HI, two scores from 0.5 to 1 (e.g. 0.5-0.6)"))
                })?
            }
            other => return Err(bad(format!("unknown key {other:?} (expected plies, min, score)"))),
        }
    }
    if plies == 0 || plies > 40 {
        return Err(bad("plies must be between 1 and 40".into()));
    }
    Ok(OpeningSource::FromBook { path: PathBuf::from(path), plies, min_games, lo, hi })
}

/// `LO-HI`, two scores between 0.5 and 1 with LO <= HI, in thousandths.
fn score_band(v: &str) -> Option<(u32, u32)> {
    let (lo, hi) = v.split_once('-')?;
    let milli = |s: &str| {
        let x: f64 = s.trim().parse().ok()?;
        (0.5..=1.0).contains(&x).then(|| (x * 1000.0).round() as u32)
    };
    let (lo, hi) = (milli(lo)?, milli(hi)?);
    (lo <= hi).then_some((lo, hi))
}

/// `file=F order=... start=K plies=P` (words split as a shell would: `file='my book.txt'`).
fn parse_book(t: &str) -> Result<OpeningSource, EvalError> {
    let bad = |reason: String| EvalError::Openings { source_name: t.to_string(), reason };
    let words = crate::spec::shell_words(t).map_err(&bad)?;
    let (mut path, mut random, mut start, mut plies) = (None, false, 1u64, None);
    for w in &words {
        let (k, v) = w.split_once('=').ok_or_else(|| bad(format!("{w:?} is not key=value")))?;
        match k {
            "file" if !v.is_empty() => path = Some(PathBuf::from(v)),
            "order" => {
                random = match v {
                    "sequential" => false,
                    "random" => true,
                    _ => return Err(bad(format!("order={v:?} (expected sequential or random)"))),
                }
            }
            "start" => {
                start = v
                    .parse()
                    .ok()
                    .filter(|s| *s >= 1)
                    .ok_or_else(|| bad(format!("start={v:?} must be 1 or more")))?
            }
            "plies" => plies = Some(v.parse().map_err(|_| bad(format!("plies={v:?} is not a number")))?),
            _ => return Err(bad(format!("unknown key {k:?} (allowed: file, order, start, plies)"))),
        }
    }
    let path = path.ok_or_else(|| bad("file= is empty".into()))?;
    Ok(OpeningSource::Book { path, random, start, plies })
}

impl fmt::Display for OpeningSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningSource::Start => f.write_str("start"),
            OpeningSource::File(p) => write!(f, "{}", p.display()),
            OpeningSource::Book { path, random, start, plies } => {
                let p = path.display().to_string();
                let p = if p.contains([' ', '\'', '"', '\\']) {
                    format!("'{}'", p.replace('\'', "'\\''"))
                } else {
                    p
                };
                write!(f, "file={p} order={} start={start}", if *random { "random" } else { "sequential" })?;
                match plies {
                    Some(n) => write!(f, " plies={n}"),
                    None => Ok(()),
                }
            }
            OpeningSource::Random { plies, imbalance } => {
                write!(f, "random:plies={plies},imbalance={imbalance}")
            }
            OpeningSource::Suite(s) => write!(f, "{s}"),
            OpeningSource::FromBook { path, plies, min_games, lo, hi } => {
                let milli = |x: u32| format!("{}", f64::from(x) / 1000.0);
                write!(
                    f,
                    "book:{},plies={plies},min={min_games},score={}-{}",
                    path.display(),
                    milli(*lo),
                    milli(*hi)
                )
            }
        }
    }
}

impl OpeningSource {
    /// The repeated openings of a file source, `(line, earlier line)` (none for generated
    /// ones).
    ///
    /// # Errors
    /// As [`read_book`].
    pub fn duplicates(&self) -> Result<Vec<(usize, usize)>, EvalError> {
        match self {
            OpeningSource::File(path) => Ok(read_book(path, None)?.duplicates),
            OpeningSource::Book { path, plies, .. } => Ok(read_book(path, *plies)?.duplicates),
            OpeningSource::Start
            | OpeningSource::Random { .. }
            | OpeningSource::FromBook { .. }
            | OpeningSource::Suite(_) => Ok(Vec::new()),
        }
    }
}

/// Whether a position is a fair opening: the game is not over, neither side is ahead by more
/// than `imbalance` stones, and the side to move cannot win with its next turn.
pub fn is_undecided(pos: &Position, imbalance: u32) -> bool {
    if pos.is_game_over() {
        return false;
    }
    let (w, b) = (pos.stones(Color::White).count(), pos.stones(Color::Black).count());
    if w.abs_diff(b) > imbalance {
        return false;
    }
    !pos.legal_moves().iter().any(|m| {
        let mut next = *pos;
        next.play_unchecked(m);
        next.is_game_over()
    })
}

/// Reads the openings of a file: every valid line, in order.
///
/// # Errors
/// [`EvalError::Openings`] when the file cannot be read, a line is not a position (naming the
/// line), or no line holds a game that is still going on.
pub fn read_openings(path: &Path) -> Result<Vec<Position>, EvalError> {
    Ok(read_book(path, None)?.positions.into_iter().map(|(p, _)| p).collect())
}

/// The openings of a book file, with the line each comes from and the lines that repeat an
/// earlier opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    /// Each opening and its line (from 1), in file order; games already over are left out.
    pub positions: Vec<(Position, usize)>,
    /// `(line, earlier line)` for every opening that repeats an earlier one (kept: the book's
    /// order is the user's).
    pub duplicates: Vec<(usize, usize)>,
}

/// The largest openings file read, in bytes.
pub const MAX_BOOK_BYTES: u64 = 1 << 30;
/// The most lines an openings file may have (comments and blank lines included).
pub const MAX_BOOK_LINES: usize = 2_000_000;
/// The longest line of an openings file, in bytes (a position and a few hundred turns).
pub const MAX_BOOK_LINE: u64 = 64 * 1024;

/// Reads a book: each line a position string optionally followed by turns (`moves` may come
/// first), the first `plies` of them played (all when `None`). `#` starts a comment. The file
/// is read line by line, never more than [`MAX_BOOK_BYTES`] bytes, [`MAX_BOOK_LINES`] lines or
/// [`MAX_BOOK_LINE`] bytes a line (a device such as `/dev/zero` is refused, not read whole).
///
/// # Errors
/// [`EvalError::Openings`] naming the file and the line: it cannot be read, is too large, a
/// line is not a position or has an illegal turn, or no line holds a game that is still going
/// on.
pub fn read_book(path: &Path, plies: Option<u32>) -> Result<Book, EvalError> {
    use std::io::{BufRead, Read};
    if Suite::is_suite_file(path) {
        return read_suite_file(path, plies);
    }
    let name = path.display().to_string();
    let bad = |reason: String| EvalError::Openings { source_name: name.clone(), reason };
    let meta = std::fs::metadata(path).map_err(|e| bad(e.to_string()))?;
    if meta.is_dir() {
        return Err(bad("is a directory".into()));
    }
    let size = meta.len();
    if size > MAX_BOOK_BYTES {
        return Err(bad(format!("{size} bytes is more than the {MAX_BOOK_BYTES} an openings file may have")));
    }
    let file = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
    // The size of a device or FIFO says nothing: the reads are bounded too.
    let mut input = std::io::BufReader::new(file.take(MAX_BOOK_BYTES + 1));
    let mut book = Book { positions: Vec::new(), duplicates: Vec::new() };
    let mut first_line: std::collections::HashMap<Position, usize> = std::collections::HashMap::new();
    let mut buf = Vec::new();
    let mut read = 0u64;
    let mut ln = 0usize;
    loop {
        buf.clear();
        let n = (&mut input)
            .take(MAX_BOOK_LINE + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| bad(e.to_string()))?;
        if n == 0 {
            break;
        }
        ln += 1;
        read += n as u64;
        if read > MAX_BOOK_BYTES {
            return Err(bad(format!("more than the {MAX_BOOK_BYTES} bytes an openings file may have")));
        }
        if ln > MAX_BOOK_LINES {
            return Err(bad(format!("more than the {MAX_BOOK_LINES} lines an openings file may have")));
        }
        if buf.len() as u64 > MAX_BOOK_LINE {
            return Err(bad(format!("line {ln}: longer than the {MAX_BOOK_LINE} bytes a line may have")));
        }
        let text = std::str::from_utf8(&buf).map_err(|_| bad(format!("line {ln}: not UTF-8 text")))?;
        let line = text.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let pos = book_line(line, plies).map_err(|r| bad(format!("line {ln}: {r}")))?;
        if pos.is_game_over() {
            continue;
        }
        match first_line.get(&pos) {
            Some(&earlier) => book.duplicates.push((ln, earlier)),
            None => {
                first_line.insert(pos, ln);
            }
        }
        book.positions.push((pos, ln));
    }
    if book.positions.is_empty() {
        return Err(bad("no position where the game goes on".into()));
    }
    Ok(book)
}

/// The openings of a suite file (see eval/SUITE.md) as a book's: every entry checked, no
/// duplicates (a suite refuses them), the entry number for the line.
fn read_suite_file(path: &Path, plies: Option<u32>) -> Result<Book, EvalError> {
    if plies.is_some() {
        return Err(EvalError::Openings {
            source_name: path.display().to_string(),
            reason: "a suite's entries are positions without turns: plies= does not apply".into(),
        });
    }
    let suite = Suite::read(path)?;
    let positions = suite.entries.iter().enumerate().map(|(i, e)| (e.position, i + 1)).collect();
    Ok(Book { positions, duplicates: Vec::new() })
}

/// One line of a book: the position after its first `plies` turns (every turn of the line is
/// checked, played or not).
fn book_line(line: &str, plies: Option<u32>) -> Result<Position, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let head = words.iter().take(2).copied().collect::<Vec<_>>().join(" ");
    let mut pos: Position = head.parse().map_err(|e| format!("{e}"))?;
    let mut turns = words.iter().skip(2).copied().peekable();
    if turns.peek() == Some(&"moves") {
        turns.next();
    }
    let mut opening = None;
    for (k, t) in turns.enumerate() {
        if plies.is_some_and(|p| k == p as usize) {
            opening = Some(pos);
        }
        if pos.is_game_over() {
            return Err(format!("turn {} {t:?} comes after the end of the game", k + 1));
        }
        let m = pos.parse_move(t).map_err(|e| format!("turn {} {t:?} in {pos}: {e}", k + 1))?;
        pos.play_unchecked(&m);
    }
    Ok(opening.unwrap_or(pos))
}

/// `count` openings from `source` (deterministic given `seed`): the first `count` of
/// [`Openings::new`].
///
/// # Errors
/// [`EvalError::Openings`] for an unreadable file, or when not enough distinct undecided
/// random openings exist.
pub fn openings(source: &OpeningSource, count: usize, seed: u64) -> Result<Vec<Position>, EvalError> {
    let o = Openings::new(source, seed)?;
    (0..count as u64).map(|i| o.get(i)).collect()
}

/// The openings of a match, made as the pairs ask for them (a match of 10^10 games does not
/// hold 10^10 positions up front). Opening `i` is the same whatever order they are asked in.
#[derive(Debug)]
pub struct Openings {
    kind: Lazy,
}

#[derive(Debug)]
enum Lazy {
    Start,
    File(Vec<Position>),
    Random { plies: u32, imbalance: u32, state: std::sync::Mutex<RandomState> },
}

/// Random openings made so far and the generator's state.
#[derive(Debug)]
struct RandomState {
    rng: Rng,
    seen: HashSet<Position>,
    made: Vec<Position>,
    attempts: u64,
}

impl Openings {
    /// The openings of `source` with `seed` (a file is read now).
    ///
    /// # Errors
    /// [`EvalError::Openings`] for an unreadable or empty file.
    pub fn new(source: &OpeningSource, seed: u64) -> Result<Openings, EvalError> {
        let kind = match source {
            OpeningSource::Start => Lazy::Start,
            OpeningSource::File(path) => Lazy::File(read_openings(path)?),
            OpeningSource::Book { path, random, start, plies } => {
                let mut all: Vec<Position> =
                    read_book(path, *plies)?.positions.into_iter().map(|(p, _)| p).collect();
                if *random {
                    let mut rng = Rng::derive(seed, 0xB00C);
                    for i in (1..all.len()).rev() {
                        all.swap(i, rng.below(i as u64 + 1) as usize);
                    }
                }
                let k = ((start - 1) % all.len() as u64) as usize;
                all.rotate_left(k);
                Lazy::File(all)
            }
            OpeningSource::FromBook { .. } => Lazy::File(book_positions(source)?),
            OpeningSource::Suite(s) => Lazy::File(s.suite()?.positions()),
            OpeningSource::Random { plies, imbalance } => Lazy::Random {
                plies: *plies,
                imbalance: *imbalance,
                state: std::sync::Mutex::new(RandomState {
                    rng: Rng::derive(seed, 0x0BE1_1165),
                    seen: HashSet::new(),
                    made: Vec::new(),
                    attempts: 0,
                }),
            },
        };
        Ok(Openings { kind })
    }

    /// Opening `i` (from 0).
    ///
    /// # Errors
    /// [`EvalError::Openings`] when not enough distinct undecided random openings exist.
    pub fn get(&self, i: u64) -> Result<Position, EvalError> {
        match &self.kind {
            Lazy::Start => Ok(Position::start()),
            Lazy::File(all) => Ok(all[(i % all.len() as u64) as usize]),
            Lazy::Random { plies, imbalance, state } => {
                let mut st = state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                while st.made.len() as u64 <= i {
                    let wanted = st.made.len() as u64 + 1;
                    let pos = next_random(&mut st, *plies, *imbalance, wanted)?;
                    st.made.push(pos);
                }
                Ok(st.made[i as usize])
            }
        }
    }
}

/// The openings of a [`OpeningSource::FromBook`]: the book's positions after its turns, within
/// the score band and undecided, the most played first.
fn book_positions(source: &OpeningSource) -> Result<Vec<Position>, EvalError> {
    let OpeningSource::FromBook { path, plies, min_games, lo, hi } = source else {
        return Ok(Vec::new());
    };
    let book = fanorona_book::Book::open(path)?;
    let min = if *min_games == 0 { book.header().min_games } else { *min_games };
    let all = fanorona_book::book_openings(&book, *plies, min)?;
    let found = all.len();
    let kept: Vec<Position> =
        fanorona_book::within_band(all, f64::from(*lo) / 1000.0, f64::from(*hi) / 1000.0)
            .into_iter()
            .map(|o| o.position)
            .filter(|p| is_undecided(p, 2))
            .collect();
    if kept.is_empty() {
        return Err(EvalError::Openings {
            source_name: source.to_string(),
            reason: format!(
                "none of the {found} positions the book reaches in {plies} turns (each played in at least {min} games) is undecided with its side ahead scoring {}-{}",
                f64::from(*lo) / 1000.0,
                f64::from(*hi) / 1000.0
            ),
        });
    }
    Ok(kept)
}

/// The next distinct undecided random opening; at most 1000 + 200 per opening attempts in all.
fn next_random(st: &mut RandomState, plies: u32, imbalance: u32, wanted: u64) -> Result<Position, EvalError> {
    let max_attempts = 1000u64.saturating_add(wanted.saturating_mul(200));
    loop {
        st.attempts += 1;
        if st.attempts > max_attempts {
            return Err(EvalError::Openings {
                source_name: format!("random:plies={plies},imbalance={imbalance}"),
                reason: format!(
                    "found only {} distinct undecided openings of {wanted} wanted",
                    st.made.len()
                ),
            });
        }
        let mut pos = Position::start();
        let mut ok = true;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                ok = false;
                break;
            }
            let m = moves[st.rng.below(moves.len() as u64) as usize];
            pos.play_unchecked(&m);
        }
        if ok && is_undecided(&pos, imbalance) && st.seen.insert(pos) {
            return Ok(pos);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_sources_parse_and_print_back() {
        let src: OpeningSource = "book:b.fbk,plies=4,score=0.6-0.8".parse().unwrap();
        assert_eq!(
            src,
            OpeningSource::FromBook { path: "b.fbk".into(), plies: 4, min_games: 0, lo: 600, hi: 800 }
        );
        assert_eq!(src.to_string(), "book:b.fbk,plies=4,min=0,score=0.6-0.8");
        assert_eq!(src.to_string().parse::<OpeningSource>().unwrap(), src);
        let default: OpeningSource = "book:b.fbk".parse().unwrap();
        assert_eq!(default.to_string(), "book:b.fbk,plies=8,min=0,score=0.5-1");
        for bad in [
            "book:",
            "book:b.fbk,plies=0",
            "book:b.fbk,score=0.4-0.6",
            "book:b.fbk,score=0.8-0.6",
            "book:b.fbk,x=1",
        ] {
            assert!(bad.parse::<OpeningSource>().is_err(), "{bad}");
        }
    }

    #[test]
    fn random_openings_are_distinct_fair_and_reproducible() {
        let src: OpeningSource = "random:plies=4".parse().unwrap();
        let a = openings(&src, 30, 7).unwrap();
        let b = openings(&src, 30, 7).unwrap();
        assert_eq!(a, b);
        assert_ne!(a, openings(&src, 30, 8).unwrap());
        let set: HashSet<_> = a.iter().collect();
        assert_eq!(set.len(), 30);
        for p in &a {
            assert!(is_undecided(p, 2), "{p}");
            // Four turns from the start: White to move again.
            assert_eq!(p.turn(), Color::White);
        }
    }

    #[test]
    fn decided_positions_are_skipped() {
        // White captures the last black stone at once.
        let p: Position = "9/9/9/9/W1B6 w".parse().unwrap();
        assert!(!is_undecided(&p, 2));
        // Four stones up.
        let p: Position = "9/9/4B4/9/WWWWW4 b".parse().unwrap();
        assert!(!is_undecided(&p, 2));
        assert!(is_undecided(&Position::start(), 0));
    }

    #[test]
    fn file_openings() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("book.txt");
        std::fs::write(
            &path,
            "# book\nBBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w\n\n9/9/9/9/W1B6 b # comment\n",
        )
        .unwrap();
        let o = openings(&OpeningSource::File(path.clone()), 3, 0).unwrap();
        assert_eq!(o.len(), 3);
        assert_eq!(o[0], Position::start());
        assert_eq!(o[2], Position::start());
        std::fs::write(&path, "start\nBBB w\n").unwrap();
        let err = read_openings(&path).unwrap_err().to_string();
        assert!(err.contains("line 1"), "{err}");
        assert!("random:plies=x".parse::<OpeningSource>().is_err());
        assert!("random:depth=3".parse::<OpeningSource>().is_err());
        assert_eq!(
            "random:plies=6".parse::<OpeningSource>().unwrap().to_string(),
            "random:plies=6,imbalance=2"
        );
    }

    #[test]
    fn openings_are_made_lazily_in_any_order() {
        let src: OpeningSource = "random:plies=4".parse().unwrap();
        let all = openings(&src, 20, 3).unwrap();
        let lazy = Openings::new(&src, 3).unwrap();
        assert_eq!(lazy.get(19).unwrap(), all[19]);
        assert_eq!(lazy.get(2).unwrap(), all[2]);
        // A huge match costs nothing up front.
        let huge = Openings::new(&src, 3).unwrap();
        assert_eq!(huge.get(0).unwrap(), all[0]);
        // One ply from the start has few openings: asking for too many is an error, not a hang.
        let few = Openings::new(&"random:plies=1".parse().unwrap(), 1).unwrap();
        assert!(few.get(1000).is_err());
    }

    #[test]
    fn books_with_turns_orders_starts_and_duplicates() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("my book.txt");
        let start = Position::start().to_string();
        let mut a = Position::start();
        let m = a.parse_move("d3e3+").unwrap();
        a.play_unchecked(&m);
        std::fs::write(
            &path,
            format!("{start} d3e3+ d4d3+\n{start} moves d3e3+\n{start}\n# c\n{start} d3e3+ # again\n"),
        )
        .unwrap();
        let book = read_book(&path, Some(1)).unwrap();
        assert_eq!(book.positions.iter().map(|(_, l)| *l).collect::<Vec<_>>(), [1, 2, 3, 5]);
        assert_eq!(book.positions[0].0, a);
        assert_eq!(book.duplicates, [(2, 1), (5, 1)]);
        assert_eq!(read_book(&path, None).unwrap().duplicates, [(5, 2)]);
        let src: OpeningSource =
            format!("file='{}' order=sequential start=3 plies=1", path.display()).parse().unwrap();
        assert_eq!(src.to_string().parse::<OpeningSource>().unwrap(), src);
        let o = openings(&src, 5, 0).unwrap();
        // From the third opening, cycled.
        assert_eq!(o, [Position::start(), a, a, a, Position::start()]);
        let shuffled = |seed| {
            let src = OpeningSource::Book { path: path.clone(), random: true, start: 1, plies: None };
            openings(&src, 4, seed).unwrap()
        };
        assert_eq!(shuffled(1), shuffled(1));
        let mut sorted = shuffled(2);
        sorted.sort_by_key(|p| p.to_string());
        let mut plain =
            openings(&OpeningSource::Book { path: path.clone(), random: false, start: 1, plies: None }, 4, 0)
                .unwrap();
        plain.sort_by_key(|p| p.to_string());
        assert_eq!(sorted, plain);
        // A bad turn names its line.
        std::fs::write(&path, format!("{start}\n{start} d3e3+ a1a1\n")).unwrap();
        let err = read_book(&path, None).unwrap_err().to_string();
        assert!(err.contains("my book.txt: line 2: turn 2 \"a1a1\""), "{err}");
        for bad in [
            "file=",
            "file=x order=shuffled",
            "file=x start=0",
            "file=x plies=-1",
            "file=x depth=3",
            "file='x",
        ] {
            assert!(bad.parse::<OpeningSource>().is_err(), "{bad}");
        }
    }

    #[test]
    fn endless_and_huge_files_are_refused_by_their_bounds() {
        // /dev/zero has no end and no lines: cut at the line bound, not read until memory is
        // gone.
        if Path::new("/dev/zero").exists() {
            let err = read_book(Path::new("/dev/zero"), None).unwrap_err();
            assert!(err.is_bad_input());
            let err = err.to_string();
            assert!(err.starts_with("openings /dev/zero: line 1: longer than the"), "{err}");
            let err = "/dev/zero".parse::<OpeningSource>().unwrap().duplicates().unwrap_err().to_string();
            assert!(err.contains(&MAX_BOOK_LINE.to_string()), "{err}");
        }
        let dir = tempfile::tempdir().unwrap();
        // Too many lines (blank ones count).
        let path = dir.path().join("many.txt");
        std::fs::write(&path, "\n".repeat(MAX_BOOK_LINES + 1)).unwrap();
        let err = read_book(&path, None).unwrap_err().to_string();
        assert!(
            err.contains("many.txt") && err.contains(&format!("more than the {MAX_BOOK_LINES} lines")),
            "{err}"
        );
        // A directory.
        let err = read_book(dir.path(), None).unwrap_err();
        assert!(err.is_bad_input());
        assert!(err.to_string().ends_with("is a directory"), "{err}");
        // Not text.
        std::fs::write(&path, b"\xff\xfe\n").unwrap();
        let err = read_book(&path, None).unwrap_err().to_string();
        assert!(err.contains("line 1: not UTF-8"), "{err}");
    }
}
