//! The search's evaluator over a value network.

use std::path::Path;
use std::sync::Arc;

use fanorona_core::{Position, Turn};

use super::{
    Accumulator, Encoding, LazyAccumulator, NetError, Network, PendingRows, QuantError, QuantisedNetwork,
    Scratch, value_to_score,
};
use crate::eval::{EvalCache, Evaluator};

/// How the evaluator runs its network.
#[derive(Debug)]
enum Inference {
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

/// Evaluates positions with a [`Network`], following the search with an incremental first
/// layer. A clipped-ReLU network runs quantised ([`QuantisedNetwork`], lazy accumulator
/// updates); a ReLU or linear one in floats ([`Accumulator`]), its scores [`value_to_score`]
/// of the network's value.
///
/// When asked about a position the accumulator does not describe (no `set_root`, or a position
/// off the search path) it computes the first layer from scratch, so its answer is always the
/// network's score of the position it is given.
#[derive(Debug)]
pub struct NetEvaluator {
    net: Arc<Network>,
    name: String,
    inference: Inference,
    /// The scores of positions evaluated lately, which [`Evaluator::evaluate`] looks up first;
    /// only for an integer network, whose score of a position does not depend on the path to
    /// it (a float accumulator's last bits do, so a float network computes every time).
    cache: Option<EvalCache>,
}

impl NetEvaluator {
    /// An evaluator over `net`, named `name` (as in an engine spec).
    ///
    /// # Errors
    /// When a clipped-ReLU network does not fit the integer types ([`QuantError`]).
    pub fn new(net: Arc<Network>, name: impl Into<String>) -> Result<NetEvaluator, QuantError> {
        let q = match QuantisedNetwork::new(&net) {
            Ok(q) => Some(Arc::new(q)),
            Err(QuantError::NotQuantisable { .. }) => None,
            Err(e) => return Err(e),
        };
        Ok(NetEvaluator::with_inference(net, q, name.into()))
    }

    /// An evaluator that runs `net` in floats whatever its activation (for comparisons).
    pub fn float(net: Arc<Network>, name: impl Into<String>) -> NetEvaluator {
        NetEvaluator::with_inference(net, None, name.into())
    }

    fn with_inference(net: Arc<Network>, q: Option<Arc<QuantisedNetwork>>, name: String) -> NetEvaluator {
        let inference = match q {
            Some(q) => {
                let (acc, scratch) = (LazyAccumulator::new(&q), Box::new(q.scratch()));
                Inference::Quantised { acc, scratch, q, pending: Box::new(PendingRows::new()) }
            }
            None => {
                let w = net.max_width();
                Inference::Float {
                    acc: Accumulator::new(&net),
                    pre: vec![0.0; net.arch().first_width()],
                    a: vec![0.0; w],
                    b: vec![0.0; w],
                    active: vec![0; w],
                }
            }
        };
        let cache = matches!(inference, Inference::Quantised { .. }).then(EvalCache::new);
        NetEvaluator { net, name, inference, cache }
    }

    /// Loads the network file at `path` (the engine spec's `eval=net:PATH`).
    ///
    /// # Errors
    /// When the file cannot be read or is not a valid network ([`NetError`] names the file and
    /// the problem).
    pub fn load(path: &Path) -> Result<NetEvaluator, NetError> {
        let net = Network::read_file(path)?;
        NetEvaluator::new(Arc::new(net), format!("net:{}", path.display()))
            .map_err(|error| NetError::Quantise { path: path.to_path_buf(), error })
    }

    /// The network.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// Whether the search runs the network in integers.
    pub fn is_quantised(&self) -> bool {
        matches!(self.inference, Inference::Quantised { .. })
    }

    /// The score of `pos` for its side to move, in centi-stones, computed (the search's
    /// [`Evaluator::evaluate`] gives the same score, from its table of recent evaluations when
    /// `pos` is there).
    #[inline]
    pub fn score(&mut self, pos: &Position) -> i32 {
        match &mut self.inference {
            Inference::Quantised { q, acc, scratch, pending } => {
                let values = acc.values_pending(q, pos, pos.turn(), pending);
                q.score_pending(values, pending, pos, scratch)
            }
            Inference::Float { .. } => value_to_score(self.value(pos)),
        }
    }

