//! An engine's error rate against proven values: the share of a suite's positions where the
//! turn it chooses does not keep the position's value, with a 95 % Wilson interval, overall,
//! by the position's value and by its stones.

use std::collections::BTreeMap;

use fanorona_core::{Move, Position};
use fanorona_tb::Wdl;

use crate::suite::Suite;

/// Errors among positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rate {
    /// Positions.
    pub positions: u64,
    /// Positions where the chosen turn gave the value away.
    pub errors: u64,
}

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

impl Rate {
    /// The share of errors (0 with no positions).
    pub fn rate(&self) -> f64 {
        if self.positions == 0 { 0.0 } else { self.errors as f64 / self.positions as f64 }
    }

    /// The 95 % Wilson score interval of the share, `(low, high)`; `(0, 1)` with no positions.
    pub fn wilson(&self) -> (f64, f64) {
        if self.positions == 0 {
            return (0.0, 1.0);
        }
        let n = self.positions as f64;
        let p = self.rate();
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        ((centre - half).max(0.0), (centre + half).min(1.0))
    }

    fn add(&mut self, error: bool) {
        self.positions += 1;
        self.errors += u64::from(error);
    }
}

/// A position where the engine's turn gave the value away.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Miss {
    /// The position's index in the suite.
    pub index: usize,
    /// The position.
    pub position: Position,
    /// Its value.
    pub value: Wdl,
    /// The turn chosen.
    pub chosen: Move,
}

/// An engine's errors over a suite.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ErrorReport {
    /// Over every position.
    pub all: Rate,
    /// By the position's value (win or draw: in a lost position no turn is wrong).
    pub by_value: BTreeMap<Wdl, Rate>,
    /// By the position's stones.
    pub by_stones: BTreeMap<u32, Rate>,
    /// The positions missed, in suite order.
    pub misses: Vec<Miss>,
}

/// Asks `choose` for a turn in every position of `suite` (with its index) and counts the
/// turns that do not keep the value.
///
/// # Errors
/// The first error of `choose`.
pub fn measure<E>(
    suite: &Suite,
    choose: &mut dyn FnMut(usize, &Position) -> Result<Move, E>,
) -> Result<ErrorReport, E> {
    let mut report = ErrorReport::default();
    for (index, e) in suite.entries.iter().enumerate() {
        let chosen = choose(index, &e.position)?;
        let error = !e.preserves(&chosen);
        report.all.add(error);
        report.by_value.entry(e.value).or_default().add(error);
        report.by_stones.entry(e.stones()).or_default().add(error);
        if error {
            report.misses.push(Miss { index, position: e.position, value: e.value, chosen });
        }
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::suite::SuiteEntry;

    #[test]
    fn wilson_intervals_match_hand_computed_values() {
        // 10 of 40: p = 0.25, z^2 = 3.841459; centre (0.25 + 0.048018) / 1.096036 = 0.271905,
        // half 1.959964 / 1.096036 * sqrt(0.0046875 + 0.00060023) = 0.130034.
        let (lo, hi) = Rate { positions: 40, errors: 10 }.wilson();
        assert!((lo - 0.141871).abs() < 1e-6 && (hi - 0.401940).abs() < 1e-6, "{lo} {hi}");
        // None of 20: the interval starts at 0, ends at z^2 / (n + z^2) = 0.161125.
        let (lo, hi) = Rate { positions: 20, errors: 0 }.wilson();
        assert!(lo.abs() < 1e-12 && (hi - 0.161125).abs() < 1e-6, "{lo} {hi}");
        assert_eq!(Rate::default().wilson(), (0.0, 1.0));
        assert_eq!(Rate::default().rate(), 0.0);
    }

    #[test]
    fn counts_turns_that_give_the_value_away() {
        let pos: Position = "9/9/W8/9/W1B6 w".parse().unwrap();
        let good = pos.parse_move("a1b1+").unwrap();
        let suite = Suite {
            entries: vec![SuiteEntry { position: pos, value: Wdl::Win, preserving: vec![good] }; 3],
            ..Suite::default()
        };
        let bad = pos.legal_moves().into_iter().find(|m| *m != good).unwrap();
        let r = measure(&suite, &mut |i, _| Ok::<_, ()>(if i == 1 { bad } else { good })).unwrap();
        assert_eq!(r.all, Rate { positions: 3, errors: 1 });
        assert_eq!(r.by_value[&Wdl::Win], r.all);
        assert_eq!(r.by_stones[&3], r.all);
        assert_eq!(r.misses, [Miss { index: 1, position: pos, value: Wdl::Win, chosen: bad }]);
        assert_eq!(measure(&suite, &mut |_, _| Err::<Move, _>("engine failed")), Err("engine failed"));
    }
}
