//! `fanorona tb generate`, `fanorona tb probe` and `fanorona engine --tb` from the outside:
//! output, bad input, exit codes.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

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

/// Runs `fanorona ARGS` (standard input closed) and fails the test, killing the program, when
/// it has not ended within a minute: a FIFO opened as a table would hang it for ever.
fn fanorona_within_a_minute(args: &[&str]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fanorona");
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fanorona {args:?} did not end within a minute (a FIFO opened as a table?)");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn mkfifo(p: &Path) {
    let ok = Command::new("mkfifo").arg(p).status().expect("run mkfifo").success();
    assert!(ok, "mkfifo {}", p.display());
}

#[test]
fn a_fifo_at_a_table_name_is_refused_not_opened() {
    let dir = tables();
    let tb = path(dir.path());
    let table = dir.path().join("2v1.fantb");
    std::fs::remove_file(&table).expect("remove");
    mkfifo(&table);
    let generate = ["tb", "generate", "--stones", "3", "--out", tb, "--threads", "1"];
    let spec = format!("alphabeta:depth=1,tb={tb}");
    for args in [
        &["tb", "probe", "--tb", tb, "--position", "9/9/9/9/W1B6 w"][..],
        &generate,
        &["engine", "--tb", tb],
        &["play", "--engine", &spec],
    ] {
        let o = fanorona_within_a_minute(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("2v1.fantb is a FIFO"), "{args:?}: {}", stderr(&o));
    }
    // A FIFO at a table's temporary name is not written into.
    std::fs::remove_file(&table).expect("remove");
    let part = dir.path().join("2v1.fantb.part");
    mkfifo(&part);
    let o = fanorona_within_a_minute(&generate);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("2v1.fantb.part"), "{}", stderr(&o));
}

#[test]
fn a_directory_at_a_table_name_is_bad_input() {
    let dir = tables();
    let tb = path(dir.path());
    let table = dir.path().join("1v2.fantb");
    std::fs::remove_file(&table).expect("remove");
    std::fs::create_dir(&table).expect("mkdir");
    for args in [
        &["tb", "probe", "--tb", tb, "--position", "9/9/9/9/W1B6 w"][..],
        &["tb", "generate", "--stones", "3", "--out", tb, "--threads", "1"],
    ] {
        let o = fanorona_within_a_minute(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("1v2.fantb is a directory"), "{args:?}: {}", stderr(&o));
    }
    assert!(table.is_dir());
}

#[test]
fn generate_out_must_be_a_directory_and_nothing_is_clobbered() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("notes.txt");
    std::fs::write(&file, "mine").expect("write");
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    for out in [file.as_path(), fifo.as_path(), Path::new("/dev/null")] {
        if !out.exists() {
            continue;
        }
        let o = fanorona_within_a_minute(&["tb", "generate", "--stones", "2", "--out", path(out)]);
        assert_eq!(o.status.code(), Some(2), "{}: {}", out.display(), stderr(&o));
        assert!(stderr(&o).contains("is not a directory"), "{}: {}", out.display(), stderr(&o));
    }
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "mine");
    // Only the two special files and the file are there: nothing was written beside them.
    assert_eq!(std::fs::read_dir(dir.path()).expect("list").count(), 2);
}

#[test]
fn generate_threads_beyond_the_limit_are_bad_input() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("tables");
    let (limit, _) = fanorona_tb::thread_limit();
    for threads in [(limit + 1).to_string(), "100000000".to_string()] {
        let o = fanorona_within_a_minute(&[
            "tb",
            "generate",
            "--stones",
            "2",
            "--out",
            path(&out),
            "--threads",
            &threads,
        ]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains(&format!("more than the {limit}")), "{}", stderr(&o));
    }
    assert!(!out.exists());
}

#[test]
fn probe_positions_files_are_bounded() {
    let dir = tables();
    let tb = path(dir.path());
    if Path::new("/dev/zero").exists() {
        let o = fanorona_within_a_minute(&["tb", "probe", "--tb", tb, "--positions", "/dev/zero"]);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("--positions /dev/zero: line 1 is longer than 4096 bytes"),
            "{}",
            stderr(&o)
        );
    }
    let many = dir.path().join("many.txt");
    std::fs::write(&many, "#\n".repeat(1_000_001)).expect("write");
    let o = fanorona_within_a_minute(&["tb", "probe", "--tb", tb, "--positions", path(&many)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("many.txt: more than 1000000 lines"), "{}", stderr(&o));
    let o = fanorona_within_a_minute(&["tb", "probe", "--tb", tb, "--positions", tb]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("is a directory"), "{}", stderr(&o));
}
