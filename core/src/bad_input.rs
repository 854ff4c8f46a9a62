//! Whether an error is the caller's input being wrong (a command line exits 2 for it) or the
//! system failing (exit 1): the [`BadInput`] trait, which every error type of the workspace's
//! libraries implements, and [`bad_input_errors!`](crate::bad_input_errors), which each crate
//! invokes once with all its error types to implement the trait for them and export the
//! crate's `bad_input` function, the registry a program asks about any error.
//!
//! The rules library's errors are all bad input: a malformed or illegal turn, point or
//! position is always something given from outside, and a perft table's size comes from the
//! caller.

use crate::{
    GameError, IllegalMoveError, MoveError, ParseMoveError, ParsePointError, ParsePositionError,
    PerftTableError, PlayError, PositionError,
};

/// An error that says whether it is the caller's input being wrong.
pub trait BadInput: std::error::Error {
    /// Whether the error is the input's fault (a malformed argument, position, turn or file, a
    /// file that is not there) rather than the system's (a read or write failure, a crash).
    fn is_bad_input(&self) -> bool;
}

/// Implements [`BadInput`] for each error type given, by its inherent `is_bad_input` method,
/// and defines the crate's registry of them:
/// `pub fn bad_input(err: &(dyn Error + 'static)) -> Option<bool>`, what the error says when
/// it is one of these types (`None` for any other error).
///
/// Each library crate invokes it once, listing every error type it defines; a test of the
/// `fanorona` program fails when one is left off.
#[macro_export]
macro_rules! bad_input_errors {
    ($($t:ty),* $(,)?) => {
        $(impl $crate::BadInput for $t {
            fn is_bad_input(&self) -> bool {
                <$t>::is_bad_input(self)
            }
        })*

        /// What this crate's error types say of an error: `Some(true)` when it is bad input,
        /// `Some(false)` when it is a failure, `None` when it is not one of them.
        pub fn bad_input(err: &(dyn ::std::error::Error + 'static)) -> ::std::option::Option<bool> {
            $(if let ::std::option::Option::Some(e) = err.downcast_ref::<$t>() {
                return ::std::option::Option::Some($crate::BadInput::is_bad_input(e));
            })*
            ::std::option::Option::None
        }
    };
}

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

crate::bad_input_errors!(
    GameError,
    IllegalMoveError,
    MoveError,
    ParseMoveError,
    ParsePointError,
    ParsePositionError,
    PerftTableError,
    PlayError,
    PositionError,
);
