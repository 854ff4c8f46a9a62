//! SPSA tuning of an engine's numbers by games, in the manner of fishtest and OpenBench: each
//! iteration perturbs every tuned number of an alpha-beta spec up or down at random, plays the
//! two engines against each other through fanorona-eval's match runner (here, or on a cluster
//! through a job array), and moves the numbers towards the side that won.
//!
//! A run is a directory: `history.json` (the settings and every finished iteration, written
//! atomically after each), `params.png` (each number by iteration) and, while an iteration is
//! in flight, its games in `iter-NNNNNN/`. A killed run resumes at the iteration in flight, its
//! finished games kept: with node- or depth-limited engines the resumed run is the
//! uninterrupted one, iteration for iteration.

pub mod chart;
pub mod config;
mod error;
pub mod history;
pub mod play;
mod run;
pub mod spsa;

pub use config::{Param, Rate, TuneConfig, parse_config, read_config};
pub use error::TuneError;
pub use history::{History, Iteration};
pub use run::{Event, run_tune};

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(TuneError,);
