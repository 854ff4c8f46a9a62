//! The search's evaluator over a value network.

use std::path::Path;
use std::sync::Arc;

use fanorona_core::{Move, Position};

use super::{Accumulator, NetError, Network, value_to_score};
use crate::eval::Evaluator;

/// Evaluates positions with a [`Network`], following the search with an incremental first
/// layer ([`Accumulator`]). Scores are [`value_to_score`] of the network's value.
///
/// When asked about a position the accumulator does not describe (no `set_root`, or a position
/// off the search path) it computes the first layer from scratch, so its answer is always the
/// network's value of the position it is given.
#[derive(Debug)]
pub struct NetEvaluator {
    net: Arc<Network>,
    name: String,
    acc: Accumulator,
    pre: Vec<f32>,
    a: Vec<f32>,
    b: Vec<f32>,
    active: Vec<u16>,
}

impl NetEvaluator {
    /// An evaluator over `net`, named `name` (as in an engine spec).
    pub fn new(net: Arc<Network>, name: impl Into<String>) -> NetEvaluator {
        let acc = Accumulator::new(&net);
        let w = net.max_width();
        NetEvaluator {
            pre: vec![0.0; net.arch().first_width()],
            a: vec![0.0; w],
            b: vec![0.0; w],
            active: vec![0; w],
            acc,
            net,
            name: name.into(),
        }
    }

    /// Loads the network file at `path` (the engine spec's `eval=net:PATH`).
    ///
    /// # Errors
    /// When the file cannot be read or is not a valid network ([`NetError`] names the file and
    /// the problem).
    pub fn load(path: &Path) -> Result<NetEvaluator, NetError> {
        let net = Network::read_file(path)?;
        Ok(NetEvaluator::new(Arc::new(net), format!("net:{}", path.display())))
    }

    /// The network.
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }

    /// The network's value of `pos` for its side to move, in [-1, 1].
    #[inline]
    pub fn value(&mut self, pos: &Position) -> f32 {
        let persp = pos.turn();
        if self.acc.matches(pos) {
            self.net.finish(self.acc.values(persp), &mut self.a, &mut self.b, &mut self.active)
        } else {
            let layer = &self.net.layers()[0];
            self.pre.copy_from_slice(layer.bias());
            for c in fanorona_core::Color::ALL {
                for p in pos.stones(c) {
                    for (y, &w) in self.pre.iter_mut().zip(layer.row(super::feature_index(persp, c, p))) {
                        *y += w;
                    }
                }
            }
            self.net.finish(&self.pre, &mut self.a, &mut self.b, &mut self.active)
        }
    }
}

impl Clone for NetEvaluator {
    fn clone(&self) -> NetEvaluator {
        NetEvaluator::new(Arc::clone(&self.net), self.name.clone())
    }
}

impl Evaluator for NetEvaluator {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn evaluate(&mut self, pos: &Position) -> i32 {
        value_to_score(self.value(pos))
    }

    fn set_root(&mut self, pos: &Position) {
        self.acc.reset(&self.net, pos);
    }

    fn make(&mut self, pos: &Position, mv: &Move) {
        self.acc.push(&self.net, pos, mv);
    }

    fn unmake(&mut self) {
        self.acc.pop();
    }

    fn box_clone(&self) -> Box<dyn Evaluator> {
        Box::new(self.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nn::Architecture;
    use crate::rng::Rng;

    #[test]
    fn incremental_values_equal_the_plain_forward_pass() {
        let net = Arc::new(Network::random(&Architecture::default(), 11).unwrap());
        let mut ev = NetEvaluator::new(Arc::clone(&net), "t");
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
            ev.make(&pos, &mv);
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
        let mut fresh = NetEvaluator::new(Arc::clone(&net), "t");
        assert!((fresh.value(&other) - net.evaluate(&other)).abs() < 1e-6);
        assert_eq!(fresh.box_clone().name(), "t");
    }

    #[test]
    fn load_errors_name_the_file() {
        let err = NetEvaluator::load(Path::new("/nonexistent/x.net")).unwrap_err();
        assert!(err.to_string().contains("/nonexistent/x.net"), "{err}");
    }
}
