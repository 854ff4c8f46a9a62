//! How much memory a generation needs, and how it keeps within a bound.
//!
//! Each signature is solved with its swapped twin (a "pair"). The working set of a pair is its
//! state bytes, one per slot of each table, plus, in [`Mode::Counters`], one counter byte per
//! slot; the tables of fewer stones stay in memory beside it (captures lead into them). The
//! largest seven-stone pair, 4v3 with 3v4, has 801 million slots: 1.6 GB with counters, 0.8 GB
//! without, beside 0.15 GB of six-stone tables.

use crate::index::Indexer;
use crate::{Signature, TbError};

/// How a pair's positions wait for their value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// A counter of undecided successors per position (two bytes a slot): a won successor
    /// takes one off, and a position whose counter reaches zero is lost. The fastest.
    Counters,
    /// No counters (one byte a slot): when a successor is won, the predecessor's successors
    /// are generated again to see whether all are won. Half the memory, more computing.
    Lean,
}

impl Mode {
    /// `"counters"` or `"lean"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Mode::Counters => "counters",
            Mode::Lean => "lean",
        }
    }

    /// Working bytes per slot in this mode.
    pub const fn bytes_per_slot(self) -> u64 {
        match self {
            Mode::Counters => 2,
            Mode::Lean => 1,
        }
    }
}

/// One signature (with its twin) to solve, and what it needs.
#[derive(Debug, Clone)]
pub struct PairPlan {
    /// The signature and its twin (one signature when both sides have as many stones).
    pub sigs: Vec<Signature>,
    /// Slots of the pair's tables together.
    pub slots: u64,
    /// How it will be solved.
    pub mode: Mode,
    /// Bytes of the tables of fewer stones held in memory meanwhile.
    pub resident: u64,
}

impl PairPlan {
    /// Stones in all.
    pub fn stones(&self) -> u32 {
        self.sigs[0].stones()
    }

    /// The working set while the pair is solved, in bytes (state, counters and the smaller
    /// tables; the numbering's few hundred kilobytes aside).
    pub fn bytes(&self) -> u64 {
        self.slots * self.mode.bytes_per_slot() + self.resident
    }
}

/// The pairs of a generation up to `stones`, smaller totals first, each in the fastest mode
/// that fits `memory` bytes (no bound: [`Mode::Counters`]).
///
/// # Errors
/// [`TbError::MemoryTooSmall`] when a pair does not fit even without counters.
pub fn plan_memory(stones: u32, memory: Option<u64>) -> Result<Vec<PairPlan>, TbError> {
    let mut plans = Vec::new();
    let mut resident_below = [0u64; crate::MAX_TB_STONES as usize + 2];
    for sig in Signature::up_to(stones).filter(|s| s.us() >= s.them()) {
        let sigs = if sig.us() == sig.them() { vec![sig] } else { vec![sig, sig.swapped()] };
        let slots: u64 = sigs.iter().map(|&s| Indexer::new(s).len()).sum();
        let total = sig.stones() as usize;
        let resident: u64 = resident_below[..total].iter().sum();
        resident_below[total] += slots;
        let mut plan = PairPlan { sigs, slots, mode: Mode::Counters, resident };
        if let Some(limit) = memory
            && plan.bytes() > limit
        {
            plan.mode = Mode::Lean;
            if plan.bytes() > limit {
                return Err(TbError::MemoryTooSmall { sig, needed: plan.bytes(), limit });
            }
        }
        plans.push(plan);
    }
    Ok(plans)
}

/// The most resident memory this process has used so far, in bytes (Linux: `VmHWM` of
/// `/proc/self/status`; `None` elsewhere).
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plans_fit_the_bound_or_refuse() {
        let free = plan_memory(4, None).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(free.len(), 1 + 1 + 2, "1v1, 2v1+1v2, 3v1+1v3, 2v2");
        assert!(free.iter().all(|p| p.mode == Mode::Counters));
        let last = &free[free.len() - 1];
        assert_eq!(last.sigs, [Signature::new(2, 2).unwrap_or_else(|| unreachable!())]);
        // The 3-stone pair's slots are resident while the 4-stone ones are solved.
        assert_eq!(last.resident, free[0].slots + free[1].slots);
        // The largest pair in lean mode is the least memory a generation to 4 stones needs.
        let biggest = free.iter().max_by_key(|p| p.slots + p.resident).unwrap_or_else(|| unreachable!());
        let lean = biggest.slots + biggest.resident;
        let tight = plan_memory(4, Some(lean)).unwrap_or_else(|e| panic!("{e}"));
        let squeezed = tight.iter().find(|p| p.sigs == biggest.sigs).unwrap_or_else(|| unreachable!());
        assert_eq!(squeezed.mode, Mode::Lean);
        assert!(biggest.bytes() > lean);
        let e = plan_memory(4, Some(lean - 1)).err();
        assert!(matches!(e, Some(TbError::MemoryTooSmall { .. })), "{e:?}");
    }
}
