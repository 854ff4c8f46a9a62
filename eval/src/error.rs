//! The errors of match running.

use std::path::PathBuf;

use fanorona_data::DataError;

/// Why a match could not be set up or run. Engine faults during games are not errors: they
/// are game results (see [`crate::GameResult`]).
#[derive(Debug, thiserror::Error)]
pub enum EvalError {
    /// An engine description is not valid.
    #[error("invalid engine {spec:?}: {reason}")]
    Spec {
        /// The text given.
        spec: String,
        /// What is wrong.
        reason: String,
    },
    /// The openings cannot be read or generated.
    #[error("openings {source_name}: {reason}")]
    Openings {
        /// The file or generator.
        source_name: String,
        /// What is wrong.
        reason: String,
    },
    /// A match setting is not valid.
    #[error("invalid match setting: {0}")]
    Config(String),
    /// An external engine did not start or answer its handshake.
    #[error("engine {name} does not start: {reason}")]
    EngineStart {
        /// The engine.
        name: String,
        /// What happened.
        reason: String,
    },
    /// A file of the output directory could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// The game record file failed.
    #[error(transparent)]
    Data(#[from] DataError),
    /// The endgame tables for adjudication cannot be opened.
    #[error("cannot open the endgame tables in {}: {source}", dir.display())]
    Tablebase {
        /// The directory.
        dir: PathBuf,
        /// Why.
        #[source]
        source: fanorona_tb::TbError,
    },
    /// The operating system refused to start the worker threads.
    #[error("cannot start {threads} threads: {source}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why (the operating system's refusal).
        #[source]
        source: std::io::Error,
    },
    /// `eval merge` was given shards that do not belong together (or a bad output).
    #[error("cannot merge {}: {reason}", dir.display())]
    Merge {
        /// The directory at fault.
        dir: PathBuf,
        /// Why.
        reason: String,
    },
    /// An opening book (`--openings book:FILE`) cannot be read.
    #[error("openings: {0}")]
    Book(#[from] fanorona_book::BookError),
    /// An opening suite cannot be read or built.
    #[error(transparent)]
    Suite(#[from] crate::suite::SuiteError),
    /// `--resume` found no match it can continue.
    #[error("cannot resume from {}: {reason}", dir.display())]
    Resume {
        /// The output directory.
        dir: PathBuf,
        /// Why.
        reason: String,
    },
}

impl EvalError {
    /// Whether the error is the user's input being wrong (an exit code 2 matter).
    pub fn is_bad_input(&self) -> bool {
        match self {
            EvalError::Spec { .. }
            | EvalError::Openings { .. }
            | EvalError::Config(_)
            | EvalError::Resume { .. }
            | EvalError::Merge { .. }
            | EvalError::Tablebase { .. } => true,
            EvalError::Data(d) => d.is_bad_input(),
            EvalError::Book(b) => b.is_bad_input(),
            EvalError::Suite(e) => e.is_bad_input(),
            EvalError::EngineStart { .. } | EvalError::Io { .. } | EvalError::Threads { .. } => false,
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> EvalError {
        EvalError::Io { path: path.into(), source }
    }
}
