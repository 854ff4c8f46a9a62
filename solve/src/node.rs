//! A node of a proof search: a position seen from its side to move, in canonical form under the
//! board's four symmetries (values do not change under them), and whether the attacker, the
//! side whose win is in question, is the one to move.

use core::fmt;

use fanorona_core::{Bitboard, Color, Position, for_each_successor};
use fanorona_tb::symmetry::canonical;
use fanorona_tb::{Tablebase, Value};

/// The attacker-to-move flag, kept in a bit the board never uses.
const ATTACKER: u64 = 1 << 63;

/// A position from its side to move's view, canonical, with whose win is asked about.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Node {
    /// The side to move's stones, with [`ATTACKER`] set when it is the attacker.
    key: u64,
    /// The other side's stones.
    them: u64,
}

impl Node {
    /// The node of `us` (to move) against `them`, put in canonical form.
    #[inline]
    pub fn new(us: u64, them: u64, attacker_to_move: bool) -> Node {
        let (us, them) = canonical(us, them);
        Node { key: us | if attacker_to_move { ATTACKER } else { 0 }, them }
    }

    /// The node of a position with `attacker` the colour whose win is in question.
    pub fn of(pos: &Position, attacker: Color) -> Node {
        Node::new(pos.us().0, pos.them().0, pos.turn() == attacker)
    }

    /// A node from its two stored words, if they make one (for files).
    pub fn from_words(key: u64, them: u64) -> Option<Node> {
        let us = key & !ATTACKER;
        let all = Bitboard::ALL.0;
        (us & !all == 0 && them & !all == 0 && us & them == 0 && canonical(us, them) == (us, them))
            .then_some(Node { key, them })
    }

    /// The two words that store it.
    pub fn words(self) -> (u64, u64) {
        (self.key, self.them)
    }

    /// The side to move's stones.
    #[inline]
    pub fn us(self) -> u64 {
        self.key & !ATTACKER
    }

    /// The other side's stones.
    #[inline]
    pub fn them(self) -> u64 {
        self.them
    }

    /// Whether the attacker is to move (an OR node: one good turn is enough).
    #[inline]
    pub fn attacker_to_move(self) -> bool {
        self.key & ATTACKER != 0
    }

    /// Stones on the board.
    pub fn stones(self) -> u32 {
        (self.us() | self.them).count_ones()
    }

    /// The position, White to move (the colours of a node are implicit).
    pub fn position(self) -> Position {
        Position::from_stones(Bitboard(self.us()), Bitboard(self.them), Color::White)
            .unwrap_or_else(|_| Position::start())
    }

    /// A 64-bit hash for tables.
    #[inline]
    pub fn hash(self) -> u64 {
        // splitmix64's finaliser over both words: every input bit reaches every output bit.
        let mut h = self.key ^ self.them.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        h ^ (h >> 31)
    }

    /// Calls `f` with each distinct successor (the attacker flag flipped), in ascending order;
    /// `buf` is scratch space. Returns how many there are (0: the side to move has no turn).
    pub fn children(self, buf: &mut Vec<Node>) -> usize {
        buf.clear();
        let next_attacker = !self.attacker_to_move();
        for_each_successor(Bitboard(self.us()), Bitboard(self.them), |moved, other| {
            buf.push(Node::new(other.0, moved.0, next_attacker));
        });
        buf.sort_unstable();
        buf.dedup();
        buf.len()
    }

    /// What is known of the node without searching: the end of the game (the side to move has
    /// no stones) or a table value; `None` when it must be searched. (A side to move with
    /// stones but no turn is found when the node is expanded.)
    #[inline]
    pub fn known(self, tb: Option<&Tablebase>) -> Option<Known> {
        if self.us() == 0 {
            return Some(Known::lost_by_mover(self));
        }
        let tb = tb?;
        if self.stones() > tb.max_stones() {
            return None;
        }
        let value = tb.value(self.us(), self.them)?;
        Some(match (value, self.attacker_to_move()) {
            (Value::Win(_), true) | (Value::Loss(_), false) => Known::AttackerWins,
            _ => Known::AttackerFails,
        })
    }
}

/// A node's outcome for the question "does the attacker win?".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Known {
    /// The attacker wins (the node is proven).
    AttackerWins,
    /// The attacker does not win: a draw or a loss for it (the node is disproven).
    AttackerFails,
}

impl Known {
    /// The outcome when the side to move has lost (no stones or no turn).
    pub fn lost_by_mover(node: Node) -> Known {
        if node.attacker_to_move() { Known::AttackerFails } else { Known::AttackerWins }
    }
}

impl core::hash::Hash for Node {
    fn hash<H: core::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(Node::hash(*self));
    }
}

/// A hasher for keys that are hashes already ([`Node`]'s): it keeps the last word written.
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyHasher(u64);

impl core::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// A set of nodes (the search's current path).
pub type NodeSet = std::collections::HashSet<Node, core::hash::BuildHasherDefault<KeyHasher>>;

impl fmt::Debug for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.position(), if self.attacker_to_move() { "attacker" } else { "defender" })
    }
}

impl fmt::Display for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_are_canonical_and_keep_the_attacker() {
        let pos: Position = "9/9/9/9/W1B6 w".parse().unwrap_or_else(|e| panic!("{e}"));
        let mirrored: Position = "9/9/9/9/6B1W w".parse().unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(Node::of(&pos, Color::White), Node::of(&mirrored, Color::White));
        assert!(Node::of(&pos, Color::White).attacker_to_move());
        assert!(!Node::of(&pos, Color::Black).attacker_to_move());
        let n = Node::of(&pos, Color::White);
        let (k, t) = n.words();
        assert_eq!(Node::from_words(k, t), Some(n));
        assert_eq!(Node::from_words(k, t | 1 << 50), None);
        let mut buf = Vec::new();
        // White's only capture takes the last black stone: one child, Black to move with none.
        assert_eq!(n.children(&mut buf), 1);
        assert_eq!(buf[0].us(), 0);
        assert_eq!(buf[0].known(None), Some(Known::AttackerWins));
    }

    #[test]
    fn the_start_position_has_five_turns_and_five_distinct_children() {
        let n = Node::of(&Position::start(), Color::White);
        let mut buf = Vec::new();
        // The middle row is not symmetric, so the five turns lead to five different positions.
        assert_eq!(n.children(&mut buf), 5);
    }
}
