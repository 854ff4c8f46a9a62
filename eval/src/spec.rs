//! Engine descriptions: an in-process player spec of fanorona-engine, or an external program
//! speaking the engine protocol, with per-engine options after `;`.
//!
//! ```text
//! alphabeta:depth=4,eval=handcrafted
//! alphabeta:nodes=20000,eval=net:nets/a.fnn;name=net-a
//! cmd:./fanorona engine;depth=4
//! cmd:/opt/old/fanorona engine;tc=10+0.1;name=old
//! cmd:python3 my_engine.py --fast;movetime=200;option.Hash=64
//! ```
//!
//! The part before the first `;` is the engine: a player spec (`random`, `greedy`,
//! `alphabeta:...`), or `cmd:` and a command line split on whitespace (no quoting). The options
//! after it, separated by `;`:
//! - `name=NAME` — the name in reports (default: the spec text);
//! - external engines only: `depth=N`, `nodes=N`, `movetime=MS` (sent with `go`), or
//!   `tc=BASE+INC` (a clock: BASE seconds for the game plus INC seconds per turn, like `40+0.4`;
//!   `wtime`/`btime`/`winc`/`binc` are sent and running out of time loses); `timeout=MS`, how
//!   long to wait for a `bestmove` when neither `movetime` nor `tc` bounds it (default 30000);
//!   `margin=MS`, the grace added to a time limit before it counts as a forfeit (default 200);
//!   `option.NAME=VALUE`, sent as `setoption name NAME value VALUE`.

use core::fmt;
use core::str::FromStr;
use std::path::PathBuf;
use std::time::Duration;

use fanorona_engine::PlayerSpec;
use serde::{Deserialize, Serialize};

use crate::EvalError;

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
}

impl fmt::Display for EngineSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn number<T: FromStr>(spec: &str, key: &str, value: &str) -> Result<T, EvalError> {
    value.trim().parse().map_err(|_| EvalError::Spec {
        spec: spec.to_string(),
        reason: format!("{key}={value:?} is not a valid number"),
    })
}

fn parse_seconds_ms(spec: &str, key: &str, v: &str) -> Result<u64, EvalError> {
    let secs: f64 = number(spec, key, v)?;
    if !(secs.is_finite() && secs >= 0.0) {
        return Err(EvalError::Spec { spec: spec.to_string(), reason: format!("{key} {v:?} must be >= 0") });
    }
    Ok((secs * 1000.0).round() as u64)
}

impl FromStr for EngineSpec {
    type Err = EvalError;

    fn from_str(text: &str) -> Result<EngineSpec, EvalError> {
        let bad = |reason: String| EvalError::Spec { spec: text.to_string(), reason };
        let mut parts = text.split(';');
        let head = parts.next().unwrap_or("").trim();
        if head.is_empty() {
            return Err(bad(
                "empty engine (expected a player spec like alphabeta:depth=4, or cmd:PROGRAM)".into()
            ));
        }
        let mut name = None;
        let mut kind = if let Some(cmd) = head.strip_prefix("cmd:") {
            let mut words = cmd.split_whitespace();
            let program = words.next().ok_or_else(|| bad("cmd: needs a program".into()))?;
            EngineKind::External(ExternalSpec {
                program: PathBuf::from(program),
                args: words.map(str::to_string).collect(),
                depth: None,
                nodes: None,
                movetime_ms: None,
                clock: None,
                timeout_ms: ExternalSpec::DEFAULT_TIMEOUT_MS,
                margin_ms: ExternalSpec::DEFAULT_MARGIN_MS,
                options: Vec::new(),
            })
        } else {
            EngineKind::Player(head.parse::<PlayerSpec>().map_err(|e| bad(e.to_string()))?)
        };
        for opt in parts.map(str::trim).filter(|p| !p.is_empty()) {
            let (key, value) =
                opt.split_once('=').ok_or_else(|| bad(format!("option {opt:?} is not key=value")))?;
            let (key, value) = (key.trim(), value.trim());
            if key == "name" {
                if value.is_empty() {
                    return Err(bad("name= is empty".into()));
                }
                name = Some(value.to_string());
                continue;
            }
            let EngineKind::External(ext) = &mut kind else {
                return Err(bad(format!(
                    "option {key:?} is for cmd: engines; in-process players take their limits in the spec (alphabeta:depth=4)"
                )));
            };
            match key {
                "depth" => ext.depth = Some(number(text, key, value)?),
                "nodes" => ext.nodes = Some(number(text, key, value)?),
                "movetime" => ext.movetime_ms = Some(number(text, key, value)?),
                "timeout" => ext.timeout_ms = number(text, key, value)?,
                "margin" => ext.margin_ms = number(text, key, value)?,
                "tc" => {
                    let (base, inc) = value.split_once('+').unwrap_or((value, "0"));
                    ext.clock = Some(Clock {
                        base_ms: parse_seconds_ms(text, "tc base", base)?,
                        inc_ms: parse_seconds_ms(text, "tc increment", inc)?,
                    });
                }
                _ => match key.strip_prefix("option.") {
                    Some(o) if !o.is_empty() => ext.options.push((o.to_string(), value.to_string())),
                    _ => {
                        return Err(bad(format!(
                            "unknown option {key:?} (expected name, depth, nodes, movetime, tc, timeout, margin or option.NAME)"
                        )));
                    }
                },
            }
        }
        if let EngineKind::External(ext) = &kind
            && ext.clock.is_some_and(|c| c.base_ms == 0)
        {
            return Err(bad("tc needs a base time above 0".into()));
        }
        let name = name.unwrap_or_else(|| head.to_string());
        Ok(EngineSpec { name, kind, text: text.trim().to_string() })
    }
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
            ("random;depth=3", "cmd: engines"),
            ("cmd:x;tc=abc", "tc base"),
            ("cmd:x;frob=1", "unknown option"),
            ("cmd:x;depth", "key=value"),
        ] {
            let err = text.parse::<EngineSpec>().unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
    }
}
