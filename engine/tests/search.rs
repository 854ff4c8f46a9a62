//! The search on hand-built positions: forced wins, with and without the transposition table,
//! legality and determinism.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use fanorona_core::Rng;
use fanorona_core::{DrawRules, Game, Position};
use fanorona_engine::eval::{Handcrafted, Material};
use fanorona_engine::score::{forced, win_in};
use fanorona_engine::{Evaluator, Limits, SearchResult, SearchRoot, Searcher};
use proptest::prelude::*;

fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn search_with(p: &Position, limits: Limits, hash: usize, eval: Box<dyn Evaluator>) -> SearchResult {
    let mut s = Searcher::new(eval, hash);
    s.search(&SearchRoot::new(*p), limits, Arc::new(AtomicBool::new(false)), &mut |_| {})
}

fn search(p: &Position, depth: u32, hash: usize) -> SearchResult {
    search_with(p, Limits::depth(depth), hash, Box::new(Material))
}

fn best(r: &SearchResult) -> String {
    r.best.map(|m| m.to_string()).unwrap_or_default()
}

#[test]
fn capture_chain_takes_every_enemy_stone() {
    // a1b1+ takes c1, b1b2+ takes b3, b2c2+ takes d2: Black has nothing left.
    let p = pos("9/9/1B7/3B5/W1B6 w");
    for hash in [0, 16] {
        let r = search(&p, 4, hash);
        assert_eq!(best(&r), "a1b1+,b1b2+,b2c2+");
        assert_eq!(r.score, win_in(1));
        assert_eq!(r.depth, 1, "a win in one turn ends the deepening");
    }
}

#[test]
fn the_only_winning_turn_is_a_withdrawal() {
    // Approaches exist, but only withdrawing c3 to c4 (taking c2) wins, in 5 turns.
    let p = pos("2BW5/8W/2W6/2B6/9 w");
    let approaches = p.legal_moves().iter().filter(|m| m.to_string().ends_with('+')).count();
    assert!(approaches > 0);
    for hash in [0, 16] {
        let r = search(&p, 6, hash);
        assert_eq!(best(&r), "c3c4-");
        assert_eq!(forced(r.score), Some((true, 5)), "score {}", r.score);
    }
    // A chain of two withdrawals is the only win here.
    let p = pos("8B/7B1/2W6/2W4W1/1B6B w");
    let r = search(&p, 6, 16);
    assert_eq!(best(&r), "h2g3-,g3f2-");
    assert!(forced(r.score).is_some_and(|(win, _)| win), "score {}", r.score);
}

#[test]
fn blocking_every_enemy_stone_wins() {
    // c4c5 is a quiet turn that leaves Black's a5 and b5 without a step: Black loses.
    let p = pos("BB7/WWW6/WWW6/9/9 w");
    assert!(!p.has_capture());
    for hash in [0, 16] {
        let r = search(&p, 3, hash);
        assert_eq!(best(&r), "c4c5");
        assert_eq!(r.score, win_in(1));
    }
    let mut after = p;
    after.play_unchecked(&p.parse_move("c4c5").unwrap());
    assert!(after.is_game_over() && after.us().any());
    let r = search(&after, 3, 16);
    assert_eq!(r.best, None);
}

#[test]
fn same_result_with_and_without_the_table() {
    for (text, depth) in [
        ("9/9/1B7/3B5/W1B6 w", 5),
        ("2BW5/8W/2W6/2B6/9 w", 7),
        ("BB7/WWW6/WWW6/9/9 w", 5),
        ("9/9/W1BB5 w", 3),
    ] {
        let Ok(p) = text.parse::<Position>() else { continue };
        let (a, b) = (search(&p, depth, 0), search(&p, depth, 16));
        assert_eq!((best(&a), a.score), (best(&b), b.score), "{text}");
    }
}

#[test]
fn depth_and_node_limited_searches_are_deterministic() {
    let p = pos("1BBB1BBBB/B2B1BB1B/3BW1WB1/WW1W2WWW/WW4WWW w");
    for limits in [Limits::depth(5), Limits::nodes(20_000)] {
        let a = search_with(&p, limits, 16, Box::new(Handcrafted::default()));
        let b = search_with(&p, limits, 16, Box::new(Handcrafted::default()));
        assert_eq!((a.best, a.score, a.depth, a.nodes, &a.pv), (b.best, b.score, b.depth, b.nodes, &b.pv));
        if let Some(n) = limits.nodes {
            assert!(a.nodes <= n);
        }
    }
}

