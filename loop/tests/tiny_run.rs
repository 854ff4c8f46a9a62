//! A whole loop on a tiny configuration: every stage, every report, and a resume that finds
//! everything done.

use fanorona_loop::{Event, LoopConfig, run};

/// Small enough to run in seconds: 2 generations of 24 depth-1 games, one short epoch, 4-game
/// gates, a 4-game final match.
pub fn tiny() -> LoopConfig {
    LoopConfig::from_toml(
        r#"
        generations = 2
        seed = 7
        threads = 2
        [selfplay]
        games = 24
        first_games = 0
        search = "depth=1"
        [train]
        window = 2
        [train.trainer.model]
        hidden = [16]
        [train.trainer.optim]
        epochs = 1
        batch_size = 64
        warmup_steps = 2
        [gate]
        games = 4
        search = "depth=1"
        min_score = 0.0
        [final_match]
        games = 4
        search = "depth=1"
        "#,
    )
    .expect("tiny configuration")
}

#[test]
fn tiny_loop_writes_every_stage_and_report_and_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let mut stages = Vec::new();
    let record = run(&tiny(), &out, false, &mut |e| {
        if let Event::Stage { generation, stage, done } = e {
            stages.push((*generation, stage.name(), *done));
        }
    })
    .unwrap();
    let mut expected = vec![
        (1, "selfplay", false),
        (1, "train", false),
        (1, "gate", false),
        (2, "selfplay", false),
        (2, "train", false),
        (2, "gate", false),
    ];
    // The final match is played when some candidate was promoted (which depends on how the
    // tiny networks happen to play).
    if record.best.generation > 0 {
        expected.push((0, "final", false));
        assert!(record.final_match.is_some());
    } else {
        assert!(record.final_match.is_none());
    }
    assert_eq!(stages, expected);
    assert_eq!(record.generations.len(), 2);
    for g in 1..=2 {
        let gen_dir = out.join(format!("gen-{g:03}"));
        for f in ["games.bin", "candidate.fnet", "selfplay.done.json", "train.done.json", "gate.done.json"] {
            assert!(gen_dir.join(f).is_file(), "{} missing", gen_dir.join(f).display());
        }
        let (sp, tr, gate) = &record.generations[g as usize - 1];
        assert_eq!(sp.games, 24);
        assert_eq!(tr.epochs.len(), 1);
        assert_eq!(gate.wdl.wins + gate.wdl.draws + gate.wdl.losses, 4);
        assert!(fanorona_engine::eval::NetEvaluator::load(&gen_dir.join("candidate.fnet")).is_ok());
    }
    // Generation 2 trains on both generations' games (window 2).
    assert_eq!(record.generations[1].1.files.len(), 2);
    for f in ["loop.toml", "summary.json", "report.md", "ratings.png", "losses.png"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap()).unwrap();
    assert_eq!(summary["generations"].as_array().map(Vec::len), Some(2));
    let report = std::fs::read_to_string(out.join("report.md")).unwrap();
    assert!(report.contains("| gen |"), "{report}");

    // Running again without --resume refuses to touch the run.
    assert!(run(&tiny(), &out, false, &mut |_| {}).is_err());
    // With --resume every stage is found done and the result is the same.
    let mut redone = Vec::new();
    let again = run(&tiny(), &out, true, &mut |e| {
        if let Event::Stage { done: false, stage, .. } = e {
            redone.push(stage.name());
        }
    })
    .unwrap();
    assert!(redone.is_empty(), "stages redone on resume: {redone:?}");
    assert_eq!(again.best, record.best);
}

