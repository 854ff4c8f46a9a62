//! A streaming `.npz` writer: numpy's archive of `.npy` arrays, a zip file whose members are
//! stored (not compressed), as `numpy.savez` writes them.
//!
//! Rows are appended column by column to anonymous temporary files (deleted by the operating
//! system whatever happens), so memory stays bounded whatever the row count; [`NpzWriter::finish`]
//! then writes the zip: for every column a local header, the `.npy` header (its shape is only
//! known at the end) and the column's bytes, then the central directory. Members, offsets or
//! totals past the 32-bit limits of zip get the zip64 extensions that Python's `zipfile`
//! reads.

use std::fs::File;
use std::io::{self, BufWriter, Seek, Write};
use std::path::Path;

use crate::npy::{self, Dtype};

/// One array of the archive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The array's name (the member is `NAME.npy`).
    pub name: &'static str,
    /// Its element type.
    pub dtype: Dtype,
    /// Elements per row: 1 gives shape `[N]`, more gives `[N, width]`.
    pub width: usize,
}

impl Column {
    /// Bytes per row.
    pub const fn row_bytes(&self) -> usize {
        self.width * self.dtype.size()
    }

    fn shape(&self, rows: u64) -> Vec<u64> {
        if self.width == 1 { vec![rows] } else { vec![rows, self.width as u64] }
    }
}

struct ColumnFile {
    spec: Column,
    file: BufWriter<File>,
    crc: crc32fast::Hasher,
    bytes: u64,
}

/// Writes an `.npz` archive of columns that grow by whole rows.
pub struct NpzWriter {
    columns: Vec<ColumnFile>,
    rows: u64,
    force_zip64: bool,
}

impl std::fmt::Debug for NpzWriter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let names: Vec<_> = self.columns.iter().map(|c| c.spec.name).collect();
        f.debug_struct("NpzWriter").field("columns", &names).field("rows", &self.rows).finish()
    }
}

/// Largest value of a zip 32-bit field; at or above it the zip64 field is used.
const ZIP32_MAX: u64 = 0xFFFF_FFFF;
/// DOS date of 1980-01-01 (the members carry no real time: the archive's bytes depend only on
/// its contents).
const DOS_DATE: u16 = (1 << 5) | 1;

impl NpzWriter {
    /// A writer of `columns`, keeping its temporaries in `temp_dir`.
    ///
    /// # Errors
    /// When a temporary file cannot be created.
    pub fn new(columns: &[Column], temp_dir: &Path) -> io::Result<NpzWriter> {
        let columns = columns
            .iter()
            .map(|&spec| {
                Ok(ColumnFile {
                    spec,
                    file: BufWriter::with_capacity(1 << 16, tempfile::tempfile_in(temp_dir)?),
                    crc: crc32fast::Hasher::new(),
                    bytes: 0,
                })
            })
            .collect::<io::Result<Vec<_>>>()?;
        Ok(NpzWriter { columns, rows: 0, force_zip64: false })
    }

    /// Writes the zip64 structures even when they are not needed (to test them on small
    /// archives).
    pub fn force_zip64(mut self) -> NpzWriter {
        self.force_zip64 = true;
        self
    }

    /// Rows written so far.
    pub fn rows(&self) -> u64 {
        self.rows
    }

    /// Appends `rows` rows: `data[k]` holds column `k`'s values for them, little endian.
    ///
    /// # Errors
    /// `InvalidInput` when a slice is not `rows` rows of its column long (nothing is written);
    /// the temporary's write error.
    pub fn append(&mut self, rows: usize, data: &[&[u8]]) -> io::Result<()> {
        let fits = data.len() == self.columns.len()
            && self.columns.iter().zip(data).all(|(c, d)| d.len() == rows * c.spec.row_bytes());
        if !fits {
            return Err(io::Error::new(io::ErrorKind::InvalidInput, "column data of the wrong length"));
        }
        for (c, d) in self.columns.iter_mut().zip(data) {
            c.file.write_all(d)?;
            c.crc.update(d);
            c.bytes += d.len() as u64;
        }
        self.rows += rows as u64;
        Ok(())
    }