#[test]
fn no_progress_limit_is_a_draw_in_the_search() {
    // Two stones against one, far apart: a stone up, unless the next quiet turn reaches the
    // no-progress limit.
    let p = pos("B8/9/9/9/7WW w");
    let run = |root: &SearchRoot| {
        let mut s = Searcher::new(Box::new(Material), 1);
        s.search(root, Limits::depth(3), Arc::new(AtomicBool::new(false)), &mut |_| {})
    };
    assert_eq!(run(&SearchRoot::new(p)).score, 100);
    let mut root = SearchRoot::new(p);
    root.quiet = DrawRules::DEFAULT_MAX_QUIET_PLIES - 1;
    assert_eq!(run(&root).score, 0);
    // The same through a game's history.
    let mut g = Game::new(p, DrawRules { max_quiet_plies: 3, max_plies: 0 });
    for t in ["i1i2", "a5a4"] {
        let m = g.position().parse_move(t).unwrap();
        g.play(&m).unwrap();
    }
    assert_eq!(run(&SearchRoot::from_game(&g)).score, 0);
}

/// A position reached by `plies` random turns from the start.
fn random_position(seed: u64, plies: usize) -> Game {
    let mut rng = Rng::new(seed);
    let mut g = Game::new(Position::start(), DrawRules::default());
    while g.ply() < plies && g.outcome().is_none() {
        let l = g.legal_moves();
        g.play_unchecked(&l[rng.below(l.len() as u64) as usize]);
    }
    g
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]
    #[test]
    fn never_returns_an_illegal_turn(seed in any::<u64>(), plies in 0usize..60, depth in 1u32..4) {
        let g = random_position(seed, plies);
        let p = *g.position();
        let mut s = Searcher::new(Box::new(Handcrafted::default()), 1);
        let limits = Limits { depth: Some(depth), nodes: Some(20_000), movetime: None };
        let r = s.search(&SearchRoot::from_game(&g), limits, Arc::new(AtomicBool::new(false)), &mut |_| {});
        let legal = p.legal_moves();
        match r.best {
            None => prop_assert!(legal.is_empty()),
            Some(m) => {
                prop_assert!(legal.iter().any(|l| *l == m && l.captured() == m.captured()));
                prop_assert_eq!(r.pv.first(), Some(&m));
                // The whole principal variation is playable.
                let mut q = p;
                for t in &r.pv {
                    let next = q.play(t);
                    prop_assert!(next.is_ok(), "pv turn {} illegal in {}", t, q);
                    q = next.unwrap_or(q);
                }
            }
        }
    }
}

