//! The JSON API under `/api/`: one handler per route, each returning a value or an
//! [`ApiError`](crate::error::ApiError).

pub mod input;
pub mod play;
pub mod records;
pub mod save;
pub mod search;
pub mod views;

use fanorona_core::{Game, Point};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::http::{Request, Response};
use crate::server::State;

/// Answers a request under `/api/`.
pub fn handle(state: &State, req: &Request) -> Response {
    match route(state, req) {
        Ok(Reply::Json(v)) => Response::json(&v),
        Ok(Reply::Raw(r)) => r,
        Err(e) => Response::json_status(e.status, &e.to_json()),
    }
}

/// A handler's answer: JSON, or a ready response (a file download).
enum Reply {
    Json(Value),
    Raw(Response),
}

fn route(state: &State, req: &Request) -> ApiResult<Reply> {
    let get = req.method == "GET" || req.method == "HEAD";
    let post = req.method == "POST";
    let json = |v: ApiResult<Value>| v.map(Reply::Json);
    match (req.path.as_str(), get, post) {
        ("/api/info", true, _) => json(Ok(info(state))),
        ("/api/position", true, _) => json(position(state, req)),
        ("/api/check", true, _) => json(check(state, req)),
        ("/api/files", true, _) => json(Ok(records::files(&state.catalog))),
        ("/api/games", true, _) => json(records::games(&state.catalog, req)),
        ("/api/game", true, _) => json(records::game(&state.catalog, req)),
        ("/api/search", true, _) => json(state.searches.poll(id(req)?)),
        ("/api/search", _, true) => json(search(state, req)),
        ("/api/search/stop", _, true) => json(state.searches.stop(id(req)?)),
        ("/api/engine", _, true) => json(engine(state, req)),
        ("/api/save", _, true) => json(save(state, req)),
        ("/api/record", _, true) => record(state, req).map(Reply::Raw),
        (
            "/api/info" | "/api/position" | "/api/check" | "/api/files" | "/api/games" | "/api/game"
            | "/api/search" | "/api/search/stop" | "/api/engine" | "/api/save" | "/api/record",
            _,
            _,
        ) => {
            Err(ApiError { status: 405, message: format!("{} is not accepted on {}", req.method, req.path) })
        }
        _ => Err(ApiError::not_found(format!("no API route {}", req.path))),
    }
}

fn info(state: &State) -> Value {
    json!({
        "program": fanorona_data::PROGRAM, "files": state.catalog.names().len(),
        "save": state.config.save.as_ref().map(|p| p.display().to_string()),
        "tablebase": state.tb.as_ref().map(|t| t.max_stones()),
        "engine": state.config.engine, "max_plies": state.config.rules.max_plies,
        "max_quiet_plies": state.config.rules.max_quiet_plies,
    })
}

fn id(req: &Request) -> ApiResult<u64> {
    input::number(Some(req.param("id").ok_or_else(|| ApiError::bad("id is missing (a search id)"))?), "id", 0)
}

/// The game a GET request names: `position` (start) and `moves`.
fn query_game(state: &State, req: &Request) -> ApiResult<Game> {
    let start = input::position(req.param("position"))?;
    input::game(start, &input::split_moves(req.param("moves")), state.config.rules)
}

/// The game a POST body names: `position` (start) and `moves`.
fn body_game(state: &State, body: &serde_json::Map<String, Value>) -> ApiResult<Game> {
    let start = input::position(input::field(body, "position")?)?;
    input::game(start, &input::moves_field(body)?, state.config.rules)
}

/// `GET /api/position?position=&moves=`: the board, legal turns with their steps, the outcome
/// and, with tables configured, their value.
fn position(state: &State, req: &Request) -> ApiResult<Value> {
    let game = query_game(state, req)?;
    let mut v = views::position(&game);
    if let Some(tb) = &state.tb {
        let pos = game.position();
        let value = (pos.occupied().count() <= tb.max_stones()).then(|| tb.probe(pos).ok()).flatten();
        v["tablebase"] = match value {
            Some(fanorona_tb::Value::Win(d)) => {
                json!({"value": "win", "dtc": d, "text": format!("win, capture in {d}")})
            }
            Some(fanorona_tb::Value::Loss(d)) => {
                json!({"value": "loss", "dtc": d, "text": format!("loss, capture in {d}")})
            }
            Some(fanorona_tb::Value::Draw) => json!({"value": "draw", "text": "draw"}),
            None => Value::Null,
        };
    }
    Ok(v)
}

/// `GET /api/check?position=&moves=&turn=` or `&from=POINT`.
fn check(state: &State, req: &Request) -> ApiResult<Value> {
    let game = query_game(state, req)?;
    match (req.param("turn"), req.param("from")) {
        (Some(t), _) => play::check_turn(&game, t),
        (None, Some(p)) => {
            let point: Point =
                p.trim().parse().map_err(|_| ApiError::bad(format!("from {p:?} is not a point a1..i5")))?;
            Ok(play::check_stone(&game, point))
        }
        (None, None) => Err(ApiError::bad("turn or from is missing")),
    }
}

/// `POST /api/search` with `{position, moves, engine}`.
fn search(state: &State, req: &Request) -> ApiResult<Value> {
    let body = input::body(&req.body)?;
    let game = body_game(state, &body)?;
    let spec = input::spec(input::field(&body, "engine")?.or(Some(&state.config.engine)), "engine")?;
    let id = state.searches.start(&game, &spec)?;
    Ok(json!({ "id": id, "engine": spec.to_string(), "position": game.position().to_string() }))
}

/// `POST /api/engine` with `{position, moves, engine, seed}`.
fn engine(state: &State, req: &Request) -> ApiResult<Value> {
    let body = input::body(&req.body)?;
    let game = body_game(state, &body)?;
    let spec = input::spec(input::field(&body, "engine")?.or(Some(&state.config.engine)), "engine")?;
    let seed = match body.get("seed") {
        None | Some(Value::Null) => 1,
        Some(v) => v.as_u64().ok_or_else(|| ApiError::bad("seed must be a whole number"))?,
    };
    play::engine_turn(game, &spec, seed)
}

/// The players of a body (`white`, `black`; `human` when absent).
fn players(body: &serde_json::Map<String, Value>) -> ApiResult<(String, String)> {
    let name = |k: &str| -> ApiResult<String> {
        let s = input::field(body, k)?.unwrap_or("human");
        if s.len() > 256 {
            return Err(ApiError::bad(format!("{k}: a player name of at most 256 bytes")));
        }
        Ok(s.to_string())
    };
    Ok((name("white")?, name("black")?))
}

/// `POST /api/save` with `{position, moves, white, black}`.
fn save(state: &State, req: &Request) -> ApiResult<Value> {
    let Some(path) = &state.config.save else {
        return Err(ApiError::conflict(
            "saving is off: start the server with --save FILE (or download the record)",
        ));
    };
    let body = input::body(&req.body)?;
    let game = body_game(state, &body)?;
    let (white, black) = players(&body)?;
    let v = save::append(path, &game, &white, &black)?;
    state.catalog.refresh(path);
    Ok(v)
}

/// `POST /api/record` with `{position, moves, white, black}`: a record file to download.
fn record(state: &State, req: &Request) -> ApiResult<Response> {
    let body = input::body(&req.body)?;
    let game = body_game(state, &body)?;
    let (white, black) = players(&body)?;
    let bytes = save::file_bytes(&game, &white, &black)?;
    Ok(Response {
        status: 200,
        content_type: "application/octet-stream",
        headers: vec![("Content-Disposition".into(), "attachment; filename=\"fanorona-game.bin\"".into())],
        body: bytes,
    })
}
