//! The run-directory toolkit shared by every crate that keeps files in a run directory
//! (trainer, matches, the loop, self-play): atomic writes, JSON (with NaN as `null`) and
//! versioned state files.
//!
//! The atomic write itself is fanorona-io's (shared with the crates below this one). A file is
//! written as `PATH.part` ([`crate::Output::part`]), synced, renamed over `PATH`, and the
//! directory synced, so that a crash leaves either the old file or the new one. A path that
//! is not a regular file (`/dev/null`, a FIFO) is written through, never renamed over; a
//! symlink is followed.

use std::path::Path;

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::DataError;

pub use fanorona_io::part_path;

/// Writes `bytes` to `path` atomically ([`fanorona_io::write_atomic`]; see the module
/// documentation).
///
/// # Errors
/// [`DataError::Output`] when `path` is a directory or stops being a regular file;
/// [`DataError::Io`] naming the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), DataError> {
    Ok(fanorona_io::write_atomic(path, bytes)?)
}

/// Syncs a directory, so that a rename in it is durable ([`fanorona_io::sync_dir`]).
///
/// # Errors
/// [`DataError::Io`] when the directory cannot be opened or synced.
pub fn sync_dir(dir: &Path) -> Result<(), DataError> {
    Ok(fanorona_io::sync_dir(dir)?)
}

/// Writes `value` as pretty JSON to `path`, atomically.
///
/// # Errors
/// [`DataError::JsonOut`] when the value cannot be written as JSON; as [`write_atomic`].
pub fn write_json<T: Serialize + ?Sized>(path: &Path, value: &T) -> Result<(), DataError> {
    let text = serde_json::to_string_pretty(value)
        .map_err(|source| DataError::JsonOut { path: path.to_path_buf(), source })?;
    write_atomic(path, text.as_bytes())
}

/// Reads a JSON file; `None` when it does not exist.
///
/// # Errors
/// [`DataError::Json`] when it is not the JSON of a `T`; [`DataError::Io`].
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<Option<T>, DataError> {
    let Some(text) = read_text(path)? else { return Ok(None) };
    serde_json::from_str(&text)
        .map(Some)
        .map_err(|source| DataError::Json { path: path.to_path_buf(), source })
}

/// Reads a versioned state file: a JSON object whose `version` field must be `version` (it is
/// checked before the rest, so a file of another layout is named as such); `None` when it
/// does not exist. The state type keeps `version` as a field and writes it with
/// [`write_json`].
///
/// # Errors
/// [`DataError::StateVersion`] when the version is missing or another; as [`read_json`].
pub fn read_state<T: DeserializeOwned>(path: &Path, version: u32) -> Result<Option<T>, DataError> {
    read_versioned(path, version, None)
}

/// Reads a versioned state file as [`read_state`] does, except that a file without a
/// `version` field is taken to be of version `unversioned` (the layout written before the
/// files carried a version) and read with that version filled in.
///
/// # Errors
/// [`DataError::StateVersion`] when the version (or `unversioned`, for a file without one) is
/// not `version`; as [`read_json`].
pub fn read_state_or_unversioned<T: DeserializeOwned>(
    path: &Path,
    version: u32,
    unversioned: u32,
) -> Result<Option<T>, DataError> {
    read_versioned(path, version, Some(unversioned))
}

fn read_versioned<T: DeserializeOwned>(
    path: &Path,
    version: u32,
    unversioned: Option<u32>,
) -> Result<Option<T>, DataError> {
    let Some(text) = read_text(path)? else { return Ok(None) };
    let json = |source| DataError::Json { path: path.to_path_buf(), source };
    let mut value: serde_json::Value = serde_json::from_str(&text).map_err(json)?;
    let mut found = value.get("version").and_then(serde_json::Value::as_u64);
    if let (Some(old), serde_json::Value::Object(fields)) = (unversioned, &mut value)
        && !fields.contains_key("version")
    {
        fields.insert("version".into(), old.into());
        found = Some(u64::from(old));
    }
    if found != Some(u64::from(version)) {
        return Err(DataError::StateVersion { path: path.to_path_buf(), found, expected: version });
    }
    serde_json::from_value(value).map(Some).map_err(json)
}

fn read_text(path: &Path) -> Result<Option<String>, DataError> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(DataError::io(path, e)),
    }
}

/// Serde for `f64` fields that may be NaN or infinite: JSON has no such numbers, so they are
/// written as `null` and read back as NaN (`#[serde(with = "fanorona_data::rundir::nan_as_null")]`).
pub mod nan_as_null {
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes a finite value as a number, anything else as `null`.
    ///
    /// # Errors
    /// The serializer's.
    pub fn serialize<S: Serializer>(v: &f64, s: S) -> Result<S::Ok, S::Error> {
        if v.is_finite() { s.serialize_f64(*v) } else { s.serialize_none() }
    }

    /// Reads a number, or `null` as NaN.
    ///
    /// # Errors
    /// The deserializer's.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct State {
        version: u32,
        #[serde(with = "nan_as_null")]
        loss: f64,
    }

    #[test]
    fn atomic_writes_leave_only_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("x.json");
        assert_eq!(read_json::<Vec<u32>>(&p).expect("missing"), None);
        write_json(&p, &vec![1u32, 2, 3]).expect("write");
        write_json(&p, &vec![4u32]).expect("replace");
        assert_eq!(read_json::<Vec<u32>>(&p).expect("read"), Some(vec![4]));
        assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 1);
        std::fs::write(&p, b"{not json").expect("write");
        assert!(matches!(read_json::<Vec<u32>>(&p), Err(DataError::Json { .. })));
        assert!(matches!(write_atomic(dir.path(), b"x"), Err(DataError::Output { .. })));
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_written_through() {
        write_atomic(Path::new("/dev/null"), b"nothing").expect("/dev/null");
        assert!(!std::fs::metadata("/dev/null").expect("still there").is_file());
    }

    #[test]
    fn state_files_check_their_version() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("state.json");
        assert!(read_state::<State>(&p, 1).expect("missing").is_none());
        write_json(&p, &State { version: 1, loss: f64::NAN }).expect("write");
        assert!(std::fs::read_to_string(&p).expect("read").contains("null"));
        let s = read_state::<State>(&p, 1).expect("read").expect("there");
        assert!(s.loss.is_nan());
        let e = read_state::<State>(&p, 2).expect_err("version 1 is not 2");
        assert!(matches!(e, DataError::StateVersion { found: Some(1), expected: 2, .. }), "{e}");
        assert!(e.is_bad_input());
        std::fs::write(&p, br#"{"loss": 1.0}"#).expect("write");
        let e = read_state::<State>(&p, 1).expect_err("no version");
        assert!(matches!(e, DataError::StateVersion { found: None, .. }), "{e}");
        assert!(e.to_string().contains("no version"), "{e}");
        // A file of the layout from before versioning is read as that version.
        let s = read_state_or_unversioned::<State>(&p, 1, 1).expect("read").expect("there");
        assert_eq!(s, State { version: 1, loss: 1.0 });
        let e = read_state_or_unversioned::<State>(&p, 2, 1).expect_err("unversioned is 1, not 2");
        assert!(matches!(e, DataError::StateVersion { found: Some(1), expected: 2, .. }), "{e}");
        write_json(&p, &State { version: 3, loss: 0.5 }).expect("write");
        let e = read_state_or_unversioned::<State>(&p, 1, 1).expect_err("version 3");
        assert!(matches!(e, DataError::StateVersion { found: Some(3), expected: 1, .. }), "{e}");
    }
}
