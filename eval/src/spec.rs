//! Engine descriptions: an in-process player spec of fanorona-engine, or an external program
//! speaking the engine protocol, with per-engine options after `;`.
//!
//! ```text
//! alphabeta:depth=4,eval=handcrafted
//! alphabeta:nodes=20000,eval=net:nets/a.fnn;name=net-a
//! alphabeta:eval=handcrafted;tc=10+0.1
//! cmd:./fanorona engine;depth=4
//! cmd:/opt/old/fanorona engine;tc=40/60+0.6;name=old
//! cmd:"/opt/my engines/run.sh" --fast;st=0.2;option.Hash=64
//! ```
//!
//! The part before the first `;` is the engine: a player spec (`random`, `greedy`,
//! `alphabeta:...`), or `cmd:` and a command line split as a shell would (words separated by
//! spaces; `'...'` and `"..."` quote, `\` escapes the next character). The options after it,
//! separated by `;`, for every engine:
//! - `name=NAME` — the name in reports (default: the spec text);
//! - `depth=N`, `nodes=N`, `st=SECONDS` or `movetime=MS` (a fixed time per turn);
//! - `tc=[MOVES/]BASE[+INC]` — a clock: BASE seconds (for every MOVES turns, when given) plus
//!   INC seconds per turn, like `40/60+0.6` or `10+0.1`; running out of time loses. External
//!   engines get `wtime`/`btime`/`winc`/`binc` (and `movestogo`); in-process players budget
//!   their clock as `fanorona engine` does;
//! - `timemargin=MS` (or `margin=MS`) — the grace added to a time limit before it counts as a
//!   forfeit (default 200).
//!
//! External engines only: `timeout=MS`, how long to wait for a `bestmove` when neither
//! `st`/`movetime` nor `tc` bounds it (default 30000); `option.NAME=VALUE`, sent as
//! `setoption name NAME value VALUE`.

use core::fmt;
use core::str::FromStr;
use std::path::PathBuf;
use std::time::Duration;

use fanorona_engine::PlayerSpec;
use fanorona_engine::spec::SpecError;
use serde::{Deserialize, Serialize};

use crate::EvalError;
use crate::timecontrol::{Control, Limit, parse_limit};

/// The keys an engine option may have (besides `option.NAME` for external engines).
pub const OPTION_KEYS: [&str; 10] =
    ["name", "depth", "nodes", "st", "movetime", "tc", "timemargin", "margin", "timeout", "option.NAME"];

/// A clock: base time for the game plus an increment per turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    /// Time for the whole game, in milliseconds.
    pub base_ms: u64,
    /// Added after every turn, in milliseconds.
    pub inc_ms: u64,
}

/// How an external engine is run and limited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExternalSpec {
    /// The program.
    pub program: PathBuf,
    /// Its arguments.
    pub args: Vec<String>,
    /// `go depth N`.
    pub depth: Option<u32>,
    /// `go nodes N`.
    pub nodes: Option<u64>,
    /// `go movetime MS`.
    pub movetime_ms: Option<u64>,
    /// A game clock.
    pub clock: Option<Clock>,
    /// Wait this long for a `bestmove` without a time limit.
    pub timeout_ms: u64,
    /// Grace on top of a time limit.
    pub margin_ms: u64,
    /// `setoption` name/value pairs, in order.
    pub options: Vec<(String, String)>,
    /// Turns per clock period (`tc=40/60`): `movestogo` is sent and the base time is added
    /// again after every period.
    #[serde(default)]
    pub period: Option<u32>,
}

impl ExternalSpec {
    /// Default wait for an untimed search.
    pub const DEFAULT_TIMEOUT_MS: u64 = 30_000;
    /// Default grace on a time limit.
    pub const DEFAULT_MARGIN_MS: u64 = 200;

    /// The `go` line's limits, without the clock (which changes every turn).
    pub fn go_limits(&self) -> String {
        let mut s = String::new();
        if let Some(d) = self.depth {
            s.push_str(&format!(" depth {d}"));
        }
        if let Some(n) = self.nodes {
            s.push_str(&format!(" nodes {n}"));
        }
        if let Some(t) = self.movetime_ms {
            s.push_str(&format!(" movetime {t}"));
        }
        s
    }

