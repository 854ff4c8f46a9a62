//! [`Timeouts`]: how long the server waits on its clients: for a request to arrive (its head,
//! then its body) and for a page to poll the analysis search it started.

use std::time::Duration;

/// The minimum transfer rate of a request body: each 64 KiB received earns a second beyond
/// [`Timeouts::request`] (the largest upload, 8 MiB, may take 10 s + 128 s when its bytes keep
/// arriving; a body that stops arriving is cut off within [`Timeouts::request`]).
pub const BODY_BYTES_PER_SEC: u64 = 64 * 1024;

/// How long the server waits on its clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Timeouts {
    /// The longest a client may take to send a request's head (request line and headers),
    /// from its connection; its body then gets as long again plus a second per
    /// [`BODY_BYTES_PER_SEC`] received (never for what `Content-Length` announces). A client over either deadline is
    /// answered 408 and its connection closed, freeing its slot. Default 10 s.
    pub request: Duration,
    /// The longest an analysis search (`POST /api/search`) runs without being polled
    /// (`GET /api/search?id=`) before it is stopped, its engine slot freed: the page that
    /// started it has gone. Default 3 s (the page polls every 250 ms; a background tab's
    /// timers fire at least once a second).
    pub search_grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Timeouts {
        Timeouts { request: Duration::from_secs(10), search_grace: Duration::from_secs(3) }
    }
}

impl Timeouts {
    /// The longest the body of `len` bytes may take, once the head is read, when it arrives at
    /// the minimum rate: [`Timeouts::request`] plus a second per [`BODY_BYTES_PER_SEC`].
    pub fn body(&self, len: u64) -> Duration {
        self.request.saturating_add(Duration::from_secs(len.div_ceil(BODY_BYTES_PER_SEC)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_get_time_in_proportion_to_their_size() {
        let t = Timeouts::default();
        assert_eq!(t.body(0), Duration::from_secs(10));
        assert_eq!(t.body(1), Duration::from_secs(11));
        assert_eq!(t.body(8 * 1024 * 1024), Duration::from_secs(10 + 128));
    }
}
