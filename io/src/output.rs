//! [`Output`]: where an output file goes and how it gets there without destroying anything.
//!
//! A regular file is written as `PATH.part` and renamed over `PATH` when complete, so a
//! killed writer never leaves half a file under the final name. Anything else is written
//! through: a symlink is followed (its target is the output), and a FIFO or a device such as
//! `/dev/null` is written directly, never replaced by a regular file. An existing regular file
//! is replaced only when the caller says so.
//!
//! The temporary is held by one process at a time ([`Claim`]): a second writer of the same
//! output is refused with a message naming it, never handed a file another process is
//! writing or has just renamed into place. With [`Existing::Refuse`], the rename refuses too
//! when another writer put the output in place meanwhile.

use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use crate::IoError;
use crate::claim::Claim;

/// What to do when the output exists already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    /// Refuse ([`IoError::Exists`]).
    Refuse,
    /// Replace it (`--force`), or continue it (`--resume`, the caller's business).
    Replace,
}

/// A checked output file, its temporary claimed (see the module documentation).
#[derive(Clone, Debug)]
pub struct Output {
    /// The path as given (for messages).
    given: PathBuf,
    /// The file written in the end: `given` with symlinks followed.
    target: PathBuf,
    /// Whether the target is a FIFO, a device or a socket (written through, never renamed).
    special: bool,
    /// Whether the target exists (as a regular file).
    exists: bool,
    /// Whether an existing output may be replaced.
    existing: Existing,
    /// The hold on the temporary (none for a special file, or a special file in its place).
    claim: Option<Arc<Claim>>,
}

impl PartialEq for Output {
    fn eq(&self, other: &Output) -> bool {
        (&self.given, &self.target, self.special, self.exists)
            == (&other.given, &other.target, other.special, other.exists)
    }
}

impl Eq for Output {}

/// Symlinks followed at most (as Linux's `ELOOP` limit).
const MAX_LINKS: usize = 40;

/// Follows `path` through symlinks to the file it names, which need not exist.
fn resolve(path: &Path) -> Result<PathBuf, IoError> {
    let mut p = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&p) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = std::fs::read_link(&p).map_err(|e| IoError::io(&p, e))?;
                p = match p.parent() {
                    Some(dir) if link.is_relative() => dir.join(link),
                    _ => link,
                };
            }
            Ok(_) => return Ok(p),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(p),
            Err(e) => return Err(IoError::io(&p, e)),
        }
    }
    Err(IoError::Output { path: path.to_path_buf(), what: "too many levels of symbolic links".into() })
}

