//! Which of the rules library's errors are the caller's input being wrong: all of them. A
//! malformed or illegal turn, point or position is always something given from outside, so
//! every error type here answers `is_bad_input()` with `true`, as the errors of the other
//! crates do for theirs.

use crate::{
    GameError, IllegalMoveError, MoveError, ParseMoveError, ParsePointError, ParsePositionError, PlayError,
    PositionError,
};

macro_rules! always_bad_input {
    ($($t:ty),* $(,)?) => {$(
        impl $t {
            /// Always `true`: the error comes from the input (see the module documentation).
            pub fn is_bad_input(&self) -> bool {
                true
            }
        }
    )*};
}

always_bad_input!(
    GameError,
    IllegalMoveError,
    MoveError,
    ParseMoveError,
    ParsePointError,
    ParsePositionError,
    PlayError,
    PositionError,
);
