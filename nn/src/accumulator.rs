//! The incremental first layer (NNUE-style).
//!
//! The first layer's pre-activations `b + sum of W rows of the active inputs` are kept for both
//! perspectives (White's view and Black's view, see [`crate::feature_index`]), one pair per ply
//! of the search. A turn moves one stone from `from` to `to` and removes the captured stones, so
//! the update is: subtract the row of (mover, `from`), add the row of (mover, `to`), subtract
//! the row of each captured stone, in each perspective. The side to move's view is the one
//! evaluated.

use fanorona_core::{Color, Position, Turn};

use crate::{Network, feature_index};

/// A stack of first-layer accumulators following the search: [`Accumulator::reset`] at the
/// root, [`Accumulator::push`] for each move made, [`Accumulator::pop`] for each move taken back.
#[derive(Clone, Debug)]
pub struct Accumulator {
    width: usize,
    /// `[ply][perspective][width]`, flattened.
    values: Vec<f32>,
    /// The position each ply's values describe.
    positions: Vec<Position>,
    ply: usize,
}

/// Plies allocated up front; deeper searches grow the stack once.
const INITIAL_PLIES: usize = 128;

impl Accumulator {
    /// An accumulator for `net`, holding the start position.
    pub fn new(net: &Network) -> Accumulator {
        let width = net.arch().first_width();
        let mut a = Accumulator {
            width,
            values: vec![0.0; INITIAL_PLIES * 2 * width],
            positions: vec![Position::start(); INITIAL_PLIES],
            ply: 0,
        };
        a.reset(net, &Position::start());
        a
    }

    /// The first layer's width.
    pub fn width(&self) -> usize {
        self.width
    }

    /// How many moves deep the stack is.
    pub fn ply(&self) -> usize {
        self.ply
    }

    /// Computes the values of `pos` from scratch and empties the stack.
    pub fn reset(&mut self, net: &Network, pos: &Position) {
        self.ply = 0;
        self.refresh(net, pos);
    }

    /// Recomputes the top of the stack from scratch for `pos`, keeping the depth.
    pub fn refresh(&mut self, net: &Network, pos: &Position) {
        self.positions[self.ply] = *pos;
        let layer = &net.layers()[0];
        let w = self.width;
        let base = self.ply * 2 * w;
        for persp in Color::ALL {
            let start = base + persp.index() * w;
            let acc = &mut self.values[start..start + w];
            acc.copy_from_slice(layer.bias());
            for c in Color::ALL {
                for p in pos.stones(c) {
                    for (a, &x) in acc.iter_mut().zip(layer.row(feature_index(persp, c, p))) {
                        *a += x;
                    }
                }
            }
        }
    }

    /// Plays `mv`, legal in `pos`. When the top of the stack does not describe `pos` it is
    /// first recomputed from scratch.
    pub fn push(&mut self, net: &Network, pos: &Position, mv: &Turn) {
        if !self.matches(pos) {
            self.refresh(net, pos);
        }
        let w2 = 2 * self.width;
        let next = self.ply + 1;
        if self.positions.len() <= next {
            self.positions.resize(2 * next, Position::start());
            self.values.resize(2 * next * w2, 0.0);
        }
        self.values.copy_within(self.ply * w2..next * w2, next * w2);
        let mut after = *pos;
        after.play_turn(mv);
        self.positions[next] = after;
        self.ply = next;
        let us = pos.turn();
        let them = us.other();
        let captured = mv.captured() & pos.them();
        let layer = &net.layers()[0];
        for persp in Color::ALL {
            let start = next * w2 + persp.index() * self.width;
            let acc = &mut self.values[start..start + self.width];
            let from = layer.row(feature_index(persp, us, mv.from()));
            let to = layer.row(feature_index(persp, us, mv.to()));
            for ((a, &f), &t) in acc.iter_mut().zip(from).zip(to) {
                *a += t - f;
            }
            for p in captured {
                sub_row(acc, layer.row(feature_index(persp, them, p)));
            }
        }
    }

    /// Takes back the last [`Accumulator::push`] (nothing at the root).
    pub fn pop(&mut self) {
        self.ply = self.ply.saturating_sub(1);
    }

    /// Whether the top of the stack describes `pos`.
    #[inline]
    pub fn matches(&self, pos: &Position) -> bool {
        self.positions[self.ply] == *pos
    }

    /// The first layer's pre-activations of the top position, from `persp`'s view.
    #[inline]
    pub fn values(&self, persp: Color) -> &[f32] {
        let start = self.ply * 2 * self.width + persp.index() * self.width;
        &self.values[start..start + self.width]
    }
}

#[inline]
fn sub_row(acc: &mut [f32], row: &[f32]) {
    for (a, &x) in acc.iter_mut().zip(row) {
        *a -= x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Architecture;
    use fanorona_core::Rng;

    /// Random games: after every push the incremental values equal a fresh reset, within
    /// float rounding, and pops return to the previous values.
    #[test]
    fn incremental_equals_scratch() {
        let net = Network::random(&Architecture::mlp(&[16, 4]).unwrap(), 9).unwrap();
        let mut acc = Accumulator::new(&net);
        let mut fresh = Accumulator::new(&net);
        let mut rng = Rng::new(3);
        for _game in 0..20 {
            let mut pos = Position::start();
            acc.reset(&net, &pos);
            let mut history = vec![];
            for _ in 0..200 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mv = moves[rng.below(moves.len() as u64) as usize];
                acc.push(&net, &pos, &mv.turn());
                history.push(pos);
                pos.play_unchecked(&mv);
                assert!(acc.matches(&pos));
                fresh.reset(&net, &pos);
                for c in Color::ALL {
                    for (a, b) in acc.values(c).iter().zip(fresh.values(c)) {
                        assert!((a - b).abs() < 1e-4, "{a} vs {b}");
                    }
                }
            }
            // Unwind: each pop returns to the previous position.
            while let Some(prev) = history.pop() {
                acc.pop();
                assert!(acc.matches(&prev));
            }
            assert_eq!(acc.ply(), 0);
        }
    }
}
