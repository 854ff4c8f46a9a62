//! Fanorona self-play: plays games between two players (from `fanorona-engine` player specs)
//! with randomised openings and exploration, in parallel, deterministic whatever the thread
//! count, shardable across machines, resumable after a kill; writes `fanorona-data` record
//! files.
//!
//! ```no_run
//! use fanorona_selfplay::{SelfplayConfig, Start, generate};
//!
//! let config = SelfplayConfig { games: 100, threads: 2, ..SelfplayConfig::default() };
//! let summary = generate(&config, "games.bin".as_ref(), Start::New, &mut |p| eprintln!("{}/{}", p.done, p.total))?;
//! println!("{} distinct positions", summary.stats.distinct_positions);
//! # Ok::<(), fanorona_selfplay::SelfplayError>(())
//! ```
#![deny(missing_docs)]

mod analyse;
mod config;
mod error;
pub mod explore;
mod generate;
mod play;
mod rescore;
mod summary;

pub use analyse::{AnalysisConfig, AnalysisReport, MAX_ANALYSIS_PLIES, MAX_ANALYSIS_POSITIONS, analyse_book};
pub use config::{DEFAULT_SPEC, Exploration, RunConfig, SelfplayConfig, default_spec};
pub use error::SelfplayError;
pub use generate::{Start, generate, part_path};
pub use play::{PlayerCache, game_seed, play_game, play_game_with};
pub use rescore::{RescoreReport, rescore};
pub use summary::{Progress, Summary};

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(SelfplayError,);
