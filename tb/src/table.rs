//! One signature's table in memory.

use crate::format::Counts;
use crate::index::Indexer;
use crate::{Signature, Value};

/// The values of every position of one signature.
#[derive(Debug, Clone)]
pub struct Table {
    indexer: Indexer,
    data: Vec<u8>,
    counts: Counts,
}

impl Table {
    /// A table from its numbering and one byte per slot (`data.len()` must be the
    /// numbering's length; the loader and the generator check it).
    pub(crate) fn new(indexer: Indexer, data: Vec<u8>, counts: Counts) -> Table {
        Table { indexer, data, counts }
    }

    /// The signature.
    pub fn signature(&self) -> Signature {
        self.indexer.signature()
    }

    /// Wins, draws and losses, over positions up to symmetry.
    pub fn counts(&self) -> Counts {
        self.counts
    }

    /// The stored bytes, one per slot.
    pub(crate) fn data(&self) -> &[u8] {
        &self.data
    }

    /// The longest dtc of a win or a loss in the table.
    pub fn longest(&self) -> u32 {
        self.data.iter().map(|&b| Value::decode(b).dtc().unwrap_or(0)).max().unwrap_or(0)
    }

    /// The numbering of the slots.
    pub fn indexer(&self) -> &Indexer {
        &self.indexer
    }

    /// The value in slot `i`, if there is one.
    #[inline]
    pub fn slot_value(&self, i: u64) -> Option<Value> {
        self.data.get(usize::try_from(i).ok()?).map(|&b| Value::decode(b))
    }

    /// Bytes of values (one per slot).
    pub fn len(&self) -> usize {
        self.data.len()
    }

    /// Whether the table has no slots.
    pub fn is_empty(&self) -> bool {
        self.data.is_empty()
    }

    /// The value of the position with stones `us` (to move) and `them`, whose counts match
    /// the signature (`None` for masks that do not).
    #[inline]
    pub(crate) fn value(&self, us: u64, them: u64) -> Option<Value> {
        let i = self.indexer.index(us, them)?;
        self.data.get(usize::try_from(i).ok()?).map(|&b| Value::decode(b))
    }
}
