//! `fanorona play`: play against the computer in the terminal.

use std::io::{BufRead, Write};
use std::ops::ControlFlow;

use fanorona_core::{Color, DrawRules, Game, Position};
use fanorona_engine::turn_input::{TurnMatch, match_turn};
use fanorona_engine::{Player, PlayerSpec};

use super::analyse::score_text;
use crate::exit::bad_input;

/// Play against the computer: type turns in notation (a prefix that identifies one legal turn
/// is enough), or `moves`, `hint`, `undo`, `help`, `quit`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The computer's player spec (random, greedy, alphabeta:depth=N,eval=...).
    #[arg(long, default_value = "alphabeta:depth=6,eval=handcrafted")]
    engine: String,
    /// Your colour: w (White, moves first) or b.
    #[arg(long, default_value = "w")]
    color: String,
    /// Start position (default: the start position).
    #[arg(long, short)]
    position: Option<String>,
    /// Seed of the computer player.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

const HINT_SPEC: &str = "alphabeta:depth=6,eval=handcrafted";

const HELP: &str =
    "commands: a turn in notation (e.g. d3e3+, or a prefix such as f2), moves, hint, undo, help, quit";

fn parse_color(s: &str) -> Option<Color> {
    match s.trim().to_ascii_lowercase().as_str() {
        "w" | "white" => Some(Color::White),
        "b" | "black" => Some(Color::Black),
        _ => None,
    }
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let spec: PlayerSpec = args.engine.parse().map_err(|e| bad_input("--engine", e))?;
    let human = parse_color(&args.color)
        .ok_or_else(|| bad_input("--color", format!("{:?} is not w or b", args.color)))?;
    let start = super::parse_position(args.position.as_deref())?;
    let engine = spec.build(args.seed).map_err(|e| bad_input("--engine", e))?;
    let hint_spec: PlayerSpec = HINT_SPEC.parse().map_err(|e| anyhow::anyhow!("hint spec: {e}"))?;
    let hint = hint_spec.build(args.seed)?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    session(&mut stdin.lock(), &mut out, start, human, engine, hint)
}

fn show(out: &mut impl Write, game: &Game) -> std::io::Result<()> {
    let pos = game.position();
    writeln!(out)?;
    write!(out, "{}", pos.diagram())?;
    writeln!(
        out,
        "{pos}   White {} stones, Black {} stones, {} to move",
        pos.stones(Color::White).count(),
        pos.stones(Color::Black).count(),
        pos.turn()
    )
}

/// The game loop, over any input and output (a terminal or pipes).
fn session(
    input: &mut impl BufRead,
    out: &mut impl Write,
    start: Position,
    human: Color,
    mut engine: Box<dyn Player>,
    mut hint: Box<dyn Player>,
) -> anyhow::Result<()> {
    let mut game = Game::new(start, DrawRules::default());
    engine.new_game();
    writeln!(out, "You play {human}; the computer is {}. {HELP}", engine.name())?;
    show(out, &game)?;
    let mut line = String::new();
    loop {
        if let Some(o) = game.outcome() {
            let verdict = match o.winner {
                Some(c) if c == human => "you win",
                Some(_) => "the computer wins",
                None => "draw",
            };
            writeln!(out, "Game over: {o}: {verdict}.")?;
            return Ok(());
        }
        if game.position().turn() != human {
            computer_turn(out, &mut game, engine.as_mut())?;
            continue;
        }
        write!(out, "your turn ({human})> ")?;
        out.flush()?;
        line.clear();
        if input.read_line(&mut line)? == 0 {
            writeln!(out)?;
            writeln!(out, "input ended; game abandoned.")?;
            return Ok(());
        }
        if command(out, &mut game, human, hint.as_mut(), line.trim())?.is_break() {
            return Ok(());
        }
    }
}

/// The computer chooses and plays its turn.
fn computer_turn(out: &mut impl Write, game: &mut Game, engine: &mut dyn Player) -> std::io::Result<()> {
    let d = engine.choose(game);
    let note = match (d.score, d.depth) {
        (Some(s), Some(depth)) => format!("  (score {} at depth {depth})", score_text(s)),
        _ => String::new(),
    };
    writeln!(out, "computer plays {}{note}", d.mv)?;
    game.play_unchecked(&d.mv);
    show(out, game)
}

/// Carries out one line the player typed: a command or a turn. Breaks on `quit`.
fn command(
    out: &mut impl Write,
    game: &mut Game,
    human: Color,
    hint: &mut dyn Player,
    text: &str,
) -> std::io::Result<ControlFlow<()>> {
    match text.to_ascii_lowercase().as_str() {
        "" => {}
        "quit" | "exit" => {
            writeln!(out, "bye.")?;
            return Ok(ControlFlow::Break(()));
        }
        "help" | "?" => writeln!(out, "{HELP}")?,
        "moves" => {
            let mut moves: Vec<String> = game.legal_moves().iter().map(|m| m.to_string()).collect();
            moves.sort();
            writeln!(out, "legal turns ({}): {}", moves.len(), moves.join(" "))?;
        }
        "hint" => {
            let d = hint.choose(game);
            writeln!(out, "hint: {} (score {})", d.mv, d.score.map_or_else(|| "?".into(), score_text))?;
        }
        "undo" => undo(out, game, human)?,
        _ => match match_turn(game.position(), text) {
            TurnMatch::One(m) => {
                writeln!(out, "you play {m}")?;
                game.play_unchecked(&m);
                show(out, game)?;
            }
            TurnMatch::Ambiguous(c) => writeln!(out, "ambiguous: {text:?} could be {}", c.join(", "))?,
            TurnMatch::None(why) => writeln!(out, "not a legal turn: {why} (type `moves` for the list)")?,
        },
    }
    Ok(ControlFlow::Continue(()))
}

/// Takes back turns until it is the player's turn again, with at least one of theirs.
fn undo(out: &mut impl Write, game: &mut Game, human: Color) -> std::io::Result<()> {
    let mut undone = 0;
    while game.ply() > 0 {
        let mover = game.positions()[game.ply() - 1].turn();
        game.undo();
        undone += 1;
        if mover == human {
            break;
        }
    }
    if undone == 0 || game.position().turn() != human {
        writeln!(out, "nothing of yours to take back.")?;
    } else {
        writeln!(out, "took back {undone} turn(s).")?;
    }
    // After going back before the computer's turn, it plays it again.
    show(out, game)
}
