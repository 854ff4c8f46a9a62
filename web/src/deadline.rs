//! [`DeadlineReader`]: reads from a socket until a deadline for the whole exchange, not per
//! read: before each read the socket's read timeout is set to the time left, so a client that
//! trickles a byte now and then cannot hold its connection past the deadline.

use std::io::{ErrorKind, Read};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Reads `stream` until `until`; a read past it fails with [`ErrorKind::TimedOut`].
#[derive(Debug)]
pub struct DeadlineReader<'a> {
    stream: &'a TcpStream,
    until: Instant,
    /// With a pace, each byte read moves the deadline later by `1 / pace` s: a minimum
    /// transfer rate, the time earned by what arrives, never by what is announced.
    pace: Option<u64>,
}

impl<'a> DeadlineReader<'a> {
    /// Reads `stream` until `until`.
    pub fn new(stream: &'a TcpStream, until: Instant) -> DeadlineReader<'a> {
        DeadlineReader { stream, until, pace: None }
    }

    /// Sets the deadline to `until`, moved later by a second for every `bytes_per_sec` bytes
    /// read from now on.
    pub fn set_pace(&mut self, until: Instant, bytes_per_sec: u64) {
        self.until = until;
        self.pace = Some(bytes_per_sec.max(1));
    }

    /// Moves the deadline (later, for a body, or earlier).
    pub fn set_deadline(&mut self, until: Instant) {
        self.until = until;
    }
}

fn timed_out() -> std::io::Error {
    std::io::Error::new(ErrorKind::TimedOut, "the request took too long to arrive")
}

impl Read for DeadlineReader<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let left = self.until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(timed_out());
            }
            // A zero timeout would mean none: wait at least a millisecond.
            self.stream.set_read_timeout(Some(left.max(Duration::from_millis(1))))?;
            match (&mut &*self.stream).read(buf) {
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {
                    if Instant::now() >= self.until {
                        return Err(timed_out());
                    }
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Ok(n) => {
                    if let Some(rate) = self.pace {
                        let earned = Duration::from_nanos((n as u64).saturating_mul(1_000_000_000) / rate);
                        self.until += earned;
                    }
                    return Ok(n);
                }
                r => return r,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::io::Write;
    use std::net::TcpListener;

    #[test]
    fn a_trickle_is_cut_off_at_the_deadline() {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap();
        let writer = std::thread::spawn(move || {
            let mut c = TcpStream::connect(addr).unwrap();
            for _ in 0..20 {
                if c.write_all(b"x").is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let (server, _) = listener.accept().unwrap();
        let start = Instant::now();
        let mut r = DeadlineReader::new(&server, start + Duration::from_millis(300));
        let mut buf = [0u8; 1];
        let mut got = 0;
        let err = loop {
            match r.read(&mut buf) {
                Ok(n) => got += n,
                Err(e) => break e,
            }
        };
        assert_eq!(err.kind(), ErrorKind::TimedOut);
        assert!(got >= 1, "{got}");
        let took = start.elapsed();
        assert!(took >= Duration::from_millis(300) && took < Duration::from_millis(900), "{took:?}");
        drop(server);
        writer.join().unwrap();
    }
}
