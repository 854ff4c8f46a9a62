//! Reading the runner's lines.

use fanorona_core::Position;

/// The search limits of a `go` line (times in milliseconds).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Go {
    /// `depth <n>`.
    pub depth: Option<u32>,
    /// `nodes <n>`.
    pub nodes: Option<u64>,
    /// `movetime <ms>`.
    pub movetime: Option<u64>,
    /// `wtime <ms>`.
    pub wtime: Option<u64>,
    /// `btime <ms>`.
    pub btime: Option<u64>,
    /// `winc <ms>`.
    pub winc: Option<u64>,
    /// `binc <ms>`.
    pub binc: Option<u64>,
    /// `movestogo <n>`: turns until the clock gets its next time period.
    pub movestogo: Option<u64>,
}

/// One line from the runner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    /// `fep`: the handshake.
    Fep,
    /// `isready`.
    IsReady,
    /// `setoption name <name> value <value>`.
    SetOption {
        /// The option's name.
        name: String,
        /// Its new value.
        value: String,
    },
    /// `newgame`.
    NewGame,
    /// `position startpos|fen <rows> <side> [moves <turn> ...]`; turns are checked later,
    /// against the position.
    Position {
        /// The start of the turn list.
        start: Position,
        /// The turns played since, as text.
        moves: Vec<String>,
    },
    /// `go [...]`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// An empty line.
    Empty,
}

impl CommandError {
    /// Always `true`: the line came from the other side of the protocol.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// Why a line is not a command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// The first word is not a command.
    #[error("unknown command {0:?}")]
    Unknown(String),
    /// The command's arguments are wrong.
    #[error("bad {command} line: {reason}")]
    Bad {
        /// The command.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
}

fn bad(command: &'static str, reason: impl Into<String>) -> CommandError {
    CommandError::Bad { command, reason: reason.into() }
}

/// Parses one line.
///
/// # Errors
/// When the line is not a command of the protocol or its arguments are malformed.
pub fn parse_command(line: &str) -> Result<Command, CommandError> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else { return Ok(Command::Empty) };
    let rest: Vec<&str> = words.collect();
    let no_args = |c: Command, name: &'static str| {
        if rest.is_empty() { Ok(c) } else { Err(bad(name, format!("unexpected {:?}", rest.join(" ")))) }
    };
    match first {
        "fep" => no_args(Command::Fep, "fep"),
        "isready" => no_args(Command::IsReady, "isready"),
        "newgame" => no_args(Command::NewGame, "newgame"),
        "stop" => no_args(Command::Stop, "stop"),
        "quit" => no_args(Command::Quit, "quit"),
        "setoption" => parse_setoption(&rest),
        "position" => parse_position(&rest),
        "go" => parse_go(&rest).map(Command::Go),
        other => Err(CommandError::Unknown(other.chars().take(40).collect())),
    }
}

fn parse_setoption(rest: &[&str]) -> Result<Command, CommandError> {
    if rest.first() != Some(&"name") {
        return Err(bad("setoption", "expected `setoption name <name> value <value>`"));
    }
    let value_at = rest.iter().position(|w| *w == "value");
    let name_end = value_at.unwrap_or(rest.len());
    let name = rest[1..name_end].join(" ");
    if name.is_empty() {
        return Err(bad("setoption", "missing option name"));
    }
    let value = value_at.map(|i| rest[i + 1..].join(" ")).unwrap_or_default();
    Ok(Command::SetOption { name, value })
}

fn parse_position(rest: &[&str]) -> Result<Command, CommandError> {
    let (start, after) = match rest.first() {
        Some(&"startpos") => (Position::start(), &rest[1..]),
        Some(&"fen") => {
            if rest.len() < 3 {
                return Err(bad("position", "expected `position fen <rows> <side>`"));
            }
            let text = format!("{} {}", rest[1], rest[2]);
            let p = text.parse::<Position>().map_err(|e| bad("position", format!("fen {text:?}: {e}")))?;
            (p, &rest[3..])
        }
        _ => return Err(bad("position", "expected `startpos` or `fen`")),
    };
    let moves = match after.first() {
        None => Vec::new(),
        Some(&"moves") => after[1..].iter().map(|s| s.to_string()).collect(),
        Some(w) => return Err(bad("position", format!("unexpected {w:?} (expected `moves`)"))),
    };
    Ok(Command::Position { start, moves })
}

