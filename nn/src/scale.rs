//! The map between the network's value in [-1, 1] and the search's centi-stones.
//!
//! `value = tanh(score / SCORE_SCALE)` and its inverse `score = SCORE_SCALE * atanh(value)`,
//! with the value clamped to ±[`MAX_VALUE`] so that a network score stays far from the forced
//! win range (|score| > 29000): at most ±1198 centi-stones. Both are monotone. The trainer uses
//! [`score_to_value`] to turn search scores in the data into targets; forced results
//! (|score| > 29000) map to ±1.

/// Centi-stones per unit of atanh(value): a 4-stone lead (400) is a value of tanh(1) = 0.76.
pub const SCORE_SCALE: f32 = 400.0;
/// Largest value magnitude mapped to a score.
const MAX_VALUE: f32 = 0.995;
/// Scores beyond this are forced results.
const FORCED: i32 = 29_000;

/// The search score (centi-stones, side to move) of a network value.
#[inline]
pub fn value_to_score(value: f32) -> i32 {
    let v = if value.is_nan() { 0.0 } else { value.clamp(-MAX_VALUE, MAX_VALUE) };
    (SCORE_SCALE * v.atanh()).round() as i32
}

/// The training target (in [-1, 1]) for a search score; forced wins and losses give ±1.
#[inline]
pub fn score_to_value(score: i32) -> f32 {
    if score > FORCED {
        1.0
    } else if score < -FORCED {
        -1.0
    } else {
        (score as f32 / SCORE_SCALE).tanh()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monotone_and_inverse() {
        assert_eq!(value_to_score(0.0), 0);
        assert_eq!(value_to_score(1.0f32.tanh()), 400);
        assert_eq!(value_to_score(-(1.0f32.tanh())), -400);
        assert_eq!(value_to_score(1.0), value_to_score(0.995));
        assert!(value_to_score(1.0) < 1200);
        assert_eq!(value_to_score(f32::NAN), 0);
        let mut prev = i32::MIN;
        for i in -1000..=1000 {
            let s = value_to_score(i as f32 / 1000.0);
            assert!(s >= prev);
            prev = s;
        }
        for s in [-1000, -250, 0, 100, 777] {
            assert!((value_to_score(score_to_value(s)) - s).abs() <= 1, "{s}");
        }
        assert_eq!(score_to_value(29_990), 1.0);
        assert_eq!(score_to_value(-29_990), -1.0);
    }
}
