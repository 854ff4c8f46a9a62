//! `fanorona loop` from the outside: a real kill in the middle of a run and `--resume`, and
//! self-play through a cluster command (a stand-in for a Slurm job array).
#![cfg(feature = "train")]

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_fanorona");

const TINY: &str = r#"
generations = 2
seed = 3
threads = 2
[selfplay]
games = 40
first_games = 0
search = "depth=1"
[train.trainer.model]
hidden = [16]
[train.trainer.optim]
epochs = 2
batch_size = 64
warmup_steps = 2
[gate]
games = 4
search = "depth=1"
[final_match]
games = 4
search = "depth=1"
"#;

fn write_config(dir: &Path) -> std::path::PathBuf {
    let p = dir.join("loop.toml");
    std::fs::write(&p, TINY).expect("write the loop configuration");
    p
}

#[test]
fn killed_loop_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let config = write_config(dir.path());
    let out = dir.path().join("run");
    let mut child = Command::new(BIN)
        .args(["loop", "--config"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Kill it once the first generation's self-play is finished, during training or later.
    let marker = out.join("gen-001/selfplay.done.json");
    let t0 = Instant::now();
    while !marker.exists() && t0.elapsed() < Duration::from_secs(120) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(marker.exists(), "self-play of generation 1 never finished");
    child.kill().unwrap();
    child.wait().unwrap();
    let selfplay_before = std::fs::read_to_string(&marker).unwrap();
    let games_before = std::fs::read(out.join("gen-001/games.bin")).unwrap();

    // Without --resume the run directory is refused (bad usage: exit 2).
    let o =
        Command::new(BIN).args(["loop", "--config"]).arg(&config).arg("--out").arg(&out).output().unwrap();
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));

    // Resumed without --config or --generations: the run's own 2 generations, not the
    // default 3.
    let saved_config = std::fs::read(out.join("loop.toml")).unwrap();
    let o = Command::new(BIN).args(["loop", "--resume", "--json", "--out"]).arg(&out).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).expect("summary JSON");
    assert_eq!(summary["generations"].as_array().map(Vec::len), Some(2));
    assert!(!out.join("gen-003").exists(), "the run was extended to the default count");
    assert_eq!(std::fs::read(out.join("loop.toml")).unwrap(), saved_config);
    // Finished stages were not redone.
    assert_eq!(std::fs::read_to_string(&marker).unwrap(), selfplay_before);
    assert_eq!(std::fs::read(out.join("gen-001/games.bin")).unwrap(), games_before);
    for f in ["summary.json", "report.md", "ratings.png", "losses.png", "gen-002/gate.done.json"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    // No temporary file is left where a finished one should be.
    for entry in std::fs::read_dir(&out).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(!name.ends_with(".tmp") && !name.ends_with(".part"), "{name}");
    }
}

/// A loop configuration of one generation whose self-play of `games` games runs through a
/// stand-in for `sbatch --wait --array=...`: one `fanorona selfplay` per shard, the shard
/// index given the Kubernetes way.
fn cluster_config(games: u32, shards: u32) -> String {
    let command = format!(
        "i=0; while [ $i -lt $FANORONA_SHARD_COUNT ]; do JOB_COMPLETION_INDEX=$i {BIN} selfplay $FANORONA_SELFPLAY_ARGS || exit 1; i=$((i+1)); done"
    );
    let text = TINY.replace(
        "[selfplay]\ngames = 40\nfirst_games = 0\n",
        &format!(
            "[selfplay]\ngames = {games}\nfirst_games = 0\nshards = {shards}\ncluster_command = '''{command}'''\n"
        ),
    );
    text.replace("generations = 2", "generations = 1")
}

