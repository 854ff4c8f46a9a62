//! One generation at a time per directory: `generate.lock`, held with an exclusive advisory
//! lock for the whole run (released when the process ends, however it ends), so two runs never
//! write the same tables or checkpoints.

use std::fs::{self, File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

use crate::TbError;

/// The lock file's name in a table directory.
pub const LOCK_FILE: &str = "generate.lock";

/// A held lock on a table directory.
#[derive(Debug)]
pub(crate) struct DirLock {
    _file: File,
}

impl DirLock {
    /// Locks `dir` for a generation.
    ///
    /// # Errors
    /// [`TbError::Busy`] when another process holds it, [`TbError::NotAFile`] when something
    /// other than a regular file has the lock file's name, [`TbError::Write`].
    pub fn acquire(dir: &Path) -> Result<DirLock, TbError> {
        let path: PathBuf = dir.join(LOCK_FILE);
        // Opening a FIFO would wait for a reader forever: only a regular file (or none).
        if fs::symlink_metadata(&path).is_ok_and(|m| !m.is_file()) {
            return Err(TbError::NotAFile { path });
        }
        let write_err = |source| TbError::Write { path: path.clone(), source };
        let file =
            OpenOptions::new().create(true).truncate(false).write(true).open(&path).map_err(write_err)?;
        match file.try_lock() {
            Ok(()) => Ok(DirLock { _file: file }),
            Err(TryLockError::WouldBlock) => Err(TbError::Busy { path }),
            Err(TryLockError::Error(source)) => Err(TbError::Write { path, source }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_until_the_first_is_dropped() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let first = DirLock::acquire(dir.path()).unwrap_or_else(|e| panic!("{e}"));
        let e = DirLock::acquire(dir.path()).err();
        assert!(matches!(e, Some(TbError::Busy { .. })), "{e:?}");
        drop(first);
        assert!(DirLock::acquire(dir.path()).is_ok());
    }
}
