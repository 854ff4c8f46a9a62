//! The `.npy` array header (numpy's format version 1.0): magic, version, a padded Python dict
//! literal giving the dtype, the order and the shape.
//!
//! Reference: `numpy.lib.format`. The header (magic to the closing newline) is a multiple of
//! 64 bytes, so the data that follows is aligned for every dtype.

/// The element types the exports use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dtype {
    /// `uint8`.
    U8,
    /// `int8`.
    I8,
    /// `bool` (one byte, 0 or 1).
    Bool,
    /// `uint16`, little endian.
    U16,
    /// `int32`, little endian.
    I32,
    /// `uint32`, little endian.
    U32,
    /// `uint64`, little endian.
    U64,
    /// `float32`, little endian.
    F32,
}

impl Dtype {
    /// numpy's type string (`descr`).
    pub const fn descr(self) -> &'static str {
        match self {
            Dtype::U8 => "|u1",
            Dtype::I8 => "|i1",
            Dtype::Bool => "|b1",
            Dtype::U16 => "<u2",
            Dtype::I32 => "<i4",
            Dtype::U32 => "<u4",
            Dtype::U64 => "<u8",
            Dtype::F32 => "<f4",
        }
    }

    /// Bytes per element.
    pub const fn size(self) -> usize {
        match self {
            Dtype::U8 | Dtype::I8 | Dtype::Bool => 1,
            Dtype::U16 => 2,
            Dtype::I32 | Dtype::U32 | Dtype::F32 => 4,
            Dtype::U64 => 8,
        }
    }
}

/// The `.npy` magic: `\x93NUMPY`.
pub const NPY_MAGIC: &[u8; 6] = b"\x93NUMPY";

/// The header of a C-order array of `dtype` with `shape`, padded with spaces to a multiple of
/// 64 bytes and ended by a newline (format version 1.0: the dict is far below its 65535-byte
/// limit for any shape of a few dimensions).
pub fn header(dtype: Dtype, shape: &[u64]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(u64::to_string).collect();
    // A 1-tuple needs its trailing comma: `(5,)`.
    let shape = if dims.len() == 1 { format!("({},)", dims[0]) } else { format!("({})", dims.join(", ")) };
    let mut dict = format!("{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}", dtype.descr());
    let unpadded = NPY_MAGIC.len() + 2 + 2 + dict.len() + 1;
    dict.extend(std::iter::repeat_n(' ', unpadded.next_multiple_of(64) - unpadded));
    dict.push('\n');
    let mut out = Vec::with_capacity(10 + dict.len());
    out.extend_from_slice(NPY_MAGIC);
    out.extend_from_slice(&[1, 0]);
    // At most a few hundred bytes: fits the u16 of version 1.0.
    out.extend_from_slice(&(dict.len() as u16).to_le_bytes());
    out.extend_from_slice(dict.as_bytes());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_aligned_and_readable() {
        let h = header(Dtype::U8, &[3, 90]);
        assert_eq!(h.len() % 64, 0);
        assert_eq!(&h[..8], b"\x93NUMPY\x01\x00");
        let len = u16::from_le_bytes([h[8], h[9]]) as usize;
        assert_eq!(10 + len, h.len());
        let text = std::str::from_utf8(&h[10..]).unwrap();
        assert!(text.starts_with("{'descr': '|u1', 'fortran_order': False, 'shape': (3, 90), }"), "{text}");
        assert!(text.ends_with(" \n"));
        let h = header(Dtype::F32, &[7]);
        assert!(std::str::from_utf8(&h[10..]).unwrap().contains("'shape': (7,)"));
        assert_eq!(h.len() % 64, 0);
        assert_eq!(Dtype::U64.size(), 8);
    }
}
