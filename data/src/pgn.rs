//! Game records as PGN-shaped text in this project's notation (described in `data/FORMAT.md`,
//! section "PGN"): tag pairs, then the turns with a comment per turn `{+1.25/8 103}` (score in
//! stones from the mover's view / depth, then milliseconds), as fastchess writes them.
//! [`write_game`] writes one game; [`PgnReader`] reads them back into [`GameRecord`]s.

use std::io::{self, BufRead, Write};

use fanorona_core::{Color, DrawRules, Game, MoveError, Outcome, Position};

use crate::{Ending, GameRecord, MoveCode, Turn, TurnInfo};

/// The longest line a PGN file may have, in bytes.
pub const MAX_PGN_LINE: usize = 1 << 20;
/// The most turns a game may have.
pub const MAX_PGN_TURNS: usize = 1_000_000;
/// The longest comment, in bytes.
pub const MAX_COMMENT: usize = 4096;
/// The most tag pairs a game's header may have.
pub const MAX_PGN_TAGS: usize = 256;
/// The longest tag line (`[Name "value"]`), in bytes.
pub const MAX_PGN_TAG: usize = 64 * 1024;
/// The most text one game may have (its tags, turns and comments, blank and `;` comment lines
/// not counted), in bytes.
pub const MAX_PGN_GAME: usize = 64 << 20;
/// Scores beyond this in absolute value (up to 30000) are forced results, written `M<n>`.
const FORCED: i32 = 29_000;
const WIN: i32 = 30_000;

/// The tags a writer supplies (the others come from the record).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnTags {
    /// `Event`.
    pub event: String,
    /// `Site` (`?` when unknown).
    pub site: String,
    /// `Date`, `YYYY.MM.DD` (`????.??.??` when unknown).
    pub date: String,
    /// `TimeControl` (`-` when none).
    pub time_control: String,
}

impl PgnError {
    /// Whether the error is the input's fault: a text that is not PGN, or a missing file.
    pub fn is_bad_input(&self) -> bool {
        match self {
            PgnError::Syntax { .. } => true,
            PgnError::Io(e) => e.kind() == io::ErrorKind::NotFound,
        }
    }
}

/// Why a PGN text cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum PgnError {
    /// The text breaks the format or the rules at a line.
    #[error("line {line}: {reason}")]
    Syntax {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        reason: String,
    },
    /// The input cannot be read.
    #[error("{0}")]
    Io(#[from] io::Error),
}

impl PgnError {
    fn at(line: usize, reason: impl Into<String>) -> PgnError {
        PgnError::Syntax { line, reason: reason.into() }
    }
}

/// A score as a PGN comment writes it: `+1.25`, `-0.30`, `+0.00`, `+M3` (a forced win in 3
/// turns), `-M2`.
pub fn score_text(score: i32) -> String {
    let sign = if score < 0 { '-' } else { '+' };
    let a = score.unsigned_abs();
    if score.unsigned_abs() > FORCED as u32 && score.unsigned_abs() <= WIN as u32 {
        format!("{sign}M{}", WIN as u32 - a)
    } else {
        format!("{sign}{}.{:02}", a / 100, a % 100)
    }
}

/// The inverse of [`score_text`].
pub fn parse_score(text: &str) -> Option<i32> {
    let (neg, rest) = match text.as_bytes().first()? {
        b'+' => (false, &text[1..]),
        b'-' => (true, &text[1..]),
        _ => (false, text),
    };
    let abs: i64 = if let Some(n) = rest.strip_prefix('M') {
        let n: i64 = n.parse().ok().filter(|n| (0..=i64::from(WIN - FORCED - 1)).contains(n))?;
        i64::from(WIN) - n
    } else {
        let (int, frac) = rest.split_once('.').unwrap_or((rest, "00"));
        if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if frac.len() != 2 || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let i: i64 = int.parse().ok()?;
        let f: i64 = frac.parse().ok()?;
        i.checked_mul(100)?.checked_add(f)?
    };
    i32::try_from(if neg { -abs } else { abs }).ok()
}

