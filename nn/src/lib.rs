//! The learned value network: its declaration, input encoding, file format and plain-Rust
//! inference. Below the engine (it depends only on fanorona-core), so that the record format's
//! sample exports (fanorona-data), the trainer and the engine's evaluator share one encoding.
//!
//! - [`Architecture`] declares the network once: the input [`Encoding`] and the hidden layer
//!   sizes. The trainer (fanorona-train) builds its burn model from the same declaration.
//! - [`encode`] turns a position into the network's inputs: side-to-move-relative stone planes
//!   (45 "own" + 45 "enemy" inputs, the board turned 180 degrees when Black is to move, so
//!   both sides see their own stones at the bottom); [`encode_as`] with threat planes as well
//!   ([`Encoding::ThreatPlanes`]: which stones each side could take first).
//! - [`Network`] holds the weights and runs the forward pass (ReLU hidden layers, tanh output,
//!   a value in [-1, 1] for the side to move); it reads and writes the versioned network file
//!   format described in `nn/FORMAT.md` (below).
//! - [`Accumulator`] keeps the first layer's pre-activations for both perspectives and updates
//!   them when a turn moves one stone and removes the captured ones (NNUE-style).
//! - [`QuantisedNetwork`] is a clipped-ReLU network in integers (i16 first layer, i8 hidden
//!   layers, i32 sums), with SIMD kernels chosen at run time ([`simd`]) that all give the same
//!   scores; [`LazyAccumulator`] updates its first layer only for positions that are evaluated.
//! - [`Inference`] scores the positions of a search with a network, its first layer following
//!   the moves made and taken back: quantised for clipped-ReLU networks, in floats (mapped to
//!   centi-stones with [`value_to_score`]) for ReLU ones. The engine's `NetEvaluator` is the
//!   search's evaluator over it.
//! - [`bench_network`] is a trained network built into the binary, for benchmarks and tests.
#![doc = include_str!("../FORMAT.md")]

mod accumulator;
mod aligned;
mod arch;
mod checksum;
mod embedded;
mod encode;
mod error;
mod format;
mod inference;
mod lazy;
mod network;
mod pending;
mod quant;
mod safetensors;
mod scale;
pub mod simd;

pub use accumulator::Accumulator;
pub use arch::{
    Activation, Architecture, DEFAULT_HIDDEN, Encoding, MAX_BUCKETS, MAX_HIDDEN_LAYERS, MAX_LAYER_SIZE,
};
pub use embedded::{BENCH_NET_DESCRIPTION, bench_network};
pub use encode::{
    INPUTS, MAX_THREATS, THREAT_INPUTS, encode, encode_as, encode_bytes_into, encode_into, feature_index,
    threat_features,
};
pub use error::{FormatError, NetError};
pub use format::{FORMAT_VERSION, MAGIC};
pub use inference::Inference;
pub use lazy::LazyAccumulator;
pub use network::{Layer, Network};
pub use pending::PendingRows;
pub use quant::{
    FT_SCALE, HIDDEN_SCALE, MAX_NET_SCORE, OUTPUT_SCALE, QuantError, QuantisedNetwork, Scratch, engine_check,
    weight_limits, weight_limits_for,
};
pub use scale::{SCORE_SCALE, score_to_value, value_to_score};

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(FormatError, NetError, QuantError);
