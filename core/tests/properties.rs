//! Properties of the move generator over positions reached by random play.

use std::collections::HashSet;

use fanorona_core::{Position, perft};
use proptest::prelude::*;

/// A position reached from the start by `plies` random legal turns chosen by `seed`.
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
        let m = moves[(x % moves.len() as u64) as usize];
        p.play_unchecked(&m);
    }
    p
}

/// perft through the public generator only: `generate_moves` and `play_unchecked` at every
/// ply, the list's length at the last (the reference for perft's own fast paths).
fn perft_by_generation(p: &Position, depth: u32) -> u64 {
    let moves = p.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| {
            let mut q = *p;
            q.play_unchecked(m);
            perft_by_generation(&q, depth - 1)
        })
        .sum()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn turns_print_and_reparse(seed in any::<u64>(), plies in 0usize..60) {
        let p = random_position(seed, plies);
        for m in p.legal_moves() {
            let text = m.to_string();
            let back = p.parse_move(&text).map_err(|e| TestCaseError::fail(format!("{p} {text}: {e}")))?;
            prop_assert_eq!(back, m);
            prop_assert_eq!(back.captured(), m.captured());
            prop_assert_eq!(p.parse_move(&text.to_uppercase()).ok(), Some(m));
        }
        let text = p.to_string();
        prop_assert_eq!(text.parse::<Position>().ok(), Some(p));
    }

    #[test]
    fn applying_moves_one_stone_and_removes_exactly_the_captured(seed in any::<u64>(), plies in 0usize..60) {
        let p = random_position(seed, plies);
        let us = p.turn();
        for m in p.legal_moves() {
            let mut q = p;
            q.play_unchecked(&m);
            prop_assert_eq!(q.turn(), us.other());
            let before = p.stones(us);
            let after = q.stones(us);
            prop_assert_eq!(after.count(), before.count());
            prop_assert_eq!((before & !after).into_iter().collect::<Vec<_>>(), if m.from() == m.to() { vec![] } else { vec![m.from()] });
            prop_assert_eq!((after & !before).into_iter().collect::<Vec<_>>(), vec![m.to()]);
            prop_assert!(m.captured().any() != m.is_paika());
            prop_assert_eq!(m.captured() & !p.stones(us.other()), fanorona_core::Bitboard::EMPTY);
            prop_assert_eq!(q.stones(us.other()), p.stones(us.other()) & !m.captured());
            prop_assert_eq!(p.hash() ^ p.hash_delta(&m.turn()), q.hash());
        }
    }

    #[test]
    fn no_duplicate_turns_and_counts_agree(seed in any::<u64>(), plies in 0usize..60) {
        let p = random_position(seed, plies);
        let moves = p.legal_moves();
        let set: HashSet<_> = moves.iter().copied().collect();
        prop_assert_eq!(set.len(), moves.len());
        prop_assert_eq!(moves.len() as u64, p.count_moves());
        // Compulsory capture: all turns capture, or none does.
        prop_assert!(moves.iter().all(|m| m.is_paika()) || moves.iter().all(|m| !m.is_paika()));
        prop_assert_eq!(p.has_capture(), moves.iter().any(|m| !m.is_paika()));
    }

    #[test]
    fn perft_agrees_with_the_generator(seed in any::<u64>(), plies in 0usize..60) {
        let p = random_position(seed, plies);
        for depth in 1..=3 {
            prop_assert_eq!(perft(&p, depth), perft_by_generation(&p, depth), "{} depth {}", p, depth);
        }
    }

    #[test]
    fn perft_is_symmetric(seed in any::<u64>(), plies in 0usize..40) {
        let p = random_position(seed, plies);
        let n = perft(&p, 3);
        prop_assert_eq!(perft(&p.mirror_files(), 3), n);
        prop_assert_eq!(perft(&p.rotate180_swap(), 3), n);
        let mirrored: HashSet<String> = p.legal_moves().iter().map(|m| m.mirror_files().to_string()).collect();
        let of_mirror: HashSet<String> = p.mirror_files().legal_moves().iter().map(|m| m.to_string()).collect();
        prop_assert_eq!(mirrored, of_mirror);
        let rotated: HashSet<String> = p.legal_moves().iter().map(|m| m.rotate180().to_string()).collect();
        let of_rotation: HashSet<String> = p.rotate180_swap().legal_moves().iter().map(|m| m.to_string()).collect();
        prop_assert_eq!(rotated, of_rotation);
        prop_assert_eq!(p.rotate180_swap().rotate180_swap(), p);
    }
}
