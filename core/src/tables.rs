//! Lookup tables, computed at compile time.

use crate::{Bitboard, Direction, FILES, Point, RANKS};

const fn neighbor_of(p: usize, d: usize) -> u8 {
    let point = Point::ALL[p];
    let dir = Direction::ALL[d];
    if dir.is_diagonal() && !point.is_strong() {
        return NONE;
    }
    let (df, dr) = dir.delta();
    let f = point.file() as i32 + df;
    let r = point.rank() as i32 + dr;
    if f < 0 || r < 0 || f >= FILES as i32 || r >= RANKS as i32 { NONE } else { (r * FILES as i32 + f) as u8 }
}

/// Marks "no neighbour" in [`NEIGHBOR`].
pub(crate) const NONE: u8 = 255;

/// `NEIGHBOR[d][p]`: the index of the point one step from `p` along a line in direction `d`, or
/// [`NONE`] (off the board, or a diagonal from a weak point, which has no diagonal line).
pub(crate) const NEIGHBOR: [[u8; Point::NUM]; 8] = {
    let mut t = [[NONE; Point::NUM]; 8];
    let mut d = 0;
    while d < 8 {
        let mut p = 0;
        while p < Point::NUM {
            t[d][p] = neighbor_of(p, d);
            p += 1;
        }
        d += 1;
    }
    t
};

/// `RAY[d][p]`: the points beyond `p` along the line in direction `d`, to the edge, `p` excluded.
pub(crate) const RAY: [[u64; Point::NUM]; 8] = {
    let mut t = [[0u64; Point::NUM]; 8];
    let mut d = 0;
    while d < 8 {
        let mut p = 0;
        while p < Point::NUM {
            let mut q = NEIGHBOR[d][p];
            while q != NONE {
                t[d][p] |= 1 << q;
                q = NEIGHBOR[d][q as usize];
            }
            p += 1;
        }
        d += 1;
    }
    t
};

/// `STEP[d][p]`: [`NEIGHBOR`] as a set, empty when there is no neighbour; row 8 (no
/// direction) is all empty.
pub(crate) const STEP: [[u64; Point::NUM]; 9] = {
    let mut t = [[0u64; Point::NUM]; 9];
    let mut d = 0;
    while d < 8 {
        let mut p = 0;
        while p < Point::NUM {
            if NEIGHBOR[d][p] != NONE {
                t[d][p] = 1 << NEIGHBOR[d][p];
            }
            p += 1;
        }
        d += 1;
    }
    t
};

/// `NEXT_REACH[d][p]`: the enemy stones that can matter to the next capturing step of a stone
/// that arrived on `p` by a step in direction `d`: [`CAPTURE_REACH`] without the line along
/// `d` (that step may neither repeat `d` nor go back).
pub(crate) const NEXT_REACH: [[u64; Point::NUM]; 8] = {
    let mut t = [[0u64; Point::NUM]; 8];
    let mut last = 0;
    while last < 8 {
        let mut p = 0;
        while p < Point::NUM {
            let mut d = 0;
            while d < 8 {
                let q = NEIGHBOR[d][p];
                if q != NONE && d != last && d != (last + 4) % 8 {
                    t[last][p] |= 1 << q;
                    let a = NEIGHBOR[d][q as usize];
                    if a != NONE {
                        t[last][p] |= 1 << a;
                    }
                }
                d += 1;
            }
            p += 1;
        }
        last += 1;
    }
    t
};

