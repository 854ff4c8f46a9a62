//! The transposition table of the proof search: a fixed number of 32-byte entries, chosen from
//! the memory bound, in buckets of four; a full bucket gives up its entry with the least work
//! behind it (a solved entry counts as more work than any open one, so proofs stay).
//!
//! An entry is four words (the two stone sets, φ with δ, work with order), one bucket 128
//! bytes; the array is zeroed by the system as pages are first touched, so a table of gigabytes
//! costs nothing until it is used.

use crate::node::Node;

/// Proof and disproof numbers stand for "infinity" at this value.
pub const INF: u32 = u32::MAX;

/// One stored node's numbers: its φ and δ (see [`crate::dfpn`]), the work spent on it, and
/// for solved nodes the order in which they were solved.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Entry {
    /// φ: the proof number of the side to move's goal.
    pub phi: u32,
    /// δ: the disproof number of the side to move's goal.
    pub delta: u32,
    /// Nodes searched under it (saturating).
    pub work: u32,
    /// For a solved node, when it was first solved (a proof only uses nodes solved before it).
    pub order: u32,
}

impl Entry {
    /// Whether the node is solved one way or the other.
    pub fn solved(&self) -> bool {
        self.phi == 0 || self.delta == 0
    }

    fn pack(self) -> (u64, u64) {
        (
            u64::from(self.phi) | u64::from(self.delta) << 32,
            u64::from(self.work) | u64::from(self.order) << 32,
        )
    }

    fn unpack(numbers: u64, meta: u64) -> Entry {
        Entry {
            phi: numbers as u32,
            delta: (numbers >> 32) as u32,
            work: meta as u32,
            order: (meta >> 32) as u32,
        }
    }

    fn keep_score(self) -> u64 {
        u64::from(self.work) + if self.solved() { 1 << 32 } else { 0 }
    }
}

const BUCKET: usize = 4;
/// Bytes of one entry.
pub const ENTRY_BYTES: usize = 32;

/// A bounded table of entries.
#[derive(Debug)]
pub struct Table {
    /// Per slot: the side to move's stones with the attacker flag, the other side's stones,
    /// φ and δ, work and order.
    slots: Vec<[u64; 4]>,
    mask: usize,
    /// Entries written over another node's.
    pub replaced: u64,
}

impl Table {
    /// A table of at most `bytes` bytes (at least one bucket; a power of two of buckets).
    pub fn with_bytes(bytes: u64) -> Table {
        let buckets = (bytes / (ENTRY_BYTES * BUCKET) as u64).max(1);
        let buckets = 1usize << (63 - buckets.leading_zeros());
        let n = buckets * BUCKET;
        Table { slots: vec![[0; 4]; n], mask: buckets - 1, replaced: 0 }
    }

    /// Bytes it takes.
    pub fn bytes(&self) -> u64 {
        (self.slots.len() * ENTRY_BYTES) as u64
    }

    /// Entries it holds at most.
    pub fn capacity(&self) -> usize {
        self.slots.len()
    }

    #[inline]
    fn bucket(&self, node: Node) -> std::ops::Range<usize> {
        let b = (node.hash() as usize) & self.mask;
        b * BUCKET..(b + 1) * BUCKET
    }

    #[inline]
    fn find(&self, node: Node) -> Option<usize> {
        let (key, them) = node.words();
        self.bucket(node).find(|&i| self.slots[i][0] == key && self.slots[i][1] == them)
    }

    /// The numbers of `node`, if it is stored.
    #[inline]
    pub fn get(&self, node: Node) -> Option<Entry> {
        self.find(node).map(|i| Entry::unpack(self.slots[i][2], self.slots[i][3]))
    }

    /// Stores `node`'s numbers (adding `work` to what it had), replacing the least valuable
    /// entry of its bucket if it is new.
    pub fn put(&mut self, node: Node, phi: u32, delta: u32, work: u64, order: u32) {
        let work = u32::try_from(work).unwrap_or(u32::MAX);
        let (at, work) = match self.find(node) {
            Some(i) => (i, Entry::unpack(self.slots[i][2], self.slots[i][3]).work.saturating_add(work)),
            None => {
                let i = self
                    .bucket(node)
                    .min_by_key(|&i| {
                        let s = self.slots[i];
                        if s[0] == 0 { 0 } else { Entry::unpack(s[2], s[3]).keep_score() + 1 }
                    })
                    .unwrap_or(0);
                if self.slots[i][0] != 0 {
                    self.replaced += 1;
                }
                (i, work)
            }
        };
        let (key, them) = node.words();
        let (numbers, meta) = Entry { phi, delta, work, order }.pack();
        self.slots[at] = [key, them, numbers, meta];
    }

    /// Every stored entry with its node (for checkpoints and statistics).
    pub fn iter(&self) -> impl Iterator<Item = (Node, Entry)> + '_ {
        self.slots.iter().filter_map(|s| Some((Node::from_words(s[0], s[1])?, Entry::unpack(s[2], s[3]))))
    }

    /// Entries in use.
    pub fn used(&self) -> usize {
        self.slots.iter().filter(|s| s[0] != 0).count()
    }

    /// The four words of slot `i`, for checkpoints.
    pub(crate) fn slot(&self, i: usize) -> [u64; 4] {
        self.slots[i]
    }

    /// Puts back the words of slot `i` (an empty slot when they make no node).
    pub(crate) fn set_slot(&mut self, i: usize, words: [u64; 4]) {
        let valid = Node::from_words(words[0], words[1]).is_some();
        self.slots[i] = if valid { words } else { [0; 4] };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_found_and_the_least_work_is_replaced() {
        let mut t = Table::with_bytes(1);
        assert_eq!(t.capacity(), BUCKET);
        let nodes: Vec<Node> = (0..5).map(|i| Node::new(1 << i, 1 << 40, true)).collect();
        for (i, &n) in nodes.iter().take(4).enumerate() {
            t.put(n, 3, 4, 10 + i as u64, 0);
        }
        assert_eq!(t.get(nodes[2]).map(|e| (e.phi, e.delta)), Some((3, 4)));
        // A solved entry is kept over open ones with more work.
        t.put(nodes[0], 0, INF, 1, 7);
        t.put(nodes[4], 5, 5, 1, 0);
        assert!(t.get(nodes[0]).is_some(), "solved entries stay");
        assert!(t.get(nodes[1]).is_none(), "the open entry with the least work goes");
        assert_eq!(t.replaced, 1);
        assert_eq!(t.used(), 4);
        let mut back = Table::with_bytes(1);
        for i in 0..t.capacity() {
            back.set_slot(i, t.slot(i));
        }
        assert_eq!(back.iter().collect::<Vec<_>>(), t.iter().collect::<Vec<_>>());
    }
}
