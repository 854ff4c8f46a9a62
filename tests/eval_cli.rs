//! `fanorona eval`: matches with the real engine binary as an external engine, gauntlets with
//! charts, resume, and bad input.

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

use std::process::{Command, Output};

mod common;
use common::fanorona;

const BIN: &str = env!("CARGO_BIN_EXE_fanorona");

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{o:?}");
    serde_json::from_str(String::from_utf8_lossy(&o.stdout).trim()).expect("one JSON object")
}

#[test]
fn the_engine_binary_as_an_external_engine_matches_the_in_process_player() {
    // The same search at the same depth on both sides: every game is a fair fight and no
    // engine ever faults.
    let ext = format!("cmd:{BIN} engine;depth=2;name=ext");
    let o = fanorona(&["eval", "-e", &ext, "-e", "alphabeta:depth=2", "-n", "4", "-c", "2", "--json"]);
    let v = json(&o);
    assert_eq!(v["games"], 4);
    assert_eq!(v["faults"].as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(v["engines"][0], "ext");
    let p: u64 = v["pentanomial"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum();
    assert_eq!(p, 2);
}

#[test]
fn a_clocked_external_engine_plays_without_forfeits() {
    let ext = format!("cmd:{BIN} engine;tc=5+0.1;name=clocked");
    let o = fanorona(&["eval", "-e", &ext, "-e", "greedy", "-n", "2", "--json"]);
    let v = json(&o);
    assert_eq!(v["games"], 2);
    assert_eq!(v["faults"].as_array().map(Vec::len), Some(0), "{v}");
    // A real search beats a greedy capturer.
    assert!(v["wdl"]["wins"].as_u64().unwrap() >= 1, "{v}");
}

#[test]
fn gauntlet_writes_ratings_and_a_chart_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("g");
    let out_s = out.to_str().unwrap();
    let args = [
        "eval",
        "gauntlet",
        "-e",
        "alphabeta:depth=2",
        "-e",
        "random",
        "-e",
        "greedy",
        "-n",
        "4",
        "-o",
        out_s,
        "--json",
    ];
    let v = json(&fanorona(&args));
    assert_eq!(v["engines"].as_array().map(Vec::len), Some(3));
    assert_eq!(v["matches"].as_array().map(Vec::len), Some(2));
    assert_eq!(v["ratings"][0]["elo"], 0.0);
    let png = std::fs::read(out.join("ratings.png")).unwrap();
    assert_eq!(&png[..4], b"\x89PNG");
    assert!(out.join("ratings.txt").exists() && out.join("ratings.json").exists());
    // Resuming a finished gauntlet replays nothing.
    let mut again = args.to_vec();
    again.push("--resume");
    let v2 = json(&fanorona(&again));
    for m in v2["matches"].as_array().unwrap() {
        assert_eq!(m["report"]["games_this_run"], 0);
    }
    assert_eq!(v["ratings"], v2["ratings"]);
}

#[test]
fn match_text_summary_and_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let out_s = out.to_str().unwrap();
    let o = fanorona(&[
        "eval",
        "-e",
        "greedy",
        "-e",
        "random",
        "-n",
        "6",
        "-o",
        out_s,
        "--sprt",
        "elo0=0,elo1=10",
    ]);
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout);
    for needle in ["Elo: ", "LOS: ", "DrawRatio: ", "Ptnml(0-2): [", "LLR: ", "Games: 6"] {
        assert!(text.contains(needle), "{needle} missing in {text}");
    }
    let v = json(&fanorona(&["eval", "--resume", "-o", out_s, "--json"]));
    assert_eq!(v["games"], 6);
    assert_eq!(v["games_this_run"], 0);
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["eval", "-e", "random"][..],
        &["eval", "-e", "random", "-e", "frobnicate"],
        &["eval", "-e", "random", "-e", "random", "--sprt", "elo0=5,elo1=0"],
        &["eval", "-e", "random", "-e", "random", "--openings", "random:plies=0"],
        &["eval", "-e", "random", "-e", "random", "--openings", "/nonexistent/book.txt"],
        &["eval", "--resume", "-o", "/nonexistent/dir"],
        // Absurd sizes are refused, not allocated or spawned.
        &["eval", "-e", "random", "-e", "random", "-n", "10000000000"],
        &["eval", "-e", "random", "-e", "random", "-n", "18446744073709551615"],
        &["eval", "-e", "random", "-e", "random", "-c", "100000"],
    ] {
        let o = fanorona(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        assert!(!o.stderr.is_empty());
    }
}

