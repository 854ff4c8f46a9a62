//! Long table generations from the outside: a killed run resumes from its checkpoint and ends
//! with the same files, the memory bound picks the lean mode or refuses, one run at a time per
//! directory, and `tb verify` checks tables against the rules and catches a planted error.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{fanorona, stderr, stdout};

fn path(p: &Path) -> &str {
    p.to_str().expect("utf-8 temp path")
}

fn generate(dir: &Path, stones: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["tb", "generate", "--stones", stones, "--out", path(dir), "--threads", "2"];
    args.extend_from_slice(extra);
    fanorona(&args)
}

/// The table files of a directory, by name.
fn tables(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = fs::read_dir(dir)
        .expect("list")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "fantb"))
        .map(|p| (p.file_name().expect("name").to_string_lossy().into_owned(), fs::read(&p).expect("read")))
        .collect();
    out.sort();
    out
}

#[test]
fn a_killed_generation_resumes_from_its_checkpoint_with_the_same_tables() {
    let fresh = tempfile::tempdir().expect("temp dir");
    let o = generate(fresh.path(), "5", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let killed = tempfile::tempdir().expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(["tb", "generate", "--stones", "5", "--out", path(killed.path()), "--threads", "2"])
        .args(["--checkpoint-minutes", "0"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start");
    // The 3v2 pair (the last, about half the work) checkpoints after seeding and every level.
    let checkpoint =
        fanorona_tb::checkpoint_path(killed.path(), fanorona_tb::Signature::new(3, 2).expect("3v2"));
    let start = Instant::now();
    while !checkpoint.exists() {
        assert!(child.try_wait().expect("wait").is_none(), "the run ended before its 3v2 checkpoint");
        assert!(start.elapsed() < Duration::from_secs(300), "no checkpoint after 5 minutes");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill");
    child.wait().expect("reap");
    assert!(!killed.path().join("3v2.fantb").exists(), "killed before the pair was written");
    let o = generate(killed.path(), "5", &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains("3v2: resuming from its checkpoint at dtc"), "{}", stderr(&o));
    assert!(!checkpoint.exists(), "the checkpoint of a finished pair is removed");
    assert_eq!(tables(killed.path()), tables(fresh.path()), "resumed tables differ from a fresh run");
}

#[test]
fn the_memory_bound_picks_the_lean_mode_or_refuses() {
    let counters = tempfile::tempdir().expect("temp dir");
    let o = generate(counters.path(), "5", &["--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert!(v["tables"].as_array().is_some_and(|t| t.iter().all(|t| t["mode"] == "counters")), "{v}");
    assert_eq!(v["placements"], placements(5), "{v}");
    // 3v2 with 2v3 has 6.5 million slots: 13 MB with counters does not fit in 10 MiB, lean does.
    let lean = tempfile::tempdir().expect("temp dir");
    let o = generate(lean.path(), "5", &["--memory", "10", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    let modes: Vec<&str> =
        v["tables"].as_array().expect("tables").iter().filter_map(|t| t["mode"].as_str()).collect();
    assert_eq!(modes.iter().filter(|&&m| m == "lean").count(), 2, "{modes:?}");
    assert_eq!(tables(lean.path()), tables(counters.path()), "lean and counters tables differ");
    let refused = tempfile::tempdir().expect("temp dir");
    let o = generate(refused.path(), "6", &["--memory", "1"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("MiB even without counters"), "{}", stderr(&o));
    assert!(tables(refused.path()).is_empty(), "nothing is generated when the bound is too small");
}

/// Every placement of 2..=stones stones with both sides holding one.
fn placements(stones: u64) -> u64 {
    let choose = |n: u64, k: u64| (0..k).fold(1, |c, i| c * (n - i) / (i + 1));
    (2..=stones).map(|s| choose(45, s) * ((1 << s) - 2)).sum()
}

#[test]
fn a_directory_takes_one_generation_at_a_time() {
    let dir = tempfile::tempdir().expect("temp dir");
    let lock = fs::File::create(dir.path().join("generate.lock")).expect("lock file");
    lock.try_lock().expect("lock");
    let o = generate(dir.path(), "3", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("another generation is writing this directory"), "{}", stderr(&o));
    drop(lock);
    assert!(generate(dir.path(), "3", &[]).status.success());
}

#[test]
fn a_damaged_checkpoint_is_refused_naming_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    assert!(generate(dir.path(), "3", &[]).status.success());
    fs::remove_file(dir.path().join("2v2.fantb")).ok();
    let ckpt = dir.path().join("2v2.fantb.ckpt");
    fs::write(&ckpt, b"FANTBCK\x1a and then nothing sensible").expect("write");
    let o = generate(dir.path(), "4", &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("2v2.fantb.ckpt") && stderr(&o).contains("bytes where a checkpoint"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn verify_checks_every_value_and_names_a_planted_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    assert!(generate(dir.path(), "4", &[]).status.success());
    let o = fanorona(&["tb", "verify", path(dir.path()), "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).expect("json");
    assert_eq!(v["passed"], true, "{v}");
    assert_eq!(v["placements"], placements(4), "{v}");
    assert_eq!(v["tables"].as_array().map(Vec::len), Some(6));
    // Flip one value and write the checksum again: the file opens, the check fails.
    let file = dir.path().join("2v2.fantb");
    let mut bytes = fs::read(&file).expect("read");
    let at = 52 + 1000;
    bytes[at] = if bytes[at] == 0 { 1 } else { 0 };
    let mut crc = crc32fast::Hasher::new();
    crc.update(&bytes[..48]);
    crc.update(&bytes[52..]);
    bytes[48..52].copy_from_slice(&crc.finalize().to_le_bytes());
    fs::write(&file, bytes).expect("write");
    let o = fanorona(&["tb", "verify", path(dir.path())]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stdout(&o).contains("2v2: ") && stdout(&o).contains("mismatches, first"), "{}", stdout(&o));
    assert!(stderr(&o).contains("fail the check: 2v2"), "{}", stderr(&o));
}
