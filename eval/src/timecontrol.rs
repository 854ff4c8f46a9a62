//! Time controls and turn limits, in fastchess's syntax: `tc=MOVES/BASE+INC` (`40/60+0.6`:
//! 60 s for every 40 turns plus 0.6 s per turn; `10+0.1`; `60`), `st=SECONDS` (a fixed time per
//! turn), `nodes=N`, `depth=N`, `timemargin=MS` (the grace before a late turn loses).

use core::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::spec::Clock;

/// The longest base time or increment accepted, in seconds (a week: more is a typo).
pub const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// A parsed `tc=` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Turns per time period (`None`: the whole game is one period).
    pub moves: Option<u32>,
    /// Base time and increment.
    pub clock: Clock,
}

/// Seconds (a decimal number, 0 ..= [`MAX_SECONDS`]) in milliseconds.
///
/// # Errors
/// The reason, as text.
pub fn seconds_ms(what: &str, v: &str) -> Result<u64, String> {
    let secs: f64 = v.trim().parse().map_err(|_| format!("{what} {v:?} is not a number of seconds"))?;
    if !(secs.is_finite() && (0.0..=MAX_SECONDS).contains(&secs)) {
        return Err(format!("{what} {v:?} must be 0..={MAX_SECONDS} seconds"));
    }
    Ok((secs * 1000.0).round() as u64)
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let t = text.trim();
        let (moves, rest) =
            match t.split_once('/') {
                Some((m, rest)) => {
                    let m: u32 =
                        m.trim().parse().ok().filter(|m| *m >= 1).ok_or_else(|| {
                            format!("tc {t:?}: turns per period {m:?} must be a number >= 1")
                        })?;
                    (Some(m), rest)
                }
                None => (None, t),
            };
        let (base, inc) = rest.split_once('+').unwrap_or((rest, "0"));
        let clock = Clock { base_ms: seconds_ms("tc base", base)?, inc_ms: seconds_ms("tc increment", inc)? };
        if clock.base_ms == 0 {
            return Err(format!("tc {t:?} needs a base time above 0"));
        }
        Ok(TimeControl { moves, clock })
    }
}

/// The limits of an in-process player set by engine options (external engines keep theirs in
/// [`crate::ExternalSpec`], sent with `go`). Unset fields keep the player spec's own limits.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Control {
    /// `depth=N`.
    pub depth: Option<u32>,
    /// `nodes=N`.
    pub nodes: Option<u64>,
    /// `st=SECONDS` / `movetime=MS`.
    pub movetime_ms: Option<u64>,
    /// `tc=`: the clock.
    pub clock: Option<Clock>,
    /// `tc=MOVES/...`: turns per period.
    pub period: Option<u32>,
    /// `timemargin=MS` / `margin=MS` (default [`crate::ExternalSpec::DEFAULT_MARGIN_MS`]).
    pub margin_ms: Option<u64>,
    /// The player spec has no limit of its own (`alphabeta:eval=material;tc=10+0.1`): only
    /// these count.
    #[serde(default)]
    pub spec_unlimited: bool,
}

impl Control {
    /// Whether any limit is set (otherwise the player plays exactly as its spec says).
    pub fn is_set(&self) -> bool {
        self.depth.is_some() || self.nodes.is_some() || self.movetime_ms.is_some() || self.clock.is_some()
    }
}

/// One limit option of an engine spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Limit {
    Depth(u32),
    Nodes(u64),
    Movetime(u64),
    Tc(TimeControl),
    Margin(u64),
    Timeout(u64),
}

/// The limit option `key=value`, `None` when `key` is not a limit.
pub(crate) fn parse_limit(key: &str, value: &str) -> Option<Result<Limit, String>> {
    let int = |v: &str| v.trim().parse::<u64>().map_err(|_| format!("{key}={v:?} is not a valid number"));
    Some(match key {
        "depth" => int(value).and_then(|d| {
            u32::try_from(d)
                .ok()
                .filter(|d| *d >= 1)
                .map(Limit::Depth)
                .ok_or_else(|| format!("depth={value:?} must be 1 or more"))
        }),
        "nodes" => int(value).and_then(|n| {
            if n == 0 { Err("nodes must be 1 or more".to_string()) } else { Ok(Limit::Nodes(n)) }
        }),
        "movetime" => int(value).map(Limit::Movetime),
        "st" => seconds_ms("st", value).map(Limit::Movetime),
        "tc" => value.parse().map(Limit::Tc),
        "margin" | "timemargin" => int(value).map(Limit::Margin),
        "timeout" => int(value).map(Limit::Timeout),
        _ => return None,
    })
}

impl Control {
    pub(crate) fn apply(&mut self, limit: Limit) {
        match limit {
            Limit::Depth(d) => self.depth = Some(d),
            Limit::Nodes(n) => self.nodes = Some(n),
            Limit::Movetime(t) => self.movetime_ms = Some(t),
            Limit::Tc(tc) => {
                self.clock = Some(tc.clock);
                self.period = tc.moves;
            }
            Limit::Margin(m) => self.margin_ms = Some(m),
            // In-process players always answer: nothing to wait for.
            Limit::Timeout(_) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_in_the_fastchess_syntax() {
        let tc: TimeControl = "40/60+0.6".parse().unwrap();
        assert_eq!(tc, TimeControl { moves: Some(40), clock: Clock { base_ms: 60_000, inc_ms: 600 } });
        let tc: TimeControl = "10+0.1".parse().unwrap();
        assert_eq!(tc, TimeControl { moves: None, clock: Clock { base_ms: 10_000, inc_ms: 100 } });
        assert_eq!("5".parse::<TimeControl>().unwrap().clock.inc_ms, 0);
        for bad in ["", "0+1", "x/10", "0/10", "10+y", "1e99", "-5+1", "40/"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
        assert_eq!(parse_limit("st", "0.25"), Some(Ok(Limit::Movetime(250))));
        assert_eq!(parse_limit("timemargin", "50"), Some(Ok(Limit::Margin(50))));
        assert!(matches!(parse_limit("depth", "0"), Some(Err(_))));
        assert_eq!(parse_limit("hash", "1"), None);
    }
}
