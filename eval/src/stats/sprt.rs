//! The generalised sequential probability ratio test on pentanomial pair counts, exactly as
//! fishtest's `sprt.py`/`LLRcalc.py` and fastchess compute it.
//!
//! The log-likelihood ratio is `N * sum_i p_i ln(q1_i / q0_i)`, where `p` is the empirical
//! distribution of pair scores (0, 1/4, .., 1 per game; zero counts replaced by 1e-3 as
//! fishtest's `regularize` does) and `q0`, `q1` are the distributions closest to `p` (maximum
//! likelihood) under the constraint of H0 and H1:
//! - model `normalized` (the default, as in fastchess and fishtest): a normalised Elo, i.e. the
//!   t-value `(mean - 1/2) / sd` of a pair's score is `sqrt(2) * nElo / (800 / ln 10)`;
//! - model `logistic`: the expected score is `1 / (1 + 10^(-elo/400))`.
//!
//! The test accepts H1 when the LLR reaches `ln((1 - beta) / alpha)` and H0 when it falls to
//! `ln(beta / (1 - alpha))`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{Pentanomial, math};

/// How elo0/elo1 are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Normalised Elo (fishtest/fastchess default).
    Normalized,
    /// Logistic Elo.
    Logistic,
}

/// An SPRT: the two hypotheses and the error rates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1 (greater than elo0).
    pub elo1: f64,
    /// False positive rate (accepting H1 when H0 holds).
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
    /// How the Elo bounds are read.
    pub model: SprtModel,
}

/// What the test concludes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SprtVerdict {
    /// H0 accepted: the first engine is not stronger by elo1.
    H0,
    /// H1 accepted: the first engine is stronger by at least about elo1.
    H1,
    /// Not decided yet.
    Continue,
}

impl fmt::Display for SprtVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            SprtVerdict::H0 => "H0 accepted",
            SprtVerdict::H1 => "H1 accepted",
            SprtVerdict::Continue => "undecided",
        })
    }
}

impl ParseSprtError {
    /// Always `true`: the text came from the user.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// Why an SPRT description is not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid SPRT {text:?}: {why} (expected e.g. elo0=0,elo1=10,alpha=0.05,beta=0.05[,model=logistic])")]
pub struct ParseSprtError {
    text: String,
    why: String,
}

impl FromStr for SprtConfig {
    type Err = ParseSprtError;

    /// `elo0=0,elo1=10,alpha=0.05,beta=0.05,model=normalized`; alpha and beta default to
    /// 0.05, the model to normalized.
    fn from_str(text: &str) -> Result<SprtConfig, ParseSprtError> {
        let err = |why: String| ParseSprtError { text: text.to_string(), why };
        let (mut elo0, mut elo1) = (None, None);
        let mut c =
            SprtConfig { elo0: 0.0, elo1: 0.0, alpha: 0.05, beta: 0.05, model: SprtModel::Normalized };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (k, v) = part.split_once('=').ok_or_else(|| err(format!("{part:?} is not key=value")))?;
            let num = || v.trim().parse::<f64>().map_err(|_| err(format!("{k} = {v:?} is not a number")));
            match k.trim() {
                "elo0" => elo0 = Some(num()?),
                "elo1" => elo1 = Some(num()?),
                "alpha" => c.alpha = num()?,
                "beta" => c.beta = num()?,
                "model" => {
                    c.model = match v.trim() {
                        "normalized" | "normalised" => SprtModel::Normalized,
                        "logistic" => SprtModel::Logistic,
                        other => return Err(err(format!("unknown model {other:?}"))),
                    }
                }
                other => return Err(err(format!("unknown key {other:?}"))),
            }
        }
        c.elo0 = elo0.ok_or_else(|| err("elo0 missing".into()))?;
        c.elo1 = elo1.ok_or_else(|| err("elo1 missing".into()))?;
        if !(c.elo0.is_finite() && c.elo1.is_finite() && c.elo0 < c.elo1) {
            return Err(err("elo0 must be less than elo1".into()));
        }
        for (name, v) in [("alpha", c.alpha), ("beta", c.beta)] {
            if !(v > 0.0 && v < 0.5) {
                return Err(err(format!("{name} must be between 0 and 0.5")));
            }
        }
        Ok(c)
    }
}

