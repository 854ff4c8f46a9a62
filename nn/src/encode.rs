//! The input encodings: side-to-move-relative stone planes, and the same with threat planes.

use fanorona_core::{Color, Point, Position};

use crate::Encoding;

/// Number of inputs of [`crate::Encoding::StonePlanes`]: 45 own + 45 enemy.
pub const INPUTS: usize = 2 * Point::NUM;

/// Number of inputs of [`crate::Encoding::ThreatPlanes`]: the stone planes, then 45 enemy
/// stones the side to move could take first, then 45 own stones the opponent could.
pub const THREAT_INPUTS: usize = 4 * Point::NUM;

/// Most threat inputs set at once (one per stone on the board).
pub const MAX_THREATS: usize = 44;

/// The input that a stone of `stone` on `p` sets, seen from `perspective`: `0..45` for the
/// perspective's own stones, `45..90` for the other side's; Black's view turns the board 180
/// degrees.
#[inline]
pub const fn feature_index(perspective: Color, stone: Color, p: Point) -> usize {
    let square = square(perspective, p);
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

/// The point `p` as `perspective` sees it (Black's view turns the board 180 degrees).
#[inline]
const fn square(perspective: Color, p: Point) -> usize {
    // The 180-degree turn of point i is point NUM - 1 - i (Point::rotate180), by arithmetic.
    match perspective {
        Color::White => p.index(),
        Color::Black => Point::NUM - 1 - p.index(),
    }
}

/// The threat inputs of `pos` for its side to move ([`crate::Encoding::ThreatPlanes`]'s
/// inputs from 90 on), written to `out`; returns how many (at most [`MAX_THREATS`] and
/// `out.len()`).
#[inline]
pub fn threat_features(pos: &Position, out: &mut [u16]) -> usize {
    let me = pos.turn();
    let mut n = 0;
    let planes = [(pos.capture_targets(me), INPUTS), (pos.capture_targets(me.other()), INPUTS + Point::NUM)];
    for (targets, plane) in planes {
        for p in targets {
            if let Some(slot) = out.get_mut(n) {
                *slot = (plane + square(me, p)) as u16;
                n += 1;
            }
        }
    }
    n
}

/// Appends the `encoding`'s inputs of `pos` (side to move's view, each 0 or 1) to `out`.
pub fn encode_into(encoding: Encoding, pos: &Position, out: &mut Vec<f32>) {
    encode_values(encoding, pos, out, (0.0, 1.0));
}

/// [`encode_into`] as bytes (0 or 1): the rows of the sample exports, allocating nothing beyond
/// `out`.
pub fn encode_bytes_into(encoding: Encoding, pos: &Position, out: &mut Vec<u8>) {
    encode_values(encoding, pos, out, (0, 1));
}

/// Appends the inputs of `pos` to `out` as `zero` and `one`.
fn encode_values<T: Copy>(encoding: Encoding, pos: &Position, out: &mut Vec<T>, (zero, one): (T, T)) {
    let start = out.len();
    out.extend(encode(pos).iter().map(|&v| if v != 0.0 { one } else { zero }));
    if encoding == Encoding::ThreatPlanes {
        out.resize(start + THREAT_INPUTS, zero);
        let mut threats = [0u16; MAX_THREATS];
        let n = threat_features(pos, &mut threats);
        for &i in &threats[..n] {
            out[start + usize::from(i)] = one;
        }
    }
}

/// The `encoding`'s inputs of `pos` as a new vector ([`encode_into`]).
pub fn encode_as(encoding: Encoding, pos: &Position) -> Vec<f32> {
    let mut x = Vec::with_capacity(encoding.inputs());
    encode_into(encoding, pos, &mut x);
    x
}

/// The stones whose bits are set in the stone planes of an input vector (stones of either
/// side), for the output bucket.
pub(crate) fn stones_in(input: &[f32]) -> usize {
    input.iter().take(INPUTS).filter(|&&x| x != 0.0).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threat_planes_are_the_capture_targets_seen_by_the_side_to_move() {
        let start = Position::start();
        let x = encode_as(Encoding::ThreatPlanes, &start);
        assert_eq!(x.len(), THREAT_INPUTS);
        assert_eq!(&x[..INPUTS], &encode(&start)[..]);
        // White to move: c3 (18 + 2 = 20), f3, d4, e4, f4 black stones can be taken first.
        let enemy: Vec<usize> = (0..45).filter(|&i| x[INPUTS + i] == 1.0).collect();
        assert_eq!(enemy, [20, 23, 30, 31, 32]);
        // And Black, if it were to move, could take five white stones first.
        assert_eq!(x[INPUTS + 45..].iter().filter(|&&v| v == 1.0).count(), 5);
        // The start is symmetric: Black to move in the turned position sees the same inputs.
        assert_eq!(encode_as(Encoding::ThreatPlanes, &start.rotate180_swap()), x);
        // Black to move in the start position sees what White sees (the start is symmetric).
        let b = encode_as(Encoding::ThreatPlanes, &start.with_turn(Color::Black));
        assert_eq!(b, x);
        assert_eq!(encode_as(Encoding::StonePlanes, &start), encode(&start).to_vec());
        assert_eq!(stones_in(&x), 44);
    }

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
