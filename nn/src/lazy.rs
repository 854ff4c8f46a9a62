//! The quantised first layer following the search, updated lazily (as Stockfish's NNUE).
//!
//! Making a move only records what it changes (the mover's colour, its from and to points,
//! the captured stones) and the stones of the position it leads to. The i16 accumulators of
//! both perspectives are brought up to date only when a position is evaluated: from the
//! nearest ancestor already computed, applying the recorded changes forward. Nodes cut off
//! before an evaluation cost nothing but the record.

use fanorona_core::{Bitboard, Color, Point, Position, Turn};

use crate::aligned::Aligned;
use crate::simd::RowDelta;
use crate::{PendingRows, QuantisedNetwork, feature_index};

/// What one move changed, and the stones after it.
#[derive(Clone, Copy, Debug)]
struct Change {
    mover: Color,
    from: Point,
    to: Point,
    captured: Bitboard,
    white: Bitboard,
    black: Bitboard,
    /// Whether each perspective's accumulator (by [`Color::index`]) is up to date.
    computed: [bool; 2],
}

impl Change {
    const ROOT: Change = Change {
        mover: Color::White,
        from: Point::ALL[0],
        to: Point::ALL[0],
        captured: Bitboard::EMPTY,
        white: Bitboard::EMPTY,
        black: Bitboard::EMPTY,
        computed: [false; 2],
    };

    fn describes(&self, pos: &Position) -> bool {
        self.white == pos.stones(Color::White) && self.black == pos.stones(Color::Black)
    }

    /// The first-layer rows this move adds (the moved stone's new point) and takes away (its
    /// old point and the captured stones), from `persp`'s view, appended to `rows`.
    #[inline]
    fn rows(&self, persp: Color, rows: &mut PendingRows) {
        let row = |color: Color, p: Point| feature_index(persp, color, p) as u16;
        rows.add(row(self.mover, self.to));
        rows.take(row(self.mover, self.from));
        let them = self.mover.other();
        for p in self.captured {
            rows.take(row(them, p));
        }
    }
}

/// A stack of lazily updated accumulators: [`LazyAccumulator::reset`] at the root,
/// [`LazyAccumulator::push`] for each move made, [`LazyAccumulator::pop`] for each move taken
/// back, [`LazyAccumulator::values`] to evaluate.
#[derive(Clone, Debug)]
pub struct LazyAccumulator {
    width: usize,
    /// `[ply][perspective][width]`.
    values: Aligned<i16>,
    changes: Vec<Change>,
    ply: usize,
    /// A position off the search path, computed from scratch.
    scratch: Aligned<i16>,
    /// The rows of the move [`LazyAccumulator::apply`] is applying (kept to be reused).
    rows: PendingRows,
}

impl LazyAccumulator {
    /// An empty stack for `net` (call [`LazyAccumulator::reset`] before use), with room for
    /// `max_ply` moves from the root (the search's depth limit) allocated up front; deeper
    /// use grows the stack once.
    pub fn new(net: &QuantisedNetwork, max_ply: usize) -> LazyAccumulator {
        let width = net.width();
        let plies = max_ply + 2;
        LazyAccumulator {
            width,
            values: Aligned::filled(plies * 2 * width, 0),
            changes: vec![Change::ROOT; plies],
            ply: 0,
            scratch: Aligned::filled(width, 0),
            rows: PendingRows::new(),
        }
    }

    /// The search starts at `pos`: the stack holds only it (computed on first use).
    pub fn reset(&mut self, pos: &Position) {
        self.ply = 0;
        self.changes[0] =
            Change { white: pos.stones(Color::White), black: pos.stones(Color::Black), ..Change::ROOT };
    }

    /// Records `mv`, legal in `pos` (the position on top of the stack).
    #[inline]
    pub fn push(&mut self, pos: &Position, mv: &Turn) {
        let next = self.ply + 1;
        if next >= self.changes.len() {
            self.changes.resize(2 * next, Change::ROOT);
            self.values.resize(2 * next * 2 * self.width, 0);
        }
        let mover = pos.turn();
        let captured = mv.captured() & pos.them();
        let moved = pos.us().without(mv.from()).with(mv.to());
        let rest = pos.them() & !captured;
        let (white, black) = match mover {
            Color::White => (moved, rest),
            Color::Black => (rest, moved),
        };
        self.changes[next] =
            Change { mover, from: mv.from(), to: mv.to(), captured, white, black, computed: [false; 2] };
        self.ply = next;
    }