    /// How long a turn may take given the mover's clock, if any (`remaining_ms`).
    pub fn turn_deadline(&self, remaining_ms: Option<i64>) -> Duration {
        let mut ms = match (self.movetime_ms, remaining_ms) {
            (Some(t), Some(r)) => t.min(r.max(0) as u64),
            (Some(t), None) => t,
            (None, Some(r)) => r.max(0) as u64,
            (None, None) => return Duration::from_millis(self.timeout_ms),
        };
        ms += self.margin_ms;
        Duration::from_millis(ms)
    }
}

/// What an engine is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum EngineKind {
    /// An in-process player (its spec text, canonical).
    Player(#[serde(with = "player_text")] PlayerSpec),
    /// An external program.
    External(ExternalSpec),
}

mod player_text {
    use fanorona_engine::PlayerSpec;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(p: &PlayerSpec, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&p.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<PlayerSpec, D::Error> {
        let t = String::deserialize(d)?;
        t.parse().map_err(serde::de::Error::custom)
    }
}

/// An engine of a match: what it is and its name in reports.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EngineSpec {
    /// The name in reports and game records.
    pub name: String,
    /// What it is.
    pub kind: EngineKind,
    /// The text it was parsed from.
    pub text: String,
    /// An in-process player's limits from the engine options (`tc=`, `st=`, ...); unset for
    /// external engines, whose limits are in their [`ExternalSpec`].
    #[serde(default)]
    pub control: Control,
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl FromStr for EngineSpec {
    type Err = EvalError;

    fn from_str(text: &str) -> Result<EngineSpec, EvalError> {
        EngineSpec::with_options(text, &EngineOptions::default())
    }
}

/// One engine option, `key=value` (`tc=10+0.1`, `name=a`), read but not yet checked against
/// an engine (`option.NAME` is for `cmd:` engines only).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The key, trimmed.
    pub key: String,
    /// The value, trimmed.
    pub value: String,
}

impl fmt::Display for EngineOption {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.key, self.value)
    }
}

impl FromStr for EngineOption {
    type Err = String;

    fn from_str(opt: &str) -> Result<EngineOption, String> {
        let opt = opt.trim();
        let (key, value) = opt.split_once('=').ok_or_else(|| format!("option {opt:?} is not key=value"))?;
        Ok(EngineOption { key: key.trim().to_string(), value: value.trim().to_string() })
    }
}

/// Engine options, in order: what follows an engine's first `;`, or what `--each` gives every
/// engine of a match, read once and applied to each as a typed list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineOptions(pub Vec<EngineOption>);

impl EngineOptions {
    /// Reads a `;`-separated list (`tc=10+0.1;timemargin=50`; a `;` inside quotes belongs to
    /// a value); empty parts are skipped.
    ///
    /// # Errors
    /// An unclosed quote, or a part that is not `key=value`.
    fn parse_list(text: &str) -> Result<EngineOptions, String> {
        split_unquoted(text)?
            .iter()
            .filter(|p| !p.trim().is_empty())
            .map(|p| p.parse())
            .collect::<Result<_, _>>()
            .map(EngineOptions)
    }

    /// Adds `other`'s options after these.
    pub fn extend(&mut self, other: EngineOptions) {
        self.0.extend(other.0);
    }
}

impl FromStr for EngineOptions {
    type Err = EvalError;

    fn from_str(text: &str) -> Result<EngineOptions, EvalError> {
        EngineOptions::parse_list(text).map_err(|reason| EvalError::Spec { spec: text.to_string(), reason })
    }
}

impl fmt::Display for EngineOptions {
    /// `key=value;key=value`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, o) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(";")?;
            }
            write!(f, "{o}")?;
        }
        Ok(())
    }
}

