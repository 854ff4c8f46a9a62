//! Legal turn generation.
//!
//! Capturing is compulsory: when any stone of the side to move has a capturing step, the legal
//! turns are every capture chain (each stopping point a turn of its own, approach and
//! withdrawal separate), else every paika step. A position where either side has no stones
//! has no legal turns (the game is over).
//!
//! How it is fast:
//! - the first capturing steps of all stones are found at once, by shifting the board by each
//!   direction (as chess generators do for pawns): per direction, the points whose next point
//!   is empty and whose point beyond (approach) or behind (withdrawal) holds an enemy stone;
//! - counting (perft's last ply, [`Position::count_moves`]) adds those first steps up by
//!   population counts and follows only the steps that can go on: whether a step can go on
//!   does not depend on what it captured, since the captured line lies along the step, which
//!   the next step may neither repeat nor reverse;
//! - counting a chain finds every capturing step of its stone at once from three 3x3 windows
//!   of the board around it ([`window`]: free neighbours, enemy stones two steps away, enemy
//!   stones behind), counts them by table and loops only over the steps that may go on,
//!   approaches and withdrawals alike, with as few data-dependent branches as possible (a
//!   mispredicted branch costs more than the dozen operations of a window); a stop's steps are
//!   read before its capture is worked out (they do not depend on it), so a stop with no step
//!   costs neither its capture nor a call, and the two captures onto one stop share its windows;
//! - a chain step reads one entry of the `EDGE` table, indexed by origin and destination
//!   (`WINDOW_EDGE` when counting: by origin and window bit), with its victim points, capture
//!   rays and where the next step may go, and a captured line is cut
//!   out of a ray with two bit operations instead of a walk;
//! - perft's inner plies are played on the two sets of stones alone ([`for_each_turn`]), with
//!   no list, no [`Move`] and no hash; [`Position::generate_moves`] keeps its order (targets by
//!   point index, approach before withdrawal, each turn followed by its continuations), which
//!   the search's transposition table relies on.

use crate::direction::each_direction;
use crate::tables::{EDGE, Edge, NEIGHBOR, RAY, RISING, WINDOW_EDGE};
use smallvec::SmallVec;

use crate::{
    Bitboard, CaptureKind, Color, Direction, Move, MoveList, Point, Position, Step, Turn, TurnList, window,
};

/// A turn as it is built, step by step, by [`gen_chains`]: a whole [`Move`], or a [`Turn`]
/// that keeps only what playing it needs (the steps compile away).
trait Chain: Copy {
    /// A turn from `from` with no step yet.
    fn start(from: Point) -> Self;
    /// Adds a step that ends on `to` and captures `captured`.
    fn push(&mut self, step: Step, to: Point, captured: Bitboard);
}

impl Chain for Move {
    #[inline(always)]
    fn start(from: Point) -> Move {
        Move::start(from)
    }

    #[inline(always)]
    fn push(&mut self, step: Step, to: Point, captured: Bitboard) {
        Move::push(self, step, to, captured);
    }
}

impl Chain for Turn {
    #[inline(always)]
    fn start(from: Point) -> Turn {
        Turn::new(from, from, Bitboard::EMPTY)
    }

    #[inline(always)]
    fn push(&mut self, _step: Step, to: Point, captured: Bitboard) {
        *self = Turn::new(self.from(), to, self.captured() | captured);
    }
}

/// Stones of the side to move that have a capturing first step.
#[inline]
fn capture_origins(us: Bitboard, them: Bitboard, empty: Bitboard) -> Bitboard {
    let (us, them, empty) = (us.0, them.0, empty.0);
    let mut any = 0u64;
    each_direction!(D => {
        let back = (D + 4) & 7;
        any |= steppers(empty, D) & (shift(shift(them, back), back) | shift(them, D));
    });
    Bitboard(any & us)
}

/// Emits every turn that continues `mv` (whose stone is on `at`) by the capturing steps
/// `approach` and `withdrawal` (windows around `at`, [`capture_steps`]), in the order of
/// [`Position::generate_moves`]: targets by point index (window bits run in point order), an
/// approach before a withdrawal, each turn followed by its own continuations. Only the
/// capturing steps are visited, and a stop's own steps are read before its capture is worked
/// out (they do not depend on it): once for the two captures onto one stop, and a stop with
/// none costs no call. The same code builds whole [`Move`]s and step-less [`Turn`]s, so both
/// come in one order.
fn gen_chains<T: Chain>(
    mv: &T,
    at: usize,
    steps: (u32, u32),
    free: u64,
    them: u64,
    out: &mut SmallVec<[T; 128]>,
) {
    gen_chains_inline(mv, at, steps, free, them, out);
}

