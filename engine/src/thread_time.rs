//! The processor time of the calling thread: what a benchmark should divide by on a shared
//! machine, where wall-clock time also counts the time the thread waited for a core.
//!
//! Read from Linux's `/proc/thread-self/schedstat` (its first field is the nanoseconds the
//! thread has run), which needs neither `unsafe` nor a C library binding. Elsewhere, or when
//! the file cannot be read, there is no figure and callers fall back to wall-clock time.

use std::time::Duration;

/// The time the calling thread has spent running, or `None` where it cannot be read.
pub fn thread_cpu_time() -> Option<Duration> {
    if !cfg!(target_os = "linux") {
        return None;
    }
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    parse_schedstat(&text)
}

/// The run time in a `schedstat` line (`run_ns wait_ns timeslices`).
fn parse_schedstat(text: &str) -> Option<Duration> {
    text.split_ascii_whitespace().next()?.parse().ok().map(Duration::from_nanos)
}

/// Measures `f` by wall clock and by the calling thread's processor time (`None` where that
/// cannot be read).
pub fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration, Option<Duration>) {
    let cpu_before = thread_cpu_time();
    let start = std::time::Instant::now();
    let value = f();
    let wall = start.elapsed();
    let cpu = cpu_before.zip(thread_cpu_time()).map(|(a, b)| b.saturating_sub(a));
    (value, wall, cpu)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedstat_lines_parse() {
        assert_eq!(parse_schedstat("496814219 72537 32\n"), Some(Duration::from_nanos(496_814_219)));
        assert_eq!(parse_schedstat(""), None);
        assert_eq!(parse_schedstat("x 1 2"), None);
    }

    #[test]
    fn a_busy_thread_accumulates_time_and_a_sleeping_one_does_not() {
        // On Linux the figure must be there; elsewhere there is none, and nothing to measure.
        if !cfg!(target_os = "linux") {
            assert_eq!(thread_cpu_time(), None);
            return;
        }
        assert!(thread_cpu_time().is_some(), "/proc/thread-self/schedstat cannot be read on Linux");
        let (sum, _, busy) =
            timed(|| (0..20_000_000u64).fold(0u64, |s, i| s.wrapping_add(std::hint::black_box(i) * i)));
        assert_ne!(sum, 1);
        let (_, wall, asleep) = timed(|| std::thread::sleep(Duration::from_millis(50)));
        let (busy, asleep) = (busy.unwrap_or_default(), asleep.unwrap_or_default());
        assert!(busy > Duration::ZERO, "{busy:?}");
        // Sleeping takes wall time but (almost) no processor time.
        assert!(wall >= Duration::from_millis(50) && asleep < wall / 2, "{asleep:?} of {wall:?}");
    }
}
