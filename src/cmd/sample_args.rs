//! The sample options of `fanorona train` (its `data.*` keys) as command-line flags, for
//! the commands that turn games into training samples.

use fanorona_data::samples::{DEFAULT_SCORE_SCALE, DEFAULT_SCORE_WEIGHT};
use fanorona_data::{SampleConfig, Target};

use crate::exit::bad_input;

/// How games become samples (defaults: the trainer's).
#[derive(Debug, Clone, clap::Args)]
pub struct SampleArgs {
    /// Target: result, score or blend (the trainer's data.target).
    #[arg(long, default_value = "blend", value_parser = parse_target)]
    pub target: Target,
    /// Weight of the squashed search score in a blend, 0..=1 (data.score_weight).
    #[arg(long, default_value_t = DEFAULT_SCORE_WEIGHT)]
    pub score_weight: f32,
    /// Centi-stones for which the squashed score is tanh(1) (data.score_scale).
    #[arg(long, default_value_t = DEFAULT_SCORE_SCALE)]
    pub score_scale: f32,
    /// Skip the positions before this ply of every game (data.skip_plies).
    #[arg(long, default_value_t = 0)]
    pub skip_plies: usize,
    /// Give each position only the first time it occurs (data.dedup).
    #[arg(long)]
    pub dedup: bool,
    /// Also give every sample mirrored left-right, marked `mirrored` (the trainer mirrors at
    /// random instead).
    #[arg(long)]
    pub mirror: bool,
    /// Only positions whose side to move has no capture (data.quiet_only).
    #[arg(long)]
    pub quiet_only: bool,
    /// Leave out positions whose search score is this many centi-stones from 0 or more:
    /// already decided (data.max_score; 0: keep them).
    #[arg(long, default_value_t = 0)]
    pub max_score: u32,
}

fn parse_target(s: &str) -> Result<Target, String> {
    s.parse()
}

impl SampleArgs {
    /// The sample configuration, checked as the trainer checks its own.
    pub fn config(&self) -> anyhow::Result<SampleConfig> {
        if !(0.0..=1.0).contains(&self.score_weight) {
            return Err(bad_input("--score-weight", format!("{} must be in 0..=1", self.score_weight)));
        }
        if !(self.score_scale.is_finite() && self.score_scale > 0.0) {
            return Err(bad_input("--score-scale", format!("{} must be positive", self.score_scale)));
        }
        Ok(SampleConfig {
            skip_plies: self.skip_plies,
            score_weight: self.target.score_weight(self.score_weight),
            score_scale: self.score_scale,
            dedup: self.dedup,
            mirror: self.mirror,
            check_rules: false,
            quiet_only: self.quiet_only,
            max_score: self.max_score,
        })
    }
}
