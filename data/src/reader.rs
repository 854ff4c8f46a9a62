//! [`RecordReader`]: reads a record file's header, then its game records one at a time.

use std::fs::File;
use std::io::{BufReader, Read};
use std::path::{Path, PathBuf};

use crate::codec::decode_exact;
use crate::header::{FORMAT_VERSION, MAGIC, MAX_HEADER_LEN, MAX_RECORD_LEN};
use crate::{DataError, GameRecord, Header};

/// A streaming reader of a record file: an iterator of `Result<GameRecord, DataError>` in
/// constant memory (one record's bytes at a time).
///
/// After the first error the iterator ends. A truncated last record is reported as
/// [`DataError::Truncated`] after every good record before it has been yielded.
#[derive(Debug)]
pub struct RecordReader<R: Read = BufReader<File>> {
    input: R,
    path: PathBuf,
    header: Header,
    record: u64,
    offset: u64,
    buf: Vec<u8>,
    done: bool,
}

impl RecordReader<BufReader<File>> {
    /// Opens `path` and reads its header.
    ///
    /// # Errors
    /// [`DataError::Io`], [`DataError::Empty`], [`DataError::BadMagic`],
    /// [`DataError::NewerVersion`] or [`DataError::BadHeader`].
    pub fn open(path: &Path) -> Result<RecordReader, DataError> {
        let file = File::open(path).map_err(|e| DataError::io(path, e))?;
        // A directory opens but cannot be read: say so (bad input), not "os error 21".
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(DataError::io(
                path,
                std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a directory"),
            ));
        }
        RecordReader::new(BufReader::with_capacity(1 << 16, file), path)
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(input: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

impl<R: Read> RecordReader<R> {
    /// Reads the header from `input`; `name` names the input in errors.
    ///
    /// # Errors
    /// As [`RecordReader::open`].
    pub fn new(mut input: R, name: &Path) -> Result<RecordReader<R>, DataError> {
        let path = name.to_path_buf();
        let io = |e| DataError::io(name, e);
        let bad = |what: String| DataError::BadHeader { path: name.to_path_buf(), what };
        let mut fixed = [0u8; 16];
        let n = read_full(&mut input, &mut fixed).map_err(io)?;
        if n == 0 {
            return Err(DataError::Empty { path });
        }
        let magic_len = n.min(8);
        if fixed[..magic_len] != MAGIC[..magic_len] {
            return Err(DataError::BadMagic { path, found: fixed[..magic_len].to_vec() });
        }
        if n < 16 {
            return Err(bad(format!("the file ends after {n} bytes, inside the 16-byte fixed header")));
        }
        let version = u32::from_le_bytes([fixed[8], fixed[9], fixed[10], fixed[11]]);
        if version > FORMAT_VERSION {
            return Err(DataError::NewerVersion { path, found: version, supported: FORMAT_VERSION });
        }
        if version == 0 {
            return Err(bad("format version 0 does not exist".into()));
        }
        let len = u32::from_le_bytes([fixed[12], fixed[13], fixed[14], fixed[15]]);
        if len > MAX_HEADER_LEN {
            return Err(bad(format!("header claims {len} bytes, more than the {MAX_HEADER_LEN} allowed")));
        }
        let mut crc = [0u8; 4];
        if read_full(&mut input, &mut crc).map_err(io)? < 4 {
            return Err(bad("the file ends inside the header".into()));
        }
        let mut buf = Vec::new();
        let got = (&mut input).take(u64::from(len)).read_to_end(&mut buf).map_err(io)?;
        if got < len as usize {
            return Err(bad(format!("the file ends inside the header ({got} of {len} bytes)")));
        }
        let stored = u32::from_le_bytes(crc);
        let found = crc32fast::hash(&buf);
        if stored != found {
            return Err(bad(format!("CRC32 {found:#010x} does not match the stored {stored:#010x}")));
        }
        let mut header: Header = decode_exact(&buf).map_err(bad)?;
        header.format_version = version;
        let offset = 20 + u64::from(len);
        Ok(RecordReader { input, path, header, record: 0, offset, buf, done: false })
    }

    /// The file's header.
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The file's name as given.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records read so far (the index of the next one).
    pub fn records_read(&self) -> u64 {
        self.record
    }

    /// Byte offset just after the last record read.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Reads the next record's checked payload into the internal buffer; `Ok(false)` at a
    /// clean end of file.
    fn next_payload(&mut self) -> Result<bool, DataError> {
        let io = |e| DataError::io(&self.path, e);
        let mut frame = [0u8; 8];
        let n = read_full(&mut self.input, &mut frame).map_err(io)?;
        if n == 0 {
            return Ok(false);
        }
        let (record, offset) = (self.record, self.offset);
        if n < 8 {
            return Err(DataError::Truncated {
                path: self.path.clone(),
                record,
                offset,
                missing: (8 - n) as u64,
            });
        }
        let len = u32::from_le_bytes([frame[0], frame[1], frame[2], frame[3]]);
        if len > MAX_RECORD_LEN {
            return Err(DataError::TooLong {
                path: self.path.clone(),
                record,
                offset,
                len: u64::from(len),
                max: u64::from(MAX_RECORD_LEN),
            });
        }
        self.buf.clear();
        let got = (&mut self.input).take(u64::from(len)).read_to_end(&mut self.buf).map_err(io)?;
        if got < len as usize {
            return Err(DataError::Truncated {
                path: self.path.clone(),
                record,
                offset,
                missing: u64::from(len) - got as u64,
            });
        }
        let stored = u32::from_le_bytes([frame[4], frame[5], frame[6], frame[7]]);
        let found = crc32fast::hash(&self.buf);
        if stored != found {
            return Err(DataError::Crc { path: self.path.clone(), record, offset, stored, found });
        }
        Ok(true)
    }

    /// The next record, or `None` at the end of the file (or after an error).
    ///
    /// # Errors
    /// Any damage: [`DataError::Truncated`], [`DataError::TooLong`], [`DataError::Crc`],
    /// [`DataError::Decode`], [`DataError::Io`].
    pub fn read_record(&mut self) -> Option<Result<GameRecord, DataError>> {
        self.read_record_where(&mut |_| true)
    }

    /// The next record whose game index `keep` accepts, or `None` at the end of the file (or
    /// after an error). The records it passes over are not decoded (their index is the first
    /// field of the payload), but their frames and CRCs are checked; they count in
    /// [`RecordReader::records_read`].
    ///
    /// # Errors
    /// As [`RecordReader::read_record`].
    pub fn read_record_where(
        &mut self,
        keep: &mut dyn FnMut(u64) -> bool,
    ) -> Option<Result<GameRecord, DataError>> {
        if self.done {
            return None;
        }
        loop {
            let read = self.next_payload();
            // Each record is asked about once: by its index where the payload starts with one,
            // else (a payload the decoder will judge) once decoded.
            let asked = match read {
                Ok(true) => crate::fastdecode::index(&self.buf).map(&mut *keep),
                _ => None,
            };
            match (read, asked) {
                (Ok(true), Some(false)) => {
                    self.record += 1;
                    self.offset += 8 + self.buf.len() as u64;
                }
                (Ok(true), None) => match self.finish_payload(Ok(true)) {
                    Some(Ok(r)) if !keep(r.index) => {}
                    other => return other,
                },
                (other, _) => return self.finish_payload(other),
            }
        }
    }

    /// The answer for a payload read with `outcome`: `None` at the end, the decoded record
    /// (counted as read), or the error that ends the file.
    fn finish_payload(&mut self, outcome: Result<bool, DataError>) -> Option<Result<GameRecord, DataError>> {
        match outcome {
            Ok(false) => {
                self.done = true;
                None
            }
            Ok(true) => match decode_record(&self.buf) {
                Ok(r) => {
                    self.record += 1;
                    self.offset += 8 + self.buf.len() as u64;
                    Some(Ok(r))
                }
                Err(what) => {
                    self.done = true;
                    Some(Err(DataError::Decode {
                        path: self.path.clone(),
                        record: self.record,
                        offset: self.offset,
                        what,
                    }))
                }
            },
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

impl<R: Read> Iterator for RecordReader<R> {
    type Item = Result<GameRecord, DataError>;

    fn next(&mut self) -> Option<Self::Item> {
        self.read_record()
    }
}

/// Decodes a record payload: the fast decoder, or the serde decoder when the fast one gives
/// up (to accept or name the error).
pub(crate) fn decode_record(bytes: &[u8]) -> Result<GameRecord, String> {
    match crate::fastdecode::decode(bytes) {
        Some(r) => Ok(r),
        None => decode_exact::<GameRecord>(bytes),
    }
}

/// What a full pass over a file found.
#[derive(Debug)]
pub struct Scan {
    /// The header.
    pub header: Header,
    /// Good records.
    pub records: u64,
    /// Byte offset just after the last good record.
    pub end: u64,
    /// The error that stopped the pass, if the file did not end cleanly.
    pub tail_error: Option<DataError>,
}

/// Reads a whole file, checking every record, and says where its good part ends.
///
/// # Errors
/// Errors opening the file or reading its header (record errors go to [`Scan::tail_error`]).
pub fn scan(path: &Path) -> Result<Scan, DataError> {
    let mut r = RecordReader::open(path)?;
    let mut tail_error = None;
    for rec in r.by_ref() {
        if let Err(e) = rec {
            tail_error = Some(e);
            break;
        }
    }
    Ok(Scan { header: r.header.clone(), records: r.record, end: r.offset, tail_error })
}
