//! Threads and table sizes through the command line and the protocol: a shared-table search
//! on two threads, and every count or size the machine cannot give refused with exit code 2 or
//! an `info string`, never a crash.

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

use std::io::Write;
use std::process::{Command, Output, Stdio};

use fanorona_engine::search::available_threads;

/// Runs `fanorona ARGS` with `stdin`, under a virtual-memory limit of `limit_kib` if given
/// (through `sh -c 'ulimit -v ...'`), so that a large table cannot be had.
fn run(args: &[&str], stdin: &str, limit_kib: Option<u64>) -> Output {
    let bin = env!("CARGO_BIN_EXE_fanorona");
    let mut cmd = match limit_kib {
        Some(kib) => {
            let mut c = Command::new("sh");
            c.arg("-c").arg(format!("ulimit -v {kib} && exec \"$0\" \"$@\"")).arg(bin).args(args);
            c
        }
        None => {
            let mut c = Command::new(bin);
            c.args(args);
            c
        }
    };
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fanorona");
    // A program that refuses its arguments exits before reading: its input may be closed.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// 1.5 GiB of address space: the program runs, a 4 GiB table does not fit.
const SMALL_MEMORY_KIB: u64 = 1_500_000;

#[test]
fn analyse_on_two_threads() {
    let threads = available_threads().min(2).to_string();
    let o = run(
        &["analyse", "--position", "9/9/9/9/W1BB5 w", "--depth", "4", "--threads", &threads, "--json"],
        "",
        None,
    );
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).unwrap();
    assert_eq!((v["best"].as_str(), v["score_text"].as_str()), (Some("a1b1+"), Some("win 1")));
    assert_eq!(v["threads"].to_string(), threads);
}

#[test]
fn thread_counts_the_machine_cannot_give_are_bad_input() {
    let too_many = (available_threads() + 1).to_string();
    for (args, want) in [
        (vec!["analyse", "--depth", "2", "--threads", "0"], "--threads: threads must be at least 1"),
        (vec!["analyse", "--depth", "2", "--threads", too_many.as_str()], "more than the"),
        (vec!["bench", "--depth", "2", "--threads", "0"], "--threads"),
        (vec!["engine", "--threads", "0"], "--threads"),
        (vec!["play", "--engine", "alphabeta:depth=2,threads=0"], "threads"),
    ] {
        let o = run(&args, "quit\n", None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        assert!(text(&o.stderr).contains(want), "{args:?}: {}", text(&o.stderr));
    }
    if available_threads() < fanorona_engine::search::MAX_THREADS {
        let spec = format!("alphabeta:depth=2,threads={too_many}");
        let o = run(&["play", "--engine", &spec], "quit\n", None);
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        assert!(text(&o.stderr).contains("more than the"), "{}", text(&o.stderr));
    }
}

#[cfg(unix)]
#[test]
fn a_table_that_cannot_be_allocated_is_bad_input() {
    let o = run(&["analyse", "--depth", "1", "--hash", "4096"], "", Some(SMALL_MEMORY_KIB));
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(
        text(&o.stderr).contains("cannot allocate a 4096 MiB transposition table"),
        "{}",
        text(&o.stderr)
    );
    let o = run(&["engine", "--hash", "4096"], "quit\n", Some(SMALL_MEMORY_KIB));
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(text(&o.stderr).contains("cannot allocate"), "{}", text(&o.stderr));
}

#[cfg(unix)]
#[test]
fn the_protocol_refuses_what_the_machine_cannot_give_and_keeps_searching() {
    let n = available_threads();
    let input = format!(
        "fep\nsetoption name Hash value 4096\nsetoption name Threads value 0\n\
         setoption name Threads value {}\nsetoption name Threads value two\n\
         setoption name Threads value {}\nposition startpos\ngo depth 3\n",
        n + 1,
        n.min(2)
    );
    // At the end of the input the search runs to its depth.
    let o = run(&["engine", "--eval", "material"], &input, Some(SMALL_MEMORY_KIB));
    assert!(o.status.success(), "{o:?}");
    let out = text(&o.stdout);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines.contains(&format!("option name Threads type spin default 1 min 1 max {n}").as_str()),
        "{out}"
    );
    let refused: Vec<&&str> = lines.iter().filter(|l| l.starts_with("info string ")).collect();
    assert_eq!(refused.len(), 4, "{out}");
    assert!(
        refused[0].starts_with("info string Hash not set, the old settings are kept: Hash: cannot allocate"),
        "{out}"
    );
    assert!(refused[1].contains("Threads not set, 1 kept: threads must be at least 1"), "{out}");
    assert!(refused[2].contains("more than the"), "{out}");
    assert!(refused[3].contains("Threads must be 1..="), "{out}");
    assert!(lines.iter().any(|l| l.starts_with("info depth 3 ")), "{out}");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")), "{out}");
}

#[test]
fn bench_compares_threads_and_keeps_the_one_thread_signature() {
    let threads = available_threads().min(2).to_string();
    let bench = |extra: &[&str]| {
        let mut args = vec!["bench", "--depth", "3", "--no-perft", "--no-eval-search", "--json"];
        args.extend_from_slice(extra);
        let o = run(&args, "", None);
        assert!(o.status.success(), "{o:?}");
        serde_json::from_str::<serde_json::Value>(text(&o.stdout).trim()).unwrap()
    };
    let (one, two) = (bench(&[]), bench(&["--threads", &threads]));
    assert_eq!(one["nodes"], two["nodes"]);
    assert!(one.get("threads").is_none());
    if threads == "2" {
        assert_eq!(two["threads"]["many"]["threads"], 2);
        assert_eq!(two["threads"]["one"]["nodes"], one["nodes"]);
        assert!(two["threads"]["ratio"].as_f64().unwrap() > 0.0);
    }
}

/// Worker-thread counts share one check: past 1024 refused (exit 2) by every command; a large
/// count that passes searches on at most the machine's cores, each worker's hash table built
/// when it first searches, so 150 workers fit where 150 tables of 16 MiB would not.
#[test]
fn worker_thread_counts_are_checked_and_bounded_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("g.bin").display().to_string();
    let spec = "alphabeta:depth=1";
    let o = run(&["selfplay", "-n", "4", "-o", &games, "--white", spec, "--black", spec, "-q"], "", None);
    assert!(o.status.success(), "{o:?}");
    let out = dir.path().join("r.bin").display().to_string();
    let book = dir.path().join("b.book").display().to_string();
    for args in [
        vec!["data", "rescore", &games, "-o", &out, "-e", spec, "-t", "100000"],
        vec!["book", "analyse", "-o", &book, "-e", spec, "--plies", "1", "-t", "100000"],
        vec!["selfplay", "-n", "2", "-o", &out, "-t", "1025"],
    ] {
        let o = run(&args, "", None);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", text(&o.stderr));
        assert!(text(&o.stderr).contains("at most 1024"), "{args:?}: {}", text(&o.stderr));
    }
    // 150 workers under 1.5 GiB of address space (150 tables of 16 MiB are 2.4 GiB).
    for args in [
        vec!["data", "rescore", &games, "-o", &out, "-e", spec, "-t", "150"],
        vec!["book", "analyse", "-o", &book, "-e", spec, "--plies", "1", "-t", "150"],
    ] {
        let o = run(&args, "", Some(SMALL_MEMORY_KIB));
        assert!(o.status.success(), "{args:?}: {}", text(&o.stderr));
    }
}
