//! Score adjudication, with fastchess's syntax and meaning: `--draw movenumber=N movecount=M
//! score=S` ends a game as a draw once both engines have reported |score| <= S on M consecutive
//! turns each, after turn N; `--resign movecount=M score=S [twosided=true]` ends it once an
//! engine has reported score <= -S on M consecutive turns (and, two-sided, its opponent >= S
//! on its last M turns). Scores are centi-stones from the mover's view, as engines report them;
//! a turn without a score breaks the run.

use core::fmt;
use core::str::FromStr;

use fanorona_core::{Color, Outcome};
use fanorona_data::Ending;
use serde::{Deserialize, Serialize};

use crate::EvalError;

/// `--draw`: both engines near 0 for long enough.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRule {
    /// Turns of the game (counted from its opening position) before the rule applies.
    pub movenumber: u32,
    /// Consecutive turns of each engine.
    pub movecount: u32,
    /// Largest |score| that counts as drawn, in centi-stones.
    pub score: i32,
}

/// `--resign`: one engine (or both, agreeing) sure of the result for long enough.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ResignRule {
    /// Consecutive turns of the losing engine (and of the winning one, two-sided).
    pub movecount: u32,
    /// The losing engine reports <= -score, in centi-stones.
    pub score: i32,
    /// The winning engine must agree, reporting >= score.
    pub twosided: bool,
}

/// The adjudication rules of a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjudication {
    /// `--draw`.
    pub draw: Option<DrawRule>,
    /// `--resign`.
    pub resign: Option<ResignRule>,
}

/// The `key=value` pairs of a rule (separated by spaces or commas), checked against `allowed`.
fn pairs<'a>(flag: &str, text: &'a str, allowed: &[&str]) -> Result<Vec<(&'a str, &'a str)>, EvalError> {
    let bad = |reason: String| EvalError::Config(format!("{flag} {text:?}: {reason}"));
    let mut out: Vec<(&str, &str)> = Vec::new();
    for part in text.split([' ', ',']).filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').ok_or_else(|| bad(format!("{part:?} is not key=value")))?;
        if !allowed.contains(&k) {
            return Err(bad(format!("unknown key {k:?} (allowed: {})", allowed.join(", "))));
        }
        if out.iter().any(|(seen, _)| *seen == k) {
            return Err(bad(format!("{k} given twice")));
        }
        out.push((k, v));
    }
    Ok(out)
}

fn value<T: FromStr>(flag: &str, text: &str, key: &str, v: &str) -> Result<T, EvalError> {
    v.parse().map_err(|_| EvalError::Config(format!("{flag} {text:?}: {key}={v:?} is not a valid value")))
}

fn required<T>(flag: &str, text: &str, key: &str, v: Option<T>) -> Result<T, EvalError> {
    v.ok_or_else(|| EvalError::Config(format!("{flag} {text:?}: {key}= is missing")))
}

fn check_counts(flag: &str, text: &str, movecount: u32, score: i32) -> Result<(), EvalError> {
    if movecount == 0 {
        return Err(EvalError::Config(format!("{flag} {text:?}: movecount must be at least 1")));
    }
    if score < 0 {
        return Err(EvalError::Config(format!("{flag} {text:?}: score must be 0 or more")));
    }
    Ok(())
}

impl FromStr for DrawRule {
    type Err = EvalError;

    fn from_str(text: &str) -> Result<DrawRule, EvalError> {
        let (mut n, mut m, mut s) = (None, None, None);
        for (k, v) in pairs("--draw", text, &["movenumber", "movecount", "score"])? {
            match k {
                "movenumber" => n = Some(value("--draw", text, k, v)?),
                "movecount" => m = Some(value("--draw", text, k, v)?),
                _ => s = Some(value("--draw", text, k, v)?),
            }
        }
        let rule = DrawRule {
            movenumber: n.unwrap_or(0),
            movecount: required("--draw", text, "movecount", m)?,
            score: required("--draw", text, "score", s)?,
        };
        check_counts("--draw", text, rule.movecount, rule.score)?;
        Ok(rule)
    }
}

impl FromStr for ResignRule {
    type Err = EvalError;

    fn from_str(text: &str) -> Result<ResignRule, EvalError> {
        let (mut m, mut s, mut two) = (None, None, false);
        for (k, v) in pairs("--resign", text, &["movecount", "score", "twosided"])? {
            match k {
                "movecount" => m = Some(value("--resign", text, k, v)?),
                "score" => s = Some(value("--resign", text, k, v)?),
                _ => two = value("--resign", text, k, v)?,
            }
        }
        let rule = ResignRule {
            movecount: required("--resign", text, "movecount", m)?,
            score: required("--resign", text, "score", s)?,
            twosided: two,
        };
        check_counts("--resign", text, rule.movecount, rule.score)?;
        Ok(rule)
    }
}

impl fmt::Display for DrawRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "movenumber={} movecount={} score={}", self.movenumber, self.movecount, self.score)
    }
}

impl fmt::Display for ResignRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "movecount={} score={} twosided={}", self.movecount, self.score, self.twosided)
    }
}

/// The runs of one game so far.
#[derive(Debug)]
pub(crate) struct Adjudicator {
    rules: Adjudication,
    /// Consecutive turns of White and Black with |score| <= draw score.
    drawn: [u32; 2],
    /// Consecutive turns with score <= -resign score.
    losing: [u32; 2],
    /// Consecutive turns with score >= resign score.
    winning: [u32; 2],
}