#[test]
fn a_stage_in_flight_is_redone_on_resume() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let mut c = tiny();
    c.generations = 1;
    c.final_match.games = 0;
    run(&c, &out, false, &mut |_| {}).unwrap();
    // Pretend the loop was killed during the gate: its marker is gone, a half-written temporary
    // file is left behind.
    let gen_dir = out.join("gen-001");
    let gate = std::fs::read_to_string(gen_dir.join("gate.done.json")).unwrap();
    std::fs::remove_file(gen_dir.join("gate.done.json")).unwrap();
    std::fs::write(gen_dir.join("gate.done.json.part"), b"{\"half").unwrap();
    let redone = stages_started_on_resume(&c, &out);
    assert_eq!(redone, ["gate"]);
    let again: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(gen_dir.join("gate.done.json")).unwrap()).unwrap();
    let before: serde_json::Value = serde_json::from_str(&gate).unwrap();
    // The match resumed from its own saved state, so its games and result are the same.
    assert_eq!(again["wdl"], before["wdl"]);
}

#[test]
fn markers_without_a_version_resume_and_another_version_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let mut c = tiny();
    c.generations = 1;
    c.final_match.games = 0;
    run(&c, &out, false, &mut |_| {}).unwrap();
    let gen_dir = out.join("gen-001");
    let marker = |stage: &str| gen_dir.join(format!("{stage}.done.json"));
    let read = |p: &std::path::Path| -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(p).unwrap()).unwrap()
    };
    // Markers as runs before versioning wrote them: no `version`.
    for stage in ["selfplay", "train", "gate"] {
        let mut v = read(&marker(stage));
        assert_eq!(v["version"], 1, "{stage}");
        v.as_object_mut().unwrap().remove("version");
        std::fs::write(marker(stage), v.to_string()).unwrap();
    }
    let redone = stages_started_on_resume(&c, &out);
    assert!(redone.is_empty(), "stages redone on resume: {redone:?}");
    // A marker of another version is bad input, named in the message.
    let mut v = read(&marker("train"));
    v["version"] = 2.into();
    std::fs::write(marker("train"), v.to_string()).unwrap();
    let e = run(&c, &out, true, &mut |_| {}).unwrap_err();
    assert!(e.is_bad_input(), "{e}");
    assert!(e.to_string().contains("train.done.json") && e.to_string().contains("version 2"), "{e}");
}

/// Resumes the run in `out` and names the stages it started (again).
fn stages_started_on_resume(c: &LoopConfig, out: &std::path::Path) -> Vec<&'static str> {
    let mut started = Vec::new();
    run(c, out, true, &mut |e| {
        if let Event::Stage { done: false, stage, .. } = e {
            started.push(stage.name());
        }
    })
    .expect("the run resumes");
    started
}

/// Removes what a loop wrote after the point it is to look killed at: every generation after
/// `keep_gen`, the final match and the top-level reports.
fn cut_after(out: &std::path::Path, keep_gen: u32) {
    for entry in std::fs::read_dir(out).expect("run directory") {
        let p = entry.expect("entry").path();
        let name = p.file_name().expect("a name").to_string_lossy().into_owned();
        let generation = name.strip_prefix("gen-").and_then(|n| n.parse::<u32>().ok());
        let keep = match generation {
            Some(g) => g <= keep_gen,
            None => name == "config.toml" || name.ends_with(".toml"),
        };
        if !keep {
            if p.is_dir() {
                std::fs::remove_dir_all(&p).expect("remove");
            } else {
                std::fs::remove_file(&p).expect("remove");
            }
        }
    }
}

