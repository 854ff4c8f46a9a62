//! Fanorona game records: the binary record format (FORMAT.md), a streaming
//! [`RecordWriter`] and [`RecordReader`], record checks, statistics, and training
//! [`samples`].
//!
//! ```
//! use fanorona_core::{DrawRules, Game, Position};
//! use fanorona_data::{GameRecord, Header, Kind, RecordReader, RecordWriter, TurnInfo};
//!
//! let mut game = Game::new("9/9/4B4/9/4W4 w".parse().unwrap(), DrawRules::default());
//! let m = game.position().parse_move("e1e2+").unwrap();
//! game.play(&m).unwrap();
//! let record = GameRecord::from_game(&game, &[TurnInfo::default()], 0, "me", "you").unwrap();
//!
//! let dir = tempfile::tempdir().unwrap();
//! let path = dir.path().join("games.bin");
//! let header = Header::new("doc", Kind::Match, "{}", 1);
//! let mut w = RecordWriter::create(&path, &header).unwrap();
//! w.write(&record).unwrap();
//! w.finish().unwrap();
//!
//! let r = RecordReader::open(&path).unwrap();
//! assert_eq!(r.header().config, "{}");
//! let games: Vec<GameRecord> = r.collect::<Result<_, _>>().unwrap();
//! assert_eq!(games, vec![record]);
//! ```
#![deny(missing_docs)]

mod codec;
pub mod distinct;
mod error;
mod fastdecode;
mod header;
mod merge;
mod movecode;
pub mod output;
mod reader;
mod record;
pub mod samples;
pub mod stats;
mod writer;

pub use error::{DataError, RecordError};
pub use header::{FORMAT_VERSION, Header, Kind, MAGIC, MAX_HEADER_LEN, MAX_RECORD_LEN};
pub use merge::{MergeReport, merge};
pub use movecode::{MoveCode, step_code, step_from_code};
pub use output::{Existing, Output};
pub use reader::{RecordReader, Scan, scan};
pub use record::{GameRecord, Turn, TurnInfo};
pub use samples::{Sample, SampleConfig, SampleExtractor, Samples, squash};
pub use writer::{AppendInfo, RecordWriter};

/// The program name and version to put in headers: `fanorona-data <version>` unless the
/// caller has its own.
pub const PROGRAM: &str = concat!("fanorona ", env!("CARGO_PKG_VERSION"));
