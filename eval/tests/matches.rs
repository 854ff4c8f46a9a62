//! Matches end to end: determinism across thread counts, engine faults as results, resume,
//! SPRT stopping and tournaments.

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

use std::path::{Path, PathBuf};

use fanorona_core::Color;
use fanorona_data::Ending;
use fanorona_data::{GameRecord, RecordReader};
use fanorona_eval::stats::SprtVerdict;
use fanorona_eval::{
    EngineSpec, MatchConfig, Mode, OpeningSource, TournamentConfig, run_match, run_tournament,
};

fn spec(text: &str) -> EngineSpec {
    text.parse().unwrap()
}

fn records(dir: &Path) -> Vec<GameRecord> {
    RecordReader::open(&dir.join("games.bin")).unwrap().collect::<Result<_, _>>().unwrap()
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let mut c = MatchConfig::new(spec("alphabeta:depth=1"), spec("random"), 12);
    c.openings = "random:plies=4".parse().unwrap();
    c.seed = 5;
    c.keep_records = true;
    let one = run_match(&c, &mut |_| {}).unwrap();
    c.concurrency = 3;
    let three = run_match(&c, &mut |_| {}).unwrap();
    assert_eq!(one.games, 12);
    assert_eq!(one.pentanomial.pairs(), 6);
    assert_eq!(one.wdl, three.wdl);
    assert_eq!(one.pentanomial, three.pentanomial);
    assert_eq!(one.records, three.records);
    // Each pair: the same opening, colours swapped.
    for pair in one.records.chunks(2) {
        assert_eq!(pair[0].start, pair[1].start);
        assert_eq!(pair[0].white, pair[1].black);
        assert_eq!(pair[0].white, "alphabeta:depth=1");
    }
    // A one-ply searcher beats a random mover.
    assert!(one.wdl.wins > one.wdl.losses, "{:?}", one.wdl);
    // Neither engine has a time limit: no turn's processor share is measured.
    assert_eq!(one.cpu, [fanorona_eval::CpuShare::default(); 2]);
    assert!(!one.summary_text().contains("CPU share"));
}

/// Writes an executable shell script engine that does the handshake and then misbehaves on
/// `go` as `on_go` says.
fn script(dir: &Path, name: &str, on_go: &str) -> PathBuf {
    let path = dir.join(name);
    let text = format!(
        "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    fep) echo 'id name {name}'; echo fepok ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    std::fs::write(&path, text).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    path
}

#[cfg(unix)]
#[test]
fn broken_engines_lose_and_the_match_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("crash", "exit 3", Ending::EngineFailure, "while waiting for bestmove"),
        ("hang", ":", Ending::TimeForfeit, "no bestmove"),
        ("garbage", "echo 'hello there'", Ending::EngineFailure, "unreadable line"),
        ("badmove", "echo 'bestmove xyz'", Ending::EngineFailure, "unreadable bestmove"),
        ("illegal", "echo 'bestmove a1a2'", Ending::IllegalMove, "a1a2"),
    ];
    for (name, on_go, termination, needle) in cases {
        let path = script(dir.path(), name, on_go);
        let broken = spec(&format!("cmd:{};timeout=300;name={name}", path.display()));
        let mut c = MatchConfig::new(broken, spec("random"), 4);
        c.openings = OpeningSource::Start;
        c.out = Some(dir.path().join(format!("out-{name}")));
        let r = run_match(&c, &mut |_| {}).unwrap();
        assert_eq!(r.games, 4, "{name}");
        assert_eq!(r.wdl.losses, 4, "{name}: {:?}", r.wdl);
        assert_eq!(r.faults.len(), 4, "{name}");
        for (_, f) in &r.faults {
            assert_eq!(f.engine, 0);
            assert!(f.reason.contains(needle), "{name}: {}", f.reason);
            assert!(f.reason.starts_with(&termination.to_string()), "{name}: {}", f.reason);
        }
        let recs = records(c.out.as_ref().unwrap());
        assert_eq!(recs.len(), 4);
        for rec in &recs {
            assert_eq!(rec.outcome.termination, termination, "{name}");
            let loser = if rec.white == name { Color::White } else { Color::Black };
            assert_eq!(rec.outcome.winner, Some(loser.other()));
        }
    }
}