impl Output {
    /// Checks `path` as an output: a directory is refused; an existing regular file is refused
    /// unless `existing` is [`Existing::Replace`]. The temporary of a regular output is claimed
    /// (created empty when missing, an existing one kept as it is) until the last clone of the
    /// `Output` is dropped; one created and never written is removed then.
    ///
    /// # Errors
    /// [`IoError::Exists`], [`IoError::Output`] (also when another process is writing the same
    /// output) or [`IoError::Io`].
    pub fn new(path: &Path, existing: Existing) -> Result<Output, IoError> {
        let (target, special, exists) = match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                return Err(IoError::Output { path: path.to_path_buf(), what: "is a directory".into() });
            }
            // A regular file, perhaps through symlinks: the file they lead to.
            Ok(m) if m.is_file() => {
                (std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()), false, true)
            }
            // A FIFO or device: opened by the name given (`/dev/stdout` may lead to a pipe with
            // no path of its own).
            Ok(_) => (path.to_path_buf(), true, true),
            // Nothing there yet, or a dangling symlink: the file it names.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (resolve(path)?, false, false),
            Err(e) => return Err(IoError::io(path, e)),
        };
        if exists && !special && existing == Existing::Refuse {
            return Err(IoError::Exists { path: path.to_path_buf() });
        }
        let claim = if special { None } else { Claim::take(&part_path(&target))?.map(Arc::new) };
        Ok(Output { given: path.to_path_buf(), target, special, exists, existing, claim })
    }

    /// Whether the temporary was there before this output claimed it: a killed or failed
    /// run's (false for a special file).
    pub fn found_part(&self) -> bool {
        self.claim.as_ref().is_some_and(|c| c.found())
    }

    /// Renames `from` (a complete output of the same run, to be continued) to the temporary,
    /// held like it.
    ///
    /// # Errors
    /// [`IoError::Output`] when another process holds `from`; [`IoError::Io`].
    pub fn adopt(&self, from: &Path) -> Result<(), IoError> {
        match &self.claim {
            Some(c) => c.adopt(from),
            None => std::fs::rename(from, self.part()).map_err(|e| IoError::io(from, e)),
        }
    }

    /// The path as given.
    pub fn given(&self) -> &Path {
        &self.given
    }

    /// The file the output ends up in (symlinks followed).
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Whether the output is a FIFO, a device or a socket: written directly, nothing to
    /// resume.
    pub fn is_special(&self) -> bool {
        self.special
    }

    /// Whether the output existed when it was checked.
    pub fn existed(&self) -> bool {
        self.exists
    }

    /// The temporary a regular output is written to: `TARGET.part`.
    pub fn part(&self) -> PathBuf {
        part_path(&self.target)
    }

    /// The file to write to: the temporary for a regular file, the file itself otherwise.
    pub fn write_path(&self) -> PathBuf {
        if self.special { self.target.clone() } else { self.part() }
    }

    /// Puts the complete temporary in place: renamed over the target, which must still be a
    /// regular file or nothing. Nothing to do for a special file.
    ///
    /// # Errors
    /// [`IoError::Output`] when the target has become something else; [`IoError::Io`].
    pub fn commit(&self) -> Result<(), IoError> {
        if self.special {
            return Ok(());
        }
        match std::fs::symlink_metadata(&self.target) {
            Ok(m) if !m.is_file() => {
                return Err(IoError::Output {
                    path: self.target.clone(),
                    what: format!(
                        "is no longer a regular file; the output is left in {}",
                        self.part().display()
                    ),
                });
            }
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(IoError::io(&self.target, e)),
        }
        if self.existing == Existing::Refuse {
            return self.commit_new();
        }
        std::fs::rename(self.part(), &self.target).map_err(|e| IoError::io(&self.target, e))
    }

    /// Puts the temporary in place only if no output is there: a hard link made (which fails
    /// when the name is taken), then the temporary removed. Where hard links cannot be made,
    /// a check and a rename.
    fn commit_new(&self) -> Result<(), IoError> {
        let part = self.part();
        match std::fs::hard_link(&part, &self.target) {
            Ok(()) => std::fs::remove_file(&part).map_err(|e| IoError::io(&part, e)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(IoError::Output {
                path: self.given.clone(),
                what: format!(
                    "was written by another process meanwhile; not replaced (the output is left in {})",
                    part.display()
                ),
            }),
            Err(_) if !self.target.exists() => {
                std::fs::rename(&part, &self.target).map_err(|e| IoError::io(&self.target, e))
            }
            Err(_) => Err(IoError::Exists { path: self.given.clone() }),
        }
    }

    /// Removes the temporary of a failed write (nothing for a special file).
    pub fn abandon(&self) {
        if !self.special {
            let _ = std::fs::remove_file(self.part());
        }
    }

    /// Whether `input` is this output or its temporary (the same file, by any name).
    pub fn clobbers(&self, input: &Path) -> bool {
        same_file(input, &self.target) || same_file(input, &self.part())
    }
}

/// `PATH.part`.
pub fn part_path(path: &Path) -> PathBuf {
    let mut s = path.as_os_str().to_os_string();
    s.push(".part");
    PathBuf::from(s)
}

/// Whether `a` and `b` name the same file (both existing), or the same path.
pub fn same_file(a: &Path, b: &Path) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
            return x.dev() == y.dev() && x.ino() == y.ino();
        }
    }
    match (std::path::absolute(a), std::path::absolute(b)) {
        (Ok(x), Ok(y)) => normal(&x) == normal(&y),
        _ => a == b,
    }
}

