//! The run's history, `history.json`: its settings and every finished iteration (the draw,
//! the result, the parameters after it), rewritten atomically after each iteration, so that a
//! killed run resumes at the iteration in flight without replaying or losing one.

use std::path::Path;

use fanorona_data::rundir::{read_state, write_json};
use serde::{Deserialize, Serialize};

use crate::TuneError;
use crate::config::TuneConfig;
use crate::spsa::Step;

/// The history's file name in the run directory.
pub const HISTORY_FILE: &str = "history.json";
/// The history's layout version.
pub const HISTORY_VERSION: u32 = 1;

/// One finished iteration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Iteration {
    /// What was played.
    pub step: Step,
    /// The plus engine's wins, draws and losses.
    pub wdl: [u64; 3],
    /// The plus engine's pair results (`Ptnml(0-2)`).
    pub pentanomial: [u64; 5],
    /// Games decided by an engine fault: `game: engine (plus or minus): reason`.
    pub faults: Vec<String>,
    /// The parameters after the update.
    pub theta: Vec<f64>,
    /// Wall time of the iteration's games, in seconds (0 when it was resumed mid-way).
    pub seconds: f64,
    /// Processor time of this process during the iteration, in seconds (its games when played
    /// here; none of a cluster's).
    #[serde(default)]
    pub cpu_seconds: f64,
}

impl Iteration {
    /// The plus engine's wins minus its losses: the SPSA result.
    pub fn result(&self) -> i64 {
        self.wdl[0] as i64 - self.wdl[2] as i64
    }
}

/// What `history.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct History {
    /// The layout version.
    pub version: u32,
    /// The run's settings.
    pub config: TuneConfig,
    /// The finished iterations, in order.
    pub iterations: Vec<Iteration>,
}

impl History {
    /// A run that has played nothing yet.
    pub fn new(config: TuneConfig) -> History {
        History { version: HISTORY_VERSION, config, iterations: Vec::new() }
    }

    /// The parameters now: the last iteration's, or the starts.
    pub fn theta(&self) -> Vec<f64> {
        match self.iterations.last() {
            Some(it) => it.theta.clone(),
            None => self.config.params.iter().map(|p| p.start).collect(),
        }
    }

    /// Whether every iteration is done.
    pub fn finished(&self) -> bool {
        self.iterations.len() as u64 >= self.config.iterations
    }

    /// Reads `DIR/history.json`, `None` when there is none.
    ///
    /// # Errors
    /// [`TuneError::RunDir`] when it is damaged, of another version, or inconsistent (an
    /// iteration out of order, a parameter count that is not the settings').
    pub fn load(dir: &Path) -> Result<Option<History>, TuneError> {
        let path = dir.join(HISTORY_FILE);
        let bad = |reason: String| TuneError::RunDir { dir: dir.to_path_buf(), reason };
        let Some(h) = read_state::<History>(&path, HISTORY_VERSION).map_err(|e| bad(e.to_string()))? else {
            return Ok(None);
        };
        let n = h.config.params.len();
        for (i, it) in h.iterations.iter().enumerate() {
            if it.step.iteration != i as u64 || it.theta.len() != n || it.step.flip.len() != n {
                return Err(bad(format!("{HISTORY_FILE}: iteration {i} is damaged")));
            }
        }
        if h.iterations.len() as u64 > h.config.iterations {
            return Err(bad(format!("{HISTORY_FILE}: more iterations than the run has")));
        }
        Ok(Some(h))
    }

    /// Writes `DIR/history.json` atomically.
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, dir: &Path) -> Result<(), TuneError> {
        Ok(write_json(&dir.join(HISTORY_FILE), self)?)
    }
}
