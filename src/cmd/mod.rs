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

use fanorona_core::{DrawRules, Position};

use crate::exit::bad_input;

/// Reads a `--position` argument (the start position when absent).
pub fn parse_position(text: Option<&str>) -> anyhow::Result<Position> {
    match text {
        None => Ok(Position::start()),
        Some(s) if s.trim() == "startpos" || s.trim() == "start" => Ok(Position::start()),
        Some(s) => s.parse().map_err(|e| bad_input(format!("invalid position {s:?}"), e)),
    }
}

/// The result of a position where the game is over by the rules alone: a side with no stones
/// left has lost (whoever is to move), and so has a side to move without a legal turn.
pub fn game_over(pos: &Position) -> Option<fanorona_core::Outcome> {
    fanorona_core::Game::new(*pos, DrawRules { max_quiet_plies: 0, max_plies: 0 }).outcome()
}

/// The draw rules of RULES.md, as every command that plays games takes them.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct DrawArgs {
    /// A game is drawn at this many turns (0: no limit).
    #[arg(long, default_value_t = DrawRules::DEFAULT_MAX_PLIES)]
    pub max_plies: u32,
    /// A game is drawn after this many turns in a row without a capture (0: no limit).
    #[arg(long, default_value_t = DrawRules::DEFAULT_MAX_QUIET_PLIES)]
    pub max_quiet_plies: u32,
}

impl DrawArgs {
    /// The rules these arguments give.
    pub fn rules(&self) -> DrawRules {
        DrawRules { max_plies: self.max_plies, max_quiet_plies: self.max_quiet_plies }
    }
}
