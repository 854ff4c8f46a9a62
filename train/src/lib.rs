//! fanorona-train: trains the engine's value network with burn.
//!
//! - [`TrainConfig`]: the whole configuration, one TOML file with `key=value` overrides.
//! - [`train`] / [`resume`]: a run over record files of fanorona-data into a run directory
//!   (checkpoints each epoch and the best, metrics CSV/JSON, a loss plot, networks exported
//!   in the engine's format), with a progress callback.
//! - [`ValueNet`]: the burn model built from the engine's [`fanorona_engine::nn::Architecture`].
//! - [`measure_throughput`]: the training speed figure.
//! - [`write_synthetic_games`]: quick record files for tests and benchmarks.
//!
//! burn is confined to this crate; the engine reads the exported network files with its own
//! plain-Rust forward pass.
#![deny(missing_docs)]

mod baseline;
mod config;
mod data;
mod error;
mod metrics;
mod model;
mod paths;
mod run;
mod schedule;
mod synthetic;
mod throughput;

pub use baseline::BaselineReport;
pub use config::{Backend, DataConfig, ModelConfig, OptimConfig, Optimizer, Schedule, Target, TrainConfig};
pub use data::{Split, expand_inputs, split_of};
pub use error::TrainError;
pub use metrics::EpochMetrics;
pub use model::{ValueNet, device_for};
pub use run::{DataSummary, Progress, TrainReport, load_checkpoint, resume, train};
pub use schedule::learning_rate;
pub use synthetic::write_synthetic_games;
pub use throughput::{Throughput, measure_throughput};

/// Re-exported so callers can build tensors for [`ValueNet`] without naming burn themselves.
pub use burn;
