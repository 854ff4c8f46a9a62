#![doc = include_str!("../README.md")]

pub mod adjudication;
pub mod cpu_share;
mod error;
pub mod external;
mod game;
pub mod log;
mod merge;
pub mod openings;
mod pgnout;
pub mod picker;
mod played;
mod report;
mod runner;
mod seat;
pub mod spec;
pub mod state;
pub mod stats;
pub mod suite;
pub mod timecontrol;
mod tournament;

pub use adjudication::{Adjudication, DrawRule, ResignRule};
pub use cpu_share::CpuShare;
pub use error::EvalError;
pub use merge::{MergeReport, merge_shards};
pub use openings::OpeningSource;
pub use picker::{Picked, Picker};
pub use played::pair_scores;
pub use report::{FaultRecord, GameSummary, MatchReport, SprtReport, fmt_num};
pub use runner::{MAX_GAMES, MatchConfig, Progress, run_match};
pub use spec::{Clock, EngineKind, EngineSpec, ExternalSpec};
pub use tournament::{Mode, Pairing, TournamentConfig, TournamentReport, run_tournament};

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(EvalError, stats::ParseSprtError, stats::RatingError, suite::SuiteError,);
