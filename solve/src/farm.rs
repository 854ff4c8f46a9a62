//! Farming a proof out: the distinct positions a few turns from a root (the frontier), each
//! solved on its own (anywhere: the tasks of a Slurm job array), and the root's value put back
//! together by minimax over those turns.
//!
//! The join is sound under the rules the solver proves values for (no limit on the game's
//! length): a position's value does not depend on how it was reached, and every position's
//! value is the best of its successors' values from its mover's view, so minimax over the first
//! turns of proven frontier values is the root's value.
//!
//! The frontier file is text: a first line `fanorona-frontier 1`, then `root FEN`, `plies K`,
//! `positions N`, then the N positions, one FEN a line, each from its mover's view (White to
//! move: values do not depend on the colours) in canonical form, in ascending order.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};

use fanorona_core::{Bitboard, Color, Position, for_each_successor};
use fanorona_tb::symmetry::canonical;

use crate::check::Proven;

const HEADER: &str = "fanorona-frontier 1";
/// The most positions a frontier may hold.
pub const MAX_POSITIONS: usize = 10_000_000;
/// The most turns a frontier may be from its root.
pub const MAX_PLIES: u32 = 16;

/// A position from its mover's view, canonical: the mover's stones and the other side's.
pub type Key = (u64, u64);

/// The positions `plies` turns from `root`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frontier {
    /// The position split.
    pub root: Position,
    /// Turns from the root.
    pub plies: u32,
    /// The distinct positions that far where the game goes on, canonical, ascending.
    pub positions: Vec<Key>,
}

/// Why a frontier cannot be made or read.
#[derive(Debug, thiserror::Error)]
pub enum FarmError {
    /// More plies than allowed.
    #[error("{0} plies: at most {MAX_PLIES}")]
    Plies(u32),
    /// The frontier grows past its bound.
    #[error("{plies} plies from the root reach more than {MAX_POSITIONS} positions; split fewer plies")]
    TooLarge {
        /// The plies at which it overflowed.
        plies: u32,
    },
    /// A frontier file cannot be read.
    #[error("cannot read {path}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// A frontier file is not sound.
    #[error("{path}, line {line}: {why}")]
    Bad {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        why: String,
    },
}

impl FarmError {
    /// Whether the error is the input's fault.
    pub fn is_bad_input(&self) -> bool {
        match self {
            FarmError::Io { source, .. } => fanorona_io::is_bad_path(source),
            _ => true,
        }
    }
}

fn key(us: u64, them: u64) -> Key {
    canonical(us, them)
}

/// The canonical successors of `node` (none: its mover has lost, having no stones or turn).
fn successors(node: Key, out: &mut Vec<Key>) {
    out.clear();
    if node.0 == 0 || node.1 == 0 {
        return;
    }
    for_each_successor(Bitboard(node.0), Bitboard(node.1), |moved, other| out.push(key(other.0, moved.0)));
}

/// The frontier of `root`, `plies` turns on.
///
/// # Errors
/// [`FarmError::Plies`], [`FarmError::TooLarge`].
pub fn split(root: &Position, plies: u32) -> Result<Frontier, FarmError> {
    if plies > MAX_PLIES {
        return Err(FarmError::Plies(plies));
    }
    let mut level: BTreeSet<Key> = BTreeSet::from([key(root.us().0, root.them().0)]);
    let mut kids = Vec::new();
    for depth in 1..=plies {
        let mut next = BTreeSet::new();
        for &node in &level {
            successors(node, &mut kids);
            next.extend(kids.iter().copied());
            if next.len() > MAX_POSITIONS {
                return Err(FarmError::TooLarge { plies: depth });
            }
        }
        level = next;
    }
    let positions = level.into_iter().filter(|&(us, them)| us != 0 && them != 0).collect();
    Ok(Frontier { root: *root, plies, positions })
}

/// The position of a key, White to move.
pub fn position(k: Key) -> Option<Position> {
    Position::from_stones(Bitboard(k.0), Bitboard(k.1), Color::White).ok()
}

/// The key of a position (its mover's view, canonical).
pub fn key_of(pos: &Position) -> Key {
    key(pos.us().0, pos.them().0)
}

