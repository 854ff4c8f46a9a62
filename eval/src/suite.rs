//! Opening suites: positions a few turns from the start, each scored by a deep search and kept
//! for a test when its score lies in a chosen window (`fanorona suite build`), in a checked
//! text file (eval/SUITE.md) that `--openings FILE` plays, every entry with both colours.
//! Two suites are built into the program (`suite:balanced`, `suite:unbalanced`).

mod build;
mod symmetry;

pub use build::{BuildProgress, BuildReport, SuiteBuild, build_suite, reachable};
pub use symmetry::{Symmetry, canonical};

use std::fmt;
use std::io::{BufRead, Read};
use std::path::Path;

use fanorona_core::Position;
use serde::{Deserialize, Serialize};

use crate::openings::is_undecided;

/// The first line of every suite file (its format and version).
pub const MAGIC: &str = "fanorona-suite 1";

/// The largest suite file read, in bytes.
pub const MAX_SUITE_BYTES: u64 = 64 << 20;
/// The most entries a suite may hold.
pub const MAX_ENTRIES: usize = 1_000_000;
/// The longest line of a suite file, in bytes.
pub const MAX_LINE: u64 = 4096;
/// The largest stone difference of an entry (as `random:`'s default `imbalance`).
pub const MAX_IMBALANCE: u32 = 2;

/// One opening of a suite.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The position.
    pub position: Position,
    /// The deep search's score for its side to move, in centi-stones (never a forced result).
    pub score: i32,
}

/// A suite: its entries in play order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Suite {
    /// The comment lines of its header (without `# `): how it was built.
    pub comments: Vec<String>,
    /// The openings.
    pub entries: Vec<SuiteEntry>,
}

/// The suites built into the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EmbeddedSuite {
    /// Positions four turns from the start that a deep search scores as level.
    Balanced,
    /// Positions four turns from the start where one side is somewhat ahead (as chess's UHO
    /// books): pairs are decisive both ways.
    Unbalanced,
}

impl EmbeddedSuite {
    /// Every embedded suite.
    pub const ALL: [EmbeddedSuite; 2] = [EmbeddedSuite::Balanced, EmbeddedSuite::Unbalanced];

    /// Its name (`suite:NAME`).
    pub const fn name(self) -> &'static str {
        match self {
            EmbeddedSuite::Balanced => "balanced",
            EmbeddedSuite::Unbalanced => "unbalanced",
        }
    }

    /// The suite file's text.
    pub const fn text(self) -> &'static str {
        match self {
            EmbeddedSuite::Balanced => include_str!("../suites/balanced.suite"),
            EmbeddedSuite::Unbalanced => include_str!("../suites/unbalanced.suite"),
        }
    }

    /// The suite of a name.
    pub fn from_name(name: &str) -> Option<EmbeddedSuite> {
        EmbeddedSuite::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The suite, read.
    ///
    /// # Errors
    /// Never for the files as shipped (a test reads them); a [`SuiteError`] otherwise.
    pub fn suite(self) -> Result<Suite, SuiteError> {
        Suite::parse(self.text().as_bytes(), &format!("suite:{}", self.name()))
    }
}

impl fmt::Display for EmbeddedSuite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "suite:{}", self.name())
    }
}

