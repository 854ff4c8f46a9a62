//! The board's symmetries that the rules keep: left-right and top-bottom mirrors and the
//! 180-degree turn (every line and strong point maps to one; RULES.md has no direction of
//! play), each with or without the colours and the side to move swapped (a pair plays an
//! opening with both colours, so an opening and its colour-swapped copy are one test). The
//! start position is its own copy under the turn with the colours swapped.

use fanorona_core::{Bitboard, Color, Position};

/// One of the eight symmetries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry {
    /// Mirror the files (`a` <-> `i`).
    pub mirror_files: bool,
    /// Mirror the ranks (`1` <-> `5`).
    pub mirror_ranks: bool,
    /// Swap the colours and the side to move.
    pub swap_colors: bool,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = {
        let mut all = [Symmetry { mirror_files: false, mirror_ranks: false, swap_colors: false }; 8];
        let mut i = 0;
        while i < 8 {
            all[i] = Symmetry { mirror_files: i & 1 != 0, mirror_ranks: i & 2 != 0, swap_colors: i & 4 != 0 };
            i += 1;
        }
        all
    };

    /// The stones of `bb` moved by this symmetry's geometry.
    fn map(self, bb: Bitboard) -> Bitboard {
        // Ranks mirrored = turned 180 degrees, then files mirrored.
        let bb = if self.mirror_ranks { bb.rotate180().mirror_files() } else { bb };
        if self.mirror_files { bb.mirror_files() } else { bb }
    }

    /// The image of `pos`: `(white, black, side to move)` of the position it maps to.
    pub fn apply(self, pos: &Position) -> (Bitboard, Bitboard, Color) {
        let (w, b) = (self.map(pos.stones(Color::White)), self.map(pos.stones(Color::Black)));
        if self.swap_colors { (b, w, pos.turn().other()) } else { (w, b, pos.turn()) }
    }
}

/// The key shared by a position and its seven symmetric copies: the least of their
/// `(white, black, side to move)`.
pub fn canonical(pos: &Position) -> (u64, u64, u8) {
    Symmetry::ALL
        .iter()
        .map(|s| {
            let (w, b, turn) = s.apply(pos);
            (w.0, b.0, turn.index() as u8)
        })
        .min()
        .unwrap_or((0, 0, 0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(key: (Bitboard, Bitboard, Color)) -> Position {
        Position::from_stones(key.0, key.1, key.2).unwrap()
    }

    #[test]
    fn the_start_is_its_own_copy_turned_with_colours_swapped() {
        let start = Position::start();
        // Only the identity gives the start back exactly; the turn with the colours swapped
        // gives its board with Black to move: the same game with the colours' names swapped.
        let own: Vec<usize> = (0..8).filter(|&i| position(Symmetry::ALL[i].apply(&start)) == start).collect();
        assert_eq!(own, [0]);
        let turned = position(Symmetry::ALL[7].apply(&start));
        assert_eq!(turned, start.rotate180_swap());
        assert_eq!(turned, start.with_turn(Color::Black));
        assert_eq!(canonical(&turned), canonical(&start));
    }

    #[test]
    fn copies_share_the_key_and_keep_the_legal_turns() {
        let mut p = Position::start();
        for t in ["d3e3+", "d4d3+"] {
            let m = p.parse_move(t).unwrap();
            p.play_unchecked(&m);
        }
        let key = canonical(&p);
        let mut distinct = std::collections::HashSet::new();
        for s in Symmetry::ALL {
            let q = position(s.apply(&p));
            assert_eq!(canonical(&q), key, "{s:?}");
            // The rules are the same under every symmetry: as many turns, as many captures.
            assert_eq!(q.legal_moves().len(), p.legal_moves().len(), "{s:?}");
            assert_eq!(fanorona_core::perft(&q, 2), fanorona_core::perft(&p, 2), "{s:?}");
            distinct.insert(q);
        }
        assert_eq!(distinct.len(), 8);
        assert_ne!(canonical(&Position::start()), key);
    }
}
