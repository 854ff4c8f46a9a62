//! `fanorona`: the command-line tool over the fanorona libraries.
//!
//! Exit codes: 0 success, 1 failure, 2 bad input or usage (a malformed position, turn, file or
//! argument).

mod cli;
mod cmd;
mod exit;

use std::process::ExitCode;

/// mimalloc keeps the megabyte buffers that burn allocates and frees in every training step
/// instead of returning them to the kernel (glibc's malloc does, and every step page-faults
/// them in again): `fanorona train` runs about 1.3-2x faster with it (docs/BENCHMARKS.md).
#[cfg(feature = "train")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    exit::report(cli::run())
}
