//! Turn notation: steps `<from><to><mark>` joined by commas, `+` approach, `-` withdrawal, no
//! mark for a paika step: `d3e3+`, `e2e3`, `c3d3+,d3d2+,d2c2+`. Input is case-insensitive and a
//! trailing `.` is accepted.

use core::fmt;
use core::str::FromStr;

use smallvec::SmallVec;

use crate::{CaptureKind, Color, Direction, Move, Point, Position, tables};

/// One written step: origin, destination and capture mark.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StepText {
    /// Where the stone steps from.
    pub from: Point,
    /// Where it steps to.
    pub to: Point,
    /// Its direction (the two points are neighbours on a line).
    pub direction: Direction,
    /// Its capture mark.
    pub kind: CaptureKind,
}

/// A turn as written, checked for syntax and geometry but not against a position.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MoveText {
    steps: SmallVec<[StepText; 4]>,
}

/// Why a turn could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseMoveError {
    /// Nothing was given.
    #[error("empty turn")]
    Empty,
    /// A step is not `<point><point>` with an optional `+` or `-`.
    #[error("step {step} {text:?} is not written as <from><to> with an optional + or - (like d3e3+)")]
    BadStep {
        /// 1-based step number.
        step: usize,
        /// The text of the step.
        text: String,
    },
    /// The two points of a step are not neighbours on a line of the board.
    #[error("step {step} {from}{to}: {to} is not next to {from} on a line of the board")]
    NotALine {
        /// 1-based step number.
        step: usize,
        /// Origin.
        from: Point,
        /// Destination.
        to: Point,
    },
    /// A step does not start where the previous one ended.
    #[error("step {step} starts on {from} but the previous step ended on {expected}")]
    Disconnected {
        /// 1-based step number.
        step: usize,
        /// Where it starts.
        from: Point,
        /// Where it should start.
        expected: Point,
    },
    /// Too many steps for any turn.
    #[error("{0} steps: no turn has more than 22")]
    TooLong(usize),
}

/// Why a well-written turn is not legal in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IllegalMoveError {
    /// The game is over in this position.
    #[error("the game is over: no turn can be played")]
    GameOver,
    /// The origin has no stone of the side to move.
    #[error("there is no {color} stone on {point}")]
    NotYourStone {
        /// The side to move.
        color: Color,
        /// The origin.
        point: Point,
    },
    /// The destination is occupied.
    #[error("step {step}: {point} is not empty")]
    Occupied {
        /// 1-based step number.
        step: usize,
        /// The destination.
        point: Point,
    },
    /// A paika step while a capture is available.
    #[error("capturing is compulsory: {suggestion} and other captures are available")]
    CaptureRequired {
        /// One available capture, in notation.
        suggestion: String,
    },
    /// A step without a mark that would capture.
    #[error("step {step}: {text} captures, so it needs a mark: {options}")]
    MissingMark {
        /// 1-based step number.
        step: usize,
        /// The step as written.
        text: String,
        /// The marked alternatives.
        options: String,
    },
    /// A step marked `+` with no enemy stone in front of the destination.
    #[error("step {step}: no enemy stone on {point} to capture by approach")]
    NoApproach {
        /// 1-based step number.
        step: usize,
        /// The point in front of the destination.
        point: String,
    },
    /// A step marked `-` with no enemy stone behind the origin.
    #[error("step {step}: no enemy stone on {point} to capture by withdrawal")]
    NoWithdrawal {
        /// 1-based step number.
        step: usize,
        /// The point behind the origin.
        point: String,
    },
    /// A chain continues after a paika step, or continues with a non-capturing step.
    #[error("step {step}: only capturing steps can continue a turn")]
    ChainNeedsCapture {
        /// 1-based step number.
        step: usize,
    },
    /// A chain steps twice in a row in one direction.
    #[error("step {step}: a chain may not step twice in a row in the same direction ({direction})")]
    SameDirection {
        /// 1-based step number.
        step: usize,
        /// The repeated direction.
        direction: Direction,
    },
    /// A chain returns to a point it has occupied this turn.
    #[error("step {step}: the stone already stood on {point} during this turn")]
    Revisit {
        /// 1-based step number.
        step: usize,
        /// The revisited point.
        point: Point,
    },
}

