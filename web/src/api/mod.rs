//! The JSON API under `/api/`: one handler per route, each returning a value or an
//! [`ApiError`](crate::error::ApiError).

pub mod bounds;
pub mod input;
pub mod pgn;
pub mod play;
pub mod records;
pub mod save;
pub mod search;
pub mod views;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use fanorona_core::{Color, Game, Point};
use fanorona_engine::PlayerSpec;
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};
use crate::http::{Request, Response};
use crate::server::State;

/// Answers a request under `/api/`; `gone` is set when the client hangs up (an engine turn
/// then stops early).
pub fn handle(state: &State, req: &Request, gone: &Arc<AtomicBool>) -> Response {
    match route(state, req, gone) {
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

fn route(state: &State, req: &Request, gone: &Arc<AtomicBool>) -> ApiResult<Reply> {
    let get = req.method == "GET" || req.method == "HEAD";
    let post = req.method == "POST";
    let json = |v: ApiResult<Value>| v.map(Reply::Json);
    match (req.path.as_str(), get, post) {
        ("/api/info", true, _) => json(Ok(info(state))),
        ("/api/position", true, _) => json(position(state, req)),
        ("/api/check", true, _) => json(check(state, req)),
        ("/api/files", true, _) => json(records::files(&state.catalog, req)),
        ("/api/games", true, _) => json(records::games(&state.catalog, req)),
        ("/api/game", true, _) => json(records::game(&state.catalog, req)),
        ("/api/search", true, _) => json(state.searches.poll(id(req)?)),
        ("/api/search", _, true) => json(search(state, req)),
        ("/api/search/stop", _, true) => json(state.searches.stop(id(req)?)),
        ("/api/engine", _, true) => json(engine(state, req, gone)),
        ("/api/save", _, true) => json(save(state, req)),
        ("/api/record", _, true) => record(state, req).map(Reply::Raw),
        ("/api/pgn", _, true) => pgn(state, req).map(Reply::Raw),
        ("/api/upload", _, true) => json(upload(state, req)),
        (
            "/api/info" | "/api/position" | "/api/check" | "/api/files" | "/api/games" | "/api/game"
            | "/api/search" | "/api/search/stop" | "/api/engine" | "/api/save" | "/api/record" | "/api/pgn"
            | "/api/upload",
            _,
            _,
        ) => {
            Err(ApiError { status: 405, message: format!("{} is not accepted on {}", req.method, req.path) })
        }
        _ => Err(ApiError::not_found(format!("no API route {}", req.path))),
    }
}

fn info(state: &State) -> Value {
    let levels: Vec<Value> = state
        .levels
        .iter()
        .map(|l| {
            json!({
                "name": l.name, "description": l.description, "spec": l.spec.to_string(), "turn_ms": l.turn_ms,
            })
        })
        .collect();
    json!({
        "program": fanorona_data::PROGRAM, "files": state.catalog.names().len(),
        "save": state.config.save.as_ref().map(|p| p.display().to_string()),
        "tablebase": state.tb.as_ref().map(|t| t.max_stones()),
        "engine": state.config.engine, "max_plies": state.config.rules.max_plies,
        "max_quiet_plies": state.config.rules.max_quiet_plies,
        "levels": levels, "default_level": crate::levels::DEFAULT_LEVEL,
        "max_movetime_ms": bounds::MAX_MOVETIME_MS, "max_engines": state.slots.max(),
        "max_upload": crate::http::MAX_UPLOAD, "terminations": records::terminations().collect::<Vec<_>>(),
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

/// The spec a request's field `engine` names (checked by [`bounds::request_spec`]), or the
/// server's engine; either probes the server's `--tb` tables when it names none.
fn engine_spec(state: &State, text: Option<&str>) -> ApiResult<PlayerSpec> {
    let mut spec = match text {
        Some(t) => bounds::request_spec(t, "engine")?,
        None => input::spec(Some(&state.config.engine), "engine")?,
    };
    if let (PlayerSpec::AlphaBeta(ab), Some(dir)) = (&mut spec, &state.config.tb)
        && ab.tb.is_none()
    {
        ab.tb = Some(dir.clone());
    }
    Ok(spec)
}

/// `POST /api/search` with `{position, moves, engine}`.
fn search(state: &State, req: &Request) -> ApiResult<Value> {
    let body = input::body(&req.body)?;
    let game = body_game(state, &body)?;
    let (spec, capped) = bounds::capped(&engine_spec(state, input::field(&body, "engine")?)?);
    let id = state.searches.start(&game, &spec, &state.slots, state.timeouts.search_grace)?;
    Ok(json!({
        "id": id, "engine": spec.to_string(), "capped": capped, "position": game.position().to_string(),
    }))
}

/// `POST /api/engine` with `{position, moves, level, engine, seed}`: the level's player, else
/// the spec of `engine`, else the server's engine; its search stops when `gone` is set.
fn engine(state: &State, req: &Request, gone: &Arc<AtomicBool>) -> ApiResult<Value> {
    let body = input::body(&req.body)?;
    let game = body_game(state, &body)?;
    let (level, spec) = match input::field(&body, "level")?.filter(|l| !l.trim().is_empty()) {
        Some(name) => {
            let level = crate::levels::find(&state.levels, name).map_err(|e| ApiError::bad(e.to_string()))?;
            (Some(level.name), level.spec_with_tables(state.config.tb.as_deref()))
        }
        None => (None, engine_spec(state, input::field(&body, "engine")?)?),
    };
    let seed = match body.get("seed") {
        None | Some(Value::Null) => 1,
        Some(v) => v.as_u64().ok_or_else(|| ApiError::bad("seed must be a whole number"))?,
    };
    let (spec, capped) = bounds::capped(&spec);
    let mut v = play::engine_turn(game, &spec, seed, &state.slots, Arc::clone(gone))?;
    v["level"] = json!(level);
    v["capped"] = json!(capped);
    Ok(v)
}

/// The players of a body (`white`, `black`; `human` when absent) and the side that
/// `resigned` (`white`, `black`; none when absent).
fn players(body: &serde_json::Map<String, Value>) -> ApiResult<save::Players> {
    let name = |k: &str| -> ApiResult<String> {
        let s = input::field(body, k)?.unwrap_or("human");
        if s.len() > 256 {
            return Err(ApiError::bad(format!("{k}: a player name of at most 256 bytes")));
        }
        Ok(s.to_string())
    };
    let resigned = match input::field(body, "resigned")?.map(|s| s.trim().to_ascii_lowercase()).as_deref() {
        None | Some("") => None,
        Some("white") => Some(Color::White),
        Some("black") => Some(Color::Black),
        Some(_) => {
            return Err(ApiError::bad("resigned must be \"white\" or \"black\" (the side that resigned)"));
        }
    };
    Ok(save::Players { white: name("white")?, black: name("black")?, resigned })
}

/// `POST /api/save` with `{position, moves, white, black, resigned}`.
fn save(state: &State, req: &Request) -> ApiResult<Value> {
    let Some(path) = &state.config.save else {
        return Err(ApiError::conflict(
            "saving is off: start the server with --save FILE (or download the record)",
        ));
    };
    let body = input::body(&req.body)?;
    let game = body_game(state, &body)?;
    let v = save::append(path, &game, &players(&body)?)?;
    state.catalog.refresh(path);
    Ok(v)
}

/// `POST /api/record` with `{position, moves, white, black, resigned}`: a record file to
/// download.
fn record(state: &State, req: &Request) -> ApiResult<Response> {
    let body = input::body(&req.body)?;
    let game = body_game(state, &body)?;
    let bytes = save::file_bytes(&game, &players(&body)?)?;
    Ok(Response {
        status: 200,
        content_type: "application/octet-stream",
        headers: vec![("Content-Disposition".into(), "attachment; filename=\"fanorona-game.bin\"".into())],
        body: bytes,
    })
}

/// `POST /api/pgn` with `{position, moves, white, black, resigned}`: the game as PGN text to
/// download.
fn pgn(state: &State, req: &Request) -> ApiResult<Response> {
    let body = input::body(&req.body)?;
    let game = body_game(state, &body)?;
    let rec = save::record(&game, &players(&body)?, 0)?;
    Ok(pgn::download(pgn::text(&rec)?))
}

/// `POST /api/upload?name=FILE&owner=KEY` with the file's bytes: a record file or PGN, listed
/// for replay as `upload N: FILE` (with a key, only to requests with the same key).
fn upload(state: &State, req: &Request) -> ApiResult<Value> {
    let name = crate::upload::sanitise(req.param("name").unwrap_or(""));
    let owner = records::owner(req)?;
    let bytes = crate::upload::record_file(&name, req.body.clone())?;
    let (file, games) = state.catalog.add_upload(&name, bytes, owner)?;
    Ok(json!({ "file": file, "games": games }))
}
