//! The trainer's errors.

use std::path::PathBuf;

impl TrainError {
    /// Whether the error is the user's input's fault (a configuration, a record or network
    /// file, a run that cannot be resumed) rather than a failure while training: the binary's
    /// exit code 2 or 1.
    pub fn is_bad_input(&self) -> bool {
        if let TrainError::Data(d) = self {
            return d.is_bad_input();
        }
        if let TrainError::Tablebase(t) = self {
            return t.is_bad_input();
        }
        matches!(
            self,
            TrainError::Config(_)
                | TrainError::ConfigFile { .. }
                | TrainError::Input { .. }
                | TrainError::NoData(_)
                | TrainError::Net(_)
                | TrainError::Network(_)
                | TrainError::Resume { .. }
        )
    }
}

/// Why training failed.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    /// The configuration is invalid.
    #[error("invalid training configuration: {0}")]
    Config(String),
    /// A configuration file could not be read or parsed.
    #[error("{path}: {message}")]
    ConfigFile {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// The data could not be read.
    #[error(transparent)]
    Data(#[from] fanorona_data::DataError),
    /// The endgame tables of `data.tablebase` could not be opened.
    #[error("data.tablebase: {0}")]
    Tablebase(#[from] fanorona_tb::TbError),
    /// There is nothing to train on.
    #[error("no training data: {0}")]
    NoData(String),
    /// An input (record file or directory) does not exist or cannot be read.
    #[error("{path}: {error}")]
    Input {
        /// The file or directory.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// A file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// A network file could not be read or written.
    #[error(transparent)]
    Net(#[from] fanorona_nn::NetError),
    /// A network does not fit the configuration.
    #[error("network: {0}")]
    Network(#[from] fanorona_nn::FormatError),
    /// The trained network does not fit the search's integer types (export refused).
    #[error("the network cannot be exported for the search: {0}")]
    Quantise(#[from] fanorona_nn::QuantError),
    /// A burn checkpoint could not be read or written.
    #[error("checkpoint {path}: {message}")]
    Checkpoint {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A run cannot be resumed.
    #[error("cannot resume {dir}: {message}")]
    Resume {
        /// The run directory.
        dir: PathBuf,
        /// Why.
        message: String,
    },
    /// Training diverged.
    #[error("training diverged at epoch {epoch}, step {step}: the loss is {loss}")]
    Diverged {
        /// Epoch (from 1).
        epoch: u32,
        /// Global step.
        step: u64,
        /// The loss.
        loss: f32,
    },
    /// The plot could not be drawn.
    #[error(transparent)]
    Plot(#[from] fanorona_plot::PlotError),
    /// The run was stopped by the caller.
    #[error("training was stopped")]
    Stopped,
    /// The training backend or the data loader failed.
    #[error("training failed: {0}")]
    Backend(String),
}

impl TrainError {
    /// An I/O error about `path`.
    pub fn io(path: &std::path::Path, error: std::io::Error) -> TrainError {
        TrainError::Io { path: path.to_path_buf(), error }
    }
}
