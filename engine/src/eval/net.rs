//! [`NetEvaluator`]: the search's evaluator over a value network (fanorona-nn's
//! [`Inference`]), with a table of recent evaluations.

use std::path::Path;
use std::sync::Arc;

use fanorona_core::{Position, Turn};
use fanorona_nn::{Inference, NetError, Network, QuantError};

use crate::eval::{EvalCache, Evaluator};
use crate::search::MAX_PLY;

/// Evaluates positions with a [`Network`], following the search with an incremental first
/// layer ([`Inference`]: quantised for clipped-ReLU networks, in floats for ReLU and linear
/// ones).
#[derive(Debug)]
pub struct NetEvaluator {
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
        Ok(NetEvaluator::with(Inference::new(net, MAX_PLY)?, name.into()))
    }

    /// An evaluator that runs `net` in floats whatever its activation (for comparisons).
    pub fn float(net: Arc<Network>, name: impl Into<String>) -> NetEvaluator {
        NetEvaluator::with(Inference::float(net), name.into())
    }

    fn with(inference: Inference, name: String) -> NetEvaluator {
        let cache = inference.is_quantised().then(EvalCache::new);
        NetEvaluator { name, inference, cache }
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
        self.inference.network()
    }

    /// Whether the search runs the network in integers.
    pub fn is_quantised(&self) -> bool {
        self.inference.is_quantised()
    }

    /// The score of `pos` for its side to move, in centi-stones, computed (the search's
    /// [`Evaluator::evaluate`] gives the same score, from its table of recent evaluations when
    /// `pos` is there).
    #[inline]
    pub fn score(&mut self, pos: &Position) -> i32 {
        self.inference.score(pos)
    }

    /// The network's float value of `pos` for its side to move, in [-1, 1] (for a quantised
    /// network, the value of its integer score).
    #[inline]
    pub fn value(&mut self, pos: &Position) -> f32 {
        self.inference.value(pos)
    }
}

/// A fresh copy: the same network (shared), an empty accumulator and table.
impl Clone for NetEvaluator {
    fn clone(&self) -> NetEvaluator {
        NetEvaluator::with(self.inference.clone(), self.name.clone())
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
        self.inference.set_root(pos);
    }

    #[inline]
    fn make(&mut self, pos: &Position, turn: &Turn) {
        self.inference.push(pos, turn);
    }

    #[inline]
    fn unmake(&mut self) {
        self.inference.pop();
    }

    fn box_clone(&self) -> Box<dyn Evaluator> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::Rng;
    use fanorona_nn::{Architecture, value_to_score};

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
