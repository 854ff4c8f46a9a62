//! `/api/files`, `/api/games` (the listing with filters) and `/api/game` (one game for replay).

use fanorona_core::{Color, Position};
use fanorona_data::GameRecord;
use serde_json::{Value, json};

use super::input::number;
use super::views;
use crate::catalog::{Catalog, Summary};
use crate::error::{ApiError, ApiResult};
use crate::http::Request;

/// The most games one listing page returns.
pub const MAX_LIMIT: u64 = 1000;

/// The longest owner key accepted.
pub const MAX_OWNER: usize = 64;

/// The `owner` parameter: the key of the browser asking (its uploads are its own), at most
/// [`MAX_OWNER`] letters, digits, `-` and `_`; absent, only files without an owner are seen.
///
/// # Errors
/// 400 for a key of other characters or too long.
pub fn owner(req: &Request) -> ApiResult<Option<&str>> {
    match req.param("owner").filter(|o| !o.is_empty()) {
        None => Ok(None),
        Some(o)
            if o.len() <= MAX_OWNER
                && o.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') =>
        {
            Ok(Some(o))
        }
        Some(_) => {
            Err(ApiError::bad(format!("owner: a key of at most {MAX_OWNER} letters, digits, '-' and '_'")))
        }
    }
}

/// `GET /api/files?owner=`: every file the owner sees, with its kind, program and game count.
pub fn files(catalog: &Catalog, req: &Request) -> ApiResult<Value> {
    let files: Vec<Value> = catalog
        .names_for(owner(req)?)
        .into_iter()
        .map(|name| match catalog.index(&name) {
            Ok(ix) => json!({
                "name": name, "kind": ix.header.kind.to_string(), "program": ix.header.program,
                "games": ix.games.len(), "truncated": ix.truncated, "error": ix.error,
            }),
            Err(e) => json!({ "name": name, "kind": null, "games": 0, "error": e.message }),
        })
        .collect();
    Ok(json!({ "files": files }))
}

/// The listing's filters.
#[derive(Debug, Default)]
struct Filter {
    engine: Option<String>,
    result: Option<&'static str>,
    termination: Option<String>,
    min_len: u64,
    max_len: u64,
}

impl Filter {
    fn from(req: &Request) -> ApiResult<Filter> {
        let result = match req.param("result").map(str::trim) {
            None | Some("") => None,
            Some("1-0" | "white") => Some("1-0"),
            Some("0-1" | "black") => Some("0-1"),
            Some("1/2-1/2" | "draw") => Some("1/2-1/2"),
            Some(r) => {
                return Err(ApiError::bad(format!(
                    "result {r:?} is not 1-0, 0-1, 1/2-1/2, white, black or draw"
                )));
            }
        };
        let termination = req.param("termination").map(str::trim).filter(|t| !t.is_empty());
        if let Some(t) = termination
            && !terminations().any(|k| k == t)
        {
            return Err(ApiError::bad(format!(
                "termination {t:?} is not one of {}",
                terminations().collect::<Vec<_>>().join(", ")
            )));
        }
        Ok(Filter {
            engine: req.param("engine").map(|e| e.trim().to_ascii_lowercase()).filter(|e| !e.is_empty()),
            result,
            termination: termination.map(str::to_string),
            min_len: number(req.param("min_len"), "min_len", 0)?,
            max_len: number(req.param("max_len"), "max_len", u64::MAX)?,
        })
    }

    fn accepts(&self, s: &Summary) -> bool {
        let len = s.length as u64;
        self.engine.as_ref().is_none_or(|e| {
            s.white.to_ascii_lowercase().contains(e.as_str())
                || s.black.to_ascii_lowercase().contains(e.as_str())
        }) && self.result.is_none_or(|r| r == s.result)
            && self.termination.as_ref().is_none_or(|t| t == s.termination)
            && (self.min_len..=self.max_len).contains(&len)
    }
}

/// Every termination key, one per [`fanorona_data::Ending`] (from its closed list, never kept by hand).
pub fn terminations() -> impl Iterator<Item = &'static str> {
    fanorona_data::Ending::ALL.into_iter().map(views::termination_slug)
}

/// The file a request names, when its owner sees it.
fn file_param<'a>(catalog: &Catalog, req: &'a Request) -> ApiResult<&'a str> {
    let name = req
        .param("file")
        .ok_or_else(|| ApiError::bad("file is missing (one of the names /api/files lists)"))?;
    catalog.check_seen(name, owner(req)?)?;
    Ok(name)
}

/// `GET /api/games?file=&owner=&engine=&result=&termination=&min_len=&max_len=&offset=&limit=`.
pub fn games(catalog: &Catalog, req: &Request) -> ApiResult<Value> {
    let name = file_param(catalog, req)?;
    let filter = Filter::from(req)?;
    let offset = number(req.param("offset"), "offset", 0)?;
    let limit = number(req.param("limit"), "limit", 100)?;
    if limit > MAX_LIMIT {
        return Err(ApiError::bad(format!("limit {limit} is more than {MAX_LIMIT}")));
    }
    let ix = catalog.index(name)?;
    let matched: Vec<&Summary> = ix.games.iter().filter(|s| filter.accepts(s)).collect();
    let page: Vec<Value> = matched
        .iter()
        .skip(offset.min(usize::MAX as u64) as usize)
        .take(limit as usize)
        .map(|s| {
            json!({
                "game": s.game, "index": s.index, "white": &*s.white, "black": &*s.black,
                "result": s.result, "termination": s.termination, "length": s.length,
            })
        })
        .collect();
    Ok(json!({
        "file": name, "total": ix.games.len(), "matched": matched.len(), "offset": offset,
        "games": page, "error": ix.error,
    }))
}

/// `GET /api/game?file=&game=&owner=`: the game with every turn's steps, the board before each turn
/// and the recorded scores (from the mover's view and from White's).
pub fn game(catalog: &Catalog, req: &Request) -> ApiResult<Value> {
    let name = file_param(catalog, req)?;
    let n = number(
        Some(req.param("game").ok_or_else(|| ApiError::bad("game is missing (a game number from 0)"))?),
        "game",
        0,
    )?;
    let rec = catalog.game(name, n)?;
    Ok(replay(name, n, &rec))
}

/// A record as the page replays it. A turn that is not legal ends the list, with `error`.
pub fn replay(name: &str, n: u64, rec: &GameRecord) -> Value {
    let mut pos: Position = rec.start;
    let mut turns = Vec::with_capacity(rec.turns.len());
    let mut error = None;
    for (ply, t) in rec.turns.iter().enumerate() {
        let m = match t.mv.to_move(&pos) {
            Ok(m) => m,
            Err(e) => {
                error = Some(format!("turn {} {} is not legal in {pos}: {e}", ply + 1, t.mv));
                break;
            }
        };
        let mover = pos.turn();
        let white_score = t.info.score.map(|s| if mover == Color::White { s } else { -s });
        turns.push(json!({
            "ply": ply, "mover": mover.to_string(), "before": pos.to_string(), "board": views::board(&pos),
            "turn": views::turn(&pos, &m), "score": t.info.score, "white_score": white_score,
            "score_text": t.info.score.map(crate::api::search::score_text),
            "depth": t.info.depth, "exploration": t.info.exploration,
        }));
        pos.play_unchecked(&m);
    }
    json!({
        "file": name, "game": n, "index": rec.index, "white": rec.white, "black": rec.black,
        "start": rec.start.to_string(), "outcome": views::outcome(&rec.outcome), "turns": turns,
        "final": pos.to_string(), "final_board": views::board(&pos), "error": error,
    })
}
