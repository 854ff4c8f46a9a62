//! What the command-line tests share: running the built `fanorona` and reading its output.
#![allow(dead_code)]

use std::process::{Command, Output};

/// Runs the `fanorona` binary of this build with `args`.
pub fn fanorona(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fanorona")).args(args).output().expect("run fanorona")
}

/// Its standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Its standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
