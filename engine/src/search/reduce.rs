//! Late-move reductions: how many turns less a late turn of a node is first searched to.
//!
//! A turn searched after the first [`MIN_INDEX`] of a node at depth `d >= MIN_DEPTH` is first
//! searched to `d - 1 - r` with a null window and searched again to the full depth only when it
//! beats alpha there. `r = floor(1 + ln d * ln n / 2)` for the `n`-th turn (1-based), one less
//! at a PV node, never more than `d - 2`: the logarithmic formula of Stockfish and most engines
//! since, its two constants chosen by matches at equal time (docs/BENCHMARKS.md, "Late-move
//! reductions"). Captures are reduced like quiet turns: with compulsory captures most nodes
//! hold only captures, and sparing them leaves most of the saving on the table.

/// The shallowest depth that reduces, by default.
const MIN_DEPTH: i32 = 3;

/// How many turns of a node are searched to the full depth before any is reduced, by default.
const MIN_INDEX: usize = 2;

/// Depths and turn numbers the table covers (larger ones use its last row or column).
const SIZE: usize = 64;

/// `r = BASE + ln d * ln n / DIV`, rounded down, by default.
const BASE: f64 = 1.0;
const DIV: f64 = 2.0;

/// How much less a PV node reduces, by default.
const PV_LESS: i32 = 1;

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

/// The reductions of a search: a table by depth and 1-based turn number, before the PV and
/// depth adjustments, and the settings around it (the knobs `lmr_*` of a spec).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reductions {
    table: [[u8; SIZE]; SIZE],
    min_depth: i32,
    min_index: usize,
    pv_less: i32,
}

impl Default for Reductions {
    fn default() -> Reductions {
        Reductions::DEFAULT
    }
}

/// `base + ln d * ln n / div` for every depth and turn number of the table, rounded down and
/// kept within a byte.
const fn table(base: f64, div: f64) -> [[u8; SIZE]; SIZE] {
    let mut t = [[0u8; SIZE]; SIZE];
    let mut d = 1;
    while d < SIZE {
        let mut n = 1;
        while n < SIZE {
            // `as` saturates: below 0 is 0, above 255 is 255.
            t[d][n] = (base + ln(d as f64) * ln(n as f64) / div) as u8;
            n += 1;
        }
        d += 1;
    }
    t
}

impl Reductions {
    /// The search's reductions without knobs.
    pub const DEFAULT: Reductions =
        Reductions { table: table(BASE, DIV), min_depth: MIN_DEPTH, min_index: MIN_INDEX, pv_less: PV_LESS };

    /// The reductions of `r = base/100 + ln d ln n / (div/100)`, from depth `min_depth`, after
    /// the first `min_index` turns, `pv_less` less at a PV node (`div` at least 1).
    pub fn new(base: i32, div: i32, min_depth: i32, min_index: i32, pv_less: i32) -> Reductions {
        Reductions {
            table: table(f64::from(base) / 100.0, f64::from(div.max(1)) / 100.0),
            min_depth,
            min_index: min_index.max(0) as usize,
            pv_less,
        }
    }

    /// The reduction of the turn of index `index` (0 for the first searched) at `depth`, at a
    /// PV node or not.
    #[inline]
    pub fn get(&self, depth: i32, index: usize, pv_node: bool) -> i32 {
        if depth < self.min_depth || index < self.min_index {
            return 0;
        }
        let r = i32::from(self.table[(depth as usize).min(SIZE - 1)][(index + 1).min(SIZE - 1)]);
        let r = if pv_node { r - self.pv_less } else { r };
        r.clamp(0, (depth - 2).max(0))
    }
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

    fn reduction(depth: i32, index: usize, pv_node: bool) -> i32 {
        Reductions::DEFAULT.get(depth, index, pv_node)
    }

    #[test]
    fn the_table_is_the_formula_rounded_down() {
        for (d, row) in Reductions::DEFAULT.table.iter().enumerate().skip(1) {
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

    #[test]
    fn knobs_at_their_defaults_give_the_const_table_and_others_move_it() {
        assert_eq!(Reductions::new(100, 200, 3, 2, 1), Reductions::DEFAULT);
        let more = Reductions::new(150, 200, 3, 2, 1);
        // depth 8, the 10th turn: 1.5 + 2.079 * 2.303 / 2 = 3.89 -> 3; with base 2: 4.39 -> 4.
        assert_eq!(more.get(8, 9, false), 3);
        assert_eq!(Reductions::new(200, 200, 3, 2, 1).get(8, 9, false), 4);
        // From depth 5 only, after 4 turns, two less at a PV node.
        let late = Reductions::new(100, 200, 5, 4, 2);
        assert_eq!(late.get(4, 30, false), 0);
        assert_eq!(late.get(8, 3, false), 0);
        assert_eq!(late.get(8, 9, true), 1);
        // A negative base is no reduction, never a negative one.
        assert_eq!(Reductions::new(-400, 1000, 3, 2, 1).get(8, 9, false), 0);
    }
}
