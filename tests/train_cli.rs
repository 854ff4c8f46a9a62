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
    // Endgame tables that are not there: refused before the run directory is made.
    let games = dir.path().join("games.bin");
    let o = fanorona(&["selfplay", "-n", "2", "-o", games.to_str().unwrap(), "-q"]);
    assert!(o.status.success(), "{o:?}");
    let o = fanorona(&[
        "train",
        games.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--set",
        "data.tablebase=\"no-tables-here\"",
    ]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let e = String::from_utf8_lossy(&o.stderr);
    assert!(e.contains("data.tablebase") && e.contains("no-tables-here"), "{e}");
    assert!(!out.exists());
}

/// A run killed after `state.json` recorded its last epoch but before that epoch's metrics
/// row and chart were written (and with the temporaries of killed writes left behind):
/// `--resume` completes the outputs and removes the temporaries, and nothing else.
#[test]
fn resume_completes_the_outputs_of_a_run_killed_after_its_last_epoch() {
    let dir = tempfile::tempdir().unwrap();
    let games = dir.path().join("games.bin");
    let o = fanorona(&["selfplay", "-n", "20", "-o", games.to_str().unwrap(), "--seed", "5", "-q"]);
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
        "8",
        "--batch-size",
        "64",
        "--set",
        "optim.warmup_steps=1",
    ]);
    assert!(o.status.success(), "{o:?}");
    let csv = std::fs::read_to_string(out.join("metrics.csv")).unwrap();
    assert_eq!(csv.lines().count(), 3, "{csv}");
    // The state of the kill: the last row and the chart missing, temporaries left.
    let cut: Vec<&str> = csv.lines().take(2).collect();
    std::fs::write(out.join("metrics.csv"), cut.join("\n") + "\n").unwrap();
    std::fs::remove_file(out.join("loss.png")).unwrap();
    for stale in ["metrics.csv.part", "last.fnet.tmp4242", "checkpoints/epoch-0002.fnet.tmp4242"] {
        std::fs::write(out.join(stale), b"half").unwrap();
    }
    std::fs::write(out.join("notes.tmp"), b"mine").unwrap();
    let o = fanorona(&["train", "--resume", "--out", out.to_str().unwrap()]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(std::fs::read_to_string(out.join("metrics.csv")).unwrap().lines().count(), 3);
    assert!(out.join("loss.png").is_file());
    for stale in ["metrics.csv.part", "last.fnet.tmp4242", "checkpoints/epoch-0002.fnet.tmp4242"] {
        assert!(!out.join(stale).exists(), "{stale} left");
    }
    assert!(out.join("notes.tmp").is_file(), "a file that is not the tool's was removed");
}

/// `fanorona train DIR` walks the directory: a FIFO in it is skipped unopened and links back
/// up the tree do not multiply the walk. Bounded by a timeout, so a regression fails.
#[cfg(unix)]
#[test]
fn a_directory_with_a_fifo_and_link_loops_trains() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir(&data).unwrap();
    let games = data.join("games.bin");
    let o = fanorona(&["selfplay", "-n", "20", "-o", games.to_str().unwrap(), "--seed", "5", "-q"]);
    assert!(o.status.success(), "{o:?}");
    assert!(std::process::Command::new("mkfifo").arg(data.join("pipe")).status().unwrap().success());
    std::os::unix::fs::symlink(".", data.join("loop1")).unwrap();
    std::os::unix::fs::symlink(".", data.join("loop2")).unwrap();
    let out = dir.path().join("run");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(["train", data.to_str().unwrap(), "--out", out.to_str().unwrap(), "--epochs", "1"])
        .args(["--hidden", "8", "--batch-size", "64", "--set", "optim.warmup_steps=1", "--json"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let t0 = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > std::time::Duration::from_secs(120) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("train blocked on the FIFO or looped in the links");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{o:?}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    // The one record file, read once (not once per path through the links).
    assert_eq!(v["data"]["files"], 1, "{v}");
}
