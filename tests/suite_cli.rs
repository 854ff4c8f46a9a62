//! `fanorona suite` and the suites in matches, as a user drives them: a suite built by
//! analysis and played by `--openings FILE`, the built-in ones, damaged, foreign, illegal and
//! finished suite files refused naming the file and the entry (exit 2), and `fanorona eval
//! replay` on the match.

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

mod common;

use common::{fanorona, stderr, stdout};

fn json(args: &[&str]) -> serde_json::Value {
    let o = fanorona(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(stdout(&o).trim()).unwrap()
}

#[test]
fn a_suite_built_by_analysis_is_played_with_both_colours_and_replayed() {
    let tmp = tempfile::tempdir().unwrap();
    let suite = tmp.path().join("s.suite");
    let s = suite.to_str().unwrap();
    let build = [
        "suite",
        "build",
        "-o",
        s,
        "--plies",
        "3",
        "--engine",
        "alphabeta:depth=3,eval=material",
        "--window",
        "0..150",
        "--sample",
        "40",
        "--json",
    ];
    let doc = json(&build);
    let entries = doc["entries"].as_u64().unwrap();
    assert!(entries > 0 && entries <= 40, "{doc}");
    assert_eq!(doc["analysed"], 40);
    // Built again: the same file (refused without --force).
    let again = fanorona(&build);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    let first = std::fs::read(&suite).unwrap();
    json(&[&build[..], &["--force"]].concat());
    assert_eq!(std::fs::read(&suite).unwrap(), first);
    // Chosen again from it by a narrower window, without a search.
    let level = tmp.path().join("level.suite");
    let doc =
        json(&["suite", "build", "--from", s, "--window", "0..50", "-o", level.to_str().unwrap(), "--json"]);
    assert!(doc["entries"].as_u64().unwrap() <= entries, "{doc}");
    let checked = json(&["suite", "check", s, "--json"]);
    assert_eq!(checked["entries"].as_u64(), Some(entries));
    // Played: each entry with both colours, in order.
    let out = tmp.path().join("m");
    let m = json(&[
        "eval",
        "-e",
        "alphabeta:depth=2",
        "-e",
        "alphabeta:depth=1",
        "-n",
        "8",
        "--openings",
        s,
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(m["games"], 8);
    let replay = json(&[
        "eval",
        "replay",
        out.to_str().unwrap(),
        "--sprt",
        "elo0=0,elo1=50",
        "--orders",
        "20",
        "--json",
    ]);
    assert_eq!(replay[0]["games"], 8);
    assert_eq!(replay[0]["pentanomial"], m["pentanomial"]);
    assert_eq!(replay[0]["replay"]["orders"], 20);
    // The built-in suites.
    for name in ["suite:balanced", "suite:unbalanced"] {
        let m = json(&[
            "eval",
            "-e",
            "alphabeta:depth=1",
            "-e",
            "alphabeta:depth=1",
            "-n",
            "2",
            "--openings",
            name,
            "--json",
        ]);
        assert_eq!(m["openings"], name);
    }
}

#[test]
fn bad_suites_are_refused_naming_the_file_and_the_entry() {
    let tmp = tempfile::tempdir().unwrap();
    let start = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w";
    let file = tmp.path().join("bad.suite");
    let f = file.to_str().unwrap();
    for (text, needle) in [
        (format!("fanorona-suite 1\nentries 2\n{start} +3\n{start} x\n"), "entry 2 (line 4): damaged"),
        (format!("fanorona-suite 1\nentries 3\n{start} +3\n"), "line 2 says 3 entries, the file holds 1"),
        ("fanorona-suite 1\nentries 1\nBBB/9/9/9/9 w 0\n".into(), "entry 1 (line 3): illegal"),
        ("fanorona-suite 1\nentries 1\n9/9/9/9/W1B6 w 0\n".into(), "entry 1 (line 3): finished"),
        (format!("{start}\n"), "not an opening suite"),
    ] {
        // A plain openings file is not a suite: it is read as positions (and plays).
        std::fs::write(&file, &text).unwrap();
        let o = fanorona(&["eval", "-e", "alphabeta:depth=1", "-e", "random", "-n", "2", "--openings", f]);
        if needle == "not an opening suite" {
            assert!(o.status.success(), "{}", stderr(&o));
            let o = fanorona(&["suite", "check", f]);
            assert_eq!(o.status.code(), Some(2));
            assert!(stderr(&o).contains(&format!("suite {f}: {needle}")), "{}", stderr(&o));
            continue;
        }
        assert_eq!(o.status.code(), Some(2), "{text}: {}", stderr(&o));
        assert!(stderr(&o).contains(&format!("suite {f}: {needle}")), "{text}: {}", stderr(&o));
    }
    let o = fanorona(&["eval", "-e", "random", "-e", "random", "-n", "2", "--openings", "suite:nothing"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("balanced, unbalanced"), "{}", stderr(&o));
    let o = fanorona(&["suite", "build", "-o", tmp.path().join("x").to_str().unwrap(), "--window", "9..2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
