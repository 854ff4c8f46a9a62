//! One module per subcommand: its arguments (`Args`) and `run`.

pub mod analyse;
pub mod bench;
pub mod data;
pub mod engine;
pub mod eval;
pub mod perft;
pub mod play;
#[cfg(feature = "train")]
pub mod selfimprove;
pub mod selfplay;
pub mod show;
#[cfg(feature = "train")]
pub mod train;

use fanorona_core::Position;

use crate::exit::bad_input;

/// Reads a `--position` argument (the start position when absent).
pub fn parse_position(text: Option<&str>) -> anyhow::Result<Position> {
    match text {
        None => Ok(Position::start()),
        Some(s) if s.trim() == "startpos" || s.trim() == "start" => Ok(Position::start()),
        Some(s) => s.parse().map_err(|e| bad_input(format!("invalid position {s:?}"), e)),
    }
}
