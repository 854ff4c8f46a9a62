//! The input encoding: side-to-move-relative stone planes.

use fanorona_core::{Color, Point, Position};

/// Number of inputs of [`super::Encoding::StonePlanes`]: 45 own + 45 enemy.
pub const INPUTS: usize = 2 * Point::NUM;

/// The input that a stone of `stone` on `p` sets, seen from `perspective`: `0..45` for the
/// perspective's own stones, `45..90` for the other side's; Black's view turns the board 180
/// degrees.
#[inline]
pub const fn feature_index(perspective: Color, stone: Color, p: Point) -> usize {
    let square = match perspective {
        Color::White => p.index(),
        Color::Black => p.rotate180().index(),
    };
    let plane = if stone as u8 == perspective as u8 { 0 } else { Point::NUM };
    plane + square
}

/// The network's input for `pos`, from the side to move's point of view (each input 0 or 1).
pub fn encode(pos: &Position) -> [f32; INPUTS] {
    let mut x = [0.0f32; INPUTS];
    let me = pos.turn();
    for c in Color::ALL {
        for p in pos.stones(c) {
            x[feature_index(me, c, p)] = 1.0;
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_is_the_same_for_both_sides() {
        let start = Position::start();
        let x = encode(&start);
        assert_eq!(x.iter().filter(|&&v| v == 1.0).count(), 44);
        // White to move: own stones on a1 (index 0) and b3 (19), enemy on a3 (45 + 18).
        assert_eq!(x[0], 1.0);
        assert_eq!(x[19], 1.0);
        assert_eq!(x[18], 0.0);
        assert_eq!(x[45 + 18], 1.0);
        // The start position is symmetric under a 180-degree turn with colours swapped, so
        // Black to move in the mirrored start sees exactly what White sees.
        assert_eq!(encode(&start.rotate180_swap()), x);
        // Black to move in the start position sees the board from its side.
        let b = encode(&start.with_turn(Color::Black));
        assert_eq!(b[0], 1.0); // i5 turned is a1: Black's own stone
        assert_eq!(b[45 + 44], 1.0); // a1 turned is i5: a white stone
    }

    #[test]
    fn indices_are_a_bijection_per_perspective() {
        for me in Color::ALL {
            let mut seen = [false; INPUTS];
            for c in Color::ALL {
                for p in Point::ALL {
                    let i = feature_index(me, c, p);
                    assert!(!seen[i]);
                    seen[i] = true;
                }
            }
        }
    }
}