/// Either kind of turn error, for callers that parse and check in one go.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// The text is not a turn.
    #[error("cannot read turn: {0}")]
    Parse(#[from] ParseMoveError),
    /// The turn is not legal here.
    #[error("illegal turn: {0}")]
    Illegal(#[from] IllegalMoveError),
}

impl MoveText {
    /// The steps as written.
    pub fn steps(&self) -> &[StepText] {
        &self.steps
    }

    /// The legal turn this text names in `pos`.
    ///
    /// # Errors
    /// Says why the turn is not legal: the first rule it breaks.
    pub fn to_move(&self, pos: &Position) -> Result<Move, IllegalMoveError> {
        let legal = pos.legal_moves();
        if legal.is_empty() {
            return Err(IllegalMoveError::GameOver);
        }
        if let Some(m) = legal.iter().find(|m| self.matches(m)) {
            return Ok(*m);
        }
        Err(self.explain(pos, &legal))
    }

    fn matches(&self, m: &Move) -> bool {
        m.from() == self.steps[0].from
            && m.steps().len() == self.steps.len()
            && m.steps()
                .iter()
                .zip(&self.steps)
                .all(|(s, t)| s.direction() == t.direction && s.kind() == t.kind)
    }

    /// Finds the first rule the text breaks (it is known not to be legal).
    fn explain(&self, pos: &Position, legal: &[Move]) -> IllegalMoveError {
        let us = pos.turn();
        let first = self.steps[0].from;
        if pos.color_at(first) != Some(us) {
            return IllegalMoveError::NotYourStone { color: us, point: first };
        }
        let mut them = pos.them();
        let mut occupied = pos.occupied();
        let mut visited = crate::Bitboard::from_point(first);
        let mut last: Option<Direction> = None;
        for (i, st) in self.steps.iter().enumerate() {
            let step = i + 1;
            if occupied.without(st.from).contains(st.to) {
                return IllegalMoveError::Occupied { step, point: st.to };
            }
            if i > 0 && last == Some(st.direction) {
                return IllegalMoveError::SameDirection { step, direction: st.direction };
            }
            if visited.contains(st.to) {
                return IllegalMoveError::Revisit { step, point: st.to };
            }
            let captured = match captured_by(st, step, them, legal) {
                Ok(c) => c,
                Err(e) => return e,
            };
            them &= !captured;
            occupied = (occupied & !captured).without(st.from).with(st.to);
            visited = visited.with(st.to);
            last = Some(st.direction);
        }
        // Every rule checked above holds, yet the turn is not generated: this cannot happen
        // for a consistent generator; report the most general reason.
        IllegalMoveError::GameOver
    }
}

/// The stones of `them` that step number `step` of a turn captures as its text says, or the
/// rule its capture kind breaks.
fn captured_by(
    st: &StepText,
    step: usize,
    them: crate::Bitboard,
    legal: &[Move],
) -> Result<crate::Bitboard, IllegalMoveError> {
    let ahead = tables::neighbor(st.to, st.direction).filter(|p| them.contains(*p));
    let behind = tables::neighbor(st.from, st.direction.opposite()).filter(|p| them.contains(*p));
    match st.kind {
        CaptureKind::Paika => {
            if step > 1 {
                return Err(IllegalMoveError::ChainNeedsCapture { step });
            }
            if ahead.is_some() || behind.is_some() {
                let text = format!("{}{}", st.from, st.to);
                let options = [(ahead, "+"), (behind, "-")]
                    .iter()
                    .filter(|(p, _)| p.is_some())
                    .map(|(_, m)| format!("{text}{m}"))
                    .collect::<Vec<_>>()
                    .join(" or ");
                return Err(IllegalMoveError::MissingMark { step, text, options });
            }
            if let Some(capture) = legal.iter().find(|m| !m.is_paika()) {
                return Err(IllegalMoveError::CaptureRequired { suggestion: capture.to_string() });
            }
            Ok(crate::Bitboard::EMPTY)
        }
        CaptureKind::Approach => match ahead {
            Some(p) => Ok(line_of(p, st.direction, them)),
            None => {
                let point =
                    tables::neighbor(st.to, st.direction).map_or("the edge".to_string(), |p| p.to_string());
                Err(IllegalMoveError::NoApproach { step, point })
            }
        },
        CaptureKind::Withdrawal => match behind {
            Some(p) => Ok(line_of(p, st.direction.opposite(), them)),
            None => {
                let point = tables::neighbor(st.from, st.direction.opposite())
                    .map_or("the edge".to_string(), |p| p.to_string());
                Err(IllegalMoveError::NoWithdrawal { step, point })
            }
        },
    }
}

/// The unbroken line of `them`'s stones from `start` on in direction `d`.
fn line_of(start: Point, d: Direction, them: crate::Bitboard) -> crate::Bitboard {
    let mut bb = crate::Bitboard::EMPTY;
    let mut t = Some(start);
    while let Some(p) = t.filter(|p| them.contains(*p)) {
        bb = bb.with(p);
        t = tables::neighbor(p, d);
    }
    bb
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<MoveText, ParseMoveError> {
        let s = s.trim();
        let s = s.strip_suffix('.').unwrap_or(s).trim();
        if s.is_empty() {
            return Err(ParseMoveError::Empty);
        }
        let parts: Vec<&str> = s.split(',').collect();
        if parts.len() > crate::MAX_STEPS {
            return Err(ParseMoveError::TooLong(parts.len()));
        }
        let mut steps = SmallVec::new();
        let mut prev: Option<Point> = None;
        for (i, part) in parts.iter().enumerate() {
            let step = i + 1;
            let text = part.trim();
            let bad = || ParseMoveError::BadStep { step, text: text.to_string() };
            let (body, kind) = match text.as_bytes().last() {
                Some(b'+') => (&text[..text.len() - 1], CaptureKind::Approach),
                Some(b'-') => (&text[..text.len() - 1], CaptureKind::Withdrawal),
                _ => (text, CaptureKind::Paika),
            };
            if body.len() != 4 || !body.is_ascii() {
                return Err(bad());
            }
            let from: Point = body[..2].parse().map_err(|_| bad())?;
            let to: Point = body[2..].parse().map_err(|_| bad())?;
            let direction = Direction::ALL
                .into_iter()
                .find(|&d| tables::neighbor(from, d) == Some(to))
                .ok_or(ParseMoveError::NotALine { step, from, to })?;
            if let Some(expected) = prev.filter(|&e| e != from) {
                return Err(ParseMoveError::Disconnected { step, from, expected });
            }
            prev = Some(to);
            steps.push(StepText { from, to, direction, kind });
        }
        Ok(MoveText { steps })
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.steps.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}{}{}", s.from, s.to, s.kind.mark())?;
        }
        Ok(())
    }
}