#[test]
fn a_damaged_record_on_resume_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let o =
        fanorona(&["eval", "-e", "greedy", "-e", "random", "-n", "4", "-o", out.to_str().unwrap(), "--json"]);
    json(&o);
    let mut st: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("state.json")).unwrap()).unwrap();
    st["finished"] = false.into();
    std::fs::write(out.join("state.json"), st.to_string()).unwrap();
    let games = out.join("games.bin");
    let mut bytes = std::fs::read(&games).unwrap();
    let n = bytes.len();
    bytes[n - 2] ^= 0xff;
    std::fs::write(&games, &bytes).unwrap();
    let o = fanorona(&["eval", "--resume", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("damaged"), "{o:?}");
}

#[cfg(unix)]
#[test]
fn a_full_disk_is_a_failure_and_leaves_no_temporary() {
    // /dev/full (every write fails with ENOSPC) is Linux's and the BSDs'; macOS has none.
    if !std::path::Path::new("/dev/full").exists() {
        // CI runs on Linux and sets this: there the test must run.
        assert!(
            std::env::var_os("FANORONA_REQUIRE_DEV_FULL").is_none(),
            "FANORONA_REQUIRE_DEV_FULL is set but there is no /dev/full"
        );
        println!("SKIPPED: no /dev/full on this system; the full-disk test did not run");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    std::fs::create_dir(&out).unwrap();
    // Every write of the state's temporary fails with ENOSPC.
    std::os::unix::fs::symlink("/dev/full", out.join("state.json.part")).unwrap();
    let o = fanorona(&["eval", "-e", "greedy", "-e", "random", "-n", "2", "-o", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{o:?}");
    assert!(std::fs::symlink_metadata(out.join("state.json.part")).is_err(), "the temporary was left behind");
}

#[test]
fn adjudication_and_pgn_round_trip_through_the_record_format() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let pgn = dir.path().join("m.pgn");
    let ext = format!("cmd:{BIN} engine;depth=2;name=ext");
    let v = json(&fanorona(&[
        "eval",
        "-e",
        &ext,
        "-e",
        "alphabeta:depth=1;name=ab1",
        "-n",
        "4",
        "--resign",
        "movecount=2",
        "score=300",
        "twosided=true",
        "--draw",
        "movenumber=200",
        "movecount=10",
        "score=5",
        "-o",
        out.to_str().unwrap(),
        "--pgnout",
        pgn.to_str().unwrap(),
        "--json",
    ]));
    // Two-sided: the external engine's info scores and the in-process player's agree on the
    // resignations (counted in the endings).
    assert!(v["terminations"]["resign adjudication"].as_u64().unwrap_or(0) >= 1, "{v}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event \"fanorona eval\"]").count(), 4, "{text}");
    for tag in
        ["[White \"ext\"]", "[Black \"ab1\"]", "[FEN \"", "[TimeControl \"depth=2 vs -\"]", "[Termination \""]
    {
        assert!(text.contains(tag), "{tag} missing in {text}");
    }
    // A comment per searched turn: score/depth and milliseconds.
    let comment = regex_free_comment(&text);
    assert!(comment, "no {{+x.xx/2 ms}} comment in {text}");
    // The PGN file reads back into the same games as the record file holds.
    let imported = dir.path().join("i.bin");
    let o = fanorona(&["data", "import", pgn.to_str().unwrap(), "-o", imported.to_str().unwrap()]);
    assert!(o.status.success(), "{o:?}");
    let export = |f: &std::path::Path, fmt: &str| {
        let o = fanorona(&["data", "export", f.to_str().unwrap(), "--format", fmt]);
        assert!(o.status.success(), "{o:?}");
        String::from_utf8(o.stdout).unwrap()
    };
    let games = out.join("games.bin");
    assert_eq!(export(&games, "jsonl"), export(&imported, "jsonl"));
    // export --format pgn then import again: the same PGN (times are not in record files).
    let a = export(&games, "pgn");
    let again = dir.path().join("a.pgn");
    std::fs::write(&again, &a).unwrap();
    let back = dir.path().join("back.bin");
    assert!(
        fanorona(&["data", "import", again.to_str().unwrap(), "-o", back.to_str().unwrap()]).status.success()
    );
    assert_eq!(export(&back, "pgn"), a);
    assert_eq!(a.matches("[Round \"").count(), 4);
}

/// Whether `text` has a turn comment like `{+1.25/2 13}` or `{-0.40/2 0}`.
fn regex_free_comment(text: &str) -> bool {
    text.split('{').skip(1).filter_map(|c| c.split_once('}')).any(|(c, _)| {
        let mut w = c.split(' ');
        let (Some(sd), Some(ms), None) = (w.next(), w.next(), w.next()) else { return false };
        let Some((s, d)) = sd.split_once('/') else { return false };
        (s.starts_with('+') || s.starts_with('-'))
            && s[1..].contains('.')
            && d == "2"
            && ms.bytes().all(|b| b.is_ascii_digit())
    })
}

#[test]
fn bad_match_settings_exit_2_and_write_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("m");
    let pgn = dir.path().join("m.pgn");
    let (o, p) = (out.to_str().unwrap(), pgn.to_str().unwrap());
    let base = ["eval", "-e", "greedy", "-e", "random", "-n", "2", "-o", o, "--pgnout", p];
    for (extra, needle) in [
        (&["--draw", "movecount=x", "score=1"][..], "movecount"),
        (&["--draw", "movecount=3"], "score= is missing"),
        (&["--resign", "movecount=3", "score=10", "depth=2"], "allowed: movecount, score, twosided"),
        (&["--resign", "movecount=3", "score=10", "twosided=perhaps"], "twosided"),
        (&["--each", "tc=40/0+1"], "base time above 0"),
        (&["--each", "tc=abc"], "tc base"),
        (&["--each", "st=-1"], "st"),
        (&["--each", "frob=1"], "allowed: name, depth, nodes, st, movetime, tc, timemargin"),
    ] {
        let mut args = base.to_vec();
        args.extend_from_slice(extra);
        let r = fanorona(&args);
        assert_eq!(r.status.code(), Some(2), "{extra:?}: {r:?}");
        let err = String::from_utf8_lossy(&r.stderr);
        assert!(err.contains(needle), "{extra:?}: {err}");
        assert!(!out.exists() && !pgn.exists(), "{extra:?} wrote something");
    }
    // A PGN file with a bad turn: its line named, no record file left behind.
    let bad = dir.path().join("bad.pgn");
    std::fs::write(
        &bad,
        "[Event \"x\"]\n[Result \"1-0\"]\n[Termination \"adjudication\"]\n\n1. d3e3+ d4d3+\n2. a1a1 1-0\n",
    )
    .unwrap();
    let rec = dir.path().join("r.bin");
    let r = fanorona(&["data", "import", bad.to_str().unwrap(), "-o", rec.to_str().unwrap()]);
    assert_eq!(r.status.code(), Some(2), "{r:?}");
    assert!(String::from_utf8_lossy(&r.stderr).contains("bad.pgn: line 6: turn 3 \"a1a1\""), "{r:?}");
    assert!(!rec.exists() && !dir.path().join("r.bin.part").exists());
}

