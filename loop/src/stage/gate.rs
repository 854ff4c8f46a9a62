//! The gate: the candidate against the current best; promoted when it scores above
//! `gate.min_score` and an SPRT, if any, did not accept H0.

use std::time::Instant;

use fanorona_eval::stats::SprtVerdict;

use super::matches::{Plan, done, play};
use super::{Context, Stage, finished};
use crate::files::{create_dir, write_json};
use crate::markers::MatchDone;
use crate::records::{Best, Event};
use crate::specs::net_eval;
use crate::{GateStage, LoopError};

/// Generation `g`'s gate against `best`, or its saved result.
pub(crate) fn run(
    ctx: &Context<'_>,
    section: &GateStage,
    g: u32,
    best: &Best,
    events: &mut dyn FnMut(&Event),
) -> Result<MatchDone, LoopError> {
    let marker = ctx.layout.done(g, Stage::Gate);
    if let Some(done) = finished::<MatchDone>(&marker, g, Stage::Gate, events)? {
        return Ok(done);
    }
    let t0 = Instant::now();
    let engines = [
        ctx.engines.gate.engine(&net_eval(&ctx.layout.candidate(g)), ctx.engine_name(g)),
        ctx.engines.gate.engine(&best.eval, ctx.engine_name(best.generation)),
    ];
    let dir = ctx.layout.gate_dir(g);
    create_dir(&dir)?;
    let plan = Plan {
        label: &format!("generation {g}, gate"),
        out: &dir,
        games: section.games,
        openings: super::matches::openings("gate", &section.openings)?,
        sprt: section.sprt()?,
        seed: Stage::Gate.seed(ctx.seed, g),
    };
    let r = play(ctx, &plan, engines.clone(), events)?;
    let h0 = r.sprt.is_some_and(|s| s.verdict == SprtVerdict::H0);
    let promoted = r.wdl.score().is_some_and(|s| s > section.min_score) && !h0;
    let done = done(&r, &engines, (g, best.generation), promoted, t0);
    write_json(&marker, &done)?;
    events(&Event::Finished {
        message: format!(
            "{} vs {}: score {:.1} %{} -> {}",
            done.engine,
            done.opponent,
            100.0 * done.score,
            done.elo.map_or(String::new(), |(e, err)| format!(", Elo {e:+.1} +/- {err:.1}")),
            if promoted { "promoted" } else { "not promoted" }
        ),
    });
    Ok(done)
}
