//! Fanorona endgame tablebases: every position with at most N stones (both sides holding at
//! least one), either side to move, solved by retrograde analysis.
//!
//! Each material signature (stones of the side to move, stones of the other side) is one file,
//! `3v2.fantb`, storing each position once up to the board's symmetries (left-right and
//! top-bottom mirrors; the colours are implicit, positions being seen from the side to move).
//! A value is win, draw or loss with a distance to capture (dtc), see [`Value`].
//!
//! ```
//! use fanorona_tb::{GenerateOptions, Tablebase, Value, generate};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let tb = generate(dir.path(), GenerateOptions::new(3, 1), &|_| {}).unwrap();
//! // White to move captures the last black stone by approach.
//! let pos = "9/9/9/9/W1B6 w".parse().unwrap();
//! assert_eq!(tb.probe(&pos), Ok(Value::Win(1)));
//! // The files read back the same.
//! let opened = Tablebase::open(dir.path()).unwrap();
//! assert_eq!(opened.probe(&pos), Ok(Value::Win(1)));
//! assert_eq!(opened.max_stones(), 3);
//! ```
#![deny(missing_docs)]

mod adjudicate;
mod error;
pub mod format;
mod generate;
mod index;
mod root;
mod signature;
pub mod symmetry;
mod table;
mod tablebase;
mod value;
mod verify;

pub use adjudicate::Verdict;
pub use error::{ProbeError, TbError};
pub use format::Counts;
pub use generate::{
    Event, GenerateOptions, MAX_THREADS, Mode, PairPlan, TableReport, checkpoint_path, generate,
    generate_with_events, peak_memory, plan, plan_memory, thread_limit,
};
pub use index::Indexer;
pub use root::RootMove;
pub use signature::{MAX_TB_STONES, Signature};
pub use table::Table;
pub use tablebase::Tablebase;
pub use value::{MAX_DTC, Value, Wdl};
pub use verify::{Mismatch, TableCheck, local_value, slots_to_verify, verify};

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(ProbeError, TbError,);
