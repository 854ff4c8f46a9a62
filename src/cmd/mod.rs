//! One module per subcommand: its arguments (`Args`) and `run`.

pub mod analyse;
pub mod bench;
pub mod book;
pub mod data;
pub mod engine;
pub mod eval;
pub mod eval_replay;
pub mod export_jsonl;
pub mod export_npz;
#[cfg(feature = "train")]
pub mod loop_cmd;
pub mod net;
pub mod perft;
pub mod pgn;
pub mod play;
pub mod rescore;
pub mod sample_args;
pub mod selfplay;
pub mod serve;
pub mod show;
pub mod solve;
pub mod solve_errors;
pub mod solve_suite;
pub mod suite;
pub mod tb;
#[cfg(feature = "train")]
pub mod train;
pub mod tune;
pub mod workers;

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

/// A progress style whose `{rate}` prints the rate with 3 significant figures (`27.9/s`, not
/// indicatif's `27.9172/s`).
pub fn with_rate(style: indicatif::ProgressStyle) -> indicatif::ProgressStyle {
    style.with_key("rate", |s: &indicatif::ProgressState, w: &mut dyn std::fmt::Write| {
        let _ = write!(w, "{}/s", rate(s.per_sec()));
    })
}

/// A progress bar on standard error drawn with `template` (indicatif's keys: `{bar:30}`,
/// `{pos}/{len}`, `{msg}`, `{eta}`), `len` steps long; hidden when `quiet` or not on a terminal.
pub fn progress_bar(quiet: bool, len: u64, template: &str) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if quiet || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let style = indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    indicatif::ProgressBar::new(len).with_style(style.progress_chars("=> "))
}

/// A rate with 3 significant figures: `27.9`, `1234`, `0.123`.
pub fn rate(r: f64) -> String {
    if !r.is_finite() || r <= 0.0 {
        return "0".into();
    }
    let digits = (2 - r.log10().floor() as i32).clamp(0, 6) as usize;
    format!("{r:.digits$}")
}

/// `1 game`, `2 games`.
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    #[test]
    fn rates_have_three_figures() {
        assert_eq!(super::rate(27.9172), "27.9");
        assert_eq!(super::rate(1234.6), "1235");
        assert_eq!(super::rate(0.12345), "0.123");
        assert_eq!(super::plural(1, "file", "files"), "1 file");
        assert_eq!(super::plural(2, "file", "files"), "2 files");
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
