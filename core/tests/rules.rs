//! One hand-built position per rule of RULES.md, each checked against turns worked out by hand
//! (the reasoning is in the comments).

use fanorona_core::{Color, DrawRules, Game, Outcome, Point, Position, Termination};

fn pos(s: &str) -> Position {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// The legal turns in notation, sorted.
fn turns(p: &Position) -> Vec<String> {
    let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    assert_eq!(v.len() as u64, p.count_moves(), "count_moves agrees with generation");
    v
}

fn captured(p: &Position, turn: &str) -> Vec<Point> {
    let m = p.parse_move(turn).unwrap_or_else(|e| panic!("{turn}: {e}"));
    m.captured().into_iter().collect()
}

#[test]
fn approach_run_stops_at_an_empty_point() {
    // a1 W; c1 d1 B; e1 empty. a1b1 approaches c1 and removes c1, d1 (stops at empty e1).
    // a1a2 / a1b2 capture nothing; a paika move is not allowed while a1b1+ exists.
    // From b1 (weak) the chain could go on only north (b2): nothing to capture there.
    let p = pos("9/9/9/9/W1BB5 w");
    assert_eq!(turns(&p), ["a1b1+"]);
    assert_eq!(captured(&p, "a1b1+"), [Point::C1, Point::D1]);
}

#[test]
fn runs_stop_at_a_friendly_stone_and_withdrawal() {
    // a1 W, c1 d1 B, e1 W. a1b1+ removes c1, d1 (e1 is White: the run stops);
    // e1f1- withdraws from d1 and removes d1, c1 (b1 empty: the run stops).
    let p = pos("9/9/9/9/W1BBW4 w");
    assert_eq!(turns(&p), ["a1b1+", "e1f1-"]);
    assert_eq!(captured(&p, "a1b1+"), [Point::C1, Point::D1]);
    assert_eq!(captured(&p, "e1f1-"), [Point::C1, Point::D1]);
}

#[test]
fn approach_run_stops_at_the_edge_and_along_a_diagonal() {
    // e1 W; g1 h1 i1 B: e1f1+ removes all three up to the edge.
    let p = pos("9/9/9/9/4W1BBB w");
    assert_eq!(turns(&p), ["e1f1+"]);
    assert_eq!(captured(&p, "e1f1+"), [Point::G1, Point::H1, Point::I1]);
    // a1 W; c3 d4 e5 B on the long diagonal: a1b2+ removes the three up to the edge.
    let p = pos("4B4/3B5/2B6/9/W8 w");
    assert_eq!(turns(&p), ["a1b2+"]);
    assert_eq!(captured(&p, "a1b2+"), [Point::C3, Point::D4, Point::E5]);
}

#[test]
fn approach_and_withdrawal_on_one_step_are_two_turns() {
    // a1 B, b1 W, d1 B. b1c1 approaches d1 (+) or withdraws from a1 (-): two different turns,
    // each removing only its own line. Neither chain can continue from c1.
    let p = pos("9/9/9/9/BW1B5 w");
    assert_eq!(turns(&p), ["b1c1+", "b1c1-"]);
    assert_eq!(captured(&p, "b1c1+"), [Point::D1]);
    assert_eq!(captured(&p, "b1c1-"), [Point::A1]);
}

#[test]
fn diagonal_steps_only_from_strong_points() {
    // b1 is weak (1+0 odd): no diagonal, so b1c2 (which would approach d3) does not exist and
    // White has only the three paika moves north, east and west.
    let p = pos("9/9/3B5/9/1W7 w");
    assert_eq!(turns(&p), ["b1a1", "b1b2", "b1c1"]);
    // c1 is strong (2+0 even): c1d2 approaches e3, a compulsory capture.
    let p = pos("9/9/4B4/9/2W6 w");
    assert_eq!(turns(&p), ["c1d2+"]);
}

#[test]
fn a_chain_never_steps_twice_in_a_row_in_one_direction() {
    // a1 B, b1 W, e1 B. b1c1- withdraws from a1. Going on east (c1d1) would approach e1, but
    // that repeats the direction; c1's other steps (c2, d2, b2) capture nothing and b1 is
    // visited. So the only turn is b1c1-.
    let p = pos("9/9/9/9/BW2B4 w");
    assert_eq!(turns(&p), ["b1c1-"]);
}

#[test]
fn a_chain_never_revisits_a_point_including_its_start() {
    // White b2 (strong); Black a2, a3, c3.
    // b2c2- (withdraw from a2), then c2c1- (withdraw from c3); from c1 the step to b2 would
    //   approach a3 but b2 is the start: stop. -> b2c2-, b2c2-,c2c1-
    // b2c1- (withdraw from a3), then c1c2+ (approach c3); from c2 the step to b2 would approach
    //   a2 but b2 is the start. -> b2c1-, b2c1-,c1c2+
    // b2a1- (withdraw from c3); from a1 nothing captures. -> b2a1-
    let p = pos("9/9/B1B6/BW7/9 w");
    assert_eq!(turns(&p), ["b2a1-", "b2c1-", "b2c1-,c1c2+", "b2c2-", "b2c2-,c2c1-"]);
}

#[test]
fn stopping_early_is_a_turn_of_its_own() {
    // The chain b2c2-,c2c1- above: stopping after the first capture is legal too, and the two
    // turns leave different boards.
    let p = pos("9/9/B1B6/BW7/9 w");
    let short = p.play(&p.parse_move("b2c2-").unwrap()).unwrap();
    let long = p.play(&p.parse_move("b2c2-,c2c1-").unwrap()).unwrap();
    assert_eq!(short.stones(Color::Black).count(), 2);
    assert_eq!(long.stones(Color::Black).count(), 1);
    assert_eq!(short.color_at(Point::C2), Some(Color::White));
    assert_eq!(long.color_at(Point::C1), Some(Color::White));
}

#[test]
fn paika_is_forbidden_while_any_capture_exists() {
    // a1 W can capture c1 by approach; i1 W could make three paika moves, a1 two more.
    // Capturing is compulsory, so only a1b1+ is legal.
    let p = pos("9/9/9/9/W1B5W w");
    assert_eq!(turns(&p), ["a1b1+"]);
    let e = p.parse_move("i1h1").unwrap_err();
    assert!(e.to_string().contains("compulsory"), "{e}");
}

#[test]
fn a_side_with_stones_but_no_legal_turn_loses() {
    // White a1 is walled in by Black a2, b1, b2 and cannot capture anything: no legal turn.
    let p = pos("9/9/9/BB7/WB7 w");
    assert_eq!(p.count_moves(), 0);
    assert!(p.is_game_over());
    let g = Game::new(p, DrawRules::default());
    assert_eq!(g.outcome(), Some(Outcome { winner: Some(Color::Black), termination: Termination::NoMoves }));
}

#[test]
fn capturing_the_last_stone_wins() {
    let p = pos("9/9/9/9/W1B6 w");
    let mut g = Game::new(p, DrawRules::default());
    let m = p.parse_move("a1b1+").unwrap();
    g.play(&m).unwrap();
    assert_eq!(g.position().stones(Color::Black).count(), 0);
    assert_eq!(
        g.outcome(),
        Some(Outcome { winner: Some(Color::White), termination: Termination::AllCaptured })
    );
    assert_eq!(g.position().count_moves(), 0);
}
