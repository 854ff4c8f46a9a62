//! Openings: start positions for the game pairs, from a file of position strings or generated
//! by random turns from the start position.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use fanorona_core::{Color, Position};
use fanorona_engine::Rng;
use serde::{Deserialize, Serialize};

use crate::EvalError;

/// Where the openings come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OpeningSource {
    /// Every pair starts from the start position (only meaningful with non-deterministic
    /// players).
    Start,
    /// Position strings, one per line (`#` starts a comment), used in file order and cycled.
    File(PathBuf),
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

impl fmt::Display for OpeningSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpeningSource::Start => f.write_str("start"),
            OpeningSource::File(p) => write!(f, "{}", p.display()),
            OpeningSource::Random { plies, imbalance } => {
                write!(f, "random:plies={plies},imbalance={imbalance}")
            }
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
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| EvalError::Openings { source_name: name.clone(), reason: e.to_string() })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let pos: Position = line.parse().map_err(|e| EvalError::Openings {
            source_name: name.clone(),
            reason: format!("line {}: {e}", i + 1),
        })?;
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    if out.is_empty() {
        return Err(EvalError::Openings {
            source_name: name,
            reason: "no position where the game goes on".into(),
        });
    }
    Ok(out)
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
}
