//! perft counts: the start position (RULES.md) and hand-checked small positions.

use fanorona_core::{Position, perft, perft_divide};

#[test]
fn start_position_depths_1_to_6() {
    // RULES.md, "Counting moves": counted by an independent implementation.
    let expected = [5u64, 39, 724, 18_026, 431_852, 9_205_774];
    let p = Position::start();
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&p, d as u32 + 1), n, "perft({})", d + 1);
    }
}

#[test]
fn start_position_first_turns() {
    let p = Position::start();
    let mut first: Vec<String> = perft_divide(&p, 1).iter().map(|(m, _)| m.to_string()).collect();
    first.sort();
    assert_eq!(first, ["d2e3+", "d3e3+", "d3e3-", "e2e3+", "f2e3+"]);
}

#[test]
fn divide_sums_to_perft() {
    let p = Position::start();
    let d = perft_divide(&p, 4);
    assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 18_026);
}

#[test]
fn game_over_positions_have_no_moves() {
    // Black has no stones: the game is over, whatever White could do.
    let p: Position = "9/9/9/9/W8 w".parse().unwrap();
    assert_eq!(perft(&p, 1), 0);
    assert_eq!(perft(&p, 3), 0);
    let p: Position = "9/9/9/9/W8 b".parse().unwrap();
    assert_eq!(perft(&p, 1), 0);
}

#[test]
fn two_lone_stones_paika() {
    // White a1 (strong corner: a2, b1, b2), Black i5 (strong corner: i4, h5, h4); no capture
    // is possible in one step, so all are paika moves: 3 for White, then 3 for Black.
    let p: Position = "8B/9/9/9/W8 w".parse().unwrap();
    assert_eq!(perft(&p, 1), 3);
    assert_eq!(perft(&p, 2), 9);
}

#[test]
fn hashed_counts_are_the_counts() {
    use fanorona_core::{PerftTable, perft_divide_hashed, perft_hashed};
    let positions = [
        Position::start(),
        "9/9/B1B6/BW7/9 w".parse().unwrap(),
        "8B/9/9/9/W8 w".parse().unwrap(),
        // Few stones: paika turns, so many transpositions.
        "B3B3B/9/2W3W2/9/W3W3W b".parse().unwrap(),
        "BBBB1BBBB/BB1BBBBB1/BW1W1BWBW/WWWW1WWWW/WWW1WWWWW w".parse().unwrap(),
    ];
    for mib in [0, 1] {
        let mut table = PerftTable::try_new(mib).unwrap();
        for p in &positions {
            for depth in 0..=if p == &Position::start() { 6 } else { 5 } {
                assert_eq!(perft_hashed(p, depth, &mut table), perft(p, depth), "{p} {depth} {mib} MiB");
            }
        }
    }
    for threads in [1, 3] {
        let mut tables = PerftTable::try_split(1, threads).unwrap();
        let d = perft_divide_hashed(&positions[3], 5, &mut tables);
        assert_eq!(d, perft_divide(&positions[3], 5), "{threads}");
    }
    assert!(PerftTable::try_split(fanorona_core::MAX_PERFT_HASH_MIB + 1, 2).is_err());
}
