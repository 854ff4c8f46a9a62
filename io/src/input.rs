//! Opening an input by its path, the same way for every command: [`open_regular`] refuses
//! what is not a regular file (a FIFO would wait forever, a directory or a device is no
//! input), and [`is_bad_path`] says which failures are the path's fault (exit 2), not the
//! system's.

use std::fs::{self, File, FileType};
use std::path::Path;

/// Why an input cannot be opened.
#[derive(Debug)]
pub enum OpenError {
    /// The path cannot be opened (missing, a symlink loop, a permission, ...).
    Io(std::io::Error),
    /// It is not a regular file: what it is (`a directory`, `a FIFO`, ...).
    NotRegular(&'static str),
}

/// Opens `path` (symlinks followed) for reading, refusing anything but a regular file, both
/// before the open and in what was opened (replaced between the two).
///
/// # Errors
/// [`OpenError`].
pub fn open_regular(path: &Path) -> Result<File, OpenError> {
    let meta = fs::metadata(path).map_err(OpenError::Io)?;
    if !meta.is_file() {
        return Err(OpenError::NotRegular(kind_of(meta.file_type())));
    }
    let file = File::open(path).map_err(OpenError::Io)?;
    let meta = file.metadata().map_err(OpenError::Io)?;
    if !meta.is_file() {
        return Err(OpenError::NotRegular(kind_of(meta.file_type())));
    }
    Ok(file)
}

/// What a file that is not a regular one is, for messages.
pub fn kind_of(t: FileType) -> &'static str {
    if t.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    "not a regular file"
}

/// `ELOOP`, the error of a path through too many symlinks (a loop).
#[cfg(target_os = "linux")]
const ELOOP: i32 = 40;
#[cfg(not(target_os = "linux"))]
const ELOOP: i32 = 62;

/// Whether an I/O error is the path's fault: nothing there, a directory where a file was
/// expected (or a file where a directory was), a symlink loop, a name too long.
pub fn is_bad_path(e: &std::io::Error) -> bool {
    use std::io::ErrorKind as K;
    matches!(e.kind(), K::NotFound | K::IsADirectory | K::NotADirectory | K::InvalidFilename)
        || e.raw_os_error() == Some(ELOOP)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[cfg(unix)]
    #[test]
    fn symlink_loops_missing_files_and_directories_are_bad_paths() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        std::os::unix::fs::symlink(&b, &a).unwrap();
        std::os::unix::fs::symlink(&a, &b).unwrap();
        let Err(OpenError::Io(e)) = open_regular(&a) else { panic!("a symlink loop opened") };
        assert!(is_bad_path(&e), "{e}");
        let Err(OpenError::Io(e)) = open_regular(&dir.path().join("missing")) else { panic!("opened") };
        assert!(is_bad_path(&e), "{e}");
        assert!(matches!(open_regular(dir.path()), Err(OpenError::NotRegular("a directory"))));
        let under_a_file = dir.path().join("f");
        std::fs::write(&under_a_file, b"x").unwrap();
        let Err(OpenError::Io(e)) = open_regular(&under_a_file.join("x")) else { panic!("opened") };
        assert!(is_bad_path(&e), "{e}");
        assert!(!is_bad_path(&std::io::Error::from(std::io::ErrorKind::PermissionDenied)));
    }
}
