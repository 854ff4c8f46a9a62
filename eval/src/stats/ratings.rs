//! Maximum-likelihood ratings of several players from their head-to-head results, as Ordo
//! and BayesElo do.
//!
//! Model: the expected score of `i` against `j` is `E_ij = 1 / (1 + 10^(-(r_i - r_j)/400))`
//! and a draw counts as half a win and half a loss (Ordo's treatment), so the log-likelihood is
//! `sum_ij s_ij ln E_ij + (n_ij - s_ij) ln(1 - E_ij)` with `s_ij` the points of `i` in its
//! `n_ij` games against `j`. It is maximised by the minorisation-maximisation iteration of
//! Zermelo/Hunter (`g_i <- S_i / sum_j n_ij / (g_i + g_j)`, `g = 10^(r/400)`), which converges
//! for a connected set of players none of whom scored everything or nothing. An optional prior
//! of virtual draws between every pair that met (BayesElo uses 2) keeps perfect scores finite.
//!
//! Error bars are 95 % intervals from the inverse Fisher information: with
//! `w_ij = n_ij E_ij (1 - E_ij)` the information in Elo units is `c^2 L` (`c = ln 10 / 400`,
//! `L` the weighted graph Laplacian of `w`). Anchoring one player at 0 inverts `L` without that
//! player's row and column; anchoring the mean at 0 uses the pseudo-inverse
//! `L+ = (L + J/n)^-1 - J/n`.

// Dense matrix code reads best with indices.
#![allow(clippy::needless_range_loop)]

use serde::{Deserialize, Serialize};

use super::{Wdl, Z95};

/// The results of one pair of players, from `a`'s point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairTally {
    /// Index of the first player.
    pub a: usize,
    /// Index of the second player.
    pub b: usize,
    /// `a`'s results against `b`.
    pub wdl: Wdl,
}

/// Which rating is fixed at 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Anchor {
    /// The mean of all ratings is 0.
    Mean,
    /// This player is rated 0.
    Player(usize),
}

/// Options of [`ml_ratings`].
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingOptions {
    /// What is fixed at 0.
    pub anchor: Anchor,
    /// Virtual draws added to every pair that played (0 = pure maximum likelihood).
    pub prior_draws: f64,
}

impl Default for RatingOptions {
    fn default() -> RatingOptions {
        RatingOptions { anchor: Anchor::Mean, prior_draws: 0.0 }
    }
}

/// A player's rating with the half width of its 95 % interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// Elo relative to the anchor.
    pub elo: f64,
    /// Half width of the 95 % interval.
    pub error: f64,
}

