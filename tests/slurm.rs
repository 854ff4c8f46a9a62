//! The cluster paths on a real Slurm, through `sbatch --array ... --wait` and the sbatch files
//! as shipped (loop/selfplay-array.sbatch, eval/eval-array.sbatch, tune/tune-array.sbatch): the
//! loop's self-play on the cluster gives the local loop's files byte for byte; a sharded match
//! merged is the one-machine match; a task cancelled mid-run and requeued resumes its shard; a
//! failing task stops the loop with a message naming the task and its log; a tuning run whose
//! iterations play on the cluster is the one played here, iteration for iteration.
//!
//! `scripts/slurm-local.sh start` starts a one-node Slurm on this machine (as `.ci/run` does).
//! Without one the tests are skipped with a message, unless `FANORONA_REQUIRE_SLURM` is set (as
//! `.ci/run` sets it): then they fail.
#![cfg(unix)]
#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_fanorona");
const SELFPLAY_SBATCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/loop/selfplay-array.sbatch");
const EVAL_SBATCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/eval/eval-array.sbatch");
const TUNE_SBATCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tune/tune-array.sbatch");
const SOLVE_SBATCH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/solve/solve-array.sbatch");

/// Longest a test waits for Slurm to run its jobs (they take seconds; the other tests' jobs
/// share the node's CPUs).
const JOB_LIMIT: Duration = Duration::from_secs(300);

/// Why no Slurm with a usable node answers, or `Ok` when one does (asked once: a stopped
/// controller takes sinfo seconds to give up on).
fn slurm_probe() -> &'static Result<(), String> {
    static PROBE: std::sync::OnceLock<Result<(), String>> = std::sync::OnceLock::new();
    PROBE.get_or_init(|| {
        let state = Command::new("sinfo").args(["--noheader", "--Node", "--format=%T"]).output();
        Err(match &state {
            Err(e) => format!("sinfo cannot be run ({e})"),
            Ok(o) if !o.status.success() => {
                format!("sinfo failed: {}", String::from_utf8_lossy(&o.stderr).trim())
            }
            Ok(o) => {
                let text = String::from_utf8_lossy(&o.stdout);
                if text.lines().any(|l| ["idle", "mixed", "allocated"].contains(&l.trim())) {
                    return Ok(());
                }
                format!("no node is up (sinfo: {:?})", text.trim())
            }
        })
    })
}

/// Whether a Slurm answers with a usable node; `false` (with a message) where none does and CI
/// did not ask for one.
fn slurm_or_skip() -> bool {
    let Err(why) = slurm_probe() else { return true };
    // CI starts a Slurm (scripts/slurm-local.sh) and sets this: there the tests must run.
    assert!(
        std::env::var_os("FANORONA_REQUIRE_SLURM").is_none(),
        "FANORONA_REQUIRE_SLURM is set but no Slurm answers: {why} (start one with `scripts/slurm-local.sh start`)"
    );
    println!("SKIPPED: {why}; the Slurm tests did not run (scripts/slurm-local.sh start runs one)");
    false
}

/// A job name of this test process, to cancel its jobs when it gives up waiting.
fn job_name(test: &str) -> String {
    format!("fanorona-test-{test}-{}", std::process::id())
}

