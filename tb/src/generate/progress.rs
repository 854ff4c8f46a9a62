//! How far a generation is, in units of work: each slot once when it is seeded and once more
//! when it is un-moved (a drawn one never is, so the count runs a little ahead at the end of a
//! pair and is caught up then).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use super::Event;

/// A counter of work done, shared by the workers, and the total expected.
#[derive(Debug)]
pub(crate) struct Progress {
    done: AtomicU64,
    total: u64,
}

impl Progress {
    /// Nothing done out of `total`, starting at `done` (tables found finished).
    pub fn new(done: u64, total: u64) -> Progress {
        Progress { done: AtomicU64::new(done), total }
    }

    /// Counts `n` units done.
    #[inline]
    pub fn add(&self, n: u64) {
        self.done.fetch_add(n, Ordering::Relaxed);
    }

    /// Moves the count up to `at` (the end of a pair) if it is below.
    pub fn reach(&self, at: u64) {
        self.done.fetch_max(at, Ordering::Relaxed);
    }

    /// The event saying where the work stands.
    pub fn event(&self) -> Event {
        Event::Progress { done: self.done.load(Ordering::Relaxed).min(self.total), total: self.total }
    }
}

/// Runs `work` while a reporter thread sends [`Progress::event`] to `report` four times a
/// second; returns what `work` returns.
pub(crate) fn reporting<T>(
    progress: &Progress,
    report: &(dyn Fn(&Event) + Sync),
    work: impl FnOnce() -> T,
) -> T {
    let stop = AtomicBool::new(false);
    std::thread::scope(|s| {
        let reporter = s.spawn(|| {
            while !stop.load(Ordering::Relaxed) {
                report(&progress.event());
                std::thread::park_timeout(Duration::from_millis(250));
            }
        });
        // Stops the reporter however `work` ends, a panic included (the scope waits for it).
        let _stop = Stop { flag: &stop, thread: reporter.thread().clone() };
        work()
    })
}

/// Tells the reporter thread to stop when dropped.
struct Stop<'a> {
    flag: &'a AtomicBool,
    thread: std::thread::Thread,
}

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        self.flag.store(true, Ordering::Relaxed);
        self.thread.unpark();
    }
}
