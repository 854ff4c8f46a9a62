//! Files opened in the page (`POST /api/upload?name=`): a record file, or PGN turned into
//! one, read whole in memory (the body is at most [`MAX_UPLOAD`](crate::http::MAX_UPLOAD)
//! bytes) and refused when malformed; the catalog then lists it for replay.

use std::path::Path;

use fanorona_data::pgn::PgnReader;
use fanorona_data::{Header, Kind, MAGIC, RecordWriter};

use crate::error::{ApiError, ApiResult};

/// The longest file name kept, in characters.
pub const MAX_NAME: usize = 100;

/// `name` fit to list: control characters dropped, at most [`MAX_NAME`] characters, `file`
/// when nothing is left.
pub fn sanitise(name: &str) -> String {
    let clean: String = name.chars().filter(|c| !c.is_control()).collect();
    let clean: String = clean.trim().chars().take(MAX_NAME).collect();
    let clean = clean.trim_end();
    if clean.is_empty() { "file".into() } else { clean.to_string() }
}

/// Whether `bytes` start as a record file does.
fn is_record_file(bytes: &[u8]) -> bool {
    !bytes.is_empty() && MAGIC.starts_with(&bytes[..bytes.len().min(MAGIC.len())])
}

/// The bytes of a record file holding the games of `bytes` (`name`, already sanitised): a
/// record file as it is, PGN converted (every game checked against the rules).
///
/// # Errors
/// 400 naming the file and what is wrong: not a record file or PGN, a game that breaks the
/// rules, no games at all.
pub fn record_file(name: &str, bytes: Vec<u8>) -> ApiResult<Vec<u8>> {
    if is_record_file(&bytes) {
        return Ok(bytes);
    }
    let not_pgn =
        |e: &dyn std::fmt::Display| ApiError::bad(format!("{name}: not a game record file or PGN: {e}"));
    let header = Header::new(
        "PGN",
        Kind::Match,
        serde_json::json!({ "source": "upload", "file": name }).to_string(),
        0,
    );
    let internal = |e: fanorona_data::DataError| ApiError::internal(format!("{name}: {e}"));
    let mut w = RecordWriter::new(Vec::new(), Path::new(name), &header).map_err(internal)?;
    let mut games = 0usize;
    for rec in PgnReader::new(&bytes[..]) {
        let rec = rec.map_err(|e| not_pgn(&e))?;
        w.write(&rec).map_err(internal)?;
        games += 1;
    }
    if games == 0 {
        return Err(ApiError::bad(format!("{name}: there are no games in it")));
    }
    Ok(w.finish().map_err(internal)?.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_cleaned_and_bounded() {
        assert_eq!(sanitise("game.pgn"), "game.pgn");
        assert_eq!(sanitise(" a\u{0}b\nc\u{1b}[31m.pgn "), "abc[31m.pgn");
        assert_eq!(sanitise(&"é".repeat(300)).chars().count(), MAX_NAME);
        assert_eq!(sanitise("\n\t"), "file");
    }

    #[test]
    fn what_is_not_a_game_file_says_why() {
        let e = record_file("x.pgn", b"[Event \"a\"]\n\n1. zz9 1-0\n".to_vec()).unwrap_err();
        assert_eq!(e.status, 400);
        assert!(e.message.starts_with("x.pgn: not a game record file or PGN: line 3: "), "{}", e.message);
        let e = record_file("empty.pgn", b"\n\n".to_vec()).unwrap_err();
        assert!(e.message.contains("no games"), "{}", e.message);
        let e = record_file("bin", vec![0xff, 0xfe, 0, 1]).unwrap_err();
        assert!(e.message.contains("not a game record file or PGN"), "{}", e.message);
    }
}
