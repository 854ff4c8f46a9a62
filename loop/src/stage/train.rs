//! Training: fanorona-train on the window's games, warm-started from the best network; its
//! best network is copied out as the generation's candidate.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use fanorona_data::Existing;
use fanorona_train::Progress;

use super::{Context, Stage, finished};
use crate::files::{MARKER_VERSION, write_atomic, write_json};
use crate::markers::{EpochDone, SelfplayDone, TrainDone};
use crate::records::{Best, Event};
use crate::{LoopError, TrainStage};

/// Generation `g`'s training, or its saved result.
pub(crate) fn run(
    ctx: &Context<'_>,
    section: &TrainStage,
    g: u32,
    best: &Best,
    events: &mut dyn FnMut(&Event),
) -> Result<TrainDone, LoopError> {
    let marker = ctx.layout.done(g, Stage::Train);
    if let Some(done) = finished::<TrainDone>(&marker, g, Stage::Train, events)? {
        return Ok(done);
    }
    let files = window_files(ctx, section, g, best, events)?;
    let warm = (section.warm_start && best.generation > 0).then(|| ctx.layout.candidate(best.generation));
    let done = train(ctx, section, g, &files, warm.as_deref(), events)?;
    write_json(&marker, &done)?;
    let last = done.epochs.last();
    events(&Event::Finished {
        message: format!(
            "{} epochs, val loss {:.4} (material baseline {}), val accuracy {:.1} %",
            done.epochs.len(),
            last.map_or(f64::NAN, |e| e.val_loss),
            done.material_val_loss.map_or("n/a".to_string(), |l| format!("{l:.4}")),
            last.map_or(f64::NAN, |e| 100.0 * e.val_accuracy),
        ),
    });
    Ok(done)
}

/// The games generation `g` trains on: the window's files, the older generations' re-scored
/// by the best network when `[train] rescore` asks for it (each written once, kept for a
/// resumed run: a file is only there once complete).
fn window_files(
    ctx: &Context<'_>,
    section: &TrainStage,
    g: u32,
    best: &Best,
    events: &mut dyn FnMut(&Event),
) -> Result<Vec<PathBuf>, LoopError> {
    let mut files = Vec::new();
    for k in section.window_of(g) {
        let games = ctx.layout.games(k);
        let rescore = ctx.engines.rescore.as_ref().filter(|_| k < g && best.generation > 0);
        let Some(search) = rescore else {
            files.push(games);
            continue;
        };
        let spec = search.with_eval(&best.eval);
        if played_by(ctx, k)?.is_some_and(|p| p == spec.to_string()) {
            // Its games were played, and so scored, by this very search: the same file.
            files.push(games);
            continue;
        }
        let out = ctx.layout.rescored(g, k);
        if !out.exists() {
            events(&Event::Finished { message: format!("re-scoring gen-{k:03}'s games with {spec}") });
            let dir = out.parent().unwrap_or(&out).to_path_buf();
            crate::files::create_dir(&dir)?;
            fanorona_selfplay::rescore(&games, &out, Existing::Replace, &spec, ctx.threads, &mut |n| {
                events(&Event::Progress { done: n, total: 0, message: "games re-scored".into() });
            })
            .map_err(|source| LoopError::Selfplay { generation: g, source: Box::new(source) })?;
        }
        files.push(out);
    }
    Ok(files)
}

/// The player of generation `k`'s self-play, as its marker names it.
fn played_by(ctx: &Context<'_>, k: u32) -> Result<Option<String>, LoopError> {
    let marker = ctx.layout.done(k, Stage::Selfplay);
    Ok(crate::files::read_marker::<SelfplayDone>(&marker)?.map(|d| d.player))
}

/// Trains generation `g`'s candidate on `files`, warm-started from `warm`; continues the
/// generation's training run when a killed loop left one with completed epochs.
fn train(
    ctx: &Context<'_>,
    section: &TrainStage,
    g: u32,
    files: &[PathBuf],
    warm: Option<&Path>,
    events: &mut dyn FnMut(&Event),
) -> Result<TrainDone, LoopError> {
    let t0 = Instant::now();
    let mut tc = section.trainer.clone();
    tc.seed = Stage::Train.seed(ctx.seed, g);
    tc.data.score_weight = section.score_weight_of(g);
    let dir = ctx.layout.train_dir(g);
    let epochs = u64::from(tc.optim.epochs);
    let mut on_progress = |p: &Progress| {
        match p {
            Progress::EpochStart { epoch, .. } => events(&Event::Progress {
                done: u64::from(*epoch) - 1,
                total: epochs,
                message: String::new(),
            }),
            Progress::EpochEnd(m) => events(&Event::Progress {
                done: u64::from(m.epoch),
                total: epochs,
                message: format!("val loss {:.4}, {:.0} samples/s", m.val_loss, m.samples_per_second),
            }),
            _ => {}
        }
        ControlFlow::Continue(())
    };
    let report = if dir.join("state.json").exists() {
        fanorona_train::resume(&dir, &mut on_progress)
    } else {
        // A run killed before its first epoch left nothing worth keeping.
        if dir.exists() {
            std::fs::remove_dir_all(&dir).map_err(|source| LoopError::Io { path: dir.clone(), source })?;
        }
        fanorona_train::train(&tc, files, &dir, warm, &mut on_progress)
    }
    .map_err(|source| LoopError::Train { generation: g, source: Box::new(source) })?;
    let network = ctx.layout.candidate(g);
    let bytes = std::fs::read(&report.best_net)
        .map_err(|source| LoopError::Io { path: report.best_net.clone(), source })?;
    write_atomic(&network, &bytes)?;
    Ok(TrainDone {
        version: MARKER_VERSION,
        network,
        warm_start: warm.map(Path::to_path_buf),
        files: files.to_vec(),
        epochs: report
            .epochs
            .iter()
            .map(|e| EpochDone {
                epoch: e.epoch,
                train_loss: e.train_loss,
                val_loss: e.val_loss,
                val_accuracy: e.val_accuracy,
            })
            .collect(),
        material_val_loss: Some(report.baseline.val_loss).filter(|l| l.is_finite()),
        seconds: t0.elapsed().as_secs_f64(),
    })
}
