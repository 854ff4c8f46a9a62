//! Proven suites: positions from real games whose game-theoretic value is proven (by the
//! endgame tables or the solver), each with the turns that keep that value, in a checked text
//! file (solve/SUITE.md). `fanorona solve suite` builds one ([`build`]); `fanorona solve
//! errors` measures how often an engine's turn gives the value away ([`crate::error_rate`]).

mod build;

pub use build::{BuildError, BuildOptions, BuildProgress, BuildReport, StoneCounts, build};

use std::collections::HashMap;
use std::fmt;
use std::io::Read;
use std::path::Path;

use fanorona_core::{Move, Position};
use fanorona_tb::Wdl;
use fanorona_tb::symmetry::canonical;

/// The first line of every proven suite file (its format and version).
pub const MAGIC: &str = "fanorona-proven-suite 1";
/// The largest suite file read, in bytes.
pub const MAX_SUITE_BYTES: u64 = 64 << 20;
/// The most positions a suite may hold.
pub const MAX_POSITIONS: usize = 1_000_000;
/// The longest line of a suite file, in bytes.
pub const MAX_LINE: usize = 4096;

/// One position of a suite.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteEntry {
    /// The position (not over: the side to move has a turn).
    pub position: Position,
    /// Its proven value for the side to move: a win or a draw (in a lost position every turn
    /// keeps the value, so there is nothing to get wrong).
    pub value: Wdl,
    /// The legal turns that keep the value (at least one, never all of them).
    pub preserving: Vec<Move>,
}

impl SuiteEntry {
    /// Whether playing `mv` keeps the position's value: it reaches the position one of the
    /// value-preserving turns reaches (two turns reaching the same position are worth the
    /// same).
    pub fn preserves(&self, mv: &Move) -> bool {
        let after = play(&self.position, mv);
        self.preserving.iter().any(|p| play(&self.position, p) == after)
    }

    /// Stones on the board.
    pub fn stones(&self) -> u32 {
        self.position.occupied().count()
    }
}

fn play(pos: &Position, mv: &Move) -> Position {
    let mut p = *pos;
    p.play_unchecked(mv);
    p
}

/// A proven suite: its positions and how it was made.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Suite {
    /// Comment lines before the header's counts (how it was built), without the `#`.
    pub comments: Vec<String>,
    /// Stones of the endgame tables the values came from (positions with more were proven by
    /// the solver).
    pub tables: u32,
    /// Positions of the games left out because every turn keeps the value.
    pub skipped: u64,
    /// Positions of the games left out because a turn's value was not proven within the
    /// solver's budget.
    pub dropped: u64,
    /// The positions.
    pub entries: Vec<SuiteEntry>,
}

