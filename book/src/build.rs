//! [`BookBuilder`]: a book from games: for each position of each game's first turns, the turn
//! played and how the game ended for its player.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};

use fanorona_core::{Color, Move, Position};
use fanorona_io::{IoError, Output};

use crate::BookError;
use crate::format::{ENTRY_LEN, Entry, Header, Key, Stats};

/// The most (position, turn) pairs a builder holds by default (about 1.5 GiB).
pub const DEFAULT_MAX_PAIRS: usize = 20_000_000;

/// Gathers games into book entries.
#[derive(Debug)]
pub struct BookBuilder {
    plies: usize,
    limit: usize,
    pairs: HashMap<Key, Entry>,
    games: u64,
}

/// What a build kept and dropped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Built {
    /// The entries kept, sorted as the file has them.
    pub entries: Vec<Entry>,
    /// Games read.
    pub games: u64,
    /// (position, turn) pairs seen, kept or not.
    pub pairs: u64,
    /// Distinct positions among the entries kept.
    pub positions: u64,
    /// The fewest games of an entry kept.
    pub min_games: u32,
}

impl BookBuilder {
    /// A builder keeping the first `plies` turns of each game, holding at most
    /// [`DEFAULT_MAX_PAIRS`] pairs.
    pub fn new(plies: usize) -> BookBuilder {
        BookBuilder::with_limit(plies, DEFAULT_MAX_PAIRS)
    }

    /// A builder holding at most `limit` (position, turn) pairs.
    pub fn with_limit(plies: usize, limit: usize) -> BookBuilder {
        BookBuilder { plies, limit, pairs: HashMap::new(), games: 0 }
    }

    /// Adds a game: its start position, its turns and its winner (`None`: drawn). Each
    /// (position, turn) pair of its first turns counts once, however often the game repeats it.
    ///
    /// # Errors
    /// [`BookError::IllegalTurn`] when a turn is not legal where it is played (nothing of the
    /// game is kept); [`BookError::TooLarge`] past the builder's limit.
    pub fn add_game(
        &mut self,
        start: Position,
        moves: &[Move],
        winner: Option<Color>,
    ) -> Result<(), BookError> {
        let mut seen: Vec<Entry> = Vec::with_capacity(self.plies.min(moves.len()));
        let mut pos = start;
        for (i, m) in moves.iter().take(self.plies).enumerate() {
            let next = pos.play(m).map_err(|_| BookError::IllegalTurn {
                game: self.games,
                ply: i + 1,
                turn: m.to_string(),
                position: pos.to_string(),
            })?;
            let entry = Entry { position: pos, turn: m.turn(), stats: Stats::default(), score: None };
            if !seen.iter().any(|e| e.key() == entry.key()) {
                seen.push(entry);
            }
            pos = next;
        }
        for entry in seen {
            let key = entry.key();
            if !self.pairs.contains_key(&key) && self.pairs.len() >= self.limit {
                return Err(BookError::TooLarge { limit: self.limit });
            }
            let mover = entry.position.turn();
            self.pairs.entry(key).or_insert(entry).stats.add(winner.map(|w| w == mover));
        }
        self.games += 1;
        Ok(())
    }

    /// Games added.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The entries played in at least `min_games` games (at least 1), sorted.
    pub fn finish(self, min_games: u32) -> Built {
        let min_games = min_games.max(1);
        let pairs = self.pairs.len() as u64;
        let mut entries: Vec<Entry> =
            self.pairs.into_values().filter(|e| e.stats.games() >= u64::from(min_games)).collect();
        entries.sort_unstable_by_key(Entry::key);
        let mut positions = 0;
        for (i, e) in entries.iter().enumerate() {
            if i == 0 || entries[i - 1].position != e.position {
                positions += 1;
            }
        }
        Built { entries, games: self.games, pairs, positions, min_games }
    }
}

/// Writes a book of `entries` (sorted, as [`BookBuilder::finish`] gives them) to `out`: the
/// temporary written and synced, then put in place; nothing is left behind on failure. A book
/// whose entries carry analysed scores is written as format version 2 (then every entry must
/// have one, within ±[`crate::format::MAX_SCORE`]), others as version 1.
///
/// # Errors
/// [`BookError::MixedScores`] or [`BookError::ScoreRange`] for entries no book can hold (nothing
/// is written), [`BookError::Write`].
pub fn write_book(out: &Output, entries: &[Entry], min_games: u32) -> Result<(), BookError> {
    let written = write_to(out, entries, min_games);
    if written.is_err() {
        out.abandon();
    }
    written
}

fn write_to(out: &Output, entries: &[Entry], min_games: u32) -> Result<(), BookError> {
    let tmp = out.write_path();
    let io = |e| BookError::Write(IoError::io(&tmp, e));
    let mut crc = crc32fast::Hasher::new();
    for e in entries {
        crc.update(&e.encode());
    }
    let scored = entries.first().is_some_and(|e| e.score.is_some());
    if entries.iter().any(|e| e.score.is_some() != scored) {
        return Err(BookError::MixedScores);
    }
    if let Some(s) =
        entries.iter().filter_map(|e| e.score).find(|s| i32::from(*s).abs() > crate::format::MAX_SCORE)
    {
        return Err(BookError::ScoreRange(s));
    }
    let header = Header { entries: entries.len() as u64, crc: crc.finalize(), min_games, scored };
    let mut f = BufWriter::with_capacity(1024 * ENTRY_LEN, File::create(&tmp).map_err(io)?);
    f.write_all(&header.encode()).map_err(io)?;
    for e in entries {
        f.write_all(&e.encode()).map_err(io)?;
    }
    let f = f.into_inner().map_err(|e| io(e.into_error()))?;
    if out.is_special() {
        return Ok(());
    }
    f.sync_all().map_err(io)?;
    drop(f);
    out.commit()?;
    Ok(())
}
