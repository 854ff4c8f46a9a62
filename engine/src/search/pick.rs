//! Selection of the next turn to search: the best-scored untried one, the first on ties.

/// The score of the table's turn, above every other score a turn gets.
pub const TT_MOVE: i32 = (1 << SCORE_BITS) - 1;
/// Scores lie in `[TRIED, TT_MOVE]`; a tried turn's score is [`TRIED`]. Every ordering score
/// (stones captured times 10,000 plus a killer or history bonus, at most about 230,000) is
/// far inside.
const SCORE_BITS: u32 = 18;
/// The mark of a turn already picked, below every score.
const TRIED: i32 = -(1 << SCORE_BITS);
/// Lists up to this long pick by keys of 32 bits: the score above the complement of the index.
const NARROW_INDEX_BITS: u32 = 31 - SCORE_BITS - 1;
const NARROW_LEN: usize = 1 << NARROW_INDEX_BITS;

/// The index of the best-scored turn not yet tried (the first on ties), marked as tried.
///
/// One key per turn, the score above the complement of the index, so that the greatest key is
/// the best score at the lowest index: a maximum with no data-dependent branch (which turn
/// scores best is as good as random to a branch predictor). Lists of up to [`NARROW_LEN`] turns
/// (all but constructed positions) use 32-bit keys, four to a 128-bit compare; longer ones 64.
#[inline]
pub fn pick(order: &mut [i32]) -> usize {
    debug_assert!(order.iter().all(|&v| (TRIED..=TT_MOVE).contains(&v)));
    let best = if order.len() <= NARROW_LEN {
        let mask = NARROW_LEN as i32 - 1;
        let key = order.iter().enumerate().map(|(j, &v)| v << NARROW_INDEX_BITS | (mask ^ j as i32)).max();
        key.map_or(0, |k| (mask ^ (k & mask)) as usize)
    } else {
        let key = order.iter().enumerate().map(|(j, &v)| i64::from(v) << 32 | i64::from(!(j as u32))).max();
        key.map_or(0, |k| !(k as u32) as usize)
    };
    if let Some(v) = order.get_mut(best) {
        *v = TRIED;
    }
    best
}

#[cfg(test)]
mod tests {
    use super::{NARROW_LEN, TRIED, TT_MOVE, pick};

    fn picks(mut order: Vec<i32>) -> Vec<usize> {
        let picked = (0..order.len()).map(|_| pick(&mut order)).collect();
        assert!(order.iter().all(|&v| v == TRIED));
        picked
    }

    #[test]
    fn pick_takes_the_best_first_on_ties_and_marks_it() {
        assert_eq!(picks(vec![3, 7, -2, 7, 0]), vec![1, 3, 0, 4, 2]);
        assert_eq!(picks(vec![0, TT_MOVE, 225_000, 0]), vec![1, 2, 0, 3]);
    }

    #[test]
    fn long_lists_pick_alike() {
        for len in [NARROW_LEN - 1, NARROW_LEN, NARROW_LEN + 1, 3 * NARROW_LEN] {
            let order: Vec<i32> = (0..len).map(|j| (j * 7919 % 13) as i32 * 10_000).collect();
            let mut expected: Vec<usize> = (0..len).collect();
            expected.sort_by_key(|&j| -order[j]);
            assert_eq!(picks(order), expected, "{len}");
        }
    }
}
