//! `fanorona solve suite` and `fanorona solve errors` as a user drives them: a proven suite
//! built from games over small tables (3 stones, the solver beyond them), its file read back
//! and checked against larger tables, damaged suites refused naming the line (exit 2), and the
//! error rate of `greedy` on a hand-made suite whose answer is known by hand.

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

mod common;

use std::path::{Path, PathBuf};

use common::{fanorona, stderr, stdout};
use fanorona_core::{DrawRules, Game, Outcome, Rng};
use fanorona_data::{Ending, GameRecord, Header, Kind, RecordWriter, TurnInfo};
use fanorona_solve::suite::Suite;
use fanorona_tb::{GenerateOptions, Tablebase, generate};

fn json(args: &[&str]) -> serde_json::Value {
    let o = fanorona(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(stdout(&o).trim()).unwrap()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Games of random turns from a few small positions, each to its end or 40 turns (then
/// adjudicated a draw), in a record file.
fn games(dir: &Path) -> PathBuf {
    let starts =
        ["9/9/2W1BB3/5W3/4B4 w", "2B6/2W6/4W4/2B6/2B6 b", "9/1B2W4/4B4/3WW4/9 w", "B7B/9/4W4/9/W7W b"];
    let path = dir.join("games.bin");
    let header = Header::new("test", Kind::SelfPlay, "{}", 0);
    let mut w = RecordWriter::create(&path, &header).unwrap();
    let mut rng = Rng::new(5);
    for (i, start) in starts.iter().cycle().take(12).enumerate() {
        let mut game = Game::new(start.parse().unwrap(), DrawRules::default());
        while game.outcome().is_none() && game.moves().len() < 40 {
            let legal = game.legal_moves();
            let m = legal[rng.below(legal.len() as u64) as usize];
            game.play(&m).unwrap();
        }
        let info = vec![TurnInfo::default(); game.moves().len()];
        let decision =
            game.outcome().is_none().then_some(Outcome { winner: None, termination: Ending::Adjudication });
        w.write(
            &GameRecord::from_decided_game(&game, decision, &info, i as u64, "random", "random").unwrap(),
        )
        .unwrap();
    }
    w.finish().unwrap();
    path
}

#[test]
fn a_suite_built_from_games_holds_proven_values_and_reads_back() {
    let tmp = tempfile::tempdir().unwrap();
    let small = tmp.path().join("t3");
    generate(&small, GenerateOptions::new(3, 1), &|_| {}).unwrap();
    let games = games(tmp.path());
    let out = tmp.path().join("p.suite");
    let build = [
        "solve",
        "suite",
        "--games",
        s(&games),
        "--tb",
        s(&small),
        "--out",
        s(&out),
        "--positions",
        "30",
        "--min-stones",
        "2",
        "--max-stones",
        "4",
        "--nodes",
        "50000",
        "--json",
    ];
    let doc = json(&build);
    let kept = doc["positions"].as_u64().unwrap();
    assert!(kept > 0 && kept <= 30, "{doc}");
    assert_eq!((doc["tables"].as_u64(), doc["games"].as_u64()), (Some(3), Some(12)), "{doc}");
    assert!(doc["solver"]["positions"].as_u64().unwrap() > 0, "the 4-stone positions were not solved: {doc}");
    let suite = Suite::read(&out).unwrap();
    assert_eq!(suite.to_text().as_bytes(), std::fs::read(&out).unwrap(), "the file reads back as written");
    assert_eq!(suite.entries.len() as u64, kept);
    assert_eq!(
        (suite.skipped, suite.dropped),
        (doc["skipped"].as_u64().unwrap(), doc["dropped"].as_u64().unwrap())
    );
    // Every value and every value-preserving turn agrees with 4-stone tables, the solver's too.
    let four = generate(&tmp.path().join("t4"), GenerateOptions::new(4, 1), &|_| {}).unwrap();
    let mut solved = 0;
    for e in &suite.entries {
        assert_eq!(e.value, four.probe(&e.position).unwrap().wdl(), "{}", e.position);
        let moves = four.root_moves(&e.position, 0, 0).unwrap();
        for m in &moves {
            assert_eq!(e.preserves(&m.mv), m.value.wdl() == e.value, "{} {}", e.position, m.mv);
        }
        assert!(moves.iter().any(|m| !e.preserves(&m.mv)));
        solved += usize::from(e.stones() == 4);
    }
    assert!(solved > 0, "no 4-stone position kept");
    // Built again: refused without --force, the same file with it.
    let again = fanorona(&build);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    json(&[&build[..], &["--force"]].concat());
    assert_eq!(std::fs::read(&out).unwrap(), suite.to_text().as_bytes());
    // Tables that are not there, games that are not records: exit 2.
    let o = fanorona(&["solve", "suite", "--games", s(&games), "--tb", "/nonexistent", "--out", s(&out)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = fanorona(&[
        "solve",
        "suite",
        "--games",
        s(&out),
        "--tb",
        s(&small),
        "--out",
        s(&tmp.path().join("x")),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("p.suite"), "{}", stderr(&o));
}

/// The hand-made suite: three positions, White to move.
/// - `9/9/2W1BB3/5W3/9 w`, a win: greedy's c3d3+ is the only turn taking two stones, both of
///   Black's: the game is won on the spot (f2g1- wins too, f2f1- only draws).
/// - `2B6/2W6/9/2B6/2B6 w` and `7B1/7W1/9/7B1/7B1 w`, draws: greedy's c4c3+ (h4h3+) is the only
///   turn taking two stones, and it leaves White's last stone on c3 (h3) for Black's c5c4+
///   (h5h4+): lost. Taking the stone behind instead (c4c3-, h4h3-) keeps the draw.
///
/// So greedy errs on 2 of 3 positions: 0 of 1 win, 2 of 2 draws.
const HAND: &str = "fanorona-proven-suite 1
# by hand
tables 4
skipped 0
dropped 0
positions 3
9/9/2W1BB3/5W3/9 w win c3d3+ f2g1-
2B6/2W6/9/2B6/2B6 w draw c4c3-
7B1/7W1/9/7B1/7B1 w draw h4h3-
";

#[test]
fn greedy_errs_on_the_hand_made_suite_as_counted_by_hand() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("hand.suite");
    std::fs::write(&file, HAND).unwrap();
    // The hand's values agree with the tables.
    let four: Tablebase = generate(&tmp.path().join("t4"), GenerateOptions::new(4, 1), &|_| {}).unwrap();
    for e in &Suite::read(&file).unwrap().entries {
        let keep = four.root_moves(&e.position, 0, 0).unwrap();
        assert!(keep.iter().all(|m| e.preserves(&m.mv) == (m.value.wdl() == e.value)), "{}", e.position);
    }
    let doc = json(&["solve", "errors", "--suite", s(&file), "-e", "greedy", "--movetime", "5", "--json"]);
    assert_eq!((doc["positions"].as_u64(), doc["tables"].as_u64()), (Some(3), Some(4)));
    let g = &doc["engines"][0];
    assert_eq!(
        (g["engine"].as_str(), g["errors"].as_u64(), g["positions"].as_u64()),
        (Some("greedy"), Some(2), Some(3))
    );
    // Wilson, 2 of 3: centre (2/3 + 0.640243) / 2.280486 = 0.573084, half 0.365424.
    assert!((g["low"].as_f64().unwrap() - 0.207660).abs() < 1e-6, "{g}");
    assert!((g["high"].as_f64().unwrap() - 0.938508).abs() < 1e-6, "{g}");
    assert_eq!(
        (g["by_value"]["win"]["errors"].as_u64(), g["by_value"]["win"]["positions"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(
        (g["by_value"]["draw"]["errors"].as_u64(), g["by_value"]["draw"]["positions"].as_u64()),
        (Some(2), Some(2))
    );
    assert_eq!(g["by_stones"]["4"]["errors"].as_u64(), Some(2));
    let chosen: Vec<&str> =
        g["misses"].as_array().unwrap().iter().map(|m| m["chosen"].as_str().unwrap()).collect();
    assert_eq!(chosen, ["c4c3+", "h4h3+"]);
    // A level of the web board by name; an unknown level is bad input.
    let doc =
        json(&["solve", "errors", "--suite", s(&file), "-e", "level:strong", "--movetime", "5", "--json"]);
    assert_eq!(doc["engines"][0]["engine"], "level:Strong");
    let o = fanorona(&["solve", "errors", "--suite", s(&file), "-e", "level:Expert", "--movetime", "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let text = fanorona(&["solve", "errors", "--suite", s(&file), "-e", "greedy", "--movetime", "5"]);
    assert!(stdout(&text).contains("greedy: 2/3 66.7 % [20.8, 93.9]"), "{}", stdout(&text));
}

#[test]
fn damaged_suites_are_refused_naming_the_line() {
    let tmp = tempfile::tempdir().unwrap();
    let errors = |text: &str| {
        let file = tmp.path().join("bad.suite");
        std::fs::write(&file, text).unwrap();
        fanorona(&["solve", "errors", "--suite", s(&file), "-e", "greedy", "--movetime", "5"])
    };
    for (text, want) in [
        (HAND.replace("draw c4c3-", "draw c4c5"), "line 8: turn \"c4c5\""),
        (
            HAND.replace("win c3d3+ f2g1-", "win c3d3+ f2g1- f2f1-"),
            "line 7: every legal turn keeps the value",
        ),
        (
            HAND.replace("7B1/7W1/9/7B1/7B1 w draw h4h3-", "2B6/2W6/9/2B6/2B6 w draw c4c3-"),
            "line 9: the position of line 8 again",
        ),
        (HAND.replace("positions 3", "positions 4"), "the header says 4 positions, the file holds 3"),
        (HAND.replace("tables 4", "tables four"), "line 3"),
    ] {
        let o = errors(&text);
        assert_eq!(o.status.code(), Some(2), "{want}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains("bad.suite") && e.contains(want), "{want}: {e}");
    }
    let o =
        fanorona(&["solve", "errors", "--suite", "/nonexistent.suite", "-e", "greedy", "--movetime", "5"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let good = tmp.path().join("good.suite");
    std::fs::write(&good, HAND).unwrap();
    let o = fanorona(&["solve", "errors", "--suite", s(&good), "-e", "greedy", "--movetime", "0"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn the_shipped_suite_reads_and_spans_3_to_10_stones() {
    let suite =
        Suite::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("solve/suites/proven.suite")).unwrap();
    assert_eq!((suite.entries.len(), suite.tables), (400, 7));
    for stones in 3..=10 {
        let n = suite.entries.iter().filter(|e| e.stones() == stones).count();
        assert!(n >= 48, "{n} positions of {stones} stones");
    }
}
