//! Fuzzing position and turn parsing on stable: arbitrary text and mutations of valid
//! position strings and turns. Parsing may refuse, never panic; whatever it accepts prints and
//! parses back to the same thing. Longer runs: `PROPTEST_CASES=100000 cargo test --release
//! -p fanorona-core --test fuzz`.

use fanorona_core::{DrawRules, Game, Position};
use proptest::prelude::*;

/// A position reached from the start by random legal turns chosen by `seed`.
fn random_position(seed: u64, plies: usize) -> Position {
    let mut p = Position::start();
    let mut x = seed | 1;
    for _ in 0..plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        p.play_unchecked(&moves[(x % moves.len() as u64) as usize]);
    }
    p
}

/// `text` with `edits` applied: each replaces, inserts or deletes one character.
fn mutate(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for &(at, kind, c) in edits {
        let i = at % (chars.len() + 1);
        match kind % 3 {
            0 if i < chars.len() => chars[i] = c,
            1 => chars.insert(i, c),
            _ if i < chars.len() => {
                chars.remove(i);
            }
            _ => {}
        }
    }
    chars.into_iter().collect()
}

fn board_char() -> impl Strategy<Value = char> {
    prop_oneof![
        Just('W'),
        Just('B'),
        Just('/'),
        Just(' '),
        Just('w'),
        Just('b'),
        Just('9'),
        Just('0'),
        Just('1'),
        Just('x'),
        Just('-'),
        Just('+'),
        Just('a'),
        Just('i'),
        Just('5'),
        Just('\u{e9}'),
        any::<char>(),
    ]
}

/// Cases per property: `PROPTEST_CASES` for a long run, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(1000)))]

    #[test]
    fn arbitrary_position_text_never_panics(text in ".{0,80}") {
        if let Ok(p) = text.parse::<Position>() {
            prop_assert_eq!(p.to_string().parse::<Position>().ok(), Some(p));
        }
    }

    #[test]
    fn mutated_positions_parse_or_refuse(
        seed in any::<u64>(),
        plies in 0usize..40,
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), board_char()), 1..4),
    ) {
        let text = mutate(&random_position(seed, plies).to_string(), &edits);
        if let Ok(p) = text.parse::<Position>() {
            prop_assert_eq!(p.to_string().parse::<Position>().ok(), Some(p));
            // Whatever parses can be judged and played from.
            let g = Game::new(p, DrawRules::default());
            let _ = g.outcome();
            for m in p.legal_moves().iter() {
                let mut q = p;
                q.play_unchecked(m);
            }
        }
    }

    #[test]
    fn mutated_turns_parse_to_legal_turns_or_refuse(
        seed in any::<u64>(),
        plies in 0usize..40,
        pick in any::<usize>(),
        edits in proptest::collection::vec((any::<usize>(), any::<u8>(), board_char()), 0..4),
    ) {
        let p = random_position(seed, plies);
        let moves = p.legal_moves();
        let base = if moves.is_empty() { "e2e3".to_string() } else { moves[pick % moves.len()].to_string() };
        let text = mutate(&base, &edits);
        if let Ok(m) = p.parse_move(&text) {
            prop_assert!(moves.contains(&m), "{} parsed to an illegal turn in {}", text, p);
        }
    }

    #[test]
    fn arbitrary_turn_text_never_panics(seed in any::<u64>(), plies in 0usize..30, text in ".{0,40}") {
        let p = random_position(seed, plies);
        if let Ok(m) = p.parse_move(&text) {
            prop_assert!(p.legal_moves().contains(&m));
        }
    }
}
