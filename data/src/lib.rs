#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod action;
mod codec;
pub mod distinct;
mod ending;
mod error;
mod fastdecode;
mod find;
mod game_id;
mod header;
mod merge;
mod movecode;
pub mod npy;
pub mod npz;
pub mod npz_export;
pub mod ordered;
pub mod pgn;
mod reader;
mod record;
pub mod rundir;
pub mod sample_arrays;
pub mod samples;
mod shard;
pub mod stats;
mod writer;

pub use ending::Ending;
pub use error::{DataError, RecordError};
/// Checked outputs (`.part` and rename, special files written through): fanorona-io's, here
/// for the callers that know them from this crate.
pub use fanorona_io::output;
pub use fanorona_io::{Existing, IoError, Output};
pub use find::{FindError, MAX_FIND_DEPTH, Visited, find_record_files, is_record_file};
pub use game_id::{GameId, Split, split_of};
pub use header::{FORMAT_VERSION, Header, Kind, MAGIC, MAX_HEADER_LEN, MAX_RECORD_LEN};
pub use merge::{MergeReport, merge};
pub use movecode::{MoveCode, step_code, step_from_code};
pub use npz_export::{NpzOutput, NpzReport, export_npz};
pub use reader::{RecordReader, Scan, scan};
pub use record::{GameRecord, Turn, TurnInfo};
pub use sample_arrays::{SampleArrays, sample_columns};
pub use samples::{GameFilter, Sample, SampleConfig, SampleExtractor, Samples, Target, squash};
pub use shard::{SHARD_COUNT_ENV, SHARD_PLACEHOLDER, Shard, ShardGames};
pub use writer::{AppendInfo, RecordWriter};

/// The program name and version to put in headers: `fanorona-data <version>` unless the
/// caller has its own.
pub const PROGRAM: &str = concat!("fanorona ", env!("CARGO_PKG_VERSION"));

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(DataError, FindError, RecordError, pgn::PgnError,);