/// Waits for `child` at most [`JOB_LIMIT`]; past it, cancels the jobs named `job` and fails.
fn wait_within(mut child: Child, job: &str, what: &str) -> Output {
    let t0 = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if t0.elapsed() > JOB_LIMIT {
            let _ = Command::new("scancel").arg(format!("--name={job}")).status();
            let _ = child.kill();
            let o = child.wait_with_output().unwrap();
            panic!("{what} ran over {JOB_LIMIT:?}: {}", String::from_utf8_lossy(&o.stderr));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

/// A command run in `dir` (where Slurm writes the jobs' default logs), the tasks running this
/// build's program (`FANORONA_BIN`, read by the sbatch files).
fn command(program: &str, dir: &Path) -> Command {
    let mut c = Command::new(program);
    c.current_dir(dir).env("FANORONA_BIN", BIN).stdout(Stdio::piped()).stderr(Stdio::piped());
    c
}

fn json(o: &Output) -> serde_json::Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The report fields that a merged match shares with the one-machine match.
fn same_report(merged: &serde_json::Value, one: &serde_json::Value) {
    assert_eq!(merged["complete"], true, "{merged}");
    for key in ["games", "wdl", "pentanomial", "elo", "terminations", "faults"] {
        assert_eq!(merged["report"][key], one[key], "{key}");
    }
}

/// `fanorona eval ARGS -o DIR/one --json`: the match played in one piece.
fn one_machine_match(dir: &Path, args: &[&str]) -> serde_json::Value {
    let one = dir.join("one");
    let o = Command::new(BIN).arg("eval").args(args).arg("-o").arg(&one).arg("--json").output().unwrap();
    json(&o)
}

/// `fanorona eval merge DIR/s-0 .. DIR/s-{shards-1} -o DIR/all --json`.
fn merge(dir: &Path, shards: u32) -> serde_json::Value {
    let mut c = Command::new(BIN);
    c.args(["eval", "merge"]);
    for s in 0..shards {
        c.arg(dir.join(format!("s-{s}")));
    }
    json(&c.arg("-o").arg(dir.join("all")).arg("--json").output().unwrap())
}

fn read(p: PathBuf) -> Vec<u8> {
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn a_sharded_match_on_the_cluster_is_the_one_machine_match() {
    if !slurm_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let args = ["-e", "alphabeta:depth=3", "-e", "alphabeta:depth=2", "-n", "20", "--seed", "3"];
    let job = job_name("match");
    let sbatch = command("sbatch", dir.path())
        .args(["--wait", "--array=0-3", "--cpus-per-task=1", "--time=10", &format!("--job-name={job}")])
        .arg(EVAL_SBATCH)
        .args(args)
        .args(["--sprt", "elo0=0,elo1=10", "--json", "-o"])
        .arg(dir.path().join("s-{shard}"))
        .spawn()
        .unwrap();
    let o = wait_within(sbatch, &job, "the match's job array");
    assert!(o.status.success(), "sbatch: {}", String::from_utf8_lossy(&o.stderr));
    let merged = merge(dir.path(), 4);
    assert_eq!(merged["shards"], serde_json::json!([0, 1, 2, 3]));
    let mut one_args = args.to_vec();
    one_args.extend(["--sprt", "elo0=0,elo1=10"]);
    let one = one_machine_match(dir.path(), &one_args);
    same_report(&merged, &one);
    assert_eq!(merged["report"]["sprt"]["llr"], one["sprt"]["llr"]);
    // The same games, in the same order: the merged record file is the one-machine match's.
    assert_eq!(read(dir.path().join("all/games.bin")), read(dir.path().join("one/games.bin")));
}

/// The iterations of a tuning run's history, without their timings.
fn tune_iterations(run: &Path) -> Vec<serde_json::Value> {
    let h: serde_json::Value = serde_json::from_slice(&read(run.join("history.json"))).unwrap();
    let mut its = h["iterations"].as_array().unwrap().clone();
    for it in &mut its {
        let o = it.as_object_mut().unwrap();
        o.remove("seconds");
        o.remove("cpu_seconds");
    }
    its
}

#[test]
fn a_tuning_run_on_the_cluster_is_the_run_played_here() {
    if !slurm_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let job = job_name("tune");
    let file = "engine = \"alphabeta:eval=handcrafted\"\noptions = \"depth=2\"\niterations = 3\npairs = 4\n\
                openings = \"suite:unbalanced\"\n[params.threatened]\nstart = 30\nmin = 0\nmax = 80\nc = 6\na = 40\n";
    std::fs::write(dir.path().join("here.toml"), file).unwrap();
    let sbatch =
        format!("sbatch --wait --array=0-2 --cpus-per-task=1 --time=10 --job-name={job} {TUNE_SBATCH}");
    // The run's own keys come before its first table.
    let cluster = file.replace(
        "[params.threatened]",
        &format!("shards = 3\ncluster_command = '''{sbatch}'''\n[params.threatened]"),
    );
    std::fs::write(dir.path().join("cluster.toml"), cluster).unwrap();
    for name in ["here", "cluster"] {
        let child = command(BIN, dir.path())
            .args(["tune", &format!("{name}.toml"), "-o", name, "--json"])
            .spawn()
            .unwrap();
        let o = wait_within(child, &job, "fanorona tune");
        assert_eq!(json(&o)["iterations"], 3, "{name}");
    }
    assert_eq!(tune_iterations(&dir.path().join("cluster")), tune_iterations(&dir.path().join("here")));
    // The iterations' directories, with their shards and logs, are gone once counted.
    assert!(!dir.path().join("cluster/iter-000002").exists());
}

#[test]
fn a_proof_farmed_out_on_the_cluster_gives_the_value_solved_here() {
    if !slurm_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let tables = dir.path().join("tables");
    let o = Command::new(BIN)
        .args(["tb", "generate", "--stones", "3", "--threads", "1", "--out"])
        .arg(&tables)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let pos = "B7B/9/9/9/W7W w";
    let here = json(&Command::new(BIN).args(["solve", pos, "--json", "--tb"]).arg(&tables).output().unwrap());
    let split = dir.path().join("split");
    let o = Command::new(BIN)
        .args(["solve", pos, "--split", "2", "--json", "--out"])
        .arg(&split)
        .output()
        .unwrap();
    let positions = json(&o)["positions"].as_u64().unwrap();
    assert!(positions > 2, "{positions} positions two turns on");
    let job = job_name("solve");
    let child = command("sbatch", dir.path())
        .args(["--wait", "--array=0-2", "--cpus-per-task=1", "--time=10"])
        .arg(format!("--job-name={job}"))
        .arg(SOLVE_SBATCH)
        .arg(&split)
        .arg("--tb")
        .arg(&tables)
        .spawn()
        .unwrap();
    let o = wait_within(child, &job, "the solve array");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let merged = json(
        &Command::new(BIN)
            .args(["solve", "--json", "--merge"])
            .arg(&split)
            .arg("--tb")
            .arg(&tables)
            .output()
            .unwrap(),
    );
    assert_eq!(merged["proven"], positions, "every position proven by the tasks");
    assert_eq!(merged["value"], here["value"]);
}

/// `state.json`'s pairs done and whether it is finished, if it can be read yet.
fn progress(shard_dir: &Path) -> Option<(u64, bool)> {
    let text = std::fs::read_to_string(shard_dir.join("state.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    Some((v["pairs_done"].as_u64()?, v["finished"].as_bool()?))
}

#[test]
fn a_cancelled_and_requeued_task_resumes_its_shard() {
    if !slurm_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    // Two shards of 10 pairs (about 100 ms a game), one task at a time (%1): task 1 waits
    // while task 0 is cancelled and requeued, so `sbatch --wait` is still waiting then.
    let args = ["-e", "alphabeta:depth=7", "-e", "alphabeta:depth=6", "-n", "40", "--seed", "5"];
    let job = job_name("requeue");
    let mut sbatch = command("sbatch", dir.path())
        .args([
            "--parsable",
            "--wait",
            "--array=0-1%1",
            "--cpus-per-task=1",
            "--time=10",
            &format!("--job-name={job}"),
        ])
        .arg(EVAL_SBATCH)
        .args(args)
        .args(["--json", "-o"])
        .arg(dir.path().join("s-{shard}"))
        .spawn()
        .unwrap();
    // --parsable: the job's id, printed once it is submitted.
    let mut id = String::new();
    BufReader::new(sbatch.stdout.as_mut().unwrap()).read_line(&mut id).unwrap();
    let id = id.trim().split(';').next().unwrap().to_string();
    assert!(!id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()), "job id {id:?}");
    let task = format!("{id}_0");

    // Cancel task 0 once it has saved a few pairs, before it finishes.
    let shard0 = dir.path().join("s-0");
    let t0 = Instant::now();
    let at_kill = loop {
        match progress(&shard0) {
            Some((pairs, false)) if pairs >= 2 => break pairs,
            Some((_, true)) => panic!("shard 0 finished before it could be cancelled"),
            _ if t0.elapsed() > JOB_LIMIT => panic!("shard 0 never started"),
            _ => std::thread::sleep(Duration::from_millis(10)),
        }
    };
    let o = Command::new("scancel").arg(&task).output().unwrap();
    assert!(o.status.success(), "scancel {task}: {o:?}");
    // Requeued once it has stopped (while it completes, Slurm refuses).
    let t0 = Instant::now();
    loop {
        let o = Command::new("scontrol").args(["requeue", &task]).output().unwrap();
        if o.status.success() {
            break;
        }
        assert!(t0.elapsed() < Duration::from_secs(60), "scontrol requeue {task}: {o:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
    let o = Command::new("scontrol").args(["show", "job", &task]).output().unwrap();
    let shown = String::from_utf8_lossy(&o.stdout);
    assert!(shown.contains("Restarts=1"), "{shown}");
    let o = wait_within(sbatch, &job, "the requeued job array");
    assert!(o.status.success(), "sbatch: {}", String::from_utf8_lossy(&o.stderr));

    // The second run of task 0 continued the shard.
    let log = std::fs::read_to_string(dir.path().join(format!("slurm-{id}_0.out"))).unwrap();
    let last: serde_json::Value = serde_json::from_str(log.lines().last().unwrap()).unwrap();
    assert_eq!(last["games"], 20, "{log}");
    let resumed = last["games_this_run"].as_u64().unwrap();
    assert!(resumed <= 20 - 2 * at_kill, "the requeued task played {resumed} games: {log}");
    assert!(!log.contains("nothing to resume"), "{log}");

    // No game lost or played twice: the merged shards are the one-machine match.
    let merged = merge(dir.path(), 2);
    let one = one_machine_match(dir.path(), &args);
    same_report(&merged, &one);
    assert_eq!(read(dir.path().join("all/games.bin")), read(dir.path().join("one/games.bin")));
}

/// A tiny loop: two generations of 40 depth-1 games, a 16-unit network, depth-1 matches.
#[cfg(feature = "train")]
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

/// `TINY` with `generations` and its self-play on `shards` tasks of a Slurm job array named
/// `job`, through loop/selfplay-array.sbatch.
#[cfg(feature = "train")]
fn on_the_cluster(generations: u32, shards: u32, job: &str) -> String {
    let command = format!(
        "sbatch --wait --array=0-{} --cpus-per-task=1 --time=10 --job-name={job} {SELFPLAY_SBATCH}",
        shards - 1
    );
    TINY.replace("generations = 2", &format!("generations = {generations}")).replace(
        "first_games = 0\n",
        &format!("first_games = 0\nshards = {shards}\ncluster_command = '''{command}'''\n"),
    )
}

/// Runs `fanorona loop --json --config CONFIG --out run` in `DIR/NAME` (the run's own paths,
/// which its match records hold, are the same whatever NAME is); its output and wall time.
#[cfg(feature = "train")]
fn run_loop(dir: &Path, config: &str, name: &str, bin: &str, job: &str) -> (Output, Duration) {
    let dir = dir.join(name);
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("loop.toml"), config).unwrap();
    let t0 = Instant::now();
    let child = command(BIN, &dir)
        .env("FANORONA_BIN", bin)
        .args(["loop", "--json", "--config", "loop.toml", "--out", "run"])
        .spawn()
        .unwrap();
    let o = wait_within(child, job, "fanorona loop");
    (o, t0.elapsed())
}

#[cfg(feature = "train")]
#[test]
fn the_loop_on_the_cluster_is_the_local_loop() {
    if !slurm_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let job = job_name("loop");
    let (local, local_time) = run_loop(dir.path(), TINY, "local", BIN, &job);
    let local_summary = json(&local);
    // 40 games in 3 shards: 14, 13 and 13.
    let (cluster, cluster_time) = run_loop(dir.path(), &on_the_cluster(2, 3, &job), "cluster", BIN, &job);
    let cluster_summary = json(&cluster);
    println!(
        "tiny loop (2 generations of 40 games): here {:.1} s, self-play on Slurm {:.1} s",
        local_time.as_secs_f64(),
        cluster_time.as_secs_f64()
    );
    let (a, b) = (dir.path().join("local/run"), dir.path().join("cluster/run"));
    for g in ["gen-001", "gen-002"] {
        // The same games, file for file, the same networks, the same gate games.
        for f in ["games.bin", "candidate.fnet", "gate/games.bin"] {
            assert!(read(a.join(g).join(f)) == read(b.join(g).join(f)), "{g}/{f} differs");
        }
        assert!(b.join(g).join("shards/shard-2.bin").is_file(), "{g}: no shard 2");
    }
    assert_eq!(local_summary, cluster_summary);
}

/// A program that fails as array task 1 and is this build's `fanorona` otherwise.
#[cfg(feature = "train")]
fn failing_in_task_1(dir: &Path) -> String {
    use std::os::unix::fs::PermissionsExt;
    let path = dir.join("fails-in-task-1");
    let script = format!(
        "#!/bin/sh\nif [ \"$SLURM_ARRAY_TASK_ID\" = 1 ]; then echo 'task 1 fails on purpose' >&2; exit 3; fi\nexec {BIN} \"$@\"\n"
    );
    std::fs::write(&path, script).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path.to_str().unwrap().to_string()
}

#[cfg(feature = "train")]
#[test]
fn a_failing_task_stops_the_loop_naming_the_task_and_its_log() {
    if !slurm_or_skip() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let job = job_name("failing");
    let bin = failing_in_task_1(dir.path());
    let config = on_the_cluster(1, 2, &job);
    let (o, _) = run_loop(dir.path(), &config, "failing", &bin, &job);
    // A failure (exit 1), not bad input.
    assert_eq!(o.status.code(), Some(1), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr);
    let run = dir.path().join("failing/run");
    let shards = Path::new("run/gen-001/shards");
    let log = shards.join("slurm-1.out");
    for needle in [
        "generation 1, self-play on the cluster".to_string(),
        "failed (exit status: 3)".into(),
        format!("shard 1 (array task 1): no {}", shards.join("shard-1.bin").display()),
        format!("its log is {}", log.display()),
        "task 1 fails on purpose".into(),
    ] {
        assert!(err.contains(&needle), "{needle:?} missing in: {err}");
    }
    assert!(!err.contains("shard 0 ("), "{err}");
    let shards = run.join("gen-001/shards");
    assert!(std::fs::read_to_string(shards.join("slurm-1.out")).unwrap().contains("task 1 fails on purpose"));
    assert!(!run.join("gen-001/games.bin").exists());
    assert!(!run.join("gen-001/selfplay.done.json").exists());

    // Fixed, the run continues: shard 0 is kept, shard 1 is played, the generation finishes.
    let shard0 = read(shards.join("shard-0.bin"));
    let child = command(BIN, &dir.path().join("failing"))
        .args(["loop", "--resume", "--json", "--out", "run"])
        .spawn()
        .unwrap();
    let o = wait_within(child, &job, "the resumed loop");
    let summary = json(&o);
    assert_eq!(summary["generations"][0]["games"], 40, "{summary}");
    assert_eq!(read(shards.join("shard-0.bin")), shard0);
}
