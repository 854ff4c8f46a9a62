//! Play: `/api/check` says whether a turn (or a stone to move) is legal and, if not, which
//! rule forbids it; `POST /api/engine` has an engine choose a turn.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use fanorona_core::{Game, IllegalMoveError, MoveError, Point, Position};
use fanorona_engine::{Player, PlayerSpec, SpecError};
use serde_json::{Value, json};

use super::views;
use crate::error::{ApiError, ApiResult};
use crate::slots::EngineSlots;

/// Whether the turn written `text` (a whole turn or the start of a chain) is legal in the
/// current position of `game`, and if not, the rule it breaks.
///
/// # Errors
/// 400 for text that is not a turn at all.
pub fn check_turn(game: &Game, text: &str) -> ApiResult<Value> {
    if let Some(o) = game.outcome() {
        return Ok(json!({ "legal": false, "error": format!("the game is over: {o}") }));
    }
    let pos = game.position();
    match pos.parse_move(text) {
        Ok(m) => Ok(json!({ "legal": true, "turn": views::turn(pos, &m) })),
        Err(MoveError::Illegal(e)) => Ok(json!({ "legal": false, "error": e.to_string(), "rule": rule(&e) })),
        Err(MoveError::Parse(e)) => Err(ApiError::bad(format!("turn {text:?}: {e}"))),
    }
}

/// A key for the rule an illegal turn breaks.
fn rule(e: &IllegalMoveError) -> &'static str {
    match e {
        IllegalMoveError::GameOver => "game-over",
        IllegalMoveError::NotYourStone { .. } => "not-your-stone",
        IllegalMoveError::Occupied { .. } => "occupied",
        IllegalMoveError::CaptureRequired { .. } => "capture-compulsory",
        IllegalMoveError::MissingMark { .. } => "missing-mark",
        IllegalMoveError::NoApproach { .. } => "no-approach",
        IllegalMoveError::NoWithdrawal { .. } => "no-withdrawal",
        IllegalMoveError::ChainNeedsCapture { .. } => "chain-needs-capture",
        IllegalMoveError::SameDirection { .. } => "same-direction",
        IllegalMoveError::Revisit { .. } => "revisit",
    }
}

/// Whether the stone on `point` can move, and if not, why.
pub fn check_stone(game: &Game, point: Point) -> Value {
    if let Some(o) = game.outcome() {
        return json!({ "legal": false, "error": format!("the game is over: {o}") });
    }
    let pos: &Position = game.position();
    let us = pos.turn();
    if pos.color_at(point) != Some(us) {
        let e = IllegalMoveError::NotYourStone { color: us, point };
        return json!({ "legal": false, "error": e.to_string(), "rule": rule(&e) });
    }
    let legal = game.legal_moves();
    let mut turns: Vec<_> = legal.iter().filter(|m| m.from() == point).collect();
    turns.sort_by_cached_key(|m| m.to_string());
    if !turns.is_empty() {
        return json!({ "legal": true, "turns": turns.iter().map(|m| views::turn(pos, m)).collect::<Vec<_>>() });
    }
    match legal.iter().find(|m| !m.is_paika()) {
        Some(c) => json!({
            "legal": false, "rule": "capture-compulsory",
            "error": format!("capturing is compulsory: the stone on {point} cannot capture, but {c} can"),
        }),
        None => json!({
            "legal": false, "rule": "blocked",
            "error": format!("the stone on {point} has no empty neighbour along a line"),
        }),
    }
}

/// `POST /api/engine`: the turn `spec` (seeded with `seed`) chooses in `game`, what its
/// search reported, and the game after it. A search holds one of `slots` while it runs, and
/// ends early, with its best turn so far, when `stop` is set (its client has gone).
///
/// # Errors
/// 400 for a spec that cannot be built, 409 for a finished game, 503 when a search is needed
/// and every slot is taken.
pub fn engine_turn(
    mut game: Game,
    spec: &PlayerSpec,
    seed: u64,
    slots: &EngineSlots,
    stop: Arc<AtomicBool>,
) -> ApiResult<Value> {
    if let Some(o) = game.outcome() {
        return Err(ApiError::conflict(format!("the game is over ({o}): no turn to choose")));
    }
    let _slot = if super::bounds::needs_slot(spec) { Some(slots.acquire()?) } else { None };
    let bad = |e: SpecError| ApiError::bad(format!("engine {spec}: {e}"));
    // A game not over has a legal turn (no turn at all ends it).
    let (name, d) = match spec {
        PlayerSpec::AlphaBeta(ab) => {
            let mut player = ab.player(seed, spec.to_string()).map_err(bad)?;
            (player.name(), player.choose_until(&game, stop))
        }
        _ => {
            let mut player = spec.build(seed).map_err(bad)?;
            player.new_game();
            (player.name(), player.choose(&game))
        }
    };
    let before = *game.position();
    let turn = views::turn(&before, &d.mv);
    let pv = super::search::pv_text(&before, &d.pv);
    game.play(&d.mv).map_err(|e| ApiError::internal(format!("engine {spec} chose {}: {e}", d.mv)))?;
    Ok(json!({
        "engine": name, "turn": turn, "score": d.score,
        "score_text": d.score.map(super::search::score_text), "depth": d.depth, "nodes": d.nodes, "pv": pv,
        "after": views::position(&game),
    }))
}
