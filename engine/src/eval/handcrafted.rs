//! The handcrafted evaluator: material plus positional terms.

use fanorona_core::{Bitboard, Position};

use crate::eval::Evaluator;
use crate::search::mobility::step_count;

/// The weights of the handcrafted terms, in centi-stones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Weights {
    /// Per stone.
    pub stone: i32,
    /// Per stone on a strong point.
    pub strong: i32,
    /// Per possible step.
    pub mobility: i32,
}

impl Default for Weights {
    fn default() -> Weights {
        Weights { stone: 100, strong: 4, mobility: 2 }
    }
}

/// Material plus strong points and mobility.
#[derive(Debug, Clone, Copy, Default)]
pub struct Handcrafted {
    /// The weights.
    pub weights: Weights,
}

impl Evaluator for Handcrafted {
    fn name(&self) -> String {
        "handcrafted".to_string()
    }

    fn evaluate(&mut self, pos: &Position) -> i32 {
        let w = &self.weights;
        let (us, them) = (pos.us(), pos.them());
        let material = (us.count() as i32 - them.count() as i32) * w.stone;
        let strong =
            ((us & Bitboard::STRONG).count() as i32 - (them & Bitboard::STRONG).count() as i32) * w.strong;
        let theirs = pos.with_turn(pos.turn().other());
        let mobility = (step_count(pos) as i32 - step_count(&theirs) as i32) * w.mobility;
        material + strong + mobility
    }

    fn box_clone(&self) -> Box<dyn Evaluator> {
        Box::new(*self)
    }
}
