//! [`MoveCode`]: a turn in compact serialisable form (its origin and its steps), decoded back
//! into a [`Move`] only against the position it is played in.

use core::fmt;

use fanorona_core::{
    Bitboard, CaptureKind, Color, Direction, MAX_STEPS, Move, Point, Position, Step, neighbor,
};
use serde::de::{self, SeqAccess, Visitor};
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A turn as stored in a record: the origin point and up to 22 step codes, each step one byte
/// `direction | kind << 3` (direction 0..8 clockwise from north, kind 0 paika, 1 approach,
/// 2 withdrawal). Serialised as a sequence of bytes: the origin's index, then the steps.
///
/// A `MoveCode` is only a claim; [`MoveCode::to_move`] checks it against a position.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct MoveCode {
    from: Point,
    len: u8,
    steps: [u8; MAX_STEPS],
}

/// Encodes one step as a byte.
#[inline]
pub fn step_code(s: Step) -> u8 {
    s.direction() as u8 | (s.kind() as u8) << 3
}

/// Decodes one step byte, if it is a valid code.
#[inline]
pub fn step_from_code(c: u8) -> Option<Step> {
    let kind = match c >> 3 {
        0 => CaptureKind::Paika,
        1 => CaptureKind::Approach,
        2 => CaptureKind::Withdrawal,
        _ => return None,
    };
    Some(Step::new(Direction::from_index(usize::from(c & 7)), kind))
}

impl MoveCode {
    /// The code of a move.
    pub fn from_move(m: &Move) -> MoveCode {
        let mut steps = [0u8; MAX_STEPS];
        for (slot, s) in steps.iter_mut().zip(m.steps()) {
            *slot = step_code(*s);
        }
        MoveCode { from: m.from(), len: m.steps().len() as u8, steps }
    }

    /// A code from its serialised bytes (origin index, then 1 to 22 valid step codes).
    #[inline]
    pub(crate) fn from_bytes(from: u8, steps: &[u8]) -> Option<MoveCode> {
        let from = Point::try_from_index(usize::from(from))?;
        if steps.is_empty() || steps.len() > MAX_STEPS || steps.iter().any(|c| step_from_code(*c).is_none()) {
            return None;
        }
        let mut code = MoveCode { from, len: steps.len() as u8, steps: [0; MAX_STEPS] };
        code.steps[..steps.len()].copy_from_slice(steps);
        Some(code)
    }

    /// The origin.
    pub fn from(&self) -> Point {
        self.from
    }

    /// The step codes, in order.
    pub fn step_codes(&self) -> &[u8] {
        &self.steps[..usize::from(self.len)]
    }

    /// Whether this code names `m` (same origin and steps).
    #[inline]
    pub fn matches(&self, m: &Move) -> bool {
        m.from() == self.from
            && m.steps().len() == usize::from(self.len)
            && m.steps().iter().zip(self.step_codes()).all(|(s, c)| step_code(*s) == *c)
    }

    /// The legal move of `pos` this code names, if any.
    pub fn find_in(&self, pos: &Position) -> Option<Move> {
        pos.legal_moves().iter().find(|m| self.matches(m)).copied()
    }

    /// The legal move of `pos` this code names.
    ///
    /// # Errors
    /// A [`fanorona_core::MoveError`] saying why the turn is not legal in `pos` (or that its
    /// geometry is not a turn at all).
    pub fn to_move(&self, pos: &Position) -> Result<Move, fanorona_core::MoveError> {
        if let Some(m) = self.find_in(pos) {
            return Ok(m);
        }
        // Let the notation checker name the rule the turn breaks.
        match self.notation() {
            Some(text) => pos.parse_move(&text),
            None => Err(fanorona_core::ParseMoveError::BadStep { step: 0, text: format!("{self:?}") }.into()),
        }
    }

    /// Plays the turn on `pos` without generating its legal moves: a fast structural check
    /// (the origin holds a stone of the side to move, every step follows a line of the board
    /// to an empty point, every approach or withdrawal mark has an enemy line to remove, a
    /// paika step is alone, and no chain step fails to capture) and the resulting position.
    /// It does not check the rules that need the whole position (compulsory capture, the chain
    /// rules on directions and revisits): [`MoveCode::to_move`] does. `None` when a check
    /// fails.
    #[inline]
    pub fn play_fast(&self, pos: &Position) -> Option<Position> {
        let us = pos.turn();
        let mut mine = pos.us();
        let mut theirs = pos.them();
        if !mine.contains(self.from) {
            return None;
        }
        let n = usize::from(self.len);
        let mut at = self.from;
        for (i, c) in self.step_codes().iter().enumerate() {
            let s = step_from_code(*c)?;
            let d = s.direction();
            let to = neighbor(at, d)?;
            if (mine | theirs).contains(to) {
                return None;
            }
            let (first, dir) = match s.kind() {
                CaptureKind::Paika if n == 1 => (None, d),
                CaptureKind::Paika => return None,
                CaptureKind::Approach => (Some(neighbor(to, d)?), d),
                CaptureKind::Withdrawal => (Some(neighbor(at, d.opposite())?), d.opposite()),
            };
            if let Some(first) = first {
                if !theirs.contains(first) {
                    return None;
                }
                let mut t = Some(first);
                while let Some(p) = t.filter(|p| theirs.contains(*p)) {
                    theirs = theirs.without(p);
                    t = neighbor(p, dir);
                }
            }
            let _ = i;
            mine = mine.without(at).with(to);
            at = to;
        }
        let (w, b): (Bitboard, Bitboard) = match us {
            Color::White => (mine, theirs),
            Color::Black => (theirs, mine),
        };
        Position::from_stones(w, b, us.other()).ok()
    }

