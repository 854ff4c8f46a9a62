//! [`Stats`]: counts over a set of games (results, terminations, lengths, distinct positions),
//! for `fanorona data stats` and the self-play summary.

use std::collections::BTreeMap;

use fanorona_core::{Color, Position};
use serde::Serialize;

use crate::GameRecord;
use crate::distinct::DistinctCounter;

/// Game lengths are counted in buckets of this many turns.
pub const LENGTH_BUCKET: usize = 20;

/// Counts over games. Distinct positions are counted by Zobrist hash (side to move included),
/// every position of every game (start and final positions included).
#[derive(Clone, Debug, Serialize)]
pub struct Stats {
    /// Games.
    pub games: u64,
    /// Positions in which a turn was played (= turns).
    pub positions: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games Black won.
    pub black_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games by how they ended (the termination's name).
    pub terminations: BTreeMap<String, u64>,
    /// Turns marked as exploration (random opening or exploration).
    pub exploration_turns: u64,
    /// Turns with a search score.
    pub scored_turns: u64,
    /// Shortest game, in turns.
    pub min_length: Option<usize>,
    /// Longest game, in turns.
    pub max_length: Option<usize>,
    /// Games by length: key `k` counts games of `k*20 ..= k*20+19` turns.
    pub length_histogram: BTreeMap<usize, u64>,
    /// Distinct positions: exact up to about 4 million, then a HyperLogLog estimate (about
    /// 1% error) so that memory stays bounded; see `distinct_exact`.
    pub distinct_positions: u64,
    /// Whether `distinct_positions` is exact.
    pub distinct_exact: bool,
    #[serde(skip)]
    seen: DistinctCounter,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats {
            games: 0,
            positions: 0,
            white_wins: 0,
            black_wins: 0,
            draws: 0,
            terminations: BTreeMap::new(),
            exploration_turns: 0,
            scored_turns: 0,
            min_length: None,
            max_length: None,
            length_histogram: BTreeMap::new(),
            distinct_positions: 0,
            distinct_exact: true,
            seen: DistinctCounter::new(),
        }
    }
}

impl Stats {
    /// No games yet.
    pub fn new() -> Stats {
        Stats::default()
    }

    /// Counts one game; `positions` are its positions, start and final included (from a
    /// replay), for the distinct count (pass an empty slice to skip it).
    pub fn add(&mut self, record: &GameRecord, positions: &[Position]) {
        self.games += 1;
        let n = record.turns.len();
        self.positions += n as u64;
        match record.outcome.winner {
            Some(Color::White) => self.white_wins += 1,
            Some(Color::Black) => self.black_wins += 1,
            None => self.draws += 1,
        }
        *self.terminations.entry(record.outcome.termination.to_string()).or_insert(0) += 1;
        self.exploration_turns += record.turns.iter().filter(|t| t.info.exploration).count() as u64;
        self.scored_turns += record.turns.iter().filter(|t| t.info.score.is_some()).count() as u64;
        self.min_length = Some(self.min_length.map_or(n, |m| m.min(n)));
        self.max_length = Some(self.max_length.map_or(n, |m| m.max(n)));
        *self.length_histogram.entry(n / LENGTH_BUCKET).or_insert(0) += 1;
        for p in positions {
            self.seen.insert(p.hash());
        }
        self.distinct_exact = self.seen.is_exact();
        // The estimate costs 16 K operations: refresh it every 64 games (and in `finish`).
        if self.distinct_exact || self.games.is_multiple_of(64) {
            self.distinct_positions = self.seen.count();
        }
    }

    /// Counts one game, replaying it (structural checks only, as for samples) to count its
    /// distinct positions; a turn that cannot be played stops the replay there.
    pub fn add_replayed(&mut self, record: &GameRecord) {
        let mut positions = Vec::with_capacity(record.turns.len() + 1);
        let mut pos = record.start;
        positions.push(pos);
        for t in &record.turns {
            match t.mv.play_fast(&pos) {
                Some(next) => pos = next,
                None => break,
            }
            positions.push(pos);
        }
        self.add(record, &positions);
    }

    /// Brings `distinct_positions` up to date (call before reporting).
    pub fn finish(&mut self) {
        self.distinct_positions = self.seen.count();
        self.distinct_exact = self.seen.is_exact();
    }

    /// Mean game length in turns.
    pub fn mean_length(&self) -> f64 {
        if self.games == 0 { 0.0 } else { self.positions as f64 / self.games as f64 }
    }

    /// White's score: (wins + draws / 2) / games.
    pub fn white_score(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            (self.white_wins as f64 + self.draws as f64 / 2.0) / self.games as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ending, MoveCode, Turn, TurnInfo};
    use fanorona_core::Outcome;

    #[test]
    fn counts() {
        let p0 = Position::start();
        let m = p0.parse_move("d3e3+").unwrap();
        let t = Turn {
            mv: MoveCode::from_move(&m),
            info: TurnInfo { score: Some(5), depth: None, exploration: true },
        };
        let mut r = GameRecord {
            index: 0,
            white: String::new(),
            black: String::new(),
            start: p0,
            turns: vec![t],
            outcome: Outcome { winner: Some(Color::White), termination: Ending::Adjudication },
        };
        let mut s = Stats::new();
        s.add_replayed(&r);
        r.outcome.winner = None;
        r.outcome.termination = Ending::MaxLength;
        r.turns.clear();
        s.add_replayed(&r);
        assert_eq!((s.games, s.positions, s.white_wins, s.draws, s.black_wins), (2, 1, 1, 1, 0));
        assert_eq!(s.distinct_positions, 2);
        assert!(s.distinct_exact);
        assert_eq!((s.min_length, s.max_length), (Some(0), Some(1)));
        assert_eq!(s.length_histogram.get(&0), Some(&2));
        assert_eq!(s.terminations.get("maximum game length"), Some(&1));
        assert_eq!((s.exploration_turns, s.scored_turns), (1, 1));
        assert_eq!(s.mean_length(), 0.5);
        assert_eq!(s.white_score(), 0.75);
    }
}
