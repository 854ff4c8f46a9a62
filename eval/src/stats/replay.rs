//! How many games an SPRT needs to decide, estimated from a match already played: the SPRT is
//! run again over the match's pairs in many random orders (each order a match that could have
//! been played), and the games at which each order decides are counted. The median over the
//! orders is the figure compared between opening suites (docs/BENCHMARKS.md, "Opening suites").

use fanorona_core::Rng;
use serde::{Deserialize, Serialize};

use super::{Pentanomial, SprtConfig, SprtVerdict};

/// The SPRT over random orders of a match's pairs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtReplay {
    /// Orders replayed.
    pub orders: u32,
    /// Orders that accepted H1.
    pub h1: u32,
    /// Orders that accepted H0.
    pub h0: u32,
    /// Orders still undecided after every pair.
    pub undecided: u32,
    /// The median of the games each order needed to decide, an undecided order counting as
    /// more than all; `None` when half of the orders or more did not decide.
    pub median_games: Option<u64>,
    /// The games of the match (twice its pairs).
    pub games: u64,
}

/// Replays `sprt` over `orders` random orders of `pairs` (each a pair's score for the first
/// engine in half points, 0 to 4), the orders drawn from `seed`.
pub fn replay_sprt(pairs: &[u8], sprt: &SprtConfig, orders: u32, seed: u64) -> SprtReplay {
    let mut needed = Vec::with_capacity(orders as usize);
    let (mut h1, mut h0) = (0, 0);
    let mut order: Vec<u8> = pairs.iter().map(|&p| p.min(4)).collect();
    for k in 0..orders {
        let mut rng = Rng::derive(seed, u64::from(k));
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i as u64 + 1) as usize);
        }
        match decide(&order, sprt) {
            Some((SprtVerdict::H1, games)) => {
                h1 += 1;
                needed.push(games);
            }
            Some((_, games)) => {
                h0 += 1;
                needed.push(games);
            }
            None => needed.push(u64::MAX),
        }
    }
    needed.sort_unstable();
    let median_games = needed.get(needed.len().saturating_sub(1) / 2).copied().filter(|&g| g != u64::MAX);
    SprtReplay { orders, h1, h0, undecided: orders - h1 - h0, median_games, games: pairs.len() as u64 * 2 }
}

/// The verdict of the SPRT on `pairs` in this order and the games it took, or `None` when it
/// does not decide.
fn decide(pairs: &[u8], sprt: &SprtConfig) -> Option<(SprtVerdict, u64)> {
    let mut p = Pentanomial::default();
    for (i, &half_points) in pairs.iter().enumerate() {
        p.0[half_points as usize] += 1;
        let v = sprt.verdict(sprt.llr(&p));
        if v != SprtVerdict::Continue {
            return Some((v, (i as u64 + 1) * 2));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sprt(text: &str) -> SprtConfig {
        text.parse().unwrap()
    }

    #[test]
    fn a_one_sided_match_decides_at_the_same_pair_in_every_order() {
        // Every pair won 2-0: every order is the same sequence.
        let pairs = [4u8; 100];
        let r = replay_sprt(&pairs, &sprt("elo0=0,elo1=10"), 20, 1);
        assert_eq!((r.h1, r.h0, r.undecided, r.games), (20, 0, 0, 200));
        let one = decide(&pairs, &sprt("elo0=0,elo1=10")).unwrap();
        assert_eq!(r.median_games, Some(one.1));
        assert_eq!(one.0, SprtVerdict::H1);
    }

    #[test]
    fn a_level_match_accepts_h0_or_stays_undecided_and_orders_differ() {
        // 1-1 pairs mostly, a few won and lost both ways: no difference.
        let mut pairs = vec![2u8; 300];
        for i in 0..40 {
            pairs[i * 7] = if i % 2 == 0 { 3 } else { 1 };
        }
        let r = replay_sprt(&pairs, &sprt("elo0=0,elo1=10"), 50, 7);
        assert_eq!(r.h1, 0);
        assert_eq!(r.h0 + r.undecided, 50);
        // The same seed, the same replay; the median is one of the orders' counts.
        assert_eq!(replay_sprt(&pairs, &sprt("elo0=0,elo1=10"), 50, 7), r);
        if let Some(m) = r.median_games {
            assert!(m % 2 == 0 && m <= 600, "{m}");
        }
        // Too few pairs to decide: no median.
        let short = replay_sprt(&pairs[..4], &sprt("elo0=0,elo1=10"), 10, 1);
        assert_eq!((short.undecided, short.median_games), (10, None));
    }
}