#[cfg(unix)]
#[test]
fn an_engine_that_does_not_start_is_an_error() {
    let c = MatchConfig::new(spec("cmd:/nonexistent/engine"), spec("random"), 2);
    let e = run_match(&c, &mut |_| {}).unwrap_err();
    assert!(e.to_string().contains("does not start"), "{e}");
}

#[test]
fn resume_continues_without_replaying_finished_pairs() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full");
    let mut c = MatchConfig::new(spec("greedy"), spec("random"), 8);
    c.openings = "random:plies=3".parse().unwrap();
    c.out = Some(full.clone());
    let whole = run_match(&c, &mut |_| {}).unwrap();
    assert_eq!(whole.games, 8);
    let all = records(&full);
    assert_eq!(all.len(), 8);

    // Starting again in the same directory without --resume is refused.
    assert!(run_match(&c, &mut |_| {}).unwrap_err().is_bad_input());

    // An interrupted copy: state after two pairs, the record file with an extra game written
    // after the last state save.
    let cut = dir.path().join("cut");
    std::fs::create_dir(&cut).unwrap();
    std::fs::copy(full.join("games.bin"), cut.join("games.bin")).unwrap();
    let mut st: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(full.join("state.json")).unwrap()).unwrap();
    assert_eq!(st["pairs_done"], 4);
    st["pairs_done"] = 2.into();
    st["finished"] = false.into();
    std::fs::write(cut.join("state.json"), st.to_string()).unwrap();

    let mut resumed = MatchConfig::load(&cut).unwrap();
    resumed.concurrency = 2;
    let r = run_match(&resumed, &mut |_| {}).unwrap();
    assert_eq!(r.games_this_run, 4);
    assert_eq!(r.games, 8);
    assert_eq!(r.wdl, whole.wdl);
    assert_eq!(r.pentanomial, whole.pentanomial);
    assert_eq!(records(&cut), all);

    // A state file of another match is refused.
    let other = dir.path().join("other");
    std::fs::create_dir(&other).unwrap();
    std::fs::copy(full.join("games.bin"), other.join("games.bin")).unwrap();
    st["config"]["seed"] = 99.into();
    std::fs::write(other.join("state.json"), st.to_string()).unwrap();
    let err = run_match(&c_with_out(&c, &other), &mut |_| {}).unwrap_err();
    assert!(err.is_bad_input() && err.to_string().contains("different configuration"), "{err}");

    // A finished match resumes to its report without playing.
    let again = run_match(&MatchConfig::load(&cut).unwrap(), &mut |_| {}).unwrap();
    assert_eq!(again.games_this_run, 0);
    assert_eq!(again.wdl, whole.wdl);
}

fn c_with_out(c: &MatchConfig, dir: &Path) -> MatchConfig {
    MatchConfig { out: Some(dir.to_path_buf()), resume: true, ..c.clone() }
}

#[test]
fn sprt_stops_a_lopsided_match() {
    let mut c = MatchConfig::new(spec("alphabeta:depth=2"), spec("random"), 400);
    c.sprt = Some("elo0=0,elo1=20".parse().unwrap());
    c.concurrency = 2;
    let mut calls = 0;
    let r = run_match(&c, &mut |_| calls += 1).unwrap();
    let s = r.sprt.unwrap();
    assert_eq!(s.verdict, SprtVerdict::H1, "{}", r.summary_text());
    assert!(s.llr >= s.bounds.1);
    assert!(r.stopped_early && r.games < 400);
    assert_eq!(calls as u64, r.pairs);
    let text = r.summary_text();
    assert!(text.contains("Ptnml(0-2): [") && text.contains("H1 accepted"), "{text}");
}

