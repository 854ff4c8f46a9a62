//! Output files for every fanorona crate: where an output goes and how it gets there without
//! destroying anything ([`Output`]: `PATH.part`, then a rename over a regular file only; a
//! FIFO, `/dev/null` or another special file is written through), and atomic writes of a
//! whole file ([`write_atomic`], [`write_atomic_with`]: the `.part` file synced, renamed, the
//! directory synced).
//!
//! It depends on nothing of fanorona's, so that the lowest crates that write files (the
//! tablebase generator, the charts) share it with the data crate, which re-exports it.
#![deny(missing_docs)]

mod atomic;
mod claim;
mod error;
pub mod input;
pub mod output;

pub use atomic::{sync_dir, write_atomic, write_atomic_with};
pub use error::IoError;
pub use input::{OpenError, is_bad_path, open_regular};
pub use output::{Existing, Output, part_path};

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(IoError,);