/// [`gen_chains`] inlined into its caller: the first steps of each origin are worked out in
/// [`Position::generate_moves`] and [`Position::generate_captures`] themselves, and only a
/// stop that goes on costs a call (one call per origin saved).
#[inline(always)]
fn gen_chains_inline<T: Chain>(
    mv: &T,
    at: usize,
    (approach, withdrawal): (u32, u32),
    free: u64,
    them: u64,
    out: &mut SmallVec<[T; 128]>,
) {
    for WindowStop { bit, edge, to: q, free } in window_stops(at, approach | withdrawal, free) {
        // A quick test first (a free point to go to, an enemy stone in reach), then the steps.
        let steps = if edge.may_go_on(free, them) { capture_steps(q, 1 << bit, free, them) } else { (0, 0) };
        let go_on = steps.0 | steps.1 != 0;
        let direction = Direction::from_index(edge.direction as usize);
        let to = Point::ALL[q];
        if approach & (1 << bit) != 0 {
            let run = run_along(edge.approach_ray, edge.rising, them);
            let mut next = *mv;
            next.push(Step::new(direction, CaptureKind::Approach), to, Bitboard(run));
            out.push(next);
            if go_on {
                gen_chains(&next, q, steps, free | run, them & !run, out);
            }
        }
        if withdrawal & (1 << bit) != 0 {
            let run = run_along(edge.withdrawal_ray, !edge.rising, them);
            let mut next = *mv;
            next.push(Step::new(direction, CaptureKind::Withdrawal), to, Bitboard(run));
            out.push(next);
            if go_on {
                gen_chains(&next, q, steps, free | run, them & !run, out);
            }
        }
    }
}

/// A stop of a capturing step read from a window around its origin: the step's window bit,
/// its [`Edge`], its destination and the empty points once the stone stands there.
struct WindowStop {
    bit: u32,
    edge: &'static Edge,
    to: usize,
    free: u64,
}

/// The stops of the capturing steps `stops` (a window around `at`, approaches and withdrawals
/// together) on a board whose empty points are `free`, by window bit (point order): the loop
/// head that turn generation ([`gen_chains`]) and counting ([`below_steps`]) share.
#[inline(always)]
fn window_stops(at: usize, stops: u32, free: u64) -> impl Iterator<Item = WindowStop> {
    let mut stops = stops;
    core::iter::from_fn(move || {
        if stops == 0 {
            return None;
        }
        let bit = stops.trailing_zeros();
        stops &= stops - 1;
        let edge = &WINDOW_EDGE[at][bit as usize & 15];
        let to = usize::from(edge.to);
        Some(WindowStop { bit, edge, to, free: free & !(1u64 << to) })
    })
}

/// The unbroken line of `them` at the start of `ray` (the points beyond a point along a line,
/// running up the indices when `rising`): the enemy stones a capture along it removes.
#[inline(always)]
fn run_along(ray: u64, rising: bool, them: u64) -> u64 {
    let blockers = ray & !them;
    // Rising, keep what lies below the lowest blocker; else what lies above the highest.
    let below_lowest = (blockers & blockers.wrapping_neg()).wrapping_sub(1);
    let above_highest = !(1u64.wrapping_shl(64 - blockers.leading_zeros()) - 1);
    // A mask rather than a branch: which way a capture runs is as good as random.
    let rising = u64::from(rising).wrapping_neg();
    ray & ((below_lowest & rising) | (above_highest & !rising))
}

/// The enemy stones removed by a capture whose victims start one step beyond `p` along `d`.
#[inline(always)]
fn run_beyond(p: usize, d: usize, them: u64) -> u64 {
    run_along(RAY[d][p], RISING & (1 << d) != 0, them)
}

