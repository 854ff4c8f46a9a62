//! `--log FILE`: every line exchanged with external engines and everything they write to
//! standard error, one line each with a UTC timestamp, the engine instance and the direction:
//!
//! ```text
//! 2026-12-01T11:50:02.123Z ext#1 > go depth 4
//! 2026-12-01T11:50:02.125Z ext#1 < info depth 1 score 25 nodes 40 nps 40000 time 1 pv d3e3+
//! 2026-12-01T11:50:02.126Z ext#1 ! a line of standard error
//! ```
//!
//! The file is appended to and bounded: each logged line is cut at [`MAX_LOGGED_LINE`] bytes,
//! and once a match has written its limit one last line says so and nothing more is written.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use crate::EvalError;

/// The longest line logged, in bytes (longer ones are cut, with a note of their length).
pub const MAX_LOGGED_LINE: usize = 4096;
/// The default bound on the log file, in bytes.
pub const DEFAULT_LOG_BYTES: u64 = 256 << 20;

/// Which way a line went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Sent to the engine.
    ToEngine,
    /// Read from its standard output.
    FromEngine,
    /// Read from its standard error.
    Stderr,
}

/// The open log of a match, shared by every engine process.
#[derive(Debug)]
pub struct EngineLog {
    path: PathBuf,
    state: Mutex<LogState>,
    limit: u64,
    instances: AtomicU64,
}

#[derive(Debug)]
struct LogState {
    file: BufWriter<File>,
    written: u64,
    full: bool,
}

/// An engine process's handle on the log: the shared file and its instance name (`ext#3`).
#[derive(Clone, Debug)]
pub struct LogHandle {
    log: Arc<EngineLog>,
    who: Arc<str>,
}

impl EngineLog {
    /// Opens `path` for appending (created if needed; the matches of a tournament share it),
    /// to take at most `limit` more bytes.
    ///
    /// # Errors
    /// [`EvalError::Io`] when the file cannot be created.
    pub fn create(path: &Path, limit: u64) -> Result<Arc<EngineLog>, EvalError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| EvalError::io(path, e))?;
        Ok(Arc::new(EngineLog {
            path: path.to_path_buf(),
            state: Mutex::new(LogState { file: BufWriter::new(file), written: 0, full: false }),
            limit,
            instances: AtomicU64::new(0),
        }))
    }

    /// The handle of a new process of engine `name`.
    pub fn handle(self: &Arc<EngineLog>, name: &str) -> LogHandle {
        let n = self.instances.fetch_add(1, Ordering::Relaxed) + 1;
        LogHandle { log: Arc::clone(self), who: format!("{name}#{n}").into() }
    }

    fn write(&self, who: &str, dir: Direction, text: &str) {
        let mut st = self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if st.full {
            return;
        }
        let arrow = match dir {
            Direction::ToEngine => '>',
            Direction::FromEngine => '<',
            Direction::Stderr => '!',
        };
        let mut cut = text.len().min(MAX_LOGGED_LINE);
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let mut line = format!("{} {who} {arrow} {}", timestamp(), &text[..cut]);
        if cut < text.len() {
            line.push_str(&format!(" ... ({} bytes in all)", text.len()));
        }
        line.push('\n');
        if st.written + line.len() as u64 > self.limit {
            st.full = true;
            let note = format!(
                "{} log full: {} bytes written, the limit; nothing more is logged\n",
                timestamp(),
                st.written
            );
            let _ = st.file.write_all(note.as_bytes());
            let _ = st.file.flush();
            return;
        }
        st.written += line.len() as u64;
        // A log that cannot be written must not stop the match: the error is dropped.
        let _ = st.file.write_all(line.as_bytes()).and_then(|()| st.file.flush());
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl LogHandle {
    /// Logs one line.
    pub fn line(&self, dir: Direction, text: &str) {
        self.log.write(&self.who, dir, text);
    }
}

/// Now in UTC: `2026-12-01T11:50:02.123Z`.
pub fn timestamp() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let secs = now.as_secs();
    let (y, m, d) = fanorona_data::pgn::civil_from_days((secs / 86_400) as i64);
    let t = secs % 86_400;
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        t / 3600,
        t / 60 % 60,
        t % 60,
        now.subsec_millis()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_stamped_cut_and_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("log.txt");
        let log = EngineLog::create(&path, 400).unwrap();
        let a = log.handle("ext");
        let b = log.handle("ext");
        a.line(Direction::ToEngine, "go depth 4");
        b.line(Direction::Stderr, &"é".repeat(MAX_LOGGED_LINE));
        let text = std::fs::read_to_string(&path).unwrap();
        let first = text.lines().next().unwrap();
        assert!(first.ends_with("Z ext#1 > go depth 4"), "{first}");
        assert_eq!(&first[4..5], "-");
        // The long line broke the bound: a note, then nothing.
        assert!(text.lines().nth(1).unwrap().contains("log full"), "{text}");
        a.line(Direction::FromEngine, "bestmove d3e3+");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
        std::fs::remove_file(&path).unwrap();
        let log = EngineLog::create(&path, 1 << 20).unwrap();
        log.handle("x").line(Direction::Stderr, &"y".repeat(MAX_LOGGED_LINE + 5));
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.trim_end().ends_with(&format!("... ({} bytes in all)", MAX_LOGGED_LINE + 5)), "{text}");
        assert!(text.len() < MAX_LOGGED_LINE + 200);
    }
}
