//! Solving Fanorona positions: proof-number search (df-pn) over the move generator and the
//! endgame tables, certificates of what it proves, and a check of those certificates that
//! replays them without the search.
//!
//! The rules are the game's own with no limit on its length: a side with no stones or no turn
//! has lost, and play that goes on forever is a draw. A position's value is settled by asking
//! whether the side to move can force a win, then whether the other side can; a draw is two
//! "no"s. Every answer comes with a [`Certificate`], written to a proof file ([`file`]) and
//! checked by [`check::check`].
//!
//! ```
//! use fanorona_core::Position;
//! use fanorona_solve::{Proven, SolveOptions, check, solve};
//!
//! // White to move takes Black's last stone.
//! let pos: Position = "9/9/9/9/W1B6 w".parse().unwrap();
//! let solution = solve(&pos, None, &SolveOptions::default(), &mut |_| {}).unwrap();
//! assert_eq!(solution.value, Some(Proven::Win));
//! assert_eq!(check::check(&solution.proof, None).unwrap().0, Proven::Win);
//! ```
#![deny(missing_docs)]

pub mod certificate;
pub mod check;
pub mod checkpoint;
pub mod dfpn;
pub mod error_rate;
pub mod farm;
pub mod file;
pub mod graph;
pub mod node;
mod solver;
pub mod suite;
pub mod tt;
pub mod turns;

pub use certificate::{BuildError, Certificate, Claim};
pub use check::{CheckError, Proven};
pub use dfpn::{Init, Outcome, Search};
pub use farm::{FarmError, Frontier};
pub use file::{FileError, Proof};
pub use node::Node;
pub use solver::{Checkpoints, Question, Solution, SolveError, SolveOptions, solve};

// Every error type of the crate, each saying whether it is bad input.
fanorona_core::bad_input_errors!(
    BuildError,
    CheckError,
    FarmError,
    FileError,
    SolveError,
    suite::SuiteError,
    suite::BuildError,
);
