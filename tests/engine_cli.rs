//! `fanorona analyse`, `bench` and `play` driven as a user would (play through a pipe).

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn fanorona(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fanorona");
    // A command that refuses its arguments exits before reading: its closed stdin is no failure.
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn analyse_finds_the_winning_capture() {
    let o = fanorona(&["analyse", "--position", "9/9/9/9/W1BB5 w", "--depth", "3", "--json"], "");
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(text(&o).trim()).unwrap();
    assert_eq!(v["best"], "a1b1+");
    assert_eq!(v["score"], 29_999);
    assert_eq!(v["score_text"], "win 1");
    assert_eq!(v["pv"][0], "a1b1+");
    assert!(v["nodes"].as_u64().unwrap() >= 1);

    let o = fanorona(&["analyse", "--depth", "4", "--eval", "material"], "");
    assert!(o.status.success(), "{o:?}");
    let t = text(&o);
    for key in ["score", "depth", "nodes", "nps", "pv"] {
        assert!(t.lines().any(|l| l.starts_with(key)), "no {key} line in {t}");
    }
}

#[test]
fn analyse_rejects_bad_input_with_exit_code_2() {
    let o = fanorona(&["analyse", "--position", "9/9/9 w", "--depth", "2"], "");
    assert_eq!(o.status.code(), Some(2));
    let o = fanorona(&["analyse", "--eval", "magic", "--depth", "2"], "");
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("magic"));
}

#[test]
fn quiescence_widths_past_the_limit_are_bad_input() {
    let o = fanorona(&["engine", "--qwidth", "256"], "quit\n");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--qwidth"), "{o:?}");
    let o = fanorona(&["play", "--engine", "alphabeta:depth=1,qwidth=300"], "quit\n");
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("qwidth"), "{o:?}");
    let o = fanorona(&["engine", "--qwidth", "2"], "fep\nposition startpos\ngo depth 2\nquit\n");
    assert!(o.status.success(), "{o:?}");
    assert!(text(&o).contains("option name QuiescenceWidth type spin default 2 min 0 max 255"), "{o:?}");
    assert!(text(&o).contains("bestmove "), "{o:?}");
}

#[test]
fn bench_prints_a_deterministic_signature() {
    let run = || {
        let o = fanorona(&["bench", "--depth", "3", "--no-perft", "--json"], "");
        assert!(o.status.success(), "{o:?}");
        let v: serde_json::Value = serde_json::from_str(text(&o).trim()).unwrap();
        v
    };
    let (a, b) = (run(), run());
    assert!(a["nodes"].as_u64().unwrap() > 0);
    assert_eq!(a["nodes"], b["nodes"]);
    assert_eq!(a["positions"].as_array().unwrap().len(), fanorona_engine::bench::BENCH_POSITIONS.len());
    // The evaluator searches: node counts fixed, the ratio by processor time on Linux.
    let e = &a["eval_search"];
    assert_eq!(e["handcrafted"]["nodes"], b["eval_search"]["handcrafted"]["nodes"]);
    assert_eq!(e["network"]["nodes"], b["eval_search"]["network"]["nodes"]);
    assert_eq!(e["ratio_clock"], if cfg!(target_os = "linux") { "cpu" } else { "wall" });
    let (h, n) = (&e["handcrafted"], &e["network"]);
    if cfg!(target_os = "linux") {
        let cpu_ratio =
            n["nodes_per_cpu_second"].as_f64().unwrap() / h["nodes_per_cpu_second"].as_f64().unwrap();
        assert!((e["ratio"].as_f64().unwrap() - cpu_ratio).abs() < 1e-9, "{e}");
    }
    let wall = n["nodes_per_second"].as_f64().unwrap() / h["nodes_per_second"].as_f64().unwrap();
    assert!((e["wall_ratio"].as_f64().unwrap() - wall).abs() < 1e-9, "{e}");
}

#[test]
fn play_through_a_pipe() {
    // Ambiguous prefix, garbage, a listing, a hint, a turn by prefix, undo, then quit.
    let input = "d3\nxyz\nmoves\nhint\nf2\nundo\nquit\n";
    let o = fanorona(&["play", "--engine", "alphabeta:depth=2,eval=material", "--color", "w"], input);
    assert!(o.status.success(), "{o:?}");
    let t = text(&o);
    assert!(t.contains("5  B-B-B-B-B-B-B-B-B"), "{t}");
    assert!(t.contains("ambiguous: \"d3\" could be d3e3+, d3e3-"), "{t}");
    assert!(t.contains("not a legal turn"), "{t}");
    assert!(t.contains("legal turns (5): d2e3+ d3e3+ d3e3- e2e3+ f2e3+"), "{t}");
    assert!(t.contains("hint: "), "{t}");
    assert!(t.contains("you play f2e3+"), "{t}");
    assert!(t.contains("computer plays "), "{t}");
    assert!(t.contains("took back 2 turn(s)"), "{t}");
    assert!(t.contains("bye."), "{t}");
}

#[test]
fn play_to_the_end_as_black() {
    // White (the computer) takes Black's last stone at once.
    let o = fanorona(&["play", "--engine", "greedy", "--color", "b", "--position", "9/9/9/9/W1B6 w"], "");
    assert!(o.status.success(), "{o:?}");
    let t = text(&o);
    assert!(t.contains("computer plays a1b1+"), "{t}");
    assert!(t.contains("Game over: 1-0 (white wins by all stones captured): the computer wins."), "{t}");

    // Input that ends mid-game does not crash.
    let o = fanorona(&["play", "--engine", "random"], "e2\n");
    assert!(o.status.success(), "{o:?}");
    assert!(text(&o).contains("input ended"));
}
