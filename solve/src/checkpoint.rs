//! Checkpoints of a long question: the transposition table on disk, so that a killed solve
//! resumes with everything it had learnt (df-pn goes on from a filled table at once).
//!
//! All integers little-endian: magic `FANSOLVE` (8 bytes), version (4), the question's root
//! node (its two words, 16), the table's slot count (8), the last solved order (4), nodes
//! searched so far (8), then every slot as four words (32 bytes), then a CRC-32 of everything
//! before it. Written atomically (a temporary, synced, renamed): the file with the name is a
//! whole checkpoint.

use std::fs;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use crate::file::FileError;
use crate::node::Node;
use crate::tt::Table;

const MAGIC: [u8; 8] = *b"FANSOLVE";
/// The checkpoint format version.
pub const VERSION: u32 = 1;
const HEADER: usize = 48;

/// What a checkpoint holds besides the table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Saved {
    /// The question's root.
    pub root: Node,
    /// The last order given to a solved node.
    pub order: u32,
    /// Nodes searched before the checkpoint.
    pub nodes: u64,
}

fn io<'a>(verb: &'static str, path: &'a Path) -> impl FnOnce(std::io::Error) -> FileError + 'a {
    move |source| FileError::Io { verb, path: path.to_path_buf(), source }
}

/// Writes `table` with `saved` to `path` atomically.
///
/// # Errors
/// [`FileError::Io`] naming the file.
pub fn save(path: &Path, table: &Table, saved: Saved) -> Result<(), FileError> {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    let (key, them) = saved.root.words();
    h[12..20].copy_from_slice(&key.to_le_bytes());
    h[20..28].copy_from_slice(&them.to_le_bytes());
    h[28..36].copy_from_slice(&(table.capacity() as u64).to_le_bytes());
    h[36..40].copy_from_slice(&saved.order.to_le_bytes());
    h[40..48].copy_from_slice(&saved.nodes.to_le_bytes());
    fanorona_io::write_atomic_with(path, |file| {
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let mut crc = crc32fast::Hasher::new();
        crc.update(&h);
        out.write_all(&h)?;
        for i in 0..table.capacity() {
            let mut b = [0u8; 32];
            for (k, w) in table.slot(i).iter().enumerate() {
                b[8 * k..8 * k + 8].copy_from_slice(&w.to_le_bytes());
            }
            crc.update(&b);
            out.write_all(&b)?;
        }
        out.write_all(&crc.finalize().to_le_bytes())?;
        out.flush()
    })
    .map_err(|e| crate::file::write_error(path, e))
}

/// Reads the checkpoint at `path` into `table` (which must have the saved slot count) if
/// there is one for `root`; `Ok(None)` when there is none.
///
/// # Errors
/// [`FileError::Bad`] naming the file and byte when it is damaged, of another question or of
/// another table size (say `--memory` as it was), [`FileError::Io`].
pub fn load(path: &Path, root: Node, table: &mut Table) -> Result<Option<Saved>, FileError> {
    if fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let bad = |at: u64, reason: String| FileError::Bad { path: path.to_path_buf(), at, reason };
    let meta = fs::metadata(path).map_err(io("read", path))?;
    let expected = HEADER as u64 + 32 * table.capacity() as u64 + 4;
    if !meta.is_file() || meta.len() != expected {
        return Err(bad(
            0,
            format!(
                "{} bytes, a checkpoint of this table size has {expected} (the same --memory?)",
                meta.len()
            ),
        ));
    }
    let mut input = BufReader::with_capacity(1 << 20, fs::File::open(path).map_err(io("read", path))?);
    let mut crc = crc32fast::Hasher::new();
    let mut h = [0u8; HEADER];
    input.read_exact(&mut h).map_err(io("read", path))?;
    crc.update(&h);
    let word = |at: usize| u64::from_le_bytes(h[at..at + 8].try_into().unwrap_or_default());
    if h[..8] != MAGIC {
        return Err(bad(0, "not a solver checkpoint".into()));
    }
    if u32::from_le_bytes([h[8], h[9], h[10], h[11]]) != VERSION {
        return Err(bad(8, "another checkpoint version".into()));
    }
    if (word(12), word(20)) != root.words() {
        return Err(bad(12, format!("a checkpoint of another question than {root}")));
    }
    let mut b = [0u8; 32];
    for i in 0..table.capacity() {
        input.read_exact(&mut b).map_err(io("read", path))?;
        crc.update(&b);
        let w: [u64; 4] =
            std::array::from_fn(|k| u64::from_le_bytes(b[8 * k..8 * k + 8].try_into().unwrap_or_default()));
        table.set_slot(i, w);
    }
    let mut stored = [0u8; 4];
    input.read_exact(&mut stored).map_err(io("read", path))?;
    if u32::from_le_bytes(stored) != crc.finalize() {
        return Err(bad(expected - 4, "checksum mismatch (damaged)".into()));
    }
    let order = u32::from_le_bytes([h[36], h[37], h[38], h[39]]);
    Ok(Some(Saved { root, order, nodes: word(40) }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_round_trips_and_another_question_is_refused() {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let path = dir.path().join("q.ckpt");
        let root = Node::new(1, 1 << 40, true);
        let mut t = Table::with_bytes(4096);
        t.put(root, 3, 4, 5, 0);
        t.put(Node::new(2, 1 << 41, false), 0, u32::MAX, 1, 9);
        save(&path, &t, Saved { root, order: 9, nodes: 77 }).unwrap_or_else(|e| panic!("{e}"));
        let mut back = Table::with_bytes(4096);
        let saved = load(&path, root, &mut back).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(saved, Some(Saved { root, order: 9, nodes: 77 }));
        assert_eq!(back.iter().collect::<Vec<_>>(), t.iter().collect::<Vec<_>>());
        let other = Node::new(4, 1 << 40, true);
        assert!(load(&path, other, &mut back).is_err());
        let mut small = Table::with_bytes(1024);
        assert!(load(&path, root, &mut small).is_err());
    }
}
