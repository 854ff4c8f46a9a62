//! Openings from a book: the positions its lines reach after a number of turns, each with the
//! score its games give it, for matches that want balanced openings (a fair test) or
//! unbalanced ones (fewer draws, each played with both colours).

use std::collections::HashMap;

use fanorona_core::{Color, Position};

use crate::format::Entry;
use crate::{Book, BookError};

/// An opening a book's lines reach.
#[derive(Clone, Debug, PartialEq)]
pub struct BookOpening {
    /// The position.
    pub position: Position,
    /// Games of the book's entry that reaches it (the most played, over transpositions).
    pub games: u64,
    /// White's score in those games, 1 for a win, 0.5 for a draw (in an analysed book, the
    /// expected score of its analysis, [`Entry::mover_score`]).
    pub white_score: f64,
}

/// The most openings one walk collects.
pub const MAX_OPENINGS: usize = 1_000_000;

/// Every position reached by `plies` turns of the book from the start position, each turn
/// played in at least `min_games` games, the most played first (the position's order after
/// that), at most [`MAX_OPENINGS`].
///
/// # Errors
/// As [`Book::entries`].
pub fn book_openings(book: &Book, plies: u32, min_games: u32) -> Result<Vec<BookOpening>, BookError> {
    let mut found: HashMap<Position, BookOpening> = HashMap::new();
    walk(book, Position::start(), plies, min_games, &mut found)?;
    let mut out: Vec<BookOpening> = found.into_values().collect();
    out.sort_by(|a, b| {
        b.games.cmp(&a.games).then_with(|| {
            let key = |p: &Position| crate::format::position_key(p);
            key(&a.position).cmp(&key(&b.position))
        })
    });
    Ok(out)
}

fn walk(
    book: &Book,
    pos: Position,
    plies_left: u32,
    min_games: u32,
    found: &mut HashMap<Position, BookOpening>,
) -> Result<(), BookError> {
    for e in book.entries(&pos)?.iter().filter(|e| e.stats.games() >= u64::from(min_games)) {
        let mut next = pos;
        next.play_turn(&e.turn);
        if plies_left > 1 {
            walk(book, next, plies_left - 1, min_games, found)?;
        } else if found.len() < MAX_OPENINGS || found.contains_key(&next) {
            let opening = opening_of(e, next);
            found
                .entry(next)
                .and_modify(|o| {
                    if opening.games > o.games {
                        *o = opening.clone();
                    }
                })
                .or_insert(opening);
        }
    }
    Ok(())
}

fn opening_of(e: &Entry, position: Position) -> BookOpening {
    let mover = e.mover_score();
    let white_score = if e.position.turn() == Color::White { mover } else { 1.0 - mover };
    BookOpening { position, games: e.stats.games(), white_score }
}

/// The openings whose side ahead scores between `lo` and `hi` (the score of the side the
/// games favour, from 0.5 up: `0.5..=0.6` keeps balanced openings, `0.6..=0.8` unbalanced
/// ones).
pub fn within_band(openings: Vec<BookOpening>, lo: f64, hi: f64) -> Vec<BookOpening> {
    openings
        .into_iter()
        .filter(|o| {
            let ahead = o.white_score.max(1.0 - o.white_score);
            ahead >= lo && ahead <= hi
        })
        .collect()
}
