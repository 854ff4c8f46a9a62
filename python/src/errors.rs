//! Rust errors as Python exceptions, with the command line's messages: a file the system
//! cannot read is `OSError`, anything wrong with the input itself `ValueError`.

use fanorona_data::DataError;
use fanorona_nn::NetError;
use pyo3::PyErr;
use pyo3::exceptions::{PyOSError, PyValueError};

/// A record-file error.
pub fn data(e: DataError) -> PyErr {
    match e {
        DataError::Io { .. } => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// A network-file error.
pub fn net(e: NetError) -> PyErr {
    match e {
        NetError::Io { .. } => PyOSError::new_err(e.to_string()),
        _ => PyValueError::new_err(e.to_string()),
    }
}

/// Bad input, as `ValueError`.
pub fn value(what: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(what.to_string())
}
