//! Pentanomial counts: results of game pairs (one opening, colours swapped), the statistics
//! fastchess (`EloPentanomial`) and fishtest compute from them.

use serde::{Deserialize, Serialize};

use super::{EloEstimate, Z95, math};

/// How many pairs scored 0, 1/2, 1, 3/2 and 2 points for the first engine
/// (`[LL, LD, DD + WL, WD, WW]`, the order of `Ptnml(0-2)`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial(pub [u64; 5]);

impl Pentanomial {
    /// Adds a pair from the first engine's scores in its two games (each 0, 0.5 or 1).
    pub fn add_pair(&mut self, first: f64, second: f64) {
        let half_points = ((first + second) * 2.0).round().clamp(0.0, 4.0) as usize;
        self.0[half_points] += 1;
    }

    /// Pairs counted.
    pub fn pairs(&self) -> u64 {
        self.0.iter().sum()
    }

    /// Mean score per game, `None` before the first pair.
    pub fn score(&self) -> Option<f64> {
        let n = self.pairs();
        (n > 0).then(|| {
            self.0.iter().enumerate().map(|(i, &c)| c as f64 * i as f64 / 4.0).sum::<f64>() / n as f64
        })
    }

    /// Variance of the per-game score of one pair (each pair scored as its mean, 0..1).
    pub fn variance(&self) -> Option<f64> {
        let mu = self.score()?;
        let n = self.pairs() as f64;
        Some(
            self.0.iter().enumerate().map(|(i, &c)| c as f64 * (i as f64 / 4.0 - mu).powi(2)).sum::<f64>()
                / n,
        )
    }

    fn sd_of_mean(&self) -> Option<f64> {
        Some((self.variance()? / self.pairs() as f64).sqrt())
    }

    /// The logistic Elo difference with the pentanomial 95 % interval.
    pub fn elo(&self) -> Option<EloEstimate> {
        Some(math::elo_with_interval(self.score()?, self.sd_of_mean()?))
    }

    /// Normalised Elo (fastchess/fishtest): `(mu - 0.5) / sqrt(2 var) * 800 / ln 10`, its
    /// interval `z / sqrt(2 n) * 800 / ln 10`.
    pub fn nelo(&self) -> Option<EloEstimate> {
        let mu = self.score()?;
        let var = self.variance()?;
        let k = 800.0 / std::f64::consts::LN_10;
        let n = self.pairs() as f64;
        let elo = if var > 0.0 { (mu - 0.5) / (2.0 * var).sqrt() * k } else { ratio_of_certainty(mu) };
        Some(EloEstimate { elo, error: Z95 / (2.0 * n).sqrt() * k })
    }

    /// Likelihood of superiority: `Phi((mu - 0.5) / sd)` with the pentanomial standard error
    /// (0.5 before the first pair or with zero variance at an even score).
    pub fn los(&self) -> f64 {
        match (self.score(), self.sd_of_mean()) {
            (Some(mu), Some(sd)) if sd > 0.0 => math::normal_cdf((mu - 0.5) / sd),
            (Some(mu), _) if mu > 0.5 => 1.0,
            (Some(mu), _) if mu < 0.5 => 0.0,
            _ => 0.5,
        }
    }

    /// Decisive pair ratio as fastchess prints it: `(WW + WD) / (LL + LD)` (NaN without
    /// decisive pairs).
    pub fn pairs_ratio(&self) -> f64 {
        (self.0[3] + self.0[4]) as f64 / (self.0[0] + self.0[1]) as f64
    }

    /// Merges other counts into these.
    pub fn merge(&mut self, other: &Pentanomial) {
        for (a, b) in self.0.iter_mut().zip(other.0) {
            *a += b;
        }
    }

    /// The same counts seen from the other engine.
    pub fn flipped(&self) -> Pentanomial {
        let mut r = self.0;
        r.reverse();
        Pentanomial(r)
    }
}

/// A normalised Elo without any variance: 0 at an even score, else infinite.
pub(crate) fn ratio_of_certainty(mu: f64) -> f64 {
    if mu > 0.5 {
        f64::INFINITY
    } else if mu < 0.5 {
        f64::NEG_INFINITY
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_published_fastchess_output() {
        // fastchess printed for Ptnml(0-2) [1, 11, 47, 25, 16] (100 pairs):
        // "Elo: 77.71 +/- 33.03, nElo: 117.50 +/- 48.15". By hand:
        // mu = (11*0.25 + 47*0.5 + 25*0.75 + 16*1) / 100 = 0.61;
        // var = (1*0.61^2 + 11*0.36^2 + 47*0.11^2 + 25*0.14^2 + 16*0.39^2) / 100 = 0.0529;
        // sd = sqrt(0.0529/100) = 0.023; Elo = -400 log10(0.39/0.61) = 77.706;
        // nElo = 0.11 / sqrt(0.1058) * 347.436 = 117.496; its error 1.96 / sqrt(200) * 347.436.
        let p = Pentanomial([1, 11, 47, 25, 16]);
        assert_eq!(p.pairs(), 100);
        assert!((p.score().unwrap() - 0.61).abs() < 1e-12);
        assert!((p.variance().unwrap() - 0.0529).abs() < 1e-12);
        let e = p.elo().unwrap();
        assert!((e.elo - 77.706_091).abs() < 1e-5 && (e.error - 33.031_015).abs() < 1e-5, "{e:?}");
        let n = p.nelo().unwrap();
        assert!((n.elo - 117.496_289).abs() < 1e-5 && (n.error - 48.151_231).abs() < 1e-5, "{n:?}");
        // Phi(0.11 / 0.023) = Phi(4.7826) = 0.99999913.
        assert!((p.los() - 0.999_999_135).abs() < 1e-8);
        assert!((p.pairs_ratio() - 41.0 / 12.0).abs() < 1e-12);
    }

    #[test]
    fn add_pair_and_flip() {
        let mut p = Pentanomial::default();
        p.add_pair(1.0, 1.0);
        p.add_pair(1.0, 0.0);
        p.add_pair(0.5, 0.5);
        p.add_pair(0.5, 0.0);
        assert_eq!(p, Pentanomial([0, 1, 2, 0, 1]));
        assert_eq!(p.flipped(), Pentanomial([1, 0, 2, 1, 0]));
        assert_eq!(Pentanomial::default().elo(), None);
        assert_eq!(Pentanomial::default().los(), 0.5);
    }
}
