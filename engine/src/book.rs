//! Opening books in the engine: opening each once per process, and the turn a player takes
//! from one.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use fanorona_book::{Book, BookError, best_entry};
use fanorona_core::{Game, Move};

/// Opens (and checks, reading it through) the book at `path`, sharing one copy per path across
/// the process: players are built per game, the book is checked once.
///
/// # Errors
/// As [`Book::open`].
pub fn open_shared(path: &Path) -> Result<Arc<Book>, BookError> {
    static OPEN: Mutex<Option<HashMap<PathBuf, Arc<Book>>>> = Mutex::new(None);
    let key = path.to_path_buf();
    if let Some(book) = OPEN.lock().unwrap_or_else(|e| e.into_inner()).as_ref().and_then(|m| m.get(&key)) {
        return Ok(Arc::clone(book));
    }
    let book = Arc::new(Book::open(path)?);
    OPEN.lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, Arc::clone(&book));
    Ok(book)
}

/// The turn the book gives in the game's position ([`best_entry`] among the entries with the
/// book's minimum of games), as one of the position's legal turns; `None` when the book does
/// not hold the position or cannot be read any more (the player then searches).
pub fn book_move(book: &Book, game: &Game) -> Option<Move> {
    let entries = book.entries(game.position()).ok()?;
    let entry = best_entry(&entries, book.header().min_games)?;
    game.legal_moves().iter().find(|m| m.turn() == entry.turn).copied()
}