    /// Writes the archive to `out`; returns its length in bytes.
    ///
    /// # Errors
    /// Reading a temporary or writing `out`.
    pub fn finish(self, out: &mut dyn Write) -> io::Result<u64> {
        let mut out = Counted { inner: out, written: 0 };
        let mut central = Vec::new();
        let count = self.columns.len() as u64;
        let mut zip64 = self.force_zip64;
        for c in self.columns {
            let header = npy::header(c.spec.dtype, &c.spec.shape(self.rows));
            let size = header.len() as u64 + c.bytes;
            let mut crc = crc32fast::Hasher::new();
            crc.update(&header);
            crc.combine(&c.crc);
            let member = Member {
                name: format!("{}.npy", c.spec.name),
                crc: crc.finalize(),
                size,
                offset: out.written,
                zip64: self.force_zip64 || size >= ZIP32_MAX || out.written >= ZIP32_MAX,
            };
            zip64 |= member.zip64;
            member.write_local(&mut out)?;
            out.write_all(&header)?;
            let mut file = c.file.into_inner().map_err(io::IntoInnerError::into_error)?;
            file.rewind()?;
            let copied = io::copy(&mut file, &mut out)?;
            if copied != c.bytes {
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, "a column's temporary file shrank"));
            }
            member.write_central(&mut central);
        }
        let cd_offset = out.written;
        let cd_size = central.len() as u64;
        out.write_all(&central)?;
        zip64 |= cd_offset >= ZIP32_MAX || cd_size >= ZIP32_MAX || count >= 0xFFFF;
        if zip64 {
            let record = out.written;
            let mut e = Vec::with_capacity(76);
            put32(&mut e, 0x0606_4b50);
            put64(&mut e, 44);
            put16(&mut e, 45);
            put16(&mut e, 45);
            put32(&mut e, 0);
            put32(&mut e, 0);
            put64(&mut e, count);
            put64(&mut e, count);
            put64(&mut e, cd_size);
            put64(&mut e, cd_offset);
            put32(&mut e, 0x0706_4b50);
            put32(&mut e, 0);
            put64(&mut e, record);
            put32(&mut e, 1);
            out.write_all(&e)?;
        }
        let mut e = Vec::with_capacity(22);
        put32(&mut e, 0x0605_4b50);
        put16(&mut e, 0);
        put16(&mut e, 0);
        let entries = if zip64 { 0xFFFF } else { count as u16 };
        put16(&mut e, entries);
        put16(&mut e, entries);
        put32(&mut e, if zip64 { u32::MAX } else { cd_size as u32 });
        put32(&mut e, if zip64 { u32::MAX } else { cd_offset as u32 });
        put16(&mut e, 0);
        out.write_all(&e)?;
        out.flush()?;
        Ok(out.written)
    }
}

/// One stored member.
struct Member {
    name: String,
    crc: u32,
    size: u64,
    offset: u64,
    zip64: bool,
}

impl Member {
    fn version(&self) -> u16 {
        if self.zip64 { 45 } else { 20 }
    }

    /// Sizes in 32 bits (the zip64 marker when they do not fit).
    fn size32(&self) -> u32 {
        if self.zip64 { u32::MAX } else { self.size as u32 }
    }

    fn write_local(&self, out: &mut dyn Write) -> io::Result<()> {
        let mut h = Vec::with_capacity(30 + self.name.len() + 20);
        put32(&mut h, 0x0403_4b50);
        put16(&mut h, self.version());
        put16(&mut h, 0); // flags
        put16(&mut h, 0); // stored
        put16(&mut h, 0); // time
        put16(&mut h, DOS_DATE);
        put32(&mut h, self.crc);
        put32(&mut h, self.size32());
        put32(&mut h, self.size32());
        put16(&mut h, self.name.len() as u16);
        put16(&mut h, if self.zip64 { 20 } else { 0 });
        h.extend_from_slice(self.name.as_bytes());
        if self.zip64 {
            put16(&mut h, 1);
            put16(&mut h, 16);
            put64(&mut h, self.size);
            put64(&mut h, self.size);
        }
        out.write_all(&h)
    }

