//! Re-scoring record files: the same engine gives the same file, another engine changes only
//! the scores, the thread count changes nothing, and bad inputs are refused whole.
#![allow(clippy::unwrap_used)]

use std::path::Path;

use fanorona_data::{Existing, GameRecord, RecordReader};
use fanorona_engine::PlayerSpec;
use fanorona_selfplay::{Exploration, SelfplayConfig, SelfplayError, Start, generate, rescore};

const SPEC: &str = "alphabeta:depth=1,hash=1,eval=handcrafted";

fn games(out: &Path) {
    let c = SelfplayConfig {
        games: 16,
        white: SPEC.parse().unwrap(),
        black: SPEC.parse().unwrap(),
        seed: 5,
        threads: 2,
        random_plies: 2,
        explore_plies: 6,
        exploration: Exploration::Temperature(80.0),
        ..SelfplayConfig::default()
    };
    generate(&c, out, Start::New, &mut |_| ()).unwrap();
}

fn records(path: &Path) -> Vec<GameRecord> {
    RecordReader::open(path).unwrap().map(Result::unwrap).collect()
}

fn spec(text: &str) -> PlayerSpec {
    text.parse().unwrap()
}

#[test]
fn the_engine_that_played_gives_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    let (input, out) = (dir.path().join("in.bin"), dir.path().join("out.bin"));
    games(&input);
    let mut calls = 0;
    let r = rescore(&input, &out, Existing::Refuse, &spec(SPEC), 2, &mut |_| calls += 1).unwrap();
    assert_eq!((r.games, calls), (16, 16));
    let turns: u64 = records(&input).iter().map(|g| g.turns.len() as u64).sum();
    assert_eq!(r.rescored + r.unscored, turns);
    // Two random plies a game carry no score.
    assert_eq!(r.unscored, 32);
    assert_eq!(std::fs::read(&input).unwrap(), std::fs::read(&out).unwrap());
}

#[test]
fn another_engine_changes_only_the_scores_whatever_the_threads() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.bin");
    games(&input);
    let deeper = spec("alphabeta:depth=3,hash=1,eval=material");
    let (a, b) = (dir.path().join("a.bin"), dir.path().join("b.bin"));
    rescore(&input, &a, Existing::Refuse, &deeper, 1, &mut |_| ()).unwrap();
    rescore(&input, &b, Existing::Refuse, &deeper, 3, &mut |_| ()).unwrap();
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
    let (old, new) = (records(&input), records(&a));
    assert_eq!(old.len(), new.len());
    let mut changed = 0;
    for (o, n) in old.iter().zip(&new) {
        assert_eq!((o.index, o.start, &o.outcome), (n.index, n.start, &n.outcome));
        for (to, tn) in o.turns.iter().zip(&n.turns) {
            assert_eq!(
                (to.mv, to.info.exploration, to.info.score.is_some()),
                (tn.mv, tn.info.exploration, tn.info.score.is_some())
            );
            if tn.info.score.is_some() {
                assert!(tn.info.depth.is_some_and(|d| (1..=3).contains(&d)), "{:?}", tn.info);
                changed += usize::from(to.info.score != tn.info.score);
            }
        }
    }
    assert!(changed > 50, "only {changed} scores changed");
    // The header, and with it every game's identity (the trainer's validation split), is kept.
    assert_eq!(RecordReader::open(&input).unwrap().header(), RecordReader::open(&a).unwrap().header());
}

#[test]
fn bad_inputs_are_refused_and_leave_no_output() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.bin");
    games(&input);
    let out = dir.path().join("out.bin");
    // A damaged record: the error names the file, nothing is left behind.
    let mut bytes = std::fs::read(&input).unwrap();
    let n = bytes.len();
    bytes[n - 3] ^= 0x5a;
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, &bytes).unwrap();
    let e = rescore(&bad, &out, Existing::Refuse, &spec(SPEC), 2, &mut |_| ()).unwrap_err();
    assert!(matches!(e, SelfplayError::Data(_)) && e.to_string().contains("bad.bin"), "{e}");
    assert!(!out.exists() && !fanorona_selfplay::part_path(&out).exists());
    // A player that cannot be built; the input as the output; an existing output.
    let e = rescore(
        &input,
        &out,
        Existing::Refuse,
        &spec("alphabeta:depth=1,eval=net:nowhere.fnet"),
        1,
        &mut |_| (),
    )
    .unwrap_err();
    assert!(matches!(e, SelfplayError::Player { .. }), "{e}");
    let e = rescore(&input, &input, Existing::Replace, &spec(SPEC), 1, &mut |_| ()).unwrap_err();
    assert!(e.to_string().contains("is the input and the output"), "{e}");
    std::fs::write(&out, b"keep me").unwrap();
    assert!(rescore(&input, &out, Existing::Refuse, &spec(SPEC), 1, &mut |_| ()).is_err());
    assert_eq!(std::fs::read(&out).unwrap(), b"keep me");
}