impl EngineSpec {
    /// The engine of spec `text` with the options `extra` after its own, as if they ended its
    /// text (`--each`): its recorded text ends in them.
    ///
    /// # Errors
    /// [`EvalError::Spec`] naming the text (with `extra`) and the problem.
    pub fn with_options(text: &str, extra: &EngineOptions) -> Result<EngineSpec, EvalError> {
        let full =
            if extra.0.is_empty() { text.trim().to_string() } else { format!("{};{extra}", text.trim()) };
        let bad = |reason: String| EvalError::Spec { spec: full.clone(), reason };
        let mut parts = split_unquoted(text).map_err(&bad)?.into_iter();
        let head = parts.next().unwrap_or_default();
        let head = head.trim();
        if head.is_empty() {
            return Err(bad(
                "empty engine (expected a player spec like alphabeta:depth=4, or cmd:PROGRAM)".into()
            ));
        }
        let (mut kind, unlimited) = parse_head(head).map_err(&bad)?;
        let own = parts
            .filter(|p| !p.trim().is_empty())
            .map(|p| p.parse::<EngineOption>())
            .collect::<Result<Vec<_>, _>>()
            .map_err(&bad)?;
        let mut control = Control::default();
        let mut name = None;
        for EngineOption { key, value } in own.iter().chain(&extra.0) {
            if key == "name" {
                if value.is_empty() {
                    return Err(bad("name= is empty".into()));
                }
                name = Some(value.clone());
                continue;
            }
            apply_option(&mut kind, &mut control, key, value).map_err(&bad)?;
        }
        if unlimited {
            limit_by_options(&mut kind, &mut control).map_err(&bad)?;
        }
        let name = name.unwrap_or_else(|| head.to_string());
        Ok(EngineSpec { name, kind, text: full, control })
    }
}

/// The engine of a spec's head (`cmd:PROGRAM ARGS` or a player spec), and whether it is a
/// search without a limit of its own, which may take it from the options (`;tc=10+0.1`):
/// decided once they are read.
fn parse_head(head: &str) -> Result<(EngineKind, bool), String> {
    if let Some(cmd) = head.strip_prefix("cmd:") {
        let mut words = shell_words(cmd)?.into_iter();
        let program = words.next().ok_or_else(|| "cmd: needs a program".to_string())?;
        return Ok((
            EngineKind::External(ExternalSpec {
                program: PathBuf::from(program),
                args: words.collect(),
                depth: None,
                nodes: None,
                movetime_ms: None,
                clock: None,
                timeout_ms: ExternalSpec::DEFAULT_TIMEOUT_MS,
                margin_ms: ExternalSpec::DEFAULT_MARGIN_MS,
                options: Vec::new(),
                period: None,
            }),
            false,
        ));
    }
    let player = PlayerSpec::parse_without_limit(head).map_err(|e| e.to_string())?;
    let unlimited = matches!(&player, PlayerSpec::AlphaBeta(a) if !a.has_limit());
    Ok((EngineKind::Player(player), unlimited))
}

/// Applies one `key=value` option other than `name`: a limit, or an `option.NAME` of a
/// `cmd:` engine.
fn apply_option(kind: &mut EngineKind, control: &mut Control, key: &str, value: &str) -> Result<(), String> {
    if let Some(limit) = parse_limit(key, value) {
        let limit = limit?;
        match kind {
            EngineKind::External(ext) => ext.apply(limit),
            EngineKind::Player(_) => control.apply(limit),
        }
        return Ok(());
    }
    match (kind, key.strip_prefix("option.")) {
        (EngineKind::External(ext), Some(o)) if !o.is_empty() => {
            ext.options.push((o.to_string(), value.to_string()));
            Ok(())
        }
        (EngineKind::Player(_), Some(_)) => Err(format!(
            "option {key:?} is for cmd: engines; in-process players take their settings in the spec (alphabeta:hash=64)"
        )),
        _ => Err(format!("unknown option {key:?} (allowed: {})", OPTION_KEYS.join(", "))),
    }
}

/// Limits the search without a limit of its own in `kind` once the options gave `control` one
/// (only the options' limits count, `spec_unlimited`: any placeholder depth will do).
fn limit_by_options(kind: &mut EngineKind, control: &mut Control) -> Result<(), String> {
    if !control.is_set() {
        return Err(format!(
            "{}; or give one as an engine option (;depth=N, ;nodes=N, ;st=SECONDS, ;tc=BASE+INC, --each ...)",
            SpecError::NoLimit
        ));
    }
    control.spec_unlimited = true;
    if let EngineKind::Player(PlayerSpec::AlphaBeta(a)) = kind {
        a.depth = Some(1);
    }
    Ok(())
}

impl EngineSpec {
    /// The in-process player `spec`, named `name` in reports and records, with its own limits.
    pub fn player(spec: PlayerSpec, name: impl Into<String>) -> EngineSpec {
        EngineSpec {
            name: name.into(),
            text: spec.to_string(),
            kind: EngineKind::Player(spec),
            control: Control::default(),
        }
    }
}

