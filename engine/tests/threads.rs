//! The search on several threads sharing the table: right answers, every limit obeyed, and one
//! thread exactly as before.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use fanorona_core::Position;
use fanorona_engine::eval::Material;
use fanorona_engine::score::forced;
use fanorona_engine::{Limits, SearchResult, SearchRoot, Searcher};

fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn searcher(threads: usize) -> Searcher {
    let mut s = Searcher::new(Box::new(Material), 16);
    s.set_threads(threads);
    s
}

fn run(s: &mut Searcher, p: &Position, limits: Limits) -> SearchResult {
    s.search(&SearchRoot::new(*p), limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
}

#[test]
fn two_threads_find_the_only_win() {
    // Only withdrawing c3 to c4 (taking c2) wins, in 5 turns.
    let p = pos("2BW5/8W/2W6/2B6/9 w");
    let mut s = searcher(2);
    assert_eq!(s.threads(), 2);
    for _ in 0..3 {
        let r = run(&mut s, &p, Limits::depth(6));
        assert_eq!(r.best.map(|m| m.to_string()).as_deref(), Some("c3c4-"));
        assert_eq!(forced(r.score), Some((true, 5)), "score {}", r.score);
        s.clear();
    }
}

#[test]
fn every_limit_ends_a_search_on_two_threads() {
    let p = Position::start();
    let mut s = searcher(2);
    let mut infos = Vec::new();
    let r = s.search(&SearchRoot::new(p), Limits::depth(5), Arc::new(AtomicBool::new(false)), &mut |i| {
        infos.push(i.depth)
    });
    assert_eq!((r.depth, infos), (5, vec![1, 2, 3, 4, 5]));
    assert!(r.nodes > 0 && r.pv.first() == r.best.as_ref());
    for limits in [Limits::nodes(50_000), Limits::movetime(Duration::from_millis(50))] {
        let r = run(&mut s, &p, limits);
        let best = r.best.unwrap_or_else(|| panic!("{limits:?}: no turn"));
        assert!(p.legal_moves().contains(&best), "{limits:?}: {best}");
        assert!(r.depth >= 1, "{limits:?}");
    }
    // A raised stop flag is obeyed by every thread: the search returns.
    let r = s.search(&SearchRoot::new(p), Limits::default(), Arc::new(AtomicBool::new(true)), &mut |_| {});
    assert!(r.best.is_some());
}

#[test]
fn back_on_one_thread_a_cleared_searcher_is_deterministic_again() {
    let p = pos("BBBBBB1BB/BBBBB1BBB/B5WBW/WWW1W1WWW/WW2WW1WW w");
    let fresh = run(&mut searcher(1), &p, Limits::depth(6));
    let mut s = searcher(2);
    run(&mut s, &p, Limits::depth(6));
    s.set_threads(1);
    s.clear();
    let again = run(&mut s, &p, Limits::depth(6));
    assert_eq!(
        (again.best, again.score, again.nodes, again.pv),
        (fresh.best, fresh.score, fresh.nodes, fresh.pv)
    );
}
