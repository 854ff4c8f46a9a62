//! The engines the loop plays with, as types: the configured searches, parsed once when the
//! configuration is checked ([`crate::LoopConfig::engines`]), combined with an evaluator.

use std::fmt;
use std::path::Path;

use fanorona_engine::{AlphaBetaSpec, EvalSpec, PlayerSpec, SpecError};
use fanorona_eval::EngineSpec;

/// The limits of an alpha-beta search, without its evaluator (the loop chooses that): what
/// `selfplay.search`, `gate.search` and `final_match.search` say.
#[derive(Clone, Debug, PartialEq)]
pub struct SearchSpec(AlphaBetaSpec);

/// What limits a search, as far as the figures of a match go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    /// A time per move: fair at the clock, not reproducible game for game.
    Time,
    /// A node count: deterministic.
    Nodes,
    /// A depth: deterministic, and blind to what an evaluator costs.
    Depth,
}

impl SearchSpec {
    /// Reads the `key=value` list of an alpha-beta spec without `eval=` (`depth=2`,
    /// `movetime=20,hash=32`).
    ///
    /// # Errors
    /// The spec's own errors (unknown key, bad value, no limit); `eval=` is refused by the
    /// configuration check, which names the field.
    pub fn parse(text: &str) -> Result<SearchSpec, SpecError> {
        AlphaBetaSpec::from_params(text.trim().trim_matches(',')).map(SearchSpec)
    }

    /// The player searching with these limits and evaluator `eval`.
    pub fn with_eval(&self, eval: &EvalSpec) -> PlayerSpec {
        PlayerSpec::AlphaBeta(AlphaBetaSpec { eval: eval.clone(), ..self.0.clone() })
    }

    /// The limit that decides what a match's figures mean (time over nodes over depth).
    pub fn limit_kind(&self) -> LimitKind {
        if self.0.movetime.is_some() {
            LimitKind::Time
        } else if self.0.nodes.is_some() {
            LimitKind::Nodes
        } else {
            LimitKind::Depth
        }
    }

    /// An engine for a match: these limits, evaluator `eval`, named `name`.
    pub fn engine(&self, eval: &EvalSpec, name: String) -> EngineSpec {
        EngineSpec::player(self.with_eval(eval), name)
    }
}

impl fmt::Display for SearchSpec {
    /// The canonical text of the limits, without `eval=`: `depth=2`, `movetime=20`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut limits = String::new();
        self.0.write_limits(&mut limits)?;
        f.write_str(limits.trim_end_matches(','))?;
        match &self.0.tb {
            Some(tb) => write!(f, ",tb={}", tb.display()),
            None => Ok(()),
        }
    }
}

/// The evaluator of a network file.
pub fn net_eval(path: &Path) -> EvalSpec {
    EvalSpec::Net(path.to_path_buf())
}

/// Every engine setting of a run, read from its configuration.
#[derive(Clone, Debug, PartialEq)]
pub struct Engines {
    /// The evaluator generation 0 plays with.
    pub baseline: EvalSpec,
    /// Self-play's search.
    pub selfplay: SearchSpec,
    /// The gates' search.
    pub gate: SearchSpec,
    /// The final match's search.
    pub final_match: SearchSpec,
    /// The search that re-scores older generations' games before training (`[train] rescore`).
    pub rescore: Option<SearchSpec>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_take_an_evaluator_without_a_text_round_trip() {
        let s = SearchSpec::parse("movetime=20, hash=32").unwrap();
        assert_eq!(s.to_string(), "movetime=20,hash=32");
        assert_eq!(s.limit_kind(), LimitKind::Time);
        let p = s.with_eval(&EvalSpec::Net("a b/x.fnet".into()));
        assert_eq!(p.to_string(), "alphabeta:movetime=20,hash=32,eval=net:a b/x.fnet");
        assert_eq!(SearchSpec::parse("depth=2").unwrap().limit_kind(), LimitKind::Depth);
        assert_eq!(SearchSpec::parse("depth=3,nodes=9").unwrap().limit_kind(), LimitKind::Nodes);
        assert!(SearchSpec::parse("").is_err());
        assert!(SearchSpec::parse("depth=x").is_err());
        let e = SearchSpec::parse("nodes=100").unwrap().engine(&EvalSpec::Handcrafted, "gen-000".into());
        assert_eq!((e.name.as_str(), e.text.as_str()), ("gen-000", "alphabeta:nodes=100,eval=handcrafted"));
    }
}
