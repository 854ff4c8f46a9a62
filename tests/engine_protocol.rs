//! Drives `fanorona engine` through pipes, as a match runner would (shared/PROTOCOL.md).

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use fanorona_core::Position;

/// Long enough for any answer on a loaded machine; only guards against a hung test.
const PATIENCE: Duration = Duration::from_secs(120);

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
            .arg("engine")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn fanorona engine");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Every line up to and including the first that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.lines.recv_timeout(PATIENCE) {
                Ok(l) => {
                    let done = l.starts_with(prefix);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no {prefix:?} line; got {seen:?}"),
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("engine exited before {prefix:?}; got {seen:?}")
                }
            }
        }
    }

    /// The turn of the `bestmove` line that ends the current search, and the lines before it.
    fn bestmove(&mut self) -> (String, Vec<String>) {
        let lines = self.until("bestmove ");
        let last = lines.last().unwrap().clone();
        (last["bestmove ".len()..].to_string(), lines)
    }

    fn quit(mut self) {
        self.send("quit");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "exit status {status}");
    }
}

fn handshake(e: &mut Engine) {
    e.send("fep");
    let lines = e.until("fepok");
    assert!(lines.iter().any(|l| l.starts_with("id name ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("id author ")), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("option name Hash type spin")), "{lines:?}");
    e.send("isready");
    e.until("readyok");
}

fn is_legal(pos: &Position, turn: &str) -> bool {
    pos.parse_move(turn).is_ok_and(|m| pos.legal_moves().iter().any(|l| l.to_string() == m.to_string()))
}

/// `info depth <d> score <s> nodes <n> nps <n> time <ms> pv ...`: the depth.
fn info_depth(line: &str) -> Option<u32> {
    let w: Vec<&str> = line.split_whitespace().collect();
    if w.first() != Some(&"info") || w.get(1) != Some(&"depth") {
        return None;
    }
    for key in ["score", "nodes", "nps", "time", "pv"] {
        assert!(w.contains(&key), "info line without {key}: {line}");
    }
    w[2].parse().ok()
}

#[test]
fn handshake_positions_and_depth_limit() {
    let mut e = Engine::start(&["--eval", "material", "--hash", "4"]);
    handshake(&mut e);
    e.send("newgame");
    e.send("position startpos moves d3e3+ d4d3+");
    e.send("go depth 3");
    let (best, lines) = e.bestmove();
    let depths: Vec<u32> = lines.iter().filter_map(|l| info_depth(l)).collect();
    assert_eq!(depths, vec![1, 2, 3], "{lines:?}");
    let mut pos = Position::start();
    for t in ["d3e3+", "d4d3+"] {
        pos = pos.play(&pos.parse_move(t).unwrap()).unwrap();
    }
    assert!(is_legal(&pos, &best), "{best} in {pos}");

    // A position from a fen: White's a3 takes three stones with a3b3+ (the only win of
    // material worth having); at depth 2 the engine must find it.
    e.send("position fen 9/9/W1BBB3B/9/8W w");
    e.send("go depth 2");
    let (best, _) = e.bestmove();
    assert_eq!(best, "a3b3+");
    e.quit();
}

#[test]
fn forced_win_is_reported_as_win() {
    let mut e = Engine::start(&["--eval", "material"]);
    handshake(&mut e);
    // White takes Black's last two stones in one turn.
    e.send("position fen 9/9/9/9/W1BB5 w");
    e.send("go depth 4");
    let (best, lines) = e.bestmove();
    assert_eq!(best, "a1b1+");
    assert!(lines.iter().any(|l| l.contains(" score win 1 ")), "{lines:?}");
    e.quit();
}

#[test]
fn node_and_time_limits() {
    let mut e = Engine::start(&[]);
    handshake(&mut e);
    e.send("position startpos");
    e.send("go nodes 5000");
    let (best, lines) = e.bestmove();
    assert!(is_legal(&Position::start(), &best), "{best}");
    // The first iteration always completes (the start position's takes 6,688 nodes); no deeper
    // one is reported beyond the limit.
    let infos: Vec<(u64, u64)> = lines
        .iter()
        .filter(|l| l.starts_with("info depth"))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let at = |key: &str| w[w.iter().position(|x| *x == key).unwrap() + 1].parse::<u64>().unwrap();
            (at("depth"), at("nodes"))
        })
        .collect();
    assert_eq!(infos.first().map(|i| i.0), Some(1), "{lines:?}");
    assert!(infos.iter().all(|&(d, n)| d == 1 || n <= 5000), "{lines:?}");
    // The same node-limited search gives the same answer.
    e.send("go nodes 5000");
    let (again, _) = e.bestmove();
    assert_eq!(again, best);

    e.send("position startpos moves f2e3+");
    e.send("go movetime 100");
    let (best, _) = e.bestmove();
    let pos = Position::start();
    let pos = pos.play(&pos.parse_move("f2e3+").unwrap()).unwrap();
    assert!(is_legal(&pos, &best), "{best}");

    e.send("go wtime 2000 btime 2000 winc 10 binc 10");
    let (best, _) = e.bestmove();
    assert!(is_legal(&pos, &best), "{best}");
    e.quit();
}

#[test]
fn stop_ends_an_unlimited_search() {
    let mut e = Engine::start(&[]);
    handshake(&mut e);
    e.send("position startpos");
    e.send("go");
    // While it searches, it still answers.
    e.send("isready");
    e.until("readyok");
    e.send("stop");
    let (best, _) = e.bestmove();
    assert!(is_legal(&Position::start(), &best), "{best}");
    e.send("isready");
    e.until("readyok");
    e.quit();
}

#[test]
fn bad_input_is_answered_and_ignored() {
    let mut e = Engine::start(&[]);
    handshake(&mut e);
    e.send("position fen 9/9/W1BBB3B/9/8W w");
    // An illegal turn in a move list: the whole command is ignored.
    e.send("position startpos moves d3e3+ a1a2");
    let l = e.until("info string");
    assert!(l.last().unwrap().contains("a1a2"), "{l:?}");
    e.send("hello there");
    e.until("info string");
    e.send("position fen BBB/9 w");
    e.until("info string");
    e.send("go depth banana");
    e.until("info string");
    e.send("setoption name Colour value red");
    e.until("info string");
    e.send("setoption name Eval value net:/nonexistent/net.bin");
    e.until("info string");
    // The fen position set first is still the one searched.
    e.send("go depth 2");
    let (best, _) = e.bestmove();
    assert_eq!(best, "a3b3+");
    // No legal turn: bestmove none.
    e.send("position fen 9/9/9/9/W8 b");
    e.send("go depth 3");
    let (best, _) = e.bestmove();
    assert_eq!(best, "none");
    e.send("setoption name Hash value 1");
    e.send("isready");
    e.until("readyok");
    e.quit();
}

#[test]
fn end_of_input_exits_cleanly() {
    let mut e = Engine::start(&[]);
    handshake(&mut e);
    e.send("position startpos");
    e.send("go depth 2");
    e.bestmove();
    drop(e.stdin);
    let status = e.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn draw_rule_options_reach_the_search() {
    let mut e = Engine::start(&["--eval", "material"]);
    handshake(&mut e);
    let score = |e: &mut Engine| {
        e.send("position fen B8/9/9/9/7WW w");
        e.send("go depth 3");
        let (_, lines) = e.bestmove();
        let last = lines.iter().rev().find(|l| l.starts_with("info depth 3 ")).cloned().unwrap();
        last.split_whitespace().nth(4).unwrap().to_string()
    };
    // A stone up with nothing to capture: +100 under the default rules...
    assert_eq!(score(&mut e), "100");
    // ... and a draw when one quiet turn already ends the game.
    e.send("setoption name QuietLimit value 1");
    assert_eq!(score(&mut e), "0");
    e.send("setoption name QuietLimit value 50");
    e.send("setoption name LengthLimit value 1");
    assert_eq!(score(&mut e), "0");
    e.send("setoption name LengthLimit value -3");
    e.until("info string");
    e.quit();
}

#[test]
fn a_piped_go_prints_every_iteration_before_bestmove() {
    // `printf 'position startpos\ngo depth 4\n' | fanorona engine`: the input ends at once.
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"position startpos\ngo depth 4\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let depths: Vec<u32> = text.lines().filter_map(info_depth).collect();
    assert_eq!(depths, [1, 2, 3, 4], "{text}");
    for l in text.lines().filter(|l| l.starts_with("info depth")) {
        for word in [" score ", " nodes ", " nps ", " time ", " pv "] {
            assert!(l.contains(word), "{word} missing in {l}");
        }
    }
    let best = text.lines().last().and_then(|l| l.strip_prefix("bestmove ")).unwrap();
    assert!(is_legal(&Position::start(), best), "{best}");
}

#[test]
fn a_go_during_a_search_is_answered_and_ignored() {
    let mut e = Engine::start(&[]);
    handshake(&mut e);
    e.send("position startpos");
    e.send("go");
    e.send("go depth 1");
    // PROTOCOL.md: an info string, and the running search goes on.
    let seen = e.until("info string go ignored");
    assert!(!seen.iter().any(|l| l.starts_with("bestmove")), "{seen:?}");
    e.send("stop");
    let (best, _) = e.bestmove();
    assert!(is_legal(&Position::start(), &best), "{best}");
    // One bestmove for the one search that ran.
    e.send("isready");
    let after = e.until("readyok");
    assert!(!after.iter().any(|l| l.starts_with("bestmove")), "{after:?}");
    e.quit();
}
