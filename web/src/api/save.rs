//! Finished games as records: `POST /api/save` appends one to the server's `--save` file,
//! `POST /api/record` returns it as a one-game record file to download. A game one side
//! resigned is finished too: won by the other side, by adjudication (records have no
//! termination of their own for a player's resignation).

use std::path::Path;
use std::sync::Mutex;

use fanorona_core::{Color, Game, Outcome};
use fanorona_data::{Ending, GameRecord, Header, Kind, RecordWriter, TurnInfo};
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

/// Who played a game, and who resigned it, if anyone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Players {
    /// White's name.
    pub white: String,
    /// Black's name.
    pub black: String,
    /// The side that resigned.
    pub resigned: Option<Color>,
}

/// The record of a finished game, or of one a side resigned (won by the other side, by
/// [`Ending::Adjudication`]).
///
/// # Errors
/// 409 when the game is not over and nobody resigned, or when a side resigned a game that
/// was already over.
pub fn record(game: &Game, players: &Players, index: u64) -> ApiResult<GameRecord> {
    let info = vec![TurnInfo::default(); game.moves().len()];
    let Players { white, black, resigned } = players;
    match (game.outcome(), resigned) {
        (None, None) => {
            Err(ApiError::conflict("the game is not over: only finished games are saved (or resigned ones)"))
        }
        (Some(o), Some(c)) => {
            Err(ApiError::conflict(format!("the game is over ({o}): {c} cannot resign it")))
        }
        (Some(_), None) => GameRecord::from_game(game, &info, index, white, black)
            .map_err(|e| ApiError::internal(format!("record: {e}"))),
        (None, Some(c)) => {
            let rec = GameRecord {
                index,
                white: white.clone(),
                black: black.clone(),
                start: *game.start(),
                turns: game
                    .moves()
                    .iter()
                    .map(|m| fanorona_data::Turn {
                        mv: fanorona_data::MoveCode::from_move(m),
                        info: TurnInfo::default(),
                    })
                    .collect(),
                outcome: Outcome { winner: Some(!*c), termination: Ending::Adjudication },
            };
            rec.validate().map_err(|e| ApiError::internal(format!("record: {e}")))?;
            Ok(rec)
        }
    }
}

/// The bytes of a record file holding just this game.
///
/// # Errors
/// As [`record`].
pub fn file_bytes(game: &Game, players: &Players) -> ApiResult<Vec<u8>> {
    let rec = record(game, players, 0)?;
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
/// As [`record`]; 500 when the file cannot be written or is not a record file.
pub fn append(path: &Path, game: &Game, players: &Players) -> ApiResult<Value> {
    let _guard = SAVING.lock().unwrap_or_else(|e| e.into_inner());
    let err = |e: fanorona_data::DataError| ApiError::internal(format!("saving to {}: {e}", path.display()));
    let n = if path.exists() {
        let (mut w, info) = RecordWriter::append(path).map_err(err)?;
        w.write(&record(game, players, info.records)?).map_err(err)?;
        w.finish().map_err(err)?;
        info.records
    } else {
        let rec = record(game, players, 0)?;
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
