//! Several engines: a gauntlet (the first engine against each of the others) or a round robin
//! (every pair), one match per pairing, then maximum-likelihood ratings of all of them.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::stats::{Anchor, PairTally, Rating, RatingOptions, ml_ratings};
use crate::{EngineSpec, EvalError, MatchConfig, MatchReport, Progress, run_match};

/// Which pairings are played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// The first engine against each other engine.
    Gauntlet,
    /// Every engine against every other.
    RoundRobin,
}

/// A tournament: the engines and a template for each pairing's match (its `engines` and `out`
/// are replaced per pairing).
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// Gauntlet or round robin.
    pub mode: Mode,
    /// The engines (at least two, distinct names).
    pub engines: Vec<EngineSpec>,
    /// Games, openings, seed, rules, SPRT, concurrency and resume of each pairing.
    pub template: MatchConfig,
    /// Output directory: one subdirectory per pairing.
    pub out: Option<PathBuf>,
    /// Which rating is fixed at 0 (`None`: the first engine in a gauntlet, the mean in a
    /// round robin).
    pub anchor: Option<Anchor>,
}

/// One pairing of a tournament and its match.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Pairing {
    /// Index of the engine the match report speaks for.
    pub first: usize,
    /// Index of its opponent.
    pub second: usize,
    /// The match.
    pub report: MatchReport,
}

/// The result of a tournament.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TournamentReport {
    /// Gauntlet or round robin.
    pub mode: Mode,
    /// Engine names.
    pub engines: Vec<String>,
    /// Each pairing's match.
    pub matches: Vec<Pairing>,
    /// Ratings, one per engine.
    pub ratings: Vec<Rating>,
    /// What was fixed at 0.
    pub anchor: Anchor,
    /// Virtual draws added per pairing to keep perfect scores finite (0 when not needed).
    pub prior_draws: f64,
}

impl TournamentConfig {
    /// The pairings in playing order.
    pub fn pairings(&self) -> Vec<(usize, usize)> {
        let n = self.engines.len();
        match self.mode {
            Mode::Gauntlet => (1..n).map(|j| (0, j)).collect(),
            Mode::RoundRobin => (0..n).flat_map(|i| (i + 1..n).map(move |j| (i, j))).collect(),
        }
    }
}

fn dir_name(k: usize, a: &str, b: &str) -> String {
    let clean = |s: &str| -> String {
        let t: String =
            s.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
        t.chars().take(40).collect()
    };
    format!("{k:02}-{}-vs-{}", clean(a), clean(b))
}

/// Plays every pairing and rates the engines. `progress` gets the pairing's engine indices and
/// the match progress.
///
/// # Errors
/// Fewer than two engines, duplicate names, or any [`run_match`] error.
pub fn run_tournament(
    config: &TournamentConfig,
    progress: &mut dyn FnMut(usize, usize, &Progress),
) -> Result<TournamentReport, EvalError> {
    let n = config.engines.len();
    if n < 2 {
        return Err(EvalError::Config("a tournament needs at least two engines".into()));
    }
    for i in 0..n {
        for j in i + 1..n {
            if config.engines[i].name == config.engines[j].name {
                return Err(EvalError::Config(format!(
                    "two engines are named {:?}; give them names with ;name=NAME",
                    config.engines[i].name
                )));
            }
        }
    }
    let mut matches = Vec::new();
    for (k, (i, j)) in config.pairings().into_iter().enumerate() {
        let mut m = config.template.clone();
        m.engines = [config.engines[i].clone(), config.engines[j].clone()];
        m.out = config
            .out
            .as_ref()
            .map(|d| d.join(dir_name(k, &config.engines[i].name, &config.engines[j].name)));
        m.resume = config.template.resume
            && m.out.as_ref().is_some_and(|d| d.join(crate::state::STATE_FILE).exists());
        let report = run_match(&m, &mut |p| progress(i, j, p))?;
        matches.push(Pairing { first: i, second: j, report });
    }
    let tallies: Vec<PairTally> =
        matches.iter().map(|m| PairTally { a: m.first, b: m.second, wdl: m.report.wdl }).collect();
    let anchor = config.anchor.unwrap_or(match config.mode {
        Mode::Gauntlet => Anchor::Player(0),
        Mode::RoundRobin => Anchor::Mean,
    });
    let mut prior_draws = 0.0;
    let ratings = match ml_ratings(n, &tallies, &RatingOptions { anchor, prior_draws }) {
        Ok(r) => r,
        Err(crate::stats::RatingError::Unbounded(..)) => {
            // As BayesElo: two virtual draws per pairing keep a perfect score finite.
            prior_draws = 2.0;
            ml_ratings(n, &tallies, &RatingOptions { anchor, prior_draws })
                .map_err(|e| EvalError::Config(e.to_string()))?
        }
        Err(e) => return Err(EvalError::Config(e.to_string())),
    };
    Ok(TournamentReport {
        mode: config.mode,
        engines: config.engines.iter().map(|e| e.name.clone()).collect(),
        matches,
        ratings,
        anchor,
        prior_draws,
    })
}

impl TournamentReport {
    /// The ratings table, best first, and one line per pairing.
    pub fn table_text(&self) -> String {
        use std::fmt::Write as _;
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        order.sort_by(|&a, &b| self.ratings[b].elo.total_cmp(&self.ratings[a].elo));
        let width = self.engines.iter().map(|e| e.len()).max().unwrap_or(4).max(6);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:>4}  {:<width$}  {:>8}  {:>7}  {:>6}  {:>7}",
            "rank", "engine", "elo", "+/-", "games", "score"
        );
        for (rank, &i) in order.iter().enumerate() {
            let (mut games, mut points) = (0u64, 0.0);
            for Pairing { first: a, second: b, report: r } in &self.matches {
                if *a == i {
                    games += r.wdl.games();
                    points += r.wdl.points();
                } else if *b == i {
                    games += r.wdl.games();
                    points += r.wdl.games() as f64 - r.wdl.points();
                }
            }
            let score = if games > 0 { 100.0 * points / games as f64 } else { 0.0 };
            let _ = writeln!(
                s,
                "{:>4}  {:<width$}  {:>8}  {:>7}  {:>6}  {:>6.1}%",
                rank + 1,
                self.engines[i],
                crate::fmt_num(self.ratings[i].elo),
                crate::fmt_num(self.ratings[i].error),
                games,
                score
            );
        }
        let anchor = match self.anchor {
            crate::stats::Anchor::Mean => "mean rating 0".to_string(),
            crate::stats::Anchor::Player(k) => format!("{} rated 0", self.engines.get(k).map_or("?", |s| s)),
        };
        let _ = writeln!(s, "(maximum likelihood, {anchor}, 95 % intervals)");
        if self.prior_draws > 0.0 {
            let _ = writeln!(
                s,
                "(a perfect score made the ratings unbounded: {} virtual draws per pairing added)",
                self.prior_draws
            );
        }
        for Pairing { first: a, second: b, report: r } in &self.matches {
            let e = r.elo.map_or("-".to_string(), |e| {
                format!("{} +/- {}", crate::fmt_num(e.elo), crate::fmt_num(e.error))
            });
            let _ = writeln!(
                s,
                "{} vs {}: +{} ={} -{}, Elo {e}",
                self.engines[*a], self.engines[*b], r.wdl.wins, r.wdl.draws, r.wdl.losses
            );
        }
        s
    }
}
