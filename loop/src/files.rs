//! The run directory's layout, and its files written through `fanorona_data::rundir` (so
//! that a half-written one is never taken for a finished one).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use fanorona_data::rundir;

use crate::LoopError;
use crate::stage::Stage;

/// Paths inside a run directory.
#[derive(Clone, Debug)]
pub struct Layout {
    /// The run directory.
    pub root: PathBuf,
}

impl Layout {
    /// `root/gen-NNN`.
    pub fn generation(&self, g: u32) -> PathBuf {
        self.root.join(format!("gen-{g:03}"))
    }

    /// The generation's self-play games.
    pub fn games(&self, g: u32) -> PathBuf {
        self.generation(g).join("games.bin")
    }

    /// The trainer's output directory of a generation.
    pub fn train_dir(&self, g: u32) -> PathBuf {
        self.generation(g).join("train")
    }

    /// The candidate network of a generation, in the engine's format.
    pub fn candidate(&self, g: u32) -> PathBuf {
        self.generation(g).join("candidate.fnet")
    }

    /// The gating match's output directory.
    pub fn gate_dir(&self, g: u32) -> PathBuf {
        self.generation(g).join("gate")
    }

    /// The marker of a finished stage of generation `g`: `gen-NNN/<stage>.done.json`.
    pub fn done(&self, g: u32, stage: Stage) -> PathBuf {
        self.generation(g).join(format!("{stage}.done.json"))
    }

    /// The marker of the finished final match: `final.done.json`.
    pub fn final_marker(&self) -> PathBuf {
        self.root.join(format!("{}.done.json", Stage::Final))
    }

    /// The final match's output directory.
    pub fn final_dir(&self) -> PathBuf {
        self.root.join("final")
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> LoopError + '_ {
    move |source| LoopError::Io { path: path.to_path_buf(), source }
}

/// Creates a directory and its parents.
pub fn create_dir(path: &Path) -> Result<(), LoopError> {
    std::fs::create_dir_all(path).map_err(io(path))
}

/// Writes `bytes` to `path` atomically ([`fanorona_data::rundir::write_atomic`]).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), LoopError> {
    Ok(rundir::write_atomic(path, bytes)?)
}

/// Writes a value as pretty JSON, atomically.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), LoopError> {
    Ok(rundir::write_json(path, value)?)
}

/// Reads a JSON file written by [`write_json`]; `None` when it does not exist.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, LoopError> {
    rundir::read_json(path).map_err(|source| match source {
        fanorona_data::DataError::Json { .. } => {
            LoopError::State { path: path.to_path_buf(), source: Box::new(source) }
        }
        other => LoopError::from(other),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unreadable_marker_is_a_state_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.json");
        assert_eq!(read_json::<Vec<u32>>(&p).unwrap(), None);
        write_json(&p, &vec![1u32, 2, 3]).unwrap();
        assert_eq!(read_json::<Vec<u32>>(&p).unwrap(), Some(vec![1, 2, 3]));
        std::fs::write(&p, b"{not json").unwrap();
        let e = read_json::<Vec<u32>>(&p).unwrap_err();
        assert!(matches!(e, LoopError::State { .. }) && e.is_bad_input(), "{e}");
    }
}
