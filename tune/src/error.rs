//! The errors of a tuning run.

use std::path::PathBuf;

/// Why a tuning run could not start or go on. Engine faults in games are results, counted and
/// reported as the match runner reports them, never errors.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// The tuning file is not valid (nothing was played).
    #[error("{file}: {}{reason}", line.map_or(String::new(), |l| format!("line {l}: ")))]
    Config {
        /// The file.
        file: String,
        /// The line at fault, from 1.
        line: Option<usize>,
        /// What is wrong.
        reason: String,
    },
    /// The run directory holds no run to resume, another run, or a damaged history.
    #[error("{}: {reason}", dir.display())]
    RunDir {
        /// The directory.
        dir: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// An iteration's match could not be set up or played.
    #[error("{0}")]
    Match(#[source] Box<fanorona_eval::EvalError>),
    /// The cluster command failed or left shards missing.
    #[error("iteration {iteration}: the cluster command `{command}` {what}")]
    Cluster {
        /// The iteration, from 0.
        iteration: u64,
        /// The command.
        command: String,
        /// What went wrong.
        what: String,
    },
    /// A file of the run directory could not be read or written.
    #[error(transparent)]
    Data(#[from] fanorona_data::DataError),
    /// The chart could not be written.
    #[error(transparent)]
    Plot(#[from] fanorona_plot::PlotError),
}

impl TuneError {
    /// Whether the error is the user's input being wrong (an exit code 2 matter).
    pub fn is_bad_input(&self) -> bool {
        match self {
            TuneError::Config { .. } | TuneError::RunDir { .. } => true,
            TuneError::Match(e) => e.is_bad_input(),
            TuneError::Data(e) => e.is_bad_input(),
            TuneError::Plot(e) => e.is_bad_input(),
            TuneError::Cluster { .. } => false,
        }
    }
}

impl From<fanorona_eval::EvalError> for TuneError {
    fn from(e: fanorona_eval::EvalError) -> TuneError {
        TuneError::Match(Box::new(e))
    }
}
