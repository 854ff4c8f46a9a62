//! The table file: a 52-byte header, then one byte per slot (see [`crate::Value::encode`]).
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FANTB\r\n\x1a` |
//! | 8 | 4 | format version, little-endian ([`VERSION`]) |
//! | 12 | 1 | stones of the side to move |
//! | 13 | 1 | stones of the other side |
//! | 14 | 2 | zero |
//! | 16 | 8 | slots (must equal the signature's numbering) |
//! | 24 | 8 | wins (positions up to symmetry, that is canonical slots) |
//! | 32 | 8 | draws |
//! | 40 | 8 | losses |
//! | 48 | 4 | CRC-32 of bytes 0..48 followed by the slots |
//! | 52 | slots | the values |
//!
//! Files are written under a temporary name (`NAME.part`) and renamed into place, so a file
//! with the table's name is always complete.

use std::fs::{self, File};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use crate::index::Indexer;
use crate::{Signature, TbError};

/// The format version this build reads and writes.
pub const VERSION: u32 = 1;
/// The file name extension of tables.
pub const EXTENSION: &str = "fantb";
/// The header's length in bytes.
pub const HEADER_LEN: usize = 52;
const MAGIC: [u8; 8] = *b"FANTB\r\n\x1a";
const CRC_AT: usize = 48;

/// Wins, draws and losses of a table, counted over positions up to symmetry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Drawn positions.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
}

impl Counts {
    /// Positions counted.
    pub fn total(&self) -> u64 {
        self.wins + self.draws + self.losses
    }
}

/// The fields of a header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Header {
    /// The format version.
    pub version: u32,
    /// Stones of the side to move, then of the other side, as stored.
    pub stones: (u8, u8),
    /// Number of slots.
    pub slots: u64,
    /// The counts.
    pub counts: Counts,
    /// The stored checksum.
    pub crc: u32,
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    a.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(a)
}

fn encode_header(sig: Signature, slots: u64, counts: Counts) -> [u8; HEADER_LEN] {
    let mut h = [0u8; HEADER_LEN];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12] = sig.us() as u8;
    h[13] = sig.them() as u8;
    h[16..24].copy_from_slice(&slots.to_le_bytes());
    h[24..32].copy_from_slice(&counts.wins.to_le_bytes());
    h[32..40].copy_from_slice(&counts.draws.to_le_bytes());
    h[40..48].copy_from_slice(&counts.losses.to_le_bytes());
    h
}

fn checksum(header: &[u8], data: &[u8]) -> u32 {
    let mut c = crc32fast::Hasher::new();
    c.update(&header[..CRC_AT]);
    c.update(data);
    c.finalize()
}

fn read_err(path: &Path) -> impl FnOnce(std::io::Error) -> TbError + '_ {
    move |source| TbError::Read { path: path.to_path_buf(), source }
}

/// Reads and checks the magic of a file's header (not its contents).
///
/// # Errors
/// When the file cannot be read, is shorter than a header or does not start with the magic.
pub fn read_header(path: &Path) -> Result<Header, TbError> {
    let mut file = open_regular(path)?;
    let len = file.metadata().map_err(read_err(path))?.len();
    if len < HEADER_LEN as u64 {
        return Err(TbError::Truncated { path: path.to_path_buf(), len, expected: HEADER_LEN as u64 });
    }
    let mut h = [0u8; HEADER_LEN];
    file.read_exact(&mut h).map_err(read_err(path))?;
    parse_header(path, &h)
}

/// Opens a table file for reading, refusing anything but a regular file (symlinks followed)
/// before opening it: opening a FIFO would wait for a writer forever, and a directory or a
/// device is no table.
///
/// # Errors
/// [`TbError::NotRegular`] naming the path, or [`TbError::Read`].
pub fn open_regular(path: &Path) -> Result<File, TbError> {
    fanorona_io::open_regular(path).map_err(|e| match e {
        fanorona_io::OpenError::Io(source) => TbError::Read { path: path.to_path_buf(), source },
        fanorona_io::OpenError::NotRegular(kind) => TbError::NotRegular { path: path.to_path_buf(), kind },
    })
}

fn parse_header(path: &Path, h: &[u8; HEADER_LEN]) -> Result<Header, TbError> {
    if h[..8] != MAGIC {
        return Err(TbError::NotATable { path: path.to_path_buf() });
    }
    Ok(Header {
        version: u32_at(h, 8),
        stones: (h[12], h[13]),
        slots: u64_at(h, 16),
        counts: Counts { wins: u64_at(h, 24), draws: u64_at(h, 32), losses: u64_at(h, 40) },
        crc: u32_at(h, CRC_AT),
    })
}

/// Reads the table of `sig` from `path`, checking everything: magic, version, signature,
/// length, counts and checksum. Reads no more than the signature's slots allow.
///
/// # Errors
/// A [`TbError`] naming the file.
pub fn read_table(path: &Path, sig: Signature, indexer: &Indexer) -> Result<(Vec<u8>, Counts), TbError> {
    let header = read_header(path)?;
    let bad = |reason: String| TbError::BadHeader { path: path.to_path_buf(), reason };
    if header.version != VERSION {
        return Err(TbError::WrongVersion {
            path: path.to_path_buf(),
            found: header.version,
            expected: VERSION,
        });
    }
    if header.stones != (sig.us() as u8, sig.them() as u8) {
        return Err(TbError::WrongSignature {
            path: path.to_path_buf(),
            found: format!("{}v{}", header.stones.0, header.stones.1),
            expected: sig,
        });
    }
    if header.slots != indexer.len() {
        return Err(bad(format!("{} slots, signature {sig} has {}", header.slots, indexer.len())));
    }
    let expected = HEADER_LEN as u64 + indexer.len();
    let mut file = open_regular(path)?;
    let len = file.metadata().map_err(read_err(path))?.len();
    if len < expected {
        return Err(TbError::Truncated { path: path.to_path_buf(), len, expected });
    }
    if len > expected {
        return Err(TbError::TooLong { path: path.to_path_buf(), len, expected });
    }
    let mut h = [0u8; HEADER_LEN];
    file.read_exact(&mut h).map_err(read_err(path))?;
    let size = usize::try_from(indexer.len()).map_err(|_| bad("too many slots for this machine".into()))?;
    let mut data = vec![0u8; size];
    file.read_exact(&mut data).map_err(read_err(path))?;
    let found = checksum(&h, &data);
    if found != header.crc {
        return Err(TbError::Checksum { path: path.to_path_buf(), found, expected: header.crc });
    }
    if header.counts.total() > header.slots {
        return Err(bad(format!(
            "counts add up to {}, more than the {} slots",
            header.counts.total(),
            header.slots
        )));
    }
    Ok((data, header.counts))
}

/// Writes a table atomically with fanorona-io's [`fanorona_io::write_atomic_with`]: to
/// `NAME.part` first, synced, renamed to `path`, the directory synced. The rename only
/// replaces a regular file (a directory in the way is an error; a FIFO or `/dev/null` is
/// written through).
///
/// # Errors
/// When the file cannot be written, or a directory is at `path`.
pub fn write_table(path: &Path, sig: Signature, data: &[u8], counts: Counts) -> Result<(), TbError> {
    // The temporary is created by name: a FIFO there would block, a directory fail.
    let part = temp_path(path);
    if fs::symlink_metadata(&part).is_ok_and(|m| !m.is_file()) {
        return Err(TbError::NotAFile { path: part });
    }
    let mut h = encode_header(sig, data.len() as u64, counts);
    let crc = checksum(&h, data);
    h[CRC_AT..CRC_AT + 4].copy_from_slice(&crc.to_le_bytes());
    fanorona_io::write_atomic_with(path, |file| {
        file.write_all(&h)?;
        file.write_all(data)
    })
    .map_err(|e| match e {
        fanorona_io::IoError::Io { path, source } => TbError::Write { path, source },
        fanorona_io::IoError::Exists { path } | fanorona_io::IoError::Output { path, .. } => {
            TbError::NotAFile { path }
        }
    })
}

/// The temporary name a table is written under: `3v2.fantb.part`.
pub fn temp_path(path: &Path) -> PathBuf {
    fanorona_io::part_path(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_round_trip() {
        let sig = Signature::new(2, 1).unwrap_or_else(|| unreachable!());
        let counts = Counts { wins: 3, draws: 2, losses: 1 };
        let h = encode_header(sig, 77, counts);
        let parsed = parse_header(Path::new("x"), &h).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(parsed.version, VERSION);
        assert_eq!(parsed.stones, (2, 1));
        assert_eq!(parsed.slots, 77);
        assert_eq!(parsed.counts, counts);
        assert_eq!(temp_path(Path::new("d/2v1.fantb")), Path::new("d/2v1.fantb.part"));
    }
}
