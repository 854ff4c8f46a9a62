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
    ExitCode::from(if is_bad_input(&err) { BAD_INPUT } else { FAILURE })
}

/// The one place errors become exit code 2 or 1: bad input when any error in the chain says
/// so — a [`BadInput`] of the binary's own argument checks, a library error whose
/// `is_bad_input()` answers true, or a file or program that is not there.
pub fn is_bad_input(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.is::<BadInput>()
            || library_says_bad_input(e)
            || e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound)
    })
}

/// What a library error's own `is_bad_input()` says (false for any other error).
fn library_says_bad_input(e: &(dyn std::error::Error + 'static)) -> bool {
    macro_rules! ask {
        ($($t:ty),* $(,)?) => {
            $(if let Some(x) = e.downcast_ref::<$t>() {
                return x.is_bad_input();
            })*
        };
    }
    ask!(
        fanorona_core::GameError,
        fanorona_core::IllegalMoveError,
        fanorona_core::MoveError,
        fanorona_core::ParseMoveError,
        fanorona_core::ParsePointError,
        fanorona_core::ParsePositionError,
        fanorona_core::PlayError,
        fanorona_core::PositionError,
        fanorona_tb::TbError,
        fanorona_tb::ProbeError,
        fanorona_engine::SpecError,
        fanorona_engine::nn::NetError,
        fanorona_engine::nn::FormatError,
        fanorona_engine::nn::QuantError,
        fanorona_engine::protocol::CommandError,
        fanorona_data::DataError,
        fanorona_data::IoError,
        fanorona_data::RecordError,
        fanorona_data::pgn::PgnError,
        fanorona_selfplay::SelfplayError,
        fanorona_eval::EvalError,
        fanorona_eval::stats::ParseSprtError,
        fanorona_eval::stats::RatingError,
        fanorona_plot::PlotError,
        fanorona_web::ServeError,
        fanorona_web::catalog::CatalogError,
        fanorona_web::ApiError,
    );
    #[cfg(feature = "train")]
    ask!(fanorona_train::TrainError, fanorona_loop::LoopError);
    false
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
    fn library_errors_say_which_exit_code() {
        let bad = fanorona_data::DataError::Empty { path: "x.bin".into() };
        assert!(is_bad_input(&anyhow::Error::new(bad).context("reading")));
        let disk = std::io::Error::other("disk full");
        let failed = fanorona_data::DataError::io("x.bin", disk);
        assert!(!is_bad_input(&anyhow::Error::new(failed)));
        assert!(is_bad_input(&anyhow::Error::new(fanorona_engine::SpecError::Empty)));
        assert!(!is_bad_input(&anyhow::anyhow!("something else")));
    }

    #[test]
    fn causes_are_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory");
        let err = anyhow::Error::new(Wrap(io)).context("reading");
        assert_eq!(message(&err), "reading: nothere.bin: No such file or directory");
    }
}