/// The capturing steps of a stone on `at` that arrived by the step whose window bit is
/// `ahead`, as windows (approaches, withdrawals), read from three windows of the board: the
/// free neighbours, the enemy stones two steps away and the enemy stones behind.
///
/// They do not depend on what the step onto `at` captured: the captured line lies along that
/// step, which the next may neither repeat nor reverse, and no other step from `at` reads a
/// point of that line. So the steps of a stop can be read before its capture is worked out.
#[inline(always)]
fn capture_steps(at: usize, ahead: u32, free: u64, them: u64) -> (u32, u32) {
    let steps = window::near(free, at) & !ahead;
    let approach = steps & window::far(them, at);
    let withdrawal = steps & u32::from(window::OPPOSITE[window::near(them, at) as usize]);
    (approach, withdrawal)
}

/// Counts the turns that go on from the stops of the capturing steps `approach` and
/// `withdrawal` (windows around `at`, whose board is `free` and `them`), not the stops
/// themselves.
///
/// Each stop's own steps are read ([`capture_steps`]) before its capture is worked out, so a
/// stop with no step costs neither its capture nor a call. One level of the recursion is
/// unrolled: the steps after the next are counted by a call.
fn count_below(at: usize, approach: u32, withdrawal: u32, free: u64, them: u64) -> u64 {
    below_steps(at, approach, withdrawal, free, them, count_below_inline)
}

/// [`count_below`] inlined into its caller: the unrolled level.
#[inline(always)]
fn count_below_inline(at: usize, approach: u32, withdrawal: u32, free: u64, them: u64) -> u64 {
    below_steps(at, approach, withdrawal, free, them, count_below)
}

/// The body of [`count_below`], with `deeper` counting below each stop that has steps.
#[inline(always)]
fn below_steps(
    at: usize,
    approach: u32,
    withdrawal: u32,
    free: u64,
    them: u64,
    deeper: impl Fn(usize, u32, u32, u64, u64) -> u64 + Copy,
) -> u64 {
    let mut n = 0;
    for WindowStop { bit, edge, to: q, free } in window_stops(at, approach | withdrawal, free) {
        // A quick test first (a free point to go to, an enemy stone in reach), then the steps.
        if !edge.may_go_on(free, them) {
            continue;
        }
        let (next_approach, next_withdrawal) = capture_steps(q, 1 << bit, free, them);
        if next_approach | next_withdrawal == 0 {
            continue;
        }
        let kinds = (approach >> bit & 1) | (withdrawal >> bit & 1) << 1;
        let stop = Stop { at: q, approach: next_approach, withdrawal: next_withdrawal, free, them };
        n += stop.count(edge.approach_ray, edge.withdrawal_ray, edge.rising, kinds, deeper);
    }
    n
}

/// A stop of a chain with its capturing steps, on the board before the step onto it captured
/// (its steps do not depend on that capture, see [`capture_steps`]).
#[derive(Clone, Copy)]
struct Stop {
    at: usize,
    approach: u32,
    withdrawal: u32,
    free: u64,
    them: u64,
}

impl Stop {
    /// The turns that go on from this stop, for each capture that reached it (`kinds`: bit 0
    /// an approach along `approach_ray`, bit 1 a withdrawal along `withdrawal_ray`; `rising`
    /// as for [`run_along`] of the approach), `deeper` counting below each next stop.
    ///
    /// Both captures reach the same stop with the same steps, read once; only what lies
    /// below differs. One capture is the common case and costs no branch on which it is.
    #[inline(always)]
    fn count(
        &self,
        approach_ray: u64,
        withdrawal_ray: u64,
        rising: bool,
        kinds: u32,
        deeper: impl Fn(usize, u32, u32, u64, u64) -> u64 + Copy,
    ) -> u64 {
        let steps =
            u64::from(window::COUNT[self.approach as usize] + window::COUNT[self.withdrawal as usize]);
        // The first capture the stop was reached by: the withdrawal when it is the only one.
        let withdraws = kinds == 2;
        let (mut ray, mut runs_up) =
            if withdraws { (withdrawal_ray, !rising) } else { (approach_ray, rising) };
        let mut twin = kinds == 3;
        let mut n = 0;
        // One call site for both captures, so that `deeper` is inlined once.
        loop {
            n += steps + self.below(run_along(ray, runs_up, self.them), deeper);
            if !twin {
                break n;
            }
            (ray, runs_up, twin) = (withdrawal_ray, !rising, false);
        }
    }

