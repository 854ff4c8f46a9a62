//! The handcrafted evaluator: material plus positional terms.

use fanorona_core::{Bitboard, Direction, Position};

use crate::eval::Evaluator;

/// The weights of the handcrafted terms, in centi-stones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    /// Per stone.
    pub stone: i32,
    /// Per stone on a strong point.
    pub strong: i32,
    /// Per possible step (mobility).
    pub mobility: i32,
    /// Per own stone that the opponent could capture with its next step (the side to move can
    /// still parry some of them).
    pub threatened: i32,
    /// Per enemy stone the side to move could capture now (seen at the quiescence horizon).
    pub attacking: i32,
    /// For the side ahead in material, per enemy stone within two steps of its stones (the
    /// side behind gets the opposite): the stronger side seeks contact to convert its lead.
    /// (Tried at 5 and 15 against material: no measurable gain, so 0 by default.)
    pub contact: i32,
}

impl Weights {
    /// Tuned by games against material at depth 4 (engine/README-figures.md): strong points,
    /// mobility and threats each helped a little; the threat of being captured weighs most.
    pub const DEFAULT: Weights =
        Weights { stone: 100, strong: 4, mobility: 5, threatened: 30, attacking: 0, contact: 0 };
}

impl Default for Weights {
    fn default() -> Weights {
        Weights::DEFAULT
    }
}

/// Material plus strong points, mobility and capture threats.
#[derive(Debug, Clone, Copy, Default)]
pub struct Handcrafted {
    /// The weights.
    pub weights: Weights,
}

impl Handcrafted {
    /// An evaluator with these weights.
    pub fn new(weights: Weights) -> Handcrafted {
        Handcrafted { weights }
    }
}

/// Stones of `side` that can step in direction `d` to an empty point.
#[inline]
fn movers(side: Bitboard, empty: Bitboard, d: Direction) -> Bitboard {
    let m = side & empty.shift(d.opposite());
    if d.is_diagonal() { m & Bitboard::STRONG } else { m }
}

/// The steps `side` could make and the enemy stones its steps would capture first (the head of
/// each captured line), ignoring whose turn it is.
#[inline]
fn steps_and_targets(side: Bitboard, enemy: Bitboard, empty: Bitboard) -> (i32, Bitboard) {
    let mut steps = 0;
    let mut targets = Bitboard::EMPTY;
    Direction::unrolled(
        #[inline(always)]
        |d| {
            let m = movers(side, empty, d);
            steps += m.count() as i32;
            targets |= m.shift(d).shift(d) | m.shift(d.opposite());
        },
    );
    (steps, targets & enemy)
}

/// The points one step (any of the eight directions) from `bb`, and `bb` itself.
#[inline]
fn dilate(bb: Bitboard) -> Bitboard {
    let mut around = bb;
    Direction::unrolled(
        #[inline(always)]
        |d| around |= bb.shift(d),
    );
    around
}

impl Evaluator for Handcrafted {
    fn name(&self) -> String {
        "handcrafted".to_string()
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let w = &self.weights;
        let (us, them, empty) = (pos.us(), pos.them(), pos.empty());
        let material = (us.count() as i32 - them.count() as i32) * w.stone;
        let strong =
            ((us & Bitboard::STRONG).count() as i32 - (them & Bitboard::STRONG).count() as i32) * w.strong;
        let (our_steps, our_targets) = steps_and_targets(us, them, empty);
        let (their_steps, their_targets) = steps_and_targets(them, us, empty);
        let mut score = material + strong + (our_steps - their_steps) * w.mobility
            - their_targets.count() as i32 * w.threatened
            + our_targets.count() as i32 * w.attacking;
        if w.contact != 0 && material != 0 {
            let near = (them & dilate(dilate(us))).count() as i32;
            score += material.signum() * near * w.contact;
        }
        score
    }

    fn box_clone(&self) -> Box<dyn Evaluator> {
        Box::new(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terms_by_hand() {
        // White a1 (strong) and i1 (strong); Black c1 (strong). White to move.
        let p: Position = "9/9/9/9/W1B5W w".parse().unwrap();
        let w = Weights { stone: 100, strong: 10, mobility: 1, threatened: 30, attacking: 20, contact: 0 };
        // Material +100; strong 2 - 1 = +10; White steps: a1 -> a2, b1, b2; i1 -> i2, h1, h2 (6);
        // Black steps: c1 -> b1, d1, c2, b2, d2 (5): +1. White a1 b1+ takes c1 (a target: +20);
        // Black's c1 b1 approaches a1, c1 d1 withdraws from b1 (empty), c1 b2... a1 is threatened
        // (-30).
        assert_eq!(Handcrafted::new(w).evaluate(&p), 100 + 10 + 1 + 20 - 30);
        // The start: every term is symmetric except the threats: five White stones can be taken
        // by Black's steps into e3 (d3, e2, d2, f2 and the withdrawal target g3), and White's
        // own five targets are not counted by default (attacking = 0).
        let d = Weights::default();
        assert_eq!(Handcrafted::default().evaluate(&Position::start()), -5 * d.threatened + 5 * d.attacking);
    }
}
