//! Book files: built from games, read back, probed and walked; damaged and foreign files
//! refused with the byte named.

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

use std::path::{Path, PathBuf};

use fanorona_book::format::{ENTRY_LEN, HEADER_LEN};
use fanorona_book::{Book, BookBuilder, BookError, Built, book_openings, write_book};
use fanorona_core::{Color, Move, Position};
use fanorona_io::{Existing, Output};

/// A small deterministic generator (xorshift), so the games are the same on every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// `n` games of random turns from the start position (at most 30 turns; the winner by stone
/// count at the end).
fn random_games(n: usize, seed: u64) -> Vec<(Vec<Move>, Option<Color>)> {
    let mut rng = Rng(seed);
    (0..n)
        .map(|_| {
            let mut pos = Position::start();
            let mut moves = Vec::new();
            while moves.len() < 30 && !pos.is_game_over() {
                let legal = pos.legal_moves();
                // Few choices in the first turns, so that lines repeat across games.
                let m = legal[rng.below(legal.len().min(if moves.len() < 4 { 2 } else { 64 }))];
                pos.play_unchecked(&m);
                moves.push(m);
            }
            let (w, b) = (pos.stones(Color::White).count(), pos.stones(Color::Black).count());
            let winner = match w.cmp(&b) {
                std::cmp::Ordering::Greater => Some(Color::White),
                std::cmp::Ordering::Less => Some(Color::Black),
                std::cmp::Ordering::Equal => None,
            };
            (moves, winner)
        })
        .collect()
}

fn build(games: &[(Vec<Move>, Option<Color>)], plies: usize, min_games: u32) -> Built {
    let mut b = BookBuilder::new(plies);
    for (moves, winner) in games {
        b.add_game(Position::start(), moves, *winner).unwrap();
    }
    b.finish(min_games)
}

fn write(path: &Path, built: &Built) {
    write_book(&Output::new(path, Existing::Replace).unwrap(), &built.entries, built.min_games).unwrap();
}

fn book_file(dir: &Path) -> (PathBuf, Built) {
    let built = build(&random_games(400, 7), 10, 2);
    let path = dir.join("book.fbk");
    write(&path, &built);
    (path, built)
}

#[test]
fn a_book_reads_back_every_entry_it_was_built_with() {
    let dir = tempfile::tempdir().unwrap();
    let (path, built) = book_file(dir.path());
    assert!(built.entries.len() > 20, "{} entries", built.entries.len());
    assert_eq!(built.games, 400);
    let len = std::fs::metadata(&path).unwrap().len();
    assert_eq!(len, (HEADER_LEN + ENTRY_LEN * built.entries.len()) as u64);
    let book = Book::open(&path).unwrap();
    assert_eq!(book.header().entries, built.entries.len() as u64);
    assert_eq!(book.header().min_games, 2);
    let mut seen = 0;
    for (i, e) in built.entries.iter().enumerate() {
        if i > 0 && built.entries[i - 1].position == e.position {
            continue;
        }
        let got = book.entries(&e.position).unwrap();
        let want: Vec<_> = built.entries.iter().filter(|x| x.position == e.position).copied().collect();
        assert_eq!(got, want);
        seen += got.len();
    }
    assert_eq!(seen, built.entries.len());
    assert_eq!(
        built.positions,
        built.entries.windows(2).filter(|w| w[0].position != w[1].position).count() as u64 + 1
    );
    // A position the book does not hold.
    let far: Position = "9/9/9/9/W1B6 w".parse().unwrap();
    assert!(book.entries(&far).unwrap().is_empty());
}

#[test]
fn the_start_position_counts_every_game_once() {
    let games = random_games(400, 7);
    let built = build(&games, 10, 1);
    let start: u64 =
        built.entries.iter().filter(|e| e.position == Position::start()).map(|e| e.stats.games()).sum();
    assert_eq!(start, 400);
    // Wins, draws and losses of the first turns are White's results.
    let white_wins = games.iter().filter(|(_, w)| *w == Some(Color::White)).count() as u64;
    let wins: u64 = built
        .entries
        .iter()
        .filter(|e| e.position == Position::start())
        .map(|e| u64::from(e.stats.wins))
        .sum();
    assert_eq!(wins, white_wins);
    // A higher minimum keeps fewer entries, each with enough games.
    let strict = build(&games, 10, 10);
    assert!(strict.entries.len() < built.entries.len());
    assert!(strict.entries.iter().all(|e| e.stats.games() >= 10));
}

#[test]
fn openings_are_the_positions_the_lines_reach() {
    let dir = tempfile::tempdir().unwrap();
    let (path, _) = book_file(dir.path());
    let book = Book::open(&path).unwrap();
    let two = book_openings(&book, 2, 2).unwrap();
    // Two choices on each of the first two turns: at most four positions, each two turns in.
    assert!(!two.is_empty() && two.len() <= 4, "{}", two.len());
    for o in &two {
        assert_eq!(o.position.turn(), Color::White);
        assert!((0.0..=1.0).contains(&o.white_score));
    }
    assert!(two.windows(2).all(|w| w[0].games >= w[1].games));
    let total: u64 = two.iter().map(|o| o.games).sum();
    assert!(total <= 400);
    assert!(book_openings(&book, 40, 2).unwrap().is_empty(), "no line is 40 turns long");
}

#[test]
fn an_illegal_game_is_refused_at_build_naming_game_and_turn() {
    let games = random_games(3, 9);
    let mut b = BookBuilder::new(10);
    b.add_game(Position::start(), &games[0].0, None).unwrap();
    // The second game's turns from a position they were not played in.
    let other: Position = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b".parse().unwrap();
    let err = b.add_game(other, &games[1].0, None).unwrap_err();
    assert!(matches!(err, BookError::IllegalTurn { game: 1, ply: 1, .. }), "{err}");
    assert!(err.is_bad_input());
    assert_eq!(b.games(), 1);
}