    /// The turns below this stop after capturing `run`.
    #[inline(always)]
    fn below(&self, run: u64, deeper: impl Fn(usize, u32, u32, u64, u64) -> u64) -> u64 {
        deeper(self.at, self.approach, self.withdrawal, self.free | run, self.them & !run)
    }
}

/// `b` moved one step in direction index `d` (a geometric shift, see [`Bitboard::shift`]).
#[inline(always)]
const fn shift(b: u64, d: usize) -> u64 {
    Bitboard(b).shift(Direction::from_index(d)).0
}

/// The points from which a step in direction `d` lands on a point of `empty`, with diagonal
/// steps only from strong points.
#[inline(always)]
const fn steppers(empty: u64, d: usize) -> u64 {
    let movers = shift(empty, (d + 4) & 7);
    if d % 2 == 1 { movers & Bitboard::STRONG.0 } else { movers }
}

/// The number of legal turns when the side to move has stones `us` and must capture, or `None`
/// when it has no capture.
///
/// The first steps of all stones are found at once by shifting the board by each direction,
/// as chess generators do for pawns; they are counted by population counts, and only those
/// that can go on (found the same way: the destination has a capturing step in another
/// direction) are followed one by one.
#[inline]
fn count_captures(us: u64, them: u64, empty: u64) -> Option<u64> {
    // Per direction: the points with a capturing step that way, by approach and by withdrawal.
    let mut approach = [0u64; 8];
    let mut withdrawal = [0u64; 8];
    each_direction!(D => {
        let movers = steppers(empty, D);
        approach[D] = movers & shift(shift(them, (D + 4) & 7), (D + 4) & 7);
        withdrawal[D] = movers & shift(them, D);
    });
    // An approach in D needs the next point in D empty, a withdrawal in the opposite direction
    // needs it taken by an enemy stone: the two sets are disjoint, and one population count
    // serves both.
    let mut n = 0u64;
    each_direction!(D => {
        n += u64::from(((approach[D] | withdrawal[(D + 4) & 7]) & us).count_ones());
    });
    if n == 0 {
        return None;
    }
    let any: [u64; 8] = core::array::from_fn(|d| approach[d] | withdrawal[d]);
    // others[d]: the points with a capturing step in some direction other than d.
    let mut below = 0u64;
    let mut others = [0u64; 8];
    each_direction!(D => {
        others[D] = below;
        below |= any[D];
    });
    let mut above = 0u64;
    each_direction!(E => {
        const D: usize = 7 - E;
        others[D] |= above;
        above |= any[D];
    });
    each_direction!(D => {
        // Destinations of first steps in direction D that may go on, an approach and a
        // withdrawal onto the same point together (the origin, now empty, is visited, so a
        // step back never counts: it is not in `empty`).
        let back = (D + 4) & 7;
        let ahead = 1 << window::DIRECTION_BIT[D];
        let mut stops = shift(any[D] & us, D) & others[D];
        while stops != 0 {
            let q = stops.trailing_zeros() as usize;
            stops &= stops - 1;
            let p = NEIGHBOR[back][q] as usize;
            let free = empty & !(1u64 << q);
            let (next_approach, next_withdrawal) = capture_steps(q, ahead, free, them);
            let kinds = (approach[D] >> p & 1) as u32 | ((withdrawal[D] >> p & 1) as u32) << 1;
            let stop = Stop { at: q, approach: next_approach, withdrawal: next_withdrawal, free, them };
            n += stop.count(RAY[D][q], RAY[back][p], RISING & (1 << D) != 0, kinds, count_below);
        }
    });
    Some(n)
}

/// The number of paika turns (when there is no capture): every step onto an empty point.
#[inline]
fn count_paika(us: u64, empty: u64) -> u64 {
    let mut n = 0;
    each_direction!(D => {
        n += u64::from((steppers(empty, D) & us).count_ones());
    });
    n
}