/// Why a suite file is refused; every one names the file, and the entry where there is one.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The file cannot be read.
    #[error("suite {file}: {source}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        source: std::io::Error,
    },
    /// Not a suite file (another format, or another program's).
    #[error("suite {file}: not an opening suite (its first line is {first:?}, not {MAGIC:?})")]
    Foreign {
        /// The file.
        file: String,
        /// Its first line, cut to 40 characters.
        first: String,
    },
    /// The file breaks a bound or its header is damaged.
    #[error("suite {file}: {reason}")]
    Damaged {
        /// The file.
        file: String,
        /// What is wrong.
        reason: String,
    },
    /// An entry is damaged, illegal or finished.
    #[error("suite {file}: entry {entry} (line {line}): {reason}")]
    Entry {
        /// The file.
        file: String,
        /// The entry, from 1.
        entry: usize,
        /// Its line, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl SuiteError {
    /// Whether the error is the user's input being wrong: always (the file is the user's).
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

impl Suite {
    /// Reads a suite file, checking every entry.
    ///
    /// # Errors
    /// [`SuiteError`] naming the file (and the entry): it cannot be read or is too large, is
    /// not a suite, its header or an entry is damaged, an entry is not a legal position, is
    /// decided already (the game over, a side able to win at once or more than
    /// [`MAX_IMBALANCE`] stones ahead) or scored as a forced result, is a copy of an earlier
    /// entry under a symmetry ([`canonical`]), or the entries are fewer or more than the
    /// header says.
    pub fn read(path: &Path) -> Result<Suite, SuiteError> {
        let file = path.display().to_string();
        let meta =
            std::fs::metadata(path).map_err(|source| SuiteError::Read { file: file.clone(), source })?;
        if meta.is_dir() {
            return Err(SuiteError::Damaged { file, reason: "is a directory".into() });
        }
        let f =
            std::fs::File::open(path).map_err(|source| SuiteError::Read { file: file.clone(), source })?;
        Suite::parse(f, &file)
    }

    /// Whether the file at `path` begins as a suite does (its first bytes are [`MAGIC`]).
    pub fn is_suite_file(path: &Path) -> bool {
        let mut head = [0u8; MAGIC.len()];
        std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut head)).is_ok()
            && head == MAGIC.as_bytes()
    }

    /// Reads a suite from `input`, named `file` in errors (see [`Suite::read`]).
    ///
    /// # Errors
    /// As [`Suite::read`].
    pub fn parse(input: impl Read, file: &str) -> Result<Suite, SuiteError> {
        let mut lines = Lines::new(input, file);
        let first = lines.next_line()?.unwrap_or_default();
        if first.1.trim_end() != MAGIC {
            let first: String = first.1.chars().take(40).collect();
            return Err(SuiteError::Foreign { file: file.into(), first });
        }
        let mut suite = Suite { comments: Vec::new(), entries: Vec::new() };
        let mut declared: Option<(usize, usize)> = None;
        let mut keys = std::collections::HashMap::new();
        while let Some((line, text)) = lines.next_line()? {
            let t = text.trim();
            if t.is_empty() {
                continue;
            }
            if let Some(c) = t.strip_prefix('#') {
                if declared.is_none() {
                    suite.comments.push(c.trim().to_string());
                }
                continue;
            }
            let Some((count, _)) = declared else {
                declared = Some((entries_line(t, line, file)?, line));
                continue;
            };
            let entry = suite.entries.len() + 1;
            if entry > count {
                return Err(entry_error(
                    file,
                    entry,
                    line,
                    format!("more entries than the {count} the header says"),
                ));
            }
            let e = parse_entry(t).map_err(|reason| entry_error(file, entry, line, reason))?;
            if let Some(earlier) = keys.insert(canonical(&e.position), entry) {
                let reason = format!(
                    "damaged: a copy of entry {earlier} (the same position, mirrored or with colours swapped)"
                );
                return Err(entry_error(file, entry, line, reason));
            }
            suite.entries.push(e);
        }
        let Some((count, line)) = declared else {
            return Err(SuiteError::Damaged { file: file.into(), reason: "no `entries N` line".into() });
        };
        if suite.entries.len() != count {
            return Err(SuiteError::Damaged {
                file: file.into(),
                reason: format!(
                    "line {line} says {count} entries, the file holds {} (cut short or damaged)",
                    suite.entries.len()
                ),
            });
        }
        Ok(suite)
    }

    /// The file's text: [`MAGIC`], the comments, `entries N`, one entry a line.
    pub fn to_text(&self) -> String {
        let mut out = format!("{MAGIC}\n");
        for c in &self.comments {
            out.push_str(&format!("# {c}\n"));
        }
        out.push_str(&format!("entries {}\n", self.entries.len()));
        for e in &self.entries {
            out.push_str(&format!("{} {:+}\n", e.position, e.score));
        }
        out
    }

    /// The positions, in play order.
    pub fn positions(&self) -> Vec<Position> {
        self.entries.iter().map(|e| e.position).collect()
    }

    /// The first `max` entries whose lead (the score's absolute value) lies in `lo..=hi`, in
    /// order, the comments kept and the window added: a suite chosen again from one analysed
    /// with a wider window, without searching again.
    pub fn within(&self, (lo, hi): (i32, i32), max: usize) -> Suite {
        let entries =
            self.entries.iter().filter(|e| (lo..=hi).contains(&e.score.abs())).take(max).copied().collect();
        let mut comments = self.comments.clone();
        comments.push(format!(
            "kept: a lead of {lo}..{hi} centi-stones for the side ahead, at most {max} entries"
        ));
        Suite { comments, entries }
    }
}

