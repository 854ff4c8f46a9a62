//! The stages of a generation (self-play, training, gate) and the final match: their names,
//! seeds and markers, and what they share. Each stage has its own file and reads only its own
//! section of the configuration.

mod final_match;
mod gate;
mod matches;
mod selfplay;
mod train;

use std::fmt;
use std::path::Path;

use fanorona_core::DrawRules;

use crate::LoopError;
use crate::files::{Layout, read_marker};
use crate::records::Event;
use crate::specs::Engines;

pub(crate) use final_match::run as final_match;
pub(crate) use gate::run as gate;
pub(crate) use matches::openings as match_openings;
pub(crate) use selfplay::config as selfplay_config;
pub(crate) use selfplay::run as selfplay;
pub(crate) use train::run as train;

/// A stage of the loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Self-play with the best engine.
    Selfplay,
    /// Training a candidate network.
    Train,
    /// The candidate against the best.
    Gate,
    /// The best network against the baseline, after the last generation.
    Final,
}

impl Stage {
    /// Every stage, in the order a run meets them.
    pub const ALL: [Stage; 4] = [Stage::Selfplay, Stage::Train, Stage::Gate, Stage::Final];

    /// Its name: in events, in marker files (`<name>.done.json`).
    pub const fn name(self) -> &'static str {
        match self {
            Stage::Selfplay => "selfplay",
            Stage::Train => "train",
            Stage::Gate => "gate",
            Stage::Final => "final",
        }
    }

    /// What tells its seed from the other stages' of the same generation (part of every saved
    /// run's seeds: never change them).
    const fn salt(self) -> u64 {
        match self {
            Stage::Selfplay => 1,
            Stage::Train => 2,
            Stage::Gate => 3,
            Stage::Final => 4,
        }
    }

    /// The stage's seed in generation `generation` (0 for the final match) of a run seeded
    /// with `run_seed`. Kept below 2^63: seeds are saved in TOML files, whose integers are
    /// signed.
    pub fn seed(self, run_seed: u64, generation: u32) -> u64 {
        (run_seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((u64::from(generation) << 8) | self.salt())) >> 1
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What every stage needs besides its own configuration section.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Context<'a> {
    /// The run directory.
    pub layout: &'a Layout,
    /// The run's seed.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// The draw rules of every game of the run.
    pub rules: DrawRules,
    /// The engine settings of the run, parsed from its configuration.
    pub engines: &'a Engines,
}

impl Context<'_> {
    /// The name of generation `g`'s engine in matches and reports.
    pub fn engine_name(&self, generation: u32) -> String {
        if generation == 0 {
            format!("gen-000 ({})", self.engines.baseline)
        } else {
            format!("gen-{generation:03}")
        }
    }

    /// Worker threads, 0 resolved to the cores.
    pub fn workers(&self) -> usize {
        if self.threads == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            self.threads
        }
    }
}

/// A stage's result when its marker says it is finished; otherwise announces that it starts.
fn finished<T: serde::de::DeserializeOwned>(
    marker: &Path,
    generation: u32,
    stage: Stage,
    events: &mut dyn FnMut(&Event),
) -> Result<Option<T>, LoopError> {
    let done = read_marker::<T>(marker)?;
    events(&Event::Stage { generation, stage, done: done.is_some() });
    Ok(done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seeds_differ_by_generation_and_fit_toml() {
        // Every generation's self-play (whose seed is the games' identity for the training
        // split) and gate get their own seed. (The training and gate seeds of one generation
        // coincide, as they always have: they seed different things.)
        let mut seen = std::collections::HashSet::new();
        for g in 0..20 {
            for s in [Stage::Selfplay, Stage::Gate, Stage::Final] {
                let seed = s.seed(u64::MAX, g);
                assert!(seed < 1 << 63);
                assert!(seen.insert(seed), "{s} {g}");
            }
        }
        // The seeds of saved runs: the old numeric salts.
        assert_eq!(Stage::Train.seed(1, 3), (0x9E37_79B9_7F4A_7C15u64 ^ ((3 << 8) | 2)) >> 1);
        assert_eq!(Stage::ALL.map(Stage::name), ["selfplay", "train", "gate", "final"]);
    }
}
