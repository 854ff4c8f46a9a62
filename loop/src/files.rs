//! The run directory's layout, and writing files so that a half-written one is never taken
//! for a finished one (temporary name, then rename).

use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

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

/// Writes `bytes` to `path` through a temporary file in the same directory and a rename.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), LoopError> {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = path.with_file_name(format!(".{name}.tmp"));
    std::fs::write(&tmp, bytes).map_err(io(&tmp))?;
    std::fs::rename(&tmp, path).map_err(io(path))
}

/// Writes a value as pretty JSON, atomically.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<(), LoopError> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|e| LoopError::State { path: path.to_path_buf(), what: e.to_string() })?;
    write_atomic(path, text.as_bytes())
}

/// Reads a JSON file written by [`write_json`]; `None` when it does not exist.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, LoopError> {
    match std::fs::read_to_string(path) {
        Ok(text) => serde_json::from_str(&text)
            .map(Some)
            .map_err(|e| LoopError::State { path: path.to_path_buf(), what: e.to_string() }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(LoopError::Io { path: path.to_path_buf(), source: e }),
    }
}

/// Serde for `f64` fields that may be NaN or infinite: JSON has no such numbers, so they are
/// written as `null` and read back as NaN.
pub mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes a finite value as a number, anything else as `null`.
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() { s.serialize_f64(*v) } else { s.serialize_none() }
    }

    /// Reads a number, or `null` as NaN.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_round_trip_and_no_leftovers() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.json");
        assert_eq!(read_json::<Vec<u32>>(&p).unwrap(), None);
        write_json(&p, &vec![1u32, 2, 3]).unwrap();
        assert_eq!(read_json::<Vec<u32>>(&p).unwrap(), Some(vec![1, 2, 3]));
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        std::fs::write(&p, b"{not json").unwrap();
        assert!(matches!(read_json::<Vec<u32>>(&p), Err(LoopError::State { .. })));
    }
}
