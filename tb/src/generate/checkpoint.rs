//! Checkpoints of a pair being solved, so that a killed generation of hours resumes at the
//! last finished level instead of starting the pair over.
//!
//! `4v3.fantb.ckpt` (named after the pair's first signature) holds, after a 56-byte header,
//! each table's state bytes and (in [`Mode::Counters`]) counter bytes, then a CRC-32 of all
//! that precedes it:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FANTBCK\x1a` |
//! | 8 | 4 | format version, little-endian ([`VERSION`]) |
//! | 12 | 1 | mode: 0 counters, 1 lean |
//! | 13 | 1 | tables (1 or 2) |
//! | 14 | 2 | zero |
//! | 16 | 4 | the next level to run |
//! | 20 | 4 | the highest level decided so far |
//! | 24 | 32 | per table (the second zero when there is one): stones to move, stones of the other side, 6 zero bytes, slots (u64) |
//! | 56 | ... | per table: its state bytes, then its counters |
//! | end - 4 | 4 | CRC-32 of every byte before it |
//!
//! It is written atomically (a temporary, synced, renamed) at level boundaries, so the file
//! with the name is always a whole checkpoint; a damaged or foreign one is refused, naming it.

use std::fs;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;

use super::Mode;
use super::work::Work;
use crate::format::open_regular;
use crate::index::Indexer;
use crate::{Signature, TbError};

/// The checkpoint format version.
pub const VERSION: u32 = 1;
const MAGIC: [u8; 8] = *b"FANTBCK\x1a";
const HEADER_LEN: usize = 56;
const BUFFER: usize = 1 << 20;

/// Where the level loop of a pair stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Levels {
    /// The next level to run.
    pub next: u32,
    /// The highest level any position is decided at so far.
    pub top: u32,
}

/// The checkpoint file of the pair whose first signature is `sig`.
pub fn checkpoint_path(dir: &Path, sig: Signature) -> PathBuf {
    dir.join(format!("{}.ckpt", sig.file_name()))
}

fn header(works: &[Work], levels: Levels) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12] = u8::from(works[0].mode() == Mode::Lean);
    h[13] = works.len() as u8;
    h[16..20].copy_from_slice(&levels.next.to_le_bytes());
    h[20..24].copy_from_slice(&levels.top.to_le_bytes());
    for (k, w) in works.iter().enumerate() {
        let at = 24 + 16 * k;
        let sig = w.indexer.signature();
        h[at] = sig.us() as u8;
        h[at + 1] = sig.them() as u8;
        h[at + 8..at + 16].copy_from_slice(&w.len().to_le_bytes());
    }
    h
}

/// Writes the pair's state atomically.
///
/// # Errors
/// [`TbError::Write`] naming the file.
pub(super) fn save(path: &Path, works: &[Work], levels: Levels) -> Result<(), TbError> {
    let h = header(works, levels);
    fanorona_io::write_atomic_with(path, |file| {
        let mut out = BufWriter::with_capacity(BUFFER, file);
        let mut crc = crc32fast::Hasher::new();
        let mut put = |bytes: &[u8]| -> std::io::Result<()> {
            crc.update(bytes);
            out.write_all(bytes)
        };
        put(&h)?;
        let mut buf = vec![0u8; BUFFER];
        for w in works {
            for array in [&w.values, &w.counters] {
                for chunk in array.chunks(BUFFER) {
                    for (b, a) in buf.iter_mut().zip(chunk) {
                        *b = a.load(Ordering::Relaxed);
                    }
                    put(&buf[..chunk.len()])?;
                }
            }
        }
        let sum = crc.finalize();
        out.write_all(&sum.to_le_bytes())?;
        out.flush()
    })
    .map_err(|e| match e {
        fanorona_io::IoError::Io { path, source } => TbError::Write { path, source },
        other => {
            TbError::Write { path: path.to_path_buf(), source: std::io::Error::other(other.to_string()) }
        }
    })
}