    /// Takes back the last push (nothing at the root).
    #[inline]
    pub fn pop(&mut self) {
        self.ply = self.ply.saturating_sub(1);
    }

    /// The accumulator of `pos` from `persp`'s view: the top of the stack brought up to date
    /// when it describes `pos`, else computed from scratch for `pos`.
    #[inline]
    pub fn values(&mut self, net: &QuantisedNetwork, pos: &Position, persp: Color) -> &[i16] {
        if !self.changes[self.ply].describes(pos) {
            self.compute_scratch(net, pos, persp);
            return &self.scratch;
        }
        if !self.changes[self.ply].computed[persp.index()] {
            self.catch_up(net, persp, self.ply);
        }
        self.stored(self.ply, persp)
    }

    /// The input of evaluating `pos` from `persp`'s view, as [`LazyAccumulator::values`] but
    /// without computing the top of the stack when only its last move is missing: then the
    /// accumulator before that move is returned and the move's rows are written to `rows`, to
    /// be added as the evaluation activates the sum ([`crate::simd::ExtraRows`]). A position
    /// evaluated is usually a leaf of the search, whose accumulator is never needed again; this
    /// saves storing it and reading it back. `rows` is cleared first.
    #[inline]
    pub fn values_pending(
        &mut self,
        net: &QuantisedNetwork,
        pos: &Position,
        persp: Color,
        rows: &mut PendingRows,
    ) -> &[i16] {
        rows.clear();
        let top = self.ply;
        let p = persp.index();
        if top == 0 || self.changes[top].computed[p] || !self.changes[top].describes(pos) {
            return self.values(net, pos, persp);
        }
        self.changes[top].rows(persp, rows);
        if rows.overflowed() {
            rows.clear();
            return self.values(net, pos, persp);
        }
        if !self.changes[top - 1].computed[p] {
            self.catch_up(net, persp, top - 1);
        }
        self.stored(top - 1, persp)
    }

    /// The stored accumulator of ply `ply` from `persp`'s view.
    #[inline]
    fn stored(&self, ply: usize, persp: Color) -> &[i16] {
        let w = self.width;
        let start = (ply * 2 + persp.index()) * w;
        &self.values[start..start + w]
    }

    /// Computes `persp`'s accumulator of every ply from the nearest computed one up to `top`
    /// (the other perspective waits until a position with the other side to move is evaluated).
    fn catch_up(&mut self, net: &QuantisedNetwork, persp: Color, top: usize) {
        let p = persp.index();
        let mut base = top;
        while base > 0 && !self.changes[base].computed[p] {
            base -= 1;
        }
        if !self.changes[base].computed[p] {
            self.refresh(net, base, persp);
        }
        for ply in base + 1..=top {
            self.apply(net, ply, persp);
        }
    }

    /// Computes ply `ply` from scratch from its recorded stones.
    fn refresh(&mut self, net: &QuantisedNetwork, ply: usize, persp: Color) {
        let c = self.changes[ply];
        let w = self.width;
        let start = (ply * 2 + persp.index()) * w;
        fill(net, &mut self.values[start..start + w], c.white, c.black, persp);
        self.changes[ply].computed[persp.index()] = true;
    }

    /// Computes ply `ply` from ply `ply - 1` and the recorded change.
    fn apply(&mut self, net: &QuantisedNetwork, ply: usize, persp: Color) {
        let rows = &mut self.rows;
        rows.clear();
        self.changes[ply].rows(persp, rows);
        let w = self.width;
        let src = ((ply - 1) * 2 + persp.index()) * w;
        let dst = (ply * 2 + persp.index()) * w;
        let (before, after) = self.values.split_at_mut(dst);
        let add = rows.added().first().copied().unwrap_or_default();
        net.update(&before[src..src + w], &mut after[..w], RowDelta { add, sub: rows.taken() });
        self.changes[ply].computed[persp.index()] = true;
    }

    fn compute_scratch(&mut self, net: &QuantisedNetwork, pos: &Position, persp: Color) {
        let (white, black) = (pos.stones(Color::White), pos.stones(Color::Black));
        fill(net, &mut self.scratch, white, black, persp);
    }
}

