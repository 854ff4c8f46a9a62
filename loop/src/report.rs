//! The run's reports: `summary.json`, `report.md`, and the charts `ratings.png` (rating of
//! each generation from all its matches) and `losses.png` (training curves).

use std::fmt::Write as _;

use fanorona_eval::stats::{Anchor, PairTally, RatingOptions, ml_ratings};
use fanorona_plot::{Bar, BarChart, Chart, Series, write_bar_chart, write_line_chart};
use serde::Serialize;

use crate::LoopError;
use crate::files::{write_atomic, write_json};
use crate::markers::MatchDone;
use crate::records::RunRecord;
use crate::specs::{LimitKind, SearchSpec};

/// A generation's line in `summary.json`.
#[derive(Clone, Debug, Serialize)]
pub struct GenerationSummary {
    /// Generation number.
    pub generation: u32,
    /// Self-play games.
    pub games: u64,
    /// Self-play positions.
    pub positions: u64,
    /// Last epoch's validation loss.
    pub val_loss: Option<f64>,
    /// The material-only baseline's validation loss on the same data.
    pub material_val_loss: Option<f64>,
    /// The gate: the candidate's score against the best before it.
    pub gate_score: f64,
    /// The gate's Elo estimate and 95 % half width.
    pub gate_elo: Option<(f64, f64)>,
    /// Whether the candidate was promoted.
    pub promoted: bool,
    /// Rating from all matches (the baseline at 0).
    pub rating: Option<(f64, f64)>,
}

/// `summary.json`.
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The generations.
    pub generations: Vec<GenerationSummary>,
    /// The best generation at the end (0: the baseline).
    pub best_generation: u32,
    /// The best engine's evaluator.
    pub best_eval: String,
    /// The final match of the best network against the baseline.
    pub final_match: Option<MatchDone>,
    /// Whether the best network beat the baseline in the final match (score above 50 %).
    pub beats_baseline: Option<bool>,
}

/// Ratings of the baseline (index 0) and every generation's candidate from every match, the
/// baseline anchored at 0, with BayesElo's prior of two virtual draws per pairing.
fn ratings(record: &RunRecord) -> Option<Vec<(f64, f64)>> {
    let n = record.generations.len() + 1;
    // Older markers know their engines by name only.
    let by_name =
        |name: &str| -> Option<usize> { (0..n).find(|&g| name.starts_with(&format!("gen-{g:03}"))) };
    let mut tallies = Vec::new();
    let matches = record.generations.iter().map(|(_, _, m)| m).chain(record.final_match.iter());
    for m in matches {
        let (a, b) = match m.generations {
            Some((a, b)) => (Some(a as usize).filter(|&a| a < n), Some(b as usize).filter(|&b| b < n)),
            None => (by_name(&m.engine), by_name(&m.opponent)),
        };
        if let (Some(a), Some(b)) = (a, b)
            && a != b
        {
            tallies.push(PairTally { a, b, wdl: m.wdl });
        }
    }
    let opts = RatingOptions { anchor: Anchor::Player(0), prior_draws: 2.0 };
    ml_ratings(n, &tallies, &opts).ok().map(|r| r.iter().map(|x| (x.elo, x.error)).collect())
}

/// Writes every report of `record` into its run directory.
///
/// # Errors
/// I/O and chart errors.
pub fn write_all(record: &RunRecord) -> Result<(), LoopError> {
    let root = &record.root;
    let ratings = ratings(record);
    let summary = summary(record, ratings.as_deref());
    write_json(&root.join("summary.json"), &summary)?;
    write_atomic(&root.join("report.md"), markdown(record, &summary).as_bytes())?;
    if let Some(r) = &ratings {
        write_bar_chart(&ratings_chart(record, &summary, r), &root.join("ratings.png"))?;
    }
    if let Some(chart) = losses_chart(record) {
        write_line_chart(&chart, &root.join("losses.png"))?;
    }
    Ok(())
}

/// `summary.json` of `record`, with the generations' `ratings` (the baseline's first).
fn summary(record: &RunRecord, ratings: Option<&[(f64, f64)]>) -> Summary {
    let generations: Vec<GenerationSummary> = record
        .generations
        .iter()
        .enumerate()
        .map(|(i, (sp, tr, gate))| GenerationSummary {
            generation: i as u32 + 1,
            games: sp.games,
            positions: sp.positions,
            val_loss: tr.epochs.last().map(|e| e.val_loss),
            material_val_loss: tr.material_val_loss,
            gate_score: gate.score,
            gate_elo: gate.elo,
            promoted: gate.promoted,
            rating: ratings.and_then(|r| r.get(i + 1).copied()),
        })
        .collect();
    Summary {
        generations,
        best_generation: record.best.generation,
        best_eval: record.best.eval.to_string(),
        final_match: record.final_match.clone(),
        beats_baseline: record.final_match.as_ref().map(|m| m.score > 0.5),
    }
}