#[test]
fn a_loop_killed_in_its_first_game_or_gate_pair_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full");
    run(&tiny(), &full, false, &mut |_| {}).unwrap();
    let games = std::fs::read(full.join("gen-001").join("games.bin")).unwrap();

    // Killed during the first self-play game: an empty games.bin.part and nothing else.
    let early = dir.path().join("early");
    run(&tiny(), &early, false, &mut |_| {}).unwrap();
    cut_after(&early, 0);
    std::fs::create_dir_all(early.join("gen-001")).unwrap();
    std::fs::write(early.join("gen-001").join("games.bin.part"), b"").unwrap();
    run(&tiny(), &early, true, &mut |_| {}).unwrap();
    assert_eq!(std::fs::read(early.join("gen-001").join("games.bin")).unwrap(), games);

    // Killed during the first gate pair: the match's state says no pair is done and its
    // games.bin is empty.
    let gate = dir.path().join("gate");
    run(&tiny(), &gate, false, &mut |_| {}).unwrap();
    cut_after(&gate, 1);
    let g1 = gate.join("gen-001");
    std::fs::remove_file(g1.join("gate.done.json")).unwrap();
    let state_path = g1.join("gate").join("state.json");
    let mut st: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&state_path).unwrap()).unwrap();
    st["pairs_done"] = 0.into();
    st["finished"] = false.into();
    st["faults"] = serde_json::json!([]);
    std::fs::write(&state_path, st.to_string()).unwrap();
    std::fs::write(g1.join("gate").join("games.bin"), b"").unwrap();
    run(&tiny(), &gate, true, &mut |_| {}).unwrap();
    assert!(g1.join("gate.done.json").is_file());
}

#[test]
fn older_generations_are_rescored_by_the_best_network_before_training() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let mut c = tiny();
    c.final_match.games = 0;
    c.train.rescore = "depth=1".into();
    c.seed = 5;
    c.train.score_weights = vec![0.25, 1.0];
    // Promote any candidate that scores at all, so that generation 2 re-scores generation 1
    // with generation 1's network whatever this processor's training gives.
    c.gate.min_score = 0.0;
    let record = run(&c, &out, false, &mut |_| {}).unwrap();
    let rescored = out.join("gen-002").join("rescored").join("gen-001.bin");
    // Each generation's trainer got its scheduled score weight.
    let weight = |g: u32| -> f64 {
        let text = std::fs::read_to_string(out.join(format!("gen-{g:03}")).join("train").join("config.toml"))
            .unwrap();
        let v: toml::Value = toml::from_str(&text).unwrap();
        v["data"]["score_weight"].as_float().unwrap()
    };
    assert_eq!((weight(1), weight(2)), (0.25, 1.0));
    let files = &record.generations[1].1.files;
    let own = out.join("gen-002").join("games.bin");
    // Generation 1 is promoted, and its network re-scores generation 1's games.
    assert!(record.generations[0].2.promoted, "generation 1 scored nothing in its gate");
    assert_eq!(files, &[rescored.clone(), own]);
    let read = |p: &std::path::Path| -> Vec<fanorona_data::GameRecord> {
        fanorona_data::RecordReader::open(p).unwrap().map(Result::unwrap).collect()
    };
    let (old, new) = (read(&out.join("gen-001").join("games.bin")), read(&rescored));
    assert_eq!(old.len(), new.len());
    assert!(old.iter().zip(&new).all(|(o, n)| o.turns.len() == n.turns.len() && o.outcome == n.outcome));
    assert!(
        old.iter().zip(&new).any(|(o, n)| o.turns != n.turns),
        "the network's scores differ from the baseline's"
    );
    // A resumed run finds the re-scored file and does not write it again.
    let modified = std::fs::metadata(&rescored).unwrap().modified().unwrap();
    assert!(stages_started_on_resume(&c, &out).is_empty());
    assert_eq!(std::fs::metadata(&rescored).unwrap().modified().unwrap(), modified);

    // Without a promotion the best is still the engine that played generation 1: nothing is
    // re-scored (no candidate can score above 1).
    c.gate.min_score = 1.0;
    let none = dir.path().join("none");
    let record = run(&c, &none, false, &mut |_| {}).unwrap();
    assert!(!record.generations[0].2.promoted);
    let own = none.join("gen-002").join("games.bin");
    assert_eq!(record.generations[1].1.files, &[none.join("gen-001").join("games.bin"), own]);
    assert!(!none.join("gen-002").join("rescored").exists());
}