#[test]
fn round_robin_rates_everyone() {
    let mut template = MatchConfig::new(spec("random"), spec("random"), 6);
    template.openings = "random:plies=2".parse().unwrap();
    let engines = vec![spec("random"), spec("greedy"), spec("alphabeta:depth=2")];
    let t = TournamentConfig { mode: Mode::RoundRobin, engines, template, out: None, anchor: None };
    assert_eq!(t.pairings(), vec![(0, 1), (0, 2), (1, 2)]);
    let r = run_tournament(&t, &mut |_, _, _| {}).unwrap();
    assert_eq!(r.matches.len(), 3);
    assert_eq!(r.ratings.len(), 3);
    assert!(r.ratings.iter().map(|x| x.elo).sum::<f64>().abs() < 1e-6);
    // The searcher is rated above the random mover.
    assert!(r.ratings[2].elo > r.ratings[0].elo, "{}", r.table_text());
    let table = r.table_text();
    assert!(table.contains("alphabeta:depth=2") && table.contains("maximum likelihood"), "{table}");
    let g = TournamentConfig { mode: Mode::Gauntlet, ..t };
    assert_eq!(g.pairings(), vec![(0, 1), (0, 2)]);
}

#[test]
fn resume_state_is_checked_not_trusted() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full");
    let mut c = MatchConfig::new(spec("greedy"), spec("random"), 4);
    c.openings = "random:plies=3".parse().unwrap();
    c.out = Some(full.clone());
    run_match(&c, &mut |_| {}).unwrap();
    let st: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(full.join("state.json")).unwrap()).unwrap();
    let try_state = |name: &str, edit: &dyn Fn(&mut serde_json::Value)| {
        let d = dir.path().join(name);
        std::fs::create_dir(&d).unwrap();
        std::fs::copy(full.join("games.bin"), d.join("games.bin")).unwrap();
        let mut s = st.clone();
        edit(&mut s);
        std::fs::write(d.join("state.json"), s.to_string()).unwrap();
        match MatchConfig::load(&d) {
            Err(e) => e,
            Ok(m) => run_match(&m, &mut |_| {}).unwrap_err(),
        }
    };
    let e = try_state("engine7", &|s| {
        s["finished"] = false.into();
        s["faults"] = serde_json::json!([[0, {"engine": 7, "reason": "x"}]]);
    });
    assert!(e.is_bad_input() && e.to_string().contains("engine 7"), "{e}");
    for (name, pairs) in [("p31", 1u64 << 31), ("p62", 1u64 << 62)] {
        let e = try_state(name, &|s| {
            s["finished"] = false.into();
            s["pairs_done"] = pairs.into();
        });
        assert!(e.is_bad_input() && e.to_string().contains("more than the 2"), "{e}");
    }
    let e = try_state("fault-late", &|s| {
        s["pairs_done"] = 1.into();
        s["finished"] = false.into();
        s["faults"] = serde_json::json!([[3, {"engine": 1, "reason": "x"}]]);
    });
    assert!(e.is_bad_input() && e.to_string().contains("game 3"), "{e}");

    // A games.bin of another run (self-play) is refused, not rewritten.
    let foreign = dir.path().join("foreign");
    std::fs::create_dir(&foreign).unwrap();
    let sp = fanorona_data::Header::new("selfplay", fanorona_data::Kind::SelfPlay, "{}", 1);
    fanorona_data::RecordWriter::create(&foreign.join("games.bin"), &sp).unwrap().finish().unwrap();
    let bytes = std::fs::read(foreign.join("games.bin")).unwrap();
    let mut s = st.clone();
    s["pairs_done"] = 0.into();
    s["finished"] = false.into();
    std::fs::write(foreign.join("state.json"), s.to_string()).unwrap();
    let e = run_match(&MatchConfig::load(&foreign).unwrap(), &mut |_| {}).unwrap_err();
    assert!(e.is_bad_input() && e.to_string().contains("another run"), "{e}");
    assert_eq!(std::fs::read(foreign.join("games.bin")).unwrap(), bytes);
}

#[test]
fn a_match_killed_before_its_first_pair_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full");
    let mut c = MatchConfig::new(spec("greedy"), spec("random"), 4);
    c.openings = "random:plies=3".parse().unwrap();
    c.out = Some(full.clone());
    let whole = run_match(&c, &mut |_| {}).unwrap();
    let mut st: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(full.join("state.json")).unwrap()).unwrap();
    st["pairs_done"] = 0.into();
    st["finished"] = false.into();
    // Killed before the header reached the disk (empty file), or after (header only).
    for (name, empty) in [("empty", true), ("header", false)] {
        let d = dir.path().join(name);
        std::fs::create_dir(&d).unwrap();
        std::fs::write(d.join("state.json"), st.to_string()).unwrap();
        if empty {
            std::fs::write(d.join("games.bin"), b"").unwrap();
        } else {
            let header = RecordReader::open(&full.join("games.bin")).unwrap().header().clone();
            let head = fanorona_data::RecordWriter::header_bytes(&header).unwrap();
            std::fs::write(d.join("games.bin"), &head).unwrap();
        }
        let r = run_match(&MatchConfig::load(&d).unwrap(), &mut |_| {}).unwrap();
        assert_eq!((r.games, r.wdl), (4, whole.wdl), "{name}");
        assert_eq!(records(&d), records(&full), "{name}");
    }
}