impl RatingError {
    /// Always `true`: the results given cannot be rated.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// Why ratings cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RatingError {
    /// A tally names a player that does not exist, or a player against itself.
    #[error("results name player {0}, not one of the {1} players (or a player against itself)")]
    BadPlayer(usize, usize),
    /// The players do not all meet, directly or through others.
    #[error("player {0} is not connected to player 0 by games: ratings are not comparable")]
    Disconnected(usize),
    /// A player won or lost every game: its maximum-likelihood rating is infinite.
    #[error("player {0} scored {1} of its games: its rating is unbounded (use a prior of virtual draws)")]
    Unbounded(usize, &'static str),
}

/// Maximum-likelihood ratings of `players` players (see the module documentation).
///
/// # Errors
/// [`RatingError`] for a tally naming an unknown player, players not connected by games, or
/// (without a prior) a player who won or lost all its games.
pub fn ml_ratings(
    players: usize,
    tallies: &[PairTally],
    opts: &RatingOptions,
) -> Result<Vec<Rating>, RatingError> {
    let n = players;
    if n == 0 {
        return Ok(Vec::new());
    }
    let (games, total_points) = results_matrix(n, tallies, opts.prior_draws)?;
    let gamma = mm_strengths(&games, &total_points);
    let mut elo: Vec<f64> = gamma.iter().map(|g| g.ln() * TO_ELO).collect();
    let shift = match opts.anchor {
        Anchor::Mean => elo.iter().sum::<f64>() / n as f64,
        Anchor::Player(k) if k < n => elo[k],
        Anchor::Player(k) => return Err(RatingError::BadPlayer(k, n)),
    };
    for e in &mut elo {
        *e -= shift;
    }
    let variances = rating_variances(&games, &elo, opts.anchor);
    let c = 1.0 / TO_ELO;
    Ok(elo.iter().zip(&variances).map(|(&e, &v)| Rating { elo: e, error: Z95 * v.sqrt() / c }).collect())
}

/// Elo points per natural-log unit of strength.
const TO_ELO: f64 = 400.0 / std::f64::consts::LN_10;

/// `games[i][j]` between `i` and `j` (with the prior draws added where they met) and the
/// points each player scored in all, checked: every player in range, the players connected,
/// nobody with all or none of the points.
fn results_matrix(
    n: usize,
    tallies: &[PairTally],
    prior_draws: f64,
) -> Result<(Vec<Vec<f64>>, Vec<f64>), RatingError> {
    // games[i][j] and points[i][j] of i against j.
    let mut games = vec![vec![0.0f64; n]; n];
    let mut points = vec![vec![0.0f64; n]; n];
    for t in tallies {
        if t.a >= n || t.b >= n || t.a == t.b {
            return Err(RatingError::BadPlayer(t.a.max(t.b), n));
        }
        let g = t.wdl.games() as f64;
        games[t.a][t.b] += g;
        games[t.b][t.a] += g;
        points[t.a][t.b] += t.wdl.points();
        points[t.b][t.a] += g - t.wdl.points();
    }
    for i in 0..n {
        for j in 0..n {
            if games[i][j] > 0.0 {
                games[i][j] += prior_draws;
                points[i][j] += prior_draws / 2.0;
            }
        }
    }
    check_connected(&games)?;
    let total_points: Vec<f64> = points.iter().map(|r| r.iter().sum()).collect();
    for i in 0..n {
        let played: f64 = games[i].iter().sum();
        if n > 1 && total_points[i] <= 0.0 {
            return Err(RatingError::Unbounded(i, "nothing"));
        }
        if n > 1 && total_points[i] >= played {
            return Err(RatingError::Unbounded(i, "everything"));
        }
    }
    Ok((games, total_points))
}

/// Minorisation-maximisation on gamma = 10^(r/400), normalised to a geometric mean of 1.
fn mm_strengths(games: &[Vec<f64>], total_points: &[f64]) -> Vec<f64> {
    let n = games.len();
    let mut gamma = vec![1.0f64; n];
    for _ in 0..100_000 {
        let mut next = gamma.clone();
        for i in 0..n {
            let denom: f64 =
                (0..n).filter(|&j| games[i][j] > 0.0).map(|j| games[i][j] / (gamma[i] + gamma[j])).sum();
            if denom > 0.0 {
                next[i] = total_points[i] / denom;
            }
        }
        let log_mean = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        for g in &mut next {
            *g /= log_mean.exp();
        }
        let change = gamma.iter().zip(&next).map(|(a, b)| (a.ln() - b.ln()).abs()).fold(0.0, f64::max);
        gamma = next;
        if change < 1e-13 {
            break;
        }
    }
    gamma
}

/// The ratings' variances: the Fisher information (Laplacian of n_ij E (1 - E)) inverted,
/// around the mean or with the anchor's row and column removed.
fn rating_variances(games: &[Vec<f64>], elo: &[f64], anchor: Anchor) -> Vec<f64> {
    let n = games.len();
    let mut lap = vec![vec![0.0f64; n]; n];
    for i in 0..n {
        for j in 0..n {
            if i != j && games[i][j] > 0.0 {
                let e = 1.0 / (1.0 + ((elo[j] - elo[i]) / TO_ELO).exp());
                let w = games[i][j] * e * (1.0 - e);
                lap[i][j] -= w;
                lap[i][i] += w;
            }
        }
    }
    match anchor {
        Anchor::Mean => {
            let jn = 1.0 / n as f64;
            let shifted: Vec<Vec<f64>> = lap.iter().map(|r| r.iter().map(|v| v + jn).collect()).collect();
            match invert(&shifted) {
                Some(inv) => (0..n).map(|i| (inv[i][i] - jn).max(0.0)).collect(),
                None => vec![f64::INFINITY; n],
            }
        }
        Anchor::Player(k) => {
            let keep: Vec<usize> = (0..n).filter(|&i| i != k).collect();
            let sub: Vec<Vec<f64>> =
                keep.iter().map(|&i| keep.iter().map(|&j| lap[i][j]).collect()).collect();
            let mut v = vec![0.0; n];
            match invert(&sub) {
                Some(inv) => keep.iter().enumerate().for_each(|(a, &i)| v[i] = inv[a][a]),
                None => keep.iter().for_each(|&i| v[i] = f64::INFINITY),
            }
            v
        }
    }
}

fn check_connected(games: &[Vec<f64>]) -> Result<(), RatingError> {
    let n = games.len();
    let mut seen = vec![false; n];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for j in 0..n {
            if games[i][j] > 0.0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    match seen.iter().position(|s| !s) {
        Some(j) => Err(RatingError::Disconnected(j)),
        None => Ok(()),
    }
}

/// Gauss-Jordan inversion with partial pivoting; `None` for a singular matrix.
fn invert(m: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let n = m.len();
    let mut a: Vec<Vec<f64>> = m
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut row = r.clone();
            row.extend((0..n).map(|j| if i == j { 1.0 } else { 0.0 }));
            row
        })
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-300 {
            return None;
        }
        a.swap(col, pivot);
        let p = a[col][col];
        for v in &mut a[col] {
            *v /= p;
        }
        for r in 0..n {
            if r != col {
                let f = a[r][col];
                if f != 0.0 {
                    for k in 0..2 * n {
                        a[r][k] -= f * a[col][k];
                    }
                }
            }
        }
    }
    Some(a.into_iter().map(|r| r[n..].to_vec()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(a: usize, b: usize, wins: u64, draws: u64, losses: u64) -> PairTally {
        PairTally { a, b, wdl: Wdl { wins, draws, losses } }
    }

    #[test]
    fn two_players_match_the_score_formula() {
        // A scores 25 + 10/2 = 30 of 40 = 0.75 against B: ML difference = -400 log10(1/3)
        // = 190.8485. Anchored at A: B = -190.8485, variance 1 / (c^2 n p q) with
        // c = ln10/400, n p q = 40 * 0.75 * 0.25 = 7.5 -> error 1.96 * 63.43 = 124.3259.
        let t = [tally(0, 1, 25, 10, 5)];
        let r = ml_ratings(2, &t, &RatingOptions { anchor: Anchor::Player(0), prior_draws: 0.0 }).unwrap();
        assert_eq!(r[0].elo, 0.0);
        assert_eq!(r[0].error, 0.0);
        assert!((r[1].elo + 190.848_502).abs() < 1e-6, "{r:?}");
        assert!((r[1].error - 124.325_943).abs() < 1e-4, "{r:?}");
        // Mean anchor: +-95.42, each error half the difference's.
        let r = ml_ratings(2, &t, &RatingOptions::default()).unwrap();
        assert!((r[0].elo - 95.424_251).abs() < 1e-6 && (r[1].elo + 95.424_251).abs() < 1e-6);
        assert!((r[0].error - 62.162_971).abs() < 1e-4);
    }

    #[test]
    fn chain_of_three() {
        // A 3/4 vs B, B 3/4 vs C, A and C never meet: each difference is 190.8485, the mean
        // anchor gives 190.85, 0, -190.85. Fisher information: path Laplacian times
        // a = 4 * 0.75 * 0.25 = 0.75; its pseudo-inverse has diagonal (5/9, 2/9, 5/9) / a, so
        // the errors are 1.96 * sqrt(5/9/0.75) * 400/ln10 = 293.039 and 185.334.
        let t = [tally(0, 1, 3, 0, 1), tally(1, 2, 2, 2, 0)];
        let r = ml_ratings(3, &t, &RatingOptions::default()).unwrap();
        for (got, want) in r.iter().zip([190.848_502, 0.0, -190.848_502]) {
            assert!((got.elo - want).abs() < 1e-6, "{r:?}");
        }
        assert!((r[0].error - 293.039_058).abs() < 1e-3 && (r[1].error - 185.334_173).abs() < 1e-3, "{r:?}");
    }

    #[test]
    fn gradient_vanishes_in_a_round_robin() {
        let t = [tally(0, 1, 5, 3, 2), tally(0, 2, 7, 1, 2), tally(1, 2, 4, 4, 2), tally(2, 1, 1, 0, 3)];
        let r = ml_ratings(3, &t, &RatingOptions::default()).unwrap();
        // At the maximum every player's expected points equal its actual points.
        let mut expected = [0.0; 3];
        let mut actual = [0.0; 3];
        for x in &t {
            let e = 1.0 / (1.0 + 10f64.powf((r[x.b].elo - r[x.a].elo) / 400.0));
            let g = x.wdl.games() as f64;
            expected[x.a] += g * e;
            expected[x.b] += g * (1.0 - e);
            actual[x.a] += x.wdl.points();
            actual[x.b] += g - x.wdl.points();
        }
        for i in 0..3 {
            assert!((expected[i] - actual[i]).abs() < 1e-6, "{expected:?} {actual:?}");
        }
        assert!(r.iter().map(|x| x.elo).sum::<f64>().abs() < 1e-9);
        assert!(r[0].elo > r[1].elo && r[1].elo > r[2].elo);
    }

    #[test]
    fn errors_and_prior() {
        let perfect = [tally(0, 1, 4, 0, 0)];
        assert_eq!(
            ml_ratings(2, &perfect, &RatingOptions::default()),
            Err(RatingError::Unbounded(0, "everything"))
        );
        // Two virtual draws: 4 + 1 points of 6 = 5/6 -> 400 log10(5) = 279.588.
        let r =
            ml_ratings(2, &perfect, &RatingOptions { anchor: Anchor::Player(1), prior_draws: 2.0 }).unwrap();
        assert!((r[0].elo - 279.588_002).abs() < 1e-5, "{r:?}");
        assert_eq!(
            ml_ratings(3, &[tally(0, 1, 1, 1, 1)], &RatingOptions::default()),
            Err(RatingError::Disconnected(2))
        );
        assert!(matches!(
            ml_ratings(2, &[tally(0, 5, 1, 0, 0)], &RatingOptions::default()),
            Err(RatingError::BadPlayer(..))
        ));
    }
}
