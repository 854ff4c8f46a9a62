//! Late-move reductions: how many turns less a late turn of a node is first searched to.
//!
//! A turn searched after the first [`MIN_INDEX`] of a node at depth `d >= MIN_DEPTH` is first
//! searched to `d - 1 - r` with a null window and searched again to the full depth only when it
//! beats alpha there. `r = floor(1 + ln d * ln n / 2)` for the `n`-th turn (1-based), one less
//! at a PV node, never more than `d - 2`: the logarithmic formula of Stockfish and most engines
//! since, its two constants chosen by matches at equal time (docs/BENCHMARKS.md, "Late-move
//! reductions"). Captures are reduced like quiet turns: with compulsory captures most nodes
//! hold only captures, and sparing them leaves most of the saving on the table.

/// The shallowest depth that reduces.
const MIN_DEPTH: i32 = 3;

/// How many turns of a node are searched to the full depth before any is reduced.
const MIN_INDEX: usize = 2;

/// Depths and turn numbers the table covers (larger ones use its last row or column).
const SIZE: usize = 64;

/// `r = BASE + ln d * ln n / DIV`, rounded down.
const BASE: f64 = 1.0;
const DIV: f64 = 2.0;

/// The natural logarithm of `x >= 1`, in a `const fn`: `x = m * 2^k` with `m` in `[1, 2)`,
/// `ln x = k ln 2 + 2 atanh((m - 1) / (m + 1))`, the series of atanh summed to convergence
/// (`|z| <= 1/3`).
const fn ln(x: f64) -> f64 {
    let mut m = x;
    let mut k = 0.0;
    while m >= 2.0 {
        m /= 2.0;
        k += 1.0;
    }
    let z = (m - 1.0) / (m + 1.0);
    let z2 = z * z;
    let mut term = z;
    let mut sum = 0.0;
    let mut i = 1.0;
    while i < 80.0 {
        sum += term / i;
        term *= z2;
        i += 2.0;
    }
    k * std::f64::consts::LN_2 + 2.0 * sum
}

/// The reduction by depth and 1-based turn number, before the PV and depth adjustments.
const TABLE: [[u8; SIZE]; SIZE] = {
    let mut t = [[0u8; SIZE]; SIZE];
    let mut d = 1;
    while d < SIZE {
        let mut n = 1;
        while n < SIZE {
            t[d][n] = (BASE + ln(d as f64) * ln(n as f64) / DIV) as u8;
            n += 1;
        }
        d += 1;
    }
    t
};

/// The reduction of the turn of index `index` (0 for the first searched) at `depth`, at a PV
/// node or not.
#[inline]
pub fn reduction(depth: i32, index: usize, pv_node: bool) -> i32 {
    if depth < MIN_DEPTH || index < MIN_INDEX {
        return 0;
    }
    let r = i32::from(TABLE[(depth as usize).min(SIZE - 1)][(index + 1).min(SIZE - 1)]);
    let r = if pv_node { r - 1 } else { r };
    r.clamp(0, depth - 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_const_logarithm_matches_the_library_one() {
        for x in 1..200 {
            let x = f64::from(x);
            assert!((ln(x) - x.ln()).abs() < 1e-12, "ln({x}) = {} against {}", ln(x), x.ln());
        }
    }

    #[test]
    fn the_table_is_the_formula_rounded_down() {
        for (d, row) in TABLE.iter().enumerate().skip(1) {
            for (n, &r) in row.iter().enumerate().skip(1) {
                let want = (BASE + (d as f64).ln() * (n as f64).ln() / DIV) as u8;
                assert_eq!(r, want, "depth {d}, turn {n}");
            }
        }
    }

    #[test]
    fn early_turns_and_shallow_nodes_are_not_reduced() {
        for depth in 0..MIN_DEPTH {
            assert_eq!(reduction(depth, 30, false), 0, "depth {depth}");
        }
        assert_eq!(reduction(10, 0, false), 0);
        assert_eq!(reduction(10, 1, false), 0);
    }

    #[test]
    fn hand_computed_reductions() {
        // depth 3, the third turn: 1 + ln 3 ln 3 / 2 = 1.60 -> 1, capped at 3 - 2 = 1.
        assert_eq!(reduction(3, 2, false), 1);
        // at a PV node one less.
        assert_eq!(reduction(3, 2, true), 0);
        // depth 8, the 10th turn: 1 + ln 8 ln 10 / 2 = 1 + 2.079 * 2.303 / 2 = 3.39 -> 3.
        assert_eq!(reduction(8, 9, false), 3);
        assert_eq!(reduction(8, 9, true), 2);
        // depth 4, the 40th turn: 1 + 1.386 * 3.689 / 2 = 3.56 -> 3, capped at 2.
        assert_eq!(reduction(4, 39, false), 2);
        // beyond the table, its last entry: 1 + ln 63 ln 63 / 2 = 9.58 -> 9.
        assert_eq!(reduction(100, 100, false), 9);
    }
}
