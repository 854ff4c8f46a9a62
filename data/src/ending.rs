//! [`Ending`]: why a recorded game ended, by a rule of the game or by a decision of whoever
//! played it (a match's forfeits and adjudications, a run's endgame tables).

use core::fmt;

use fanorona_core::Termination;
use serde::{Deserialize, Serialize};

/// Why a recorded game ended: one of the rules' endings (the first five, fanorona-core's
/// [`Termination`]) or a decision outside the rules, by the match or run that played it.
///
/// Record files store an ending as its index in this declaration (bincode's enum encoding;
/// [`Ending::ALL`] is in that order), and JSON outputs by its name: a new ending goes at the
/// end, and none is ever removed or reordered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Ending {
    /// The loser has no stones left.
    AllCaptured,
    /// The loser was to move and had no legal turn.
    NoMoves,
    /// The same position occurred for the third time (draw).
    Repetition,
    /// Too many consecutive turns without a capture (draw).
    NoProgress,
    /// The game reached its maximum length (draw).
    MaxLength,
    /// The loser played an illegal turn (engine matches).
    IllegalMove,
    /// The loser exceeded its time limit (engine matches).
    TimeForfeit,
    /// The loser's engine crashed or sent something unreadable (engine matches).
    EngineFailure,
    /// The game was stopped and scored by an outside decision.
    Adjudication,
    /// The game reached a position the endgame tables cover and was scored by them.
    Tablebase,
    /// Both engines reported a drawn score long enough (a match's `--draw` rule).
    DrawAdjudication,
    /// The loser's engine reported a lost score long enough (a match's `--resign` rule).
    ResignAdjudication,
}

impl Ending {
    /// Every ending, in the order of their codes in record files.
    pub const ALL: [Ending; 12] = [
        Ending::AllCaptured,
        Ending::NoMoves,
        Ending::Repetition,
        Ending::NoProgress,
        Ending::MaxLength,
        Ending::IllegalMove,
        Ending::TimeForfeit,
        Ending::EngineFailure,
        Ending::Adjudication,
        Ending::Tablebase,
        Ending::DrawAdjudication,
        Ending::ResignAdjudication,
    ];

    /// The rule ending this is, or `None` for an ending decided outside the rules.
    pub fn rule(self) -> Option<Termination> {
        match self {
            Ending::AllCaptured => Some(Termination::AllCaptured),
            Ending::NoMoves => Some(Termination::NoMoves),
            Ending::Repetition => Some(Termination::Repetition),
            Ending::NoProgress => Some(Termination::NoProgress),
            Ending::MaxLength => Some(Termination::MaxLength),
            Ending::IllegalMove
            | Ending::TimeForfeit
            | Ending::EngineFailure
            | Ending::Adjudication
            | Ending::Tablebase
            | Ending::DrawAdjudication
            | Ending::ResignAdjudication => None,
        }
    }
}

impl From<Termination> for Ending {
    fn from(t: Termination) -> Ending {
        match t {
            Termination::AllCaptured => Ending::AllCaptured,
            Termination::NoMoves => Ending::NoMoves,
            Termination::Repetition => Ending::Repetition,
            Termination::NoProgress => Ending::NoProgress,
            Termination::MaxLength => Ending::MaxLength,
        }
    }
}

/// A rule ending as the rules say it (`threefold repetition`), the others as `time forfeit`,
/// `resign adjudication`...: the text of PGN `Termination` tags and of statistics.
impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match self {
            Ending::AllCaptured => return Termination::AllCaptured.fmt(f),
            Ending::NoMoves => return Termination::NoMoves.fmt(f),
            Ending::Repetition => return Termination::Repetition.fmt(f),
            Ending::NoProgress => return Termination::NoProgress.fmt(f),
            Ending::MaxLength => return Termination::MaxLength.fmt(f),
            Ending::IllegalMove => "illegal turn",
            Ending::TimeForfeit => "time forfeit",
            Ending::EngineFailure => "engine failure",
            Ending::Adjudication => "adjudication",
            Ending::Tablebase => "tablebase adjudication",
            Ending::DrawAdjudication => "draw adjudication",
            Ending::ResignAdjudication => "resign adjudication",
        };
        f.write_str(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes of record files and the names of JSON outputs, pinned: the same as when these
    /// endings were core's `Termination` (record files written before read the same).
    #[test]
    fn codes_names_and_texts_do_not_move() {
        let names = [
            ("AllCaptured", "all stones captured"),
            ("NoMoves", "no legal turn"),
            ("Repetition", "threefold repetition"),
            ("NoProgress", "no capture for too long"),
            ("MaxLength", "maximum game length"),
            ("IllegalMove", "illegal turn"),
            ("TimeForfeit", "time forfeit"),
            ("EngineFailure", "engine failure"),
            ("Adjudication", "adjudication"),
            ("Tablebase", "tablebase adjudication"),
            ("DrawAdjudication", "draw adjudication"),
            ("ResignAdjudication", "resign adjudication"),
        ];
        let config = bincode::config::standard();
        for (code, (e, (name, text))) in Ending::ALL.into_iter().zip(names).enumerate() {
            assert_eq!(bincode::serde::encode_to_vec(e, config).unwrap(), [code as u8], "{e:?}");
            assert_eq!(serde_json::to_string(&e).unwrap(), format!("\"{name}\""));
            assert_eq!(e.to_string(), text);
        }
    }

    #[test]
    fn rule_endings_are_the_rules_own() {
        for t in Termination::ALL {
            let e = Ending::from(t);
            assert_eq!(e.rule(), Some(t));
            assert_eq!(e.to_string(), t.to_string());
            assert_eq!(
                Ending::ALL.iter().position(|x| *x == e),
                Termination::ALL.iter().position(|x| *x == t)
            );
        }
        assert_eq!(Ending::ALL.iter().filter(|e| e.rule().is_none()).count(), 7);
    }
}
