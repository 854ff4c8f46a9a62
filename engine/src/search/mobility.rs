//! Cheap questions about the side to move's steps.

use fanorona_core::{Bitboard, Direction, Position};

/// Stones of the side to move that can step to an empty point in direction `d`.
#[inline]
pub fn step_origins(pos: &Position, d: Direction) -> Bitboard {
    let movers = pos.us() & pos.empty().shift(d.opposite());
    if d.is_diagonal() { movers & Bitboard::STRONG } else { movers }
}

/// Whether the side to move has any step at all (a paika move, when it has no capture).
#[inline]
pub fn has_paika_move(pos: &Position) -> bool {
    let mut origins = Bitboard::EMPTY;
    Direction::unrolled(
        #[inline(always)]
        |d| origins |= step_origins(pos, d),
    );
    origins.any()
}

/// The number of steps the side to move could make, ignoring compulsory capture.
#[inline]
pub fn step_count(pos: &Position) -> u32 {
    let mut steps = 0;
    Direction::unrolled(
        #[inline(always)]
        |d| steps += step_origins(pos, d).count(),
    );
    steps
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_steps() {
        // The start position: e3 is empty; d2, e2, f2 (diagonal from strong d2? d2 is weak)
        // White steps into e3: d3 east, f3 is black; e2 north; d2 (file 3 + rank 1 = even:
        // strong) north-east; f2 (5 + 1: strong) north-west.
        let p = Position::start();
        assert_eq!(step_count(&p), 4);
        assert!(has_paika_move(&p));
        let blocked: Position = "9/9/9/9/WB7 w".parse().unwrap_or_else(|e| panic!("{e}"));
        assert!(has_paika_move(&blocked));
    }
}