/// Reads the checkpoint at `path` for the pair `sigs` in `mode`, if there is one.
///
/// # Errors
/// [`TbError::BadCheckpoint`] naming the file and what is wrong with it (damaged, truncated,
/// of another pair or mode), [`TbError::Read`].
pub(super) fn load(
    path: &Path,
    sigs: &[Signature],
    mode: Mode,
) -> Result<Option<(Vec<Work>, Levels)>, TbError> {
    if fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    let bad = |reason: String| TbError::BadCheckpoint { path: path.to_path_buf(), reason };
    let file = open_regular(path)?;
    let len = file.metadata().map_err(|source| TbError::Read { path: path.to_path_buf(), source })?.len();
    let indexers: Vec<Indexer> = sigs.iter().map(|&s| Indexer::new(s)).collect();
    let per_slot = mode.bytes_per_slot();
    let expected = HEADER_LEN as u64 + indexers.iter().map(|ix| ix.len() * per_slot).sum::<u64>() + 4;
    if len != expected {
        return Err(bad(format!(
            "{len} bytes where a checkpoint of {} in {} mode has {expected}",
            sigs[0],
            mode.as_str()
        )));
    }
    let mut input = BufReader::with_capacity(BUFFER, file);
    let mut crc = crc32fast::Hasher::new();
    let mut read = |n: u64| -> Result<Vec<u8>, TbError> {
        let n = usize::try_from(n).map_err(|_| bad("too large for this machine".into()))?;
        let mut v = vec![0u8; n];
        input.read_exact(&mut v).map_err(|source| TbError::Read { path: path.to_path_buf(), source })?;
        crc.update(&v);
        Ok(v)
    };
    let h = read(HEADER_LEN as u64)?;
    let levels = check_header(&h, &indexers, mode).map_err(bad)?;
    let mut arrays = Vec::new();
    for ix in &indexers {
        let values = read(ix.len())?;
        let counters = if mode == Mode::Counters { read(ix.len())? } else { Vec::new() };
        arrays.push((values, counters));
    }
    let sum = crc.finalize();
    let mut stored = [0u8; 4];
    input.read_exact(&mut stored).map_err(|source| TbError::Read { path: path.to_path_buf(), source })?;
    if u32::from_le_bytes(stored) != sum {
        return Err(bad(format!(
            "checksum {:08x} where the data gives {sum:08x}",
            u32::from_le_bytes(stored)
        )));
    }
    let works = indexers.into_iter().zip(arrays).map(|(ix, (v, c))| Work::from_bytes(ix, v, c)).collect();
    Ok(Some((works, levels)))
}

/// Checks a checkpoint's header against the pair and mode expected; returns its levels.
fn check_header(h: &[u8], indexers: &[Indexer], mode: Mode) -> Result<Levels, String> {
    let u32_at = |at: usize| u32::from_le_bytes([h[at], h[at + 1], h[at + 2], h[at + 3]]);
    if h[..8] != MAGIC {
        return Err("not a table checkpoint (bad magic)".into());
    }
    if u32_at(8) != VERSION {
        return Err(format!("checkpoint version {}, this build reads {VERSION}", u32_at(8)));
    }
    let found = if h[12] == 1 { Mode::Lean } else { Mode::Counters };
    if h[12] > 1 || found != mode {
        return Err(format!(
            "made in another mode (byte 12 is {}), this run solves in {} mode",
            h[12],
            mode.as_str()
        ));
    }
    if usize::from(h[13]) != indexers.len() {
        return Err(format!("{} tables at byte 13, the pair has {}", h[13], indexers.len()));
    }
    for (k, ix) in indexers.iter().enumerate() {
        let at = 24 + 16 * k;
        let sig = ix.signature();
        let slots = u64::from_le_bytes(h[at + 8..at + 16].try_into().unwrap_or_default());
        if (u32::from(h[at]), u32::from(h[at + 1]), slots) != (sig.us(), sig.them(), ix.len()) {
            return Err(format!(
                "table {k} at byte {at} is {}v{} with {slots} slots, not {sig}",
                h[at],
                h[at + 1]
            ));
        }
    }
    Ok(Levels { next: u32_at(16), top: u32_at(20) })
}

/// Removes a finished pair's checkpoint (nothing when there is none).
///
/// # Errors
/// [`TbError::Write`] when it is there and cannot be removed.
pub(super) fn remove(path: &Path) -> Result<(), TbError> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(TbError::Write { path: path.to_path_buf(), source: e })
        }
        _ => Ok(()),
    }
}
