//! What each finished stage leaves behind (its `*.done.json` marker), so that a resumed run
//! and the reports can read it back without redoing the stage. Every marker has a `version`
//! ([`crate::files::MARKER_VERSION`]); markers written before they had one are read as version 1.

use std::path::PathBuf;

use fanorona_eval::stats::{Pentanomial, Wdl};
use serde::{Deserialize, Serialize};

/// A finished self-play stage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SelfplayDone {
    /// The marker's layout version ([`crate::files::MARKER_VERSION`]).
    pub version: u32,
    /// The player spec that played both sides.
    pub player: String,
    /// Games in the file.
    pub games: u64,
    /// Positions (turns) in them.
    pub positions: u64,
    /// Distinct positions.
    pub distinct_positions: u64,
    /// White wins, draws, Black wins.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// Seconds spent.
    pub seconds: f64,
}

/// One epoch of training.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochDone {
    /// Epoch number within the generation, from 1.
    pub epoch: u32,
    /// Training loss.
    #[serde(with = "fanorona_data::rundir::nan_as_null")]
    pub train_loss: f64,
    /// Validation loss.
    #[serde(with = "fanorona_data::rundir::nan_as_null")]
    pub val_loss: f64,
    /// Validation accuracy at predicting the winner.
    #[serde(with = "fanorona_data::rundir::nan_as_null")]
    pub val_accuracy: f64,
}

/// A finished training stage.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainDone {
    /// The marker's layout version ([`crate::files::MARKER_VERSION`]).
    pub version: u32,
    /// The candidate network (engine format).
    pub network: PathBuf,
    /// Networks it started from, if warm-started.
    pub warm_start: Option<PathBuf>,
    /// Game files it trained on.
    pub files: Vec<PathBuf>,
    /// Per-epoch metrics.
    pub epochs: Vec<EpochDone>,
    /// Validation loss of the material-only baseline on the same data, when measured.
    pub material_val_loss: Option<f64>,
    /// Seconds spent.
    pub seconds: f64,
}

/// A finished match (a gate or the final one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchDone {
    /// The marker's layout version ([`crate::files::MARKER_VERSION`]).
    pub version: u32,
    /// Engine 0's spec (the candidate, or the best network in the final match).
    pub engine: String,
    /// Engine 1's spec.
    pub opponent: String,
    /// The generations of engine 0 and engine 1 (0: the baseline); absent in markers of older
    /// runs, whose engines are then known by their names.
    #[serde(default)]
    pub generations: Option<(u32, u32)>,
    /// Engine 0's results.
    pub wdl: Wdl,
    /// Pair results.
    pub pentanomial: Pentanomial,
    /// Engine 0's score.
    #[serde(with = "fanorona_data::rundir::nan_as_null")]
    pub score: f64,
    /// Elo difference and the half width of its 95 % interval, when defined.
    pub elo: Option<(f64, f64)>,
    /// Likelihood of superiority.
    #[serde(with = "fanorona_data::rundir::nan_as_null")]
    pub los: f64,
    /// The SPRT verdict, when one ran.
    pub sprt: Option<String>,
    /// The summary in the usual text form.
    pub summary: String,
    /// Whether the candidate was promoted (gates only).
    pub promoted: bool,
    /// Seconds spent.
    pub seconds: f64,
}