impl Position {
    /// Reads a turn in notation and checks it against this position.
    ///
    /// # Errors
    /// [`MoveError::Parse`] when the text is not a turn, [`MoveError::Illegal`] with the reason
    /// when it is not legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t: MoveText = text.parse()?;
        Ok(t.to_move(self)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print() {
        let t: MoveText = "C3D3+,d3d2+,D2C2+.".parse().unwrap();
        assert_eq!(t.to_string(), "c3d3+,d3d2+,d2c2+");
        assert_eq!(t.steps().len(), 3);
        assert_eq!("e2e3".parse::<MoveText>().unwrap().steps()[0].kind, CaptureKind::Paika);
    }

    #[test]
    fn parse_errors() {
        use ParseMoveError::*;
        assert_eq!("".parse::<MoveText>(), Err(Empty));
        assert_eq!(" . ".parse::<MoveText>(), Err(Empty));
        assert!(matches!("d3e".parse::<MoveText>(), Err(BadStep { step: 1, .. })));
        assert!(matches!("d3e3*".parse::<MoveText>(), Err(BadStep { step: 1, .. })));
        assert!(matches!("d3z3+".parse::<MoveText>(), Err(BadStep { .. })));
        assert!(matches!("d3é3".parse::<MoveText>(), Err(BadStep { .. })));
        assert_eq!("d3f3".parse::<MoveText>(), Err(NotALine { step: 1, from: Point::D3, to: Point::F3 }));
        assert_eq!("e2f3".parse::<MoveText>(), Err(NotALine { step: 1, from: Point::E2, to: Point::F3 }));
        assert_eq!(
            "d3e3+,f3f4+".parse::<MoveText>(),
            Err(Disconnected { step: 2, from: Point::F3, expected: Point::E3 })
        );
    }

    #[test]
    fn illegal_turns_say_why() {
        use IllegalMoveError::*;
        let p = Position::start();
        let e = |s: &str| p.parse_move(s).unwrap_err();
        assert_eq!(e("f3e3+"), MoveError::Illegal(NotYourStone { color: Color::White, point: Point::F3 }));
        assert_eq!(e("d2d3"), MoveError::Illegal(Occupied { step: 1, point: Point::D3 }));
        assert!(matches!(e("d3e3"), MoveError::Illegal(MissingMark { .. })));
        assert!(matches!(e("e2e3-"), MoveError::Illegal(NoWithdrawal { .. })));
        assert!(matches!(e("d2e3-"), MoveError::Illegal(NoWithdrawal { .. })));
        assert_eq!(p.parse_move("D3E3-").unwrap().to_string(), "d3e3-");
    }
}
