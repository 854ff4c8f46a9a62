//! The engine with endgame tables: it converts won table positions and never loses drawn ones,
//! against itself and against a plain search; tables change nothing above their stones.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use fanorona_core::{Bitboard, Color, DrawRules, Game, Position};
use fanorona_engine::eval::Material;
use fanorona_engine::score::forced;
use fanorona_engine::tablebase::open_shared;
use fanorona_engine::{Limits, Player, PlayerSpec, SearchRoot, Searcher};
use fanorona_tb::{GenerateOptions, Value, Wdl, generate};

const STONES: u32 = 4;

fn tables() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().expect("temp dir");
        generate(dir.path(), GenerateOptions::new(STONES, 2), &|_| {}).expect("generate");
        dir
    })
    .path()
}

fn player(spec: &str) -> Box<dyn Player> {
    let spec: PlayerSpec = spec.parse().unwrap_or_else(|e| panic!("{spec}: {e}"));
    spec.build(1).unwrap_or_else(|e| panic!("{spec}: {e}"))
}

fn with_tables(depth: u32) -> Box<dyn Player> {
    player(&format!("alphabeta:depth={depth},eval=material,tb={}", tables().display()))
}

/// Random table positions with a legal turn, White to move.
fn positions(n: usize, seed: u64) -> Vec<Position> {
    let mut rng = fanorona_core::Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let stones = 3 + rng.below(u64::from(STONES - 2)) as u32;
        let white_count = 1 + rng.below(u64::from(stones - 1)) as u32;
        let (mut white, mut black) = (Bitboard::EMPTY, Bitboard::EMPTY);
        while white.count() < white_count || black.count() < stones - white_count {
            let p = fanorona_core::Point::ALL[rng.below(45) as usize];
            if (white | black).contains(p) {
                continue;
            }
            if white.count() < white_count { white = white.with(p) } else { black = black.with(p) }
        }
        let pos = Position::from_stones(white, black, Color::White).expect("valid");
        if !pos.is_game_over() {
            out.push(pos);
        }
    }
    out
}

fn play(start: Position, white: &mut dyn Player, black: &mut dyn Player) -> Option<Color> {
    let rules = DrawRules { max_quiet_plies: DrawRules::DEFAULT_MAX_QUIET_PLIES, max_plies: 0 };
    let mut game = Game::new(start, rules);
    white.new_game();
    black.new_game();
    while game.outcome().is_none() {
        let mover: &mut dyn Player = if game.position().turn() == Color::White { white } else { black };
        let d = mover.choose(&game);
        game.play(&d.mv).expect("legal turn");
    }
    game.outcome().and_then(|o| o.winner)
}

/// The value of `pos` for White under the no-progress rule, as the tables' best turn has it.
fn expected(pos: &Position) -> Wdl {
    let tb = open_shared(tables()).expect("tables");
    let best = tb.best_moves(pos, 0, DrawRules::DEFAULT_MAX_QUIET_PLIES).expect("covered");
    best.first().map_or(Wdl::Loss, |m| m.rule_value.wdl())
}

fn result_for_white(winner: Option<Color>) -> Wdl {
    match winner {
        Some(Color::White) => Wdl::Win,
        None => Wdl::Draw,
        Some(Color::Black) => Wdl::Loss,
    }
}

#[test]
fn perfect_play_against_itself_reaches_the_table_result() {
    for pos in positions(40, 7) {
        let want = expected(&pos);
        let got = result_for_white(play(pos, &mut *with_tables(1), &mut *with_tables(1)));
        assert_eq!(got, want, "{pos}");
    }
}

#[test]
fn against_a_plain_search_it_wins_won_and_holds_drawn_positions() {
    let mut seen = [0; 3];
    for pos in positions(40, 11) {
        let want = expected(&pos);
        seen[want as usize] += 1;
        // The tables play White, a depth-3 search without them Black.
        let got = result_for_white(play(
            pos,
            &mut *with_tables(1),
            &mut *player("alphabeta:depth=3,eval=material"),
        ));
        assert!(got >= want, "{pos}: expected at least {want}, got {got}");
        // And the other way round: the plain search as White never does better than the table.
        let got = result_for_white(play(
            pos,
            &mut *player("alphabeta:depth=3,eval=material"),
            &mut *with_tables(1),
        ));
        assert!(got <= want, "{pos}: expected at most {want}, got {got}");
    }
    assert!(seen.iter().filter(|&&n| n > 0).count() >= 2, "{seen:?}");
}

#[test]
fn the_search_scores_table_positions_exactly() {
    let tb = open_shared(tables()).expect("tables");
    let mut searcher = Searcher::new(Box::new(Material), 1);
    searcher.set_tablebase(Some(Arc::clone(&tb)));
    for pos in positions(30, 3) {
        let r = searcher.search(
            &SearchRoot::new(pos),
            Limits::depth(2),
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        let v = tb.probe(&pos).expect("covered").under_quiet_rule(0, DrawRules::DEFAULT_MAX_QUIET_PLIES);
        match (v, forced(r.score)) {
            (Value::Draw, None) => assert_eq!(r.score, 0, "{pos}"),
            (Value::Win(_), Some((true, _))) | (Value::Loss(_), Some((false, _))) => {}
            _ => panic!("{pos}: table {v}, search score {}", r.score),
        }
        assert_eq!(r.nodes, 0, "a table root is answered from the tables");
    }
    // Above the tables' stones the search runs as usual, probing where captures lead.
    let five: Position = "9/9/1B5B1/3B5/W1W6 w".parse().expect("position");
    let r = searcher.search(
        &SearchRoot::new(five),
        Limits::depth(3),
        Arc::new(AtomicBool::new(false)),
        &mut |_| {},
    );
    assert!(r.nodes > 0 && r.best.is_some());
}