/// `a/./b/../c` as `a/c`, lexically (no file system access; `..` at the start of a relative
/// path is kept).
pub fn normal(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir if matches!(out.components().next_back(), Some(Component::Normal(_))) => {
                out.pop();
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regular_outputs_are_refused_or_replaced() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("x.bin");
        let o = Output::new(&p, Existing::Refuse).expect("new file");
        assert!(!o.existed() && !o.is_special());
        assert_eq!(o.write_path(), dir.path().join("x.bin.part"));
        // A second writer while the first holds the temporary: refused, naming it.
        let e = Output::new(&p, Existing::Replace).expect_err("a second writer");
        assert!(e.to_string().contains("x.bin.part") && e.is_bad_input(), "{e}");
        drop(o);
        std::fs::write(&p, b"keep").expect("write");
        assert!(matches!(Output::new(&p, Existing::Refuse), Err(IoError::Exists { .. })));
        let o = Output::new(&p, Existing::Replace).expect("replace");
        std::fs::write(o.write_path(), b"new").expect("write");
        o.commit().expect("commit");
        assert_eq!(std::fs::read(&p).expect("read"), b"new");
        assert!(matches!(Output::new(dir.path(), Existing::Replace), Err(IoError::Output { .. })));
    }

    #[test]
    fn a_new_output_is_not_put_over_one_written_meanwhile() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("x.bin");
        let o = Output::new(&p, Existing::Refuse).expect("new file");
        std::fs::write(o.write_path(), b"late").expect("write");
        std::fs::write(&p, b"first").expect("another writer's output");
        let e = o.commit().expect_err("refused");
        assert!(e.to_string().contains("meanwhile"), "{e}");
        assert_eq!(std::fs::read(&p).expect("read"), b"first");
        let o = Output::new(&dir.path().join("y.bin"), Existing::Refuse).expect("new file");
        std::fs::write(o.write_path(), b"y").expect("write");
        o.commit().expect("commit");
        assert_eq!(std::fs::read_dir(dir.path()).expect("dir").count(), 3);
    }

    #[cfg(unix)]
    #[test]
    fn symlinks_are_followed_not_replaced() {
        let dir = tempfile::tempdir().expect("tempdir");
        let real = dir.path().join("real.bin");
        let link = dir.path().join("link.bin");
        std::os::unix::fs::symlink("real.bin", &link).expect("symlink");
        // A dangling link: the output is its target.
        let o = Output::new(&link, Existing::Refuse).expect("dangling");
        assert_eq!(o.target(), real);
        std::fs::write(o.write_path(), b"data").expect("write");
        o.commit().expect("commit");
        assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
        assert_eq!(std::fs::read(&real).expect("read"), b"data");
        assert!(matches!(Output::new(&link, Existing::Refuse), Err(IoError::Exists { .. })));
        assert!(o.clobbers(&link) && o.clobbers(&real) && o.clobbers(&o.part()));
        assert!(!o.clobbers(&dir.path().join("other")));
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_written_through() {
        let dir = tempfile::tempdir().expect("tempdir");
        let fifo = dir.path().join("fifo");
        // mkfifo is POSIX: where it cannot make one, the test fails rather than skip.
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("mkfifo runs");
        assert!(made.success(), "mkfifo {}", fifo.display());
        let o = Output::new(&fifo, Existing::Refuse).expect("fifo");
        assert!(o.is_special());
        assert_eq!(o.write_path(), fifo);
        // Through a symlink, the FIFO is written by the link's name.
        let link = dir.path().join("to-fifo");
        std::os::unix::fs::symlink(&fifo, &link).expect("symlink");
        let o = Output::new(&link, Existing::Refuse).expect("link to a fifo");
        assert!(o.is_special());
        assert_eq!(o.write_path(), link);
        o.commit().expect("nothing to rename");
        o.abandon();
        assert!(!std::fs::symlink_metadata(&fifo).expect("fifo").is_file());
    }
}
