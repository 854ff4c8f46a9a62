//! The training stage: fanorona-train on the window's games, exported for the engine.

use std::path::{Path, PathBuf};

use crate::files::Layout;
use crate::run::Event;
use crate::stages::TrainDone;
use crate::{LoopConfig, LoopError};

/// Trains generation `g`'s candidate on `files`, warm-started from `warm`.
pub fn train(
    _config: &LoopConfig,
    _layout: &Layout,
    g: u32,
    _files: &[PathBuf],
    _warm: Option<&Path>,
    _events: &mut dyn FnMut(&Event),
) -> Result<TrainDone, LoopError> {
    Err(LoopError::Train { generation: g, message: "the trainer is not connected yet".into() })
}
