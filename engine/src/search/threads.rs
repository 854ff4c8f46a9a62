//! How many threads a search may use, and how the helper threads of a shared-table (Lazy SMP)
//! search vary their iterations.

/// The most threads a spec or option may ask for, whatever the machine.
pub const MAX_THREADS: usize = 256;

/// A thread count that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ThreadsError {
    /// No thread at all.
    #[error("threads must be at least 1, got 0")]
    Zero,
    /// More threads than the machine runs at once.
    #[error("{asked} threads is more than the {available} this machine runs at once")]
    TooMany {
        /// The count asked for.
        asked: usize,
        /// What the machine has (`std::thread::available_parallelism`, or [`MAX_THREADS`] when
        /// it cannot tell).
        available: usize,
    },
}

impl ThreadsError {
    /// Always `true`: the count comes from the caller (an option or a spec).
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// The threads this machine runs at once (at most [`MAX_THREADS`]; [`MAX_THREADS`] when the
/// system cannot tell).
pub fn available_threads() -> usize {
    std::thread::available_parallelism().map_or(MAX_THREADS, |n| n.get().min(MAX_THREADS))
}

/// Checks a thread count against this machine.
///
/// # Errors
/// [`ThreadsError`] for 0 or more than [`available_threads`].
pub fn check_threads(asked: usize) -> Result<usize, ThreadsError> {
    let available = available_threads();
    match asked {
        0 => Err(ThreadsError::Zero),
        n if n > available => Err(ThreadsError::TooMany { asked, available }),
        n => Ok(n),
    }
}

/// Stockfish's skip pattern: helper `id` (1 and up; the main thread, 0, skips nothing) leaves
/// out some iterations, so that the helpers run ahead of the main thread at staggered depths
/// and fill the shared table with results it will want.
const SKIP_SIZE: [u32; 20] = [1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 4, 4];
const SKIP_PHASE: [u32; 20] = [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 6, 7];

/// Whether thread `id` skips the iteration at `depth`.
pub fn skips(id: usize, depth: u32) -> bool {
    if id == 0 || depth <= 1 {
        return false;
    }
    let i = (id - 1) % SKIP_SIZE.len();
    ((depth + SKIP_PHASE[i]) / SKIP_SIZE[i]) % 2 == 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_checked_against_the_machine() {
        assert_eq!(check_threads(0), Err(ThreadsError::Zero));
        assert_eq!(check_threads(1), Ok(1));
        let n = available_threads();
        assert_eq!(check_threads(n), Ok(n));
        let e = check_threads(n + 1).unwrap_err();
        assert_eq!(e, ThreadsError::TooMany { asked: n + 1, available: n });
        assert!(e.to_string().contains("more than the"), "{e}");
    }

    #[test]
    fn helpers_stagger_their_depths() {
        assert!((1..30).all(|d| !skips(0, d)));
        // The first helper searches the even depths (after depth 1), the second the odd ones.
        assert_eq!((2..8).filter(|&d| !skips(1, d)).collect::<Vec<_>>(), [2, 4, 6]);
        assert_eq!((2..8).filter(|&d| !skips(2, d)).collect::<Vec<_>>(), [3, 5, 7]);
        assert!(!skips(1, 1) && !skips(2, 1));
    }
}
