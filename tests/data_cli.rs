//! `fanorona selfplay` and `fanorona data ...` from the outside: a real kill and resume,
//! thread-count independence, JSON summaries, the data commands and their exit codes.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{fanorona, stderr, stdout};

const BIN: &str = env!("CARGO_BIN_EXE_fanorona");

fn selfplay_args<'a>(games: &'a str, out: &'a str, threads: &'a str) -> Vec<&'a str> {
    vec![
        "selfplay",
        "--games",
        games,
        "--out",
        out,
        "--white",
        "alphabeta:depth=1,hash=1,eval=material",
        "--black",
        "greedy",
        "--threads",
        threads,
        "--seed",
        "5",
        "--random-plies",
        "2",
        "--explore-plies",
        "8",
        "--epsilon",
        "0.1",
    ]
}

fn small_file(dir: &Path) -> String {
    let out = dir.join("small.bin").display().to_string();
    let o = fanorona(&selfplay_args("6", &out, "2"));
    assert!(o.status.success(), "{}", stderr(&o));
    out
}

#[test]
fn killed_run_resumes_to_the_same_bytes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let games = "800";
    let full = dir.path().join("full.bin").display().to_string();
    let o = fanorona(&selfplay_args(games, &full, "2"));
    assert!(o.status.success(), "{}", stderr(&o));

    let out = dir.path().join("killed.bin");
    let out_s = out.display().to_string();
    let part = dir.path().join("killed.bin.part");
    let mut child = Command::new(BIN)
        .args(selfplay_args(games, &out_s, "2"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn fanorona");
    let t0 = Instant::now();
    // Wait until some games are on disk, then kill it mid-run.
    loop {
        let size = std::fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
        if size > 20_000 {
            break;
        }
        assert!(child.try_wait().expect("try_wait").is_none(), "the run ended before it could be killed");
        assert!(t0.elapsed() < Duration::from_secs(120), "no progress");
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().expect("kill");
    let status = child.wait().expect("wait");
    assert!(!status.success(), "the run completed before the kill");
    assert!(part.exists() && !out.exists());
    let cut = std::fs::metadata(&part).expect("part").len();

    let o = fanorona(&[&selfplay_args(games, &out_s, "1")[..], &["--resume", "--json"]].concat());
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("one JSON object");
    let resumed = v["resumed_games"].as_u64().expect("resumed_games");
    assert!(resumed > 0 && resumed < 800, "{v}");
    assert_eq!(resumed + v["played"].as_u64().expect("played"), 800);
    assert_eq!(v["stats"]["games"], 800);
    assert!(std::fs::metadata(&out).expect("out").len() > cut);
    assert_eq!(
        std::fs::read(&out).expect("read"),
        std::fs::read(&full).expect("read"),
        "resumed file differs"
    );
    assert!(!part.exists());
}

#[test]
fn thread_count_does_not_change_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let a = dir.path().join("a.bin").display().to_string();
    let b = dir.path().join("b.bin").display().to_string();
    for (out, t) in [(&a, "1"), (&b, "2")] {
        let o = fanorona(&selfplay_args("20", out, t));
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).contains("20 games"), "{}", stdout(&o));
    }
    assert_eq!(std::fs::read(&a).expect("a"), std::fs::read(&b).expect("b"));
}

#[test]
fn selfplay_bad_input_exits_2() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("x.bin").display().to_string();
    for bad in [
        vec!["selfplay", "--games", "2", "--out", &out, "--white", "alphabeta:depth=x"],
        vec!["selfplay", "--games", "2", "--out", &out, "--shard", "3/2"],
        vec!["selfplay", "--games", "2", "--out", &out, "--epsilon", "2"],
    ] {
        let o = fanorona(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert!(!stderr(&o).is_empty());
    }
    assert!(!Path::new(&out).exists());
}

