//! A position's value in the tables: win, draw or loss for the side to move, with the distance
//! to capture (dtc) for wins and losses.

use core::fmt;

/// The game-theoretic result for the side to move, endless play being a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move loses against best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side to move wins against best play.
    Win,
}

impl Wdl {
    /// `"win"`, `"draw"` or `"loss"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The largest dtc a table entry can hold.
pub const MAX_DTC: u32 = 127;

/// A position's value for the side to move.
///
/// `dtc` (distance to capture) counts turns, both sides' together: a position with no legal
/// turn is `Loss(0)`; a win is the fewest turns, over the turns that leave the opponent lost, of
/// 1 for a capture and 1 + the child's dtc for a paika turn; a loss is the most of the same over
/// all its turns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// A win, with its dtc (at least 1).
    Win(u32),
    /// A draw.
    Draw,
    /// A loss, with its dtc (0 when the side to move has no legal turn).
    Loss(u32),
}

impl Value {
    /// Win, draw or loss.
    pub const fn wdl(self) -> Wdl {
        match self {
            Value::Win(_) => Wdl::Win,
            Value::Draw => Wdl::Draw,
            Value::Loss(_) => Wdl::Loss,
        }
    }

    /// The distance to capture; `None` for a draw.
    pub const fn dtc(self) -> Option<u32> {
        match self {
            Value::Win(d) | Value::Loss(d) => Some(d),
            Value::Draw => None,
        }
    }

    /// The value under the no-progress rule: a win or loss whose dtc is more than the turns
    /// without capture left (`max_quiet - quiet`) becomes a draw ("cursed" win, "blessed"
    /// loss). `max_quiet == 0` means no limit.
    ///
    /// This looks at the current phase only (up to the next capture), as the issue defines it;
    /// a conversion that needs more than `max_quiet` turns in a later phase is not seen here.
    pub const fn under_quiet_rule(self, quiet: u32, max_quiet: u32) -> Value {
        if max_quiet == 0 {
            return self;
        }
        let left = max_quiet.saturating_sub(quiet);
        match self {
            Value::Win(d) | Value::Loss(d) if d > left => Value::Draw,
            v => v,
        }
    }

    /// The value of the position before a paika turn that leads to a position of value `self`
    /// (seen from the side that moves next).
    pub const fn before_paika(self) -> Value {
        match self {
            Value::Win(d) => Value::Loss(d + 1),
            Value::Draw => Value::Draw,
            Value::Loss(d) => Value::Win(d + 1),
        }
    }

    /// The value of the position before a capture turn that leads to a position of value
    /// `self` (seen from the side that moves next).
    pub const fn before_capture(self) -> Value {
        match self {
            Value::Win(_) => Value::Loss(1),
            Value::Draw => Value::Draw,
            Value::Loss(_) => Value::Win(1),
        }
    }

    /// An ordering key, higher is better for the side to move: quicker wins above slower
    /// ones, draws, then slower losses above quicker ones.
    pub const fn rank(self) -> i64 {
        match self {
            Value::Win(d) => 1_000_000 - d as i64,
            Value::Draw => 0,
            Value::Loss(d) => -1_000_000 + d as i64,
        }
    }

    /// The byte stored in a table: 0 draw, 1..=127 a win with that dtc, 128 + dtc a loss.
    ///
    /// # Errors
    /// The dtc, when it is beyond [`MAX_DTC`] (or a win has dtc 0).
    pub const fn encode(self) -> Result<u8, u32> {
        match self {
            Value::Draw => Ok(0),
            Value::Win(d) if d >= 1 && d <= MAX_DTC => Ok(d as u8),
            Value::Loss(d) if d <= MAX_DTC => Ok(128 + d as u8),
            Value::Win(d) | Value::Loss(d) => Err(d),
        }
    }

    /// The value of a stored byte (every byte is a value).
    pub const fn decode(b: u8) -> Value {
        match b {
            0 => Value::Draw,
            1..=127 => Value::Win(b as u32),
            _ => Value::Loss((b - 128) as u32),
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win (dtc {d})"),
            Value::Draw => f.write_str("draw"),
            Value::Loss(d) => write!(f, "loss (dtc {d})"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_round_trip() {
        for b in 0..=255u8 {
            assert_eq!(Value::decode(b).encode(), Ok(b));
        }
        assert_eq!(Value::Win(0).encode(), Err(0));
        assert_eq!(Value::Loss(128).encode(), Err(128));
    }

    #[test]
    fn quiet_rule_and_order() {
        assert_eq!(Value::Win(5).under_quiet_rule(45, 50), Value::Win(5));
        assert_eq!(Value::Win(6).under_quiet_rule(45, 50), Value::Draw);
        assert_eq!(Value::Loss(9).under_quiet_rule(45, 50), Value::Draw);
        assert_eq!(Value::Loss(9).under_quiet_rule(45, 0), Value::Loss(9));
        assert!(Value::Win(1).rank() > Value::Win(2).rank());
        assert!(Value::Win(90).rank() > Value::Draw.rank());
        assert!(Value::Loss(3).rank() > Value::Loss(2).rank());
        assert!(Value::Draw.rank() > Value::Loss(100).rank());
        assert_eq!(Value::Loss(0).before_paika(), Value::Win(1));
        assert_eq!(Value::Win(3).before_capture(), Value::Loss(1));
    }
}
