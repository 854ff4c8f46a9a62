//! Table files: bad files are refused with the file named, generation resumes from finished
//! files and refuses a directory of another format version, probes beyond the tables fail.

use std::fs;
use std::path::Path;
use std::sync::Mutex;

use fanorona_core::Position;
use fanorona_tb::{GenerateOptions, ProbeError, TableReport, Tablebase, TbError, generate};

fn generate_into(dir: &Path, stones: u32) -> Vec<TableReport> {
    let reports = Mutex::new(Vec::new());
    generate(dir, GenerateOptions::new(stones, 1), &|r| {
        reports.lock().unwrap_or_else(|e| e.into_inner()).push(*r);
    })
    .unwrap_or_else(|e| panic!("generate: {e}"));
    reports.into_inner().unwrap_or_else(|e| e.into_inner())
}

fn fresh(stones: u32) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    generate_into(dir.path(), stones);
    dir
}

fn open_err(dir: &Path) -> TbError {
    Tablebase::open(dir).expect_err("the tables should be refused")
}

fn edit(path: &Path, f: impl FnOnce(&mut Vec<u8>)) {
    let mut bytes = fs::read(path).expect("read");
    f(&mut bytes);
    fs::write(path, bytes).expect("write");
}

#[test]
fn sound_tables_open() {
    let dir = fresh(3);
    let tb = Tablebase::open(dir.path()).expect("open");
    assert_eq!(tb.max_stones(), 3);
    let mut names: Vec<String> = fs::read_dir(dir.path())
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    // The three tables and the lock a generation holds while it writes (no checkpoint left).
    assert_eq!(names, ["1v1.fantb", "1v2.fantb", "2v1.fantb", "generate.lock"]);
}

#[test]
fn a_truncated_file_is_refused() {
    let dir = fresh(3);
    let file = dir.path().join("2v1.fantb");
    edit(&file, |b| {
        b.pop();
    });
    let e = open_err(dir.path());
    assert!(matches!(e, TbError::Truncated { .. }), "{e}");
    assert!(e.to_string().contains("2v1.fantb"), "{e}");
    edit(&file, |b| b.truncate(10));
    assert!(matches!(open_err(dir.path()), TbError::Truncated { .. }));
}

#[test]
fn a_corrupt_file_is_refused() {
    let dir = fresh(3);
    let file = dir.path().join("1v2.fantb");
    edit(&file, |b| {
        let last = b.len() - 1;
        b[last] ^= 0x55;
    });
    let e = open_err(dir.path());
    assert!(matches!(e, TbError::Checksum { .. }), "{e}");
    assert!(e.to_string().contains("1v2.fantb"), "{e}");
}

#[test]
fn another_version_is_refused_and_never_overwritten() {
    let dir = fresh(3);
    let file = dir.path().join("1v1.fantb");
    edit(&file, |b| b[8] = 99);
    let e = open_err(dir.path());
    assert!(matches!(e, TbError::WrongVersion { found: 99, .. }), "{e}");
    assert!(e.to_string().contains("1v1.fantb"), "{e}");
    let before = fs::read(&file).expect("read");
    let e = generate(dir.path(), GenerateOptions::new(4, 1), &|_| {}).err();
    assert!(matches!(e, Some(TbError::WrongVersion { .. })), "{e:?}");
    assert_eq!(fs::read(&file).expect("read"), before);
    assert!(!dir.path().join("3v1.fantb").exists());
}

#[test]
fn a_file_of_another_signature_is_refused() {
    let dir = fresh(3);
    fs::copy(dir.path().join("2v1.fantb"), dir.path().join("1v2.fantb")).expect("copy");
    let e = open_err(dir.path());
    assert!(matches!(e, TbError::WrongSignature { .. }), "{e}");
    assert!(e.to_string().contains("1v2.fantb"), "{e}");
}

