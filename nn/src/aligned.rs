//! Buffers whose first value starts a cache line.
//!
//! The SIMD kernels load 32 or 64 bytes at a time from the first layer's rows and the
//! accumulators. A `Vec`'s memory is only aligned to its element (and `malloc`'s 16 bytes),
//! so with a row width that is a multiple of 64 bytes every load could straddle two cache
//! lines, or not, depending on where the allocator put the buffer: the same binary ran its
//! network search up to 1.4x slower from one run to the next. [`Aligned`] puts the values on a
//! 64-byte boundary inside a slightly larger `Vec` (safe code: [`pointer::align_offset`]).

use std::ops::{Deref, DerefMut};

/// Bytes of a cache line (and of an AVX-512 register).
const LINE: usize = 64;

/// A fixed-length buffer of `T` whose first value sits on a 64-byte boundary; it derefs to a
/// slice.
#[derive(Debug)]
pub struct Aligned<T> {
    buf: Vec<T>,
    start: usize,
    len: usize,
}

impl<T: Copy + Default> Aligned<T> {
    /// `len` copies of `value`.
    pub fn filled(len: usize, value: T) -> Aligned<T> {
        let spare = LINE / size_of::<T>().max(1);
        let buf = vec![value; len + spare];
        // align_offset may decline (usize::MAX); the buffer is then used unaligned.
        let offset = buf.as_ptr().align_offset(LINE);
        let start = if offset < spare { offset } else { 0 };
        Aligned { buf, start, len }
    }

    /// A copy of `values`.
    pub fn from_slice(values: &[T]) -> Aligned<T> {
        let mut a = Aligned::filled(values.len(), T::default());
        a.copy_from_slice(values);
        a
    }

    /// Changes the length to `len`, keeping the values that fit and filling new ones with
    /// `value` (a new allocation, aligned again).
    pub fn resize(&mut self, len: usize, value: T) {
        let mut grown = Aligned::filled(len, value);
        let kept = len.min(self.len);
        grown[..kept].copy_from_slice(&self[..kept]);
        *self = grown;
    }
}

impl<T: Copy + Default> Clone for Aligned<T> {
    fn clone(&self) -> Aligned<T> {
        Aligned::from_slice(self)
    }
}

impl<T> Default for Aligned<T> {
    /// An empty buffer (no allocation).
    fn default() -> Aligned<T> {
        Aligned { buf: Vec::new(), start: 0, len: 0 }
    }
}

impl<T> Deref for Aligned<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        &self.buf[self.start..self.start + self.len]
    }
}

impl<T> DerefMut for Aligned<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.buf[self.start..self.start + self.len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn is_aligned<T>(s: &[T]) -> bool {
        (s.as_ptr() as usize).is_multiple_of(LINE)
    }

    #[test]
    fn values_start_a_cache_line_and_keep_their_length() {
        for len in [0, 1, 31, 32, 33, 256, 90 * 256] {
            let a = Aligned::filled(len, 7i16);
            assert!(is_aligned(&a), "len {len}");
            assert_eq!(a.len(), len);
            assert!(a.iter().all(|&v| v == 7));
            let b = Aligned::filled(len, 1u8);
            assert!(is_aligned(&b) && b.len() == len);
        }
    }

    #[test]
    fn clones_and_resizes_are_aligned_and_keep_the_values() {
        let v: Vec<i16> = (0..100).collect();
        let a = Aligned::from_slice(&v);
        let c = a.clone();
        assert!(is_aligned(&c));
        assert_eq!(&c[..], &v[..]);
        let mut r = a.clone();
        r.resize(150, -1);
        assert!(is_aligned(&r));
        assert_eq!(&r[..100], &v[..]);
        assert!(r[100..].iter().all(|&x| x == -1));
        r.resize(10, 0);
        assert_eq!(&r[..], &v[..10]);
    }
}
