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

    /// Generation `k`'s games re-scored for generation `g`'s training by the best network of
    /// the time (`[train] rescore`).
    pub fn rescored(&self, g: u32, k: u32) -> PathBuf {
        self.generation(g).join("rescored").join(format!("gen-{k:03}.bin"))
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

/// Reads a stage's marker (`*.done.json`); `None` when it does not exist. A marker without a
/// `version` was written before markers carried one, and is read as version 1.
pub fn read_marker<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, LoopError> {
    rundir::read_state_or_unversioned(path, MARKER_VERSION, 1).map_err(|source| match source {
        fanorona_data::DataError::Json { .. } => {
            LoopError::State { path: path.to_path_buf(), source: Box::new(source) }
        }
        other => LoopError::from(other),
    })
}

/// The version of the stages' markers (`version` in every `*.done.json`).
pub const MARKER_VERSION: u32 = 1;

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct Marker {
        version: u32,
        games: u64,
    }

    #[test]
    fn markers_without_a_version_are_version_1_and_others_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("selfplay.done.json");
        std::fs::write(&p, br#"{"games": 4}"#).unwrap();
        assert_eq!(read_marker::<Marker>(&p).unwrap(), Some(Marker { version: 1, games: 4 }));
        write_json(&p, &Marker { version: MARKER_VERSION, games: 5 }).unwrap();
        assert_eq!(read_marker::<Marker>(&p).unwrap(), Some(Marker { version: 1, games: 5 }));
        std::fs::write(&p, br#"{"version": 2, "games": 4}"#).unwrap();
        let e = read_marker::<Marker>(&p).unwrap_err();
        assert!(e.is_bad_input(), "{e}");
        assert!(e.to_string().contains("selfplay.done.json") && e.to_string().contains("version 2"), "{e}");
    }

    #[test]
    fn an_unreadable_marker_is_a_state_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.json");
        assert_eq!(read_marker::<Marker>(&p).unwrap(), None);
        std::fs::write(&p, b"{not json").unwrap();
        let e = read_marker::<Marker>(&p).unwrap_err();
        assert!(matches!(e, LoopError::State { .. }) && e.is_bad_input(), "{e}");
    }
}
