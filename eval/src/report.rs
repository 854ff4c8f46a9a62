//! What a match produces: per-game summaries, the statistics, the SPRT verdict, and the text
//! summary in the style of fastchess/cutechess.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use fanorona_core::{Color, Outcome};
use fanorona_data::Ending;
use fanorona_data::GameRecord;
use serde::{Deserialize, Serialize};

use crate::cpu_share::{CpuShare, cpu_share_line};
use crate::stats::{EloEstimate, Pentanomial, SprtConfig, SprtVerdict, Wdl};

/// One finished game, as kept in the state file and the report.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// Game number (`2 * pair + 0|1`).
    pub index: u64,
    /// The pair (opening) it belongs to.
    pub pair: u64,
    /// Which engine of the match (0 or 1) played White.
    pub white_engine: usize,
    /// The result.
    pub outcome: Outcome<Ending>,
    /// Turns played.
    pub plies: usize,
    /// When an engine failed: which (0 or 1) and why.
    pub fault: Option<FaultRecord>,
}

/// An engine fault that decided a game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FaultRecord {
    /// Engine 0 or 1 of the match.
    pub engine: usize,
    /// What happened.
    pub reason: String,
}

impl GameSummary {
    /// Engine 0's score in this game (1, 0.5 or 0).
    pub fn score_of_first(&self) -> f64 {
        let first_color = if self.white_engine == 0 { Color::White } else { Color::Black };
        self.outcome.score(first_color)
    }
}

/// The SPRT state of a match.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtReport {
    /// The test.
    pub config: SprtConfig,
    /// The log-likelihood ratio now.
    pub llr: f64,
    /// Lower and upper bounds.
    pub bounds: (f64, f64),
    /// The verdict.
    pub verdict: SprtVerdict,
}

/// Everything a match found, engine 0's point of view.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchReport {
    /// The two engines' names.
    pub engines: [String; 2],
    /// Games counted (complete pairs only).
    pub games: u64,
    /// Pairs counted.
    pub pairs: u64,
    /// Games the match was set to play.
    pub games_planned: u64,
    /// Engine 0's wins, draws and losses.
    pub wdl: Wdl,
    /// Pair results.
    pub pentanomial: Pentanomial,
    /// Logistic Elo of engine 0 over engine 1 with the pentanomial 95 % interval.
    pub elo: Option<EloEstimate>,
    /// Normalised Elo.
    pub nelo: Option<EloEstimate>,
    /// Likelihood of superiority of engine 0.
    pub los: f64,
    /// Share of drawn pairs (DD + WL, as fastchess prints `DrawRatio`).
    pub pair_draw_ratio: f64,
    /// Share of drawn games.
    pub game_draw_ratio: f64,
    /// Results of White against Black.
    pub white_vs_black: Wdl,
    /// How the games ended.
    pub terminations: BTreeMap<String, u64>,
    /// Games decided by an engine fault.
    pub faults: Vec<(u64, FaultRecord)>,
    /// The SPRT, when one was run.
    pub sprt: Option<SprtReport>,
    /// Whether the SPRT stopped the match before all games were played.
    pub stopped_early: bool,
    /// Wall time of this run in seconds (not counting resumed work).
    pub seconds: f64,
    /// Games played in this run (not counting resumed ones).
    pub games_this_run: u64,
    /// How much of a core the timed searches of engine 0 and engine 1 got in the counted games,
    /// resumed runs and merged shards included ([`CpuShare`]; no turns when the engines were
    /// not time-limited or not in-process, or the games were saved by a version that did not
    /// measure it).
    #[serde(default)]
    pub cpu: [CpuShare; 2],
    /// Every game, in order (only when the match keeps records).
    #[serde(skip)]
    pub records: Vec<GameRecord>,
}

/// Running totals, updated pair by pair.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tally {
    pub wdl: Wdl,
    pub penta: Pentanomial,
    pub white: Wdl,
    pub terminations: BTreeMap<String, u64>,
    pub faults: Vec<(u64, FaultRecord)>,
    /// The timed turns of engine 0 and engine 1 in the counted pairs (restored on resume).
    pub cpu: [CpuShare; 2],
}