/// `ratings.png`: a bar per generation (the baseline first), promoted ones starred.
fn ratings_chart(record: &RunRecord, summary: &Summary, ratings: &[(f64, f64)]) -> BarChart {
    let bars = ratings
        .iter()
        .enumerate()
        .map(|(g, &(elo, error))| {
            let promoted = g > 0 && summary.generations.get(g - 1).is_some_and(|s| s.promoted);
            let label = if g == 0 {
                format!("gen-0 ({})", record.config.baseline_eval)
            } else {
                format!("gen-{g}{}", if promoted { " *" } else { "" })
            };
            Bar { label, value: elo, error: if g == 0 { 0.0 } else { error } }
        })
        .collect();
    BarChart {
        title: "Rating of each generation (gate and final matches, * = promoted)".into(),
        y_label: format!("Elo relative to {}", record.config.baseline_eval),
        bars,
    }
}

/// `losses.png`: every epoch of every generation in order; `None` before any training.
fn losses_chart(record: &RunRecord) -> Option<Chart> {
    let mut train = Vec::new();
    let mut val = Vec::new();
    let mut material = Vec::new();
    let mut x = 0.0;
    for (_, tr, _) in &record.generations {
        for e in &tr.epochs {
            x += 1.0;
            train.push((x, e.train_loss));
            val.push((x, e.val_loss));
            if let Some(m) = tr.material_val_loss {
                material.push((x, m));
            }
        }
    }
    if train.is_empty() {
        return None;
    }
    let mut series = vec![
        Series { name: "training loss".into(), points: train },
        Series { name: "validation loss".into(), points: val },
    ];
    if !material.is_empty() {
        series.push(Series { name: "material baseline (validation)".into(), points: material });
    }
    Some(Chart {
        title: "Training losses across generations".into(),
        x_label: "epoch (all generations in order)".into(),
        y_label: "loss".into(),
        series,
    })
}

/// How a match's search settings limit the engines, and what that means for the figures.
fn limit_text(search: &SearchSpec) -> &'static str {
    match search.limit_kind() {
        LimitKind::Time => {
            "equal time per move (the figures vary from run to run with the machine's speed and load)"
        }
        LimitKind::Nodes => "equal nodes per move (deterministic given the seed)",
        LimitKind::Depth => "fixed depth (deterministic given the seed; hides the evaluators' cost)",
    }
}

fn markdown(record: &RunRecord, summary: &Summary) -> String {
    let mut s = String::new();
    let c = &record.config;
    let _ = writeln!(s, "# Self-improvement run\n");
    let _ = writeln!(
        s,
        "{} generations from `{}`: self-play `{}` ({} games each), gate `{}` ({} games), final match `{}`.\n",
        c.generations,
        c.baseline_eval,
        c.selfplay.search,
        c.selfplay.games,
        c.gate.search,
        c.gate.games,
        c.final_match.search,
    );
    let _ = writeln!(
        s,
        "Gates: {}. Final match: {}.\n",
        limit_text(&record.engines.gate),
        limit_text(&record.engines.final_match)
    );
    let _ = writeln!(
        s,
        "| gen | games | positions | val loss | material loss | gate score | gate Elo | promoted | rating |"
    );
    let _ = writeln!(s, "|---|---|---|---|---|---|---|---|---|");
    for g in &summary.generations {
        let f = |v: Option<f64>| v.map_or("n/a".to_string(), |v| format!("{v:.4}"));
        let pm =
            |v: Option<(f64, f64)>| v.map_or("n/a".to_string(), |(e, err)| format!("{e:+.0} ± {err:.0}"));
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.1} % | {} | {} | {} |",
            g.generation,
            g.games,
            g.positions,
            f(g.val_loss),
            f(g.material_val_loss),
            100.0 * g.gate_score,
            pm(g.gate_elo),
            if g.promoted { "yes" } else { "no" },
            pm(g.rating),
        );
    }
    let _ = writeln!(s, "\nBest engine: generation {} (`{}`).\n", summary.best_generation, summary.best_eval);
    for (i, (_, _, gate)) in record.generations.iter().enumerate() {
        let _ = writeln!(
            s,
            "## Generation {} gate: {} vs {}\n\n```\n{}```\n",
            i + 1,
            gate.engine,
            gate.opponent,
            gate.summary
        );
    }
    match &record.final_match {
        Some(m) => {
            let verdict = if m.score > 0.5 { "beats" } else { "does not beat" };
            let _ = writeln!(
                s,
                "## Final match: {} vs {}\n\nThe best network {verdict} the baseline.\n\n```\n{}```\n",
                m.engine, m.opponent, m.summary
            );
        }
        None => {
            let _ = writeln!(s, "## Final match\n\nNo network was promoted, so there was no final match.\n");
        }
    }
    let _ = writeln!(s, "Charts: `ratings.png` (ratings from all matches), `losses.png` (training curves).");
    s
}
