//! What the gates and the final match share: engines from the configured search and an
//! evaluator, one match played into a directory, its marker.

use std::path::Path;
use std::time::Instant;

use fanorona_eval::stats::SprtConfig;
use fanorona_eval::{EngineSpec, MatchConfig, MatchReport, OpeningSource};

use super::Context;
use crate::LoopError;
use crate::files::MARKER_VERSION;
use crate::markers::MatchDone;
use crate::records::Event;

/// How one match is played.
#[derive(Clone, Debug)]
pub(super) struct Plan<'a> {
    /// Its name in errors (`generation 2, gate`).
    pub label: &'a str,
    /// Its directory (games and state for a resume).
    pub out: &'a Path,
    /// Games (rounded up to pairs).
    pub games: u64,
    /// The openings.
    pub openings: OpeningSource,
    /// An SPRT that may stop it early.
    pub sprt: Option<SprtConfig>,
    /// Its seed.
    pub seed: u64,
}

/// The openings of the `[name]` match, parsed.
///
/// # Errors
/// [`LoopError::Config`] naming `name.openings` when the text is not an opening source.
pub(crate) fn openings(name: &str, text: &str) -> Result<OpeningSource, LoopError> {
    text.parse().map_err(|e| LoopError::Config(format!("{name}.openings = {text:?}: {e}")))
}

/// Plays (or continues) the match of `engines[0]` against `engines[1]`.
pub(super) fn play(
    ctx: &Context<'_>,
    plan: &Plan<'_>,
    engines: [EngineSpec; 2],
    events: &mut dyn FnMut(&Event),
) -> Result<MatchReport, LoopError> {
    let mut m = MatchConfig::new(engines[0].clone(), engines[1].clone(), plan.games);
    m.openings = plan.openings.clone();
    m.seed = plan.seed;
    m.rules = ctx.rules;
    m.concurrency = ctx.workers();
    m.out = Some(plan.out.to_path_buf());
    m.resume = plan.out.join("state.json").exists();
    m.sprt = plan.sprt;
    let planned = m.games;
    fanorona_eval::run_match(&m, &mut |p| {
        let elo = p.elo.map_or(String::new(), |e| format!(", Elo {:+.0} +/- {:.0}", e.elo, e.error));
        events(&Event::Progress {
            done: p.games,
            total: planned,
            message: format!("W {} D {} L {}{elo}", p.wdl.wins, p.wdl.draws, p.wdl.losses),
        });
    })
    .map_err(|source| LoopError::Match { stage: plan.label.to_string(), source: Box::new(source) })
}

/// The marker of a finished match.
pub(super) fn done(
    r: &MatchReport,
    engines: &[EngineSpec; 2],
    generations: (u32, u32),
    promoted: bool,
    t0: Instant,
) -> MatchDone {
    MatchDone {
        version: MARKER_VERSION,
        engine: engines[0].name.clone(),
        opponent: engines[1].name.clone(),
        generations: Some(generations),
        wdl: r.wdl,
        pentanomial: r.pentanomial,
        score: r.wdl.score().unwrap_or(0.5),
        elo: r.elo.map(|e| (e.elo, e.error)).filter(|(e, err)| e.is_finite() && err.is_finite()),
        los: r.los,
        sprt: r.sprt.map(|s| {
            format!("{} (LLR {:.2}, bounds [{:.2}, {:.2}])", s.verdict, s.llr, s.bounds.0, s.bounds.1)
        }),
        summary: r.summary_text(),
        promoted,
        seconds: t0.elapsed().as_secs_f64(),
    }
}
