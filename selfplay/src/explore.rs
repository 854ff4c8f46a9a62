//! Picking a turn during exploration.

use fanorona_core::Move;
use fanorona_core::Rng;
use fanorona_engine::Decision;

use crate::Exploration;

/// The turn to play given the player's decision, and whether it differs from the player's
/// choice (an exploration turn).
pub fn pick(decision: &Decision, legal: &[Move], rule: Exploration, rng: &mut Rng) -> (Move, bool) {
    let chosen = match rule {
        Exploration::None => decision.mv,
        Exploration::Epsilon(e) => {
            if rng.next_f64() < e && !legal.is_empty() {
                legal[rng.below(legal.len() as u64) as usize]
            } else {
                decision.mv
            }
        }
        Exploration::Temperature(t) => {
            let root = &decision.root;
            match root.iter().map(|(_, s)| *s).max() {
                None => decision.mv,
                Some(best) => {
                    let weight = |s: i32| (f64::from(s - best) / t).exp();
                    let total: f64 = root.iter().map(|(_, s)| weight(*s)).sum();
                    let mut x = rng.next_f64() * total;
                    let mut pick = root[root.len() - 1].0;
                    for (m, s) in root {
                        x -= weight(*s);
                        if x < 0.0 {
                            pick = *m;
                            break;
                        }
                    }
                    pick
                }
            }
        }
    };
    (chosen, chosen != decision.mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::Position;

    #[test]
    fn temperature_prefers_better_turns() {
        let pos = Position::start();
        let legal = pos.legal_moves();
        let mut d = Decision::unsearched(legal[0]);
        d.root = vec![(legal[0], 100), (legal[1], 0), (legal[2], -2000)];
        let mut rng = Rng::new(5);
        let mut counts = [0u32; 3];
        for _ in 0..3000 {
            let (m, explored) = pick(&d, &legal, Exploration::Temperature(100.0), &mut rng);
            let i = legal.iter().position(|l| *l == m).unwrap();
            counts[i] += 1;
            assert_eq!(explored, i != 0);
        }
        // Expected shares: 1 / (1 + e^-1 + e^-21) = 0.731 and 0.269; the third never.
        assert!((2050..2330).contains(&counts[0]), "{counts:?}");
        assert_eq!(counts[2], 0);
        // No root scores: the player's choice.
        let d = Decision::unsearched(legal[3]);
        assert_eq!(pick(&d, &legal, Exploration::Temperature(100.0), &mut rng), (legal[3], false));
    }

    #[test]
    fn epsilon() {
        let pos = Position::start();
        let legal = pos.legal_moves();
        let d = Decision::unsearched(legal[0]);
        let mut rng = Rng::new(9);
        assert_eq!(pick(&d, &legal, Exploration::Epsilon(0.0), &mut rng), (legal[0], false));
        let explored = (0..1000).filter(|_| pick(&d, &legal, Exploration::Epsilon(1.0), &mut rng).1).count();
        // A random turn among 5 is the player's one a fifth of the time.
        assert!((730..870).contains(&explored), "{explored}");
    }
}
