//! Fanorona rules: the board, turns, legal move generation, notation, positions, Zobrist
//! hashing and perft; and the seedable random generator ([`Rng`]) that players, self-play,
//! matches and network initialisation draw from, so that every crate above gets the same
//! numbers from the same seed.
//!
//! The rules are those of the project's rule book (RULES.md): a 5x9 board of strong and weak
//! points, approach and withdrawal captures, compulsory capture and capture chains that never
//! repeat a direction twice in a row nor revisit a point.
//!
//! ```
//! use fanorona_core::{perft, Position};
//!
//! let pos = Position::start();
//! let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves.len(), 5);
//! let next = pos.play(&pos.parse_move("d3e3+").unwrap()).unwrap();
//! assert_eq!(next.to_string(), "BBBBBBBBB/BBBBBBBBB/BWB1W1WBW/WWWWWWWWW/WWWWWWWWW b");
//! assert_eq!(perft(&pos, 4), 18_026);
//! ```
#![deny(missing_docs)]

mod bad_input;
mod bitboard;
mod color;
mod diagram;
mod direction;
pub mod fen;
mod game;
mod movegen;
mod movelist;
mod moves;
pub mod notation;
mod perft;
mod perft_table;
mod point;
mod position;
mod rng;
mod tables;
mod turn;
mod window;
pub mod zobrist;

pub use bad_input::{BadInput, bad_input};
pub use bitboard::{Bitboard, BitboardIter};
pub use color::{ByColor, Color};
pub use direction::Direction;
pub use fen::ParsePositionError;
pub use game::{DrawRules, Game, GameError, Outcome, Termination};
pub use movegen::{for_each_successor, has_capture};
pub use movelist::MoveList;
pub use moves::{CaptureKind, MAX_STEPS, Move, Step};
pub use notation::{IllegalMoveError, MoveError, MoveText, ParseMoveError};
pub use perft::{perft, perft_divide, perft_divide_hashed, perft_divide_parallel, perft_hashed};
pub use perft_table::{MAX_PERFT_HASH_MIB, PerftTable, PerftTableError};
pub use point::{FILES, ParsePointError, Point, RANKS};
pub use position::{MAX_STONES, PlayError, Position, PositionError};
pub use rng::Rng;
pub use tables::{neighbor, ray};
pub use turn::{Turn, TurnList};
