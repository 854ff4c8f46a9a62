//! [`Claim`]: one process's hold on an output's temporary (`PATH.part`), so that two writers
//! of one output never share it.
//!
//! The temporary is opened (created when missing, never truncated: a killed run's may be
//! resumed) and locked with an exclusive, non-blocking advisory lock (`flock`). A second
//! writer finds it locked and is refused with a message naming the file; the lock goes with
//! the process, so a killed writer's temporary is free again. After the lock is taken, the
//! name must still lead to the locked file: a writer that renamed or removed it (a commit, an
//! abandon) has let it go, and the name is opened again.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use crate::IoError;

/// How many times the temporary is opened again when another writer renamed it away between
/// the open and the lock.
const ATTEMPTS: usize = 8;

/// A locked temporary; the lock is held until it is dropped.
#[derive(Debug)]
pub(crate) struct Claim {
    /// The temporary's name.
    part: PathBuf,
    /// The locked temporary, opened by this claim.
    file: File,
    /// Whether the claim created the temporary (it was not there).
    created: bool,
    /// Files renamed to the temporary's name since ([`Claim::adopt`]), locked too.
    adopted: Mutex<Vec<File>>,
}

impl Claim {
    /// Claims `part`: `Ok(None)` when it is something other than a regular file (a device, a
    /// FIFO: written through as before, nothing to lock).
    ///
    /// # Errors
    /// [`IoError::Output`] when another writer holds it; [`IoError::Io`].
    pub(crate) fn take(part: &Path) -> Result<Option<Claim>, IoError> {
        for _ in 0..ATTEMPTS {
            let created = match std::fs::metadata(part) {
                Ok(m) if !m.is_file() => return Ok(None),
                Ok(_) => false,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => true,
                Err(e) => return Err(IoError::io(part, e)),
            };
            let file = match OpenOptions::new().write(true).create(true).truncate(false).open(part) {
                Ok(f) => f,
                Err(e) => return Err(IoError::io(part, e)),
            };
            lock(&file, part)?;
            if same_inode(&file, part) {
                return Ok(Some(Claim {
                    part: part.to_path_buf(),
                    file,
                    created,
                    adopted: Mutex::new(Vec::new()),
                }));
            }
            // Renamed or removed by the writer that held it: open the name again.
        }
        Err(busy(part))
    }

    /// Renames `from` to the temporary's name, locking it first, so that no other writer can
    /// claim it on the way.
    ///
    /// # Errors
    /// [`IoError::Output`] when another writer holds `from`; [`IoError::Io`].
    pub(crate) fn adopt(&self, from: &Path) -> Result<(), IoError> {
        let file = OpenOptions::new().write(true).open(from).map_err(|e| IoError::io(from, e))?;
        lock(&file, from)?;
        std::fs::rename(from, &self.part).map_err(|e| IoError::io(from, e))?;
        self.adopted.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(file);
        Ok(())
    }

    /// Whether the temporary was there before this claim (a killed or failed run's).
    pub(crate) fn found(&self) -> bool {
        !self.created
    }
}

impl Drop for Claim {
    /// A temporary this claim created and nobody wrote to is removed (an output checked but
    /// never written leaves nothing behind).
    fn drop(&mut self) {
        let empty = self.file.metadata().is_ok_and(|m| m.len() == 0);
        if self.created && empty && same_inode(&self.file, &self.part) {
            let _ = std::fs::remove_file(&self.part);
        }
    }
}

/// The error of a temporary another writer holds (bad input: the command was run twice).
fn busy(path: &Path) -> IoError {
    IoError::Output {
        path: path.to_path_buf(),
        what: "another process is writing this output now (its temporary is locked); not written".into(),
    }
}

/// Takes `file`'s exclusive lock without waiting. A file system without locks is let be.
fn lock(file: &File, path: &Path) -> Result<(), IoError> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(TryLockError::WouldBlock) => Err(busy(path)),
        Err(TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => Ok(()),
        Err(TryLockError::Error(e)) => Err(IoError::io(path, e)),
    }
}

/// Whether `path` names the open `file`.
fn same_inode(file: &File, path: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        match (file.metadata(), std::fs::metadata(path)) {
            (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
            _ => false,
        }
    }
    #[cfg(not(unix))]
    {
        let _ = file;
        path.exists()
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_claimed_temporary_is_refused_to_a_second_writer() {
        let dir = tempfile::tempdir().unwrap();
        let part = dir.path().join("x.bin.part");
        let first = Claim::take(&part).unwrap().unwrap();
        assert!(!first.found() && part.exists());
        let e = Claim::take(&part).unwrap_err();
        assert!(matches!(e, IoError::Output { .. }) && e.to_string().contains("x.bin.part"), "{e}");
        drop(first);
        // Created, never written: removed with the claim.
        assert!(!part.exists());
        std::fs::write(&part, b"left").unwrap();
        let again = Claim::take(&part).unwrap().unwrap();
        assert!(again.found());
        drop(again);
        assert_eq!(std::fs::read(&part).unwrap(), b"left");
    }

    #[test]
    fn a_temporary_renamed_away_is_claimed_anew() {
        let dir = tempfile::tempdir().unwrap();
        let part = dir.path().join("x.part");
        let first = Claim::take(&part).unwrap().unwrap();
        std::fs::write(&part, b"done").unwrap();
        std::fs::rename(&part, dir.path().join("x")).unwrap();
        // The first writer still holds the renamed file; the name is free.
        let second = Claim::take(&part).unwrap().unwrap();
        assert!(!second.found());
        drop((first, second));
        assert_eq!(std::fs::read(dir.path().join("x")).unwrap(), b"done");
    }
}
