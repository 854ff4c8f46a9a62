//! The self-improvement loop: generate games with the current best engine, train a value
//! network on them, check in a match that the new network is stronger, promote it, repeat.
//!
//! A run lives in one directory (`runs/NAME/`): `loop.toml` (the configuration),
//! `gen-NNN/{games.bin, train/, candidate.fnet, gate/, *.done.json}`, `final/`,
//! `summary.json`, `report.md`, `ratings.png` and `losses.png`. Every stage finishes by writing
//! its `*.done.json` marker atomically, so a killed run continues with [`run`]`(.., resume:
//! true, ..)` from the stage it was in.

mod cluster;
mod config;
mod error;
pub mod files;
pub mod markers;
mod records;
mod report;
mod run;
mod specs;
mod stage;

pub use config::MAX_CONFIG_BYTES;
pub use config::{FinalStage, GateStage, LoopConfig, RulesSection, SelfplayStage, TrainStage};
pub use error::{LoopError, MissingShard};
pub use records::{Best, Event, RunRecord};
pub use report::{GenerationSummary, Summary};
pub use run::{amend, finished, run};
pub use stage::Stage;

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(LoopError,);
