//! Fanorona opening books: which turns were played in a position and how those games ended,
//! built from self-play or match games ([`BookBuilder`]), stored in a checked file format
//! (`FORMAT.md`), probed by a player ([`Book::entries`], [`best_entry`]) and walked for match
//! openings ([`book_openings`]).
//!
//! ```
//! use fanorona_book::{Book, BookBuilder, best_entry, write_book};
//! use fanorona_core::{Color, Position};
//!
//! let start = Position::start();
//! let first = start.legal_moves()[0];
//! let mut builder = BookBuilder::new(8);
//! builder.add_game(start, &[first], Some(Color::White)).unwrap();
//! builder.add_game(start, &[first], None).unwrap();
//! let built = builder.finish(2);
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("book.fbk");
//! let out = fanorona_io::Output::new(&path, fanorona_io::Existing::Refuse).unwrap();
//! write_book(&out, &built.entries, built.min_games).unwrap();
//! let book = Book::open(&path).unwrap();
//! let entries = book.entries(&start).unwrap();
//! assert_eq!(entries.len(), 1);
//! assert_eq!((entries[0].stats.wins, entries[0].stats.draws), (1, 1));
//! assert_eq!(best_entry(&entries, 1).unwrap().turn, first.turn());
//! ```
#![deny(missing_docs)]

mod book;
mod build;
mod error;
pub mod format;
mod openings;
mod pick;

pub use book::Book;
pub use build::{BookBuilder, Built, DEFAULT_MAX_PAIRS, write_book};
pub use error::BookError;
pub use format::{Entry, Stats};
pub use openings::{BookOpening, MAX_OPENINGS, book_openings, within_band};
pub use pick::{best_entry, lower_bound};

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(BookError,);
