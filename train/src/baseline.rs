//! The material-only baseline: `tanh(k * (own stones - enemy stones))`, with `k` fitted on the
//! training split by minimising the mean squared error, and scored on the validation split.
//!
//! The fit needs only per-material-difference sums (count, sum of targets, sum of squared
//! targets, decisive wins and losses), so it takes constant memory and is exact.

use fanorona_core::Position;
use serde::{Deserialize, Serialize};

/// Material differences run from -22 to 22.
const SPAN: usize = 45;

/// Sufficient statistics of one split for the baseline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct MaterialStats {
    n: Vec<f64>,
    sum: Vec<f64>,
    sum_sq: Vec<f64>,
    wins: Vec<f64>,
    losses: Vec<f64>,
}

impl Default for MaterialStats {
    fn default() -> MaterialStats {
        MaterialStats {
            n: vec![0.0; SPAN],
            sum: vec![0.0; SPAN],
            sum_sq: vec![0.0; SPAN],
            wins: vec![0.0; SPAN],
            losses: vec![0.0; SPAN],
        }
    }
}

/// Own stones minus enemy stones, for the side to move.
pub(crate) fn material(pos: &Position) -> i32 {
    pos.us().count() as i32 - pos.them().count() as i32
}

impl MaterialStats {
    pub fn add(&mut self, pos: &Position, target: f32, result: f32) {
        let d = (material(pos) + 22).clamp(0, 44) as usize;
        let t = f64::from(target);
        self.n[d] += 1.0;
        self.sum[d] += t;
        self.sum_sq[d] += t * t;
        if result > 0.0 {
            self.wins[d] += 1.0;
        } else if result < 0.0 {
            self.losses[d] += 1.0;
        }
    }

    pub fn count(&self) -> f64 {
        self.n.iter().sum()
    }

    /// Mean squared error of `tanh(k * d)`.
    pub fn loss(&self, k: f64) -> f64 {
        let total = self.count();
        if total == 0.0 {
            return 0.0;
        }
        let mut sse = 0.0;
        for i in 0..SPAN {
            let p = (k * (i as f64 - 22.0)).tanh();
            sse += self.n[i] * p * p - 2.0 * p * self.sum[i] + self.sum_sq[i];
        }
        sse / total
    }

    /// Share of decisive positions where the material sign names the winner.
    pub fn accuracy(&self) -> f64 {
        let decisive: f64 = self.wins.iter().chain(&self.losses).sum();
        if decisive == 0.0 {
            return 0.0;
        }
        let right: f64 = (0..SPAN)
            .map(|i| match i.cmp(&22) {
                std::cmp::Ordering::Greater => self.wins[i],
                std::cmp::Ordering::Less => self.losses[i],
                std::cmp::Ordering::Equal => 0.0,
            })
            .sum();
        right / decisive
    }

    /// The `k >= 0` that minimises [`MaterialStats::loss`]: a grid search, then golden-section
    /// refinement around the best grid point.
    pub fn fit(&self) -> f64 {
        let step = 0.005;
        let mut best = (0.0, self.loss(0.0));
        for i in 1..=600 {
            let k = i as f64 * step;
            let l = self.loss(k);
            if l < best.1 {
                best = (k, l);
            }
        }
        let (mut a, mut b) = ((best.0 - step).max(0.0), best.0 + step);
        let g = (5f64.sqrt() - 1.0) / 2.0;
        for _ in 0..60 {
            let c = b - g * (b - a);
            let d = a + g * (b - a);
            if self.loss(c) < self.loss(d) {
                b = d;
            } else {
                a = c;
            }
        }
        let k = (a + b) / 2.0;
        if self.loss(k) <= best.1 { k } else { best.0 }
    }
}

/// The fitted baseline and how it scores.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BaselineReport {
    /// The fitted slope: value = tanh(k * material difference).
    pub k: f64,
    /// Training loss (MSE).
    pub train_loss: f64,
    /// Validation loss (MSE).
    pub val_loss: f64,
    /// Validation accuracy at naming the winner of decisive games.
    pub val_accuracy: f64,
}

pub(crate) fn fit(train: &MaterialStats, val: &MaterialStats) -> BaselineReport {
    let k = train.fit();
    BaselineReport { k, train_loss: train.loss(k), val_loss: val.loss(k), val_accuracy: val.accuracy() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recovers_a_known_slope() {
        // Targets exactly tanh(0.3 d) for d in -5..=5: the fit finds k = 0.3 and zero loss.
        let mut s = MaterialStats::default();
        let white: Vec<u64> = (0..22).collect();
        for d in -5i32..=5 {
            // Build a position with material difference d for White to move.
            let (w, b) = if d >= 0 { (10 + d as u64, 10) } else { (10, 10 + (-d) as u64) };
            let wb = white.iter().take(w as usize).fold(0u64, |acc, &i| acc | 1 << i);
            let bb = (0..b).fold(0u64, |acc, i| acc | 1 << (44 - i));
            let pos = Position::from_stones(
                fanorona_core::Bitboard(wb),
                fanorona_core::Bitboard(bb),
                fanorona_core::Color::White,
            )
            .unwrap();
            assert_eq!(material(&pos), d);
            s.add(&pos, (0.3 * f64::from(d)).tanh() as f32, d.signum() as f32);
        }
        let k = s.fit();
        assert!((k - 0.3).abs() < 1e-4, "{k}");
        assert!(s.loss(k) < 1e-12, "{}", s.loss(k));
        assert_eq!(s.accuracy(), 1.0);
        assert!(s.loss(0.0) > 0.1);
    }
}