#[test]
fn shards_from_slurm_environment_merge() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pattern = dir.path().join("sp-{shard}.bin").display().to_string();
    for id in ["1", "2"] {
        let o = Command::new(BIN)
            .args(selfplay_args("3", &pattern, "1"))
            .env("SLURM_ARRAY_TASK_ID", id)
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .output()
            .expect("run");
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let s0 = dir.path().join("sp-0.bin").display().to_string();
    let s1 = dir.path().join("sp-1.bin").display().to_string();
    let merged = dir.path().join("all.bin").display().to_string();
    let o = fanorona(&["data", "merge", &merged, &s1, &s0, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["games"], 6);
    assert_eq!(v["shards"], serde_json::json!([0, 1]));
    let o = fanorona(&["data", "merge", &dir.path().join("bad.bin").display().to_string(), &s0, &s0]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = fanorona(&["data", "stats", &merged, "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["stats"]["games"], 6);
    assert_eq!(v["files"][0]["shards"], serde_json::json!([0, 1]));
}

#[test]
fn data_stats_show_export_validate() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = small_file(dir.path());

    let o = fanorona(&["data", "stats", &file]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("games: 6"), "{}", stdout(&o));
    let o = fanorona(&["data", "stats", &file, "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    let s = &v["stats"];
    let (w, d, b) = (s["white_wins"].as_u64(), s["draws"].as_u64(), s["black_wins"].as_u64());
    assert_eq!(w.zip(d).zip(b).map(|((w, d), b)| w + d + b), Some(6));
    let positions = s["positions"].as_u64().expect("positions");
    assert!(s["distinct_positions"].as_u64().expect("distinct") > positions / 2);

    let o = fanorona(&["data", "export", &file, "--format", "text"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(String::from).collect();
    assert_eq!(lines.len(), 6);
    let turns: usize = lines.iter().map(|l| l.split(" | ").nth(1).expect("turns").split(' ').count()).sum();
    assert_eq!(turns as u64, positions);
    assert!(lines[0].starts_with("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w | "), "{}", lines[0]);

    let o = fanorona(&["data", "show", &file, "--game", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    assert!(text.contains("result:") && text.contains("5  "), "{text}");
    let first_turn =
        lines[2].split(" | ").nth(1).expect("turns").split(' ').next().expect("turn").to_string();
    assert!(text.contains(&format!("1. w {first_turn}")), "{text}");
    let o = fanorona(&["data", "show", &file, "--game", "6"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("6 games"), "{}", stderr(&o));

    let o = fanorona(&["data", "validate", &file]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("6 games, 0 problems"), "{}", stdout(&o));
}

#[test]
fn validate_reports_damage_and_illegal_turns() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = small_file(dir.path());
    let mut bytes = std::fs::read(&file).expect("read");
    // Truncate the last record: validate fails (exit 1) naming the file and record 5.
    bytes.truncate(bytes.len() - 3);
    let cut = dir.path().join("cut.bin");
    std::fs::write(&cut, &bytes).expect("write");
    let o = fanorona(&["data", "validate", &cut.display().to_string()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("cut.bin") && out.contains("record 5") && out.contains("truncated"), "{out}");
    // A game whose second turn repeats the first (its origin is empty by then).
    let pos = fanorona_core::Position::start();
    let m = pos.parse_move("d3e3+").expect("turn");
    let turn = fanorona_data::Turn { mv: fanorona_data::MoveCode::from_move(&m), info: Default::default() };
    let record = fanorona_data::GameRecord {
        index: 0,
        white: String::new(),
        black: String::new(),
        start: pos,
        turns: vec![turn, turn],
        outcome: fanorona_core::Outcome { winner: None, termination: fanorona_data::Ending::Adjudication },
    };
    let illegal = dir.path().join("illegal.bin");
    let header = fanorona_data::Header::new("test", fanorona_data::Kind::Match, "{}", 0);
    let mut w = fanorona_data::RecordWriter::create(&illegal, &header).expect("create");
    w.write(&record).expect("write");
    w.finish().expect("finish");
    let o = fanorona(&["data", "validate", &illegal.display().to_string(), "--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["ok"], false);
    let problem = v["problems"][0].as_str().expect("problem");
    assert!(problem.contains("game 0: turn 1 (d3e3+) is illegal"), "{problem}");
    // Not a record file: stats exits 2.
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, b"not a record file").expect("write");
    let o = fanorona(&["data", "stats", &junk.display().to_string()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("junk.bin"), "{}", stderr(&o));
}

/// One game as PGN, exported from a small record file.
fn pgn_game(dir: &Path) -> String {
    let file = small_file(dir);
    let o = fanorona(&["data", "export", &file, "--format", "pgn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = stdout(&o);
    // The first game: up to the blank line after its turns.
    let end = text.find("\n\n[").map_or(text.len(), |i| i + 2);
    text[..end].to_string()
}

#[test]
fn import_bounds_headers_and_leaves_no_part_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let game = pgn_game(dir.path());
    // A header of endless tags (here many more than allowed) is cut at a line, not held.
    let pgn = dir.path().join("tags.pgn");
    let mut text = String::new();
    for i in 0..100_000 {
        text.push_str(&format!("[Tag{i} \"value\"]\n"));
    }
    std::fs::write(&pgn, text + &game).expect("write");
    let out = dir.path().join("out.bin");
    let o = fanorona(&["data", "import", &pgn.display().to_string(), "-o", &out.display().to_string()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("tags.pgn: line 257: more than 256 tags"), "{}", stderr(&o));
    assert!(!out.exists());
    assert!(!dir.path().join("out.bin.part").exists());
    // A failure after good games removes the part file too.
    let pgn = dir.path().join("bad.pgn");
    std::fs::write(&pgn, format!("{game}\n{}", game.replace("[Result", "[Result \"x\"]\n[Bad ?]\n[Result")))
        .expect("write");
    let o = fanorona(&["data", "import", &pgn.display().to_string(), "-o", &out.display().to_string()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(!out.exists() && !dir.path().join("out.bin.part").exists());
}

#[test]
fn import_accepts_semicolon_comments_anywhere() {
    let dir = tempfile::tempdir().expect("tempdir");
    let game = pgn_game(dir.path());
    let pgn = dir.path().join("commented.pgn");
    let commented = format!("; exported games\n{}", game.replacen("\n\n", "\n; the turns\n\n", 1));
    std::fs::write(&pgn, format!("{commented}; between games\n{commented}")).expect("write");
    let out = dir.path().join("out.bin");
    let o = fanorona(&["data", "import", &pgn.display().to_string(), "-o", &out.display().to_string()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("wrote 2 games"), "{}", stdout(&o));
}

#[test]
fn a_directory_as_a_data_file_is_bad_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = small_file(dir.path());
    let d = dir.path().display().to_string();
    let out = dir.path().join("merged.bin").display().to_string();
    for args in [
        vec!["data", "stats", d.as_str()],
        vec!["data", "export", d.as_str()],
        vec!["data", "export", file.as_str(), "-o", d.as_str()],
        vec!["data", "merge", out.as_str(), d.as_str()],
        vec!["data", "merge", d.as_str(), file.as_str()],
        vec!["data", "import", d.as_str(), "-o", out.as_str()],
        vec!["data", "show", d.as_str()],
    ] {
        let o = fanorona(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("is a directory"), "{args:?}: {}", stderr(&o));
    }
    assert!(!Path::new(&out).exists());
}

#[test]
fn rescore_relabels_and_refuses_bad_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = small_file(dir.path());
    let out = dir.path().join("r.bin").display().to_string();
    let o = fanorona(&[
        "data",
        "rescore",
        &input,
        "-o",
        &out,
        "-e",
        "alphabeta:depth=2,eval=handcrafted",
        "--json",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(v["games"], 6);
    assert!(
        v["rescored"].as_u64().is_some_and(|n| n > 0) && v["unscored"].as_u64().is_some_and(|n| n > 0),
        "{v}"
    );
    // Bad input, exit 2, nothing written: no search in the spec, a bad spec, a missing input,
    // an existing output without --force.
    let missing = dir.path().join("missing.bin").display().to_string();
    let fresh = dir.path().join("fresh.bin").display().to_string();
    for bad in [
        vec!["data", "rescore", &input, "-o", &fresh, "-e", "greedy"],
        vec!["data", "rescore", &input, "-o", &fresh, "-e", "alphabeta:depth=x"],
        vec!["data", "rescore", &missing, "-o", &fresh, "-e", "alphabeta:depth=1"],
        vec!["data", "rescore", &input, "-o", &out, "-e", "alphabeta:depth=1"],
    ] {
        let o = fanorona(&bad);
        assert_eq!(o.status.code(), Some(2), "{bad:?}: {}", stderr(&o));
        assert!(!stderr(&o).is_empty());
    }
    assert!(!Path::new(&fresh).exists());
}

/// A record whose result the rules contradict (the winner swapped) is refused by `data
/// rescore` (exit 2, naming the game) and `data validate`, as the same claim in PGN is by
/// `pgn import`: one check for every way a game enters.
#[test]
fn a_result_the_rules_contradict_is_refused_by_every_entry() {
    let dir = tempfile::tempdir().expect("tempdir");
    let good = small_file(dir.path());
    let mut reader = fanorona_data::RecordReader::open(Path::new(&good)).expect("open");
    let header = reader.header().clone();
    let mut recs: Vec<_> = reader.by_ref().map(|r| r.expect("record")).collect();
    let Some(i) = recs.iter().position(|r| r.outcome.winner.is_some()) else { panic!("no decisive game") };
    recs[i].outcome.winner = recs[i].outcome.winner.map(|c| !c);
    let wrong = dir.path().join("wrong.bin");
    let mut w = fanorona_data::RecordWriter::create(&wrong, &header).expect("create");
    for r in &recs {
        w.write(r).expect("write");
    }
    w.finish().expect("finish");
    let wrong = wrong.display().to_string();
    let out = dir.path().join("r.bin").display().to_string();
    let o = fanorona(&["data", "rescore", &wrong, "-o", &out, "-e", "alphabeta:depth=1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("record {i}")) && stderr(&o).contains("recorded outcome"),
        "{}",
        stderr(&o)
    );
    assert!(!Path::new(&out).exists());
    let o = fanorona(&["data", "validate", &wrong]);
    assert!(!o.status.success() && stdout(&o).contains("recorded outcome"), "{}{}", stdout(&o), stderr(&o));
}
