//! Errors to exit codes: 0 ok, 1 failure, 2 bad input or usage.

use std::fmt;
use std::process::ExitCode;

/// Exit code for success.
pub const OK: u8 = 0;
/// Exit code for a failure (an I/O error, a failed check, an engine crash...).
pub const FAILURE: u8 = 1;
/// Exit code for bad input or usage: a malformed argument, position, turn or file.
pub const BAD_INPUT: u8 = 2;

/// Marks an error as the user's input being wrong (exit code 2).
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Wraps any error as bad input, with context naming what was wrong.
pub fn bad_input(what: impl fmt::Display, err: impl fmt::Display) -> anyhow::Error {
    anyhow::Error::new(BadInput(format!("{what}: {err}")))
}

/// Prints an error (if any) and turns the result into the process exit code.
pub fn report(result: anyhow::Result<()>) -> ExitCode {
    let Err(err) = result else { return ExitCode::from(OK) };
    // A closed pipe (`fanorona ... | head`) is not an error.
    if err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    }) {
        return ExitCode::from(OK);
    }
    eprintln!("error: {}", message(&err));
    // A file or program that is not there is the user's input being wrong.
    let missing = err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
    });
    if missing || err.chain().any(|e| e.downcast_ref::<BadInput>().is_some()) {
        ExitCode::from(BAD_INPUT)
    } else {
        ExitCode::from(FAILURE)
    }
}

/// The error and its causes joined by `: `, each said once: a cause whose text its error
/// already ends with (`FILE: No such file or directory` over `No such file or directory`) is
/// not repeated.
pub fn message(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for e in err.chain() {
        let part = e.to_string();
        if text.ends_with(&part) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&part);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug)]
    struct Wrap(std::io::Error);

    impl fmt::Display for Wrap {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "nothere.bin: {}", self.0)
        }
    }

    impl std::error::Error for Wrap {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.0)
        }
    }

    #[test]
    fn causes_are_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory");
        let err = anyhow::Error::new(Wrap(io)).context("reading");
        assert_eq!(message(&err), "reading: nothere.bin: No such file or directory");
    }
}
