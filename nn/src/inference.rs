//! [`Inference`]: a network scoring the positions of a search as it walks the game tree, its
//! first layer following the moves made and taken back.

use std::sync::Arc;

use fanorona_core::{Color, Position, Turn};

use crate::{
    Accumulator, Encoding, LazyAccumulator, Network, PendingRows, QuantError, QuantisedNetwork, Scratch,
    score_to_value, value_to_score,
};

/// How the network runs.
#[derive(Debug)]
enum Kind {
    /// Integers, with a lazily updated accumulator (clipped-ReLU networks).
    Quantised {
        q: Arc<QuantisedNetwork>,
        acc: LazyAccumulator,
        scratch: Box<Scratch>,
        pending: Box<PendingRows>,
    },
    /// Floats, with an eagerly updated accumulator (ReLU and linear networks).
    Float { acc: Accumulator, pre: Vec<f32>, a: Vec<f32>, b: Vec<f32>, active: Vec<u16> },
}

/// A [`Network`] scoring positions along a search: [`Inference::set_root`] at the root,
/// [`Inference::push`] for each move made, [`Inference::pop`] for each move taken back. A
/// clipped-ReLU network runs quantised ([`QuantisedNetwork`], lazy accumulator updates); a
/// ReLU or linear one in floats ([`Accumulator`]), its scores [`value_to_score`] of the
/// network's value.
///
/// When asked about a position the accumulator does not describe (no `set_root`, or a position
/// off the search path) it computes the first layer from scratch, so its answer is always the
/// network's score of the position it is given.
#[derive(Debug)]
pub struct Inference {
    net: Arc<Network>,
    /// The search's depth limit, allocated up front by the lazy accumulator.
    max_ply: usize,
    kind: Kind,
}

impl Inference {
    /// Inference of `net`, in integers when it is a clipped-ReLU network, for a search at most
    /// `max_ply` moves deep (deeper searches grow the accumulator's stack once).
    ///
    /// # Errors
    /// When a clipped-ReLU network does not fit the integer types ([`QuantError`]).
    pub fn new(net: Arc<Network>, max_ply: usize) -> Result<Inference, QuantError> {
        let q = match QuantisedNetwork::new(&net) {
            Ok(q) => Some(Arc::new(q)),
            Err(QuantError::NotQuantisable { .. }) => None,
            Err(e) => return Err(e),
        };
        Ok(Inference::with(net, q, max_ply))
    }

    /// Inference of `net` in floats whatever its activation (for comparisons).
    pub fn float(net: Arc<Network>) -> Inference {
        Inference::with(net, None, 0)
    }

    fn with(net: Arc<Network>, q: Option<Arc<QuantisedNetwork>>, max_ply: usize) -> Inference {
        let kind = match q {
            Some(q) => {
                let (acc, scratch) = (LazyAccumulator::new(&q, max_ply), Box::new(q.scratch()));
                Kind::Quantised { acc, scratch, q, pending: Box::new(PendingRows::new()) }
            }
            None => {
                let w = net.max_width();
                Kind::Float {
                    acc: Accumulator::new(&net),
                    pre: vec![0.0; net.arch().first_width()],
                    a: vec![0.0; w],
                    b: vec![0.0; w],
                    active: vec![0; w],
                }
            }
        };
        Inference { net, max_ply, kind }
    }

    /// The network.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Whether the network runs in integers.
    pub fn is_quantised(&self) -> bool {
        matches!(self.kind, Kind::Quantised { .. })
    }

    /// The score of `pos` for its side to move, in centi-stones.
    #[inline]
    pub fn score(&mut self, pos: &Position) -> i32 {
        match &mut self.kind {
            Kind::Quantised { q, acc, scratch, pending } => {
                let values = acc.values_pending(q, pos, pos.turn(), pending);
                q.score_pending(values, pending, pos, scratch)
            }
            Kind::Float { .. } => value_to_score(self.value(pos)),
        }
    }

    /// The network's float value of `pos` for its side to move, in [-1, 1] (for a quantised
    /// network, the value of its integer score).
    #[inline]
    pub fn value(&mut self, pos: &Position) -> f32 {
        let persp = pos.turn();
        let bucket = self.net.arch().bucket(crate::arch::stones(pos));
        match &mut self.kind {
            Kind::Quantised { .. } => score_to_value(self.score(pos)),
            // Float inference of threat planes (ReLU networks only: not the search's default)
            // runs from scratch.
            Kind::Float { .. } if self.net.arch().encoding != Encoding::StonePlanes => self.net.evaluate(pos),
            Kind::Float { acc, pre, a, b, active } => {
                if acc.matches(pos) {
                    self.net.finish(acc.values(persp), bucket, a, b, active)
                } else {
                    let layer = &self.net.layers()[0];
                    pre.copy_from_slice(layer.bias());
                    for c in Color::ALL {
                        for p in pos.stones(c) {
                            for (y, &w) in pre.iter_mut().zip(layer.row(crate::feature_index(persp, c, p))) {
                                *y += w;
                            }
                        }
                    }
                    self.net.finish(pre, bucket, a, b, active)
                }
            }
        }
    }

    /// The search starts from `pos`.
    pub fn set_root(&mut self, pos: &Position) {
        match &mut self.kind {
            Kind::Quantised { acc, .. } => acc.reset(pos),
            Kind::Float { acc, .. } => acc.reset(&self.net, pos),
        }
    }

    /// The search plays `turn` from `pos`.
    #[inline]
    pub fn push(&mut self, pos: &Position, turn: &Turn) {
        match &mut self.kind {
            Kind::Quantised { acc, .. } => acc.push(pos, turn),
            Kind::Float { acc, .. } => acc.push(&self.net, pos, turn),
        }
    }

    /// The search takes back the last move it made.
    #[inline]
    pub fn pop(&mut self) {
        match &mut self.kind {
            Kind::Quantised { acc, .. } => acc.pop(),
            Kind::Float { acc, .. } => acc.pop(),
        }
    }
}

/// A fresh copy: the same network (shared), an empty accumulator.
impl Clone for Inference {
    fn clone(&self) -> Inference {
        let q = match &self.kind {
            Kind::Quantised { q, .. } => Some(Arc::clone(q)),
            Kind::Float { .. } => None,
        };
        Inference::with(Arc::clone(&self.net), q, self.max_ply)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Architecture;
    use fanorona_core::Rng;

    #[test]
    fn incremental_values_equal_the_plain_forward_pass() {
        let net = Arc::new(Network::random(&Architecture::default(), 11).unwrap());
        let mut inf = Inference::float(Arc::clone(&net));
        let mut rng = Rng::new(5);
        let mut pos = Position::start();
        inf.set_root(&pos);
        let mut checked = 0;
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::start();
                inf.set_root(&pos);
                continue;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            inf.push(&pos, &mv.turn());
            pos.play_unchecked(&mv);
            let inc = inf.value(&pos);
            let scratch = net.evaluate(&pos);
            assert!((inc - scratch).abs() < 1e-5, "{inc} vs {scratch}");
            assert_eq!(inf.score(&pos), value_to_score(inf.value(&pos)));
            checked += 1;
        }
        assert!(checked > 100);
        // Off the search path: still the right value.
        let other: Position = "9/9/4B4/9/4W4 w".parse().unwrap();
        assert!((inf.value(&other) - net.evaluate(&other)).abs() < 1e-6);
        // Without set_root.
        let mut fresh = Inference::float(Arc::clone(&net));
        assert!((fresh.value(&other) - net.evaluate(&other)).abs() < 1e-6);
        assert!(!fresh.clone().is_quantised());
    }
}