#[test]
fn a_missing_file_is_named() {
    let dir = fresh(3);
    fs::remove_file(dir.path().join("1v1.fantb")).expect("remove");
    let e = open_err(dir.path());
    assert!(matches!(e, TbError::Missing { stones: 3, .. }), "{e}");
    assert!(e.to_string().contains("1v1.fantb"), "{e}");
    let empty = tempfile::tempdir().expect("temp dir");
    assert!(matches!(open_err(empty.path()), TbError::Empty(_)));
    assert!(matches!(open_err(&empty.path().join("nowhere")), TbError::Read { .. }));
}

#[test]
fn generation_resumes_from_finished_files() {
    let dir = fresh(3);
    let first = fs::read(dir.path().join("2v1.fantb")).expect("read");
    fs::remove_file(dir.path().join("1v2.fantb")).expect("remove");
    // A temporary file left by an interrupted run is replaced.
    fs::write(dir.path().join("3v1.fantb.part"), b"partial").expect("write");
    let reports = generate_into(dir.path(), 4);
    // 2v1 is solved again with its twin 1v2 (a pair is solved together), to the same bytes.
    let reused: Vec<String> = reports.iter().filter(|r| r.reused).map(|r| r.sig.to_string()).collect();
    assert_eq!(reused, ["1v1"]);
    assert_eq!(reports.len(), 6);
    assert_eq!(fs::read(dir.path().join("2v1.fantb")).expect("read"), first);
    assert!(!dir.path().join("3v1.fantb.part").exists());
    let again = generate_into(dir.path(), 4);
    assert!(again.iter().all(|r| r.reused));
    assert_eq!(Tablebase::open(dir.path()).expect("open").max_stones(), 4);
}

#[test]
fn a_directory_in_the_way_is_not_replaced() {
    let dir = tempfile::tempdir().expect("temp dir");
    fs::create_dir(dir.path().join("1v1.fantb")).expect("mkdir");
    let e = generate(dir.path(), GenerateOptions::new(2, 1), &|_| {}).err();
    assert!(e.is_some(), "a directory named like a table must not be replaced");
    assert!(dir.path().join("1v1.fantb").is_dir());
}

#[test]
fn probes_beyond_the_tables_fail() {
    let dir = fresh(3);
    let tb = Tablebase::open(dir.path()).expect("open");
    let five: Position = "9/9/BB7/9/WWW6 w".parse().expect("position");
    assert_eq!(tb.probe(&five), Err(ProbeError::TooManyStones { stones: 5, max: 3 }));
    assert!(tb.probe(&five).err().is_some_and(|e| e.to_string().contains("5 stones")));
    let over: Position = "9/9/9/9/W8 w".parse().expect("position");
    assert_eq!(tb.probe(&over), Err(ProbeError::GameOver));
    assert!(matches!(generate(dir.path(), GenerateOptions::new(9, 1), &|_| {}), Err(TbError::BadStones(9))));
}

#[test]
fn generation_reports_levels_then_tables() {
    let dir = tempfile::tempdir().expect("temp dir");
    let events = Mutex::new(Vec::new());
    fanorona_tb::generate_with_events(dir.path(), GenerateOptions::new(3, 1), &|e| {
        events.lock().unwrap_or_else(|e| e.into_inner()).push(*e);
    })
    .expect("generate");
    let events = events.into_inner().unwrap_or_else(|e| e.into_inner());
    let tables = events.iter().filter(|e| matches!(e, fanorona_tb::Event::Table(_))).count();
    assert_eq!(tables, 3);
    let levels: Vec<u32> = events
        .iter()
        .filter_map(|e| match e {
            fanorona_tb::Event::Level { sig, level } if sig.to_string() == "2v1" => Some(*level),
            _ => None,
        })
        .collect();
    assert!(levels.len() > 2 && levels.windows(2).all(|w| w[1] == w[0] + 1), "{levels:?}");
    assert!(matches!(events.last(), Some(fanorona_tb::Event::Table(_))));
}

/// Runs `f` on a thread and fails (instead of hanging) when it takes more than 20 seconds;
/// `unblock` is called then, to free a thread stuck opening a FIFO.
fn within_deadline<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static, unblock: impl FnOnce()) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(std::time::Duration::from_secs(20)) {
        Ok(v) => v,
        Err(_) => {
            unblock();
            panic!("timed out: a FIFO was opened as a table");
        }
    }
}

fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo").arg(path).status().expect("run mkfifo").success();
    assert!(ok, "mkfifo {}", path.display());
}

/// Opens the write end of a FIFO without blocking for long, so that a reader stuck on it
/// goes on.
fn unblock_fifo(path: &Path) {
    let p = path.to_path_buf();
    std::thread::spawn(move || {
        let _ = fs::OpenOptions::new().write(true).open(p);
    });
}

#[test]
fn a_fifo_at_a_table_name_is_refused_not_opened() {
    let dir = fresh(3);
    let fifo = dir.path().join("2v1.fantb");
    fs::remove_file(&fifo).expect("remove");
    mkfifo(&fifo);
    let d = dir.path().to_path_buf();
    let e = within_deadline(move || Tablebase::open(&d).err(), || unblock_fifo(&fifo));
    let e = e.expect("a FIFO is no table");
    assert!(matches!(e, TbError::NotRegular { kind: "a FIFO", .. }), "{e}");
    assert!(e.is_bad_input());
    assert!(e.to_string().contains("2v1.fantb is a FIFO"), "{e}");
    // Generation reads the finished tables first: refused the same way, nothing written through.
    let d = dir.path().to_path_buf();
    let fifo = dir.path().join("2v1.fantb");
    let e = within_deadline(
        move || generate(&d, GenerateOptions::new(3, 1), &|_| {}).err(),
        || unblock_fifo(&fifo),
    );
    assert!(matches!(e, Some(TbError::NotRegular { .. })), "{e:?}");
    // A FIFO at a table's temporary name is not written into either.
    let dir = fresh(2);
    let part = dir.path().join("2v1.fantb.part");
    mkfifo(&part);
    let d = dir.path().to_path_buf();
    let e = within_deadline(
        move || generate(&d, GenerateOptions::new(3, 1), &|_| {}).err(),
        || {
            let p = part.clone();
            std::thread::spawn(move || {
                let _ = fs::File::open(p);
            });
        },
    );
    assert!(matches!(e, Some(TbError::NotAFile { .. })), "{e:?}");
}

#[test]
fn a_directory_at_a_table_name_is_bad_input() {
    let dir = fresh(3);
    let file = dir.path().join("1v2.fantb");
    fs::remove_file(&file).expect("remove");
    fs::create_dir(&file).expect("mkdir");
    let e = open_err(dir.path());
    assert!(matches!(e, TbError::NotRegular { kind: "a directory", .. }), "{e}");
    assert!(e.is_bad_input(), "{e}");
    let e = generate(dir.path(), GenerateOptions::new(3, 1), &|_| {}).err();
    assert!(e.as_ref().is_some_and(TbError::is_bad_input), "{e:?}");
    assert!(file.is_dir());
}

#[test]
fn an_out_that_is_not_a_directory_is_refused_and_kept() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("tables");
    fs::write(&file, b"mine").expect("write");
    let e = generate(&file, GenerateOptions::new(2, 1), &|_| {}).err();
    assert!(matches!(e, Some(TbError::NotADirectory { .. })), "{e:?}");
    assert!(e.is_some_and(|e| e.is_bad_input()));
    assert_eq!(fs::read(&file).expect("read"), b"mine");
    // A symlink to a directory is the directory.
    #[cfg(unix)]
    {
        let real = dir.path().join("real");
        fs::create_dir(&real).expect("mkdir");
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).expect("symlink");
        generate(&link, GenerateOptions::new(2, 1), &|_| {}).expect("generate");
        assert!(real.join("1v1.fantb").is_file());
    }
}

#[test]
fn more_threads_than_the_system_allows_are_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let (limit, _) = fanorona_tb::thread_limit();
    assert!(limit <= fanorona_tb::MAX_THREADS);
    let e = generate(&out, GenerateOptions::new(2, limit + 1), &|_| {}).err();
    assert!(matches!(e, Some(TbError::TooManyThreads { .. })), "{e:?}");
    let e = e.expect("refused");
    assert!(e.is_bad_input());
    assert!(e.to_string().contains(&format!("more than the {limit}")), "{e}");
    assert!(!out.exists());
}
