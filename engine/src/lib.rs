//! Fanorona players and search: alpha-beta with pluggable evaluators, the value network's
//! plain-Rust inference, and the engine text protocol.

pub mod eval;
pub mod nn;
pub mod rng;
