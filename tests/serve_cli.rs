//! `fanorona serve` from the outside: the address it prints, a request, bad input, exit codes.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};

mod common;
use common::{fanorona, stderr};

#[test]
fn serve_prints_its_loopback_address_and_answers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let games = dir.path().join("games.bin");
    let o = fanorona(&[
        "selfplay",
        "-n",
        "2",
        "-o",
        games.to_str().expect("utf-8"),
        "--white",
        "greedy",
        "--black",
        "random",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(["serve", "--port", "0", "--json", games.to_str().expect("utf-8")])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run fanorona serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the address line");
    let v: serde_json::Value = serde_json::from_str(line.trim()).expect("one JSON object");
    let addr = v["address"].as_str().expect("address").to_string();
    assert!(addr.starts_with("127.0.0.1:"), "{addr}");
    let mut s = std::net::TcpStream::connect(&addr).expect("connect");
    s.write_all(b"GET /api/files HTTP/1.1\r\nHost: localhost\r\n\r\n").expect("request");
    let mut reply = String::new();
    s.read_to_string(&mut reply).expect("response");
    let _ = child.kill();
    let _ = child.wait();
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    assert!(reply.contains("\"games\":2"), "{reply}");
}

#[test]
fn serve_bad_input_exits_2() {
    for (args, needle) in [
        (vec!["serve", "/no/such/games.bin"], "/no/such/games.bin"),
        (vec!["serve", "--engine", "minimax"], "minimax"),
        (vec!["serve", "--tb", "/no/such/tables"], "/no/such/tables"),
        (vec!["serve", "--port", "99999"], "99999"),
    ] {
        let o = fanorona(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needle), "{args:?}: {}", stderr(&o));
    }
}

#[cfg(unix)]
/// Runs `fanorona ARGS`, killing it (and failing) when it has not exited within 20 s.
fn run_within(args: &[&str]) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fanorona");
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > std::time::Duration::from_secs(20) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fanorona {args:?} still runs after 20 s: it hangs");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

#[cfg(unix)]
#[test]
fn serve_refuses_a_fifo_named_as_a_record_or_save_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let fifo = dir.path().join("games.bin");
    let made = Command::new("mkfifo").arg(&fifo).status().expect("mkfifo");
    assert!(made.success());
    let fifo = fifo.to_str().expect("utf-8");
    for args in [vec!["serve", "--port", "0", fifo], vec!["serve", "--port", "0", "--save", fifo]] {
        let o = run_within(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(fifo) && e.contains("not a regular file"), "{args:?}: {e}");
    }
}
