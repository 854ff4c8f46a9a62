//! [`HangUpWatch`]: notices a client hanging up while its request is being answered (an
//! engine turn being computed for a page that was closed) and raises a stop flag, so that the
//! computation ends early and frees its engine slot.
//!
//! A thread peeks at the connection every [`PEEK_EVERY`]: end of file (the client closed or
//! shut down its side) or a reset means it has gone. Bytes the client sends after its request
//! are left unread.

use std::io::ErrorKind;
use std::net::TcpStream;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// How often the connection is looked at.
pub const PEEK_EVERY: Duration = Duration::from_millis(100);

/// Watches a connection until dropped; sets its flag when the client hangs up.
#[derive(Debug)]
pub struct HangUpWatch {
    done: Arc<AtomicBool>,
}

impl HangUpWatch {
    /// Watches `stream` (its read timeout is changed: read nothing more from it while
    /// watched), setting `gone` when the client hangs up. `None` when the socket cannot be
    /// shared with a thread, or no thread started: then nothing is watched.
    pub fn start(stream: &TcpStream, gone: Arc<AtomicBool>) -> Option<HangUpWatch> {
        let peer = stream.try_clone().ok()?;
        peer.set_read_timeout(Some(PEEK_EVERY)).ok()?;
        let done = Arc::new(AtomicBool::new(false));
        let until = Arc::clone(&done);
        std::thread::Builder::new()
            .name("hang-up watch".into())
            .spawn(move || watch(&peer, &gone, &until))
            .ok()?;
        Some(HangUpWatch { done })
    }
}

impl Drop for HangUpWatch {
    fn drop(&mut self) {
        self.done.store(true, Ordering::SeqCst);
    }
}

fn watch(peer: &TcpStream, gone: &AtomicBool, done: &AtomicBool) {
    let mut byte = [0u8; 1];
    while !done.load(Ordering::SeqCst) {
        match peer.peek(&mut byte) {
            Ok(0) => {
                gone.store(true, Ordering::SeqCst);
                return;
            }
            // More bytes than the request: still there; they are not read.
            Ok(_) => std::thread::sleep(PEEK_EVERY),
            Err(e)
                if matches!(
                    e.kind(),
                    ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted
                ) => {}
            Err(_) => {
                gone.store(true, Ordering::SeqCst);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::net::TcpListener;
    use std::time::Instant;

    fn pair() -> (TcpStream, TcpStream) {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let client = TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        (listener.accept().unwrap().0, client)
    }

    fn wait(flag: &AtomicBool, within: Duration) -> bool {
        let start = Instant::now();
        while start.elapsed() < within {
            if flag.load(Ordering::SeqCst) {
                return true;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        false
    }

    #[test]
    fn a_client_that_hangs_up_is_noticed() {
        let (server, client) = pair();
        let gone = Arc::new(AtomicBool::new(false));
        let watch = HangUpWatch::start(&server, Arc::clone(&gone)).unwrap();
        assert!(!wait(&gone, Duration::from_millis(300)), "a client still connected has not gone");
        drop(client);
        assert!(wait(&gone, Duration::from_secs(2)), "the hang-up was not noticed");
        drop(watch);
    }

    #[test]
    fn a_dropped_watch_sets_nothing() {
        let (server, client) = pair();
        let gone = Arc::new(AtomicBool::new(false));
        drop(HangUpWatch::start(&server, Arc::clone(&gone)).unwrap());
        std::thread::sleep(PEEK_EVERY * 2);
        drop(client);
        assert!(!wait(&gone, Duration::from_millis(300)));
    }
}
