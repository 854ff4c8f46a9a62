//! `fanorona train` driven as a user would: self-play data, a short run, resume, the network
//! used by an engine, clear errors.
#![cfg(feature = "train")]
#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

mod common;
use common::fanorona;

#[test]
fn train_resume_and_play_with_the_network() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.bin");
    let o = fanorona(&["selfplay", "-n", "30", "-o", games.to_str().unwrap(), "--seed", "3", "-q"]);
    assert!(o.status.success(), "{o:?}");
    let out = dir.path().join("run");
    let o = fanorona(&[
        "train",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--epochs",
        "2",
        "--hidden",
        "16,8",
        "--batch-size",
        "64",
        "--set",
        "data.val_fraction=0.2",
        "--json",
    ]);
    assert!(o.status.success(), "{o:?}");
    // The default warm-up (200 steps) is longer than this run: said, not silently kept.
    assert!(String::from_utf8_lossy(&o.stderr).contains("warning: warmup_steps 200"), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // The default encoding: stone and threat planes.
    assert_eq!(v["arch"], "threats:180-16-8-1");
    assert_eq!(v["epochs"].as_array().unwrap().len(), 2);
    assert!(v["baseline"]["val_loss"].as_f64().unwrap() > 0.0);
    let config = std::fs::read_to_string(out.join("config.toml")).unwrap();
    assert!(config.contains("batch_size = 64") && config.contains("val_fraction = 0.2"), "{config}");

    // --resume keeps the saved configuration: a flag that would change it is refused, not
    // ignored.
    let o = fanorona(&["train", "--resume", "--out", out.to_str().unwrap(), "--epochs", "6"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("--epochs"), "{o:?}");

    // Resuming a finished run reports it again.
    let o = fanorona(&["train", "--resume", "--out", out.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{o:?}");

    // The exported network plays.
    let eval = format!("net:{}", out.join("best.fnet").display());
    let o = fanorona(&["analyse", "--eval", &eval, "--depth", "2", "--json"]);
    assert!(o.status.success(), "{o:?}");
}

#[test]
fn bad_input_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = fanorona(&["train", "nowhere.bin", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("nowhere.bin"));
    let o = fanorona(&["train", "x.bin", "--out", out.to_str().unwrap(), "--set", "optim.lr=-1"]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(String::from_utf8_lossy(&o.stderr).contains("optim.lr"));
    let o = fanorona(&["train", "--resume", "--out", out.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
}