#[cfg(unix)]
#[test]
fn an_engine_path_with_a_space_and_each_options() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("my engines");
    std::fs::create_dir(&sub).unwrap();
    let link = sub.join("fan orona");
    std::os::unix::fs::symlink(BIN, &link).unwrap();
    let ext = format!("cmd:\"{}\" engine;name=spaced", link.display());
    let v = json(&fanorona(&[
        "eval",
        "-e",
        &ext,
        "-e",
        "alphabeta:eval=material",
        "--each",
        "depth=1",
        "-n",
        "2",
        "--json",
    ]));
    assert_eq!(v["games"], 2);
    assert_eq!(v["faults"].as_array().map(Vec::len), Some(0), "{v}");
    assert_eq!(v["engines"][0], "spaced");
}

#[test]
fn shards_from_a_job_array_merge_into_the_one_big_match() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let args = |out: &str| -> Vec<String> {
        ["eval", "-e", "alphabeta:depth=2", "-e", "alphabeta:depth=1", "-n", "10", "--seed", "3"]
            .iter()
            .map(|s| s.to_string())
            .chain(["--sprt".into(), "elo0=0,elo1=10".into(), "-o".into(), out.to_string(), "--json".into()])
            .collect()
    };
    // Shards 1..3 of a Slurm array --array=1-3: the index counts from SLURM_ARRAY_TASK_MIN.
    let mut shard_games = 0;
    for task in 1..=3 {
        let o = Command::new(BIN)
            .args(args(&d("s-{shard}")))
            .env("SLURM_ARRAY_TASK_ID", task.to_string())
            .env("SLURM_ARRAY_TASK_COUNT", "3")
            .env("SLURM_ARRAY_TASK_MIN", "1")
            .output()
            .unwrap();
        shard_games += json(&o)["games"].as_u64().unwrap();
    }
    assert_eq!(shard_games, 10);
    let one = json(&fanorona(&args(&d("one")).iter().map(String::as_str).collect::<Vec<_>>()));
    let merged =
        json(&fanorona(&["eval", "merge", &d("s-0"), &d("s-2"), &d("s-1"), "-o", &d("all"), "--json"]));
    assert_eq!(merged["complete"], true);
    assert_eq!(merged["shards"], serde_json::json!([0, 1, 2]));
    for key in ["games", "wdl", "pentanomial", "elo", "terminations"] {
        assert_eq!(merged["report"][key], one[key], "{key}");
    }
    assert_eq!(merged["report"]["sprt"]["llr"], one["sprt"]["llr"]);
    // The same games, in the same order, as the one big run.
    assert_eq!(
        std::fs::read(dir.path().join("all/games.bin")).unwrap(),
        std::fs::read(dir.path().join("one/games.bin")).unwrap()
    );
    // The merged directory is a finished match.
    let again = json(&fanorona(&["eval", "--resume", "-o", &d("all"), "--json"]));
    assert_eq!((again["games"].as_u64(), again["games_this_run"].as_u64()), (Some(10), Some(0)));
    // Two shards missing: a report on the union, no state file.
    let part = json(&fanorona(&["eval", "merge", &d("s-1"), "-o", &d("part"), "--json"]));
    assert_eq!((part["complete"].as_bool(), part["report"]["games"].as_u64()), (Some(false), Some(4)));
    assert!(!dir.path().join("part/state.json").exists());

    // Shards that do not belong together: exit 2, nothing written.
    let other = d("other-{shard}");
    let mut a = args(&other);
    a.extend(["--shard".into(), "0/3".into(), "--max-plies".into(), "250".into()]);
    json(&fanorona(&a.iter().map(String::as_str).collect::<Vec<_>>()));
    for (inputs, needle) in [
        (vec![d("s-0"), d("other-0")], "another match"),
        (vec![d("s-0"), d("s-0")], "like"),
        (vec![d("s-0"), d("one")], "of 1 shards"),
        (vec![d("s-0"), d("nothing")], "nothing"),
    ] {
        let mut m = vec!["eval".to_string(), "merge".into()];
        m.extend(inputs.clone());
        m.extend(["-o".into(), d("bad")]);
        let o = fanorona(&m.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(o.status.code(), Some(2), "{inputs:?}: {o:?}");
        assert!(String::from_utf8_lossy(&o.stderr).contains(needle), "{inputs:?}: {o:?}");
        assert!(!dir.path().join("bad").exists());
    }
    for bad in ["3/3", "x/2", "1"] {
        let mut a = args(&d("z"));
        a.extend(["--shard".into(), bad.into()]);
        let o = fanorona(&a.iter().map(String::as_str).collect::<Vec<_>>());
        assert_eq!(o.status.code(), Some(2), "{bad}: {o:?}");
        assert!(!dir.path().join("z").exists());
    }
}

