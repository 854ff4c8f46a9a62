//! Legal turn generation.
//!
//! Capturing is compulsory: when any stone of the side to move has a capturing step, the legal
//! turns are every capture chain (each stopping point a turn of its own, approach and
//! withdrawal separate), else every paika step. A position where either side has no stones
//! has no legal turns (the game is over).

use crate::tables::{CAPTURE_REACH, DIRECTION_TO, LINE_NEIGHBORS, NEIGHBOR, NONE};
use crate::{Bitboard, CaptureKind, Direction, Move, MoveList, Point, Position, Step};

/// Origins whose step in direction `d` lands on an empty point (diagonals only from strong points).
#[inline]
fn step_origins(us: Bitboard, empty: Bitboard, d: Direction) -> Bitboard {
    let movers = us & empty.shift(d.opposite());
    if d.is_diagonal() { movers & Bitboard::STRONG } else { movers }
}

/// Stones of the side to move that have a capturing first step.
#[inline]
fn capture_origins(us: Bitboard, them: Bitboard, empty: Bitboard) -> Bitboard {
    let mut any = Bitboard::EMPTY;
    for d in Direction::ALL {
        let movers = step_origins(us, empty, d);
        let back = d.opposite();
        any |= movers & (them.shift(back).shift(back) | them.shift(d));
    }
    any
}

/// The enemy stones removed by a capture whose first stone is on `start`, running along `d`.
#[inline]
fn capture_run(start: u8, d: usize, them: u64) -> u64 {
    let mut run = 0u64;
    let mut t = start;
    while t != NONE && them & (1u64 << t) != 0 {
        run |= 1u64 << t;
        t = NEIGHBOR[d][t as usize];
    }
    run
}

/// Calls `f(direction, kind, destination, captured)` for every capturing step of the stone on
/// `at`, except in direction `last` (8 for none). `blocked` holds the other stones of its side
/// and every point it has occupied this turn.
#[inline(always)]
fn for_each_capture_step(
    at: u8,
    last: usize,
    blocked: u64,
    them: u64,
    mut f: impl FnMut(usize, CaptureKind, u8, u64),
) {
    let at_ix = at as usize;
    if CAPTURE_REACH[at_ix] & them == 0 {
        return;
    }
    // Free neighbours on a line, minus the one straight ahead when that repeats a direction.
    let mut targets = LINE_NEIGHBORS[at_ix] & !(blocked | them);
    if last < 8 {
        let ahead = NEIGHBOR[last][at_ix];
        if ahead != NONE {
            targets &= !(1u64 << ahead);
        }
    }
    while targets != 0 {
        let q = targets.trailing_zeros() as u8;
        targets &= targets - 1;
        let d = DIRECTION_TO[at_ix][q as usize] as usize;
        let a = NEIGHBOR[d][q as usize];
        if a != NONE && them & (1u64 << a) != 0 {
            f(d, CaptureKind::Approach, q, capture_run(a, d, them));
        }
        let back = (d + 4) & 7;
        let w = NEIGHBOR[back][at_ix];
        if w != NONE && them & (1u64 << w) != 0 {
            f(d, CaptureKind::Withdrawal, q, capture_run(w, back, them));
        }
    }
}

/// Emits every turn that continues `mv` (whose stone is on `at`) by capturing steps.
fn gen_chains(mv: &Move, at: u8, last: usize, blocked: u64, them: u64, out: &mut MoveList) {
    for_each_capture_step(at, last, blocked, them, |d, kind, q, run| {
        let mut next = *mv;
        let to = Point::ALL[q as usize];
        next.push(Step::new(Direction::from_index(d), kind), to, Bitboard(run));
        out.push(next);
        gen_chains(&next, q, d, blocked | (1u64 << q), them & !run, out);
    });
}

/// Counts the turns that continue a chain whose stone is on `at`.
fn count_chains(at: u8, last: usize, blocked: u64, them: u64) -> u64 {
    let mut n = 0;
    for_each_capture_step(at, last, blocked, them, |d, _, q, run| {
        n += 1 + count_chains(q, d, blocked | (1u64 << q), them & !run);
    });
    n
}

impl Position {
    /// Whether the side to move has a capturing step (and so must capture).
    #[inline]
    pub fn has_capture(&self) -> bool {
        let (us, them) = (self.us(), self.them());
        capture_origins(us, them, self.empty()).any()
    }

    /// Whether the game is over: a side has no stones, or the side to move has no legal turn.
    pub fn is_game_over(&self) -> bool {
        self.count_moves() == 0
    }

    /// Fills `out` (after clearing it) with every legal turn.
    pub fn generate_moves(&self, out: &mut MoveList) {
        out.clear();
        let (us, them) = (self.us(), self.them());
        if us.is_empty() || them.is_empty() {
            return;
        }
        let empty = self.empty();
        let origins = capture_origins(us, them, empty);
        if origins.any() {
            for from in origins {
                let start = Move::start(from);
                let blocked = us.0; // own stones, with the mover's origin as visited
                gen_chains(&start, from as u8, 8, blocked, them.0, out);
            }
        } else {
            for from in us {
                for d in Direction::ALL {
                    if let Some(to) = crate::tables::neighbor(from, d).filter(|&to| empty.contains(to)) {
                        let mut m = Move::start(from);
                        m.push(Step::new(d, CaptureKind::Paika), to, Bitboard::EMPTY);
                        out.push(m);
                    }
                }
            }
        }
    }

    /// Every legal turn.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// The number of legal turns, counted without building them.
    pub fn count_moves(&self) -> u64 {
        let (us, them) = (self.us(), self.them());
        if us.is_empty() || them.is_empty() {
            return 0;
        }
        let empty = self.empty();
        let origins = capture_origins(us, them, empty);
        if origins.any() {
            origins.into_iter().map(|from| count_chains(from as u8, 8, us.0, them.0)).sum()
        } else {
            Direction::ALL.iter().map(|&d| u64::from(step_origins(us, empty, d).count())).sum()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(p: &Position) -> Vec<String> {
        let mut v: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn start_moves() {
        let p = Position::start();
        assert_eq!(names(&p), vec!["d2e3+", "d3e3+", "d3e3-", "e2e3+", "f2e3+"]);
        assert_eq!(p.count_moves(), 5);
        assert!(p.has_capture());
    }
}
