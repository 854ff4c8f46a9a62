//! The errors of output files.

use std::path::PathBuf;

/// Why an output could not be written.
#[derive(Debug, thiserror::Error)]
pub enum IoError {
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// An output file exists and may not be replaced.
    #[error("{path}: exists already; not replaced (--force replaces it)")]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// A path cannot be an output (a directory), or the output cannot be put in place.
    #[error("{path}: {what}")]
    Output {
        /// The path.
        path: PathBuf,
        /// Why.
        what: String,
    },
}

impl IoError {
    /// Wraps an I/O error with the file's name.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> IoError {
        IoError::Io { path: path.into(), source }
    }

    /// Whether the error is the input's fault (an output that may not be replaced, a path that
    /// cannot be an output, a missing directory) rather than the system's (a full disk, a
    /// permission).
    pub fn is_bad_input(&self) -> bool {
        match self {
            IoError::Io { source, .. } => crate::is_bad_path(source),
            IoError::Exists { .. } | IoError::Output { .. } => true,
        }
    }
}
