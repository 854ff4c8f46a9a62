//! `--pgnout FILE`: every counted game appended to a PGN-shaped text file (the format of
//! [`fanorona_data::pgn`]), in game order, with each turn's score, depth and time.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use fanorona_data::GameRecord;
use fanorona_data::pgn::{PgnTags, today_utc, write_game};

use crate::EvalError;
use crate::spec::{Clock, EngineKind, EngineSpec};

/// The open PGN file of a match.
#[derive(Debug)]
pub(crate) struct PgnOut {
    path: PathBuf,
    file: BufWriter<File>,
    tags: PgnTags,
}

impl PgnOut {
    /// Opens `path` for appending (a resumed match adds its new games), creating it if needed.
    pub(crate) fn open(path: &Path, engines: &[EngineSpec; 2]) -> Result<PgnOut, EvalError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| EvalError::io(path, e))?;
        let (a, b) = (time_control(&engines[0]), time_control(&engines[1]));
        let time_control = if a == b { a } else { format!("{a} vs {b}") };
        let tags =
            PgnTags { event: "fanorona eval".into(), site: "?".into(), date: today_utc(), time_control };
        Ok(PgnOut { path: path.to_path_buf(), file: BufWriter::new(file), tags })
    }

    /// Appends one game with its turn times.
    pub(crate) fn write(&mut self, rec: &GameRecord, times: &[u64]) -> Result<(), EvalError> {
        write_game(&mut self.file, rec, &self.tags, Some(times)).map_err(|e| EvalError::io(&self.path, e))
    }

    pub(crate) fn flush(&mut self) -> Result<(), EvalError> {
        self.file.flush().map_err(|e| EvalError::io(&self.path, e))
    }
}

/// Seconds as fastchess writes them in a time control: `60`, `0.6`.
fn seconds(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let s = format!("{}.{:03}", ms / 1000, ms % 1000);
        s.trim_end_matches('0').to_string()
    }
}

fn clock_text(c: Clock, period: Option<u32>) -> String {
    let base = format!("{}+{}", seconds(c.base_ms), seconds(c.inc_ms));
    period.map_or(base.clone(), |m| format!("{m}/{base}"))
}

/// An engine's limit as a `TimeControl` tag: `40/60+0.6`, `st=0.2`, `depth=4`, `nodes=N` or `-`.
pub(crate) fn time_control(e: &EngineSpec) -> String {
    let (clock, period, st, depth, nodes) = match &e.kind {
        EngineKind::External(x) => (x.clock, x.period, x.movetime_ms, x.depth, x.nodes),
        EngineKind::Player(_) => {
            let c = &e.control;
            (c.clock, c.period, c.movetime_ms, c.depth, c.nodes)
        }
    };
    if let Some(c) = clock {
        return clock_text(c, period);
    }
    if let Some(t) = st {
        return format!("st={}", seconds(t));
    }
    match (depth, nodes) {
        (Some(d), _) => format!("depth={d}"),
        (None, Some(n)) => format!("nodes={n}"),
        (None, None) => "-".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_control_tags() {
        let tc = |t: &str| time_control(&t.parse().unwrap());
        assert_eq!(tc("alphabeta:depth=2;tc=40/60+0.6"), "40/60+0.6");
        assert_eq!(tc("cmd:x;tc=10+0.125"), "10+0.125");
        assert_eq!(tc("cmd:x;st=0.25"), "st=0.25");
        assert_eq!(tc("cmd:x;depth=4"), "depth=4");
        assert_eq!(tc("alphabeta:depth=2"), "-");
    }
}
