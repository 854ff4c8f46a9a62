//! `fanorona tb generate`, `fanorona tb probe` and `fanorona engine --tb` from the outside:
//! output, bad input, exit codes.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

mod common;
use common::{fanorona, stderr, stdout};

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

/// Tables up to 3 stones in a fresh directory.
fn tables() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    let o = fanorona(&["tb", "generate", "--stones", "3", "--out", path(dir.path()), "--threads", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("3 tables up to 3 stones"), "{}", stdout(&o));
    dir
}

#[test]
fn generate_prints_a_json_summary_and_reuses_finished_tables() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = path(dir.path());
    let o = fanorona(&["tb", "generate", "--stones", "3", "--out", out, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    assert_eq!(v["stones"], 3);
    let tables = v["tables"].as_array().expect("tables");
    let names: Vec<&str> = tables.iter().filter_map(|t| t["signature"].as_str()).collect();
    assert_eq!(names, ["1v1", "2v1", "1v2"]);
    for t in tables {
        assert!(
            t["wins"].as_u64().is_some() && t["draws"].as_u64().is_some() && t["losses"].as_u64().is_some()
        );
        assert_eq!(t["reused"], false);
    }
    let o = fanorona(&["tb", "generate", "--stones", "3", "--out", out, "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    assert!(v["tables"].as_array().is_some_and(|t| t.iter().all(|t| t["reused"] == true)), "{v}");
}

#[test]
fn probe_answers_wdl_dtc_and_best_turns() {
    let dir = tables();
    let o = fanorona(&[
        "tb",
        "probe",
        "--tb",
        path(dir.path()),
        "--position",
        "9/9/9/9/W1B6 w",
        "--position",
        "9/9/9/9/W1B6 b",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> =
        stdout(&o).lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["wdl"], "win");
    assert_eq!(lines[0]["dtc"], 1);
    assert_eq!(lines[0]["rule_wdl"], "win");
    assert_eq!(lines[0]["best"], serde_json::json!(["a1b1+"]));
    let draw_or_not = &lines[1];
    assert!(draw_or_not["wdl"].is_string());
    if draw_or_not["wdl"] == "draw" {
        assert!(draw_or_not["dtc"].is_null());
    }

    let text = fanorona(&["tb", "probe", "--tb", path(dir.path()), "--position", "9/9/9/9/W1B6 w"]);
    assert!(stdout(&text).contains("win (dtc 1)"), "{}", stdout(&text));
}

#[test]
fn probe_reads_a_file_of_positions_and_finds_draws() {
    let dir = tables();
    let file = dir.path().join("positions.txt");
    std::fs::write(&file, "# lone stones far apart\nB8/9/9/9/8W w\n\n9/9/9/9/W1B6 w\n").expect("write");
    let o = fanorona(&["tb", "probe", "--tb", path(dir.path()), "--positions", path(&file), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<serde_json::Value> =
        stdout(&o).lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect();
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["wdl"], "draw");
    assert!(lines[0]["dtc"].is_null());
    assert_eq!(lines[1]["wdl"], "win");
}

#[test]
fn bad_input_exits_2_and_says_why() {
    let dir = tables();
    let tb = path(dir.path());
    let o = fanorona(&["tb", "probe", "--tb", tb, "--position", "9/9/BB7/9/WWW6 w"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("5 stones"), "{}", stderr(&o));

    let o = fanorona(&["tb", "probe", "--tb", tb, "--position", "9/9/x/9/9 w"]);
    assert_eq!(o.status.code(), Some(2));

    let o = fanorona(&["tb", "generate", "--stones", "9", "--out", tb]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));

    // A truncated table is named.
    let file = dir.path().join("2v1.fantb");
    let bytes = std::fs::read(&file).expect("read");
    std::fs::write(&file, &bytes[..bytes.len() - 3]).expect("write");
    let o = fanorona(&["tb", "probe", "--tb", tb, "--position", "9/9/9/9/W1B6 w"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("2v1.fantb") && stderr(&o).contains("truncated"), "{}", stderr(&o));

    // Another format version is refused, and not overwritten.
    let mut other = bytes.clone();
    other[8] = 7;
    std::fs::write(&file, &other).expect("write");
    let o = fanorona(&["tb", "generate", "--stones", "3", "--out", tb]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("version 7"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&file).expect("read"), other);

    let o =
        fanorona(&["tb", "probe", "--tb", path(&dir.path().join("nowhere")), "--position", "9/9/9/9/W1B6 w"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));

    let o = fanorona(&["engine", "--tb", path(&dir.path().join("nowhere"))]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn the_engine_plays_perfectly_from_the_tables() {
    let dir = tables();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(["engine", "--eval", "material"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let script = format!(
        "fep\nsetoption name TablebasePath value {}\nposition fen 9/9/9/9/W1B6 w\ngo depth 5\nisready\nquit\n",
        path(dir.path())
    );
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("write");
    let o = child.wait_with_output().expect("engine ends");
    let out = stdout(&o);
    assert!(out.contains("option name TablebasePath type string"), "{out}");
    assert!(out.contains("score win 1"), "{out}");
    assert!(out.contains("bestmove a1b1+"), "{out}");
}

#[test]
fn eval_adjudicates_table_positions() {
    let dir = tables();
    let book = dir.path().join("book.txt");
    // White to move takes the last black stone: a table win for White at once.
    std::fs::write(&book, "9/9/9/9/W1B6 w\n").expect("write");
    let o = fanorona(&[
        "eval",
        "-e",
        "random",
        "-e",
        "random",
        "-n",
        "2",
        "--openings",
        path(&book),
        "--tb",
        path(dir.path()),
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    assert_eq!(v["terminations"]["tablebase adjudication"], 2, "{v}");
    let o =
        fanorona(&["eval", "-e", "random", "-e", "random", "-n", "2", "--tb", path(&dir.path().join("no"))]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn selfplay_stops_games_at_table_positions() {
    let dir = tables();
    let out = dir.path().join("games.bin");
    let o = fanorona(&[
        "selfplay",
        "-n",
        "10",
        "--white",
        "random",
        "--black",
        "random",
        "--tb",
        path(dir.path()),
        "--out",
        path(&out),
        "--json",
        "--quiet",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = fanorona(&["data", "validate", path(&out)]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Random games from the start (seed 1) reach 3 stones in some of the ten.
    let o = fanorona(&["data", "stats", path(&out)]);
    assert!(stdout(&o).contains("tablebase adjudication"), "{}", stdout(&o));
    let fresh = dir.path().join("fresh.bin");
    let o = fanorona(&["selfplay", "-n", "1", "--tb", path(&dir.path().join("no")), "--out", path(&fresh)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("no"), "{}", stderr(&o));
}

#[test]
fn engine_tb_flag_loads_the_tables() {
    let dir = tables();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(["engine", "--eval", "material", "--tb", path(dir.path())])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let script = "fep\nposition fen 9/9/9/9/W1B6 w\ngo movetime 50\nisready\nsetoption name TablebasePath value \
                  /nonexistent/tables\nisready\nquit\n";
    child.stdin.take().expect("stdin").write_all(script.as_bytes()).expect("write");
    let o = child.wait_with_output().expect("engine ends");
    let out = stdout(&o);
    assert!(
        out.contains(&format!("option name TablebasePath type string default {}", path(dir.path()))),
        "{out}"
    );
    assert!(out.contains("bestmove a1b1+"), "{out}");
    assert!(out.contains("info string TablebasePath not set"), "{out}");
}