    fn write_central(&self, h: &mut Vec<u8>) {
        put32(h, 0x0201_4b50);
        put16(h, self.version()); // made by (MS-DOS attributes)
        put16(h, self.version());
        put16(h, 0);
        put16(h, 0);
        put16(h, 0);
        put16(h, DOS_DATE);
        put32(h, self.crc);
        put32(h, self.size32());
        put32(h, self.size32());
        put16(h, self.name.len() as u16);
        put16(h, if self.zip64 { 28 } else { 0 });
        put16(h, 0); // comment
        put16(h, 0); // disk
        put16(h, 0); // internal attributes
        put32(h, 0); // external attributes
        put32(h, if self.zip64 { u32::MAX } else { self.offset as u32 });
        h.extend_from_slice(self.name.as_bytes());
        if self.zip64 {
            put16(h, 1);
            put16(h, 24);
            put64(h, self.size);
            put64(h, self.size);
            put64(h, self.offset);
        }
    }
}

fn put16(v: &mut Vec<u8>, x: u16) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn put32(v: &mut Vec<u8>, x: u32) {
    v.extend_from_slice(&x.to_le_bytes());
}

fn put64(v: &mut Vec<u8>, x: u64) {
    v.extend_from_slice(&x.to_le_bytes());
}

/// A writer that counts the bytes through it.
struct Counted<'a> {
    inner: &'a mut dyn Write,
    written: u64,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.written += n as u64;
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const COLS: [Column; 2] =
        [Column { name: "a", dtype: Dtype::U8, width: 3 }, Column { name: "b", dtype: Dtype::I32, width: 1 }];

    fn archive(force_zip64: bool) -> Vec<u8> {
        let dir = tempfile::tempdir().unwrap();
        let mut w = NpzWriter::new(&COLS, dir.path()).unwrap();
        if force_zip64 {
            w = w.force_zip64();
        }
        w.append(2, &[&[1, 2, 3, 4, 5, 6], &[7, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]]).unwrap();
        assert!(w.append(1, &[&[1, 2], &[0; 4]]).is_err(), "short row refused");
        assert_eq!(w.rows(), 2);
        let mut out = Vec::new();
        let n = w.finish(&mut out).unwrap();
        assert_eq!(n, out.len() as u64);
        out
    }

    /// The member named `name`: (crc, data) read back through the central directory.
    fn member(zip: &[u8], name: &str) -> (u32, Vec<u8>) {
        let u16_at = |i: usize| u16::from_le_bytes([zip[i], zip[i + 1]]) as usize;
        let u32_at = |i: usize| u32::from_le_bytes([zip[i], zip[i + 1], zip[i + 2], zip[i + 3]]);
        // The local header: its signature, with the name at offset 30.
        let local = (0..zip.len() - 30)
            .find(|&i| {
                u32_at(i) == 0x0403_4b50 && zip.get(i + 30..i + 30 + name.len()) == Some(name.as_bytes())
            })
            .unwrap();
        let crc = u32_at(local + 14);
        let mut size = u32_at(local + 18) as u64;
        let extra = u16_at(local + 28);
        let start = local + 30 + name.len() + extra;
        if size == u64::from(u32::MAX) {
            let e = local + 30 + name.len();
            size = u64::from_le_bytes(zip[e + 4..e + 12].try_into().unwrap());
        }
        (crc, zip[start..start + size as usize].to_vec())
    }

    #[test]
    fn members_hold_npy_arrays_with_their_crcs() {
        for force in [false, true] {
            let zip = archive(force);
            assert_eq!(&zip[..4], b"PK\x03\x04");
            let (crc, a) = member(&zip, "a.npy");
            assert_eq!(crc, crc32fast::hash(&a));
            let header = npy::header(Dtype::U8, &[2, 3]);
            assert_eq!(&a[..header.len()], &header[..]);
            assert_eq!(&a[header.len()..], &[1, 2, 3, 4, 5, 6]);
            let (crc, b) = member(&zip, "b.npy");
            assert_eq!(crc, crc32fast::hash(&b));
            assert_eq!(&b[b.len() - 8..], &[7, 0, 0, 0, 0xff, 0xff, 0xff, 0xff]);
            let eocd = zip.len() - 22;
            assert_eq!(&zip[eocd..eocd + 4], b"PK\x05\x06");
            if force {
                assert_eq!(&zip[eocd - 20..eocd - 16], b"PK\x06\x07");
            }
        }
    }
}