/// Why a suite file is refused; each names the file, and the line where there is one.
#[derive(Debug, thiserror::Error)]
pub enum SuiteError {
    /// The file cannot be read.
    #[error("proven suite {file}: {source}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a proven suite, breaks a bound, or its header is damaged.
    #[error("proven suite {file}: {reason}")]
    Damaged {
        /// The file.
        file: String,
        /// What is wrong.
        reason: String,
    },
    /// A line is damaged or not true of its position.
    #[error("proven suite {file}: line {line}: {reason}")]
    Line {
        /// The file.
        file: String,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
}

impl SuiteError {
    /// Whether the error is the input's fault: always but for a failing read.
    pub fn is_bad_input(&self) -> bool {
        match self {
            SuiteError::Read { source, .. } => fanorona_io::input::is_bad_path(source),
            _ => true,
        }
    }
}

/// The header's counts, in the order they are written.
const KEYS: [&str; 4] = ["tables", "skipped", "dropped", "positions"];

impl Suite {
    /// Reads a suite file, checking every line.
    ///
    /// # Errors
    /// [`SuiteError`] naming the file (and the line): it cannot be read, is not a regular
    /// file or too large, is not a proven suite, its header is damaged, a line is damaged (not
    /// a position, a value or a legal turn), lists a turn twice, claims a lost position, lists
    /// every turn (nothing to get wrong), repeats an earlier position (or a mirror of it), or
    /// the positions are fewer or more than the header says.
    pub fn read(path: &Path) -> Result<Suite, SuiteError> {
        let file = path.display().to_string();
        let f = fanorona_io::input::open_regular(path).map_err(|e| match e {
            fanorona_io::input::OpenError::Io(source) => SuiteError::Read { file: file.clone(), source },
            fanorona_io::input::OpenError::NotRegular(what) => {
                SuiteError::Damaged { file: file.clone(), reason: format!("is {what}, not a file") }
            }
        })?;
        let mut bytes = Vec::new();
        f.take(MAX_SUITE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(|source| SuiteError::Read { file: file.clone(), source })?;
        if bytes.len() as u64 > MAX_SUITE_BYTES {
            return Err(SuiteError::Damaged {
                file,
                reason: format!("larger than the {MAX_SUITE_BYTES} bytes a suite may have"),
            });
        }
        Suite::parse(&bytes, &file)
    }

    /// Reads a suite from its bytes, named `file` in errors (see [`Suite::read`]).
    ///
    /// # Errors
    /// As [`Suite::read`].
    pub fn parse(bytes: &[u8], file: &str) -> Result<Suite, SuiteError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let line = bytes[..e.valid_up_to()].iter().filter(|&&b| b == b'\n').count() + 1;
            line_error(file, line, "not UTF-8 text".into())
        })?;
        let mut lines = text.lines().enumerate().map(|(i, t)| (i + 1, t));
        let first = lines.next().map_or("", |(_, t)| t);
        if first.trim_end() != MAGIC {
            let first: String = first.chars().take(40).collect();
            return Err(SuiteError::Damaged {
                file: file.into(),
                reason: format!("not a proven suite (its first line is {first:?}, not {MAGIC:?})"),
            });
        }
        let mut reader = Reader { file, suite: Suite::default(), header: Vec::new(), seen: HashMap::new() };
        for (line, t) in lines {
            reader.line(line, t)?;
        }
        reader.finish()
    }

    /// The file's text: [`MAGIC`], the comments, the counts, one position a line.
    pub fn to_text(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Suite {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{MAGIC}")?;
        for c in &self.comments {
            writeln!(f, "# {c}")?;
        }
        let counts = [u64::from(self.tables), self.skipped, self.dropped, self.entries.len() as u64];
        for (key, n) in KEYS.iter().zip(counts) {
            writeln!(f, "{key} {n}")?;
        }
        for e in &self.entries {
            write!(f, "{} {}", e.position, e.value)?;
            for m in &e.preserving {
                write!(f, " {m}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

fn line_error(file: &str, line: usize, reason: String) -> SuiteError {
    SuiteError::Line { file: file.into(), line, reason }
}

/// A suite being read, line after line.
struct Reader<'a> {
    file: &'a str,
    suite: Suite,
    /// The header's counts read so far, in [`KEYS`] order.
    header: Vec<u64>,
    /// Each position read (canonical under the board's symmetries, seen from the side to
    /// move) and its line.
    seen: HashMap<(u64, u64), usize>,
}

impl Reader<'_> {
    fn line(&mut self, line: usize, t: &str) -> Result<(), SuiteError> {
        if t.len() > MAX_LINE {
            return Err(line_error(
                self.file,
                line,
                format!("longer than the {MAX_LINE} bytes a line may have"),
            ));
        }
        let t = t.trim();
        if t.is_empty() {
            return Ok(());
        }
        if let Some(c) = t.strip_prefix('#') {
            if self.header.is_empty() {
                self.suite.comments.push(c.trim().to_string());
            }
            return Ok(());
        }
        if self.header.len() < KEYS.len() {
            let n = header_line(t, KEYS[self.header.len()]).map_err(|r| line_error(self.file, line, r))?;
            self.header.push(n);
            return Ok(());
        }
        self.entry(line, t)
    }

    fn entry(&mut self, line: usize, t: &str) -> Result<(), SuiteError> {
        let declared = self.header[3] as usize;
        if self.suite.entries.len() >= declared {
            let reason = format!("more positions than the {declared} the header says");
            return Err(line_error(self.file, line, reason));
        }
        let e = parse_entry(t).map_err(|r| line_error(self.file, line, r))?;
        let key = canonical(e.position.us().0, e.position.them().0);
        if let Some(earlier) = self.seen.insert(key, line) {
            let reason = format!("the position of line {earlier} again (or a mirror of it)");
            return Err(line_error(self.file, line, reason));
        }
        self.suite.entries.push(e);
        Ok(())
    }

    fn finish(mut self) -> Result<Suite, SuiteError> {
        let damaged = |reason: String| SuiteError::Damaged { file: self.file.into(), reason };
        if self.header.len() < KEYS.len() {
            return Err(damaged(format!("no `{} N` line", KEYS[self.header.len()])));
        }
        let declared = self.header[3] as usize;
        if self.suite.entries.len() != declared {
            return Err(damaged(format!(
                "the header says {declared} positions, the file holds {} (cut short or damaged)",
                self.suite.entries.len()
            )));
        }
        self.suite.tables = self.header[0] as u32;
        self.suite.skipped = self.header[1];
        self.suite.dropped = self.header[2];
        Ok(self.suite)
    }
}

/// The count of a header line `KEY N`.
fn header_line(t: &str, key: &str) -> Result<u64, String> {
    let n = t
        .strip_prefix(key)
        .filter(|rest| rest.starts_with(' '))
        .ok_or_else(|| format!("{t:?} where `{key} N` should be"))?;
    let n: u64 = n.trim().parse().map_err(|_| format!("{t:?}: the count is not a number"))?;
    let max = match key {
        "tables" => u64::from(fanorona_tb::MAX_TB_STONES),
        "positions" => MAX_POSITIONS as u64,
        _ => u64::MAX,
    };
    if (key == "positions" && n == 0) || n > max {
        return Err(format!(
            "{key} {n}: out of range (at most {max}{})",
            if key == "positions" { ", at least 1" } else { "" }
        ));
    }
    Ok(n)
}

/// One position: `BOARD SIDE VALUE TURN...`, checked against the rules.
fn parse_entry(t: &str) -> Result<SuiteEntry, String> {
    let words: Vec<&str> = t.split_whitespace().collect();
    let [board, side, value, turns @ ..] = &words[..] else {
        return Err(format!(
            "{} fields where a board, a side to move, a value and turns should be",
            words.len()
        ));
    };
    let position: Position = format!("{board} {side}").parse().map_err(|e| format!("not a position: {e}"))?;
    let legal = position.legal_moves();
    if legal.is_empty() {
        return Err("the game is over in this position".into());
    }
    let value = match *value {
        "win" => Wdl::Win,
        "draw" => Wdl::Draw,
        "loss" => return Err("a lost position: every turn keeps the value, nothing to get wrong".into()),
        v => return Err(format!("the value {v:?} is not win or draw")),
    };
    if turns.is_empty() {
        return Err("no value-preserving turn (a won or drawn position has one)".into());
    }
    let mut preserving: Vec<Move> = Vec::with_capacity(turns.len());
    for text in turns {
        let m = position.parse_move(text).map_err(|e| format!("turn {text:?}: {e}"))?;
        if preserving.iter().any(|p| play(&position, p) == play(&position, &m)) {
            return Err(format!("turn {text:?} is listed twice"));
        }
        preserving.push(m);
    }
    let entry = SuiteEntry { position, value, preserving };
    if legal.iter().all(|m| entry.preserves(m)) {
        return Err("every legal turn keeps the value: nothing to get wrong".into());
    }
    Ok(entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// White c3 and f2, Black e3 and f3: c3d3+ takes both black stones, f2g1- takes e3 and
    /// wins too (by the tables), f2f1- takes f3 and only draws.
    const WIN: &str = "9/9/2W1BB3/5W3/9 w";

    fn suite_text(lines: &[&str]) -> String {
        format!(
            "{MAGIC}\n# by hand\ntables 3\nskipped 2\ndropped 1\npositions {}\n{}\n",
            lines.len(),
            lines.join("\n")
        )
    }

    fn err(text: &str) -> String {
        Suite::parse(text.as_bytes(), "t.suite").unwrap_err().to_string()
    }

    #[test]
    fn round_trips_and_judges_turns_by_the_position_they_reach() {
        let text = suite_text(&[&format!("{WIN} win c3d3+ f2g1-")]);
        let suite = Suite::parse(text.as_bytes(), "t.suite").unwrap();
        assert_eq!((suite.tables, suite.skipped, suite.dropped), (3, 2, 1));
        assert_eq!(suite.comments, ["by hand"]);
        assert_eq!(suite.to_text(), text);
        let e = &suite.entries[0];
        assert_eq!((e.value, e.stones()), (Wdl::Win, 4));
        let pos = e.position;
        assert!(e.preserves(&pos.parse_move("c3d3+").unwrap()));
        assert!(!e.preserves(&pos.parse_move("f2f1-").unwrap()));
    }

    #[test]
    fn damaged_and_untrue_lines_are_named() {
        let win = |turns: &str| format!("{WIN} {turns}");
        assert_eq!(
            err(&suite_text(&[&win("win c3d3+"), &win("win c3d3+")])),
            "proven suite t.suite: line 8: the position of line 7 again (or a mirror of it)"
        );
        let cases = [
            (win("win"), "line 7: no value-preserving turn"),
            (win("loss c3d3+"), "line 7: a lost position"),
            (win("lost c3d3+"), "line 7: the value \"lost\" is not win or draw"),
            (win("win c3d3+ c3d3+"), "line 7: turn \"c3d3+\" is listed twice"),
            (win("win c3c4"), "line 7: turn \"c3c4\""),
            ("9/9/W8/9 w win a1b1+".to_string(), "line 7: not a position"),
            ("9/9/9/9/W8 b win a1b1".to_string(), "line 7: the game is over"),
            ("9/9/9/9/W1B6 w win a1b1+".to_string(), "line 7: every legal turn keeps the value"),
        ];
        for (line, want) in cases {
            let e = err(&suite_text(&[&line]));
            assert!(e.starts_with("proven suite t.suite: ") && e.contains(want), "{line}: {e}");
        }
        let cut = suite_text(&[&win("win c3d3+")]).replace("positions 1", "positions 2");
        assert!(err(&cut).contains("the header says 2 positions, the file holds 1"), "{}", err(&cut));
        let more = suite_text(&[&win("win c3d3+"), "2B6/2W6/9/2B6/2B6 w draw c4c3-"])
            .replace("positions 2", "positions 1");
        assert!(err(&more).contains("line 8: more positions than the 1"), "{}", err(&more));
        assert!(err("fanorona-suite 1\n").contains("not a proven suite"));
        assert!(err(&format!("{MAGIC}\ntables 3\n")).contains("no `skipped N` line"));
        assert!(err(&format!("{MAGIC}\ntables 9\n")).contains("line 2: tables 9: out of range"));
        assert!(err(&format!("{MAGIC}\npositions 1\n")).contains("line 2: \"positions 1\" where `tables N`"));
        assert_eq!(
            Suite::parse(b"fanorona-proven-suite 1\n\xff\n", "t.suite").unwrap_err().to_string(),
            "proven suite t.suite: line 2: not UTF-8 text"
        );
        let e = Suite::read(Path::new("/nonexistent/x.suite")).unwrap_err();
        assert!(e.is_bad_input() && e.to_string().starts_with("proven suite /nonexistent/x.suite: "), "{e}");
        let dir = std::env::temp_dir();
        assert!(Suite::read(&dir).unwrap_err().to_string().contains("is a directory"));
    }
}
