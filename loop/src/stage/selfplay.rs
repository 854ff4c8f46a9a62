//! Self-play: the best engine plays itself into `gen-NNN/games.bin` (here, or on a cluster).

use std::time::Instant;

use fanorona_core::DrawRules;
use fanorona_engine::PlayerSpec;
use fanorona_selfplay::{Exploration, SelfplayConfig};

use super::{Context, Stage, finished};
use crate::files::{MARKER_VERSION, write_json};
use crate::markers::SelfplayDone;
use crate::records::{Best, Event};
use crate::{LoopError, SelfplayStage};

/// Generation `g`'s self-play with `best`, or its saved result.
pub(crate) fn run(
    ctx: &Context<'_>,
    section: &SelfplayStage,
    g: u32,
    best: &Best,
    events: &mut dyn FnMut(&Event),
) -> Result<SelfplayDone, LoopError> {
    let marker = ctx.layout.done(g, Stage::Selfplay);
    if let Some(done) = finished::<SelfplayDone>(&marker, g, Stage::Selfplay, events)? {
        return Ok(done);
    }
    let t0 = Instant::now();
    let spec = ctx.engines.selfplay.with_eval(&best.eval);
    let sp = config(section, g, &spec, ctx.seed, ctx.threads, ctx.rules);
    let games = ctx.layout.games(g);
    let s = if section.cluster_command.trim().is_empty() {
        let total = sp.games;
        let summary = fanorona_selfplay::generate(&sp, &games, fanorona_selfplay::Start::Resume, &mut |p| {
            events(&Event::Progress {
                done: p.done,
                total,
                message: format!("W {} D {} B {}", p.white_wins, p.draws, p.black_wins),
            });
        })
        .map_err(|source| LoopError::Selfplay { generation: g, source: Box::new(source) })?;
        summary.stats
    } else {
        crate::cluster::selfplay(section, &sp, g, &ctx.layout.generation(g), &games)?
    };
    let done = SelfplayDone {
        version: MARKER_VERSION,
        player: spec.to_string(),
        games: s.games,
        positions: s.positions,
        distinct_positions: s.distinct_positions,
        white_wins: s.white_wins,
        draws: s.draws,
        black_wins: s.black_wins,
        seconds: t0.elapsed().as_secs_f64(),
    };
    write_json(&marker, &done)?;
    events(&Event::Finished {
        message: format!(
            "{} games, {} positions ({} distinct), W {} D {} B {}",
            done.games, done.positions, done.distinct_positions, done.white_wins, done.draws, done.black_wins
        ),
    });
    Ok(done)
}

/// The self-play configuration of generation `g` played by `spec` (also what the loop's
/// configuration check hands to fanorona-selfplay's own check before anything runs).
pub(crate) fn config(
    section: &SelfplayStage,
    g: u32,
    spec: &PlayerSpec,
    run_seed: u64,
    threads: usize,
    rules: DrawRules,
) -> SelfplayConfig {
    SelfplayConfig {
        games: section.games_of(g),
        white: spec.clone(),
        black: spec.clone(),
        seed: Stage::Selfplay.seed(run_seed, g),
        threads,
        random_plies: section.random_plies,
        explore_plies: section.explore_plies,
        exploration: Exploration::Temperature(section.temperature),
        rules,
        ..SelfplayConfig::default()
    }
}