/// One line step of a capture chain, from a point in one direction, as the counting generator
/// needs it: every set is precomputed so that a step costs a few loads and masks.
#[derive(Clone, Copy, Debug)]
#[repr(align(64))]
pub(crate) struct Edge {
    /// Both first victims: `approach | withdrawal`.
    pub victims: u64,
    /// The first enemy stone an approach would take: the point beyond the destination.
    pub approach: u64,
    /// The first enemy stone a withdrawal would take: the point behind the origin.
    pub withdrawal: u64,
    /// The line an approach captures along: [`RAY`] from the destination in the direction.
    pub approach_ray: u64,
    /// The line a withdrawal captures along: [`RAY`] from the origin, backwards.
    pub withdrawal_ray: u64,
    /// The destination's line neighbours without the one straight ahead: where the next step
    /// may go, before removing what is occupied or visited.
    pub next_targets: u64,
    /// [`NEXT_REACH`] of the destination after this step.
    pub next_reach: u64,
    /// Whether the step raises the point index ([`RISING`]): the approach ray then runs up the
    /// indices and the withdrawal ray down.
    pub rising: bool,
    /// The direction index of the step.
    pub direction: u8,
    /// The destination's point index.
    pub to: u8,
}

impl Edge {
    /// Whether a chain may go on from this step's destination, on a board whose empty points
    /// (the destination taken) are `free` and whose enemy stones are `them`: a free point to go
    /// to and an enemy stone in reach (a quick test, not yet the steps themselves).
    #[inline(always)]
    pub(crate) fn may_go_on(&self, free: u64, them: u64) -> bool {
        self.next_targets & free != 0 && self.next_reach & them != 0
    }
}

/// `EDGE[p][q]`: the step from `p` to its line neighbour `q` (all empty when they are not
/// neighbours). Indexed by the destination, so that a generator walking a set of targets
/// needs no direction lookup; only the 216 entries of real steps are ever read. Computed at
/// compile time; a `static` so that the 130 KB table exists once.
pub(crate) static EDGE: [[Edge; Point::NUM]; Point::NUM] = {
    let none = Edge {
        victims: 0,
        approach: 0,
        withdrawal: 0,
        approach_ray: 0,
        withdrawal_ray: 0,
        next_targets: 0,
        next_reach: 0,
        rising: false,
        direction: 0,
        to: 0,
    };
    let mut t = [[none; Point::NUM]; Point::NUM];
    let mut p = 0;
    while p < Point::NUM {
        let mut d = 0;
        while d < 8 {
            let q = NEIGHBOR[d][p];
            if q != NONE {
                let q = q as usize;
                let back = (d + 4) % 8;
                t[p][q] = Edge {
                    victims: STEP[d][q] | STEP[back][p],
                    approach: STEP[d][q],
                    withdrawal: STEP[back][p],
                    approach_ray: RAY[d][q],
                    withdrawal_ray: RAY[back][p],
                    next_targets: LINE_NEIGHBORS[q] & !STEP[d][q],
                    next_reach: NEXT_REACH[d][q],
                    rising: RISING & (1 << d) != 0,
                    direction: d as u8,
                    to: q as u8,
                };
            }
            d += 1;
        }
        p += 1;
    }
    t
};

/// `WINDOW_EDGE[p][b]`: [`EDGE`] of the step from `p` whose window bit is `b`
/// ([`crate::window`]), so that a walk over a window needs neither the destination's index
/// nor a bounds check (rows of 16, indexed by `b & 15`; entries that are no step are empty).
pub(crate) static WINDOW_EDGE: [[Edge; 16]; Point::NUM] = {
    // EDGE[0][0] is no step: a point is not its own neighbour.
    let mut t = [[EDGE[0][0]; 16]; Point::NUM];
    let mut p = 0;
    while p < Point::NUM {
        let mut d = 0;
        while d < 8 {
            let q = NEIGHBOR[d][p];
            if q != NONE {
                t[p][crate::window::DIRECTION_BIT[d] as usize] = EDGE[p][q as usize];
            }
            d += 1;
        }
        p += 1;
    }
    t
};

/// Bit `d` is set when a step in direction `d` raises the point index (north, north-east,
/// east, north-west).
pub(crate) const RISING: u32 = 0b1000_0111;

/// `LINE_NEIGHBORS[p]`: every point one step from `p` along a line.
pub(crate) const LINE_NEIGHBORS: [u64; Point::NUM] = {
    let mut t = [0u64; Point::NUM];
    let mut p = 0;
    while p < Point::NUM {
        let mut d = 0;
        while d < 8 {
            if NEIGHBOR[d][p] != NONE {
                t[p] |= 1 << NEIGHBOR[d][p];
            }
            d += 1;
        }
        p += 1;
    }
    t
};