/// A job array task's one line (eval/eval-array.sbatch): `--resume` with engines starts the
/// shard where nothing is saved yet and continues it when run again (a requeued task);
/// `{shard}` in --out is the task's shard.
#[test]
fn a_task_line_with_resume_starts_its_shard_then_continues_it() {
    let dir = tempfile::tempdir().unwrap();
    let pattern = dir.path().join("s-{shard}");
    let task = |task: &str| {
        Command::new(BIN)
            .args(["eval", "-e", "alphabeta:depth=2", "-e", "alphabeta:depth=1", "-n", "8", "--seed", "4"])
            .args(["--resume", "--json", "-o"])
            .arg(&pattern)
            .env("SLURM_ARRAY_TASK_ID", task)
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .env("SLURM_ARRAY_TASK_MIN", "0")
            .output()
            .unwrap()
    };
    let first = task("1");
    assert!(String::from_utf8_lossy(&first.stderr).contains("nothing to resume"), "{first:?}");
    let first = json(&first);
    assert_eq!((first["games"].as_u64(), first["games_this_run"].as_u64()), (Some(4), Some(4)));
    assert!(dir.path().join("s-1/state.json").is_file() && !dir.path().join("s-0").exists());
    let again = task("1");
    assert!(!String::from_utf8_lossy(&again.stderr).contains("nothing to resume"), "{again:?}");
    let again = json(&again);
    assert_eq!((again["games"].as_u64(), again["games_this_run"].as_u64()), (Some(4), Some(0)));
    // `{shard}` with no shard to fill it in, and --resume without engines of a match never
    // started: bad input.
    let o = fanorona(&["eval", "-e", "random", "-e", "random", "--resume", "-o", pattern.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("{shard}"), "{o:?}");
    let o = fanorona(&["eval", "--resume", "-o", dir.path().join("s-0").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}

#[test]
fn timed_shards_carry_their_cpu_share_into_the_merge_and_a_resume() {
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let turns = |v: &serde_json::Value, engine: usize| v["cpu"][engine]["turns"].as_u64().unwrap();
    let mut sums = [0, 0];
    for shard in ["0/2", "1/2"] {
        let out = d(&format!("s{}", &shard[..1]));
        let v = json(&fanorona(&[
            "eval",
            "-e",
            "alphabeta:movetime=2",
            "-e",
            "alphabeta:movetime=2,eval=material",
            "-n",
            "4",
            "--max-plies",
            "30",
            "--shard",
            shard,
            "-o",
            &out,
            "--json",
        ]));
        for (engine, sum) in sums.iter_mut().enumerate() {
            *sum += turns(&v, engine);
        }
    }
    // Both engines are time-limited: every turn was measured, where Linux gives thread times.
    if fanorona_engine::thread_time::thread_cpu_time().is_some() {
        assert!(sums.iter().all(|&t| t > 0), "{sums:?}");
    }
    let merged = json(&fanorona(&["eval", "merge", &d("s0"), &d("s1"), "-o", &d("all"), "--json"]));
    assert_eq!(merged["complete"], true);
    for (engine, &sum) in sums.iter().enumerate() {
        assert_eq!(turns(&merged["report"], engine), sum, "engine {engine}: {merged}");
    }
    // The merged match resumed plays nothing and still reports the shards' turns.
    let again = json(&fanorona(&["eval", "--resume", "-o", &d("all"), "--json"]));
    assert_eq!(again["games_this_run"], 0);
    assert_eq!(again["cpu"], merged["report"]["cpu"]);
}

#[test]
fn opening_files_name_bad_lines_and_report_repeats() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.txt");
    let start = fanorona_core::Position::start().to_string();
    let out = dir.path().join("m");
    std::fs::write(&book, format!("{start} d3e3+\n{start}\n{start} moves d3e3+ # the first again\n"))
        .unwrap();
    let spec = format!("file={} order=random start=2", book.display());
    let o = fanorona(&["eval", "-e", "greedy", "-e", "random", "-n", "4", "--openings", &spec, "--json"]);
    let v = json(&o);
    assert_eq!((v["games"].as_u64(), v["opening_repeats"].as_u64()), (Some(4), Some(1)), "{v}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("line 3 repeats the opening of line 1"), "{o:?}");
    // plies=0: every line is the start position.
    let spec = format!("file={} plies=0", book.display());
    let v =
        json(&fanorona(&["eval", "-e", "greedy", "-e", "random", "-n", "2", "--openings", &spec, "--json"]));
    assert_eq!(v["opening_repeats"], 2);
    std::fs::write(&book, format!("{start}\n\n{start} d3e3+ zz\n")).unwrap();
    for spec in [book.display().to_string(), format!("file={} plies=1", book.display())] {
        let o = fanorona(&[
            "eval",
            "-e",
            "greedy",
            "-e",
            "random",
            "--openings",
            &spec,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        // Every turn of a line is checked, also beyond plies=P.
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains("book.txt: line 3: turn 2 \"zz\""), "{err}");
        assert!(!out.exists());
    }
}

#[cfg(unix)]
#[test]
fn an_endless_openings_file_is_refused_by_its_bounds() {
    // /dev/zero is on every Unix (POSIX): no skip.
    let mut child = Command::new(BIN)
        .args(["eval", "-e", "random", "-e", "random", "-n", "2", "--openings", "/dev/zero"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("eval --openings /dev/zero did not end within a minute");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("openings /dev/zero: line 1: longer than the 65536 bytes"), "{err}");
}

/// Writes an executable shell-script engine into `dir`: `prelude` runs first, then it answers
/// the handshake and runs `on_go` on `go`.
#[cfg(unix)]
fn script_engine(dir: &std::path::Path, name: &str, prelude: &str, on_go: &str) -> std::path::PathBuf {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join(name);
    let text = format!(
        "#!/bin/sh\n{prelude}\nwhile read -r line; do\n  case \"$line\" in\n    fep) echo 'id name {name}'; echo fepok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

/// Runs `fanorona ARGS`, killed (and the test failed) past `secs` seconds.
#[cfg(unix)]
fn fanorona_within(args: &[&str], secs: u64) -> Output {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let mut child =
        Command::new(BIN).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fanorona {} ran over {secs} s", args.first().unwrap_or(&""));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().unwrap()
}

/// Whether process `pid` is alive (a zombie counts as gone).
#[cfg(target_os = "linux")]
fn alive(pid: &str) -> bool {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    !stat.is_empty() && !stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'))
}

/// An engine's children that leave its process group (`setsid`, and a double fork into a new
/// session) do not outlive the match.
#[cfg(target_os = "linux")]
#[test]
fn an_engines_setsid_and_double_forked_children_do_not_outlive_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let pids = dir.path().join("pids");
    let on_go = format!(
        "setsid sleep 300 & echo $! >> {p}; (setsid sh -c 'echo $$ >> {p}; exec sleep 300' &); wait",
        p = pids.display()
    );
    let path = script_engine(dir.path(), "escaper", "", &on_go);
    let ext = format!("cmd:{};timeout=300;name=escaper", path.display());
    let o = fanorona_within(&["eval", "-e", &ext, "-e", "random", "-n", "2", "--json"], 120);
    let v = json(&o);
    assert_eq!(v["games"], 2, "{v}");
    let pids = std::fs::read_to_string(&pids).unwrap();
    let pids: Vec<&str> = pids.split_whitespace().collect();
    assert!(pids.len() >= 2, "{pids:?}");
    let mut left: Vec<&str> = pids.clone();
    for _ in 0..100 {
        left.retain(|p| alive(p));
        if left.is_empty() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    for p in &left {
        let _ = Command::new("kill").args(["-KILL", p]).status();
    }
    assert!(left.is_empty(), "the engine's children {left:?} survived the match");
}

/// An engine that stops reading its input while the tool still has lines for it (here a
/// 70 KB option, more than a pipe holds) is an engine failure after the write timeout, not a
/// match blocked forever in write(2).
#[cfg(unix)]
#[test]
fn an_engine_that_stops_reading_its_input_fails_instead_of_blocking() {
    let dir = tempfile::tempdir().unwrap();
    // Its first start (the check before the match) reads everything; later ones answer the
    // handshake without reading and then sleep, their input pipe filling up.
    let marker = dir.path().join("started");
    let prelude = format!(
        "if [ -e {m} ]; then echo 'id name deaf'; echo fepok; echo readyok; exec sleep 300; fi; touch {m}",
        m = marker.display()
    );
    let path = script_engine(dir.path(), "deaf", &prelude, "echo 'bestmove none'");
    let big = "x".repeat(70_000);
    let ext = format!("cmd:{};timeout=300;name=deaf;option.Big={big}", path.display());
    let o = fanorona_within(&["eval", "-e", &ext, "-e", "random", "-n", "2", "--json"], 120);
    let v = json(&o);
    assert_eq!(v["games"], 2, "{v}");
    assert_eq!(v["wdl"]["losses"], 2, "{v}");
    let text = v["faults"].to_string();
    assert!(text.contains("stopped reading its input"), "{text}");
    assert!(text.contains("engine failure") || text.contains("EngineFailure"), "{text}");
}
