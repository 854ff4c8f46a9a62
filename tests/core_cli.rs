//! `fanorona perft` and `fanorona show` from the outside: output format, bad input, exit codes.

use std::process::Command;

mod common;
use common::{fanorona, stderr, stdout};

#[test]
fn perft_plain_ends_with_nodes_line() {
    let o = fanorona(&["perft", "--depth", "4"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().last(), Some("nodes 18026"));
}

#[test]
fn perft_json_and_divide() {
    let o = fanorona(&["perft", "--depth", "3", "--divide", "--json", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    assert_eq!(v["depth"], 3);
    assert_eq!(v["nodes"], 724);
    assert!(v["seconds"].as_f64().is_some());
    assert!(v["nodes_per_second"].as_f64().is_some());
    let divide = v["divide"].as_array().expect("divide list");
    assert_eq!(divide.len(), 5);
    assert_eq!(divide.iter().map(|d| d["nodes"].as_u64().unwrap_or(0)).sum::<u64>(), 724);

    let o = fanorona(&["perft", "--depth", "2", "--divide"]);
    let out = stdout(&o);
    assert!(out.contains("d3e3-: "), "{out}");
    assert_eq!(out.lines().last(), Some("nodes 39"));
}

#[test]
fn perft_with_a_hash_counts_the_same() {
    for threads in ["1", "2"] {
        let o = fanorona(&["perft", "--depth", "5", "--hash", "4", "--threads", threads, "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
        assert_eq!(v["nodes"], 431_852);
        assert_eq!(v["hash_mib"], 4);
    }
    let o = fanorona(&["perft", "--depth", "3", "--hash", "0"]);
    assert_eq!(stdout(&o).lines().last(), Some("nodes 724"));
    let o = fanorona(&["perft", "--depth", "3", "--hash", "99999999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--hash: at most 4096 MiB"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
}

#[test]
fn perft_of_a_given_position() {
    let o = fanorona(&["perft", "--depth", "1", "--position", "9/9/B1B6/BW7/9 w"]);
    assert_eq!(stdout(&o).lines().last(), Some("nodes 5"));
}

#[test]
fn show_draws_the_board_and_lists_turns() {
    let o = fanorona(&["show"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("a b c d e f g h i"), "{out}");
    assert!(out.contains("5 legal capturing turns"), "{out}");
    for t in ["d2e3+", "e2e3+", "f2e3+", "d3e3+", "d3e3-"] {
        assert!(out.contains(t), "{t} missing from {out}");
    }
    let o = fanorona(&["show", "--position", "9/9/9/BB7/WB7 w", "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["moves"].as_array().map(Vec::len), Some(0));
}

#[test]
fn malformed_positions_exit_2_and_say_why() {
    let cases = [
        ("9/9/9/9/8 w", "row 1"),
        ("9/9/9/9/WWWWWWWWWW w", "row 1"),
        ("9/9/4X4/9/9 w", "unknown character"),
        ("WWWWWWWWW/WWWWWWWWW/WWWWW4/9/9 w", "23 stones"),
        ("9/9/9/9/9", "missing side"),
        ("9/9/9/9 w", "5 rows"),
    ];
    for (pos, needle) in cases {
        for cmd in ["perft", "show"] {
            let mut args = vec![cmd, "--position", pos];
            if cmd == "perft" {
                args.extend(["--depth", "1"]);
            }
            let o = fanorona(&args);
            assert_eq!(o.status.code(), Some(2), "{cmd} {pos}");
            let err = stderr(&o);
            assert!(err.contains(needle), "{cmd} {pos}: {err}");
            assert!(!err.contains("panicked"), "{err}");
        }
    }
}

#[test]
fn bad_usage_exits_2() {
    assert_eq!(fanorona(&["perft"]).status.code(), Some(2));
    assert_eq!(fanorona(&["perft", "--depth", "x"]).status.code(), Some(2));
    assert_eq!(fanorona(&["perft", "--depth", "2", "--threads", "0"]).status.code(), Some(2));
    assert_eq!(fanorona(&["no-such-command"]).status.code(), Some(2));
    assert_eq!(fanorona(&["--help"]).status.code(), Some(0));
}

#[test]
fn show_plays_turns_and_rejects_bad_ones_with_exit_2() {
    let o = fanorona(&["show", "--moves", "d3e3+ c3d3-", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["turn"], "white");
    assert_eq!(v["black_stones"], 21);
    assert_eq!(v["white_stones"], 21);
    let cases = [
        ("d3e3", "needs a mark"),
        ("d3e3* ", "not written as"),
        ("d3f3+", "not next to"),
        ("f3e3+", "no white stone on f3"),
        ("d2d3", "not empty"),
        ("e2e3-", "no enemy stone"),
        ("d3e3+ d4d3+ e3e2", "turn 3"),
    ];
    for (moves, needle) in cases {
        let o = fanorona(&["show", "--moves", moves]);
        assert_eq!(o.status.code(), Some(2), "{moves}");
        let err = stderr(&o);
        assert!(err.contains(needle), "{moves}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn a_side_without_stones_has_lost_whoever_is_to_move() {
    for (turn, score) in [("w", "win 0"), ("b", "loss 0")] {
        let pos = format!("9/9/9/9/4W4 {turn}");
        let o = fanorona(&["show", "--position", &pos]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("game over: 1-0 (white wins by"), "{}", stdout(&o));
        assert!(stdout(&o).contains("white 1 stone, black 0 stones"), "{}", stdout(&o));
        let o = fanorona(&["analyse", "--position", &pos, "--depth", "2"]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains(&format!("score    {score}")), "{turn}: {}", stdout(&o));
    }
    let o = fanorona(&["perft", "--depth", "3", "--threads", "100000"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = fanorona(&["perft", "--depth", "3", "--threads", "1000"]);
    assert!(o.status.success(), "{}", stderr(&o));
}

#[test]
fn the_engine_reads_past_a_bad_byte() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .arg("engine")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(b"\xff\nisready\nquit\n").expect("write");
    drop(stdin);
    let o = child.wait_with_output().expect("wait");
    assert!(o.status.success(), "{o:?}");
    assert_eq!(stdout(&o), "info string line ignored: it is not UTF-8 text\nreadyok\n");
}
