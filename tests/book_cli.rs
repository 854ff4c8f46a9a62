//! `fanorona book build` and `show`, and books used by engines and matches, driven as a user
//! would: a book from self-play games, its turns played by `book=FILE`, `fanorona engine
//! --book` and `setoption name OwnBook`, its lines as match openings; damaged, foreign and
//! special files refused with exit 2.

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn fanorona(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fanorona"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fanorona");
    if let Err(e) = child.stdin.take().unwrap().write_all(stdin.as_bytes()) {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "{e}");
    }
    child.wait_with_output().unwrap()
}

fn ok(args: &[&str]) -> String {
    let o = fanorona(args, "");
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn bad(args: &[&str]) -> String {
    let o = fanorona(args, "");
    assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// A two-game match of depth-1 searches from `openings`, its JSON report.
fn match_from(openings: &str) -> serde_json::Value {
    let args =
        ["eval", "-e", "alphabeta:depth=1", "-e", "alphabeta:depth=1", "-n", "2", "--openings", openings];
    serde_json::from_str(ok(&[&args[..], &["--seed", "1", "--json"]].concat()).trim()).unwrap()
}

/// The same match refused (exit 2): its message.
fn refused_match_from(openings: &str) -> String {
    bad(&["eval", "-e", "alphabeta:depth=1", "-e", "random", "-n", "2", "--openings", openings])
}

/// 300 self-play games at depth 1 from the start position, their first 6 turns explored (so
/// lines repeat and branch), and a book of them.
fn book(dir: &Path) -> (PathBuf, PathBuf) {
    let games = dir.join("games.bin");
    let book = dir.join("book.fbk");
    ok(&[
        "selfplay",
        "-n",
        "300",
        "-o",
        s(&games),
        "--white",
        "alphabeta:depth=1",
        "--black",
        "alphabeta:depth=1",
        "--random-plies",
        "0",
        "--explore-plies",
        "6",
        "--temperature",
        "200",
        "--seed",
        "3",
        "-q",
    ]);
    let v: serde_json::Value = serde_json::from_str(
        ok(&["book", "build", s(&games), "-o", s(&book), "--plies", "8", "--min-games", "3", "--json"])
            .trim(),
    )
    .unwrap();
    assert_eq!(v["games"], 300);
    assert_eq!(v["min_games"], 3);
    assert!(v["entries"].as_u64().unwrap() >= 10, "{v}");
    assert!(v["positions"].as_u64().unwrap() >= 3, "{v}");
    (games, book)
}

/// The turn the book plays at the start and every start turn's games.
fn start_turns(book: &Path) -> (String, u64) {
    let v: serde_json::Value = serde_json::from_str(ok(&["book", "show", s(book), "--json"]).trim()).unwrap();
    let turns = v["turns"].as_array().unwrap();
    let played: Vec<_> = turns.iter().filter(|t| t["played"] == true).collect();
    assert_eq!(played.len(), 1, "{v}");
    let games = turns.iter().map(|t| t["games"].as_u64().unwrap()).sum();
    (played[0]["turn"].as_str().unwrap().to_string(), games)
}

#[test]
fn a_book_built_from_games_is_played_by_engines_and_matches() {
    let dir = tempfile::tempdir().unwrap();
    let (_, book) = book(dir.path());
    let (turn, games) = start_turns(&book);
    // Every game went through the start position; turns played fewer than 3 times are left out.
    assert!(games <= 300 && games > 250, "{games}");
    let text = ok(&["book", "show", s(&book)]);
    assert!(text.contains(&format!("* {turn}")), "{text}");

    // `fanorona engine --book` answers from the book without searching; with OwnBook off it
    // searches.
    let session = "fep\nposition startpos\ngo depth 1\nquit\n";
    let o = fanorona(&["engine", "--book", s(&book)], session);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{o:?}");
    assert!(out.contains("option name OwnBook type check default true"), "{out}");
    assert!(out.contains("info string book") && out.contains(&format!("bestmove {turn}")), "{out}");
    let off = "fep\nsetoption name OwnBook value false\nposition startpos\ngo depth 1\nquit\n";
    let out = String::from_utf8_lossy(&fanorona(&["engine", "--book", s(&book)], off).stdout).into_owned();
    assert!(!out.contains("info string book") && out.contains("bestmove "), "{out}");
    let set = format!(
        "fep\nsetoption name BookFile value {}\nsetoption name OwnBook value true\nposition startpos\ngo depth 1\nquit\n",
        s(&book)
    );
    let out = String::from_utf8_lossy(&fanorona(&["engine"], &set).stdout).into_owned();
    assert!(out.contains(&format!("bestmove {turn}")), "{out}");

    // `book=FILE` in a spec: a match's first turn from the start position is the book's.
    let m = dir.path().join("m");
    ok(&[
        "eval",
        "-e",
        &format!("alphabeta:depth=1,book={}", s(&book)),
        "-e",
        "alphabeta:depth=1",
        "-n",
        "2",
        "--openings",
        "start",
        "-o",
        s(&m),
        "--seed",
        "1",
        "--json",
    ]);
    let games_file = m.join("games.bin");
    let book_white = (0..2)
        .map(|g| {
            let shown = ok(&["data", "show", s(&games_file), "--game", &g.to_string(), "--json"]);
            serde_json::from_str::<serde_json::Value>(shown.trim()).unwrap()
        })
        .find(|g| g["white"].as_str().unwrap().contains("book="))
        .unwrap();
    assert_eq!(book_white["turns"][0]["turn"].as_str().unwrap(), turn, "{book_white}");

    // The book's lines as openings: positions after 2 turns, White to move again.
    let o = ok(&[
        "eval",
        "-e",
        "alphabeta:depth=1",
        "-e",
        "alphabeta:depth=1",
        "-n",
        "4",
        "--openings",
        &format!("book:{},plies=2", s(&book)),
        "--seed",
        "1",
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_str(o.trim()).unwrap();
    assert!(v["openings"].as_str().unwrap().starts_with("book:"), "{v}");
}

#[test]
fn an_analysed_book_plays_its_best_turn_and_refuses_bad_settings() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("analysed.fbk");
    let run = |threads: &str, out: &Path| {
        let args = [
            "book",
            "analyse",
            "-o",
            s(out),
            "-e",
            "alphabeta:depth=2,eval=material",
            "--plies",
            "3",
            "--width",
            "2",
            "--margin",
            "50",
            "-t",
            threads,
            "--json",
        ];
        serde_json::from_str::<serde_json::Value>(ok(&args).trim()).unwrap()
    };
    let v = run("1", &book);
    assert_eq!(v["truncated"], false);
    let (positions, entries) = (v["positions"].as_u64().unwrap(), v["entries"].as_u64().unwrap());
    assert!((2..=7).contains(&positions) && entries >= positions, "{v}");
    // The same book on two threads, byte for byte.
    let two = dir.path().join("two.fbk");
    let v2 = run("2", &two);
    assert_eq!(
        (&v2["entries"], &v2["positions"], &v2["searches"]),
        (&v["entries"], &v["positions"], &v["searches"])
    );
    assert_eq!(std::fs::read(&book).unwrap(), std::fs::read(&two).unwrap());
    assert_eq!(std::fs::read(&book).unwrap()[8], 2, "format version 2");

    // `book show`: the analysed scores, the best one played.
    let shown: serde_json::Value =
        serde_json::from_str(ok(&["book", "show", s(&book), "--json"]).trim()).unwrap();
    assert_eq!(shown["analysed"], true);
    let turns = shown["turns"].as_array().unwrap();
    let best = turns.iter().map(|t| t["analysed_score"].as_i64().unwrap()).max().unwrap();
    let played: Vec<_> = turns.iter().filter(|t| t["played"] == true).collect();
    assert_eq!(played.len(), 1);
    assert_eq!(played[0]["analysed_score"].as_i64().unwrap(), best);
    let turn = played[0]["turn"].as_str().unwrap().to_string();
    // An engine with the book plays it at once.
    let o = fanorona(&["engine", "--book", s(&book)], "fep\nposition startpos\ngo depth 3\nquit\n");
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("info string book") && out.contains(&format!("bestmove {turn}")), "{out}");

    // Its lines as match openings; its entries count no games, so `min=1` leaves none.
    let v = match_from(&format!("book:{},plies=2", s(&book)));
    assert!(v["openings"].as_str().unwrap().starts_with("book:"), "{v}");
    let e = refused_match_from(&format!("book:{},plies=2,min=1", s(&book)));
    assert!(e.contains("none of the"), "{e}");

    // Bad settings and specs exit 2, naming them; nothing is written.
    let x = dir.path().join("x.fbk");
    let analyse = |extra: &[&str]| {
        let mut args = vec!["book", "analyse", "-o", s(&x), "-e", "alphabeta:depth=1"];
        args.extend_from_slice(extra);
        bad(&args)
    };
    assert!(analyse(&["--plies", "0"]).contains("plies"));
    assert!(analyse(&["--plies", "41"]).contains("plies"));
    assert!(analyse(&["--width", "0"]).contains("width"));
    assert!(analyse(&["--margin", "-5"]).contains("margin"));
    assert!(bad(&["book", "analyse", "-o", s(&x), "-e", "random"]).contains("does not search"));
    assert!(
        bad(&["book", "analyse", "-o", s(&x), "-e", "alphabeta:depth=1,eval=net:/nonexistent.fnet"])
            .contains("nonexistent.fnet")
    );
    assert!(!x.exists() && !dir.path().join("x.fbk.part").exists());
    assert!(bad(&["book", "analyse", "-o", s(&book), "-e", "alphabeta:depth=1"]).contains("exists"));
}

#[test]
fn bad_books_and_build_inputs_exit_2_naming_what_and_where() {
    let dir = tempfile::tempdir().unwrap();
    let (games, book) = book(dir.path());
    // An existing book is not replaced without --force; an input is never the output.
    assert!(bad(&["book", "build", s(&games), "-o", s(&book)]).contains("exists"));
    assert!(bad(&["book", "build", s(&games), "-o", s(&games), "--force"]).contains("also an input"));
    assert!(
        bad(&["book", "build", s(&games), "-o", s(&dir.path().join("x")), "--plies", "0"])
            .contains("--plies")
    );
    // A record file that is not one.
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, b"not a record file").unwrap();
    assert!(bad(&["book", "build", s(&junk), "-o", s(&dir.path().join("y.fbk"))]).contains("junk.bin"));
    assert!(!dir.path().join("y.fbk").exists() && !dir.path().join("y.fbk.part").exists());

    // A damaged book: one flipped byte in the entries.
    let mut bytes = std::fs::read(&book).unwrap();
    bytes[32 + 30] ^= 0x40;
    let damaged = dir.path().join("damaged.fbk");
    std::fs::write(&damaged, &bytes).unwrap();
    let e = bad(&["book", "show", s(&damaged)]);
    assert!(e.contains("damaged.fbk") && e.contains("byte 24"), "{e}");
    // A foreign file, as a book everywhere one is read.
    let foreign = dir.path().join("foreign.fbk");
    std::fs::write(&foreign, b"# a text file, not a book at all\n").unwrap();
    let e = bad(&["book", "show", s(&foreign)]);
    assert!(e.contains("foreign.fbk") && e.contains("byte 0"), "{e}");
    let spec = format!("alphabeta:depth=1,book={}", s(&foreign));
    let e = bad(&["eval", "-e", &spec, "-e", "alphabeta:depth=1", "-n", "2"]);
    assert!(e.contains("foreign.fbk") && e.contains("byte 0"), "{e}");
    let e = refused_match_from(&format!("book:{}", s(&foreign)));
    assert!(e.contains("foreign.fbk") && e.contains("byte 0"), "{e}");
    let e = bad(&["engine", "--book", s(&foreign)]);
    assert!(e.contains("--book") && e.contains("byte 0"), "{e}");
    // A truncated one names where it ends.
    let cut = dir.path().join("cut.fbk");
    std::fs::write(&cut, &bytes[..bytes.len() - 5]).unwrap();
    assert!(bad(&["book", "show", s(&cut)]).contains(&format!("byte {}", bytes.len() - 5)));
    // No opening in the band asked for.
    let e = refused_match_from(&format!("book:{},plies=30", s(&book)));
    assert!(e.contains("none of the"), "{e}");
    let e = refused_match_from(&format!("book:{},score=0.4-0.6", s(&book)));
    assert!(e.contains("score="), "{e}");
}

#[cfg(unix)]
#[test]
fn a_fifo_or_directory_as_a_book_exits_2_unopened() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("book.fifo");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    // Opening the FIFO would wait for a writer forever: the command must refuse it first.
    let e = bad(&["book", "show", s(&fifo)]);
    assert!(e.contains("a FIFO"), "{e}");
    let e = bad(&["engine", "--book", s(dir.path())]);
    assert!(e.contains("a directory"), "{e}");
}

/// Every way a path can be bad is bad input (exit 2), a symlink loop included, through the one
/// path-opening helper every command uses.
#[cfg(unix)]
#[test]
fn a_symlink_loop_is_bad_input_everywhere() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    std::os::unix::fs::symlink(&b, &a).expect("symlink");
    std::os::unix::fs::symlink(&a, &b).expect("symlink");
    let a = a.display().to_string();
    let out = dir.path().join("out.book").display().to_string();
    for args in [
        vec!["book", "show", &a],
        vec!["book", "build", &a, "-o", &out],
        vec!["data", "stats", &a],
        vec!["data", "show", &a],
    ] {
        let o = fanorona(&args, "");
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stderr).contains("symbolic links"), "{args:?}");
    }
}