/// `CAPTURE_REACH[p]`: the points a capturing step from `p` can hit first: its line neighbours
/// (withdrawal) and the points two steps away along a line (approach). Only the tests'
/// reference generator still uses it.
#[cfg(test)]
pub(crate) const CAPTURE_REACH: [u64; Point::NUM] = {
    let mut t = [0u64; Point::NUM];
    let mut p = 0;
    while p < Point::NUM {
        let mut d = 0;
        while d < 8 {
            let q = NEIGHBOR[d][p];
            if q != NONE {
                t[p] |= 1 << q;
                let a = NEIGHBOR[d][q as usize];
                if a != NONE {
                    t[p] |= 1 << a;
                }
            }
            d += 1;
        }
        p += 1;
    }
    t
};

/// `DIRECTION_TO[p][q]`: the direction index of the line step from `p` to its neighbour `q`
/// (meaningless when they are not neighbours). Only the tests use it ([`EDGE`] needs no
/// direction lookup).
#[cfg(test)]
pub(crate) const DIRECTION_TO: [[u8; Point::NUM]; Point::NUM] = {
    let mut t = [[0u8; Point::NUM]; Point::NUM];
    let mut p = 0;
    while p < Point::NUM {
        let mut d = 0;
        while d < 8 {
            let q = NEIGHBOR[d][p];
            if q != NONE {
                t[p][q as usize] = d as u8;
            }
            d += 1;
        }
        p += 1;
    }
    t
};

/// The point one step from `p` along a line in direction `d`, if there is one.
#[inline]
pub fn neighbor(p: Point, d: Direction) -> Option<Point> {
    let q = NEIGHBOR[d.index()][p.index()];
    Point::try_from_index(q as usize)
}

/// The points beyond `p` along the line in direction `d`, up to the edge.
#[inline]
pub fn ray(p: Point, d: Direction) -> Bitboard {
    Bitboard(RAY[d.index()][p.index()])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn neighbours() {
        assert_eq!(neighbor(Point::E3, Direction::NorthEast), Some(Point::F4));
        assert_eq!(neighbor(Point::E2, Direction::NorthEast), None, "e2 is weak");
        assert_eq!(neighbor(Point::A1, Direction::West), None);
        assert_eq!(neighbor(Point::I3, Direction::East), None);
        assert_eq!(neighbor(Point::A1, Direction::North), Some(Point::A2));
        let degree: usize = Point::ALL
            .iter()
            .map(|&p| Direction::ALL.iter().filter(|&&d| neighbor(p, d).is_some()).count())
            .sum();
        // 40 horizontal + 36 vertical + 32 diagonal lines, each counted from both ends.
        assert_eq!(degree, 2 * (40 + 36 + 32));
        assert_eq!(ray(Point::A1, Direction::NorthEast).count(), 4);
        assert_eq!(ray(Point::A1, Direction::East).count(), 8);
        assert!(ray(Point::B1, Direction::NorthEast).is_empty());
    }

    #[test]
    fn edges() {
        for p in 0..45 {
            for d in 0..8 {
                let q = NEIGHBOR[d][p];
                if q == NONE {
                    continue;
                }
                assert_eq!(DIRECTION_TO[p][q as usize] as usize, d);
                let e = &EDGE[p][q as usize];
                assert_eq!(e.victims, e.approach | e.withdrawal);
                assert_eq!(e.direction as usize, d);
                assert_eq!(e.approach, STEP[d][q as usize]);
                assert_eq!(e.approach_ray & e.approach, e.approach);
                assert_eq!(e.withdrawal_ray & e.withdrawal, e.withdrawal);
                assert_eq!(e.to, q);
                let w = &WINDOW_EDGE[p][crate::window::DIRECTION_BIT[d] as usize];
                assert_eq!((w.to, w.approach, w.withdrawal_ray), (q, e.approach, e.withdrawal_ray));
            }
        }
    }
}
