//! Fuzzing the engine protocol session on stable: arbitrary bytes and mutated command lines
//! on its input. The session answers bad lines with `info string` and goes on: it never
//! panics and never stops before `quit` or the end of the input. Searches are kept to depth 1
//! and network files out of it (their reader is fuzzed with the network code). Longer runs:
//! `PROPTEST_CASES=20000 cargo test --release -p fanorona-engine --test fuzz_protocol`.

#![allow(clippy::unwrap_used)]

use std::io::Write;
use std::sync::{Arc, Mutex};

use fanorona_engine::protocol::{EngineConfig, parse_command, run_engine};
use proptest::prelude::*;

/// A writer the test can read back.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Keeps searches short and files out: `go ...` becomes `go depth 1`; options that load or
/// allocate (Eval, Hash) are dropped.
fn tame(input: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for line in input.split(|&b| b == b'\n') {
        let text = String::from_utf8_lossy(line).to_ascii_lowercase();
        let first = text.split_whitespace().next().unwrap_or("");
        if first == "go" {
            out.extend_from_slice(b"go depth 1");
        } else if first == "setoption" && (text.contains("eval") || text.contains("hash")) {
            continue;
        } else {
            out.extend_from_slice(line);
        }
        out.push(b'\n');
    }
    out
}

/// Runs a session on `input` followed by `isready`, and checks it answered that last line.
fn session(input: &[u8]) {
    let mut bytes = tame(input);
    bytes.extend_from_slice(b"\nisready\n");
    let out = Buffer::default();
    let config = EngineConfig { hash_mib: 1, ..EngineConfig::default() };
    run_engine(&bytes[..], out.clone(), config).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    // Unless a `quit` came first, the session read on to the end.
    let quit = bytes.split(|&b| b == b'\n').any(|l| String::from_utf8_lossy(l).trim() == "quit");
    // (a search's `bestmove` may come after it).
    assert!(quit || text.contains("readyok\n"), "the session stopped early: {text:?}");
}

fn command_word() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("fep".to_string()),
        Just("isready".to_string()),
        Just("newgame".to_string()),
        Just("position startpos moves e2e3 d4e4".to_string()),
        Just("position fen 9/9/4B4/9/4W4 w moves e1e2+".to_string()),
        Just("position fen BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w moves d3e3+".to_string()),
        Just("go depth 1".to_string()),
        Just("stop".to_string()),
        Just("setoption name QuietLimit value 50".to_string()),
        Just("setoption name QuiescenceWidth value 1".to_string()),
        ".{0,30}",
    ]
}

/// Cases per property: `PROPTEST_CASES` for a long run, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(64)))]

    #[test]
    fn arbitrary_bytes_never_end_the_session(bytes in proptest::collection::vec(any::<u8>(), 0..300)) {
        session(&bytes);
    }

    #[test]
    fn mutated_commands_never_end_the_session(
        lines in proptest::collection::vec((command_word(), any::<usize>(), any::<u8>()), 0..8)
    ) {
        let mut input = Vec::new();
        for (line, at, byte) in lines {
            let mut b = line.into_bytes();
            if !b.is_empty() && byte % 2 == 0 {
                let i = at % b.len();
                b[i] = byte;
            }
            input.extend_from_slice(&b);
            input.push(b'\n');
        }
        session(&input);
    }

    #[test]
    fn arbitrary_command_text_never_panics(text in ".{0,200}") {
        let _ = parse_command(&text);
    }
}

#[test]
fn a_non_utf8_byte_is_answered_and_the_session_goes_on() {
    let out = Buffer::default();
    run_engine(&b"\xff\xfe\nisready\n"[..], out.clone(), EngineConfig::default()).unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert_eq!(text, "info string line ignored: it is not UTF-8 text\nreadyok\n");
}

#[test]
fn millions_of_turns_stop_at_the_end_of_the_game() {
    // Two knights' shuffle of quiet turns would repeat forever: the game ends by threefold
    // repetition after a few turns, and the rest is not replayed (a linear, short command).
    let cycle = ["a5b5", "i1h1", "b5a5", "h1i1"];
    let mut line = String::from("position fen W8/9/9/9/8B w moves");
    for i in 0..2_000_000 {
        line.push(' ');
        line.push_str(cycle[i % 4]);
    }
    line.push_str("\nisready\n");
    let out = Buffer::default();
    run_engine(line.as_bytes(), out.clone(), EngineConfig { hash_mib: 1, ..EngineConfig::default() })
        .unwrap();
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(text.starts_with("info string position: the game ended after turn 8"), "{text}");
    assert!(text.ends_with("readyok\n"), "{text}");
}
