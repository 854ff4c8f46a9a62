//! `fanorona`: the command-line tool over the fanorona libraries.
//!
//! Exit codes: 0 success, 1 failure, 2 bad input or usage (a malformed position, turn, file or
//! argument).

mod cli;
mod cmd;
mod exit;

use std::process::ExitCode;

fn main() -> ExitCode {
    exit::report(cli::run())
}