#[test]
fn a_raised_stop_flag_or_a_time_limit_still_gives_a_legal_turn() {
    let p = pos("1BBB1BBBB/B2B1BB1B/3BW1WB1/WW1W2WWW/WW4WWW w");
    let legal = p.legal_moves();
    let mut s = Searcher::new(Box::new(Material), 1);
    // Raised before it starts (and no limit at all): it stops at its first look at the flag.
    let stop = Arc::new(AtomicBool::new(true));
    let r = s.search(&SearchRoot::new(p), Limits::default(), stop, &mut |_| {});
    assert!(r.best.is_some_and(|m| legal.contains(&m)));
    let r = s.search(
        &SearchRoot::new(p),
        Limits::movetime(std::time::Duration::from_millis(30)),
        Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    assert!(r.best.is_some_and(|m| legal.contains(&m)));
}

#[test]
fn root_scores_cover_every_turn_best_first() {
    let p = pos("1BBB1BBBB/B2B1BB1B/3BW1WB1/WW1W2WWW/WW4WWW w");
    let r = search_with(&p, Limits::depth(3), 16, Box::new(Handcrafted::default()));
    let legal = p.legal_moves();
    assert_eq!(r.root.len(), legal.len());
    assert_eq!(Some(r.root[0].0), r.best);
    assert_eq!(r.root[0].1, r.score);
    // The others are exact scores or upper bounds, never above the best.
    assert!(r.root.iter().all(|(m, s)| legal.contains(m) && *s <= r.score));
}

#[test]
fn the_first_iteration_completes_under_any_node_or_time_limit() {
    // The start position's first iteration alone takes thousands of nodes (its capture
    // quiescence); a tiny budget must still give a scored depth-1 result, not a lost-game
    // score from an empty search (self-play records that score as a training label).
    let p = Position::start();
    let full = search_with(&p, Limits::depth(1), 16, Box::new(Handcrafted::default()));
    assert!(full.nodes > 100, "{}", full.nodes);
    for limits in [Limits::nodes(1), Limits::nodes(100), Limits::movetime(std::time::Duration::from_nanos(1))]
    {
        let r = search_with(&p, limits, 16, Box::new(Handcrafted::default()));
        assert_eq!(r.depth, 1, "{limits:?}");
        assert_eq!((r.best, r.score), (full.best, full.score), "{limits:?}");
        assert!(forced(r.score).is_none(), "{limits:?}: score {}", r.score);
    }
}

#[test]
fn a_narrow_quiescence_search_evaluates_fewer_leaves() {
    let narrow_search = |p: &Position, width: usize| {
        let mut s = Searcher::new(Box::new(Handcrafted::default()), 16);
        s.set_quiescence_width(width);
        s.search(&SearchRoot::new(*p), Limits::depth(5), Arc::new(AtomicBool::new(false)), &mut |_| {})
    };
    for text in [
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
        "1BBB1BBBB/B2B1BB1B/3BW1WB1/WW1W2WWW/WW4WWW w",
        "2B1BBBB1/7B1/8W/4B3W/WW1W4W w",
    ] {
        let p = pos(text);
        let every = narrow_search(&p, 0);
        // A width no node reaches is every capture: the same search, node for node.
        let wide = narrow_search(&p, usize::MAX);
        assert_eq!(
            (every.best, every.score, every.nodes, &every.pv),
            (wide.best, wide.score, wide.nodes, &wide.pv)
        );
        let narrow = narrow_search(&p, 1);
        assert!(narrow.nodes < every.nodes, "{text}: {} nodes against {}", narrow.nodes, every.nodes);
        let best = narrow.best.unwrap_or_else(|| panic!("{text}: no turn"));
        assert!(p.legal_moves().contains(&best), "{text}: {best}");
    }
}

/// The network evaluator with its table of recent evaluations bypassed: every score computed.
struct Uncached(fanorona_engine::eval::NetEvaluator);

impl Evaluator for Uncached {
    fn name(&self) -> String {
        self.0.name()
    }
    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.0.score(pos)
    }
    fn set_root(&mut self, pos: &Position) {
        self.0.set_root(pos);
    }
    fn make(&mut self, pos: &Position, turn: &fanorona_core::Turn) {
        self.0.make(pos, turn);
    }
    fn unmake(&mut self) {
        self.0.unmake();
    }
    fn box_clone(&self) -> Box<dyn Evaluator> {
        Box::new(Uncached(self.0.clone()))
    }
}

#[test]
fn the_network_s_table_of_evaluations_changes_no_search() {
    let net = Arc::new(fanorona_nn::bench_network().unwrap());
    let evaluator = || fanorona_engine::eval::NetEvaluator::new(Arc::clone(&net), "net").unwrap();
    for (s, depth) in [
        ("BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w", 5),
        ("1BBB1BBBB/B2B1BB1B/3BW1WB1/WW1W2WWW/WW4WWW w", 6),
        ("2B1BBBB1/7B1/8W/4B3W/WW1W4W w", 7),
    ] {
        let p = pos(s);
        let cached = search_with(&p, Limits::depth(depth), 16, Box::new(evaluator()));
        let computed = search_with(&p, Limits::depth(depth), 16, Box::new(Uncached(evaluator())));
        assert_eq!(
            (cached.nodes, cached.score, best(&cached)),
            (computed.nodes, computed.score, best(&computed)),
            "{s}"
        );
        assert!(cached.nodes > 1000, "{s}: {}", cached.nodes);
    }
}
