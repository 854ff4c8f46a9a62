//! `fanorona eval`: matches with the real engine binary as an external engine, gauntlets with
//! charts, resume, and bad input.

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_fanorona");

fn fanorona(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("spawn fanorona")
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{o:?}");
    serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).expect("one JSON object")
}

#[test]
fn the_engine_binary_as_an_external_engine_matches_the_in_process_player() {
    // The same search at the same depth on both sides: every game is a fair fight and no
    // engine ever faults.
    let ext = format!("cmd:{BIN} engine;depth=2;name=ext");
    let o = fanorona(&["eval", "-e", &ext, "-e", "alphabeta:depth=2", "-n", "4", "-c", "2", "--json"]);
    let v = json(&o);
    assert_eq!(v["games"], 4);
    assert_eq!(v["faults"].as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(v["engines"][0], "ext");
    let p: u64 = v["pentanomial"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum();
    assert_eq!(p, 2);
}

#[test]
fn a_clocked_external_engine_plays_without_forfeits() {
    let ext = format!("cmd:{BIN} engine;tc=5+0.1;name=clocked");
    let o = fanorona(&["eval", "-e", &ext, "-e", "greedy", "-n", "2", "--json"]);
    let v = json(&o);
    assert_eq!(v["games"], 2);
    assert_eq!(v["faults"].as_array().map(Vec::len), Some(0), "{v}");
    // A real search beats a greedy capturer.
    assert!(v["wdl"]["wins"].as_u64().unwrap() >= 1, "{v}");
}

#[test]
fn gauntlet_writes_ratings_and_a_chart_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    let out_s = out.to_str().unwrap();
    let args = [
        "eval",
        "gauntlet",
        "-e",
        "alphabeta:depth=2",
        "-e",
        "random",
        "-e",
        "greedy",
        "-n",
        "4",
        "-o",
        out_s,
        "--json",
    ];
    let v = json(&fanorona(&args));
    assert_eq!(v["engines"].as_array().map(Vec::len), Some(3));
    assert_eq!(v["matches"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["ratings"][0]["elo"], 0.0);
    let png = std::fs::read(out.join("ratings.png")).unwrap();
    assert_eq!(&png[..4], b"\x89PNG");
    assert!(out.join("ratings.txt").exists() && out.join("ratings.json").exists());
    // Resuming a finished gauntlet replays nothing.
    let mut again = args.to_vec();
    again.push("--resume");
    let v2 = json(&fanorona(&again));
    for m in v2["matches"].as_array().unwrap() {
        assert_eq!(m["report"]["games_this_run"], 0);
    }
    assert_eq!(v["ratings"], v2["ratings"]);
}

#[test]
fn match_text_summary_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let out_s = out.to_str().unwrap();
    let o = fanorona(&[
        "eval",
        "-e",
        "greedy",
        "-e",
        "random",
        "-n",
        "6",
        "-o",
        out_s,
        "--sprt",
        "elo0=0,elo1=10",
    ]);
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    for needle in ["Elo: ", "LOS: ", "DrawRatio: ", "Ptnml(0-2): [", "LLR: ", "Games: 6"] {
        assert!(text.contains(needle), "{needle} missing in {text}");
    }
    let v = json(&fanorona(&["eval", "--resume", "-o", out_s, "--json"]));
    assert_eq!(v["games"], 6);
    assert_eq!(v["games_this_run"], 0);
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["eval", "-e", "random"][..],
        &["eval", "-e", "random", "-e", "frobnicate"],
        &["eval", "-e", "random", "-e", "random", "--sprt", "elo0=5,elo1=0"],
        &["eval", "-e", "random", "-e", "random", "--openings", "random:plies=0"],
        &["eval", "-e", "random", "-e", "random", "--openings", "/nonexistent/book.txt"],
        &["eval", "--resume", "-o", "/nonexistent/dir"],
        // Absurd sizes are refused, not allocated or spawned.
        &["eval", "-e", "random", "-e", "random", "-n", "10000000000"],
        &["eval", "-e", "random", "-e", "random", "-n", "18446744073709551615"],
        &["eval", "-e", "random", "-e", "random", "-c", "100000"],
    ] {
        let o = fanorona(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        assert!(!o.stderr.is_empty());
    }
}

#[test]
fn a_damaged_record_on_resume_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let o =
        fanorona(&["eval", "-e", "greedy", "-e", "random", "-n", "4", "-o", out.to_str().unwrap(), "--json"]);
    json(&o);
    let mut st: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap()).unwrap();
    st["finished"] = false.into();
    std::fs::write(out.join("state.json"), st.to_string()).unwrap();
    let games = out.join("games.bin");
    let mut bytes = std::fs::read(&games).unwrap();
    let n = bytes.len();
    bytes[n - 2] ^= 0xff;
    std::fs::write(&games, &bytes).unwrap();
    let o = fanorona(&["eval", "--resume", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("damaged"), "{o:?}");
}

#[cfg(unix)]
#[test]
fn a_full_disk_is_a_failure_and_leaves_no_temporary() {
    if !std::path::Path::new("/dev/full").exists() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    std::fs::create_dir(&out).unwrap();
    // Every write of the state's temporary fails with ENOSPC.
    std::os::unix::fs::symlink("/dev/full", out.join("state.json.tmp")).unwrap();
    let o = fanorona(&["eval", "-e", "greedy", "-e", "random", "-n", "2", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(std::fs::symlink_metadata(out.join("state.json.tmp")).is_err(), "the temporary was left behind");
}