/// Calls `f(us, them)` with the stones of the side that moved and of the other side after each
/// legal turn of the position whose side to move has `us` and whose other side has `them`, in
/// no particular order (perft's order; [`Position::generate_moves`] keeps its own). Nothing is
/// built but the two sets.
pub(crate) fn for_each_turn(us: u64, them: u64, f: &mut impl FnMut(u64, u64)) {
    if us == 0 || them == 0 {
        return;
    }
    let empty = !(us | them) & Bitboard::ALL.0;
    let mut approach = [0u64; 8];
    let mut withdrawal = [0u64; 8];
    let mut any_capture = 0u64;
    each_direction!(D => {
        let movers = steppers(empty, D);
        approach[D] = movers & shift(shift(them, (D + 4) & 7), (D + 4) & 7);
        withdrawal[D] = movers & shift(them, D);
        any_capture |= (approach[D] | withdrawal[D]) & us;
    });
    if any_capture == 0 {
        each_direction!(D => {
            let mut movers = steppers(empty, D) & us;
            while movers != 0 {
                let p = movers & movers.wrapping_neg();
                movers ^= p;
                f(us ^ p ^ shift(p, D), them);
            }
        });
        return;
    }
    let any: [u64; 8] = core::array::from_fn(|d| approach[d] | withdrawal[d]);
    each_direction!(D => {
        let mut others = 0u64;
        for (e, &a) in any.iter().enumerate() {
            if e != D {
                others |= a;
            }
        }
        let mut movers = any[D] & us;
        while movers != 0 {
            let p = movers.trailing_zeros() as usize;
            movers &= movers - 1;
            let q = NEIGHBOR[D][p] as usize;
            let rest = us & !(1u64 << p);
            let free = empty & !(1u64 << q);
            let go_on = others & (1u64 << q) != 0;
            let next = EDGE[p][q].next_targets;
            for run in [
                if approach[D] & (1u64 << p) != 0 { run_beyond(q, D, them) } else { 0 },
                if withdrawal[D] & (1u64 << p) != 0 { run_beyond(p, (D + 4) & 7, them) } else { 0 },
            ] {
                if run != 0 {
                    f(rest | (1u64 << q), them & !run);
                    if go_on {
                        apply_chains(q, next, free | run, them & !run, rest, f);
                    }
                }
            }
        }
    });
}

/// Calls `f(moved, other)` after each legal turn of the side to move with stones `us` against
/// `them`: the stones of the side that moved and of the other side once the turn is played.
/// Nothing is built but the two sets (as perft's inner plies); turns that reach the same sets
/// by different steps are each reported. For tables and solvers, which work on stone sets.
#[inline]
pub fn for_each_successor(us: Bitboard, them: Bitboard, mut f: impl FnMut(Bitboard, Bitboard)) {
    for_each_turn(us.0 & Bitboard::ALL.0, them.0 & Bitboard::ALL.0, &mut |moved, other| {
        f(Bitboard(moved), Bitboard(other));
    });
}

/// Whether the side to move with stones `us` against `them` has a capturing step (and so must
/// capture), as [`Position::has_capture`] for stone sets alone.
#[inline]
pub fn has_capture(us: Bitboard, them: Bitboard) -> bool {
    let empty = Bitboard(!(us.0 | them.0) & Bitboard::ALL.0);
    capture_origins(us, them, empty).any()
}

/// [`for_each_turn`] for the turns that continue a chain whose stone is on `at`: `targets` the
/// points it may step to before removing what is occupied or visited, `free` the empty points
/// it has not occupied this turn, `rest` the other stones of the side that moves.
fn apply_chains(at: usize, targets: u64, free: u64, them: u64, rest: u64, f: &mut impl FnMut(u64, u64)) {
    let mut targets = targets & free;
    let edges = &EDGE[at];
    while targets != 0 {
        let q = targets.trailing_zeros() as usize;
        targets &= targets - 1;
        let edge = &edges[q];
        if edge.victims & them == 0 {
            continue;
        }
        let free = free & !(1u64 << q);
        let go_on = edge.may_go_on(free, them);
        for run in [
            if edge.approach & them != 0 { run_along(edge.approach_ray, edge.rising, them) } else { 0 },
            if edge.withdrawal & them != 0 { run_along(edge.withdrawal_ray, !edge.rising, them) } else { 0 },
        ] {
            if run != 0 {
                f(rest | (1u64 << q), them & !run);
                if go_on {
                    apply_chains(q, edge.next_targets, free | run, them & !run, rest, f);
                }
            }
        }
    }
}

