//! [`Book`]: a book file, checked once when opened by reading it through (so a book larger
//! than memory is fine), then probed by binary search in the file.

use std::fs::File;
use std::io::{BufReader, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use fanorona_core::{Position, Turn};

use crate::BookError;
use crate::format::{ENTRY_LEN, Entry, HEADER_LEN, Header, Key, legal_turns, position_key};

/// An opened, checked book.
#[derive(Debug)]
pub struct Book {
    path: PathBuf,
    header: Header,
    file: Mutex<File>,
}

/// Entries read at a time while checking a book.
const CHUNK_ENTRIES: usize = 4096;

impl Book {
    /// Opens a book and checks all of it: the header, the length, every entry (a position
    /// that can exist, a turn legal there, the order) and the checksum, reading it through in
    /// chunks.
    ///
    /// # Errors
    /// [`BookError::NotRegular`] for anything but a regular file, [`BookError::Damaged`]
    /// naming the first byte that is wrong, [`BookError::Read`].
    pub fn open(path: &Path) -> Result<Book, BookError> {
        let file = open_regular(path)?;
        let len = file.metadata().map_err(read_err(path))?.len();
        let damaged =
            |offset: u64, reason: String| BookError::Damaged { path: path.to_path_buf(), offset, reason };
        if len < HEADER_LEN as u64 {
            return Err(damaged(
                len,
                format!("the file ends after {len} bytes, inside the {HEADER_LEN}-byte header"),
            ));
        }
        let mut reader = BufReader::new(file);
        let mut h = [0u8; HEADER_LEN];
        reader.read_exact(&mut h).map_err(read_err(path))?;
        let header = Header::decode(&h).map_err(|(at, why)| damaged(at, why))?;
        let expected =
            header.entries.checked_mul(ENTRY_LEN as u64).and_then(|b| b.checked_add(HEADER_LEN as u64));
        match expected {
            Some(e) if e == len => {}
            Some(e) if e > len => {
                return Err(damaged(
                    len,
                    format!(
                        "the file ends early: the header announces {} entries, {e} bytes",
                        header.entries
                    ),
                ));
            }
            Some(e) => {
                return Err(damaged(
                    e,
                    format!("{} bytes after the last of {} entries", len - e, header.entries),
                ));
            }
            None => return Err(damaged(16, format!("{} entries cannot be a file's", header.entries))),
        }
        check_entries(path, &mut reader, &header)?;
        let file = reader.into_inner();
        Ok(Book { path: path.to_path_buf(), header, file: Mutex::new(file) })
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The header: entries, checksum, the fewest games of an entry.
    pub fn header(&self) -> Header {
        self.header
    }

    /// Every entry of `position`, in turn order (none when the book does not hold it).
    ///
    /// # Errors
    /// [`BookError::Read`] when the file cannot be read any more, [`BookError::Damaged`] when
    /// it changed since it was checked.
    pub fn entries(&self, position: &Position) -> Result<Vec<Entry>, BookError> {
        let want = position_key(position);
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        let (mut lo, mut hi) = (0, self.header.entries);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let (w, b, ..) = self.read_entry(&mut file, mid)?.key();
            if (w, b) < want { lo = mid + 1 } else { hi = mid }
        }
        let mut out = Vec::new();
        let mut i = lo;
        while i < self.header.entries {
            let e = self.read_entry(&mut file, i)?;
            if position_key(&e.position) != want {
                break;
            }
            out.push(e);
            i += 1;
        }
        Ok(out)
    }

    fn read_entry(&self, file: &mut File, index: u64) -> Result<Entry, BookError> {
        let offset = HEADER_LEN as u64 + index * ENTRY_LEN as u64;
        let mut e = [0u8; ENTRY_LEN];
        file.seek(SeekFrom::Start(offset))
            .and_then(|_| file.read_exact(&mut e))
            .map_err(read_err(&self.path))?;
        Entry::decode(&e, self.header.scored).map_err(|(at, reason)| BookError::Damaged {
            path: self.path.clone(),
            offset: offset + at,
            reason: format!("{reason} (the file changed after it was opened)"),
        })
    }
}

/// Reads every entry after the header, checking each and the checksum.
fn check_entries(path: &Path, reader: &mut impl Read, header: &Header) -> Result<(), BookError> {
    let damaged =
        |offset: u64, reason: String| BookError::Damaged { path: path.to_path_buf(), offset, reason };
    let mut crc = crc32fast::Hasher::new();
    let mut buf = vec![0u8; CHUNK_ENTRIES * ENTRY_LEN];
    let (mut index, mut last): (u64, Option<Key>) = (0, None);
    let mut legal: (Option<(u64, u64)>, Vec<Turn>) = (None, Vec::new());
    while index < header.entries {
        let n = (header.entries - index).min(CHUNK_ENTRIES as u64) as usize;
        let chunk = &mut buf[..n * ENTRY_LEN];
        reader.read_exact(chunk).map_err(read_err(path))?;
        crc.update(chunk);
        for bytes in chunk.chunks_exact(ENTRY_LEN) {
            let offset = HEADER_LEN as u64 + index * ENTRY_LEN as u64;
            let mut e = [0u8; ENTRY_LEN];
            e.copy_from_slice(bytes);
            let entry = Entry::decode(&e, header.scored).map_err(|(at, why)| damaged(offset + at, why))?;
            let key = entry.key();
            if last.is_some_and(|l| l >= key) {
                return Err(damaged(
                    offset,
                    format!("entry {index} is out of order or repeats the one before"),
                ));
            }
            last = Some(key);
            let pk = position_key(&entry.position);
            if legal.0 != Some(pk) {
                legal = (Some(pk), legal_turns(&entry.position));
            }
            entry.check_legal(&legal.1).map_err(|(at, why)| damaged(offset + at, why))?;
            index += 1;
        }
    }
    if crc.finalize() != header.crc {
        return Err(damaged(24, "the entries do not match the header's checksum".into()));
    }
    Ok(())
}

fn read_err(path: &Path) -> impl FnOnce(std::io::Error) -> BookError + '_ {
    move |source| BookError::Read { path: path.to_path_buf(), source }
}

/// Opens a regular file (symlinks followed) with fanorona-io's one helper for inputs: a FIFO
/// would wait for a writer forever.
fn open_regular(path: &Path) -> Result<File, BookError> {
    fanorona_io::open_regular(path).map_err(|e| match e {
        fanorona_io::OpenError::Io(source) => BookError::Read { path: path.to_path_buf(), source },
        fanorona_io::OpenError::NotRegular(kind) => BookError::NotRegular { path: path.to_path_buf(), kind },
    })
}
