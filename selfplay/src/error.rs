//! [`SelfplayError`].

use std::path::PathBuf;

use fanorona_data::DataError;
use fanorona_engine::SpecError;
use fanorona_tb::TbError;

impl SelfplayError {
    /// Whether the error is the user's input's fault (bad arguments, an output that may not be
    /// replaced, a file that cannot be resumed or is damaged) rather than a failure (I/O,
    /// threads, an engine bug): the binary's exit code 2 or 1.
    pub fn is_bad_input(&self) -> bool {
        match self {
            SelfplayError::Config(_)
            | SelfplayError::Player { .. }
            | SelfplayError::Resume { .. }
            | SelfplayError::Tablebase { .. } => true,
            SelfplayError::Data(d) => d.is_bad_input(),
            SelfplayError::IllegalDecision { .. }
            | SelfplayError::Threads { .. }
            | SelfplayError::Io { .. } => false,
        }
    }
}

/// Why a self-play run failed.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    /// A configuration value is out of range.
    #[error("invalid configuration: {0}")]
    Config(String),
    /// A player spec could not be built.
    #[error("cannot build player {spec}: {source}")]
    Player {
        /// The spec.
        spec: String,
        /// Why.
        #[source]
        source: SpecError,
    },
    /// The endgame tables cannot be opened.
    #[error("cannot open the endgame tables in {}: {source}", dir.display())]
    Tablebase {
        /// The directory.
        dir: std::path::PathBuf,
        /// Why.
        #[source]
        source: TbError,
    },
    /// A player answered with a turn that is not legal (an engine bug).
    #[error("game {game}, turn {ply}: player {player} chose {mv}, which is not legal in {position}")]
    IllegalDecision {
        /// Game index.
        game: u64,
        /// Ply.
        ply: usize,
        /// The player's spec.
        player: String,
        /// The turn in notation.
        mv: String,
        /// The position.
        position: String,
    },
    /// Reading or writing the output failed.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The file to resume belongs to another run.
    #[error("cannot resume {path}: {what}")]
    Resume {
        /// The file.
        path: PathBuf,
        /// Why.
        what: String,
    },
    /// The thread pool could not be built.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why (the operating system's refusal).
        #[source]
        source: std::io::Error,
    },
    /// An I/O operation outside the record file (renaming the output).
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        #[source]
        source: std::io::Error,
    },
}