/// With more than 10 shards the file names are zero-padded (`shard-03.bin`), and a game count
/// that the shard count does not divide is dealt out: 100 games in 12 shards all arrive.
#[test]
fn twelve_shards_deliver_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("loop.toml");
    std::fs::write(&config, cluster_config(100, 12)).unwrap();
    let out = dir.path().join("run");
    let o = Command::new(BIN)
        .args(["loop", "--json", "--config"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let mut per_shard = Vec::new();
    for i in 0..12 {
        let shard = out.join(format!("gen-001/shards/shard-{i:02}.bin"));
        let o = Command::new(BIN).args(["data", "stats", "--json"]).arg(&shard).output().unwrap();
        assert!(o.status.success(), "{}: {}", shard.display(), String::from_utf8_lossy(&o.stderr));
        let stats: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        per_shard.push(stats["files"][0]["games"].as_u64().unwrap());
    }
    assert_eq!(per_shard, [9, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 8]);
    let sp: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("gen-001/selfplay.done.json")).unwrap())
            .unwrap();
    assert_eq!(sp["games"], 100);
    let o = Command::new(BIN).args(["data", "validate"]).arg(out.join("gen-001/games.bin")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

#[test]
fn selfplay_through_a_cluster_command() {
    let dir = tempfile::tempdir().unwrap();
    let text = cluster_config(40, 2);
    let config = dir.path().join("loop.toml");
    std::fs::write(&config, text).unwrap();
    let out = dir.path().join("run");
    let o = Command::new(BIN)
        .args(["loop", "--json", "--config"])
        .arg(&config)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    for f in ["gen-001/shards/shard-0.bin", "gen-001/shards/shard-1.bin", "gen-001/games.bin"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let sp: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("gen-001/selfplay.done.json")).unwrap())
            .unwrap();
    assert_eq!(sp["games"], 40);
    // The merged file validates.
    let o = Command::new(BIN).args(["data", "validate"]).arg(out.join("gen-001/games.bin")).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
}

/// A task that fails (here: shard 1 of the stand-in, which writes its log where
/// `SBATCH_OUTPUT` says, as Slurm does) stops the loop with a failure (exit 1) naming the
/// shard, its task and its log's last lines; the command's own output stays off stdout.
#[test]
fn a_failing_shard_is_named_with_its_log() {
    let dir = tempfile::tempdir().unwrap();
    let command = format!(
        "echo 'Submitted batch job 1'; i=0; while [ $i -lt $FANORONA_SHARD_COUNT ]; do \
         log=$(echo \"$SBATCH_OUTPUT\" | sed \"s/%a/$i/\"); \
         if [ $i = 1 ]; then echo 'shard 1 fails on purpose' >\"$log\"; \
         else JOB_COMPLETION_INDEX=$i {BIN} selfplay $FANORONA_SELFPLAY_ARGS >\"$log\" 2>&1; fi; \
         i=$((i+1)); done; exit 1"
    );
    let text = with_cluster_command(&cluster_config(40, 3), &command);
    let config = dir.path().join("loop.toml");
    std::fs::write(&config, text).unwrap();
    let out = dir.path().join("run");
    let o =
        loop_within(&[os("--json"), os("--config"), config.as_os_str(), os("--out"), out.as_os_str()], 120);
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(o.stdout.is_empty(), "{}", String::from_utf8_lossy(&o.stdout));
    let err = String::from_utf8_lossy(&o.stderr);
    let shards = out.join("gen-001/shards");
    for needle in [
        "failed (exit status: 1) and 1 of its 3 shards is missing".to_string(),
        format!("shard 1 (array task 1): no {}", shards.join("shard-1.bin").display()),
        format!(
            "its log is {}, ending:\n    | shard 1 fails on purpose",
            shards.join("slurm-1.out").display()
        ),
        "Submitted batch job 1".into(),
    ] {
        assert!(err.contains(&needle), "{needle:?} missing in {err}");
    }
    assert!(!out.join("gen-001/games.bin").exists());
}

/// `config` (made by [`cluster_config`]) with `command` as its cluster command.
fn with_cluster_command(config: &str, command: &str) -> String {
    let key = "cluster_command = '''";
    let start = config.find(key).map(|i| i + key.len()).expect("a cluster command");
    let len = config[start..].find("'''").expect("its end");
    format!("{}{command}{}", &config[..start], &config[start + len..])
}

