//! Material signatures: how many stones the side to move and the other side have.

use core::fmt;

use fanorona_core::{Point, Position};

use crate::index::BINOMIAL;

/// The most stones in all that a table may cover (the file format and the probes are bounded
/// by it; generating 7 stones needs gigabytes and hours).
pub const MAX_TB_STONES: u32 = 7;

/// A material signature: the side to move's stones, then the other side's. Both are at least 1
/// and the sum at most [`MAX_TB_STONES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    us: u8,
    them: u8,
}

impl Signature {
    /// The signature with `us` stones to move against `them`, if it is one the tables cover.
    pub const fn new(us: u32, them: u32) -> Option<Signature> {
        if us >= 1 && them >= 1 && us + them <= MAX_TB_STONES {
            Some(Signature { us: us as u8, them: them as u8 })
        } else {
            None
        }
    }

    /// The signature of a position, if the tables can cover it.
    pub fn of(pos: &Position) -> Option<Signature> {
        Signature::new(pos.us().count(), pos.them().count())
    }

    /// Stones of the side to move.
    pub const fn us(self) -> u32 {
        self.us as u32
    }

    /// Stones of the other side.
    pub const fn them(self) -> u32 {
        self.them as u32
    }

    /// Stones in all.
    pub const fn stones(self) -> u32 {
        self.us as u32 + self.them as u32
    }

    /// The signature after a paika turn: the same stones, the other side to move.
    pub const fn swapped(self) -> Signature {
        Signature { us: self.them, them: self.us }
    }

    /// Every signature with exactly `stones` stones, the side to move's largest first.
    pub fn with_stones(stones: u32) -> impl Iterator<Item = Signature> {
        (1..stones).rev().filter_map(move |us| Signature::new(us, stones - us))
    }

    /// Every signature with at most `stones` stones, smaller totals first.
    pub fn up_to(stones: u32) -> impl Iterator<Item = Signature> {
        (2..=stones.min(MAX_TB_STONES)).flat_map(Signature::with_stones)
    }

    /// Number of positions of the signature counted without symmetry: every placement of the
    /// side to move's stones times every placement of the other side's on the points left
    /// (Schadd et al.'s count of "different positions").
    pub const fn placements(self) -> u64 {
        let (us, them) = (self.us as usize, self.them as usize);
        BINOMIAL[Point::NUM][us] * BINOMIAL[Point::NUM - us][them]
    }

    /// The table's file name: `3v2.fantb` for three stones to move against two.
    pub fn file_name(self) -> String {
        format!("{}v{}.{}", self.us, self.them, crate::format::EXTENSION)
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.us, self.them)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures() {
        assert_eq!(Signature::new(0, 3), None);
        assert_eq!(Signature::new(4, 4), None);
        let s = Signature::new(3, 2).unwrap();
        assert_eq!(s.swapped(), Signature::new(2, 3).unwrap());
        assert_eq!(s.file_name(), "3v2.fantb");
        assert_eq!(Signature::up_to(4).count(), 1 + 2 + 3);
        let order: Vec<String> = Signature::up_to(3).map(|s| s.to_string()).collect();
        assert_eq!(order, ["1v1", "2v1", "1v2"]);
        assert_eq!(Signature::new(1, 1).unwrap().placements(), 45 * 44);
    }

    #[test]
    fn placements_add_up_to_schadds_count() {
        // Schadd et al. (2008): 6,261,651,660 positions with 2 to 7 stones, both sides at least one.
        let all: u64 = Signature::up_to(7).map(Signature::placements).sum();
        assert_eq!(all, 6_261_651_660);
    }
}
