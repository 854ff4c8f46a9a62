//! Match statistics: W/D/L and the logistic Elo difference, pentanomial pair counts with the
//! normalised Elo, the generalised SPRT, and maximum-likelihood ratings of several players.
//!
//! The formulas follow fastchess (`EloWDL`, `EloPentanomial`, `SPRT`) and fishtest; each file
//! says which and checks them against hand computations.

mod math;
mod pentanomial;
mod ratings;
mod replay;
mod sprt;
mod wdl;

pub use math::{elo_to_score, erf, normal_cdf, score_to_elo};
pub use pentanomial::Pentanomial;
pub use ratings::{Anchor, PairTally, Rating, RatingError, RatingOptions, ml_ratings};
pub use replay::{SprtReplay, replay_sprt};
pub use sprt::{ParseSprtError, SprtConfig, SprtModel, SprtVerdict};
pub use wdl::{EloEstimate, Wdl};

/// The z value of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;
