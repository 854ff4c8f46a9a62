//! Adjudication and time controls through whole matches.

#![allow(clippy::unwrap_used)] // test helpers: a failure is the test failing

use fanorona_data::Ending;
use fanorona_eval::{EngineSpec, MatchConfig, run_match};

fn spec(text: &str) -> EngineSpec {
    text.parse().unwrap()
}

#[test]
fn adjudicated_matches_do_not_depend_on_the_thread_count() {
    let mut c = MatchConfig::new(spec("alphabeta:depth=3,eval=material"), spec("alphabeta:depth=1"), 16);
    c.adjudication.resign = Some("movecount=3 score=400".parse().unwrap());
    c.adjudication.draw = Some("movenumber=20 movecount=4 score=0".parse().unwrap());
    c.keep_records = true;
    let one = run_match(&c, &mut |_| {}).unwrap();
    c.concurrency = 4;
    let four = run_match(&c, &mut |_| {}).unwrap();
    assert_eq!(one.records, four.records);
    assert_eq!(one.terminations, four.terminations);
    let resigned = one.terminations.get("resign adjudication").copied().unwrap_or(0);
    assert!(resigned > 0, "{:?}", one.terminations);
    // Every resignation is the losing side's: three turns in a row at -4 stones or worse.
    for r in one.records.iter().filter(|r| r.outcome.termination == Ending::ResignAdjudication) {
        let loser = r.outcome.winner.unwrap().other();
        let mine: Vec<i32> = r
            .turns
            .iter()
            .enumerate()
            .filter(|(i, _)| (r.start.turn() == loser) == (i % 2 == 0))
            .filter_map(|(_, t)| t.info.score)
            .collect();
        assert!(mine.len() >= 3 && mine[mine.len() - 3..].iter().all(|&s| s <= -400), "{mine:?}");
    }
    // Without the rules the same games run longer.
    let mut plain = c.clone();
    plain.adjudication = Default::default();
    let p = run_match(&plain, &mut |_| {}).unwrap();
    let plies = |r: &fanorona_eval::MatchReport| r.records.iter().map(|g| g.len()).sum::<usize>();
    assert!(plies(&p) > plies(&one), "{} <= {}", plies(&p), plies(&one));
}

#[test]
fn in_process_players_play_under_a_clock() {
    let mut c = MatchConfig::new(
        spec("alphabeta:eval=handcrafted;tc=20/0.6+0.01;name=clocked"),
        spec("alphabeta:depth=1;st=1;name=st"), // depth 1, at most 1 s
        2,
    );
    c.rules.max_plies = 60;
    c.keep_records = true;
    let r = run_match(&c, &mut |_| {}).unwrap();
    assert_eq!(r.games, 2);
    assert!(r.faults.is_empty(), "{:?}", r.faults);
    // The clocked player searched deeper than depth 1 on some turn: its limits are the clock's.
    let deep = r.records.iter().flat_map(|g| &g.turns).filter_map(|t| t.info.depth).max().unwrap();
    assert!(deep > 1, "{deep}");
    // Both are time-limited (a clock, `st`): every turn's processor time is measured, by
    // engine (each plays one game as White and one as Black); the scheduler's figures advance
    // a tick at a time, so a turn may read up to a tick more than its wall time.
    if fanorona_engine::thread_time::thread_cpu_time().is_some() {
        let turns: usize = r.records.iter().map(|g| g.len()).sum();
        assert_eq!((r.cpu[0].turns + r.cpu[1].turns) as usize, turns);
        for s in r.cpu {
            assert!(s.turns > 0 && s.wall_us > 0 && s.cpu_us <= s.wall_us + 10_000 * s.turns, "{s:?}");
        }
    }
}
