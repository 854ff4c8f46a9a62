//! Fuzzing the resume state on stable: `state.json` mutated byte by byte, then loaded and
//! resumed. A damaged or absurd state is refused as bad input, never a panic or a huge
//! allocation. Longer runs: `PROPTEST_CASES=5000 cargo test --release -p fanorona-eval --test
//! fuzz_state`.

#![allow(clippy::unwrap_used)]

use std::path::Path;
use std::sync::OnceLock;

use fanorona_eval::{MatchConfig, run_match};
use proptest::prelude::*;

/// A finished 4-game match directory's state and games, made once.
fn sample() -> &'static (String, Vec<u8>) {
    static SAMPLE: OnceLock<(String, Vec<u8>)> = OnceLock::new();
    SAMPLE.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let mut c = MatchConfig::new("greedy".parse().unwrap(), "random".parse().unwrap(), 4);
        c.openings = "random:plies=3".parse().unwrap();
        c.out = Some(dir.path().to_path_buf());
        run_match(&c, &mut |_| {}).unwrap();
        let state = std::fs::read_to_string(dir.path().join("state.json")).unwrap();
        // Unfinished after one pair, so that a resume has something to do.
        let mut v: serde_json::Value = serde_json::from_str(&state).unwrap();
        v["pairs_done"] = 1.into();
        v["finished"] = false.into();
        (v.to_string(), std::fs::read(dir.path().join("games.bin")).unwrap())
    })
}

fn resume(dir: &Path, state: &[u8]) {
    std::fs::write(dir.join("state.json"), state).unwrap();
    std::fs::write(dir.join("games.bin"), &sample().1).unwrap();
    // A state that loads is resumed when the match is small (a mutated game count could ask
    // for a billion games: valid, but not for a test).
    if let Ok(c) = MatchConfig::load(dir)
        && c.games <= 16
    {
        match run_match(&c, &mut |_| {}) {
            Ok(r) => assert!(r.games <= r.games_planned),
            Err(e) => assert!(!e.to_string().is_empty()),
        }
    }
}

/// Numbers that break assumptions.
fn number() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("0".to_string()),
        Just("2".to_string()),
        Just("7".to_string()),
        Just("-1".to_string()),
        Just("2147483648".to_string()),
        Just("4611686018427387904".to_string()),
        Just("18446744073709551615".to_string()),
        Just("1e300".to_string()),
        any::<u64>().prop_map(|n| n.to_string()),
    ]
}

/// Cases per property: `PROPTEST_CASES` for a long run, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(32)))]

    #[test]
    fn mutated_state_bytes_never_panic(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..4)) {
        let dir = tempfile::tempdir().unwrap();
        let mut bytes = sample().0.clone().into_bytes();
        for (at, b) in edits {
            let i = at % bytes.len();
            bytes[i] = b;
        }
        resume(dir.path(), &bytes);
    }

    #[test]
    fn absurd_numbers_in_the_state_never_panic(which in 0usize..64, n in number()) {
        // Replace the which-th number of the state text by n.
        let text = &sample().0;
        let mut out = String::new();
        let mut k = 0;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                let mut digits = c.to_string();
                while let Some(d) = chars.peek().copied().filter(char::is_ascii_digit) {
                    digits.push(d);
                    chars.next();
                }
                out.push_str(if k == which { &n } else { &digits });
                k += 1;
            } else {
                out.push(c);
            }
        }
        let dir = tempfile::tempdir().unwrap();
        resume(dir.path(), out.as_bytes());
    }
}
