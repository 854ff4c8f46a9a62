//! Errors of the loop.

use std::path::PathBuf;

/// Why the loop stopped.
#[derive(Debug, thiserror::Error)]
pub enum LoopError {
    /// A bad configuration value.
    #[error("loop configuration: {0}")]
    Config(String),
    /// The run directory is not usable as asked.
    #[error("run directory {path}: {what}")]
    RunDir {
        /// The directory.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A saved state file is unreadable.
    #[error("{path}: unreadable state ({what}); remove it to redo that stage")]
    State {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// Self-play failed.
    #[error("generation {generation}, self-play: {source}")]
    Selfplay {
        /// The generation.
        generation: u32,
        /// The cause.
        source: Box<fanorona_selfplay::SelfplayError>,
    },
    /// Training failed.
    #[error("generation {generation}, training: {message}")]
    Train {
        /// The generation.
        generation: u32,
        /// The cause.
        message: String,
    },
    /// A match failed.
    #[error("{stage}: {source}")]
    Match {
        /// Which match.
        stage: String,
        /// The cause.
        source: Box<fanorona_eval::EvalError>,
    },
    /// A chart could not be drawn.
    #[error(transparent)]
    Plot(#[from] fanorona_plot::PlotError),
}
