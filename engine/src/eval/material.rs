//! Material: the stone difference.

use fanorona_core::Position;

use crate::eval::Evaluator;
use crate::score::STONE;

/// Scores a position by its stone difference, 100 per stone.
#[derive(Debug, Clone, Copy, Default)]
pub struct Material;

impl Evaluator for Material {
    fn name(&self) -> String {
        "material".to_string()
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        (pos.us().count() as i32 - pos.them().count() as i32) * STONE
    }

    fn box_clone(&self) -> Box<dyn Evaluator> {
        Box::new(*self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stone_difference() {
        let p: Position = "9/9/W1BBB3B/9/8W w".parse().unwrap();
        assert_eq!(Material.evaluate(&p), -200);
        assert_eq!(Material.evaluate(&p.with_turn(fanorona_core::Color::Black)), 200);
        assert_eq!(Material.evaluate(&Position::start()), 0);
    }
}