impl Tally {
    pub(crate) fn add_pair(&mut self, games: &[GameSummary; 2]) {
        for g in games {
            self.wdl.add(g.score_of_first());
            self.white.add(g.outcome.score(Color::White));
            *self.terminations.entry(g.outcome.termination.to_string()).or_insert(0) += 1;
            if let Some(f) = &g.fault {
                self.faults.push((g.index, f.clone()));
            }
        }
        self.penta.add_pair(games[0].score_of_first(), games[1].score_of_first());
    }

    /// Counts the saved games `summaries` (whole pairs, in order) and the timed turns `cpu`
    /// of a match's state file: a resumed match, or one shard of a merge.
    pub(crate) fn add_saved(&mut self, summaries: &[GameSummary], cpu: &[CpuShare; 2]) {
        for pair in summaries.chunks(2) {
            if let [a, b] = pair {
                self.add_pair(&[a.clone(), b.clone()]);
            }
        }
        for (sum, saved) in self.cpu.iter_mut().zip(cpu) {
            sum.merge(saved);
        }
    }

    pub(crate) fn sprt(&self, config: Option<&SprtConfig>) -> Option<SprtReport> {
        config.map(|c| {
            let llr = c.llr(&self.penta);
            SprtReport { config: *c, llr, bounds: c.bounds(), verdict: c.verdict(llr) }
        })
    }
}

impl MatchReport {
    pub(crate) fn from_tally(
        engines: [String; 2],
        t: &Tally,
        planned: u64,
        sprt: Option<SprtReport>,
    ) -> MatchReport {
        let pairs = t.penta.pairs();
        MatchReport {
            engines,
            games: t.wdl.games(),
            pairs,
            games_planned: planned,
            wdl: t.wdl,
            pentanomial: t.penta,
            elo: t.penta.elo(),
            nelo: t.penta.nelo(),
            los: t.penta.los(),
            pair_draw_ratio: if pairs == 0 { 0.0 } else { t.penta.0[2] as f64 / pairs as f64 },
            game_draw_ratio: t.wdl.draw_ratio(),
            white_vs_black: t.white,
            terminations: t.terminations.clone(),
            faults: t.faults.clone(),
            sprt,
            stopped_early: false,
            seconds: 0.0,
            games_this_run: 0,
            cpu: t.cpu,
            records: Vec::new(),
        }
    }

    /// `Elo: 35.2 +/- 20.1, nElo: ...` and the other summary lines, as engine developers know
    /// them from fastchess.
    pub fn summary_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "Results of {} vs {}:", self.engines[0], self.engines[1]);
        let fmt_est = |e: Option<EloEstimate>| match e {
            Some(e) => format!("{} +/- {}", fmt_num(e.elo), fmt_num(e.error)),
            None => "-".to_string(),
        };
        let _ = writeln!(s, "Elo: {}, nElo: {}", fmt_est(self.elo), fmt_est(self.nelo));
        let _ = writeln!(
            s,
            "LOS: {:.1} %, DrawRatio: {:.1} %, PairsRatio: {}",
            self.los * 100.0,
            self.pair_draw_ratio * 100.0,
            match self.pentanomial.pairs_ratio() {
                r if r.is_nan() => "-".to_string(),
                r if r.is_infinite() => "inf".to_string(),
                r => format!("{r:.2}"),
            }
        );
        let score = self.wdl.score().unwrap_or(0.5) * 100.0;
        let _ = writeln!(
            s,
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({score:.2} %)",
            self.games,
            self.wdl.wins,
            self.wdl.losses,
            self.wdl.draws,
            self.wdl.points()
        );
        let p = self.pentanomial.0;
        let _ = writeln!(s, "Ptnml(0-2): [{}, {}, {}, {}, {}]", p[0], p[1], p[2], p[3], p[4]);
        let w = self.white_vs_black;
        let _ = writeln!(s, "White vs Black: {} - {} - {} (W - L - D)", w.wins, w.losses, w.draws);
        if let Some(r) = &self.sprt {
            let (lo, hi) = r.bounds;
            let _ = writeln!(
                s,
                "LLR: {:.2} ({:.1}%) ({lo:.2}, {hi:.2}) [{:.2}, {:.2}] {}: {}",
                r.llr,
                r.llr / hi * 100.0,
                r.config.elo0,
                r.config.elo1,
                match r.config.model {
                    crate::stats::SprtModel::Normalized => "normalized",
                    crate::stats::SprtModel::Logistic => "logistic",
                },
                r.verdict
            );
        }
        let ends: Vec<String> = self.terminations.iter().map(|(k, v)| format!("{k} {v}")).collect();
        let _ = writeln!(s, "Endings: {}", ends.join(", "));
        if let Some(line) = cpu_share_line(&self.cpu) {
            let _ = writeln!(s, "{line}");
        }
        for (game, f) in self.faults.iter().take(10) {
            let name = self.engines.get(f.engine).map_or("?", String::as_str);
            let _ = writeln!(s, "Fault: game {game}, {name}: {}", f.reason);
        }
        if self.faults.len() > 10 {
            let _ = writeln!(s, "... and {} more faults", self.faults.len() - 10);
        }
        let _ = write!(s, "{} of {} games finished", self.games, self.games_planned);
        if self.stopped_early {
            s.push_str(" (stopped by SPRT)");
        }
        s.push('\n');
        s
    }
}

