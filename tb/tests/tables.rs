//! The tables against a plain exhaustive search, under the symmetries, and their root moves.
//! Tables up to 4 stones are generated from scratch (about a second in release builds).

use std::collections::HashMap;
use std::sync::OnceLock;

use fanorona_core::{Bitboard, Color, Position};
use fanorona_tb::{GenerateOptions, Tablebase, Value, generate};

const STONES: u32 = 4;

fn tables() -> &'static Tablebase {
    static TB: OnceLock<Tablebase> = OnceLock::new();
    TB.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        generate(dir.path(), GenerateOptions::new(STONES, 2), &|_| {}).expect("generate")
    })
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// `n` random points outside `taken`.
    fn points(&mut self, n: u32, taken: u64) -> u64 {
        let mut set = 0u64;
        while set.count_ones() < n {
            let p = self.next() % 45;
            if (taken | set) & (1 << p) == 0 {
                set |= 1 << p;
            }
        }
        set
    }

    fn position(&mut self, us: u32, them: u32) -> Position {
        let white = self.points(us, 0);
        let black = self.points(them, white);
        Position::from_stones(Bitboard(white), Bitboard(black), Color::White).expect("valid position")
    }
}

/// Forward search by the definitions of wdl and dtc, captures leading into the (smaller)
/// tables: can the side to move win, or must it lose, within `k` turns.
struct Search<'a> {
    tb: &'a Tablebase,
    memo: HashMap<(u64, u32, bool), bool>,
}

impl Search<'_> {
    fn capture_child(&self, next: &Position) -> Option<Value> {
        if next.us().is_empty() { None } else { Some(self.tb.probe(next).expect("smaller table")) }
    }

    fn win_within(&mut self, pos: &Position, k: u32) -> bool {
        if k == 0 {
            return false;
        }
        if let Some(&r) = self.memo.get(&(pos.hash(), k, true)) {
            return r;
        }
        let r = pos.legal_moves().iter().any(|m| {
            let mut next = *pos;
            next.play_unchecked(m);
            if m.is_paika() {
                self.loss_within(&next, k - 1)
            } else {
                matches!(self.capture_child(&next), None | Some(Value::Loss(_)))
            }
        });
        self.memo.insert((pos.hash(), k, true), r);
        r
    }

    fn loss_within(&mut self, pos: &Position, k: u32) -> bool {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return true;
        }
        if k == 0 {
            return false;
        }
        if let Some(&r) = self.memo.get(&(pos.hash(), k, false)) {
            return r;
        }
        let r = moves.iter().all(|m| {
            let mut next = *pos;
            next.play_unchecked(m);
            if m.is_paika() {
                self.win_within(&next, k - 1)
            } else {
                matches!(self.capture_child(&next), Some(Value::Win(_)))
            }
        });
        self.memo.insert((pos.hash(), k, false), r);
        r
    }
}

#[test]
fn every_table_agrees_with_an_exhaustive_search() {
    let tb = tables();
    let mut search = Search { tb, memo: HashMap::new() };
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    const DRAW_DEPTH: u32 = 10;
    let mut seen = [0usize; 3];
    for stones in 2..=STONES {
        for us in 1..stones {
            for _ in 0..150 {
                let pos = rng.position(us, stones - us);
                let v = tb.probe(&pos).expect("covered");
                match v {
                    Value::Win(d) => {
                        seen[0] += 1;
                        assert!(search.win_within(&pos, d), "{pos}: {v} but no win within {d}");
                        assert!(!search.win_within(&pos, d - 1), "{pos}: {v} but a win within {}", d - 1);
                    }
                    Value::Loss(d) => {
                        seen[2] += 1;
                        assert!(search.loss_within(&pos, d), "{pos}: {v} but no forced loss within {d}");
                        assert!(d == 0 || !search.loss_within(&pos, d - 1), "{pos}: {v}, lost sooner");
                    }
                    Value::Draw => {
                        seen[1] += 1;
                        assert!(!search.win_within(&pos, DRAW_DEPTH), "{pos}: draw but won");
                        assert!(!search.loss_within(&pos, DRAW_DEPTH), "{pos}: draw but lost");
                    }
                }
            }
        }
    }
    assert!(seen.iter().all(|&n| n >= 20), "wins, draws, losses seen: {seen:?}");
}

#[test]
fn values_are_invariant_under_the_symmetries() {
    let tb = tables();
    let mut rng = Rng(12345);
    for _ in 0..2_000 {
        let stones = 2 + (rng.next() % u64::from(STONES - 1)) as u32;
        let us = 1 + (rng.next() % u64::from(stones - 1)) as u32;
        let pos = rng.position(us, stones - us);
        let v = tb.probe(&pos).expect("covered");
        let (w, b) = (pos.stones(Color::White), pos.stones(Color::Black));
        let images = [
            pos.mirror_files(),
            pos.rotate180_swap(),
            pos.rotate180_swap().mirror_files(),
            // Colours swapped, the side to move with them.
            Position::from_stones(b, w, Color::Black).expect("valid"),
        ];
        for image in images {
            assert_eq!(tb.probe(&image), Ok(v), "{pos} vs {image}");
        }
    }
}

#[test]
fn best_moves_keep_the_value() {
    let tb = tables();
    let mut rng = Rng(777);
    for _ in 0..500 {
        let pos = rng.position(2, 2);
        let v = tb.probe(&pos).expect("covered");
        let best = tb.best_moves(&pos, 0, 0).expect("covered");
        if pos.legal_moves().is_empty() {
            assert!(best.is_empty());
            continue;
        }
        let first = best.first().expect("a best turn");
        assert_eq!(first.value, v, "{pos}: best turn {} is worth {}", first.mv, first.value);
        for m in tb.root_moves(&pos, 0, 0).expect("covered") {
            assert!(m.value.rank() <= v.rank(), "{pos}: {} beats the table", m.mv);
        }
    }
}

#[test]
fn the_quiet_rule_draws_slow_wins() {
    let tb = tables();
    let mut rng = Rng(4242);
    let mut checked = 0;
    while checked < 20 {
        let pos = rng.position(2, 2);
        if let Ok(Value::Win(d)) = tb.probe(&pos)
            && d >= 3
        {
            let best = tb.best_moves(&pos, 50 - d, 50).expect("covered");
            assert!(best.iter().all(|m| m.rule_value.rank() >= Value::Draw.rank()));
            assert_eq!(Value::Win(d).under_quiet_rule(51 - d, 50), Value::Draw);
            checked += 1;
        }
    }
}
