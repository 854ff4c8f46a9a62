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
/// [`fanorona_core::BadInput::is_bad_input`] answers true, or a file or program that is not
/// there.
pub fn is_bad_input(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.is::<BadInput>()
            || library_says_bad_input(e)
            || e.downcast_ref::<std::io::Error>().is_some_and(fanorona_io::is_bad_path)
    })
}

/// A library's registry of its error types (`fanorona_core::bad_input_errors!`): what an error
/// says when it is one of them, `None` otherwise.
type Registry = fn(&(dyn std::error::Error + 'static)) -> Option<bool>;

/// Every library's registry. Each crate lists all its error types in its own, and a test
/// below fails when a crate's error type is missing from it or a crate from this list.
const REGISTRIES: &[Registry] = &[
    fanorona_io::bad_input,
    fanorona_core::bad_input,
    fanorona_tb::bad_input,
    fanorona_solve::bad_input,
    fanorona_book::bad_input,
    fanorona_nn::bad_input,
    fanorona_engine::bad_input,
    fanorona_data::bad_input,
    fanorona_selfplay::bad_input,
    fanorona_eval::bad_input,
    fanorona_tune::bad_input,
    fanorona_plot::bad_input,
    fanorona_web::bad_input,
];

/// The registries of the trainer's crates (built with the `train` feature).
#[cfg(feature = "train")]
const TRAIN_REGISTRIES: &[Registry] = &[fanorona_train::bad_input, fanorona_loop::bad_input];
#[cfg(not(feature = "train"))]
const TRAIN_REGISTRIES: &[Registry] = &[];

/// What a library error says of itself (false for any other error).
fn library_says_bad_input(e: &(dyn std::error::Error + 'static)) -> bool {
    REGISTRIES.iter().chain(TRAIN_REGISTRIES).find_map(|ask| ask(e)).unwrap_or(false)
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
    fn every_registry_answers_for_its_own_types_only() {
        let threads = fanorona_engine::search::ThreadsError::Zero;
        assert_eq!(fanorona_engine::bad_input(&threads), Some(true));
        assert_eq!(fanorona_data::bad_input(&threads), None);
        let disk = fanorona_io::IoError::io("x.bin", std::io::Error::other("disk full"));
        assert_eq!(fanorona_io::bad_input(&disk), Some(false));
        assert!(is_bad_input(&anyhow::Error::new(threads)));
        assert!(!is_bad_input(&anyhow::Error::new(disk)));
    }

    /// The `.rs` files under `dir`, recursively.
    fn sources(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|x| x == "rs") {
                out.push(path);
            }
        }
    }

    /// The error types a source file defines: a `struct` or `enum` deriving `Error`
    /// (`thiserror::Error`), or named in an `impl ... Error for TYPE`.
    fn error_types(text: &str) -> Vec<String> {
        let ident =
            |rest: &str| rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect::<String>();
        let mut found = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find("#[derive(") {
            rest = &rest[at + "#[derive(".len()..];
            let end = rest.find(")]").expect("a derive attribute ends");
            let derives_error =
                rest[..end].split(',').map(str::trim).any(|d| d == "Error" || d.ends_with("::Error"));
            if derives_error {
                let item = rest[end..]
                    .split_whitespace()
                    .skip_while(|w| *w != "struct" && *w != "enum")
                    .nth(1)
                    .expect("a derive attribute before a struct or enum");
                found.push(ident(item));
            }
        }
        for line in text.lines().map(str::trim).filter(|l| l.starts_with("impl")) {
            let after = |pat: &str| line.find(pat).map(|at| at + pat.len());
            if let Some(at) = after(" Error for ").or_else(|| after("::Error for ")) {
                found.push(ident(&line[at..]));
            }
        }
        found
    }

    /// The types a source file lists in `bad_input_errors!(...)` (their last path segment).
    fn registered(text: &str) -> Vec<String> {
        let mut found = Vec::new();
        let mut rest = text;
        while let Some(at) = rest.find("bad_input_errors!(") {
            rest = &rest[at + "bad_input_errors!(".len()..];
            let end = rest.find(");").expect("the registry ends");
            for t in rest[..end].split(',').map(str::trim).filter(|t| !t.is_empty()) {
                found.push(t.rsplit("::").next().unwrap().to_string());
            }
        }
        found
    }

    /// Forgetting an error type cannot go unnoticed: every error type that a workspace library
    /// defines is in its crate's registry, and every library's registry is asked above.
    #[test]
    fn every_library_error_type_is_registered() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let manifest = std::fs::read_to_string(root.join("Cargo.toml")).unwrap();
        let members = manifest.lines().find(|l| l.starts_with("members")).expect("the workspace's members");
        let members: Vec<&str> = members.split('"').skip(1).step_by(2).collect();
        assert!(members.len() >= 12, "{members:?}");
        let exit = std::fs::read_to_string(root.join("src/exit.rs")).unwrap();
        let asked = &exit[..exit.find("#[cfg(test)]").unwrap()];
        let mut defined = 0;
        for member in members {
            let call = format!("fanorona_{}::bad_input", member.replace('-', "_"));
            assert!(asked.contains(&call), "src/exit.rs does not ask the crate {member} ({call})");
            let mut files = Vec::new();
            sources(&root.join(member).join("src"), &mut files);
            let (mut types, mut listed) = (Vec::new(), Vec::new());
            for file in &files {
                let text = std::fs::read_to_string(file).unwrap();
                types.extend(error_types(&text).into_iter().map(|t| (t, file.clone())));
                listed.extend(registered(&text));
            }
            for (t, file) in &types {
                assert!(
                    listed.contains(t),
                    "{t} ({}) is not in its crate's `fanorona_core::bad_input_errors!`: \
                     without it the program exits 1 for it, whatever its is_bad_input says",
                    file.display()
                );
            }
            defined += types.len();
        }
        // The scan finds them (a scan that found nothing would pass anything).
        assert!(defined >= 34, "{defined} error types found");
    }

    #[test]
    fn causes_are_said_once() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file or directory");
        let err = anyhow::Error::new(Wrap(io)).context("reading");
        assert_eq!(message(&err), "reading: nothere.bin: No such file or directory");
    }
}
