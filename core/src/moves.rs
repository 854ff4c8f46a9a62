//! A move is one whole turn: a stone's origin and every step it makes.

use core::fmt;
use core::hash::{Hash, Hasher};

use crate::{Bitboard, Direction, Point, Turn, tables};

/// How a step captures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum CaptureKind {
    /// A step that captures nothing (legal only when no capture exists anywhere).
    Paika = 0,
    /// Capture by approach: the enemy line in front of the destination is removed.
    Approach = 1,
    /// Capture by withdrawal: the enemy line behind the origin is removed.
    Withdrawal = 2,
}

impl CaptureKind {
    /// The notation mark: `+`, `-` or nothing.
    pub const fn mark(self) -> &'static str {
        match self {
            CaptureKind::Paika => "",
            CaptureKind::Approach => "+",
            CaptureKind::Withdrawal => "-",
        }
    }
}

/// One step of a turn: a direction and a capture kind, packed in one byte.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Step(u8);

impl Step {
    /// A step in `direction` capturing as `kind`.
    #[inline]
    pub const fn new(direction: Direction, kind: CaptureKind) -> Step {
        Step(direction as u8 | (kind as u8) << 3)
    }

    /// Where the stone steps.
    #[inline]
    pub const fn direction(self) -> Direction {
        Direction::from_index((self.0 & 7) as usize)
    }

    /// What it captures.
    #[inline]
    pub const fn kind(self) -> CaptureKind {
        match self.0 >> 3 {
            1 => CaptureKind::Approach,
            2 => CaptureKind::Withdrawal,
            _ => CaptureKind::Paika,
        }
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Step({}{})", self.direction(), self.kind().mark())
    }
}

/// Most steps one turn can have. Every step of a chain captures at least one enemy stone and a
/// side has at most 22 stones, so no turn has more than 22 steps.
pub const MAX_STEPS: usize = 22;

/// One complete turn: which stone moves, every step with its capture kind, the point where it
/// ends and the stones it removes.
///
/// Two moves are equal when their origin and steps are equal; `to` and `captured` follow from
/// them and the position. A `Move` is only meaningful for the position it was generated in.
#[derive(Clone, Copy)]
pub struct Move {
    from: Point,
    to: Point,
    len: u8,
    steps: [Step; MAX_STEPS],
    captured: Bitboard,
}

const NO_STEP: Step = Step::new(Direction::North, CaptureKind::Paika);

impl Move {
    /// A turn that starts on `from` and has no steps yet (the building block of the generator).
    #[inline]
    pub(crate) const fn start(from: Point) -> Move {
        Move { from, to: from, len: 0, steps: [NO_STEP; MAX_STEPS], captured: Bitboard::EMPTY }
    }

    /// Adds a step that ends on `to` and captures `captured`.
    #[inline]
    pub(crate) fn push(&mut self, step: Step, to: Point, captured: Bitboard) {
        self.steps[self.len as usize] = step;
        self.len += 1;
        self.to = to;
        self.captured |= captured;
    }

    /// The point the stone starts from.
    #[inline]
    pub const fn from(&self) -> Point {
        self.from
    }

    /// The point the stone ends on.
    #[inline]
    pub const fn to(&self) -> Point {
        self.to
    }

    /// The steps, in order.
    #[inline]
    pub fn steps(&self) -> &[Step] {
        &self.steps[..self.len as usize]
    }

    /// Every enemy stone the turn removes.
    #[inline]
    pub const fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether the turn is a paika move (it captures nothing).
    #[inline]
    pub const fn is_paika(&self) -> bool {
        self.captured.is_empty()
    }

    /// The turn without its steps (what playing it needs).
    #[inline]
    pub const fn turn(&self) -> Turn {
        Turn::new(self.from, self.to, self.captured)
    }

    /// The points the stone occupies, origin first: one more than the number of steps.
    pub fn path(&self) -> impl Iterator<Item = Point> + '_ {
        let mut at = self.from;
        core::iter::once(self.from).chain(self.steps().iter().map(move |s| {
            at = tables::neighbor(at, s.direction()).unwrap_or(at);
            at
        }))
    }

    /// The same turn on the board mirrored left-right (its `captured` mirrored too).
    pub fn mirror_files(&self) -> Move {
        let mut m = *self;
        m.from = self.from.mirror_files();
        m.to = self.to.mirror_files();
        for s in &mut m.steps[..self.len as usize] {
            *s = Step::new(s.direction().mirror_files(), s.kind());
        }
        m.captured = self.captured.mirror_files();
        m
    }

    /// The same turn on the board turned 180 degrees.
    pub fn rotate180(&self) -> Move {
        let mut m = *self;
        m.from = self.from.rotate180();
        m.to = self.to.rotate180();
        for s in &mut m.steps[..self.len as usize] {
            *s = Step::new(s.direction().opposite(), s.kind());
        }
        m.captured = self.captured.rotate180();
        m
    }
}

impl PartialEq for Move {
    /// Origin and steps; the end point and step count follow from them, so comparing those
    /// first rejects most different moves without reading the steps (the search compares
    /// every generated move with its killers).
    #[inline]
    fn eq(&self, other: &Move) -> bool {
        self.from == other.from
            && self.to == other.to
            && self.len == other.len
            && self.steps() == other.steps()
    }
}

impl Eq for Move {}

impl Hash for Move {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.from.hash(h);
        self.steps().hash(h);
    }
}

impl fmt::Display for Move {
    /// Notation: `d3e3+`, `e2e3`, `c3d3+,d3d2+,d2c2+`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut at = self.from;
        for (i, s) in self.steps().iter().enumerate() {
            let to = tables::neighbor(at, s.direction()).unwrap_or(at);
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{at}{to}{}", s.kind().mark())?;
            at = to;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}
