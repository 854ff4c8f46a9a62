//! Finding record files under directories, as `fanorona train DIR` and `fanorona serve DIR` do:
//! recognised by their magic bytes, symbolic links followed, each directory walked once, and
//! nothing but a regular file opened (opening a FIFO would block).

use std::collections::HashSet;
use std::fs::Metadata;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::MAGIC;

/// Directory levels followed at most below a directory given.
pub const MAX_FIND_DEPTH: usize = 32;

/// A directory that could not be listed.
#[derive(Debug, thiserror::Error)]
#[error("{path}: {source}")]
pub struct FindError {
    /// The directory.
    pub path: PathBuf,
    /// Why.
    #[source]
    pub source: std::io::Error,
}

impl FindError {
    /// Always `true`: the directory was named by the user.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// Directories and files already visited, by device and inode.
#[derive(Debug, Default)]
pub struct Visited(HashSet<(u64, u64)>);

impl Visited {
    /// Whether `meta` is of a directory or file not visited yet (now visited). Off Unix, where
    /// there is no inode to compare, every one is new (the depth bound then ends a loop).
    pub fn first(&mut self, meta: &Metadata) -> bool {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            self.0.insert((meta.dev(), meta.ino()))
        }
        #[cfg(not(unix))]
        {
            let _ = meta;
            true
        }
    }
}

/// Adds to `out` the record files under `dir`, in path order within each directory: regular
/// files that start with [`MAGIC`], in `dir` and its subdirectories down to [`MAX_FIND_DEPTH`]
/// levels. Hidden entries and the temporaries of unfinished writes (`.part`, `.tmp`) are
/// skipped, as is a dangling link; a directory already in `visited` is not walked again.
///
/// # Errors
/// When a directory cannot be listed.
pub fn find_record_files(dir: &Path, visited: &mut Visited, out: &mut Vec<PathBuf>) -> Result<(), FindError> {
    walk(dir, 0, visited, out)
}

fn walk(dir: &Path, depth: usize, visited: &mut Visited, out: &mut Vec<PathBuf>) -> Result<(), FindError> {
    let err = |source| FindError { path: dir.to_path_buf(), source };
    if !visited.first(&std::fs::metadata(dir).map_err(err)?) {
        return Ok(());
    }
    let mut paths = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(err)? {
        let entry = entry.map_err(err)?;
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !(name.starts_with('.') || name.ends_with(".tmp") || name.ends_with(".part")) {
            paths.push(entry.path());
        }
    }
    paths.sort();
    for path in paths {
        // What the entry is, through symbolic links; a dangling link is skipped.
        let Ok(meta) = std::fs::metadata(&path) else { continue };
        if meta.is_dir() {
            if depth < MAX_FIND_DEPTH {
                walk(&path, depth + 1, visited, out)?;
            }
        } else if meta.is_file() && is_record_file(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// Whether `path` starts with the record files' magic bytes (call it on regular files only).
pub fn is_record_file(path: &Path) -> bool {
    let mut magic = [0u8; 8];
    std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut magic)).is_ok() && magic == MAGIC
}