/// A number with one decimal, `inf`/`-inf` for infinities.
pub fn fmt_num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.1}")
    } else if x.is_nan() {
        "nan".into()
    } else if x > 0.0 {
        "inf".into()
    } else {
        "-inf".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_in_the_fastchess_style() {
        // The published fastchess example: Ptnml [1, 11, 47, 25, 16], W 67 L 23 D 110 prints
        // "Elo: 77.71 +/- 33.03, nElo: 117.50 +/- 48.15", "LOS: 100.00 %, DrawRatio: 47.00 %,
        // PairsRatio: 3.42", "LLR: 1.71 (57.9%) (-2.94, 2.94) [0.00, 10.00]".
        let t = Tally {
            wdl: Wdl { wins: 67, draws: 110, losses: 23 },
            penta: Pentanomial([1, 11, 47, 25, 16]),
            ..Tally::default()
        };
        let sprt: SprtConfig = "elo0=0,elo1=10".parse().unwrap();
        let r = MatchReport::from_tally(["new".into(), "old".into()], &t, 400, t.sprt(Some(&sprt)));
        let text = r.summary_text();
        for line in [
            "Results of new vs old:",
            "Elo: 77.7 +/- 33.0, nElo: 117.5 +/- 48.2",
            "LOS: 100.0 %, DrawRatio: 47.0 %, PairsRatio: 3.42",
            "Games: 200, Wins: 67, Losses: 23, Draws: 110, Points: 122.0 (61.00 %)",
            "Ptnml(0-2): [1, 11, 47, 25, 16]",
            "LLR: 1.71 (57.9%) (-2.94, 2.94) [0.00, 10.00] normalized: undecided",
            "200 of 400 games finished",
        ] {
            assert!(text.contains(line), "missing {line:?} in\n{text}");
        }
    }

    #[test]
    fn pairs_are_scored_for_the_first_engine() {
        let g = |index: u64, white_engine: usize, winner: Option<Color>| GameSummary {
            index,
            pair: index / 2,
            white_engine,
            outcome: Outcome { winner, termination: Ending::AllCaptured },
            plies: 10,
            fault: None,
        };
        let mut t = Tally::default();
        // Engine 0 wins as White, then wins as Black: a WW pair.
        t.add_pair(&[g(0, 0, Some(Color::White)), g(1, 1, Some(Color::Black))]);
        // Engine 0 loses as White and draws as Black: an LD pair.
        t.add_pair(&[g(2, 0, Some(Color::Black)), g(3, 1, None)]);
        assert_eq!(t.penta, Pentanomial([0, 1, 0, 0, 1]));
        assert_eq!(t.wdl, Wdl { wins: 2, draws: 1, losses: 1 });
        assert_eq!(t.white, Wdl { wins: 1, draws: 1, losses: 2 });
    }
}
