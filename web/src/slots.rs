//! [`EngineSlots`]: how many engine computations (a turn of `POST /api/engine`, a search of
//! `POST /api/search`) run at once. One counter for the whole server; a computation holds a
//! [`Slot`] while it runs and gives it back when the slot is dropped, even on a panic.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use crate::error::ApiError;

/// Engine computations running at once at most.
pub const MAX_ENGINES: usize = 2;

/// The server's engine slots.
#[derive(Debug, Clone)]
pub struct EngineSlots {
    running: Arc<AtomicUsize>,
    max: usize,
}

impl Default for EngineSlots {
    fn default() -> EngineSlots {
        EngineSlots::new(MAX_ENGINES)
    }
}

/// One running engine computation; dropping it frees the slot.
#[derive(Debug)]
#[must_use = "the slot is free again as soon as it is dropped"]
pub struct Slot {
    running: Arc<AtomicUsize>,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.running.fetch_sub(1, Ordering::SeqCst);
    }
}

impl EngineSlots {
    /// Slots for `max` computations at once.
    pub fn new(max: usize) -> EngineSlots {
        EngineSlots { running: Arc::new(AtomicUsize::new(0)), max }
    }

    /// Computations running now.
    pub fn running(&self) -> usize {
        self.running.load(Ordering::SeqCst)
    }

    /// The most computations at once.
    pub fn max(&self) -> usize {
        self.max
    }

    /// A slot, if one is free; never waits.
    ///
    /// # Errors
    /// 503 when every slot is taken.
    pub fn acquire(&self) -> Result<Slot, ApiError> {
        let taken = self
            .running
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < self.max).then_some(n + 1));
        match taken {
            Ok(_) => Ok(Slot { running: Arc::clone(&self.running) }),
            Err(n) => Err(ApiError::busy(format!(
                "the engine is busy with {n} other {}: try again in a moment",
                if n == 1 { "search" } else { "searches" }
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_bounded_and_given_back_on_drop() {
        let slots = EngineSlots::new(2);
        let a = slots.acquire().unwrap();
        let b = slots.acquire().unwrap();
        let e = slots.acquire().unwrap_err();
        assert_eq!(e.status, 503);
        assert_eq!(e.message, "the engine is busy with 2 other searches: try again in a moment");
        drop(a);
        assert_eq!(slots.running(), 1);
        let c = slots.acquire().unwrap();
        drop((b, c));
        assert_eq!(slots.running(), 0);
        let caught = std::panic::catch_unwind(|| {
            let _held = slots.acquire().unwrap();
            panic!("a failing search");
        });
        assert!(caught.is_err());
        assert_eq!(slots.running(), 0);
    }
}
