//! `fanorona show`: draw a position and list its legal turns.

use std::io::Write;

use crate::exit::bad_input;

/// Draw a position with coordinates and list its legal turns.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Position string (default: the start position).
    #[arg(long, short)]
    position: Option<String>,
    /// Turns to play from the position first, in notation, separated by spaces
    /// (e.g. "d3e3+ c3d3-"); each is checked against the rules.
    #[arg(long, short, allow_hyphen_values = true)]
    moves: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let mut pos = super::parse_position(args.position.as_deref())?;
    for (i, text) in args.moves.as_deref().unwrap_or("").split_whitespace().enumerate() {
        let m =
            pos.parse_move(text).map_err(|e| bad_input(format!("turn {} {text:?} in {pos}", i + 1), e))?;
        pos.play_unchecked(&m);
    }
    let mut moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    moves.sort();
    let mut out = std::io::stdout().lock();
    if args.json {
        let obj = serde_json::json!({
            "position": pos.to_string(),
            "turn": pos.turn().to_string(),
            "white_stones": pos.stones(fanorona_core::Color::White).count(),
            "black_stones": pos.stones(fanorona_core::Color::Black).count(),
            "must_capture": pos.has_capture(),
            "moves": moves,
            "result": super::game_over(&pos).map(|o| o.to_string()),
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    write!(out, "{}", pos.diagram())?;
    writeln!(out, "{pos}")?;
    writeln!(
        out,
        "{} to move, white {}, black {}",
        pos.turn(),
        super::plural(pos.stones(fanorona_core::Color::White).count() as usize, "stone", "stones"),
        super::plural(pos.stones(fanorona_core::Color::Black).count() as usize, "stone", "stones"),
    )?;
    if let Some(o) = super::game_over(&pos) {
        writeln!(out, "game over: {o}")?;
    } else {
        let kind = if pos.has_capture() { "capturing" } else { "paika" };
        writeln!(out, "{} legal {kind} turns:", moves.len())?;
        for m in &moves {
            writeln!(out, "  {m}")?;
        }
    }
    Ok(())
}
