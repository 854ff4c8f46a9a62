//! `fanorona solve` from the outside: values agree with the tables, a proof written is a proof
//! verified, and bad input (positions, options, damaged or foreign proofs, missing tables)
//! exits 2 naming what and where.

use std::fs;
use std::path::Path;
use std::process::Output;

mod common;
use common::{fanorona, stderr, stdout};

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", stderr(o));
    serde_json::from_str(stdout(o).trim()).expect("one JSON object")
}

fn tables(dir: &Path, stones: &str) {
    let o = fanorona(&["tb", "generate", "--stones", stones, "--out", path(dir), "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// Positions of four stones, among them wins, draws and losses for the side to move.
const FOUR: [&str; 6] = [
    "9/9/4B4/9/W2W2B2 w",
    "9/9/4B4/9/W2W2B2 b",
    "B7B/9/9/9/W7W w",
    "B7B/9/9/9/W7W b",
    "9/1B7/9/7W1/B5W2 w",
    "9/1B7/9/7W1/B5W2 b",
];

#[test]
fn four_stone_values_over_three_stone_tables_are_the_four_stone_tables() {
    let (three, four) = (tempfile::tempdir().expect("dir"), tempfile::tempdir().expect("dir"));
    tables(three.path(), "3");
    tables(four.path(), "4");
    let mut seen = std::collections::BTreeSet::new();
    for pos in FOUR {
        let probe = json(&fanorona(&["tb", "probe", "--tb", path(four.path()), "--position", pos, "--json"]));
        let solved = json(&fanorona(&["solve", pos, "--tb", path(three.path()), "--json"]));
        assert_eq!(solved["value"], probe["wdl"], "{pos}");
        assert_eq!(solved["tables"], 3, "{pos}");
        seen.insert(probe["wdl"].as_str().expect("wdl").to_string());
    }
    assert_eq!(seen.len(), 3, "the positions cover win, draw and loss: {seen:?}");
}

#[test]
fn a_written_proof_is_verified_and_a_damaged_one_refused_by_byte() {
    let dir = tempfile::tempdir().expect("dir");
    tables(dir.path(), "3");
    let proof = dir.path().join("p.fproof");
    let pos = FOUR[2];
    let o = fanorona(&["solve", pos, "--tb", path(dir.path()), "--proof", path(&proof), "--json"]);
    let solved = json(&o);
    assert_eq!(solved["proof_bytes"], fs::metadata(&proof).expect("proof").len());
    let o = fanorona(&["solve", "--verify", path(&proof), "--tb", path(dir.path()), "--json"]);
    let verified = json(&o);
    assert_eq!(verified["value"], solved["value"]);
    assert_eq!(verified["position"], pos);
    // The proof leans on the tables: without them it cannot be checked.
    let o = fanorona(&["solve", "--verify", path(&proof)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("3-stone tables"), "{}", stderr(&o));

    let good = fs::read(&proof).expect("read");
    let damaged = dir.path().join("damaged.fproof");
    for (at, why) in [(0usize, "magic"), (8, "version"), (good.len() - 1, "checksum")] {
        let mut bytes = good.clone();
        bytes[at] ^= 0x40;
        fs::write(&damaged, &bytes).expect("write");
        let o = fanorona(&["solve", "--verify", path(&damaged), "--tb", path(dir.path())]);
        assert_eq!(o.status.code(), Some(2), "{why}: {}", stderr(&o));
        assert!(stderr(&o).contains("damaged.fproof"), "{why}: {}", stderr(&o));
        assert!(stderr(&o).contains("byte"), "{why}: {}", stderr(&o));
    }
    fs::write(&damaged, &good[..good.len() - 7]).expect("write");
    let o = fanorona(&["solve", "--verify", path(&damaged), "--tb", path(dir.path())]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("truncated"), "{}", stderr(&o));
    let o = fanorona(&["solve", "--verify", path(dir.path())]);
    assert_eq!(o.status.code(), Some(2), "a directory: {}", stderr(&o));
}

#[test]
fn bad_positions_and_options_exit_2() {
    for (args, says) in [
        (vec!["solve", "9/9/9/9/W8 w"], "over"),
        (vec!["solve", "9/9/9/9/WX7 w"], "invalid position"),
        (vec!["solve", "9/9/4B4/9/W8 w", "--memory", "0"], "--memory"),
        (vec!["solve", "9/9/4B4/9/W8 w", "--time", "0"], "--time"),
        (vec!["solve", "9/9/4B4/9/W8 w", "--tb", "/nonexistent/tables"], "tables"),
    ] {
        let o = fanorona(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stdout(&o).is_empty(), "{args:?} printed {}", stdout(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn a_budget_too_small_says_so_and_the_checkpoint_goes_on() {
    let dir = tempfile::tempdir().expect("dir");
    let ckpt = dir.path().join("ckpt");
    let pos = FOUR[2];
    let args = ["solve", pos, "--checkpoint", path(&ckpt), "--checkpoint-minutes", "0", "--json"];
    let mut first = args.to_vec();
    first.extend(["--nodes", "50"]);
    let partial = json(&fanorona(&first));
    assert_eq!(partial["value"], serde_json::Value::Null, "50 nodes do not settle it");
    assert!(ckpt.join("white.ckpt").exists() || ckpt.join("answered.proof").exists());
    let whole = json(&fanorona(&args));
    let fresh = json(&fanorona(&["solve", pos, "--json"]));
    assert_eq!(whole["value"], fresh["value"]);
    assert!(whole["value"].is_string());
}

#[test]
fn a_split_solved_in_shards_and_merged_gives_the_value_solved_in_one_piece() {
    let dir = tempfile::tempdir().expect("dir");
    tables(dir.path(), "3");
    let split = dir.path().join("split");
    for pos in [FOUR[0], FOUR[2]] {
        let _ = fs::remove_dir_all(&split);
        let whole = json(&fanorona(&["solve", pos, "--tb", path(dir.path()), "--json"]));
        let o = fanorona(&["solve", pos, "--split", "2", "--out", path(&split), "--json"]);
        let n = json(&o)["positions"].as_u64().expect("positions");
        let mut proven = 0;
        for shard in ["0/2", "1/2"] {
            let o = fanorona(&[
                "solve",
                "--task",
                path(&split),
                "--shard",
                shard,
                "--tb",
                path(dir.path()),
                "--json",
            ]);
            proven += json(&o)["proven"].as_u64().expect("proven");
        }
        assert_eq!(proven, n, "{pos}: every position proven once");
        // A task run again finds its work done.
        let again = json(&fanorona(&["solve", "--task", path(&split), "--tb", path(dir.path()), "--json"]));
        assert_eq!((again["proven"].as_u64(), again["already"].as_u64()), (Some(0), Some(n)));
        let merged = json(&fanorona(&["solve", "--merge", path(&split), "--tb", path(dir.path()), "--json"]));
        assert_eq!(merged["value"], whole["value"], "{pos}");
        assert_eq!(merged["proven"], n);
    }
    // A proof replaced by another position's is refused by the merge.
    let proofs: Vec<_> =
        fs::read_dir(split.join("proofs")).expect("proofs").map(|e| e.expect("entry").path()).collect();
    assert!(proofs.len() >= 2);
    fs::copy(&proofs[0], &proofs[1]).expect("copy");
    let o = fanorona(&["solve", "--merge", path(&split), "--tb", path(dir.path())]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("another position"), "{}", stderr(&o));
    // A damaged frontier is refused naming its line.
    let text = fs::read_to_string(split.join("frontier.txt")).expect("frontier");
    fs::write(split.join("frontier.txt"), text.replacen("plies 2", "plies x", 1)).expect("write");
    let o = fanorona(&["solve", "--merge", path(&split)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("line 3"), "{}", stderr(&o));
}
