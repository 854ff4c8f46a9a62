//! Errors of the loop.

use std::path::PathBuf;

impl LoopError {
    /// Whether the error comes from what the user gave (a configuration, a run directory),
    /// rather than from a failure while running.
    pub fn is_bad_input(&self) -> bool {
        if let LoopError::RunFile(d) = self {
            return d.is_bad_input();
        }
        matches!(
            self,
            LoopError::Config(_)
                | LoopError::ConfigFile { .. }
                | LoopError::ConfigTooLarge { .. }
                | LoopError::Toml { .. }
                | LoopError::RunDir { .. }
                | LoopError::State { .. }
        )
    }
}

impl From<fanorona_data::DataError> for LoopError {
    fn from(e: fanorona_data::DataError) -> LoopError {
        LoopError::RunFile(Box::new(e))
    }
}

/// Why the loop stopped.
#[derive(Debug, thiserror::Error)]
pub enum LoopError {
    /// A bad configuration value.
    #[error("loop configuration: {0}")]
    Config(String),
    /// A configuration file could not be read.
    #[error("cannot read the loop configuration {path}: {source}")]
    ConfigFile {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A configuration file over the size bound (or an endless one, like `/dev/zero`).
    #[error("loop configuration {path}: larger than {} MiB, not a loop configuration", limit >> 20)]
    ConfigTooLarge {
        /// The file.
        path: PathBuf,
        /// The bound, in bytes.
        limit: u64,
    },
    /// A configuration is not valid TOML or has unknown or mistyped fields.
    #[error("loop configuration{}: {source}", path.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default())]
    Toml {
        /// The file, when read from one.
        path: Option<PathBuf>,
        /// The parser's error.
        source: toml::de::Error,
    },
    /// The configuration could not be written as TOML.
    #[error("the loop configuration cannot be written as TOML: {0}")]
    TomlOut(#[source] toml::ser::Error),
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
    /// A saved state file (a stage's marker) is unreadable.
    #[error("unreadable state; remove {path} to redo that stage")]
    State {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: Box<fanorona_data::DataError>,
    },
    /// A file of the run directory could not be written or read.
    #[error(transparent)]
    RunFile(Box<fanorona_data::DataError>),
    /// Self-play failed.
    #[error("generation {generation}, self-play: {source}")]
    Selfplay {
        /// The generation.
        generation: u32,
        /// The cause.
        source: Box<fanorona_selfplay::SelfplayError>,
    },
    /// Training failed.
    #[error("generation {generation}, training: {source}")]
    Train {
        /// The generation.
        generation: u32,
        /// The cause.
        source: Box<fanorona_train::TrainError>,
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
