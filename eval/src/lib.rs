//! Engine matches for Fanorona: which engine or checkpoint is stronger, and by how much.
//!
//! - [`run_match`]: two engines ([`EngineSpec`]: an in-process player spec of fanorona-engine
//!   or an external program speaking the engine protocol) play game pairs from shared openings
//!   with colours swapped, in parallel, under the draw rules, optionally stopped by an SPRT;
//!   every game is saved in the record format of fanorona-data and `resume` continues an
//!   interrupted match. Engine faults (crash, hang, garbage, illegal turn) lose the game and are
//!   recorded; the engine is restarted.
//! - [`run_tournament`]: a gauntlet or round robin of several engines with maximum-likelihood
//!   ratings.
//! - [`stats`]: the statistics (Elo, nElo, LOS, pentanomial, GSPRT, ratings).
//!
//! ```no_run
//! use fanorona_eval::{MatchConfig, run_match};
//!
//! let a = "alphabeta:depth=4".parse().unwrap();
//! let b = "alphabeta:depth=2".parse().unwrap();
//! let mut config = MatchConfig::new(a, b, 100);
//! config.sprt = Some("elo0=0,elo1=10".parse().unwrap());
//! let report = run_match(&config, &mut |_| {}).unwrap();
//! print!("{}", report.summary_text());
//! ```

mod error;
pub mod external;
mod game;
pub mod openings;
mod report;
mod runner;
mod seat;
pub mod spec;
pub mod state;
pub mod stats;
mod tournament;

pub use error::EvalError;
pub use openings::OpeningSource;
pub use report::{FaultRecord, GameSummary, MatchReport, SprtReport, fmt_num};
pub use runner::{MAX_GAMES, MatchConfig, Progress, run_match};
pub use spec::{Clock, EngineKind, EngineSpec, ExternalSpec};
pub use tournament::{Mode, Pairing, TournamentConfig, TournamentReport, run_tournament};
