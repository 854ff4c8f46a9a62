//! Small numeric helpers: the logistic Elo curve and the normal distribution.

/// The logistic Elo difference for an expected score: `-400 log10(1/s - 1)`.
///
/// Infinite for a score of 0 or 1.
pub fn score_to_elo(score: f64) -> f64 {
    // `+ 0.0` turns the -0 of an even score into 0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The logistic Elo of score `mu` with the 95 % half width from the score's standard error
/// `sd`: `(elo(mu + z sd) - elo(mu - z sd)) / 2` (infinite at a score of 0 or 1).
pub fn elo_with_interval(mu: f64, sd: f64) -> super::EloEstimate {
    let error = (score_to_elo(mu + super::Z95 * sd) - score_to_elo(mu - super::Z95 * sd)) / 2.0;
    // A score of 0 or 1 has an infinite estimate and no finite interval.
    let error = if error.is_nan() { f64::INFINITY } else { error };
    super::EloEstimate { elo: score_to_elo(mu), error }
}

/// The error function (W. J. Cody's rational approximations via `erfc`; absolute error below
/// 1e-14 over the real line, far more than a printed LOS needs).
pub fn erf(x: f64) -> f64 {
    if x == 0.0 {
        0.0
    } else if x < 0.0 {
        -erf(-x)
    } else {
        1.0 - erfc_pos(x)
    }
}

/// The standard normal distribution function.
pub fn normal_cdf(z: f64) -> f64 {
    if z < 0.0 {
        0.5 * erfc_pos(-z / std::f64::consts::SQRT_2)
    } else {
        0.5 * (1.0 + erf(z / std::f64::consts::SQRT_2))
    }
}

/// `erfc(x)` for `x >= 0`: a Chebyshev fit in `t = 2/(2+x)` (Numerical Recipes 3rd ed.,
/// `Erf::erfccheb`, fractional error about 1e-16).
fn erfc_pos(z: f64) -> f64 {
    #[allow(clippy::excessive_precision)] // published coefficients, kept as printed
    const COF: [f64; 28] = [
        -1.3026537197817094,
        6.4196979235649026e-1,
        1.9476473204185836e-2,
        -9.561514786808631e-3,
        -9.46595344482036e-4,
        3.66839497852761e-4,
        4.2523324806907e-5,
        -2.0278578112534e-5,
        -1.624290004647e-6,
        1.303655835580e-6,
        1.5626441722e-8,
        -8.5238095915e-8,
        6.529054439e-9,
        5.059343495e-9,
        -9.91364156e-10,
        -2.27365122e-10,
        9.6467911e-11,
        2.394038e-12,
        -6.886027e-12,
        8.94487e-13,
        3.13092e-13,
        -1.12708e-13,
        3.81e-16,
        7.106e-15,
        -1.523e-15,
        -9.4e-17,
        1.21e-16,
        -2.8e-17,
    ];
    let t = 2.0 / (2.0 + z);
    let ty = 4.0 * t - 2.0;
    let (mut d, mut dd) = (0.0, 0.0);
    for &c in COF[1..].iter().rev() {
        let tmp = d;
        d = ty * d - dd + c;
        dd = tmp;
    }
    t * (-z * z + 0.5 * (COF[0] + ty * d) - dd).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erf_matches_tabulated_values() {
        // Abramowitz & Stegun table 7.1: erf(0.5) = 0.5204998778, erf(1) = 0.8427007929,
        // erf(2) = 0.9953222650.
        assert!((erf(0.5) - 0.520_499_877_8).abs() < 1e-9);
        assert!((erf(1.0) - 0.842_700_792_9).abs() < 1e-9);
        assert!((erf(2.0) - 0.995_322_265_0).abs() < 1e-9);
        assert!((erf(-1.0) + 0.842_700_792_9).abs() < 1e-9);
        assert_eq!(erf(0.0), 0.0);
        // Phi(1.959964) = 0.975.
        assert!((normal_cdf(super::super::Z95) - 0.975).abs() < 1e-9);
        assert!((normal_cdf(-1.0) - 0.158_655_253_9).abs() < 1e-9);
    }

    #[test]
    fn elo_curve() {
        // 0.75 -> -400 log10(1/3) = 400 * 0.47712 = 190.85
        assert!((score_to_elo(0.75) - 190.848_501_9).abs() < 1e-6);
        assert_eq!(score_to_elo(0.5), 0.0);
        assert!((elo_to_score(190.848_501_9) - 0.75).abs() < 1e-9);
        assert!(score_to_elo(1.0).is_infinite());
    }
}
