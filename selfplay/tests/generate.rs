//! Whole runs: identical output whatever the thread count, resume after truncation, shards
//! that merge into one dataset.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use fanorona_data::{Existing, RecordReader, Shard, merge};
use fanorona_selfplay::{Exploration, SelfplayConfig, SelfplayError, Start, generate, part_path};

fn config(games: u64, threads: usize) -> SelfplayConfig {
    SelfplayConfig {
        games,
        white: "alphabeta:depth=1,hash=1,eval=material".parse().unwrap(),
        black: "greedy".parse().unwrap(),
        seed: 11,
        threads,
        random_plies: 2,
        explore_plies: 10,
        exploration: Exploration::Temperature(50.0),
        ..SelfplayConfig::default()
    }
}

fn run(c: &SelfplayConfig, out: &Path, resume: bool) -> fanorona_selfplay::Summary {
    let start = if resume { Start::Resume } else { Start::New };
    let mut calls = 0;
    let s = generate(c, out, start, &mut |p| {
        calls += 1;
        assert!(p.done <= p.total);
    })
    .unwrap();
    assert_eq!(calls, s.played);
    s
}

#[test]
fn identical_whatever_the_thread_count() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a.bin"), dir.path().join("b.bin"));
    let sa = run(&config(24, 1), &a, false);
    let sb = run(&config(24, 3), &b, false);
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    assert!(!part_path(&a).exists());
    assert_eq!((sa.stats.games, sa.played), (24, 24));
    assert_eq!(sa.stats.distinct_positions, sb.stats.distinct_positions);
    assert!(sa.stats.distinct_positions > 24 * 10, "{}", sa.stats.distinct_positions);
    let games: Vec<_> = RecordReader::open(&a).unwrap().map(|r| r.unwrap()).collect();
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g.index, i as u64);
        g.validate().unwrap();
        assert!(g.turns[..2].iter().all(|t| t.info.exploration));
    }
    // Random openings make the games differ.
    assert_ne!(games[0].turns, games[1].turns);
    // Summary counts agree with the file.
    let white = games.iter().filter(|g| g.outcome.winner == Some(fanorona_core::Color::White)).count();
    assert_eq!(sa.stats.white_wins, white as u64);
}

#[test]
fn resume_repairs_a_truncated_tail_and_finishes_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.bin");
    run(&config(12, 2), &full, false);
    let bytes = std::fs::read(&full).unwrap();
    // An interrupted run: the part file cut in the middle of a record.
    let out = dir.path().join("out.bin");
    std::fs::write(part_path(&out), &bytes[..bytes.len() * 2 / 3]).unwrap();
    let s = run(&config(12, 2), &out, true);
    assert!(s.resumed_games > 0 && s.resumed_games < 12);
    assert!(s.repaired_bytes > 0);
    assert_eq!(s.played + s.resumed_games, 12);
    assert_eq!(s.stats.games, 12);
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    // Resuming a complete run plays nothing and keeps the file.
    let s = run(&config(12, 2), &out, true);
    assert_eq!((s.played, s.resumed_games), (0, 12));
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    // Resuming with another configuration is refused.
    let mut other = config(12, 2);
    other.seed = 12;
    let e = generate(&other, &out, Start::Resume, &mut |_| {}).unwrap_err();
    assert!(matches!(e, SelfplayError::Resume { .. }), "{e}");
    assert!(e.to_string().contains("seed"), "{e}");
    // ... and leaves the file where it was.
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    assert!(!part_path(&out).exists());
}

#[test]
fn shards_are_disjoint_and_merge() {
    let dir = tempfile::tempdir().unwrap();
    let mut paths = Vec::new();
    for i in [1, 0] {
        let mut c = config(5, 2);
        c.shard = Shard::new(i, 2).unwrap();
        let p = dir.path().join(format!("s{i}.bin"));
        run(&c, &p, false);
        paths.push(p);
    }
    let merged = dir.path().join("merged.bin");
    let report = merge(&paths, &merged, Existing::Refuse).unwrap();
    assert_eq!((report.games, report.shards.clone(), report.shard_count), (10, vec![0, 1], 2));
    let games: Vec<_> = RecordReader::open(&merged).unwrap().map(|r| r.unwrap()).collect();
    let indices: Vec<u64> = games.iter().map(|g| g.index).collect();
    assert_eq!(indices, (0..10).collect::<Vec<_>>());
    for w in games.windows(2) {
        assert_ne!(w[0].turns, w[1].turns);
    }
    // The same shard twice, or a shard of another run, is refused.
    let e = merge(&[paths[0].clone(), paths[0].clone()], &dir.path().join("x.bin"), Existing::Refuse)
        .unwrap_err();
    assert!(e.to_string().contains("already"), "{e}");
    let mut c = config(5, 1);
    c.seed = 99;
    c.shard = Shard::new(0, 2).unwrap();
    let other = dir.path().join("other.bin");
    run(&c, &other, false);
    let e = merge(&[paths[0].clone(), other], &dir.path().join("y.bin"), Existing::Refuse).unwrap_err();
    assert!(e.to_string().contains("seed"), "{e}");
    assert!(!dir.path().join("y.bin").exists());
}