impl ExternalSpec {
    fn apply(&mut self, limit: Limit) {
        match limit {
            Limit::Depth(d) => self.depth = Some(d),
            Limit::Nodes(n) => self.nodes = Some(n),
            Limit::Movetime(t) => self.movetime_ms = Some(t),
            Limit::Tc(tc) => {
                self.clock = Some(tc.clock);
                self.period = tc.moves;
            }
            Limit::Margin(m) => self.margin_ms = m,
            Limit::Timeout(t) => self.timeout_ms = t,
        }
    }
}

/// The parts of a spec: split on the `;` outside quotes (a quoted program path may hold one).
fn split_unquoted(text: &str) -> Result<Vec<String>, String> {
    let mut parts = vec![String::new()];
    let mut quote = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        let cur = parts.last_mut().ok_or("no part")?;
        match (quote, c) {
            (None, ';') => {
                parts.push(String::new());
                continue;
            }
            (None, '\\') | (Some('"'), '\\') => {
                cur.push(c);
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
                continue;
            }
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), _) if c == q => quote = None,
            _ => {}
        }
        cur.push(c);
    }
    if quote.is_some() {
        return Err("a quote is not closed".into());
    }
    Ok(parts)
}

/// Splits a command line as a POSIX shell would, without expansions: words separated by
/// whitespace, `'...'` literal, `"..."` with `\` escaping `"`, `\\`, `$` and `` ` ``, a bare
/// `\` escaping any character.
///
/// # Errors
/// An unclosed quote or a trailing backslash.
pub fn shell_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur: Option<String> = None;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if let Some(w) = cur.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = cur.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => w.push(x),
                        None => return Err(format!("unclosed ' in {line:?}")),
                    }
                }
            }
            '"' => {
                let w = cur.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\' | '$' | '`')) => w.push(x),
                            Some(x) => {
                                w.push('\\');
                                w.push(x);
                            }
                            None => return Err(format!("unclosed \" in {line:?}")),
                        },
                        Some(x) => w.push(x),
                        None => return Err(format!("unclosed \" in {line:?}")),
                    }
                }
            }
            '\\' => match chars.next() {
                Some(x) => cur.get_or_insert_with(String::new).push(x),
                None => return Err(format!("a backslash ends {line:?}")),
            },
            _ => cur.get_or_insert_with(String::new).push(c),
        }
    }
    if let Some(w) = cur {
        words.push(w);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_process_and_external() {
        let e: EngineSpec = "alphabeta:depth=2;name=ab2".parse().unwrap();
        assert_eq!(e.name, "ab2");
        assert!(matches!(e.kind, EngineKind::Player(PlayerSpec::AlphaBeta(_))));
        let e: EngineSpec = "random".parse().unwrap();
        assert_eq!(e.name, "random");

        let e: EngineSpec =
            "cmd:./fanorona engine --x;depth=4;tc=40+0.4;option.Hash=64;margin=50".parse().unwrap();
        let EngineKind::External(x) = &e.kind else { panic!("external expected") };
        assert_eq!(x.program, PathBuf::from("./fanorona"));
        assert_eq!(x.args, vec!["engine".to_string(), "--x".to_string()]);
        assert_eq!(x.depth, Some(4));
        assert_eq!(x.clock, Some(Clock { base_ms: 40_000, inc_ms: 400 }));
        assert_eq!(x.options, vec![("Hash".to_string(), "64".to_string())]);
        assert_eq!(x.go_limits(), " depth 4");
        // Clock 1000 ms left, margin 50: deadline 1050 ms.
        assert_eq!(x.turn_deadline(Some(1000)), Duration::from_millis(1050));
        assert_eq!(e.name, "cmd:./fanorona engine --x");
    }

    #[test]
    fn errors_name_the_problem() {
        for (text, needle) in [
            ("", "empty"),
            ("cmd:", "program"),
            ("alphabeta:depth=x", "depth"),
            ("cmd:x;tc=abc", "tc base"),
            ("cmd:x;frob=1", "unknown option"),
            ("random;frob=1", "allowed: name, depth, nodes, st, movetime, tc, timemargin"),
            ("random;option.Hash=1", "cmd: engines"),
            ("cmd:\"x y;depth=1", "quote"),
            ("cmd:x;tc=40/0", "base time above 0"),
            ("cmd:x;depth", "key=value"),
        ] {
            let err = text.parse::<EngineSpec>().unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
    }

    #[test]
    fn options_for_every_engine_apply_as_typed_values() {
        let each: EngineOptions = "st=0.1; name=x".parse().unwrap();
        let mut all = EngineOptions::default();
        all.extend(each);
        all.extend("timemargin=50".parse().unwrap());
        assert_eq!(all.to_string(), "st=0.1;name=x;timemargin=50");
        let e = EngineSpec::with_options("alphabeta:eval=material;name=a", &all).unwrap();
        assert_eq!((e.name.as_str(), e.control.movetime_ms, e.control.margin_ms), ("x", Some(100), Some(50)));
        assert!(e.control.spec_unlimited);
        assert_eq!(e.text, "alphabeta:eval=material;name=a;st=0.1;name=x;timemargin=50");
        let EngineKind::Player(PlayerSpec::AlphaBeta(a)) = &e.kind else { panic!("alphabeta expected") };
        assert_eq!(a.depth, Some(1));
        let e = EngineSpec::with_options("cmd:x", &"depth=3;option.Hash=8".parse().unwrap()).unwrap();
        let EngineKind::External(x) = &e.kind else { panic!("external expected") };
        assert_eq!((x.depth, x.options.clone()), (Some(3), vec![("Hash".to_string(), "8".to_string())]));
        assert!("depth".parse::<EngineOptions>().unwrap_err().to_string().contains("key=value"));
        let err = EngineSpec::with_options("random", &"frob=1".parse().unwrap()).unwrap_err().to_string();
        assert!(err.contains("random;frob=1") && err.contains("unknown option"), "{err}");
    }

    #[test]
    fn command_lines_split_like_a_shell() {
        let words = |t: &str| shell_words(t).unwrap();
        assert_eq!(words(r#"a "b c" 'd  e' f\ g "h\"i" 'j\k'"#), ["a", "b c", "d  e", "f g", "h\"i", "j\\k"]);
        assert_eq!(words(r#"x"y"'z'"#), ["xyz"]);
        assert_eq!(words(r#"'' """#), ["", ""]);
        assert!(shell_words("a 'b").is_err());
        assert!(shell_words("a \\").is_err());
        let e: EngineSpec = r#"cmd:"/opt/my engines/run.sh" --x;depth=3;name=a b"#.parse().unwrap();
        let EngineKind::External(x) = &e.kind else { panic!("external expected") };
        assert_eq!(x.program, PathBuf::from("/opt/my engines/run.sh"));
        assert_eq!((x.args.clone(), x.depth, e.name.as_str()), (vec!["--x".to_string()], Some(3), "a b"));
        // A quoted `;` belongs to the command line.
        let e: EngineSpec = "cmd:sh -c 'echo a;b';st=0.5".parse().unwrap();
        let EngineKind::External(x) = &e.kind else { panic!("external expected") };
        assert_eq!((x.args[1].as_str(), x.movetime_ms), ("echo a;b", Some(500)));
    }

    #[test]
    fn in_process_players_take_time_controls() {
        let e: EngineSpec = "alphabeta:eval=material;tc=40/60+0.6;timemargin=30;nodes=500".parse().unwrap();
        assert_eq!(e.control.clock, Some(Clock { base_ms: 60_000, inc_ms: 600 }));
        assert_eq!((e.control.period, e.control.margin_ms, e.control.nodes), (Some(40), Some(30), Some(500)));
        assert!(e.control.is_set());
        // The limit may come from the options alone.
        let e: EngineSpec = "alphabeta:eval=material;st=0.1".parse().unwrap();
        assert_eq!((e.name.as_str(), e.control.movetime_ms), ("alphabeta:eval=material", Some(100)));
        let err = "alphabeta:eval=material;timemargin=5".parse::<EngineSpec>().unwrap_err().to_string();
        assert!(err.contains("engine option"), "{err}");
        let e: EngineSpec = "cmd:x;tc=40/60+0.6".parse().unwrap();
        let EngineKind::External(x) = &e.kind else { panic!("external expected") };
        assert_eq!(x.period, Some(40));
        assert!(!e.control.is_set());
    }
}
