//! Finished games as records: `POST /api/save` appends one to the server's `--save` file,
//! `POST /api/record` returns it as a one-game record file to download.

use std::path::Path;
use std::sync::Mutex;

use fanorona_core::Game;
use fanorona_data::{GameRecord, Header, Kind, RecordWriter, TurnInfo};
use serde_json::{Value, json};

use crate::error::{ApiError, ApiResult};

/// The header of files the server writes.
fn header(game: &Game) -> Header {
    let rules = game.rules();
    let config = json!({
        "source": "fanorona serve",
        "max_plies": rules.max_plies, "max_quiet_plies": rules.max_quiet_plies,
    });
    Header::new(fanorona_data::PROGRAM, Kind::Match, config.to_string(), 0)
}

/// The record of a finished game.
///
/// # Errors
/// 409 when the game is not over.
pub fn record(game: &Game, white: &str, black: &str, index: u64) -> ApiResult<GameRecord> {
    if game.outcome().is_none() {
        return Err(ApiError::conflict("the game is not over: only finished games are saved"));
    }
    let info = vec![TurnInfo::default(); game.moves().len()];
    GameRecord::from_game(game, &info, index, white, black)
        .map_err(|e| ApiError::internal(format!("record: {e}")))
}

/// The bytes of a record file holding just this game.
///
/// # Errors
/// 409 when the game is not over.
pub fn file_bytes(game: &Game, white: &str, black: &str) -> ApiResult<Vec<u8>> {
    let rec = record(game, white, black, 0)?;
    let err = |e: fanorona_data::DataError| ApiError::internal(format!("record: {e}"));
    let mut w = RecordWriter::new(Vec::new(), Path::new("game.bin"), &header(game)).map_err(err)?;
    w.write(&rec).map_err(err)?;
    Ok(w.finish().map_err(err)?.0)
}

/// Serialises appends to the save file.
static SAVING: Mutex<()> = Mutex::new(());

/// Appends the game to `path` (created, through a temporary name, when absent), returning its
/// game number there.
///
/// # Errors
/// 409 when the game is not over; 500 when the file cannot be written or is not a record file.
pub fn append(path: &Path, game: &Game, white: &str, black: &str) -> ApiResult<Value> {
    let _guard = SAVING.lock().unwrap_or_else(|e| e.into_inner());
    let err = |e: fanorona_data::DataError| ApiError::internal(format!("saving to {}: {e}", path.display()));
    let n = if path.exists() {
        let (mut w, info) = RecordWriter::append(path).map_err(err)?;
        w.write(&record(game, white, black, info.records)?).map_err(err)?;
        w.finish().map_err(err)?;
        info.records
    } else {
        let rec = record(game, white, black, 0)?;
        let part = fanorona_data::output::part_path(path);
        let mut w = RecordWriter::create(&part, &header(game)).map_err(err)?;
        w.write(&rec).map_err(err)?;
        w.finish().map_err(err)?;
        std::fs::rename(&part, path)
            .map_err(|e| ApiError::internal(format!("saving to {}: {e}", path.display())))?;
        0
    };
    Ok(json!({ "file": path.display().to_string(), "game": n }))
}
