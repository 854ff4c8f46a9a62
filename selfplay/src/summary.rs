//! Progress reports and the run summary.

use fanorona_data::stats::Stats;
use serde::Serialize;

/// Where a run stands, given to the progress callback after every game written.
#[derive(Clone, Debug, Serialize)]
pub struct Progress {
    /// Games in the file so far (resumed ones included).
    pub done: u64,
    /// Games the file will have.
    pub total: u64,
    /// Games played by this process so far.
    pub played: u64,
    /// White wins so far.
    pub white_wins: u64,
    /// Black wins so far.
    pub black_wins: u64,
    /// Draws so far.
    pub draws: u64,
    /// Mean game length in turns so far.
    pub mean_length: f64,
    /// Seconds since this process started the run.
    pub elapsed_s: f64,
}

/// What a run produced.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The output file.
    pub out: String,
    /// The shard, `I/N`.
    pub shard: String,
    /// The run's seed.
    pub seed: u64,
    /// Games kept from an earlier, interrupted run (`--resume`).
    pub resumed_games: u64,
    /// Bytes of a truncated record cut off when resuming.
    pub repaired_bytes: u64,
    /// Games played by this process.
    pub played: u64,
    /// Seconds this process took.
    pub elapsed_s: f64,
    /// Games per second played by this process.
    pub games_per_s: f64,
    /// Turns per second played by this process.
    pub turns_per_s: f64,
    /// Threads used.
    pub threads: usize,
    /// Counts over every game in the file (distinct positions included).
    pub stats: Stats,
}