fn entry_error(file: &str, entry: usize, line: usize, reason: String) -> SuiteError {
    SuiteError::Entry { file: file.into(), entry, line, reason }
}

/// The count of an `entries N` line.
fn entries_line(t: &str, line: usize, file: &str) -> Result<usize, SuiteError> {
    let damaged =
        |reason: String| SuiteError::Damaged { file: file.into(), reason: format!("line {line}: {reason}") };
    let n = t.strip_prefix("entries").ok_or_else(|| damaged(format!("{t:?} where `entries N` should be")))?;
    let n: usize = n.trim().parse().map_err(|_| damaged(format!("{t:?}: the count is not a number")))?;
    if n == 0 || n > MAX_ENTRIES {
        return Err(damaged(format!("{n} entries (a suite holds 1 to {MAX_ENTRIES})")));
    }
    Ok(n)
}

/// One entry: `BOARD SIDE SCORE`, checked (a legal position, undecided, a score that is not a
/// forced result).
fn parse_entry(t: &str) -> Result<SuiteEntry, String> {
    let words: Vec<&str> = t.split('#').next().unwrap_or("").split_whitespace().collect();
    let [board, side, score] = words[..] else {
        return Err(format!(
            "damaged: {} fields where 3 (board, side to move, score) should be",
            words.len()
        ));
    };
    let position: Position =
        format!("{board} {side}").parse().map_err(|e| format!("illegal: not a position: {e}"))?;
    let score: i32 = score.parse().map_err(|_| format!("damaged: the score {score:?} is not a number"))?;
    if fanorona_engine::score::is_forced(score) {
        return Err(format!("finished: the score {score} is a forced result"));
    }
    if position.is_game_over() {
        return Err("finished: the game is over".into());
    }
    if !is_undecided(&position, MAX_IMBALANCE) {
        return Err(format!(
            "finished: decided already (a side is able to win at once or more than {MAX_IMBALANCE} stones ahead)"
        ));
    }
    Ok(SuiteEntry { position, score })
}

/// The lines of a suite file, bounded.
struct Lines<'a, R: Read> {
    input: std::io::BufReader<std::io::Take<R>>,
    file: &'a str,
    line: usize,
    buf: Vec<u8>,
}

