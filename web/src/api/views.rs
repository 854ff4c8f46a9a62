//! JSON views of positions and turns: the board as point lists, each turn with every step and
//! the stones each step captures.

use core::fmt;

use fanorona_core::{Bitboard, CaptureKind, Color, Game, Move, Outcome, Point, Position, neighbor};
use fanorona_data::Ending;
use serde_json::{Value, json};

/// The points of a bitboard, as `["a1", ...]`.
pub fn points(bb: Bitboard) -> Vec<String> {
    Point::ALL.iter().filter(|p| bb.contains(**p)).map(|p| p.to_string()).collect()
}

/// `approach`, `withdrawal` or `paika`.
pub fn kind_name(k: CaptureKind) -> &'static str {
    match k {
        CaptureKind::Paika => "paika",
        CaptureKind::Approach => "approach",
        CaptureKind::Withdrawal => "withdrawal",
    }
}

/// The enemy stones in a line from `start` in direction `d`, up to the first point that is not
/// one of `them`.
fn run(start: Option<Point>, d: fanorona_core::Direction, them: Bitboard) -> Bitboard {
    let mut bb = Bitboard::EMPTY;
    let mut at = start;
    while let Some(p) = at.filter(|p| them.contains(*p)) {
        bb = bb.with(p);
        at = neighbor(p, d);
    }
    bb
}

/// Every step of `m` (legal in `pos`): where it goes and the stones it removes.
pub fn steps(pos: &Position, m: &Move) -> Vec<Value> {
    let mut them = pos.them();
    let mut at = m.from();
    let mut out = Vec::with_capacity(m.steps().len());
    for s in m.steps() {
        let d = s.direction();
        let to = neighbor(at, d).unwrap_or(at);
        let captured = match s.kind() {
            CaptureKind::Paika => Bitboard::EMPTY,
            CaptureKind::Approach => run(neighbor(to, d), d, them),
            CaptureKind::Withdrawal => run(neighbor(at, d.opposite()), d.opposite(), them),
        };
        them &= !captured;
        out.push(json!({
            "from": at.to_string(), "to": to.to_string(), "kind": kind_name(s.kind()),
            "mark": s.kind().mark(), "captured": points(captured),
        }));
        at = to;
    }
    out
}

/// One turn of `pos`: notation, origin, end, captures and steps.
pub fn turn(pos: &Position, m: &Move) -> Value {
    json!({
        "notation": m.to_string(), "from": m.from().to_string(), "to": m.to().to_string(),
        "captured": points(m.captured()), "steps": steps(pos, m),
    })
}

/// The stones on the board.
pub fn board(pos: &Position) -> Value {
    json!({
        "white": points(pos.stones(Color::White)), "black": points(pos.stones(Color::Black)),
        "turn": pos.turn().to_string(),
    })
}

/// An outcome, a game's by the rules or a record's: result, winner and termination.
pub fn outcome<T: Copy + Into<Ending> + fmt::Display>(o: &Outcome<T>) -> Value {
    json!({
        "result": o.result_str(), "winner": o.winner.map(|c| c.to_string()),
        "termination": termination_slug(o.termination.into()), "text": o.to_string(),
    })
}

/// An ending as a short key: `all-captured`, `no-moves`, `repetition`, ...
pub fn termination_slug(t: Ending) -> &'static str {
    use Ending as T;
    match t {
        T::AllCaptured => "all-captured",
        T::NoMoves => "no-moves",
        T::Repetition => "repetition",
        T::NoProgress => "no-progress",
        T::MaxLength => "max-length",
        T::IllegalMove => "illegal-move",
        T::TimeForfeit => "time-forfeit",
        T::EngineFailure => "engine-failure",
        T::Adjudication => "adjudication",
        T::Tablebase => "tablebase",
        T::DrawAdjudication => "draw-adjudication",
        T::ResignAdjudication => "resign-adjudication",
    }
}

/// The current position of `game` with its legal turns, sorted by notation, and its outcome.
pub fn position(game: &Game) -> Value {
    let pos = game.position();
    let mut legal: Vec<Move> =
        if game.outcome().is_some() { Vec::new() } else { game.legal_moves().to_vec() };
    legal.sort_by_cached_key(|m| m.to_string());
    json!({
        "position": pos.to_string(),
        "board": board(pos),
        "turn": pos.turn().to_string(),
        "ply": game.ply(),
        "white_stones": pos.stones(Color::White).count(),
        "black_stones": pos.stones(Color::Black).count(),
        "must_capture": pos.has_capture(),
        "outcome": game.outcome().as_ref().map(outcome),
        "legal": legal.iter().map(|m| turn(pos, m)).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_name_each_capture() {
        let pos = Position::start();
        let m = pos.parse_move("d3e3+").unwrap();
        let s = steps(&pos, &m);
        assert_eq!(s.len(), 1);
        assert_eq!(s[0]["captured"], json!(["f3"]));
        let m = pos.parse_move("d3e3-").unwrap();
        assert_eq!(steps(&pos, &m)[0]["captured"], json!(["c3"]));
        // A chain: each step's captures are its own, and they add up to the turn's.
        let (after, chain) = first_chain();
        let total: usize =
            steps(&after, &chain).iter().map(|s| s["captured"].as_array().unwrap().len()).sum();
        assert_eq!(total as u32, chain.captured().count());
    }

    /// The first position (breadth-first from the start) with a capture chain, and the chain.
    pub(crate) fn first_chain() -> (Position, Move) {
        let mut layer = vec![Position::start()];
        for _ in 0..4 {
            let mut next = Vec::new();
            for p in &layer {
                for m in p.legal_moves().iter() {
                    if m.steps().len() > 1 {
                        return (*p, *m);
                    }
                    next.push(p.play(m).unwrap());
                }
            }
            layer = next;
        }
        panic!("no chain within 4 turns");
    }

    #[test]
    fn start_position_view() {
        let v = position(&Game::new(Position::start(), Default::default()));
        assert_eq!(v["legal"].as_array().unwrap().len(), 5);
        assert_eq!(v["board"]["white"].as_array().unwrap().len(), 22);
        assert_eq!(v["must_capture"], json!(true));
        assert_eq!(v["outcome"], Value::Null);
    }
}
