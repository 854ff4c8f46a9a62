//! [`RecordWriter`]: writes a header and then game records, one framed record at a time.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::codec::{encode_into, frame};
use crate::header::{FORMAT_VERSION, MAGIC, MAX_RECORD_LEN};
use crate::reader::scan;
use crate::{DataError, GameRecord, Header};

/// A streaming writer of a record file: buffered, constant memory.
///
/// Records are complete on disk only after [`RecordWriter::flush`] or
/// [`RecordWriter::finish`]; a writer killed at any moment leaves a file whose every flushed
/// record is intact and whose tail, at worst, is a truncated record that
/// [`RecordWriter::append`] removes.
#[derive(Debug)]
pub struct RecordWriter<W: Write = BufWriter<File>> {
    out: W,
    path: PathBuf,
    records: u64,
    buf: Vec<u8>,
}

/// What [`RecordWriter::append`] found in the existing file.
#[derive(Debug)]
pub struct AppendInfo {
    /// The file's header.
    pub header: Header,
    /// Good records kept.
    pub records: u64,
    /// Bytes of a truncated last record that were cut off (0 when the file was whole).
    pub repaired_bytes: u64,
}

impl RecordWriter<BufWriter<File>> {
    /// Creates (or truncates) `path` and writes `header` to it. The header is flushed and,
    /// for a regular file, synced to disk before this returns: a writer killed at any later
    /// moment leaves a file that [`RecordWriter::append`] continues.
    ///
    /// # Errors
    /// [`DataError::Io`] when the file cannot be created or written.
    pub fn create(path: &Path, header: &Header) -> Result<RecordWriter, DataError> {
        let file = File::create(path).map_err(|e| DataError::io(path, e))?;
        let mut w = RecordWriter::new(BufWriter::with_capacity(1 << 16, file), path, header)?;
        w.flush()?;
        let file = w.out.get_ref();
        // FIFOs and devices (`/dev/null`) cannot be synced, and need not be.
        if file.metadata().is_ok_and(|m| m.is_file()) {
            file.sync_data().map_err(|e| DataError::io(path, e))?;
        }
        Ok(w)
    }

    /// The bytes [`RecordWriter::create`] writes before any record: a file holding a prefix
    /// of them (nothing, or a header cut short by a power loss) holds no game yet.
    ///
    /// # Errors
    /// As [`RecordWriter::new`].
    pub fn header_bytes(header: &Header) -> Result<Vec<u8>, DataError> {
        Ok(RecordWriter::new(Vec::new(), Path::new("header"), header)?.out)
    }

    /// Opens an existing record file to add records after its last good one: a truncated last
    /// record (a killed writer) is cut off first. Any other damage is an error.
    ///
    /// # Errors
    /// Any [`DataError`] of reading the file other than a truncated last record, or I/O errors.
    pub fn append(path: &Path) -> Result<(RecordWriter, AppendInfo), DataError> {
        let s = scan(path)?;
        if let Some(e) = s.tail_error
            && !e.is_truncation()
        {
            return Err(e);
        }
        let mut file = OpenOptions::new().write(true).open(path).map_err(|e| DataError::io(path, e))?;
        let len = file.metadata().map_err(|e| DataError::io(path, e))?.len();
        file.set_len(s.end).map_err(|e| DataError::io(path, e))?;
        file.seek(SeekFrom::Start(s.end)).map_err(|e| DataError::io(path, e))?;
        let w = RecordWriter {
            out: BufWriter::with_capacity(1 << 16, file),
            path: path.to_path_buf(),
            records: s.records,
            buf: Vec::new(),
        };
        Ok((w, AppendInfo { header: s.header, records: s.records, repaired_bytes: len - s.end }))
    }
}

impl<W: Write> RecordWriter<W> {
    /// Writes `header` to `out`; `name` names the output in errors.
    ///
    /// # Errors
    /// [`DataError::Io`] when writing fails, [`DataError::Encode`] when the header is absurdly
    /// large.
    pub fn new(mut out: W, name: &Path, header: &Header) -> Result<RecordWriter<W>, DataError> {
        let mut buf = Vec::new();
        encode_into(header, &mut buf).map_err(|what| DataError::BadHeader { path: name.into(), what })?;
        if buf.len() > crate::header::MAX_HEADER_LEN as usize {
            return Err(DataError::BadHeader {
                path: name.into(),
                what: format!("header of {} bytes is larger than the 1 MiB allowed", buf.len()),
            });
        }
        let io = |e| DataError::io(name, e);
        out.write_all(&MAGIC).map_err(io)?;
        out.write_all(&FORMAT_VERSION.to_le_bytes()).map_err(io)?;
        out.write_all(&frame(&buf)).map_err(io)?;
        out.write_all(&buf).map_err(io)?;
        Ok(RecordWriter { out, path: name.to_path_buf(), records: 0, buf })
    }

    /// Appends one record.
    ///
    /// # Errors
    /// [`DataError::Io`] when writing fails; [`DataError::Encode`] when the record is larger
    /// than the format allows.
    pub fn write(&mut self, record: &GameRecord) -> Result<(), DataError> {
        let enc = |what| DataError::Encode { path: self.path.clone(), record: self.records, what };
        encode_into(record, &mut self.buf).map_err(enc)?;
        if self.buf.len() > MAX_RECORD_LEN as usize {
            return Err(DataError::Encode {
                path: self.path.clone(),
                record: self.records,
                what: format!("{} bytes is more than the {MAX_RECORD_LEN} a record may have", self.buf.len()),
            });
        }
        let io = |e| DataError::io(&self.path, e);
        self.out.write_all(&frame(&self.buf)).map_err(io)?;
        self.out.write_all(&self.buf).map_err(io)?;
        self.records += 1;
        Ok(())
    }

    /// Records in the file so far (those kept by [`RecordWriter::append`] included).
    pub fn records(&self) -> u64 {
        self.records
    }

    /// Pushes buffered records to the operating system, so that they survive the process
    /// being killed.
    ///
    /// # Errors
    /// [`DataError::Io`].
    pub fn flush(&mut self) -> Result<(), DataError> {
        self.out.flush().map_err(|e| DataError::io(&self.path, e))
    }

    /// Flushes and returns the underlying writer and the number of records.
    ///
    /// # Errors
    /// [`DataError::Io`].
    pub fn finish(mut self) -> Result<(W, u64), DataError> {
        self.flush()?;
        Ok((self.out, self.records))
    }
}
