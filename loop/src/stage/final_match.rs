//! The final match: the best network against the baseline it started from.

use std::time::Instant;

use super::matches::{Plan, done, play};
use super::{Context, Stage};
use crate::files::{create_dir, read_marker, write_json};
use crate::markers::MatchDone;
use crate::records::{Best, Event};
use crate::{FinalStage, LoopError};

/// The final match of `best`, or its saved result when it was played by the same generation.
pub(crate) fn run(
    ctx: &Context<'_>,
    section: &FinalStage,
    best: &Best,
    events: &mut dyn FnMut(&Event),
) -> Result<MatchDone, LoopError> {
    let marker = ctx.layout.final_marker();
    if let Some(done) = read_marker::<MatchDone>(&marker)?
        && done.engine == ctx.engine_name(best.generation)
    {
        events(&Event::Stage { generation: 0, stage: Stage::Final, done: true });
        return Ok(done);
    }
    events(&Event::Stage { generation: 0, stage: Stage::Final, done: false });
    let t0 = Instant::now();
    let engines = [
        ctx.engines.final_match.engine(&best.eval, ctx.engine_name(best.generation)),
        ctx.engines.final_match.engine(&ctx.engines.baseline, ctx.engine_name(0)),
    ];
    let dir = ctx.layout.final_dir().join(format!("gen-{:03}", best.generation));
    create_dir(&dir)?;
    let plan = Plan {
        label: "final match",
        out: &dir,
        games: section.games,
        openings: super::matches::openings("final_match", &section.openings)?,
        sprt: None,
        seed: Stage::Final.seed(ctx.seed, 0),
    };
    let r = play(ctx, &plan, engines.clone(), events)?;
    let done = done(&r, &engines, (best.generation, 0), false, t0);
    write_json(&marker, &done)?;
    events(&Event::Finished { message: done.summary.lines().next().unwrap_or_default().to_string() });
    Ok(done)
}