#[cfg(unix)]
#[test]
fn engines_that_flood_or_never_end_a_line_are_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        // Endless info lines: still a time forfeit.
        ("flood", "while :; do echo 'info depth 1 score 0'; done", Ending::TimeForfeit, "no bestmove"),
        // One endless line: refused once it passes the bound, memory stays small.
        ("endless", "head -c 3000000 /dev/zero | tr '\\0' x", Ending::EngineFailure, "longer than"),
    ];
    for (name, on_go, termination, needle) in cases {
        let path = script(dir.path(), name, on_go);
        let engine = spec(&format!("cmd:{};timeout=300;name={name}", path.display()));
        let mut c = MatchConfig::new(engine, spec("random"), 2);
        c.openings = OpeningSource::Start;
        let r = run_match(&c, &mut |_| {}).unwrap();
        assert_eq!(r.wdl.losses, 2, "{name}: {:?}", r.wdl);
        for (_, f) in &r.faults {
            assert!(f.reason.starts_with(&termination.to_string()), "{name}: {}", f.reason);
            assert!(f.reason.contains(needle), "{name}: {}", f.reason);
        }
    }
}

#[cfg(unix)]
#[test]
fn a_script_engines_children_do_not_outlive_the_match() {
    let dir = tempfile::tempdir().unwrap();
    let pidfile = dir.path().join("child.pid");
    // On go the script starts a long-lived child, records its pid and then hangs.
    let on_go = format!("sleep 300 & echo $! > {}; wait", pidfile.display());
    let path = script(dir.path(), "parent", &on_go);
    let engine = spec(&format!("cmd:{};timeout=300;name=parent", path.display()));
    let mut c = MatchConfig::new(engine, spec("random"), 2);
    c.openings = OpeningSource::Start;
    run_match(&c, &mut |_| {}).unwrap();
    let pid = std::fs::read_to_string(&pidfile).unwrap();
    let pid = pid.trim();
    // The group was killed: the child is gone (a zombie counts as gone).
    let mut alive = true;
    for _ in 0..100 {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        alive = !stat.is_empty() && !stat.contains(") Z ");
        if !alive {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(!alive, "the engine's child {pid} survived the match");
}

#[cfg(unix)]
#[test]
fn flooding_engines_lose_on_the_line_cap_and_the_log_stays_bounded() {
    let dir = tempfile::tempdir().unwrap();
    // Three megabytes without a newline on standard output, five on standard error.
    let out_flood = script(dir.path(), "outflood", "head -c 3000000 /dev/zero | tr '\\0' x");
    let err_flood =
        script(dir.path(), "errflood", "head -c 5000000 /dev/zero | tr '\\0' y >&2; echo 'bestmove none'");
    for (path, needle) in [(out_flood, "longer than"), (err_flood, "bestmove none")] {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let mut c =
            MatchConfig::new(spec(&format!("cmd:{};timeout=20000", path.display())), spec("random"), 2);
        c.openings = OpeningSource::Start;
        let log = dir.path().join(format!("{name}.log"));
        c.log = Some(log.clone());
        c.log_limit = 64 << 10;
        let r = run_match(&c, &mut |_| {}).unwrap();
        assert_eq!((r.games, r.wdl.losses), (2, 2), "{name}");
        assert!(r.faults.iter().all(|(_, f)| f.reason.contains(needle)), "{name}: {:?}", r.faults);
        let text = std::fs::read_to_string(&log).unwrap();
        assert!(text.len() as u64 <= (64 << 10) + 200, "{name}: {} bytes", text.len());
        assert!(text.contains(" > fep\n") && text.contains(" < fepok\n"), "{name}: {}", &text[..200]);
    }
}