    /// The network's float value of `pos` for its side to move, in [-1, 1] (for a quantised
    /// network, the value of its integer score).
    #[inline]
    pub fn value(&mut self, pos: &Position) -> f32 {
        let persp = pos.turn();
        let bucket = self.net.arch().bucket(stones(pos));
        match &mut self.inference {
            Inference::Quantised { .. } => super::score_to_value(self.score(pos)),
            // Float inference of threat planes (ReLU networks only: not the search's default)
            // runs from scratch.
            Inference::Float { .. } if self.net.arch().encoding != Encoding::StonePlanes => {
                self.net.evaluate(pos)
            }
            Inference::Float { acc, pre, a, b, active } => {
                if acc.matches(pos) {
                    self.net.finish(acc.values(persp), bucket, a, b, active)
                } else {
                    let layer = &self.net.layers()[0];
                    pre.copy_from_slice(layer.bias());
                    for c in fanorona_core::Color::ALL {
                        for p in pos.stones(c) {
                            for (y, &w) in pre.iter_mut().zip(layer.row(super::feature_index(persp, c, p))) {
                                *y += w;
                            }
                        }
                    }
                    self.net.finish(pre, bucket, a, b, active)
                }
            }
        }
    }
}

impl Clone for NetEvaluator {
    fn clone(&self) -> NetEvaluator {
        let q = match &self.inference {
            Inference::Quantised { q, .. } => Some(Arc::clone(q)),
            Inference::Float { .. } => None,
        };
        NetEvaluator::with_inference(Arc::clone(&self.net), q, self.name.clone())
    }
}

impl Evaluator for NetEvaluator {
    fn name(&self) -> String {
        self.name.clone()
    }

    /// [`NetEvaluator::score`], looked up first among the positions evaluated lately (integer
    /// networks).
    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        let Some(cache) = &self.cache else { return self.score(pos) };
        let slot = match cache.probe(pos) {
            Ok(score) => return score,
            Err(slot) => slot,
        };
        let score = self.score(pos);
        if let Some(cache) = &mut self.cache {
            cache.store(slot, score);
        }
        score
    }

    fn set_root(&mut self, pos: &Position) {
        match &mut self.inference {
            Inference::Quantised { acc, .. } => acc.reset(pos),
            Inference::Float { acc, .. } => acc.reset(&self.net, pos),
        }
    }

    #[inline]
    fn make(&mut self, pos: &Position, turn: &Turn) {
        match &mut self.inference {
            Inference::Quantised { acc, .. } => acc.push(pos, turn),
            Inference::Float { acc, .. } => acc.push(&self.net, pos, turn),
        }
    }

    #[inline]
    fn unmake(&mut self) {
        match &mut self.inference {
            Inference::Quantised { acc, .. } => acc.pop(),
            Inference::Float { acc, .. } => acc.pop(),
        }
    }

    fn box_clone(&self) -> Box<dyn Evaluator> {
        Box::new(self.clone())
    }
}

/// Stones on the board, both sides (what picks the output bucket).
#[inline]
pub(crate) fn stones(pos: &Position) -> usize {
    pos.occupied().count() as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::Architecture;
    use fanorona_core::Rng;

    #[test]
    fn incremental_values_equal_the_plain_forward_pass() {
        let net = Arc::new(Network::random(&Architecture::default(), 11).unwrap());
        let mut ev = NetEvaluator::float(Arc::clone(&net), "t");
        let mut rng = Rng::new(5);
        let mut pos = Position::start();
        ev.set_root(&pos);
        let mut checked = 0;
        for _ in 0..300 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                pos = Position::start();
                ev.set_root(&pos);
                continue;
            }
            let mv = moves[rng.below(moves.len() as u64) as usize];
            ev.make(&pos, &mv.turn());
            pos.play_unchecked(&mv);
            let inc = ev.value(&pos);
            let scratch = net.evaluate(&pos);
            assert!((inc - scratch).abs() < 1e-5, "{inc} vs {scratch}");
            assert_eq!(ev.evaluate(&pos), value_to_score(ev.value(&pos)));
            checked += 1;
        }
        assert!(checked > 100);
        // Off the search path: still the right value.
        let other: Position = "9/9/4B4/9/4W4 w".parse().unwrap();
        assert!((ev.value(&other) - net.evaluate(&other)).abs() < 1e-6);
        // Without set_root.
        let mut fresh = NetEvaluator::float(Arc::clone(&net), "t");
        assert!((fresh.value(&other) - net.evaluate(&other)).abs() < 1e-6);
        assert_eq!(fresh.box_clone().name(), "t");
    }

    #[test]
    fn load_errors_name_the_file() {
        let err = NetEvaluator::load(Path::new("/nonexistent/x.net")).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x.net"), "{err}");
    }
}
