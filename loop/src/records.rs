//! What the loop reports as it goes ([`Event`]) and what a run leaves for the reports
//! ([`RunRecord`], [`Best`]): the types the driver, the stages and the reports share.

use std::path::PathBuf;

use fanorona_engine::EvalSpec;

use crate::LoopConfig;
use crate::markers::{MatchDone, SelfplayDone, TrainDone};
use crate::specs::Engines;
use crate::stage::Stage;

/// What the loop tells its caller as it goes.
#[derive(Clone, Debug)]
pub enum Event {
    /// A stage starts (or is found finished, `done`).
    Stage {
        /// Generation (0 for the final match).
        generation: u32,
        /// The stage.
        stage: Stage,
        /// Finished already (skipped on resume).
        done: bool,
    },
    /// Progress inside a stage: `done` of `total` units (games, epochs).
    Progress {
        /// Units done.
        done: u64,
        /// Units planned.
        total: u64,
        /// A short status text (W/D/L, loss, Elo...).
        message: String,
    },
    /// A stage finished, with a one-line result.
    Finished {
        /// The result line.
        message: String,
    },
}

/// The state of the loop after a generation: which engine is the best so far.
#[derive(Clone, Debug, PartialEq)]
pub struct Best {
    /// Its generation (0: the baseline).
    pub generation: u32,
    /// Its evaluator (`handcrafted` or `net:PATH`).
    pub eval: EvalSpec,
}

/// Everything the reports need.
#[derive(Clone, Debug)]
pub struct RunRecord {
    /// The configuration used.
    pub config: LoopConfig,
    /// Its engine settings, parsed.
    pub engines: Engines,
    /// The run directory.
    pub root: PathBuf,
    /// Per generation: self-play, training, gate.
    pub generations: Vec<(SelfplayDone, TrainDone, MatchDone)>,
    /// The best engine at the end.
    pub best: Best,
    /// The final match against the baseline, when played.
    pub final_match: Option<MatchDone>,
}