impl fmt::Display for SprtConfig {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let model = match self.model {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        };
        write!(
            f,
            "elo0={},elo1={},alpha={},beta={},model={model}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl SprtConfig {
    /// The lower (accept H0) and upper (accept H1) LLR bounds.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of H1 against H0 for these pair counts (0 without pairs).
    pub fn llr(&self, p: &Pentanomial) -> f64 {
        if p.pairs() == 0 {
            return 0.0;
        }
        let counts: Vec<f64> = p.0.iter().map(|&c| if c == 0 { 1e-3 } else { c as f64 }).collect();
        let n: f64 = counts.iter().sum();
        let pdf: Vec<(f64, f64)> = counts.iter().enumerate().map(|(i, &c)| (i as f64 / 4.0, c / n)).collect();
        let (q0, q1) = match self.model {
            SprtModel::Normalized => {
                let k = 800.0 / std::f64::consts::LN_10;
                let t = |elo: f64| elo / k * std::f64::consts::SQRT_2;
                (mle_t_value(&pdf, 0.5, t(self.elo0)), mle_t_value(&pdf, 0.5, t(self.elo1)))
            }
            SprtModel::Logistic => (
                mle_expected(&pdf, math::elo_to_score(self.elo0)),
                mle_expected(&pdf, math::elo_to_score(self.elo1)),
            ),
        };
        n * pdf.iter().zip(q0.iter().zip(&q1)).map(|(&(_, p), (a, b))| p * (b / a).ln()).sum::<f64>()
    }

    /// The verdict for an LLR.
    pub fn verdict(&self, llr: f64) -> SprtVerdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            SprtVerdict::H1
        } else if llr <= lo {
            SprtVerdict::H0
        } else {
            SprtVerdict::Continue
        }
    }
}

fn mean_var(values: &[f64], probs: &[f64]) -> (f64, f64) {
    let mu: f64 = values.iter().zip(probs).map(|(a, p)| a * p).sum();
    (mu, values.iter().zip(probs).map(|(a, p)| p * (a - mu).powi(2)).sum())
}

