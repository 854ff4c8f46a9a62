//! SPSA as fishtest runs it (server/fishtest/spsa_handler.py) with OpenBench's integer
//! rounding. The run counts game pairs: with `N` pairs in all and `A = a_ratio * N`, a
//! parameter with `c_end` and `r_end` has `c = c_end * N^gamma` and
//! `a = r_end * c_end^2 * (A + N)^alpha`; the iteration that starts at pair `k` (from 1) plays
//! `theta + c_k * flip` against `theta - c_k * flip` (each side's value rounded stochastically
//! to an integer, clamped to the bounds), `c_k = c / k^gamma`, `a_k = a / (A + k)^alpha`, then
//! moves `theta` by `a_k / c_k * (wins - losses) * flip`, clamped.

use fanorona_core::Rng;
use serde::{Deserialize, Serialize};

use crate::config::{Rate, TuneConfig};

/// One iteration's draw: the perturbation and gain of each parameter, the signs, the values
/// each side plays.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Step {
    /// The iteration, from 0.
    pub iteration: u64,
    /// The first pair it counts as, from 1 (`k` of the schedule).
    pub k: u64,
    /// `c_k` of each parameter.
    pub c: Vec<f64>,
    /// `a_k / c_k^2` of each parameter (fishtest's `R`).
    pub r: Vec<f64>,
    /// +1 or -1 for each parameter.
    pub flip: Vec<i8>,
    /// The values of the engine played as `plus` (`theta + c_k * flip`, rounded).
    pub plus: Vec<i64>,
    /// The values of the engine played as `minus` (`theta - c_k * flip`, rounded).
    pub minus: Vec<i64>,
}

/// The schedule's constants of each parameter: `(c, a)`.
fn constants(config: &TuneConfig) -> Vec<(f64, f64)> {
    let n = (config.iterations * config.pairs) as f64;
    let big_a = config.a_ratio * n;
    config
        .params
        .iter()
        .map(|p| {
            let c = p.c_end * n.powf(config.gamma);
            let a = match p.rate {
                Rate::REnd(r) => r * p.c_end * p.c_end * (big_a + n).powf(config.alpha),
                Rate::A(a) => a,
            };
            (c, a)
        })
        .collect()
}

/// The draw of iteration `iteration` with parameters at `theta`: deterministic given the
/// run's seed, whatever came before.
pub fn step(config: &TuneConfig, theta: &[f64], iteration: u64) -> Step {
    let k = iteration * config.pairs + 1;
    let big_a = config.a_ratio * (config.iterations * config.pairs) as f64;
    let mut rng = Rng::derive(config.seed, 0x5B5A_0000_0000 ^ iteration);
    let mut s = Step { iteration, k, c: vec![], r: vec![], flip: vec![], plus: vec![], minus: vec![] };
    for ((p, &(c, a)), &t) in config.params.iter().zip(&constants(config)).zip(theta) {
        let c_k = c / (k as f64).powf(config.gamma);
        let a_k = a / (big_a + k as f64).powf(config.alpha);
        let flip: i8 = if rng.below(2) == 0 { 1 } else { -1 };
        // OpenBench: one uniform draw rounds both sides, so that their gap stays 2 c_k on
        // average.
        let u = rng.below(1 << 24) as f64 / f64::from(1 << 24);
        let round = |x: f64| (x + u).floor().clamp(p.min.ceil(), p.max.floor()) as i64;
        s.plus.push(round(t + c_k * f64::from(flip)));
        s.minus.push(round(t - c_k * f64::from(flip)));
        s.c.push(c_k);
        s.r.push(a_k / (c_k * c_k));
        s.flip.push(flip);
    }
    s
}