/// The number of legal turns of the position whose side to move has `us` and whose other side
/// has `them`.
#[inline]
pub(crate) fn count_turns(us: u64, them: u64) -> u64 {
    if us == 0 || them == 0 {
        return 0;
    }
    let empty = !(us | them) & Bitboard::ALL.0;
    match count_captures(us, them, empty) {
        Some(n) => n,
        None => count_paika(us, empty),
    }
}

/// The stones of `them` that `us` takes first (the head of the captured line) with one
/// capturing step, by approach or by withdrawal, found at once by shifting the board.
#[inline]
fn first_victims(us: Bitboard, them: Bitboard, empty: Bitboard) -> Bitboard {
    let (us, them, empty) = (us.0, them.0, empty.0);
    let mut targets = 0u64;
    each_direction!(D => {
        let back = (D + 4) & 7;
        let movers = steppers(empty, D) & us;
        targets |= shift(shift(movers, D), D) | shift(movers, back);
    });
    Bitboard(targets & them)
}

impl Position {
    /// Whether the side to move has a capturing step (and so must capture).
    #[inline]
    pub fn has_capture(&self) -> bool {
        let (us, them) = (self.us(), self.them());
        capture_origins(us, them, self.empty()).any()
    }

    /// The stones of the other side that `color` could take as the first victim (the head of
    /// the captured line) of one capturing step, by approach (the stone on `p` steps to the
    /// empty `p + d` and the enemy stone on `p + 2d` is the first taken) or by withdrawal (the
    /// stone on `p` steps to the empty `p + d` and the enemy stone on `p - d` is the first
    /// taken), diagonal steps only from strong points — whoever is to move. Computed by board
    /// shifts per direction, as the move generator's first steps (a few dozen operations).
    #[inline]
    pub fn capture_targets(&self, color: Color) -> Bitboard {
        first_victims(self.stones(color), self.stones(color.other()), self.empty())
    }

    /// Whether the game is over: a side has no stones, or the side to move has no legal turn.
    pub fn is_game_over(&self) -> bool {
        self.count_moves() == 0
    }

    /// Fills `out` (after clearing it) with every legal turn.
    pub fn generate_moves(&self, out: &mut MoveList) {
        if self.generate_chains(out) || self.us().is_empty() || self.them().is_empty() {
            return;
        }
        // No capture: every paika step.
        let empty = self.empty();
        for from in self.us() {
            for d in Direction::ALL {
                if let Some(to) = crate::tables::neighbor(from, d).filter(|&to| empty.contains(to)) {
                    let mut m = Move::start(from);
                    m.push(Step::new(d, CaptureKind::Paika), to, Bitboard::EMPTY);
                    out.push(m);
                }
            }
        }
    }

    /// Fills `out` (after clearing it) with every capturing turn, without their steps, in the
    /// order of [`Position::generate_moves`] (the same index names the same turn); `false`, and
    /// `out` empty, when the side to move has no capture (or either side no stones).
    pub fn generate_captures(&self, out: &mut TurnList) -> bool {
        self.generate_chains(out)
    }

    /// Fills `out` (after clearing it) with every capture chain; `false` when there is none.
    #[inline(always)]
    fn generate_chains<T: Chain>(&self, out: &mut SmallVec<[T; 128]>) -> bool {
        out.clear();
        let (us, them) = (self.us(), self.them());
        if us.is_empty() || them.is_empty() {
            return false;
        }
        let empty = self.empty();
        let origins = capture_origins(us, them, empty);
        for from in origins {
            let at = from.index();
            gen_chains_inline(
                &T::start(from),
                at,
                capture_steps(at, 0, empty.0, them.0),
                empty.0,
                them.0,
                out,
            );
        }
        origins.any()
    }

