//! Search scores: hundredths of a stone from the side to move's view, and forced results.
//!
//! A forced win in `n` turns (plies, counting both sides' turns) scores `WIN - n`, a forced loss
//! in `n` turns `-(WIN - n)`; every score with `|score| > FORCED` is a forced result.

/// The score of a win now (the opponent has already lost).
pub const WIN: i32 = 30_000;
/// Scores beyond this (in absolute value) are forced wins or losses.
pub const FORCED: i32 = 29_000;
/// The score of a draw.
pub const DRAW: i32 = 0;
/// Larger than any score: the search window's bounds.
pub const INFINITY: i32 = 32_000;
/// One stone.
pub const STONE: i32 = 100;

/// The score of winning in `turns` turns.
pub const fn win_in(turns: u32) -> i32 {
    WIN - turns as i32
}

/// The score of losing in `turns` turns.
pub const fn loss_in(turns: u32) -> i32 {
    -(WIN - turns as i32)
}

/// Whether `score` is a forced win or loss.
pub const fn is_forced(score: i32) -> bool {
    score > FORCED || score < -FORCED
}

/// A forced result as (`true` for a win, turns), or `None` for an ordinary score.
pub const fn forced(score: i32) -> Option<(bool, u32)> {
    if score > FORCED {
        Some((true, (WIN - score) as u32))
    } else if score < -FORCED {
        Some((false, (WIN + score) as u32))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forced_scores_round_trip() {
        assert_eq!(win_in(3), 29_997);
        assert_eq!(loss_in(2), -29_998);
        assert_eq!(forced(win_in(3)), Some((true, 3)));
        assert_eq!(forced(loss_in(2)), Some((false, 2)));
        assert_eq!(forced(2_500), None);
        assert!(is_forced(win_in(900)));
        assert!(!is_forced(-FORCED));
    }
}