fn parse_go(rest: &[&str]) -> Result<Go, CommandError> {
    let mut go = Go::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i];
        if key == "infinite" {
            i += 1;
            continue;
        }
        let value = rest.get(i + 1).ok_or_else(|| bad("go", format!("{key} needs a value")))?;
        let n: u64 = value.parse().map_err(|_| bad("go", format!("{key} {value:?} is not a number")))?;
        let slot = match key {
            "depth" => {
                let d = u32::try_from(n)
                    .ok()
                    .filter(|d| *d >= 1)
                    .ok_or_else(|| bad("go", "depth must be 1 or more"))?;
                go.depth = Some(d);
                i += 2;
                continue;
            }
            "nodes" => &mut go.nodes,
            "movetime" => &mut go.movetime,
            "wtime" => &mut go.wtime,
            "btime" => &mut go.btime,
            "winc" => &mut go.winc,
            "binc" => &mut go.binc,
            "movestogo" => &mut go.movestogo,
            _ => return Err(bad("go", format!("unknown limit {key:?}"))),
        };
        *slot = Some(n);
        i += 2;
    }
    Ok(go)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_commands() {
        assert_eq!(parse_command("fep"), Ok(Command::Fep));
        assert_eq!(parse_command("  isready  "), Ok(Command::IsReady));
        assert_eq!(parse_command(""), Ok(Command::Empty));
        assert_eq!(
            parse_command("setoption name Hash value 32"),
            Ok(Command::SetOption { name: "Hash".into(), value: "32".into() })
        );
        assert_eq!(
            parse_command("position startpos moves d3e3+ d4d3+"),
            Ok(Command::Position { start: Position::start(), moves: vec!["d3e3+".into(), "d4d3+".into()] })
        );
        let fen = parse_command("position fen 9/9/W1BBB3B/9/8W w").unwrap();
        assert!(matches!(fen, Command::Position { ref moves, .. } if moves.is_empty()));
        assert_eq!(
            parse_command("go depth 3 nodes 1000 movetime 50"),
            Ok(Command::Go(Go { depth: Some(3), nodes: Some(1000), movetime: Some(50), ..Go::default() }))
        );
        assert_eq!(
            parse_command("go wtime 1000 btime 900 winc 10 binc 20"),
            Ok(Command::Go(Go {
                wtime: Some(1000),
                btime: Some(900),
                winc: Some(10),
                binc: Some(20),
                ..Go::default()
            }))
        );
        assert_eq!(
            parse_command("go wtime 1000 btime 900 movestogo 7"),
            Ok(Command::Go(Go { wtime: Some(1000), btime: Some(900), movestogo: Some(7), ..Go::default() }))
        );
        assert_eq!(parse_command("go"), Ok(Command::Go(Go::default())));
    }

    #[test]
    fn rejects_garbage() {
        assert!(matches!(parse_command("hello"), Err(CommandError::Unknown(_))));
        assert!(matches!(parse_command("go depth x"), Err(CommandError::Bad { command: "go", .. })));
        assert!(matches!(parse_command("go depth 0"), Err(CommandError::Bad { .. })));
        assert!(matches!(parse_command("go depth"), Err(CommandError::Bad { .. })));
        assert!(matches!(parse_command("go speed 3"), Err(CommandError::Bad { .. })));
        assert!(matches!(parse_command("position fen 9/9/9 w"), Err(CommandError::Bad { .. })));
        assert!(matches!(parse_command("position startpos d3e3+"), Err(CommandError::Bad { .. })));
        assert!(matches!(parse_command("position"), Err(CommandError::Bad { .. })));
        assert!(matches!(parse_command("quit now"), Err(CommandError::Bad { .. })));
        assert!(matches!(parse_command("setoption Hash 3"), Err(CommandError::Bad { .. })));
    }
}
