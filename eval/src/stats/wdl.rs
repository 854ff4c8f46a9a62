//! Wins, draws and losses, and the logistic Elo difference they imply (fastchess `EloWDL`).

use serde::{Deserialize, Serialize};

use super::{Z95, math};

/// Game results from one engine's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

/// An Elo difference with the half width of its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// The estimate (infinite when one side scored everything).
    pub elo: f64,
    /// Half the width of the 95 % interval.
    pub error: f64,
}

impl Wdl {
    /// Adds one game scored `score` (1, 0.5 or 0) for this side.
    pub fn add(&mut self, score: f64) {
        if score > 0.75 {
            self.wins += 1;
        } else if score < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The same results seen from the opponent.
    pub fn flipped(&self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Points per game, `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// Share of drawn games (0 before the first game).
    pub fn draw_ratio(&self) -> f64 {
        let n = self.games();
        if n == 0 { 0.0 } else { self.draws as f64 / n as f64 }
    }

    /// Per-game variance of the score.
    fn variance(&self) -> Option<f64> {
        let n = self.games() as f64;
        let mu = self.score()?;
        Some(
            (self.wins as f64 * (1.0 - mu).powi(2)
                + self.draws as f64 * (0.5 - mu).powi(2)
                + self.losses as f64 * mu.powi(2))
                / n,
        )
    }

    /// The logistic Elo difference and its 95 % interval: the score's standard error is
    /// `sqrt(var / n)`, and the half width is `(elo(mu + z sd) - elo(mu - z sd)) / 2`.
    pub fn elo(&self) -> Option<EloEstimate> {
        Some(math::elo_with_interval(self.score()?, (self.variance()? / self.games() as f64).sqrt()))
    }

    /// Normalised Elo of the trinomial model: `(mu - 0.5) / sqrt(var) * 800 / ln 10`.
    pub fn nelo(&self) -> Option<EloEstimate> {
        let mu = self.score()?;
        let var = self.variance()?;
        let k = 800.0 / std::f64::consts::LN_10;
        let n = self.games() as f64;
        let elo =
            if var > 0.0 { (mu - 0.5) / var.sqrt() * k } else { super::pentanomial::ratio_of_certainty(mu) };
        Some(EloEstimate { elo, error: Z95 / n.sqrt() * k })
    }

    /// Likelihood of superiority from wins and losses:
    /// `(1 - erf(-(W - L) / sqrt(2 (W + L)))) / 2`; 0.5 without decisive games.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w == l { 0.5 } else { (1.0 - math::erf(-(w - l) / (2.0 * (w + l)).sqrt())) / 2.0 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_match() {
        // W 60, D 20, L 20: mu = (60 + 10) / 100 = 0.7;
        // var = 0.6 * 0.3^2 + 0.2 * 0.2^2 + 0.2 * 0.7^2 = 0.054 + 0.008 + 0.098 = 0.16;
        // sd = sqrt(0.16 / 100) = 0.04; Elo = -400 log10(0.3/0.7) = 147.1907;
        // interval: (elo(0.7 + 1.96*0.04) - elo(0.7 - 1.96*0.04)) / 2 = (218.30 - 86.27) / 2
        // = 66.0134; LOS = Phi(40 / sqrt(80)) = Phi(4.472) = 0.9999961.
        let r = Wdl { wins: 60, draws: 20, losses: 20 };
        assert_eq!(r.games(), 100);
        assert_eq!(r.points(), 70.0);
        assert_eq!(r.score(), Some(0.7));
        assert!((r.draw_ratio() - 0.2).abs() < 1e-12);
        let e = r.elo().unwrap();
        assert!((e.elo - 147.190_714).abs() < 1e-5, "{e:?}");
        assert!((e.error - 66.013_381).abs() < 1e-5, "{e:?}");
        assert!((r.los() - 0.999_996_128).abs() < 1e-8);
        // nElo = 0.2 / 0.4 * 347.4356 = 173.7178.
        assert!((r.nelo().unwrap().elo - 173.717_793).abs() < 1e-5);
        assert_eq!(r.flipped().flipped(), r);
        assert!((r.flipped().elo().unwrap().elo + 147.190_714).abs() < 1e-5);
    }

    #[test]
    fn empty_and_even() {
        assert_eq!(Wdl::default().elo(), None);
        assert_eq!(Wdl::default().los(), 0.5);
        let even = Wdl { wins: 3, draws: 4, losses: 3 };
        assert_eq!(even.elo().unwrap().elo, 0.0);
        assert_eq!(even.los(), 0.5);
        let mut w = Wdl::default();
        for s in [1.0, 0.5, 0.0, 1.0] {
            w.add(s);
        }
        assert_eq!(w, Wdl { wins: 2, draws: 1, losses: 1 });
    }
}
