//! Atomic writes: a file is written as `PATH.part` ([`Output::part`]), synced, renamed over
//! `PATH`, and the directory synced, so that a crash leaves either the old file or the new
//! one. A path that is not a regular file (`/dev/null`, a FIFO) is written through, never
//! renamed over; a symlink is followed.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use crate::{Existing, IoError, Output};

/// Writes `bytes` to `path` atomically (see the module documentation).
///
/// # Errors
/// [`IoError::Output`] when `path` is a directory or stops being a regular file;
/// [`IoError::Io`] naming the file.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), IoError> {
    write_atomic_with(path, |f| f.write_all(bytes))
}

/// Writes `path` atomically with `write`, which gets the open temporary (or the special file
/// itself). A failed write leaves nothing behind.
///
/// # Errors
/// As [`write_atomic`].
pub fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), IoError> {
    let out = Output::new(path, Existing::Replace)?;
    let written = write_file(&out, write);
    if written.is_err() {
        // A full disk leaves nothing behind.
        out.abandon();
    }
    written
}

fn write_file(out: &Output, write: impl FnOnce(&mut File) -> std::io::Result<()>) -> Result<(), IoError> {
    let tmp = out.write_path();
    let io = |e| IoError::io(&tmp, e);
    let mut f = File::create(&tmp).map_err(io)?;
    write(&mut f).map_err(io)?;
    if out.is_special() {
        return Ok(());
    }
    f.sync_all().map_err(io)?;
    drop(f);
    out.commit()?;
    sync_dir(out.target().parent().unwrap_or(Path::new(".")))
}

/// Syncs a directory, so that a rename in it is durable. File systems that cannot sync a
/// directory are let be.
///
/// # Errors
/// [`IoError::Io`] when the directory cannot be opened or synced.
pub fn sync_dir(dir: &Path) -> Result<(), IoError> {
    let dir = if dir.as_os_str().is_empty() { Path::new(".") } else { dir };
    let synced = File::open(dir).and_then(|d| d.sync_all());
    match synced {
        Err(e) if !matches!(e.kind(), std::io::ErrorKind::InvalidInput | std::io::ErrorKind::Unsupported) => {
            Err(IoError::io(dir, e))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn atomic_writes_replace_and_leave_only_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.txt");
        write_atomic(&p, b"one").unwrap();
        write_atomic(&p, b"two").unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), b"two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
        assert!(matches!(write_atomic(dir.path(), b"x"), Err(IoError::Output { .. })));
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.txt");
        write_atomic(&p, b"old").unwrap();
        let e = write_atomic_with(&p, |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("disk full"))
        })
        .unwrap_err();
        assert!(e.to_string().contains("x.txt.part") && e.to_string().contains("disk full"), "{e}");
        assert!(!e.is_bad_input());
        assert_eq!(std::fs::read(&p).unwrap(), b"old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_written_through() {
        write_atomic(Path::new("/dev/null"), b"nothing").unwrap();
        assert!(!std::fs::metadata("/dev/null").unwrap().is_file());
    }
}
