//! `fanorona tune` as a user drives it: a short run with its history and chart, a run killed
//! and resumed that ends where the uninterrupted one does, the same run with its pairs played
//! by a (stand-in) cluster command in shards, and bad tuning files refused before any game,
//! naming the line (exit 2).

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

mod common;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{fanorona, stderr, stdout};

const FILE: &str = r#"engine = "alphabeta:eval=handcrafted"
options = "depth=2"
iterations = 6
pairs = 3
openings = "random:plies=4"
seed = 5

[params.threatened]
start = 30
min = 0
max = 80
c = 6
a = 40

[params.lmr_base]
start = 100
min = 50
max = 200
c = 20
"#;

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p.to_str().unwrap().to_string()
}

/// The history's iterations without their timings (which differ between runs).
fn iterations(dir: &Path) -> Vec<serde_json::Value> {
    let text = std::fs::read_to_string(dir.join("history.json")).unwrap();
    let h: serde_json::Value = serde_json::from_str(&text).unwrap();
    let mut its = h["iterations"].as_array().unwrap().clone();
    for it in &mut its {
        let o = it.as_object_mut().unwrap();
        o.remove("seconds");
        o.remove("cpu_seconds");
    }
    its
}

#[test]
fn a_run_writes_its_history_and_chart_and_a_killed_run_resumes_to_the_same_end() {
    let tmp = tempfile::tempdir().unwrap();
    let file = write(tmp.path(), "t.toml", FILE);
    let whole = tmp.path().join("whole");
    let o = fanorona(&["tune", &file, "-o", whole.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let doc: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(doc["iterations"], 6);
    assert_eq!(doc["games"], 36);
    assert!(doc["tuned"].as_str().unwrap().contains("threatened="), "{doc}");
    let its = iterations(&whole);
    assert_eq!(its.len(), 6);
    assert!(std::fs::metadata(whole.join("params.png")).unwrap().len() > 1000);
    // The iteration directories are gone once their iterations are counted.
    assert!(!whole.join("iter-000005").exists());
    // Each update is the SPSA step of its result.
    for it in &its {
        let wdl = it["wdl"].as_array().unwrap();
        assert_eq!(wdl.iter().map(|x| x.as_u64().unwrap()).sum::<u64>(), 6);
    }
    // A second start in the same directory is refused; a resume of a finished run plays
    // nothing.
    let again = fanorona(&["tune", &file, "-o", whole.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    assert!(stderr(&again).contains("--resume"), "{}", stderr(&again));
    let o = fanorona(&["tune", "--resume", "-o", whole.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(iterations(&whole), its);

    // Killed once the first iteration is saved (wherever the second then is), resumed.
    let killed = tmp.path().join("killed");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(["tune", &file, "-o", killed.to_str().unwrap(), "--quiet"])
        .spawn()
        .unwrap();
    let t0 = Instant::now();
    while t0.elapsed() < Duration::from_secs(60) {
        let saved = std::fs::read_to_string(killed.join("history.json")).unwrap_or_default();
        if saved.contains("\"theta\"") {
            break;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let o = fanorona(&["tune", &file, "-o", killed.to_str().unwrap(), "--resume", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(iterations(&killed), its);
}

#[test]
fn a_cluster_command_plays_the_pairs_in_shards_with_the_same_result() {
    let tmp = tempfile::tempdir().unwrap();
    let bin = env!("CARGO_BIN_EXE_fanorona");
    let here = tmp.path().join("here");
    let file = write(tmp.path(), "t.toml", FILE);
    let o = fanorona(&["tune", &file, "-o", here.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // A stand-in for `sbatch --wait --array=0-1 tune/tune-array.sbatch`: the tasks one after
    // the other, each with its array variables.
    let command = format!(
        "for i in 0 1; do SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=2 {bin} tune --shard-task \"$FANORONA_TUNE_ITERATION\" || exit 1; done"
    );
    let cluster = FILE.replace("seed = 5", &format!("seed = 5\nshards = 2\ncluster_command = '{command}'"));
    let file = write(tmp.path(), "c.toml", &cluster);
    let there = tmp.path().join("there");
    let o = fanorona(&["tune", &file, "-o", there.to_str().unwrap(), "--quiet"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(iterations(&there), iterations(&here));
    // A command that leaves a shard unplayed stops the run, naming the shard and its log.
    let failing = FILE.replace("seed = 5", "seed = 5\nshards = 2\ncluster_command = 'true'");
    let file = write(tmp.path(), "f.toml", &failing);
    let o = fanorona(&["tune", &file, "-o", tmp.path().join("failed").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains("iteration 0: the cluster command `true` left shards unfinished: shard 0"), "{e}");
    assert!(e.contains("slurm-0.out"), "{e}");
}

#[test]
fn bad_tuning_files_are_refused_before_any_game_naming_the_line() {
    let tmp = tempfile::tempdir().unwrap();
    for (from, to, needle) in [
        ("[params.lmr_base]", "[params.lmr_bse]", "line 15: parameter lmr_bse: the engine does not take it"),
        (
            "start = 100",
            "start = 250",
            "line 16: parameter lmr_base: start = 250 is outside its bounds 50..=200",
        ),
        ("c = 20", "c = 0", "line 19: parameter lmr_base: the step c = 0 must be above 0"),
        ("c = 6", "c = -1", "line 12: parameter threatened: the step c = -1 must be above 0"),
        ("a = 40", "a = -3", "line 13: parameter threatened: the rate a = -3 must be above 0"),
        ("eval=handcrafted", "eval=embedded", "line 8: parameter threatened: the engine does not take it"),
        ("seed = 5", "seed = 5\nspeed = 3", "line 7: unknown field `speed`"),
    ] {
        let file = write(tmp.path(), "bad.toml", &FILE.replace(from, to));
        let dir = tmp.path().join("run");
        let o = fanorona(&["tune", &file, "-o", dir.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{to}: {}", stderr(&o));
        let e = stderr(&o);
        assert!(e.contains(&format!("bad.toml: {needle}")), "{to}: {e}");
        assert!(!dir.join("history.json").exists(), "{to}: a game was set up");
    }
    let o = fanorona(&["tune", "--resume", "-o", tmp.path().join("none").to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}