    /// The turn in notation (`d3e3+`, `c3d3+,d3d2+`), or `None` when a step leaves the board
    /// or a step code is invalid.
    pub fn notation(&self) -> Option<String> {
        use std::fmt::Write as _;
        let mut out = String::new();
        let mut at = self.from;
        if self.len == 0 {
            return None;
        }
        for (i, c) in self.step_codes().iter().enumerate() {
            let s = step_from_code(*c)?;
            let to = neighbor(at, s.direction())?;
            if i > 0 {
                out.push(',');
            }
            let _ = write!(out, "{at}{to}{}", s.kind().mark());
            at = to;
        }
        Some(out)
    }
}

impl From<&Move> for MoveCode {
    fn from(m: &Move) -> MoveCode {
        MoveCode::from_move(m)
    }
}

impl fmt::Display for MoveCode {
    /// Notation, or a raw description when the code is not a well-formed turn.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.notation() {
            Some(t) => f.write_str(&t),
            None => write!(f, "<malformed turn from {} steps {:?}>", self.from, self.step_codes()),
        }
    }
}

impl fmt::Debug for MoveCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "MoveCode({self})")
    }
}

impl Serialize for MoveCode {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(1 + usize::from(self.len)))?;
        seq.serialize_element(&(self.from as u8))?;
        for c in self.step_codes() {
            seq.serialize_element(c)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for MoveCode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<MoveCode, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = MoveCode;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a turn: an origin point index then 1 to 22 step codes")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<MoveCode, A::Error> {
                let from: u8 = seq.next_element()?.ok_or_else(|| de::Error::custom("turn without origin"))?;
                let from = Point::try_from_index(usize::from(from))
                    .ok_or_else(|| de::Error::custom(format!("turn origin {from} is not a point index")))?;
                let mut code = MoveCode { from, len: 0, steps: [0; MAX_STEPS] };
                while let Some(c) = seq.next_element::<u8>()? {
                    if usize::from(code.len) == MAX_STEPS {
                        return Err(de::Error::custom("turn with more than 22 steps"));
                    }
                    if step_from_code(c).is_none() {
                        return Err(de::Error::custom(format!("invalid step code {c}")));
                    }
                    code.steps[usize::from(code.len)] = c;
                    code.len += 1;
                }
                if code.len == 0 {
                    return Err(de::Error::custom("turn without steps"));
                }
                Ok(code)
            }
        }
        d.deserialize_seq(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_round_trip_and_match() {
        let pos = Position::start();
        for m in pos.legal_moves() {
            let c = MoveCode::from_move(&m);
            assert!(c.matches(&m));
            assert_eq!(c.notation(), Some(m.to_string()));
            assert_eq!(c.to_move(&pos).unwrap(), m);
            assert_eq!(c.play_fast(&pos), pos.play(&m).ok());
        }
        let c = MoveCode::from_move(&pos.parse_move("d3e3-").unwrap());
        assert_eq!(c.step_codes(), &[2 | 2 << 3]); // east, withdrawal
        assert_eq!(c.from(), Point::D3);
    }

    #[test]
    fn illegal_code_is_explained() {
        let pos = Position::start();
        let m = pos.parse_move("d3e3+").unwrap();
        let next = pos.play(&m).unwrap();
        // The same turn in the next position: d3 is now empty.
        let err = MoveCode::from_move(&m).to_move(&next).unwrap_err();
        assert!(err.to_string().contains("d3"), "{err}");
    }

    #[test]
    fn play_fast_agrees_with_the_rules_along_random_games() {
        let mut x: u64 = 12345;
        for _ in 0..200 {
            let mut pos = Position::start();
            for _ in 0..120 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                for m in &legal {
                    let mut next = pos;
                    next.play_unchecked(m);
                    assert_eq!(MoveCode::from_move(m).play_fast(&pos), Some(next), "{m} in {pos}");
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                pos.play_unchecked(&legal[(x % legal.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn step_codes_validate() {
        assert!(step_from_code(3 << 3).is_none());
        assert_eq!(
            step_from_code(1 << 3 | 4).map(|s| (s.direction(), s.kind())),
            Some((Direction::South, CaptureKind::Approach))
        );
    }
}