impl<'a, R: Read> Lines<'a, R> {
    fn new(input: R, file: &'a str) -> Lines<'a, R> {
        Lines {
            input: std::io::BufReader::new(input.take(MAX_SUITE_BYTES + 1)),
            file,
            line: 0,
            buf: Vec::new(),
        }
    }

    fn damaged(&self, reason: String) -> SuiteError {
        SuiteError::Damaged { file: self.file.into(), reason }
    }

    /// The next line and its number, or `None` at the end.
    fn next_line(&mut self) -> Result<Option<(usize, String)>, SuiteError> {
        self.buf.clear();
        let n = (&mut self.input)
            .take(MAX_LINE + 1)
            .read_until(b'\n', &mut self.buf)
            .map_err(|source| SuiteError::Read { file: self.file.into(), source })?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        if self.line > MAX_ENTRIES + 10_000 {
            return Err(
                self.damaged(format!("more than the {} lines a suite may have", MAX_ENTRIES + 10_000))
            );
        }
        if self.buf.len() as u64 > MAX_LINE {
            return Err(
                self.damaged(format!("line {}: longer than the {MAX_LINE} bytes a line may have", self.line))
            );
        }
        let text = std::str::from_utf8(&self.buf)
            .map_err(|_| self.damaged(format!("line {}: not UTF-8 text", self.line)))?;
        Ok(Some((self.line, text.to_string())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(turns: &[&str]) -> Position {
        let mut p = Position::start();
        for t in turns {
            let m = p.parse_move(t).unwrap();
            p.play_unchecked(&m);
        }
        p
    }

    fn suite_text(entries: &[String]) -> String {
        format!("{MAGIC}\n# a test\nentries {}\n{}\n", entries.len(), entries.join("\n"))
    }

    #[test]
    fn round_trips_and_refuses_symmetric_copies() {
        let a = after(&["d3e3+"]);
        let mut suite = Suite {
            comments: vec!["built by hand".into()],
            entries: vec![
                SuiteEntry { position: Position::start(), score: 0 },
                SuiteEntry { position: a, score: -35 },
            ],
        };
        let text = suite.to_text();
        assert!(text.starts_with("fanorona-suite 1\n# built by hand\nentries 2\n"), "{text}");
        assert!(text.ends_with(" -35\n"), "{text}");
        assert_eq!(Suite::parse(text.as_bytes(), "t.suite").unwrap(), suite);
        let level = suite.within((0, 10), 5);
        assert_eq!(level.entries, suite.entries[..1]);
        assert_eq!(
            level.comments.last().unwrap(),
            "kept: a lead of 0..10 centi-stones for the side ahead, at most 5 entries"
        );
        assert_eq!(suite.within((0, 100), 1).entries.len(), 1);
        suite.entries.push(SuiteEntry { position: a.mirror_files(), score: -35 });
        let e = Suite::parse(suite.to_text().as_bytes(), "t.suite").unwrap_err().to_string();
        assert_eq!(
            e,
            "suite t.suite: entry 3 (line 6): damaged: a copy of entry 2 (the same position, mirrored or with colours swapped)"
        );
    }

    #[test]
    fn damaged_foreign_illegal_and_finished_entries_are_named() {
        let start = Position::start().to_string();
        let err = |text: &str| Suite::parse(text.as_bytes(), "s.suite").unwrap_err().to_string();
        assert_eq!(
            err("BBB w\n"),
            "suite s.suite: not an opening suite (its first line is \"BBB w\\n\", not \"fanorona-suite 1\")"
        );
        let png = Suite::parse(&b"\x89PNG\r\n\x1a\n"[..], "s.suite").unwrap_err().to_string();
        assert_eq!(png, "suite s.suite: line 1: not UTF-8 text");
        let a = after(&["d3e3+"]).to_string();
        let e = err(&suite_text(&[format!("{start} +3"), format!("{a} x")]));
        assert_eq!(e, "suite s.suite: entry 2 (line 5): damaged: the score \"x\" is not a number");
        let e = err(&suite_text(std::slice::from_ref(&start)));
        assert!(e.contains("entry 1 (line 4): damaged: 2 fields"), "{e}");
        let e = err(&suite_text(&["BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW w 0".into()]));
        assert!(e.contains("entry 1 (line 4): illegal: not a position"), "{e}");
        let e = err(&suite_text(&["9/9/9/9/W1B6 w 0".into()]));
        assert!(e.contains("entry 1 (line 4): finished: decided already"), "{e}");
        let e = err(&suite_text(&["9/9/9/9/W8 b 0".into()]));
        assert!(e.contains("entry 1 (line 4): finished: the game is over"), "{e}");
        let e = err(&suite_text(&[format!("{start} 29990")]));
        assert!(e.contains("finished: the score 29990 is a forced result"), "{e}");
        // Cut short: fewer entries than the header says.
        let cut = suite_text(&[format!("{start} 0"), format!("{a} 0")]).replace("entries 2", "entries 3");
        assert!(err(&cut).contains("says 3 entries, the file holds 2"), "{}", err(&cut));
        let e = err(&format!("{MAGIC}\n{start} 0\n"));
        assert!(e.contains("line 2:") && e.contains("where `entries N` should be"), "{e}");
        assert!(err(&format!("{MAGIC}\n")).contains("no `entries N` line"));
        for bad in ["entries 0", "entries x"] {
            assert!(err(&format!("{MAGIC}\n{bad}\n")).contains("line 2"), "{bad}");
        }
        // A device without end is cut at the line bound.
        if Path::new("/dev/zero").exists() {
            let e = Suite::read(Path::new("/dev/zero")).unwrap_err().to_string();
            assert!(e.starts_with("suite /dev/zero:"), "{e}");
        }
        let e = Suite::read(Path::new("/nonexistent/x.suite")).unwrap_err();
        assert!(e.is_bad_input() && e.to_string().starts_with("suite /nonexistent/x.suite: "), "{e}");
    }

    #[test]
    fn the_embedded_suites_read_and_hold_distinct_fair_openings() {
        for s in EmbeddedSuite::ALL {
            let suite = s.suite().unwrap_or_else(|e| panic!("{s}: {e}"));
            assert!(suite.entries.len() >= 100, "{s}: {}", suite.entries.len());
            assert_eq!(EmbeddedSuite::from_name(s.name()), Some(s));
        }
    }
}
