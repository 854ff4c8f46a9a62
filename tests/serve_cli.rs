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
