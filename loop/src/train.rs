//! The training stage: fanorona-train on the window's games, its best network copied out as
//! the generation's candidate.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::time::Instant;

use fanorona_train::Progress;

use crate::files::{Layout, write_atomic};
use crate::run::{Event, stage_seed};
use crate::stages::{EpochDone, TrainDone};
use crate::{LoopConfig, LoopError};

/// Trains generation `g`'s candidate on `files`, warm-started from `warm`; continues the
/// generation's training run when a killed loop left one with completed epochs.
pub fn train(
    config: &LoopConfig,
    layout: &Layout,
    g: u32,
    files: &[PathBuf],
    warm: Option<&Path>,
    events: &mut dyn FnMut(&Event),
) -> Result<TrainDone, LoopError> {
    let t0 = Instant::now();
    let err = |message: String| LoopError::Train { generation: g, message };
    let mut tc = config.train.trainer.clone();
    tc.seed = stage_seed(config, g, 2);
    let dir = layout.train_dir(g);
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
    .map_err(|e| err(e.to_string()))?;
    let network = layout.candidate(g);
    let bytes = std::fs::read(&report.best_net)
        .map_err(|source| LoopError::Io { path: report.best_net.clone(), source })?;
    write_atomic(&network, &bytes)?;
    Ok(TrainDone {
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
