#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

mod baseline;
mod config;
mod crelu;
mod data;
mod error;
mod metrics;
mod model;
mod paths;
mod run;
mod schedule;
mod step;
mod synthetic;
mod throughput;

pub use baseline::BaselineReport;
pub use config::{Backend, DataConfig, ModelConfig, OptimConfig, Optimizer, Schedule, Target, TrainConfig};
pub use data::{Split, expand_inputs, split_of};
pub use error::TrainError;
pub use fanorona_data::GameId;
pub use metrics::EpochMetrics;
pub use model::{ValueNet, device_for};
pub use run::{DataSummary, Progress, TrainReport, load_checkpoint, resume, train};
pub use schedule::learning_rate;
pub use synthetic::write_synthetic_games;
pub use throughput::{Throughput, measure_throughput};

/// Re-exported so callers can build tensors for [`ValueNet`] without naming burn themselves.
pub use burn;

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(TrainError,);