/// `theta` after `step` scored `result` (the plus engine's wins minus its losses).
pub fn update(config: &TuneConfig, theta: &[f64], step: &Step, result: i64) -> Vec<f64> {
    config
        .params
        .iter()
        .zip(theta)
        .enumerate()
        .map(|(i, (p, &t))| {
            let moved = t + step.r[i] * step.c[i] * result as f64 * f64::from(step.flip[i]);
            moved.clamp(p.min, p.max)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::Param;

    fn config(rate: Rate) -> TuneConfig {
        TuneConfig {
            engine: "alphabeta:eval=handcrafted".into(),
            options: "nodes=1000".into(),
            iterations: 100,
            pairs: 10,
            concurrency: 1,
            openings: "random:plies=4".into(),
            seed: 3,
            alpha: 0.602,
            gamma: 0.101,
            a_ratio: 0.1,
            cluster_command: String::new(),
            shards: 1,
            params: vec![Param { name: "x".into(), start: 100.0, min: 0.0, max: 200.0, c_end: 4.0, rate }],
        }
    }

    #[test]
    fn the_schedule_ends_at_c_end_and_r_end() {
        // N = 1000 pairs, A = 100: the last iteration starts at pair 991.
        let c = config(Rate::REnd(0.002));
        let last = step(&c, &[100.0], 99);
        assert_eq!(last.k, 991);
        // c_k = 4 * 1000^0.101 / 991^0.101, a hair above c_end.
        let want_c = 4.0 * (1000f64 / 991.0).powf(0.101);
        assert!((last.c[0] - want_c).abs() < 1e-12, "{}", last.c[0]);
        // R_k = a_k / c_k^2 with a = 0.002 * 16 * 1100^0.602, a_k = a / (100 + 991)^0.602.
        let a_k = 0.002 * 16.0 * 1100f64.powf(0.602) / 1091f64.powf(0.602);
        assert!((last.r[0] - a_k / (want_c * want_c)).abs() < 1e-12);
        // The first iteration perturbs most: c_1 = c = 4 * 1000^0.101.
        let first = step(&c, &[100.0], 0);
        assert!((first.c[0] - 4.0 * 1000f64.powf(0.101)).abs() < 1e-12);
        // With `a` given, a_k = a / (A + k)^alpha.
        let a = step(&config(Rate::A(50.0)), &[100.0], 0);
        assert!((a.r[0] * a.c[0] * a.c[0] - 50.0 / 101f64.powf(0.602)).abs() < 1e-12);
    }

    #[test]
    fn sides_straddle_theta_within_bounds_and_draws_repeat() {
        let c = config(Rate::REnd(0.002));
        let mut flips = [0, 0];
        for i in 0..200 {
            let s = step(&c, &[100.0], i % 100);
            assert_eq!(s, step(&c, &[100.0], i % 100));
            let gap = (s.plus[0] - s.minus[0]) * i64::from(s.flip[0]);
            let twice = 2.0 * s.c[0];
            assert!((gap as f64 - twice).abs() <= 1.0, "{s:?}");
            flips[usize::from(s.flip[0] > 0)] += 1;
        }
        assert!(flips[0] > 50 && flips[1] > 50, "{flips:?}");
        // Near a bound both sides are clamped into it.
        let s = step(&c, &[199.5], 0);
        assert!(s.plus[0] <= 200 && s.minus[0] <= 200, "{s:?}");
    }

    #[test]
    fn the_update_follows_the_winner_and_stays_in_bounds() {
        let c = config(Rate::A(50.0));
        let s = step(&c, &[100.0], 0);
        let up = update(&c, &[100.0], &s, 3);
        // theta moves by R c result flip = a_k / c_k * 3 * flip.
        let want = 100.0 + s.r[0] * s.c[0] * 3.0 * f64::from(s.flip[0]);
        assert!((up[0] - want).abs() < 1e-12);
        assert_eq!(update(&c, &[100.0], &s, 0), vec![100.0]);
        let far = update(&c, &[100.0], &s, 1_000_000 * i64::from(s.flip[0]));
        assert_eq!(far, vec![200.0]);
    }
}
