//! Position evaluation, behind one trait.

mod cache;
mod handcrafted;
mod material;
mod net;
mod net_bench;
mod noise;

pub use cache::{EvalCache, Slot};
pub use handcrafted::{Handcrafted, Weights};
pub use material::Material;
pub use net::NetEvaluator;
pub use net_bench::{BenchFigures, bench_evals_per_second};
pub use noise::{MAX_NOISE, Noisy};

use fanorona_core::{Position, Turn};

/// Scores positions for the search: from the side to move's point of view, in hundredths of a
/// stone (100 = one stone ahead).
///
/// Incremental evaluators (the value network's first layer) follow the search with
/// [`Evaluator::set_root`], [`Evaluator::make`] and [`Evaluator::unmake`]; the others ignore them.
pub trait Evaluator: Send {
    /// A short name, as in an engine spec (`material`, `handcrafted`, `net:PATH`).
    fn name(&self) -> String;

    /// The score of `pos` for its side to move.
    fn evaluate(&mut self, pos: &Position) -> i32;

    /// The search starts from `pos`.
    fn set_root(&mut self, _pos: &Position) {}

    /// The search plays `turn` from `pos` (called before descending).
    fn make(&mut self, _pos: &Position, _turn: &Turn) {}

    /// The search takes back the last move it made.
    fn unmake(&mut self) {}

    /// A fresh copy with the same parameters (for another thread or player).
    fn box_clone(&self) -> Box<dyn Evaluator>;
}
