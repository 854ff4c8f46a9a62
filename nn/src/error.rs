//! Errors of the network file format.

use std::path::PathBuf;

impl FormatError {
    /// Always `true`: the file is not a valid network.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// Why bytes are not a valid network.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FormatError {
    /// The data ends before the structure it declares.
    #[error("truncated: needs at least {needed} bytes, has {len}")]
    Truncated {
        /// Bytes needed so far.
        needed: usize,
        /// Bytes present.
        len: usize,
    },
    /// The data does not start with the network magic.
    #[error("not a fanorona network file (bad magic bytes {found:02x?})")]
    BadMagic {
        /// The first bytes found.
        found: Vec<u8>,
    },
    /// A version this build cannot read.
    #[error("network format version {found} is not supported (this build reads versions 1 to {supported})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u32,
        /// The newest version this build reads.
        supported: u32,
    },
    /// An unknown input encoding.
    #[error("unknown input encoding id {0}")]
    UnknownEncoding(u32),
    /// An unknown hidden activation.
    #[error("unknown activation id {0}")]
    UnknownActivation(u32),
    /// Layer sizes that are not a valid architecture.
    #[error("invalid architecture: {0}")]
    Architecture(String),
    /// The description is not UTF-8.
    #[error("the description is not valid UTF-8")]
    Description,
    /// The checksum does not match the contents.
    #[error("checksum mismatch: stored {stored:#010x}, computed {computed:#010x} (corrupt file)")]
    Checksum {
        /// The stored CRC-32.
        stored: u32,
        /// The CRC-32 of the contents.
        computed: u32,
    },
    /// Bytes after the checksum.
    #[error("{0} unexpected bytes after the end of the network")]
    TrailingBytes(usize),
    /// A weight is NaN or infinite.
    #[error("layer {layer} has a non-finite parameter at index {index}")]
    NonFinite {
        /// Layer number, from 0.
        layer: usize,
        /// Parameter index within the layer (weights, then biases).
        index: usize,
    },
    /// A safetensors file that is malformed or does not hold a network.
    #[error("safetensors: {0}")]
    Safetensors(String),
    /// Weights given to [`crate::Network::from_layers`] do not match the architecture.
    #[error("layer {layer}: expected {expected} values, got {got}")]
    Shape {
        /// Layer number, from 0.
        layer: usize,
        /// Expected count.
        expected: usize,
        /// Actual count.
        got: usize,
    },
}

impl NetError {
    /// Whether the error is the input's fault: a file that is missing, is not a network or
    /// cannot run in integers (not a read or write failure of the system).
    pub fn is_bad_input(&self) -> bool {
        match self {
            NetError::Io { error, .. } => error.kind() == std::io::ErrorKind::NotFound,
            NetError::Format { .. } | NetError::Quantise { .. } => true,
        }
    }
}

/// Why a network file could not be read or written.
#[derive(Debug, thiserror::Error)]
pub enum NetError {
    /// The file could not be read or written.
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        error: std::io::Error,
    },
    /// The file is not a valid network.
    #[error("{path}: {error}")]
    Format {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: FormatError,
    },
    /// The network cannot run in integers (a weight too large after scaling).
    #[error("{path}: {error}")]
    Quantise {
        /// The file.
        path: PathBuf,
        /// What does not fit.
        error: crate::QuantError,
    },
}

impl NetError {
    /// What went wrong, without the file's name (for messages that name the file already).
    pub fn reason(&self) -> String {
        match self {
            NetError::Io { error, .. } => error.to_string(),
            NetError::Format { error, .. } => error.to_string(),
            NetError::Quantise { error, .. } => error.to_string(),
        }
    }
}
