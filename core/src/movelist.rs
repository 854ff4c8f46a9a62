//! The list that move generation fills.

use smallvec::SmallVec;

use crate::Move;

/// Legal turns of a position.
///
/// Stored inline for up to 128 turns, which covers every position met in real play without
/// touching the heap; a constructed position with more (long branching capture chains can have
/// thousands) spills to the heap rather than being cut short.
pub type MoveList = SmallVec<[Move; 128]>;