/// `acc` = the first layer of the position with these stones, from `persp`'s view.
fn fill(net: &QuantisedNetwork, acc: &mut [i16], white: Bitboard, black: Bitboard, persp: Color) {
    acc.copy_from_slice(net.ft_bias());
    for (color, stones) in [(Color::White, white), (Color::Black, black)] {
        for p in stones {
            for (a, &w) in acc.iter_mut().zip(net.ft_row(feature_index(persp, color, p))) {
                *a = a.wrapping_add(w);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Architecture, Network};
    use fanorona_core::Rng;

    /// Plays a random legal turn of `pos`, pushed on `acc` and the position before it on
    /// `history`; `false` when there is none.
    fn random_step(
        rng: &mut Rng,
        pos: &mut Position,
        acc: &mut LazyAccumulator,
        history: &mut Vec<Position>,
    ) -> bool {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return false;
        }
        let mv = moves[rng.below(moves.len() as u64) as usize];
        acc.push(pos, &mv.turn());
        history.push(*pos);
        pos.play_unchecked(&mv);
        true
    }

    /// Random games with the search's pattern (push, sometimes evaluate, pop): every evaluated
    /// accumulator equals one computed from scratch, for both perspectives.
    #[test]
    fn lazy_updates_equal_scratch() {
        let net = Network::random(&Architecture::mlp(&[64, 8]).unwrap(), 9).unwrap();
        let q = QuantisedNetwork::new(&net).unwrap();
        // Room for 16 plies: the 150-ply games grow the stack several times.
        let mut acc = LazyAccumulator::new(&q, 16);
        let mut fresh = LazyAccumulator::new(&q, 0);
        let mut rng = Rng::new(3);
        let mut checked = 0;
        for _game in 0..20 {
            let mut pos = Position::start();
            acc.reset(&pos);
            let mut history = vec![];
            for _ in 0..150 {
                if !random_step(&mut rng, &mut pos, &mut acc, &mut history) {
                    break;
                }
                // Evaluate only some positions: the others stay uncomputed.
                if rng.below(3) == 0 {
                    for c in Color::ALL {
                        fresh.reset(&pos);
                        let expected = fresh.values(&q, &pos, c).to_vec();
                        assert_eq!(acc.values(&q, &pos, c), &expected[..]);
                        checked += 1;
                    }
                }
            }
            // Unwind, evaluating on the way back.
            while let Some(prev) = history.pop() {
                acc.pop();
                fresh.reset(&prev);
                let expected = fresh.values(&q, &prev, prev.turn()).to_vec();
                assert_eq!(acc.values(&q, &prev, prev.turn()), &expected[..]);
            }
        }
        assert!(checked > 100, "{checked}");
        // A position the stack does not describe is computed from scratch.
        let other: Position = "9/9/4B4/9/4W4 w".parse().unwrap();
        fresh.reset(&other);
        let expected = fresh.values(&q, &other, Color::White).to_vec();
        assert_eq!(acc.values(&q, &other, Color::White), &expected[..]);
    }

    /// The same pattern, scored through `values_pending` (the last move's rows left to the
    /// activation) for both encodings: every score equals the score of the position computed
    /// from scratch, and the pending path is taken (a move's rows are left over) most times.
    #[test]
    fn pending_rows_score_like_a_stored_accumulator() {
        for arch in ["stones:90-64-8-1", "threats:180-64-1", "threats:180-64-16-1"] {
            let net = Network::random(&arch.parse::<Architecture>().unwrap(), 4).unwrap();
            let q = QuantisedNetwork::new(&net).unwrap();
            let (mut acc, mut fresh) = (LazyAccumulator::new(&q, 16), LazyAccumulator::new(&q, 0));
            let (mut s, mut rows) = (q.scratch(), PendingRows::new());
            let mut rng = Rng::new(8);
            let (mut checked, mut pending) = (0, 0);
            for _game in 0..10 {
                let mut pos = Position::start();
                acc.reset(&pos);
                let mut history = vec![];
                for _ in 0..120 {
                    if !random_step(&mut rng, &mut pos, &mut acc, &mut history) {
                        break;
                    }
                    if rng.below(2) == 0 {
                        let values = acc.values_pending(&q, &pos, pos.turn(), &mut rows).to_vec();
                        pending += usize::from(!rows.taken().is_empty());
                        let got = q.score_pending(&values, &mut rows, &pos, &mut s);
                        fresh.reset(&pos);
                        let stored = fresh.values(&q, &pos, pos.turn()).to_vec();
                        assert_eq!(got, q.score_position(&stored, &pos, &mut s), "{arch} {pos}");
                        checked += 1;
                    }
                    // Sometimes take the move back and play another from there, as a search
                    // does: the uncomputed top is left behind.
                    if rng.below(3) == 0
                        && let Some(prev) = history.pop()
                    {
                        acc.pop();
                        pos = prev;
                    }
                }
            }
            assert!(checked > 100 && pending * 2 > checked, "{arch}: {checked} checked, {pending} pending");
        }
    }
}