#[test]
fn a_builder_stops_at_its_limit() {
    let mut b = BookBuilder::with_limit(10, 15);
    let err =
        random_games(50, 3).iter().try_for_each(|(m, w)| b.add_game(Position::start(), m, *w)).unwrap_err();
    assert!(matches!(err, BookError::TooLarge { limit: 15 }), "{err}");
}

fn damaged_at(path: &Path) -> (u64, String) {
    match Book::open(path) {
        Err(BookError::Damaged { offset, reason, .. }) => (offset, reason),
        other => panic!("expected a damaged book, got {other:?}"),
    }
}

#[test]
fn damaged_and_foreign_files_are_refused_with_the_byte() {
    let dir = tempfile::tempdir().unwrap();
    let (path, built) = book_file(dir.path());
    let good = std::fs::read(&path).unwrap();
    let bad = dir.path().join("bad.fbk");
    let with = |bytes: &[u8]| {
        std::fs::write(&bad, bytes).unwrap();
        damaged_at(&bad)
    };
    // Foreign files.
    assert_eq!(with(b"PK\x03\x04 this is a zip file, no book at all").0, 0);
    assert_eq!(with(b"short").0, 5);
    let mut v3 = good.clone();
    v3[8] = 3;
    assert_eq!(with(&v3).0, 8);
    // A version-1 book has zero reserved bytes; as version 2 their score beyond ±30000 is wrong.
    let mut reserved = good.clone();
    reserved[HEADER_LEN + 40 + 27] = 1;
    assert_eq!(with(&reserved).0, (HEADER_LEN + 40 + 26) as u64);
    reserved[8] = 2;
    reserved[HEADER_LEN + 40 + 27] = 0x80;
    assert_eq!(with(&reserved).0, (HEADER_LEN + 40 + 26) as u64);
    // Truncated and trailing.
    assert_eq!(with(&good[..good.len() - 7]).0, good.len() as u64 - 7);
    let mut longer = good.clone();
    longer.extend_from_slice(b"junk");
    assert_eq!(with(&longer).0, good.len() as u64);
    // A flipped win count: the checksum.
    let mut flipped = good.clone();
    flipped[HEADER_LEN + 28] ^= 1;
    assert_eq!(with(&flipped).0, 24);
    // Entries swapped: out of order at the second one.
    let mut swapped = good.clone();
    let (a, b) = (HEADER_LEN, HEADER_LEN + ENTRY_LEN);
    let first: Vec<u8> = swapped[a..b].to_vec();
    swapped.copy_within(b..b + ENTRY_LEN, a);
    swapped[b..b + ENTRY_LEN].copy_from_slice(&first);
    assert_eq!(with(&swapped).0, b as u64);
    // A stone on both colours in the third entry.
    let mut overlap = good.clone();
    let third = HEADER_LEN + 2 * ENTRY_LEN;
    overlap[third + 8..third + 16]
        .copy_from_slice(&built.entries[2].position.stones(Color::White).0.to_le_bytes());
    assert_eq!(with(&overlap).0, third as u64);
    // The good file still opens.
    assert!(Book::open(&path).is_ok());
}

#[cfg(unix)]
#[test]
fn a_fifo_or_directory_is_refused_unopened() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("fifo.fbk");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(made.success());
    assert!(matches!(Book::open(&fifo), Err(BookError::NotRegular { kind: "a FIFO", .. })));
    assert!(matches!(Book::open(dir.path()), Err(BookError::NotRegular { kind: "a directory", .. })));
    let missing = Book::open(&dir.path().join("none.fbk")).unwrap_err();
    assert!(missing.is_bad_input(), "{missing}");
}

#[test]
fn an_empty_book_is_valid_and_holds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.fbk");
    write(&path, &BookBuilder::new(4).finish(1));
    let book = Book::open(&path).unwrap();
    assert_eq!(book.header().entries, 0);
    assert!(book.entries(&Position::start()).unwrap().is_empty());
}

#[test]
fn analysed_books_hold_scores_within_the_format_and_refuse_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let start = Position::start();
    let turns: Vec<_> = start.legal_moves().iter().map(|m| m.turn()).collect();
    let entry = |i: usize, score: Option<i16>| fanorona_book::Entry {
        position: start,
        turn: turns[i],
        stats: fanorona_book::Stats::default(),
        score,
    };
    let mut entries = vec![entry(0, Some(30_000)), entry(1, Some(-30_000))];
    entries.sort_unstable_by_key(fanorona_book::Entry::key);
    let path = dir.path().join("scored.fbk");
    write_book(&Output::new(&path, Existing::Refuse).unwrap(), &entries, 0).unwrap();
    let book = Book::open(&path).unwrap();
    assert!(book.header().scored);
    assert_eq!(book.entries(&start).unwrap(), entries);
    // Beyond the format's range, or scored and unscored together: refused, nothing written.
    for (bad, name) in
        [(vec![entry(0, Some(30_001))], "range.fbk"), (vec![entry(0, Some(5)), entry(1, None)], "mixed.fbk")]
    {
        let out = dir.path().join(name);
        let err = write_book(&Output::new(&out, Existing::Refuse).unwrap(), &bad, 0).unwrap_err();
        assert!(matches!(err, BookError::ScoreRange(30_001) | BookError::MixedScores), "{err}");
        assert!(!out.exists() && !dir.path().join(format!("{name}.part")).exists());
    }
}