#[test]
fn print_config_shows_every_default_and_reads_back() {
    let o = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(["loop", "--print-config", "--generations", "3"])
        .output()
        .expect("run");
    assert!(o.status.success(), "{o:?}");
    let text = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(text.contains("generations = 3"), "{text}");
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("loop.toml");
    std::fs::write(&path, &text).expect("write");
    let again = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(["loop", "--print-config", "--config", path.to_str().expect("utf-8")])
        .output()
        .expect("run");
    assert!(again.status.success(), "{again:?}");
    assert_eq!(String::from_utf8_lossy(&again.stdout), text);
}

/// Runs `fanorona loop ARGS`, killed (and the test failed) if it takes over `secs` seconds.
fn loop_within(args: &[&std::ffi::OsStr], secs: u64) -> std::process::Output {
    let mut child = Command::new(BIN)
        .arg("loop")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run fanorona loop");
    let t0 = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if t0.elapsed() > Duration::from_secs(secs) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("fanorona loop {args:?} ran over {secs} s");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("output")
}

fn os(s: &str) -> &std::ffi::OsStr {
    std::ffi::OsStr::new(s)
}

/// A finished run resumed without --generations is left as it is (not extended to the default
/// count); a resume keeps the run's own generation count; only an explicit --generations
/// raises it, and a --config that would change the run is refused.
#[test]
fn resume_keeps_the_runs_own_generations() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("one.toml");
    std::fs::write(&config, TINY.replace("generations = 2", "generations = 1")).unwrap();
    let out = dir.path().join("run");
    let o =
        loop_within(&[os("--json"), os("--config"), config.as_os_str(), os("--out"), out.as_os_str()], 300);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let files = ["loop.toml", "summary.json", "report.md", "loop.done.json"];
    let before: Vec<_> = files.iter().map(|f| std::fs::read(out.join(f)).unwrap()).collect();
    let mtimes: Vec<_> =
        files.iter().map(|f| std::fs::metadata(out.join(f)).unwrap().modified().unwrap()).collect();

    // Resumed without --generations (and without --config): nothing to do, said so.
    let o = loop_within(&[os("--resume"), os("--out"), out.as_os_str()], 60);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("finished"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!out.join("gen-002").exists(), "the run was extended");
    for (i, f) in files.iter().enumerate() {
        assert_eq!(std::fs::read(out.join(f)).unwrap(), before[i], "{f} changed");
        assert_eq!(std::fs::metadata(out.join(f)).unwrap().modified().unwrap(), mtimes[i], "{f} rewritten");
    }
    // The same with its own --config and --json: the summary, unchanged.
    let o = loop_within(
        &[os("--resume"), os("--json"), os("--config"), config.as_os_str(), os("--out"), out.as_os_str()],
        60,
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let summary: serde_json::Value = serde_json::from_slice(&o.stdout).expect("summary JSON");
    assert_eq!(summary["generations"].as_array().map(Vec::len), Some(1));
    assert!(!out.join("gen-002").exists());

    // A --config that changes the run is refused (bad input), naming what differs.
    let other = dir.path().join("other.toml");
    std::fs::write(
        &other,
        TINY.replace("generations = 2", "generations = 1").replace("games = 4\n", "games = 6\n"),
    )
    .unwrap();
    let o =
        loop_within(&[os("--resume"), os("--config"), other.as_os_str(), os("--out"), out.as_os_str()], 60);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("[gate]"), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(out.join("loop.toml")).unwrap(), before[0]);
}