#[test]
fn bad_spec_and_config_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = config(2, 1);
    c.exploration = Exploration::Epsilon(1.5);
    assert!(matches!(
        generate(&c, &dir.path().join("a.bin"), Start::New, &mut |_| {}),
        Err(SelfplayError::Config(_))
    ));
    let mut c = config(2, 1);
    c.white = "alphabeta:depth=1,eval=net:/nonexistent/net.bin".parse().unwrap();
    let e = generate(&c, &dir.path().join("a.bin"), Start::New, &mut |_| {}).unwrap_err();
    assert!(matches!(e, SelfplayError::Player { .. }), "{e}");
}

#[test]
fn a_run_killed_before_its_first_game_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.bin");
    run(&config(4, 1), &full, false);
    let bytes = std::fs::read(&full).unwrap();
    // Killed with nothing written, or with only (part of) the synced header: nothing done yet.
    let header_len = fanorona_data::RecordWriter::header_bytes(&config(4, 1).header()).unwrap().len();
    for cut in [0, 7, header_len] {
        let out = dir.path().join(format!("cut{cut}.bin"));
        std::fs::write(part_path(&out), &bytes[..cut]).unwrap();
        let s = run(&config(4, 1), &out, true);
        assert_eq!((s.resumed_games, s.played), (0, 4), "cut at {cut}");
        assert_eq!(std::fs::read(&out).unwrap(), bytes, "cut at {cut}");
    }
}

#[test]
fn the_header_is_on_disk_before_any_game() {
    // A player that fails at once: the run stops before its first game, and its file already
    // holds the header (so that --resume continues it).
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("a.bin");
    let c = config(2, 1);
    let w = fanorona_data::RecordWriter::create(&part_path(&out), &c.header()).unwrap();
    let on_disk = std::fs::read(part_path(&out)).unwrap();
    drop(w);
    assert_eq!(on_disk, fanorona_data::RecordWriter::header_bytes(&c.header()).unwrap());
}

#[test]
fn existing_outputs_are_refused_unless_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("keep.bin");
    run(&config(3, 1), &out, false);
    let kept = std::fs::read(&out).unwrap();
    let e = generate(&config(2, 1), &out, Start::New, &mut |_| {}).unwrap_err();
    assert!(matches!(e, SelfplayError::Data(fanorona_data::DataError::Exists { .. })), "{e}");
    assert_eq!(std::fs::read(&out).unwrap(), kept);
    assert!(!part_path(&out).exists());
    // The temporary of an interrupted run is not overwritten either.
    let other = dir.path().join("other.bin");
    std::fs::write(part_path(&other), b"FANOREC").unwrap();
    let e = generate(&config(2, 1), &other, Start::New, &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("--resume"), "{e}");
    assert_eq!(std::fs::read(part_path(&other)).unwrap(), b"FANOREC");
    // Replace starts over.
    let s = generate(&config(2, 1), &out, Start::Replace, &mut |_| {}).unwrap();
    assert_eq!(s.stats.games, 2);
}

#[cfg(unix)]
#[test]
fn symlinks_and_fifos_are_written_through_not_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().join("real.bin");
    let link = dir.path().join("link.bin");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    run(&config(2, 1), &link, false);
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(RecordReader::open(&real).unwrap().count(), 2);

    let fifo = dir.path().join("fifo");
    // mkfifo(1) is POSIX: where it fails, the test fails rather than pass without the FIFO.
    let made = std::process::Command::new("mkfifo").arg(&fifo).status().expect("run mkfifo");
    assert!(made.success(), "mkfifo {}: {made}", fifo.display());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).unwrap())
    };
    run(&config(2, 1), &fifo, false);
    let bytes = reader.join().unwrap();
    assert!(bytes.starts_with(&fanorona_data::MAGIC));
    let meta = std::fs::symlink_metadata(&fifo).unwrap();
    assert!(!meta.is_file(), "the FIFO was replaced by a regular file");
    assert!(!part_path(&fifo).exists());
    // Nothing to resume in a FIFO.
    let e = generate(&config(2, 1), &fifo, Start::Resume, &mut |_| {}).unwrap_err();
    assert!(matches!(e, SelfplayError::Resume { .. }), "{e}");
}