/// The comment of a turn: `{+1.25/8 103}`, `{+1.25 103}` without a depth, `{?/8}` with a
/// depth and no score, `random` added for an exploration turn; `None` when there is nothing to
/// say.
fn comment(info: &TurnInfo, time_ms: Option<u64>) -> Option<String> {
    let mut words = Vec::new();
    match (info.score, info.depth) {
        (Some(s), Some(d)) => words.push(format!("{}/{d}", score_text(s))),
        (Some(s), None) => words.push(score_text(s)),
        (None, Some(d)) => words.push(format!("?/{d}")),
        (None, None) => {}
    }
    if let Some(t) = time_ms {
        words.push(t.to_string());
    }
    if info.exploration {
        words.push("random".into());
    }
    (!words.is_empty()).then(|| format!("{{{}}}", words.join(" ")))
}

fn quote(v: &str) -> String {
    let mut s = String::with_capacity(v.len() + 2);
    for c in v.chars() {
        match c {
            '"' | '\\' => {
                s.push('\\');
                s.push(c);
            }
            '\n' | '\r' => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// Writes `rec` as one PGN game (`times`: milliseconds per turn, when known), then a blank line.
///
/// # Errors
/// When `w` fails.
pub fn write_game(
    w: &mut dyn Write,
    rec: &GameRecord,
    tags: &PgnTags,
    times: Option<&[u64]>,
) -> io::Result<()> {
    let or = |v: &str, d: &'static str| if v.is_empty() { d.to_string() } else { v.to_string() };
    let round = rec.index.checked_add(1).map_or_else(|| "-".to_string(), |r| r.to_string());
    let pairs = [
        ("Event", or(&tags.event, "?")),
        ("Site", or(&tags.site, "?")),
        ("Date", or(&tags.date, "????.??.??")),
        ("Round", round),
        ("White", or(&rec.white, "?")),
        ("Black", or(&rec.black, "?")),
        ("Result", rec.outcome.result_str().to_string()),
        ("FEN", rec.start.to_string()),
        ("SetUp", "1".to_string()),
        ("Termination", rec.outcome.termination.to_string()),
        ("TimeControl", or(&tags.time_control, "-")),
        ("PlyCount", rec.len().to_string()),
    ];
    for (k, v) in pairs {
        writeln!(w, "[{k} \"{}\"]", quote(&v))?;
    }
    writeln!(w)?;
    let mut tokens = Vec::with_capacity(rec.len() * 3 + 1);
    let mut turn = rec.start.turn();
    let mut number = 1u64;
    for (i, t) in rec.turns.iter().enumerate() {
        if turn == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        // A turn and its comment stay on one line.
        let mut tok = t.mv.to_string();
        if let Some(c) = comment(&t.info, times.and_then(|ts| ts.get(i).copied())) {
            tok.push(' ');
            tok.push_str(&c);
        }
        tokens.push(tok);
        if turn == Color::Black {
            number += 1;
        }
        turn = turn.other();
    }
    tokens.push(rec.outcome.result_str().to_string());
    let mut line = String::new();
    for tok in tokens {
        if !line.is_empty() && line.len() + 1 + tok.len() > 79 {
            writeln!(w, "{line}")?;
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&tok);
    }
    writeln!(w, "{line}")?;
    writeln!(w)
}

/// Today's date in UTC as a `Date` tag writes it (`2026.12.01`).
pub fn today_utc() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Year, month, day of a day count since 1970-01-01 (Howard Hinnant's algorithm).
pub fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// One game being read.
#[derive(Default)]
struct Pending {
    tags: Vec<(String, String)>,
    /// Turn texts with their comments and line numbers.
    turns: Vec<(String, Option<String>, usize)>,
    result: Option<String>,
    first_line: usize,
}

/// Reads PGN games one by one from a [`BufRead`], each as a [`GameRecord`] checked against
/// the rules (as [`GameRecord::validate`] does). Bounded: lines of at most [`MAX_PGN_LINE`]
/// bytes, games of at most [`MAX_PGN_TURNS`] turns, [`MAX_PGN_TAGS`] tags of at most
/// [`MAX_PGN_TAG`] bytes and [`MAX_PGN_GAME`] bytes of text. `;` comments run to the end of
/// their line.
#[derive(Debug)]
pub struct PgnReader<R> {
    input: R,
    line: usize,
    buf: Vec<u8>,
    /// The next game's first tag line, already read.
    peeked: Option<String>,
    games: u64,
    done: bool,
}

impl<R: BufRead> PgnReader<R> {
    /// A reader of `input`.
    pub fn new(input: R) -> PgnReader<R> {
        PgnReader { input, line: 0, buf: Vec::new(), peeked: None, games: 0, done: false }
    }

    fn next_line(&mut self) -> Result<Option<String>, PgnError> {
        if let Some(l) = self.peeked.take() {
            return Ok(Some(l));
        }
        self.buf.clear();
        let n = io::Read::take(&mut self.input, MAX_PGN_LINE as u64 + 1).read_until(b'\n', &mut self.buf)?;
        if n == 0 {
            return Ok(None);
        }
        self.line += 1;
        if self.buf.len() > MAX_PGN_LINE {
            return Err(PgnError::at(self.line, format!("a line longer than {MAX_PGN_LINE} bytes")));
        }
        let text =
            std::str::from_utf8(&self.buf).map_err(|_| PgnError::at(self.line, "the line is not UTF-8"))?;
        Ok(Some(text.trim_end_matches(['\n', '\r']).to_string()))
    }

    fn read_game(&mut self) -> Result<Option<GameRecord>, PgnError> {
        let mut g = Pending::default();
        let mut comment: Option<String> = None;
        let mut in_moves = false;
        // The game's text so far, in bytes (bounded by MAX_PGN_GAME).
        let mut bytes = 0usize;
        while let Some(line) = self.next_line()? {
            let ln = self.line;
            let trimmed = line.trim();
            // A `;` comment runs to the end of its line (inside `{ }` it is text).
            if comment.is_none() && (trimmed.is_empty() || trimmed.starts_with(';')) {
                continue;
            }
            bytes = bytes.saturating_add(line.len());
            if bytes > MAX_PGN_GAME {
                return Err(PgnError::at(ln, format!("a game longer than {MAX_PGN_GAME} bytes")));
            }
            if comment.is_none() && trimmed.starts_with('[') {
                if in_moves {
                    // A new game's tags after movetext without a result.
                    return Err(PgnError::at(
                        ln,
                        "a game's turns end without a result (1-0, 0-1, 1/2-1/2 or *)",
                    ));
                }
                if g.tags.len() >= MAX_PGN_TAGS {
                    return Err(PgnError::at(
                        ln,
                        format!("more than {MAX_PGN_TAGS} tags in a game's header"),
                    ));
                }
                if trimmed.len() > MAX_PGN_TAG {
                    return Err(PgnError::at(ln, format!("a tag longer than {MAX_PGN_TAG} bytes")));
                }
                if g.tags.is_empty() {
                    g.first_line = ln;
                }
                g.tags.push(parse_tag(trimmed).map_err(|r| PgnError::at(ln, r))?);
                continue;
            }
            if g.first_line == 0 {
                g.first_line = ln;
            }
            in_moves = true;
            if self.scan_moves(&line, ln, &mut g, &mut comment)? {
                return self.finish(g).map(Some);
            }
        }
        if comment.is_some() {
            return Err(PgnError::at(self.line, "a comment { is not closed"));
        }
        if g.tags.is_empty() && !in_moves {
            return Ok(None);
        }
        Err(PgnError::at(self.line, "the file ends inside a game (no result token)"))
    }

    /// Reads the movetext of one line; `true` when the game's result token was read.
    fn scan_moves(
        &mut self,
        line: &str,
        ln: usize,
        g: &mut Pending,
        comment: &mut Option<String>,
    ) -> Result<bool, PgnError> {
        let mut rest = line;
        loop {
            if let Some(c) = comment.as_mut() {
                match rest.find('}') {
                    Some(end) => {
                        c.push_str(&rest[..end]);
                        let text = comment.take().unwrap_or_default();
                        let Some(last) = g.turns.last_mut() else {
                            // A comment before the first turn (a game comment): ignored.
                            rest = &rest[end + 1..];
                            continue;
                        };
                        if last.1.is_some() {
                            return Err(PgnError::at(ln, "two comments after one turn"));
                        }
                        last.1 = Some(text);
                        rest = &rest[end + 1..];
                    }
                    None => {
                        c.push_str(rest);
                        c.push(' ');
                        if c.len() > MAX_COMMENT {
                            return Err(PgnError::at(
                                ln,
                                format!("a comment longer than {MAX_COMMENT} bytes"),
                            ));
                        }
                        return Ok(false);
                    }
                }
                continue;
            }
            rest = rest.trim_start();
            if rest.is_empty() || rest.starts_with(';') {
                return Ok(false);
            }
            if let Some(after) = rest.strip_prefix('{') {
                *comment = Some(String::new());
                rest = after;
                continue;
            }
            let end = rest.find(|c: char| c.is_whitespace() || c == '{' || c == ';').unwrap_or(rest.len());
            let tok = &rest[..end];
            rest = &rest[end..];
            if matches!(tok, "1-0" | "0-1" | "1/2-1/2" | "*") {
                let after = rest.trim();
                if !after.is_empty() && !after.starts_with(';') {
                    return Err(PgnError::at(ln, format!("text after the result {tok}: {:?}", rest.trim())));
                }
                g.result = Some(tok.to_string());
                return Ok(true);
            }
            if tok.starts_with('(') || tok.starts_with(')') {
                return Err(PgnError::at(ln, "variations ( ... ) are not supported"));
            }
            if tok.starts_with('$') {
                continue;
            }
            // A move number, possibly glued to the turn: `12.`, `12...`, `12.d3e3+`.
            let digits = tok.bytes().take_while(u8::is_ascii_digit).count();
            let tok = if digits > 0 && tok[digits..].starts_with('.') {
                tok[digits..].trim_start_matches('.')
            } else {
                tok
            };
            if tok.is_empty() {
                continue;
            }
            if g.turns.len() >= MAX_PGN_TURNS {
                return Err(PgnError::at(ln, format!("more than {MAX_PGN_TURNS} turns in a game")));
            }
            g.turns.push((tok.to_string(), None, ln));
        }
    }

    fn finish(&mut self, g: Pending) -> Result<GameRecord, PgnError> {
        let at = |r: String| PgnError::at(g.first_line, r);
        let tag = |k: &str| g.tags.iter().find(|(t, _)| t == k).map(|(_, v)| v.as_str());
        let start: Position = match tag("FEN") {
            Some(f) => f.parse().map_err(|e| at(format!("FEN {f:?}: {e}")))?,
            None => Position::start(),
        };
        let mut game = Game::new(start, DrawRules { max_quiet_plies: 0, max_plies: 0 });
        let mut turns = Vec::with_capacity(g.turns.len());
        for (text, c, ln) in &g.turns {
            if let Some(o) = game.outcome() {
                return Err(PgnError::at(*ln, format!("turn {text} after the game ended ({o})")));
            }
            let m = game.position().parse_move(text).map_err(|e| {
                let why = match e {
                    MoveError::Parse(p) => p.to_string(),
                    MoveError::Illegal(i) => i.to_string(),
                };
                PgnError::at(*ln, format!("turn {} {text:?} in {}: {why}", turns.len() + 1, game.position()))
            })?;
            let info = match c {
                Some(c) => parse_comment(c).map_err(|r| PgnError::at(*ln, r))?,
                None => TurnInfo::default(),
            };
            turns.push(Turn { mv: MoveCode::from_move(&m), info });
            game.play_unchecked(&m);
        }
        let result = g.result.as_deref().unwrap_or("*");
        let winner = match result {
            "1-0" => Some(Color::White),
            "0-1" => Some(Color::Black),
            "1/2-1/2" => None,
            _ => return Err(at("an unfinished game (result *) cannot be a record".into())),
        };
        if let Some(r) = tag("Result")
            && r != result
        {
            return Err(at(format!("the Result tag {r:?} differs from the result {result} after the turns")));
        }
        let termination = match tag("Termination") {
            Some(t) => Ending::ALL
                .into_iter()
                .find(|x| x.to_string() == t)
                .ok_or_else(|| at(format!("unknown Termination {t:?}")))?,
            None => match game.outcome() {
                Some(o) => o.termination.into(),
                None => return Err(at("no Termination tag, and the rules do not end the game".into())),
            },
        };
        let index = match tag("Round").and_then(|r| r.parse::<u64>().ok()) {
            Some(r) if r >= 1 => r - 1,
            _ => self.games,
        };
        let rec = GameRecord {
            index,
            white: tag("White").filter(|w| *w != "?").unwrap_or("").to_string(),
            black: tag("Black").filter(|b| *b != "?").unwrap_or("").to_string(),
            start,
            turns,
            outcome: Outcome { winner, termination },
        };
        rec.validate().map_err(|e| at(e.to_string()))?;
        self.games += 1;
        Ok(rec)
    }
}

impl<R: BufRead> Iterator for PgnReader<R> {
    type Item = Result<GameRecord, PgnError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_game() {
            Ok(Some(r)) => Some(Ok(r)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// `[Key "value"]`, perhaps followed by a `;` comment.
fn parse_tag(line: &str) -> Result<(String, String), String> {
    let shape = || format!("a tag must be [Name \"value\"], got {line:?}");
    let inner = line.strip_prefix('[').ok_or_else(shape)?.trim_start();
    let name_end = inner.find(|c: char| c.is_whitespace() || c == '"' || c == ']').unwrap_or(inner.len());
    let (name, rest) = inner.split_at(name_end);
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(format!("tag name {name:?} is not a word"));
    }
    let rest = rest.trim_start();
    if rest.is_empty() || rest.starts_with(']') {
        return Err(format!("tag {line:?} has no value"));
    }
    let quoted = || format!("the value of tag {name} must be in double quotes");
    let body = rest.strip_prefix('"').ok_or_else(quoted)?;
    let mut out = String::with_capacity(body.len());
    let mut chars = body.char_indices();
    let after = loop {
        match chars.next() {
            None => return Err(quoted()),
            Some((_, '\\')) => {
                let (_, c) = chars.next().ok_or_else(|| format!("tag {name}: a backslash ends the value"))?;
                out.push(c);
            }
            Some((i, '"')) => break &body[i + 1..],
            Some((_, c)) => out.push(c),
        }
    };
    let Some(tail) = after.trim_start().strip_prefix(']') else {
        return Err(format!("tag {name}: a bare \" inside the value, or no ] after it"));
    };
    let tail = tail.trim_start();
    if !tail.is_empty() && !tail.starts_with(';') {
        return Err(format!("tag {name}: text after the tag: {tail:?}"));
    }
    Ok((name.to_string(), out))
}

/// A turn comment back into what the player reported: `+1.25/8`, `?/8`, milliseconds (not
/// kept: records have no times), `random`, `book` (ignored).
fn parse_comment(c: &str) -> Result<TurnInfo, String> {
    let mut info = TurnInfo::default();
    for w in c.split_whitespace() {
        if w == "random" {
            info.exploration = true;
        } else if w == "book" || w.bytes().all(|b| b.is_ascii_digit()) {
        } else {
            let (s, d) = match w.split_once('/') {
                Some((s, d)) => (s, Some(d)),
                None => (w, None),
            };
            if s != "?" {
                info.score =
                    Some(parse_score(s).ok_or_else(|| format!("comment {{{c}}}: {s:?} is not a score"))?);
            }
            if let Some(d) = d {
                info.depth =
                    Some(d.parse().map_err(|_| format!("comment {{{c}}}: depth {d:?} is not a number"))?);
            }
        }
    }
    Ok(info)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record() -> GameRecord {
        let mut game = Game::new(Position::start(), DrawRules::default());
        let mut turns = Vec::new();
        for i in 0..7 {
            let m = game.position().legal_moves()[i % 2];
            let info = match i {
                0 => TurnInfo { score: Some(125), depth: Some(8), exploration: false },
                1 => TurnInfo { score: Some(-30), depth: Some(7), exploration: true },
                2 => TurnInfo { score: Some(29_997), depth: None, exploration: false },
                3 => TurnInfo { score: None, depth: Some(4), exploration: false },
                4 => TurnInfo { score: Some(-29_990), depth: Some(12), exploration: false },
                _ => TurnInfo::default(),
            };
            turns.push(Turn { mv: MoveCode::from_move(&m), info });
            game.play_unchecked(&m);
        }
        GameRecord {
            index: 41,
            white: "alphabeta:depth=2 \"q\"".into(),
            black: "greedy".into(),
            start: Position::start(),
            turns,
            outcome: Outcome { winner: Some(Color::Black), termination: Ending::ResignAdjudication },
        }
    }

    #[test]
    fn scores_are_written_as_fastchess_does_and_read_back() {
        for (s, t) in [
            (125, "+1.25"),
            (-30, "-0.30"),
            (0, "+0.00"),
            (29_997, "+M3"),
            (-29_990, "-M10"),
            (45_000, "+450.00"),
        ] {
            assert_eq!(score_text(s), t);
            assert_eq!(parse_score(t), Some(s), "{t}");
        }
        for bad in ["", "+", "1.2", "+1.234", "M", "+Mx", "+M5000", "++1.00", "1e3"] {
            assert_eq!(parse_score(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_game_round_trips_through_pgn() {
        let rec = record();
        let tags = PgnTags { event: "test".into(), date: "2026.12.01".into(), ..PgnTags::default() };
        let mut out = Vec::new();
        write_game(&mut out, &rec, &tags, Some(&[103, 98, 5, 0, 1, 2, 3])).unwrap();
        write_game(&mut out, &rec, &tags, None).unwrap();
        let text = String::from_utf8(out.clone()).unwrap();
        assert!(text.contains("[Round \"42\"]\n"), "{text}");
        assert!(text.contains("[White \"alphabeta:depth=2 \\\"q\\\"\"]"), "{text}");
        assert!(text.contains("[Termination \"resign adjudication\"]"), "{text}");
        assert!(text.contains(" {+1.25/8 103}"), "{text}");
        assert!(text.contains(" {-0.30/7 98 random}"), "{text}");
        assert!(text.contains(" {+M3 5}"), "{text}");
        assert!(text.lines().all(|l| l.len() <= 80), "{text}");
        // A turn and its comment share a line.
        assert!(!text.contains("\n{"), "{text}");
        let back: Vec<GameRecord> = PgnReader::new(&out[..]).map(Result::unwrap).collect();
        assert_eq!(back, vec![rec.clone(), rec]);
    }

    #[test]
    fn bad_games_name_their_line() {
        let good = {
            let mut v = Vec::new();
            write_game(&mut v, &record(), &PgnTags::default(), None).unwrap();
            String::from_utf8(v).unwrap()
        };
        let cases = [
            (good.replace("0-1\n\n", "\n\n"), "no result"),
            (good.replace("[Result \"0-1\"]", "[Result \"1-0\"]"), "differs"),
            (good.replace("resign adjudication", "boredom"), "unknown Termination"),
            (good.replace("{+1.25/8}", "{+1.2x/8}"), "not a score"),
            (good.replace("[FEN \"", "[FEN \"x"), "FEN"),
            (good.replacen("1. ", "1. a1a1 ", 1), "turn 1 \"a1a1\""),
            (good.replace("[Event \"?\"]", "[Event ?]"), "double quotes"),
            (good.replace("0-1\n\n", "*\n\n"), "unfinished"),
        ];
        for (text, needle) in cases {
            let err = PgnReader::new(text.as_bytes()).find_map(Result::err).expect(needle).to_string();
            assert!(err.starts_with("line "), "{err}");
            assert!(err.contains(needle), "{needle}: {err}");
        }
        // The line number is the bad turn's.
        let text = good.replacen("1. ", "\n\n1. a1a1 ", 1);
        let err = PgnReader::new(text.as_bytes()).find_map(Result::err).unwrap().to_string();
        let line = text.lines().position(|l| l.contains("a1a1")).unwrap() + 1;
        assert!(err.starts_with(&format!("line {line}:")), "{err}");
        // A line without an end is cut at the bound, not held in memory.
        let long = "1. ".to_string() + &"x".repeat(MAX_PGN_LINE + 10);
        let err = PgnReader::new(long.as_bytes()).find_map(Result::err).unwrap().to_string();
        assert!(err.contains("longer than"), "{err}");
        assert_eq!(PgnReader::new(&b"\n\n"[..]).count(), 0);
    }

    /// The text of one good game.
    fn good_text() -> String {
        let mut v = Vec::new();
        write_game(&mut v, &record(), &PgnTags::default(), None).unwrap();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn semicolon_comments_run_to_the_end_of_their_line_anywhere() {
        let good = good_text();
        let with = format!(
            "; a comment before the tags\n{}",
            good.replacen("[Site", "; between tags [Site \"x\"]\n[Site", 1)
                .replacen("[Round \"42\"]", "[Round \"42\"] ; after a tag", 1)
                .replacen("\n\n1.", "\n; before the turns\n\n1.", 1)
                .replacen("1. ", "1. ; the rest of this line is a comment\n", 1)
                .replace("0-1\n", "0-1 ; the result\n; after the game\n")
        );
        let back: Vec<GameRecord> = PgnReader::new(with.as_bytes()).map(Result::unwrap).collect();
        assert_eq!(back, vec![record()]);
        // Twice in a row, each game preceded by a comment line.
        let two = format!(";one\n{good};two\n{good}");
        assert_eq!(PgnReader::new(two.as_bytes()).map(Result::unwrap).count(), 2);
        // Inside braces a `;` is text, not a comment.
        let text = good.replacen("{+1.25/8}", "{+1.25/8 ; x}", 1);
        assert!(
            PgnReader::new(text.as_bytes())
                .find_map(Result::err)
                .is_some_and(|e| e.to_string().contains("not a score"))
        );
        // A file of comments only holds no game.
        assert_eq!(PgnReader::new(&b"; nothing\n;\n"[..]).count(), 0);
    }

    /// An endless input: `line` repeated forever after `head`.
    struct Endless {
        head: Vec<u8>,
        line: Vec<u8>,
        at: usize,
    }

    impl io::Read for Endless {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let mut n = 0;
            while n < buf.len() {
                let (src, at) = if self.at < self.head.len() {
                    (&self.head, self.at)
                } else {
                    (&self.line, (self.at - self.head.len()) % self.line.len())
                };
                let k = (src.len() - at).min(buf.len() - n);
                buf[n..n + k].copy_from_slice(&src[at..at + k]);
                n += k;
                self.at += k;
            }
            Ok(n)
        }
    }

    fn endless(head: &str, line: &str) -> io::BufReader<Endless> {
        io::BufReader::new(Endless { head: head.into(), line: line.into(), at: 0 })
    }

    #[test]
    fn endless_headers_and_games_are_cut_at_a_bound_naming_the_line() {
        let err = PgnReader::new(endless("", "[Event \"x\"]\n")).find_map(Result::err).unwrap().to_string();
        assert_eq!(
            err,
            format!("line {}: more than {MAX_PGN_TAGS} tags in a game's header", MAX_PGN_TAGS + 1)
        );
        let long = format!("[Event \"{}\"]\n", "x".repeat(MAX_PGN_TAG));
        let err = PgnReader::new(long.as_bytes()).find_map(Result::err).unwrap().to_string();
        assert!(err.starts_with("line 1: a tag longer than"), "{err}");
        // Movetext without an end: annotations ($1) are not stored, the game's size bounds them.
        let line = format!("{}\n", "$1 ".repeat(300));
        let err = PgnReader::new(endless("[Event \"x\"]\n\n1. d3e3+\n", &line))
            .find_map(Result::err)
            .unwrap()
            .to_string();
        assert!(err.contains(&format!("a game longer than {MAX_PGN_GAME} bytes")), "{err}");
        let err = PgnReader::new(endless("[Event \"x\"]\n\n", "1. d3e3+ d4d3+ 2. e3d3+ d3e3+\n"))
            .find_map(Result::err)
            .unwrap()
            .to_string();
        assert!(err.contains(&format!("more than {MAX_PGN_TURNS} turns")), "{err}");
        // Blank and `;` lines are not stored: an endless run of them ends the input... never;
        // but it holds no memory either, so it is left to the input's end (here: cut short).
        let some: Vec<_> = PgnReader::new(io::Read::take(endless("", "; c\n\n"), 1 << 20)).collect();
        assert!(some.is_empty());
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]
        /// A damaged file gives games and at most one error, last, never a panic.
        #[test]
        fn damaged_pgn_never_panics(edits in proptest::collection::vec((0usize..2000, 0u8..=255), 1..8)) {
            let mut v = Vec::new();
            write_game(&mut v, &record(), &PgnTags::default(), Some(&[1, 2, 3])).unwrap();
            write_game(&mut v, &record(), &PgnTags::default(), None).unwrap();
            for (at, byte) in edits {
                let n = v.len();
                v[at % n] = byte;
            }
            // The reader stops at the first error.
            let items: Vec<_> = PgnReader::new(&v[..]).collect();
            let errors = items.iter().filter(|r| r.is_err()).count();
            proptest::prop_assert!(errors <= 1);
            proptest::prop_assert!(errors == 0 || items.last().is_some_and(Result::is_err));
        }
    }

    #[test]
    fn dates_are_civil() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_788), (2026, 12, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(today_utc().len(), 10);
    }
}