impl Adjudicator {
    pub(crate) fn new(rules: Adjudication) -> Adjudicator {
        Adjudicator { rules, drawn: [0; 2], losing: [0; 2], winning: [0; 2] }
    }

    /// Notes the score `side` reported with its turn, the `turns`-th of the game; the outcome
    /// when a rule ends the game now.
    pub(crate) fn observe(
        &mut self,
        side: Color,
        score: Option<i32>,
        turns: usize,
    ) -> Option<Outcome<Ending>> {
        let i = side.index();
        let bump = |run: &mut u32, yes: bool| *run = if yes { run.saturating_add(1) } else { 0 };
        if let Some(r) = self.rules.resign {
            bump(&mut self.losing[i], score.is_some_and(|s| s <= -r.score));
            bump(&mut self.winning[i], score.is_some_and(|s| s >= r.score));
            for loser in [side, side.other()] {
                let winner = loser.other();
                let agreed = !r.twosided || self.winning[winner.index()] >= r.movecount;
                if self.losing[loser.index()] >= r.movecount && agreed {
                    return Some(Outcome { winner: Some(winner), termination: Ending::ResignAdjudication });
                }
            }
        }
        if let Some(d) = self.rules.draw {
            bump(&mut self.drawn[i], score.is_some_and(|s| s.unsigned_abs() <= d.score.unsigned_abs()));
            if turns > d.movenumber as usize && self.drawn.iter().all(|&n| n >= d.movecount) {
                return Some(Outcome { winner: None, termination: Ending::DrawAdjudication });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_parse_in_the_fastchess_syntax() {
        let d: DrawRule = "movenumber=40 movecount=8 score=10".parse().unwrap();
        assert_eq!(d, DrawRule { movenumber: 40, movecount: 8, score: 10 });
        assert_eq!(d.to_string().parse::<DrawRule>().unwrap(), d);
        let r: ResignRule = "movecount=3,score=600,twosided=true".parse().unwrap();
        assert_eq!(r, ResignRule { movecount: 3, score: 600, twosided: true });
        for (text, needle) in [
            ("movecount=8", "score= is missing"),
            ("movecount=x score=1", "movecount=\"x\""),
            ("movecount=0 score=1", "at least 1"),
            ("movecount=1 score=1 depth=3", "allowed: movenumber, movecount, score"),
            ("movecount=1 movecount=2 score=1", "twice"),
            ("movecount", "key=value"),
        ] {
            let e = text.parse::<DrawRule>().unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
        assert!("movecount=2 score=5 twosided=maybe".parse::<ResignRule>().is_err());
    }

    #[test]
    fn a_draw_needs_both_engines_for_movecount_turns_after_movenumber() {
        let rules =
            Adjudication { draw: Some("movenumber=4 movecount=2 score=10".parse().unwrap()), resign: None };
        let mut a = Adjudicator::new(rules);
        let mut turns = 0;
        let mut feed = |a: &mut Adjudicator, w: i32, b: i32| {
            turns += 2;
            (a.observe(Color::White, Some(w), turns - 1), a.observe(Color::Black, Some(b), turns))
        };
        // Turns 1-4: both drawn, but not after turn 4 yet.
        assert_eq!(feed(&mut a, 0, 5), (None, None));
        assert_eq!(feed(&mut a, -10, 10), (None, None));
        // Turn 5: White 3 in a row, Black 2: draw at once.
        let (w, _) = feed(&mut a, 1, 0);
        assert_eq!(w.map(|o| o.termination), Some(Ending::DrawAdjudication));
        // A missing score breaks the run.
        let mut a = Adjudicator::new(rules);
        for t in 1..=8 {
            let side = if t % 2 == 1 { Color::White } else { Color::Black };
            let score = if t == 3 { None } else { Some(0) };
            let o = a.observe(side, score, t);
            assert_eq!(o.is_some(), t == 7, "turn {t}");
            if o.is_some() {
                break;
            }
        }
    }

    #[test]
    fn resignation_one_and_two_sided() {
        let one = Adjudication { draw: None, resign: Some("movecount=2 score=300".parse().unwrap()) };
        let mut a = Adjudicator::new(one);
        assert_eq!(a.observe(Color::Black, Some(-400), 1), None);
        assert_eq!(a.observe(Color::White, Some(100), 2), None);
        let o = a.observe(Color::Black, Some(-300), 3).unwrap();
        assert_eq!(o, Outcome { winner: Some(Color::White), termination: Ending::ResignAdjudication });

        let two =
            Adjudication { draw: None, resign: Some("movecount=2 score=300 twosided=true".parse().unwrap()) };
        let mut a = Adjudicator::new(two);
        assert_eq!(a.observe(Color::Black, Some(-400), 1), None);
        assert_eq!(a.observe(Color::White, Some(100), 2), None);
        // Black has lost for two turns, White does not agree yet.
        assert_eq!(a.observe(Color::Black, Some(-400), 3), None);
        assert_eq!(a.observe(Color::White, Some(350), 4), None);
        assert_eq!(a.observe(Color::Black, Some(-500), 5), None);
        let o = a.observe(Color::White, Some(29_990), 6).unwrap();
        assert_eq!(o.winner, Some(Color::White));
    }
}