/// The `x` with `sum p_i a_i / (1 + x a_i) = 0` and every `1 + x a_i > 0` (fishtest
/// `secular`), by bisection: the sum decreases in `x` on that interval.
fn secular(pdf: &[(f64, f64)]) -> f64 {
    let v = pdf.iter().map(|&(a, _)| a).fold(f64::INFINITY, f64::min);
    let w = pdf.iter().map(|&(a, _)| a).fold(f64::NEG_INFINITY, f64::max);
    if v >= 0.0 || w <= 0.0 {
        // Every a_i on one side of 0 cannot happen for a regularised pdf; stay finite.
        return 0.0;
    }
    let f = |x: f64| pdf.iter().map(|&(a, p)| p * a / (1.0 + x * a)).sum::<f64>();
    let (l, h) = (-1.0 / w, -1.0 / v);
    let (mut lo, mut hi) = (l + 1e-12 * (h - l), h - 1e-12 * (h - l));
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// The distribution on the same outcomes closest to `pdf` with mean `s` (fishtest
/// `MLE_expected`).
fn mle_expected(pdf: &[(f64, f64)], s: f64) -> Vec<f64> {
    let shifted: Vec<(f64, f64)> = pdf.iter().map(|&(a, p)| (a - s, p)).collect();
    let x = secular(&shifted);
    shifted.iter().map(|&(a, p)| p / (1.0 + x * a)).collect()
}

/// The distribution closest to `pdf` with t-value `(mean - reference) / sd = t` (fishtest
/// `MLE_tvalue`: a fixed-point iteration on the Lagrange condition).
fn mle_t_value(pdf: &[(f64, f64)], reference: f64, t: f64) -> Vec<f64> {
    let values: Vec<f64> = pdf.iter().map(|&(a, _)| a).collect();
    let mut q = vec![1.0 / pdf.len() as f64; pdf.len()];
    for _ in 0..10 {
        let (mu, var) = mean_var(&values, &q);
        let sigma = var.sqrt();
        let lagrange: Vec<(f64, f64)> = pdf
            .iter()
            .map(|&(a, p)| (a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0, p))
            .collect();
        let x = secular(&lagrange);
        let next: Vec<f64> = lagrange.iter().map(|&(a, p)| p / (1.0 + x * a)).collect();
        let change = q.iter().zip(&next).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        q = next;
        if change < 1e-9 {
            break;
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(text: &str) -> SprtConfig {
        text.parse().unwrap()
    }

    #[test]
    fn bounds_from_alpha_beta() {
        // ln(0.05 / 0.95) = -2.944439, ln(0.95 / 0.05) = 2.944439.
        let (lo, hi) = sprt("elo0=0,elo1=10").bounds();
        assert!((lo + 2.944_438_979).abs() < 1e-8 && (hi - 2.944_438_979).abs() < 1e-8);
        // alpha 0.01, beta 0.1: ln(0.1/0.99) = -2.292535, ln(0.9/0.01) = 4.499810.
        let (lo, hi) = sprt("elo0=0,elo1=5,alpha=0.01,beta=0.1").bounds();
        assert!((lo + 2.292_534_757).abs() < 1e-8 && (hi - 4.499_809_670).abs() < 1e-8);
    }

    #[test]
    fn llr_matches_published_fastchess_output() {
        // fastchess printed, with [0.00, 10.00] and the normalized model:
        // Ptnml(0-2) [1, 11, 47, 25, 16] -> LLR 1.71, [1, 15, 25, 33, 26] -> 2.19,
        // [1, 24, 42, 25, 8] -> 0.60, [2, 23, 32, 35, 8] -> 0.92. A straight transcription of
        // fishtest's LLRcalc.py gives 1.70602, 2.19183, 0.59913, 0.91578.
        let s = sprt("elo0=0,elo1=10,alpha=0.05,beta=0.05");
        for (p, want) in [
            ([1, 11, 47, 25, 16], 1.706_024),
            ([1, 15, 25, 33, 26], 2.191_830),
            ([1, 24, 42, 25, 8], 0.599_131),
            ([2, 23, 32, 35, 8], 0.915_775),
        ] {
            let llr = s.llr(&Pentanomial(p));
            assert!((llr - want).abs() < 1e-4, "{p:?}: {llr} vs {want}");
        }
        // Logistic model (LLRcalc.LLR_logistic transcription): 2.403574; a zero count
        // regularised to 1e-3 with elo0 -5, elo1 5: -0.258502 (normalized: -0.122041).
        let l = sprt("elo0=0,elo1=10,model=logistic");
        assert!((l.llr(&Pentanomial([1, 11, 47, 25, 16])) - 2.403_574).abs() < 1e-4);
        let l = sprt("elo0=-5,elo1=5,model=logistic");
        assert!((l.llr(&Pentanomial([0, 5, 10, 3, 0])) + 0.258_502).abs() < 1e-4);
        assert!((sprt("elo0=-5,elo1=5").llr(&Pentanomial([0, 5, 10, 3, 0])) + 0.122_041).abs() < 1e-4);
        assert_eq!(s.llr(&Pentanomial::default()), 0.0);
    }

    #[test]
    fn verdicts() {
        let s = sprt("elo0=0,elo1=10");
        assert_eq!(s.verdict(3.0), SprtVerdict::H1);
        assert_eq!(s.verdict(-3.0), SprtVerdict::H0);
        assert_eq!(s.verdict(0.0), SprtVerdict::Continue);
        // [0, 2, 20, 30, 40] gives LLR 2.798 (LLRcalc.py), short of 2.944; twice as many
        // pairs double it to 5.596 and accept H1; the mirror image gives -5.878 and H0.
        assert_eq!(s.verdict(s.llr(&Pentanomial([0, 4, 40, 60, 80]))), SprtVerdict::H1);
        assert_eq!(s.verdict(s.llr(&Pentanomial([80, 60, 40, 4, 0]))), SprtVerdict::H0);
    }

    #[test]
    fn parsing() {
        assert_eq!(
            sprt("elo0=0,elo1=10,alpha=0.05,beta=0.05").to_string().parse::<SprtConfig>(),
            Ok(sprt("elo0=0,elo1=10"))
        );
        for bad in [
            "elo0=0",
            "elo0=10,elo1=0",
            "elo0=0,elo1=5,alpha=2",
            "elo0=x,elo1=5",
            "elo0=0,elo1=5,foo=1",
            "model=x",
        ] {
            assert!(bad.parse::<SprtConfig>().is_err(), "{bad}");
        }
    }
}