impl Frontier {
    /// The frontier file's text.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "{HEADER}\nroot {}\nplies {}\npositions {}\n",
            self.root,
            self.plies,
            self.positions.len()
        );
        for &k in &self.positions {
            if let Some(p) = position(k) {
                s.push_str(&p.to_string());
                s.push('\n');
            }
        }
        s
    }

    /// Reads a frontier file, checking it is the frontier of its root.
    ///
    /// # Errors
    /// [`FarmError::Bad`] naming the file and line, [`FarmError::Io`].
    pub fn read(path: &Path) -> Result<Frontier, FarmError> {
        let text = read_bounded(path)?;
        let bad = |line: usize, why: String| FarmError::Bad { path: path.to_path_buf(), line, why };
        let lines: Vec<&str> = text.lines().collect();
        if lines.first() != Some(&HEADER) {
            return Err(bad(1, format!("not a frontier file (no {HEADER:?})")));
        }
        let field = |i: usize, name: &str| -> Result<&str, FarmError> {
            lines
                .get(i)
                .and_then(|l| l.strip_prefix(name))
                .and_then(|l| l.strip_prefix(' '))
                .ok_or_else(|| bad(i + 1, format!("expected `{name} ...`")))
        };
        let root: Position = field(1, "root")?.parse().map_err(|e| bad(2, format!("the root: {e}")))?;
        let plies: u32 = field(2, "plies")?.parse().map_err(|e| bad(3, format!("plies: {e}")))?;
        let count: usize = field(3, "positions")?.parse().map_err(|e| bad(4, format!("positions: {e}")))?;
        let expected = split(&root, plies).map_err(|e| bad(3, e.to_string()))?;
        if count != expected.positions.len() || lines.len() != 4 + count {
            return Err(bad(
                4,
                format!("{count} positions listed; the root has {}", expected.positions.len()),
            ));
        }
        for (i, (line, &k)) in lines[4..].iter().zip(&expected.positions).enumerate() {
            let pos: Position = line.parse().map_err(|e| bad(5 + i, format!("{e}")))?;
            if pos.turn() != Color::White || key_of(&pos) != k {
                return Err(bad(
                    5 + i,
                    format!("{line} is not the frontier's position {} of its root", i + 1),
                ));
            }
        }
        Ok(expected)
    }

    /// The root's value from the frontier's values (`value` of a frontier position, from its
    /// mover's view; `None` where unknown): `None` when the known values do not settle it.
    pub fn join(&self, value: impl Fn(Key) -> Option<Proven>) -> Option<Proven> {
        let mut memo = HashMap::new();
        let root = key_of(&self.root);
        minimax(root, self.plies, &value, &mut memo)
    }
}

fn read_bounded(path: &Path) -> Result<String, FarmError> {
    use std::io::Read;
    let io = |source| FarmError::Io { path: path.to_path_buf(), source };
    let file = fanorona_io::open_regular(path).map_err(|e| match e {
        fanorona_io::OpenError::Io(source) => FarmError::Io { path: path.to_path_buf(), source },
        fanorona_io::OpenError::NotRegular(what) => {
            FarmError::Bad { path: path.to_path_buf(), line: 0, why: format!("{what}, not a frontier file") }
        }
    })?;
    let mut text = String::new();
    // A line is at most about 60 bytes.
    let limit = (MAX_POSITIONS as u64 + 8) * 64;
    file.take(limit).read_to_string(&mut text).map_err(io)?;
    Ok(text)
}

fn negate(v: Proven) -> Option<Proven> {
    match v {
        Proven::Win => Some(Proven::Loss),
        Proven::Loss => Some(Proven::Win),
        Proven::Draw => Some(Proven::Draw),
        Proven::NotWin(_) => None,
    }
}

fn rank(v: Proven) -> u8 {
    match v {
        Proven::Loss => 0,
        Proven::Draw | Proven::NotWin(_) => 1,
        Proven::Win => 2,
    }
}

fn minimax(
    node: Key,
    left: u32,
    value: &impl Fn(Key) -> Option<Proven>,
    memo: &mut HashMap<(Key, u32), Option<Proven>>,
) -> Option<Proven> {
    if node.0 == 0 || node.1 == 0 {
        return Some(Proven::Loss);
    }
    if left == 0 {
        return value(node);
    }
    if let Some(&v) = memo.get(&(node, left)) {
        return v;
    }
    let mut kids = Vec::new();
    successors(node, &mut kids);
    let mut best: Option<Proven> = Some(Proven::Loss);
    for &kid in &kids {
        match minimax(kid, left - 1, value, memo).and_then(negate) {
            Some(Proven::Win) => {
                best = Some(Proven::Win);
                break;
            }
            Some(v) => best = best.map(|b| if rank(v) > rank(b) { v } else { b }),
            None => best = None,
        }
    }
    // An unknown successor leaves the value open unless a known one wins.
    memo.insert((node, left), best);
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frontier_round_trips_and_joins_known_values() {
        let root: Position = "B7B/9/9/9/W7W w".parse().unwrap_or_else(|e| panic!("{e}"));
        let f = split(&root, 2).unwrap_or_else(|e| panic!("{e}"));
        assert!(!f.positions.is_empty());
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("frontier.txt");
        std::fs::write(&path, f.to_text()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Frontier::read(&path).unwrap_or_else(|e| panic!("{e}")), f);
        // Every frontier position a draw: the root is a draw; one unknown: not settled.
        assert_eq!(f.join(|_| Some(Proven::Draw)), Some(Proven::Draw));
        assert_eq!(f.join(|_| None), None);
        // Every position two turns on lost for its mover (the root's mover): the root is lost
        // (no first turn of White's captures here, so none ends the game at once).
        assert_eq!(f.join(|_| Some(Proven::Loss)), Some(Proven::Loss));
        let damaged = f.to_text().replacen("plies 2", "plies 3", 1);
        std::fs::write(&path, damaged).unwrap_or_else(|e| panic!("{e}"));
        let e = Frontier::read(&path).err();
        assert!(matches!(e, Some(FarmError::Bad { line: 4, .. })), "{e:?}");
    }
}