/// Values that the match code refuses are refused at the start (exit 2, naming the key), in a
/// new run and on --resume of a run whose saved configuration holds them.
#[test]
fn values_a_later_stage_refuses_are_refused_at_the_start() {
    let dir = tempfile::tempdir().unwrap();
    for (section, key, value) in [
        ("[gate]\ngames = 4\n", "gate.games", "[gate]\ngames = 1000000001\n"),
        ("[final_match]\ngames = 4\n", "final_match.games", "[final_match]\ngames = 2000000000\n"),
        ("[gate]\ngames = 4\n", "gate.openings", "[gate]\nopening_plies = 0\ngames = 4\n"),
        // A file the re-scoring search names, opened only when generation 2 trains before.
        (
            "[gate]\ngames = 4\n",
            "train.rescore",
            "[train]\nrescore = \"depth=1,book=/nonexistent\"\n[gate]\ngames = 4\n",
        ),
    ] {
        let config = dir.path().join("bad.toml");
        assert!(TINY.contains(section));
        std::fs::write(&config, TINY.replace(section, value)).unwrap();
        let out = dir.path().join("run-bad");
        let o = loop_within(&[os("--config"), config.as_os_str(), os("--out"), out.as_os_str()], 30);
        assert_eq!(o.status.code(), Some(2), "{key}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(key),
            "{key}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(!out.exists(), "{key}: a run directory was made");
        // A run directory saved with it (by an older version) is refused the same way.
        std::fs::create_dir_all(&out).unwrap();
        std::fs::copy(&config, out.join("loop.toml")).unwrap();
        let o = loop_within(&[os("--resume"), os("--out"), out.as_os_str()], 30);
        assert_eq!(o.status.code(), Some(2), "{key}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(
            String::from_utf8_lossy(&o.stderr).contains(key),
            "{key}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        std::fs::remove_dir_all(&out).unwrap();
    }
}

/// An endless --config (`/dev/zero`) is refused after a bounded read, not read until memory
/// runs out.
#[cfg(unix)]
#[test]
fn an_endless_config_file_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let o = loop_within(&[os("--config"), os("/dev/zero"), os("--out"), out.as_os_str()], 30);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("/dev/zero") && err.contains("1 MiB"), "{err}");
    assert!(!out.exists());
}

/// `--resume` of a directory holding no run (a typo) is refused, not a fresh run started.
#[test]
fn resuming_a_directory_without_a_run_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    for out in [dir.path().join("typo"), dir.path().to_path_buf()] {
        let o = loop_within(&[os("--resume"), os("--out"), out.as_os_str()], 30);
        assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(&format!("nothing to resume in {}", out.display())), "{err}");
    }
    assert!(!dir.path().join("typo").exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A run stopped by a setting that cannot work goes on with the corrected value through
/// `--resume --amend --config FIXED`: its loop.toml is replaced, the run finishes.
#[test]
fn a_run_stopped_by_a_config_error_resumes_amended() {
    let dir = tempfile::tempdir().unwrap();
    let one = TINY.replace("generations = 2", "generations = 1");
    let bad = one.replace("[gate]\n", "[train]\nrescore = \"depth=1,book=/nonexistent\"\n[gate]\n");
    let out = dir.path().join("run");
    // A run directory saved with the bad value (as an older version let it start).
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("loop.toml"), &bad).unwrap();
    let o = loop_within(&[os("--resume"), os("--out"), out.as_os_str()], 30);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("train.rescore"));
    let fixed = dir.path().join("fixed.toml");
    std::fs::write(&fixed, one.replace("[gate]\n", "[train]\nrescore = \"depth=1\"\n[gate]\n")).unwrap();
    // Without --amend a differing --config is refused; with it, the run goes on.
    let args = [os("--resume"), os("--config"), fixed.as_os_str(), os("--out"), out.as_os_str()];
    let o = loop_within(&args, 30);
    assert_eq!(o.status.code(), Some(2), "{}", String::from_utf8_lossy(&o.stderr));
    let o = loop_within(&[&args[..], &[os("--amend")]].concat(), 300);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stderr).contains("amended in"));
    let saved = std::fs::read_to_string(out.join("loop.toml")).unwrap();
    assert!(saved.contains("rescore = \"depth=1\""), "{saved}");
    assert!(out.join("loop.done.json").is_file());
}
