//! Noise: another evaluator's score plus a fixed pseudo-random offset per position, to weaken
//! a player by a chosen amount (the `noise=N` of a player spec).

use fanorona_core::{Position, Turn};

use crate::eval::Evaluator;
use crate::score::FORCED;

/// The largest `noise=`: 100 stones, more than the board holds, so that any weakening can be
/// asked for.
pub const MAX_NOISE: u32 = 10_000;

/// splitmix64's finaliser: every bit of `x` changes about half the bits of the result.
#[inline]
fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Wraps an evaluator, adding to each position's score an offset in `[-amount, amount]` (in
/// the score's hundredths of a stone, so 100 is one stone). The offset depends only on the
/// position (its Zobrist key) and the seed: the same position always gets the same offset
/// within a player (so the search stays consistent, and transposition and evaluation tables
/// stay right), and players of different seeds err differently.
pub struct Noisy {
    inner: Box<dyn Evaluator>,
    amount: u32,
    seed: u64,
}

impl core::fmt::Debug for Noisy {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Noisy")
            .field("inner", &self.inner.name())
            .field("amount", &self.amount)
            .field("seed", &self.seed)
            .finish()
    }
}

impl Noisy {
    /// `inner` with offsets of at most `amount` (clamped to [`MAX_NOISE`]), drawn from `seed`.
    pub fn new(inner: Box<dyn Evaluator>, amount: u32, seed: u64) -> Noisy {
        Noisy { inner, amount: amount.min(MAX_NOISE), seed: splitmix64(seed) }
    }

    /// The offset added to the score of `pos`: in `[-amount, amount]`.
    #[inline]
    pub fn offset(&self, pos: &Position) -> i32 {
        if self.amount == 0 {
            return 0;
        }
        let r = splitmix64(pos.hash() ^ self.seed);
        let span = 2 * u64::from(self.amount) + 1;
        // The high bits, scaled into [0, span): no modulo bias worth speaking of.
        let k = ((u128::from(r) * u128::from(span)) >> 64) as i64;
        (k - i64::from(self.amount)) as i32
    }
}

impl Evaluator for Noisy {
    /// The inner evaluator's name: the noise is part of the player spec, not of the evaluator.
    fn name(&self) -> String {
        self.inner.name()
    }

    /// The inner score plus [`Noisy::offset`], kept short of the forced-result scores.
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let score = self.inner.evaluate(pos);
        (score + self.offset(pos)).clamp(-FORCED, FORCED)
    }

    fn set_root(&mut self, pos: &Position) {
        self.inner.set_root(pos);
    }

    fn make(&mut self, pos: &Position, turn: &Turn) {
        self.inner.make(pos, turn);
    }

    fn unmake(&mut self) {
        self.inner.unmake();
    }

    fn box_clone(&self) -> Box<dyn Evaluator> {
        Box::new(Noisy { inner: self.inner.box_clone(), amount: self.amount, seed: self.seed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Material;

    fn positions() -> Vec<Position> {
        let mut out = vec![Position::start()];
        let mut rng = fanorona_core::Rng::new(7);
        let mut pos = Position::start();
        for _ in 0..40 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(&moves[rng.below(moves.len() as u64) as usize]);
            out.push(pos);
        }
        out
    }

    #[test]
    fn stays_within_the_amount_and_is_deterministic() {
        let mut a = Noisy::new(Box::new(Material), 50, 1);
        let mut again = Noisy::new(Box::new(Material), 50, 1);
        let mut other = Noisy::new(Box::new(Material), 50, 2);
        let mut differs = 0;
        for pos in positions() {
            let base = Material.evaluate(&pos);
            let s = a.evaluate(&pos);
            assert!((s - base).abs() <= 50, "{s} vs {base}");
            assert_eq!(s, again.evaluate(&pos));
            assert_eq!(s, a.box_clone().evaluate(&pos));
            differs += usize::from(s != other.evaluate(&pos));
        }
        assert!(differs > 20, "{differs}");
    }

    #[test]
    fn offsets_cover_the_range() {
        let n = Noisy::new(Box::new(Material), 3, 9);
        let mut seen = [false; 7];
        for pos in positions() {
            let o = n.offset(&pos);
            assert!((-3..=3).contains(&o));
            seen[(o + 3) as usize] = true;
        }
        assert!(seen.iter().filter(|&&s| s).count() >= 5, "{seen:?}");
    }

    #[test]
    fn zero_is_the_inner_evaluator() {
        let mut n = Noisy::new(Box::new(Material), 0, 5);
        for pos in positions() {
            assert_eq!(n.evaluate(&pos), Material.evaluate(&pos));
        }
        assert_eq!(n.name(), "material");
    }
}
