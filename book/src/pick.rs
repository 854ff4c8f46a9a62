//! Choosing a turn from a position's book entries: the best score the games make likely, not
//! the best score seen (one won game is no proof).

use crate::format::{Entry, Stats};

/// A pessimistic estimate of the mover's score after a turn: the mean score with one win and
/// one loss added (so few games pull it towards even), less one standard error.
pub fn lower_bound(s: &Stats) -> f64 {
    let n = s.games() as f64 + 2.0;
    let mean = (f64::from(s.wins) + 0.5 * f64::from(s.draws) + 1.0) / n;
    mean - (mean * (1.0 - mean) / n).sqrt()
}

/// The entry a player plays: among those played in at least `min_games` games, the one with
/// the highest analysed score in an analysed book, else the highest [`lower_bound`]; the most
/// played on a tie, the first in the book's order after that. `None` when no entry has enough
/// games.
pub fn best_entry(entries: &[Entry], min_games: u32) -> Option<&Entry> {
    let mut best: Option<(&Entry, f64)> = None;
    for e in entries.iter().filter(|e| e.stats.games() >= u64::from(min_games)) {
        let value = e.score.map_or_else(|| lower_bound(&e.stats), f64::from);
        let better = match best {
            None => true,
            Some((b, v)) => value > v || (value == v && e.stats.games() > b.stats.games()),
        };
        if better {
            best = Some((e, value));
        }
    }
    best.map(|(e, _)| e)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::Position;

    fn entries(stats: &[(u32, u32, u32)]) -> Vec<Entry> {
        let p = Position::start();
        let moves = p.legal_moves();
        stats
            .iter()
            .zip(moves.iter())
            .map(|(&(wins, draws, losses), m)| Entry {
                position: p,
                turn: m.turn(),
                stats: Stats { wins, draws, losses },
                score: None,
            })
            .collect()
    }

    #[test]
    fn a_lucky_win_loses_to_a_long_record() {
        // 1/1 won against 60 won, 30 drawn, 10 lost of 100.
        let e = entries(&[(1, 0, 0), (60, 30, 10)]);
        assert_eq!(best_entry(&e, 1), Some(&e[1]));
        // (1 + 1) / 3 - sqrt((2/3)(1/3)/3) = 0.6667 - 0.2722.
        assert!((lower_bound(&e[0].stats) - (2.0 / 3.0 - (2.0f64 / 27.0).sqrt())).abs() < 1e-12);
    }

    #[test]
    fn too_few_games_are_not_played_and_ties_go_to_the_most_played() {
        let e = entries(&[(3, 0, 0), (5, 0, 5), (50, 0, 50)]);
        assert_eq!(best_entry(&e, 4), Some(&e[2]));
        assert_eq!(best_entry(&e, 200), None);
        let tie = entries(&[(2, 0, 2), (2, 0, 2)]);
        assert_eq!(best_entry(&tie, 1), Some(&tie[0]));
    }

    #[test]
    fn an_analysed_book_plays_its_best_score() {
        let mut e = entries(&[(0, 0, 0), (0, 0, 0), (0, 0, 0)]);
        for (entry, score) in e.iter_mut().zip([-40, 25, 10]) {
            entry.score = Some(score);
        }
        assert_eq!(best_entry(&e, 0), Some(&e[1]));
        e[2].score = Some(25);
        assert_eq!(best_entry(&e, 0), Some(&e[1]), "the first on a tie");
        assert_eq!(best_entry(&e, 1), None, "no entry was played in a game");
    }
}