    /// Every legal turn.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// The number of legal turns, counted without building them.
    pub fn count_moves(&self) -> u64 {
        count_turns(self.us().0, self.them().0)
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

    /// The generator as it was before the capture tables (kept to check that the order of
    /// `generate_moves` never changes: the search's table stores indices into it).
    mod reference {
        use crate::tables::{CAPTURE_REACH, DIRECTION_TO, LINE_NEIGHBORS, NEIGHBOR, NONE};
        use crate::{Bitboard, CaptureKind, Direction, Move, MoveList, Point, Position, Step};

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

        pub(super) fn generate_moves(pos: &Position) -> Vec<Move> {
            let mut out = MoveList::new();
            let (us, them) = (pos.us(), pos.them());
            if us.is_empty() || them.is_empty() {
                return Vec::new();
            }
            let empty = pos.empty();
            let mut origins = Bitboard::EMPTY;
            for d in Direction::ALL {
                let movers = us & empty.shift(d.opposite());
                let movers = if d.is_diagonal() { movers & Bitboard::STRONG } else { movers };
                let back = d.opposite();
                origins |= movers & (them.shift(back).shift(back) | them.shift(d));
            }
            if origins.any() {
                for from in origins {
                    gen_chains(&Move::start(from), from as u8, 8, us.0, them.0, &mut out);
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
            out.to_vec()
        }
    }

    /// Calls `visit` on every position of 300 random games (xorshift turn choices, a fixed
    /// seed), at most `plies` positions a game, each game stopping at a position with no turn.
    fn random_walk(plies: usize, mut visit: impl FnMut(&Position)) {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for _game in 0..300 {
            let mut p = Position::start();
            for _ply in 0..plies {
                visit(&p);
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                p.play_unchecked(&moves[(x % moves.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn captures_are_the_moves_without_their_steps_in_the_same_order() {
        let (mut turns, mut captures) = (TurnList::new(), 0);
        random_walk(80, |p| {
            let moves = p.legal_moves();
            let any = p.generate_captures(&mut turns);
            assert_eq!(any, p.has_capture(), "{p}");
            if any {
                let expected: Vec<Turn> = moves.iter().map(Move::turn).collect();
                assert_eq!(turns.as_slice(), expected.as_slice(), "{p}");
                captures += 1;
            } else {
                assert!(turns.is_empty(), "{p}");
            }
        });
        assert!(captures > 5_000, "{captures}");
    }

    #[test]
    fn generation_order_is_unchanged() {
        let mut checked = 0;
        random_walk(80, |p| {
            let moves = p.legal_moves();
            let expected = reference::generate_moves(p);
            assert_eq!(moves.len(), expected.len(), "{p}");
            for (m, e) in moves.iter().zip(&expected) {
                assert_eq!(m, e, "{p}");
                assert_eq!((m.to(), m.captured()), (e.to(), e.captured()), "{p} {m}");
            }
            checked += 1;
        });
        assert!(checked > 10_000);
    }

    /// The first victims of one capturing step, by walking the line tables point by point.
    fn brute_force_targets(p: &Position, color: Color) -> Bitboard {
        let (own, enemy, empty) = (p.stones(color), p.stones(color.other()), p.empty());
        let mut targets = Bitboard::EMPTY;
        for from in own {
            for d in Direction::ALL {
                let Some(to) = crate::tables::neighbor(from, d).filter(|&to| empty.contains(to)) else {
                    continue;
                };
                let ahead = crate::tables::neighbor(to, d);
                let behind = crate::tables::neighbor(from, d.opposite());
                for v in [ahead, behind].into_iter().flatten().filter(|&v| enemy.contains(v)) {
                    targets = targets.with(v);
                }
            }
        }
        targets
    }

    #[test]
    fn capture_targets_match_the_brute_force_definition() {
        let start = Position::start();
        let white: Vec<String> =
            start.capture_targets(Color::White).into_iter().map(|p| p.to_string()).collect();
        assert_eq!(white, ["c3", "f3", "d4", "e4", "f4"]);
        assert_eq!(start.capture_targets(Color::Black).count(), 5);
        let (mut checked, mut nonempty) = (0, 0);
        random_walk(120, |p| {
            for c in Color::ALL {
                let t = p.capture_targets(c);
                assert_eq!(t, brute_force_targets(p, c), "{p} {c:?}");
                assert!((t & !p.stones(c.other())).is_empty());
                nonempty += usize::from(t.any());
            }
            // The side to move has a target exactly when it must capture.
            assert_eq!(p.capture_targets(p.turn()).any(), p.has_capture(), "{p}");
            checked += 1;
        });
        assert!(checked > 10_000 && nonempty > 5_000, "{checked} {nonempty}");
    }

    #[test]
    fn start_moves() {
        let p = Position::start();
        assert_eq!(names(&p), vec!["d2e3+", "d3e3+", "d3e3-", "e2e3+", "f2e3+"]);
        assert_eq!(p.count_moves(), 5);
        assert!(p.has_capture());
    }
}
