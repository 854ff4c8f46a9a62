//! Fanorona players and search: alpha-beta with pluggable evaluators (the value network's,
//! [`eval::NetEvaluator`], over fanorona-nn's inference), and the engine text protocol.

pub mod bench;
pub mod book;
pub mod eval;
pub mod knobs;
pub mod player;
pub mod players;
pub mod protocol;
pub mod score;
pub mod search;
pub mod spec;
pub mod tablebase;
pub mod thread_time;
pub mod turn_input;

pub use eval::Evaluator;
pub use knobs::{Knob, Knobs};
pub use player::{Decision, Player};
pub use search::{Limits, SearchResult, SearchRoot, Searcher};
pub use spec::{AlphaBetaSpec, EvalSpec, PlayerSpec, SpecError};

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(
    SpecError,
    knobs::KnobRangeError,
    protocol::CommandError,
    search::TableError,
    search::ThreadsError,
);
