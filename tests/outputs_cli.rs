//! Nothing lost, nothing clobbered: outputs that exist, that are inputs, that are symlinks or
//! FIFOs; damaged and missing inputs and their exit codes (0 ok, 1 failure, 2 bad input).

use std::path::Path;
use std::process::{Command, Output};

mod common;
use common::{fanorona, stderr, stdout};

fn selfplay(games: &str, out: &Path, extra: &[&str]) -> Output {
    let out = out.display().to_string();
    let args =
        ["selfplay", "-n", games, "-o", &out, "--white", "greedy", "--black", "random", "-t", "1", "-q"];
    fanorona(&[&args[..], extra].concat())
}

fn games_in(path: &Path) -> usize {
    fanorona_data::RecordReader::open(path).expect("record file").count()
}

#[test]
fn existing_outputs_are_kept_unless_forced() {
    let dir = tempfile::tempdir().expect("tempdir");
    let keep = dir.path().join("keep.bin");
    assert!(selfplay("6", &keep, &[]).status.success());
    let bytes = std::fs::read(&keep).expect("read");
    let o = selfplay("2", &keep, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert_eq!(std::fs::read(&keep).expect("read"), bytes);
    let o = selfplay("2", &keep, &["--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(games_in(&keep), 2);

    // data merge and data export the same.
    let k = keep.display().to_string();
    let other = dir.path().join("other.bin");
    std::fs::write(&other, b"precious").expect("write");
    let ot = other.display().to_string();
    let o = fanorona(&["data", "merge", &ot, &k]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = fanorona(&["data", "export", &k, "-o", &ot]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&other).expect("read"), b"precious");
    let o = fanorona(&["data", "export", &k, "-o", &ot, "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&other).expect("read").lines().count(), 2);
    assert!(stderr(&o).contains("wrote 2 games"), "{}", stderr(&o));
    let o = fanorona(&["data", "merge", &ot, &k, "--force"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(games_in(&other), 2);
}

#[test]
fn an_input_is_never_its_own_output() {
    let dir = tempfile::tempdir().expect("tempdir");
    let games = dir.path().join("g.bin");
    assert!(selfplay("3", &games, &[]).status.success());
    let bytes = std::fs::read(&games).expect("read");
    let g = games.display().to_string();
    // export X -o X, even with --force.
    for extra in [&[][..], &["--force"][..]] {
        let o = fanorona(&[&["data", "export", &g, "-o", &g][..], extra].concat());
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert_eq!(std::fs::read(&games).expect("read"), bytes);
    }
    // merge OUT OUT.part: the temporary of a killed run is an input, not to be truncated.
    let out = dir.path().join("all.bin");
    let part = dir.path().join("all.bin.part");
    std::fs::copy(&games, &part).expect("copy");
    let o = fanorona(&["data", "merge", &out.display().to_string(), &part.display().to_string(), "--force"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(std::fs::read(&part).expect("the input is still there"), bytes);
    assert!(!out.exists());
}

#[cfg(unix)]
#[test]
fn symlinks_and_fifos_are_written_through() {
    let dir = tempfile::tempdir().expect("tempdir");
    let real = dir.path().join("real.bin");
    let link = dir.path().join("link.bin");
    std::os::unix::fs::symlink(&real, &link).expect("symlink");
    let o = selfplay("2", &link, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(&link).expect("link").file_type().is_symlink());
    assert_eq!(games_in(&real), 2);

    // A FIFO (as /dev/null would be) stays what it is.
    let fifo = dir.path().join("fifo");
    // mkfifo(1) is POSIX: where it fails, the test fails rather than pass without the FIFO.
    let made = Command::new("mkfifo").arg(&fifo).status().expect("run mkfifo");
    assert!(made.success(), "mkfifo {}: {made}", fifo.display());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read(fifo).expect("read the fifo"))
    };
    let o = selfplay("2", &fifo, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(reader.join().expect("reader").starts_with(&fanorona_data::MAGIC));
    assert!(!std::fs::symlink_metadata(&fifo).expect("fifo").is_file());
    assert!(!dir.path().join("fifo.part").exists());
}

#[test]
fn damaged_and_missing_inputs_are_bad_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let games = dir.path().join("g.bin");
    assert!(selfplay("4", &games, &[]).status.success());
    let mut bytes = std::fs::read(&games).expect("read");
    // Damage the last record's payload (CRC mismatch).
    let n = bytes.len();
    bytes[n - 2] ^= 0xff;
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, &bytes).expect("write");
    let b = bad.display().to_string();
    for args in [
        vec!["data", "stats", &b],
        vec!["data", "stats", &b, "--json"],
        vec!["data", "show", &b, "--game", "3"],
        vec!["data", "export", &b],
    ] {
        let o = fanorona(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains("damaged"), "{args:?}: {}", stderr(&o));
    }
    // stats still reports the games before the damage.
    let o = fanorona(&["data", "stats", &b]);
    assert!(stdout(&o).contains("games: 3"), "{}", stdout(&o));

    // selfplay --resume of a damaged temporary.
    let out = dir.path().join("again.bin");
    std::fs::write(dir.path().join("again.bin.part"), &bytes).expect("write");
    let o = selfplay("4", &out, &["--resume"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));

    // A missing file: its OS error once, exit 2.
    let missing = dir.path().join("nothere.bin").display().to_string();
    let o = fanorona(&["data", "stats", &missing]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert_eq!(stderr(&o).matches("No such file or directory").count(), 1, "{}", stderr(&o));
}

#[test]
fn a_run_killed_before_its_first_game_resumes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let full = dir.path().join("full.bin");
    assert!(selfplay("3", &full, &[]).status.success());
    // Killed before anything reached the disk: an empty temporary.
    let out = dir.path().join("out.bin");
    std::fs::write(dir.path().join("out.bin.part"), b"").expect("write");
    let o = selfplay("3", &out, &["--resume"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(std::fs::read(&out).expect("out"), std::fs::read(&full).expect("full"));
    // Without --resume the temporary is not overwritten silently.
    let again = dir.path().join("again.bin");
    std::fs::write(dir.path().join("again.bin.part"), b"").expect("write");
    let o = selfplay("3", &again, &[]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--resume"), "{}", stderr(&o));
}

/// Two `data rescore` runs writing the same output at once, the second started while the first
/// writes: each either succeeds, its own output complete in place, or is refused (exit 2)
/// naming the output; never a success with another run's or a damaged file. (Before the
/// temporary was claimed, both wrote `OUT.part`: the faster renamed it and reported success,
/// the output holding the slower run's records.)
#[test]
fn two_writers_of_one_output_never_damage_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("in.bin");
    let input = input.display().to_string();
    let spec = "alphabeta:depth=1";
    let o =
        fanorona(&["selfplay", "-n", "40", "-o", &input, "--white", spec, "--black", spec, "-t", "1", "-q"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let rescore = |out: &Path, depth: &str| {
        let spec = format!("alphabeta:depth={depth}");
        Command::new(env!("CARGO_BIN_EXE_fanorona"))
            .args(["data", "rescore", &input, "-o", &out.display().to_string(), "-e", &spec, "-t", "1"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("spawn")
    };
    // What each run writes alone: the slow one (depth 3) and the fast one (depth 2).
    let reference = |depth| {
        let p = dir.path().join(format!("ref{depth}.bin"));
        assert!(rescore(&p, depth).wait().expect("wait").success());
        std::fs::read(&p).expect("reference")
    };
    let (slow, fast) = (reference("3"), reference("2"));
    assert_ne!(slow, fast);
    for (round, delay_ms) in [(0, 100), (1, 300)] {
        let out = dir.path().join(format!("out{round}.bin"));
        let first = rescore(&out, "3");
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let second = rescore(&out, "2");
        let runs = [
            (first.wait_with_output().expect("wait"), &slow),
            (second.wait_with_output().expect("wait"), &fast),
        ];
        let written = std::fs::read(&out).expect("an output");
        let mut winners = 0;
        for (r, expected) in &runs {
            if r.status.success() {
                winners += 1;
                assert!(
                    written == **expected,
                    "round {round}: a run reported success, the output is not its own"
                );
            } else {
                assert_eq!(r.status.code(), Some(2), "round {round}: {}", stderr(r));
                assert!(stderr(r).contains(&format!("out{round}.bin")), "round {round}: {}", stderr(r));
            }
        }
        assert_eq!(winners, 1, "round {round}");
        let v = fanorona(&["data", "validate", &out.display().to_string()]);
        assert!(v.status.success(), "round {round}: {}", stderr(&v));
        assert!(!dir.path().join(format!("out{round}.bin.part")).exists(), "round {round}");
    }
}
