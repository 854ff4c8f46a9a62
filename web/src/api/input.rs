//! Reading the API's inputs: positions, turn lists, player specs, numbers; each error names
//! the parameter.

use fanorona_core::{DrawRules, Game, Position};
use fanorona_engine::PlayerSpec;

use crate::error::{ApiError, ApiResult};

/// The most turns a game sent to the API may have.
pub const MAX_TURNS: usize = 2000;

/// A position string, `startpos`/`start`, or the start position when absent or empty.
pub fn position(text: Option<&str>) -> ApiResult<Position> {
    match text.map(str::trim) {
        None | Some("") | Some("startpos") | Some("start") => Ok(Position::start()),
        Some(s) => s.parse().map_err(|e| ApiError::bad(format!("position {s:?}: {e}"))),
    }
}

/// The game from `start` after `moves` (turns in notation separated by spaces), every turn
/// checked; a turn after the end of the game is refused.
pub fn game(start: Position, moves: &[String], rules: DrawRules) -> ApiResult<Game> {
    if moves.len() > MAX_TURNS {
        return Err(ApiError::bad(format!("moves: {} turns, at most {MAX_TURNS}", moves.len())));
    }
    let mut game = Game::new(start, rules);
    for (i, text) in moves.iter().enumerate() {
        if let Some(o) = game.outcome() {
            return Err(ApiError::bad(format!(
                "moves: turn {} {text:?} comes after the end of the game ({o})",
                i + 1
            )));
        }
        let m = game.position().parse_move(text).map_err(|e| {
            ApiError::bad(format!("moves: turn {} {text:?} in {}: {e}", i + 1, game.position()))
        })?;
        game.play_unchecked(&m);
    }
    Ok(game)
}

/// Splits a `moves` parameter: turns separated by spaces.
pub fn split_moves(text: Option<&str>) -> Vec<String> {
    text.unwrap_or("").split_whitespace().map(str::to_string).collect()
}

/// A player spec.
pub fn spec(text: Option<&str>, what: &str) -> ApiResult<PlayerSpec> {
    let t = text
        .ok_or_else(|| ApiError::bad(format!("{what} is missing (a player spec like alphabeta:depth=6)")))?;
    t.parse().map_err(|e| ApiError::bad(format!("{what} {t:?}: {e}")))
}

/// A whole number parameter, `default` when absent.
pub fn number(text: Option<&str>, what: &str, default: u64) -> ApiResult<u64> {
    match text.map(str::trim) {
        None | Some("") => Ok(default),
        Some(s) => s.parse().map_err(|_| ApiError::bad(format!("{what} {s:?} is not a whole number"))),
    }
}

/// The JSON object of a request body.
pub fn body(bytes: &[u8]) -> ApiResult<serde_json::Map<String, serde_json::Value>> {
    match serde_json::from_slice(bytes) {
        Ok(serde_json::Value::Object(m)) => Ok(m),
        Ok(_) => Err(ApiError::bad("the request body is not a JSON object")),
        Err(e) => Err(ApiError::bad(format!("the request body is not JSON: {e}"))),
    }
}

/// A string field of a body (absent or null: `None`).
pub fn field<'a>(
    obj: &'a serde_json::Map<String, serde_json::Value>,
    key: &str,
) -> ApiResult<Option<&'a str>> {
    match obj.get(key) {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(ApiError::bad(format!("{key} must be a string"))),
    }
}

/// The `moves` field of a body: an array of turns in notation, or one string of turns
/// separated by spaces.
pub fn moves_field(obj: &serde_json::Map<String, serde_json::Value>) -> ApiResult<Vec<String>> {
    match obj.get("moves") {
        None | Some(serde_json::Value::Null) => Ok(Vec::new()),
        Some(serde_json::Value::String(s)) => Ok(split_moves(Some(s))),
        Some(serde_json::Value::Array(a)) => a
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| ApiError::bad(format!("moves[{i}] is not a string")))
            })
            .collect(),
        Some(_) => Err(ApiError::bad("moves must be an array of turns or a string")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_checked_turn_by_turn() {
        let rules = DrawRules::default();
        let g = game(Position::start(), &split_moves(Some("d3e3+  ")), rules).unwrap();
        assert_eq!(g.ply(), 1);
        let e = game(Position::start(), &split_moves(Some("d3e3+ a1a2")), rules).unwrap_err();
        assert_eq!(e.status, 400);
        assert!(e.message.contains("turn 2 \"a1a2\""), "{}", e.message);
        assert!(position(Some("xyz")).unwrap_err().message.contains("xyz"));
        assert!(number(Some("-1"), "game", 0).is_err());
        assert_eq!(number(None, "game", 7).unwrap(), 7);
        assert!(spec(Some("minimax"), "engine").unwrap_err().message.contains("minimax"));
    }
}
