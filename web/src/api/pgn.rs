//! `POST /api/pgn`: a played game as PGN text to download (the project's notation, as
//! `fanorona_data::pgn` writes and reads it).

use fanorona_data::GameRecord;
use fanorona_data::pgn::{PgnTags, today_utc, write_game};

use crate::error::{ApiError, ApiResult};
use crate::http::Response;

/// The file name a download is saved under.
pub const FILE_NAME: &str = "fanorona-game.pgn";

/// The PGN text of `rec`: event `fanorona serve`, today's date (UTC), the record's players.
///
/// # Errors
/// 500 when the text cannot be written (it is written to memory: never in practice).
pub fn text(rec: &GameRecord) -> ApiResult<Vec<u8>> {
    let tags = PgnTags {
        event: "fanorona serve".into(),
        site: "?".into(),
        date: today_utc(),
        time_control: "-".into(),
    };
    let mut out = Vec::new();
    write_game(&mut out, rec, &tags, None)
        .map_err(|e| ApiError::internal(format!("writing the PGN: {e}")))?;
    Ok(out)
}

/// `text` as a download.
pub fn download(text: Vec<u8>) -> Response {
    Response {
        status: 200,
        content_type: "text/plain; charset=utf-8",
        headers: vec![("Content-Disposition".into(), format!("attachment; filename=\"{FILE_NAME}\""))],
        body: text,
    }
}
