//! [`read_line`]: one line of a protocol stream, bounded in length, whatever its bytes.

use std::io::{self, BufRead};

/// The longest line accepted, in bytes: room for a `position ... moves` line of two million
/// turns, and a bound on what a peer that never sends a newline can make us hold.
pub const MAX_LINE: usize = 32 << 20;

/// One line read by [`read_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line (without its `\n` or `\r\n`).
    Text(String),
    /// A line that is not UTF-8 (skipped).
    NotUtf8,
    /// More than the bound without a newline: those bytes were dropped, and the rest of the
    /// line is what the next calls read (see [`LineReader`] to skip it).
    TooLong,
    /// The end of the input.
    End,
}

/// Reads the next line of `input`, holding at most `max` bytes of it: a longer line is
/// reported as [`Line::TooLong`] as soon as it passes the bound, without waiting for its end.
///
/// # Errors
/// When `input` cannot be read.
pub fn read_line(input: &mut impl BufRead, max: usize) -> io::Result<Line> {
    let mut buf = Vec::new();
    loop {
        let chunk = match input.fill_buf() {
            Ok(c) => c,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            if buf.is_empty() {
                return Ok(Line::End);
            }
            break;
        }
        let (take, newline) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let over = buf.len() + take > max + 1;
        if !over {
            buf.extend_from_slice(&chunk[..take]);
        }
        input.consume(take);
        if over {
            return Ok(Line::TooLong);
        }
        if newline {
            break;
        }
    }
    while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
        buf.pop();
    }
    Ok(String::from_utf8(buf).map_or(Line::NotUtf8, Line::Text))
}

/// [`read_line`] that skips the rest of an over-long line: each line of the input gives one
/// [`Line`], an over-long one a single [`Line::TooLong`].
#[derive(Debug)]
pub struct LineReader<R> {
    input: R,
    max: usize,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of `input` of at most `max` bytes.
    pub fn new(input: R, max: usize) -> LineReader<R> {
        LineReader { input, max }
    }

    /// The next line.
    ///
    /// # Errors
    /// When the input cannot be read.
    pub fn next_line(&mut self) -> io::Result<Line> {
        let line = read_line(&mut self.input, self.max)?;
        if line == Line::TooLong {
            // Drop the rest of it, up to and including its newline.
            while read_line(&mut self.input, self.max)? == Line::TooLong {}
        }
        Ok(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn lines_bytes_and_bounds() {
        let mut input: &[u8] = b"isready\r\nbad \xff byte\nxxxxxxxxxxxxxxxxxxxx\nquit";
        assert_eq!(read_line(&mut input, 16).unwrap(), Line::Text("isready".into()));
        assert_eq!(read_line(&mut input, 16).unwrap(), Line::NotUtf8);
        assert_eq!(read_line(&mut input, 16).unwrap(), Line::TooLong);
        assert_eq!(read_line(&mut input, 16).unwrap(), Line::Text("quit".into()));
        assert_eq!(read_line(&mut input, 16).unwrap(), Line::End);
    }

    #[test]
    fn an_endless_line_is_reported_at_the_bound() {
        // An endless line: reported as soon as it passes the bound.
        let mut input = io::BufReader::with_capacity(4096, io::repeat(b'x'));
        assert_eq!(read_line(&mut input, 1024).unwrap(), Line::TooLong);
        // 64 MiB of 'x' then a command: one TooLong, then the command.
        let long = io::repeat(b'x').take(64 << 20).chain(&b"\nquit\n"[..]);
        let mut lines = LineReader::new(io::BufReader::with_capacity(4096, long), 1024);
        assert_eq!(lines.next_line().unwrap(), Line::TooLong);
        assert_eq!(lines.next_line().unwrap(), Line::Text("quit".into()));
        assert_eq!(lines.next_line().unwrap(), Line::End);
    }
}
