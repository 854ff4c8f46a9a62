//! The training configuration: one TOML file, with `key=value` overrides.

use std::path::{Path, PathBuf};

use fanorona_nn::Architecture;
use serde::{Deserialize, Serialize};

use crate::TrainError;

/// Everything a training run depends on. Saved as `config.toml` next to the checkpoints.
///
/// ```toml
/// seed = 1
/// backend = "flex"
///
/// [model]
/// hidden = [128, 32]
/// encoding = "threats"   # or "stones": stone planes only (90 inputs)
///
/// [data]
/// target = "blend"       # "result", "score" or "blend"
/// score_weight = 0.5     # weight of the squashed search score in a blend
/// score_scale = 400.0    # centi-stones for which the squashed score is tanh(1)
/// skip_plies = 0
/// val_fraction = 0.1     # share of games held out for validation (by game)
/// shuffle_buffer = 200000
/// mirror = true          # random left-right mirroring of training positions
/// dedup = false
/// quiet_only = false    # train only on positions whose side to move has no capture
/// max_score = 0          # leave out positions scored this far from 0 or more (decided; 0: keep)
/// tablebase = "tables"   # label the positions these endgame tables cover by their exact value
///
/// [optim]
/// optimizer = "adamw"    # or "adam"
/// lr = 0.001
/// min_lr = 0.00002
/// warmup_steps = 200
/// schedule = "cosine"    # "cosine", "linear" or "constant" after the warm-up
/// weight_decay = 0.0001
/// batch_size = 1024
/// epochs = 10
/// max_steps = 0          # stop after this many steps in all (0 = run every epoch)
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct TrainConfig {
    /// Seed of the initial weights, the split salt and the data order.
    pub seed: u64,
    /// The burn backend.
    pub backend: Backend,
    /// The network.
    pub model: ModelConfig,
    /// Data reading, targets and augmentation.
    pub data: DataConfig,
    /// Optimiser and schedule.
    pub optim: OptimConfig,
}

/// The burn backend that trains.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// burn's pure-Rust CPU backend (always available).
    Flex,
    /// GPU through wgpu (cargo feature `wgpu`).
    Wgpu,
    /// NVIDIA GPU through CUDA (cargo feature `cuda`).
    Cuda,
    /// burn's deprecated ndarray CPU backend (cargo feature `ndarray`; for comparison only).
    Ndarray,
}

/// The network's shape.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ModelConfig {
    /// Hidden layer sizes; the input is the engine's encoding named by `encoding` and the
    /// output one tanh neuron.
    pub hidden: Vec<usize>,
    /// The input encoding: `threats` (the stone planes and which stones each side could take
    /// first, 180 inputs, the default) or `stones` (stone planes, 90 inputs).
    pub encoding: String,
    /// The hidden layers' activation: `crelu` (clipped ReLU, `clamp(x, 0, 1)`, the default: the
    /// search runs the network in integers, and the weights are clipped during training so
    /// that they fit) or `relu` (float inference only, as the first networks).
    pub activation: String,
    /// Output buckets (1 to 8): more than one gives the output layer one neuron per bucket of
    /// stone counts (1-44 cut evenly, fewest stones first), as Stockfish's material buckets.
    pub buckets: usize,
}

/// What the network learns to predict (shared with `fanorona data export` and the Python
/// package: the target computation lives in fanorona-data).
pub use fanorona_data::Target;

/// Data reading, targets and augmentation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DataConfig {
    /// The target.
    pub target: Target,
    /// Weight of the search score in a blend, 0..=1.
    pub score_weight: f32,
    /// Centi-stones for which the squashed score is tanh(1).
    pub score_scale: f32,
    /// Positions before this ply of each game are skipped (the randomised opening).
    pub skip_plies: usize,
    /// Share of games held out for validation, chosen by a hash of the file name and the
    /// game's index in the file.
    pub val_fraction: f64,
    /// Samples held in the shuffle buffer (memory: about 40 bytes each).
    pub shuffle_buffer: usize,
    /// Mirror each training position left-right with probability 1/2.
    pub mirror: bool,
    /// Give each position only once (costs memory per distinct position).
    pub dedup: bool,
    /// Train only on quiet positions: those whose side to move has no capture, the only ones
    /// the search evaluates.
    pub quiet_only: bool,
    /// Leave out positions already decided: those whose recorded search score is this many
    /// centi-stones from 0 or more (0: keep them all).
    pub max_score: u32,
    /// Endgame tables (`fanorona tb generate`): the positions they cover are labelled by
    /// their exact value (+1, 0, -1 for the side to move) instead of the blend.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tablebase: Option<PathBuf>,
}

/// Optimiser and learning-rate schedule.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OptimConfig {
    /// Adam (L2 weight decay) or AdamW (decoupled weight decay).
    pub optimizer: Optimizer,
    /// Peak learning rate.
    pub lr: f64,
    /// Learning rate at the end of the decay.
    pub min_lr: f64,
    /// Steps of linear warm-up from 0 to `lr`.
    pub warmup_steps: u64,
    /// Decay after the warm-up.
    pub schedule: Schedule,
    /// Weight decay (0 = none).
    pub weight_decay: f64,
    /// Samples per step.
    pub batch_size: usize,
    /// Passes over the training data.
    pub epochs: u32,
    /// Stop after this many steps in all (0 = no limit: every epoch runs in full).
    pub max_steps: u64,
}

/// The optimiser.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Optimizer {
    /// Adam with L2 weight decay.
    Adam,
    /// AdamW: decoupled weight decay.
    AdamW,
}

/// The learning-rate decay after the warm-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Schedule {
    /// Half a cosine from `lr` to `min_lr`.
    Cosine,
    /// A straight line from `lr` to `min_lr`.
    Linear,
    /// `lr` throughout.
    Constant,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            seed: 1,
            backend: Backend::Flex,
            model: ModelConfig::default(),
            data: DataConfig::default(),
            optim: OptimConfig::default(),
        }
    }
}

impl Default for ModelConfig {
    fn default() -> ModelConfig {
        ModelConfig {
            hidden: Architecture::default().hidden,
            // Threat planes: measured stronger at equal time than stone planes alone, though
            // slower per node (README, "How the defaults were chosen").
            encoding: fanorona_nn::Encoding::ThreatPlanes.name().into(),
            activation: "crelu".into(),
            buckets: 1,
        }
    }
}

impl Default for DataConfig {
    fn default() -> DataConfig {
        DataConfig {
            target: Target::Blend,
            score_weight: fanorona_data::samples::DEFAULT_SCORE_WEIGHT,
            score_scale: fanorona_data::samples::DEFAULT_SCORE_SCALE,
            skip_plies: 0,
            val_fraction: 0.1,
            shuffle_buffer: 200_000,
            mirror: true,
            dedup: false,
            quiet_only: false,
            max_score: 0,
            tablebase: None,
        }
    }
}

impl Default for OptimConfig {
    fn default() -> OptimConfig {
        OptimConfig {
            optimizer: Optimizer::AdamW,
            lr: 1e-3,
            min_lr: 2e-5,
            warmup_steps: 200,
            schedule: Schedule::Cosine,
            weight_decay: 1e-4,
            batch_size: 1024,
            epochs: 10,
            max_steps: 0,
        }
    }
}

impl DataConfig {
    /// The weight of the squashed score in the target.
    pub fn effective_score_weight(&self) -> f32 {
        self.target.score_weight(self.score_weight)
    }
}

impl TrainConfig {
    /// The network architecture.
    ///
    /// # Errors
    /// When the hidden sizes are invalid.
    pub fn architecture(&self) -> Result<Architecture, TrainError> {
        use fanorona_nn::Activation;
        let activation = self
            .model
            .activation
            .parse::<Activation>()
            .map_err(|e| TrainError::Config(format!("model.activation: {e}")))?;
        let encoding = self
            .model
            .encoding
            .parse::<fanorona_nn::Encoding>()
            .map_err(|e| TrainError::Config(format!("model.encoding: {e}")))?;
        let arch = Architecture::mlp(&self.model.hidden)
            .map(|a| a.with_activation(activation).with_encoding(encoding))
            .map_err(|e| TrainError::Config(format!("model.hidden: {e}")))?;
        arch.with_buckets(self.model.buckets).map_err(|e| TrainError::Config(format!("model.buckets: {e}")))
    }

    /// Checks every value.
    ///
    /// # Errors
    /// [`TrainError::Config`] naming the first bad key.
    pub fn validate(&self) -> Result<(), TrainError> {
        let bad = |key: &str, why: &str| Err(TrainError::Config(format!("{key}: {why}")));
        self.architecture()?;
        // The configuration is saved as TOML, whose integers are signed 64-bit.
        if i64::try_from(self.seed).is_err() || i64::try_from(self.optim.max_steps).is_err() {
            return bad(
                "seed / optim.max_steps",
                "must be at most 9223372036854775807 (TOML integers are 64-bit signed)",
            );
        }
        let d = &self.data;
        if !(0.0..=1.0).contains(&d.score_weight) {
            return bad("data.score_weight", "must be in 0..=1");
        }
        if !(d.score_scale.is_finite() && d.score_scale > 0.0) {
            return bad("data.score_scale", "must be positive");
        }
        if !(0.0..1.0).contains(&d.val_fraction) {
            return bad("data.val_fraction", "must be in 0..1");
        }
        if d.shuffle_buffer == 0 {
            return bad("data.shuffle_buffer", "must be at least 1");
        }
        let o = &self.optim;
        if !(o.lr.is_finite() && o.lr > 0.0) {
            return bad("optim.lr", "must be positive");
        }
        if !(o.min_lr.is_finite() && o.min_lr >= 0.0 && o.min_lr <= o.lr) {
            return bad("optim.min_lr", "must be in 0..=lr");
        }
        if !(o.weight_decay.is_finite() && o.weight_decay >= 0.0) {
            return bad("optim.weight_decay", "must be 0 or more");
        }
        if o.batch_size == 0 || o.batch_size > 1 << 20 {
            return bad("optim.batch_size", "must be in 1..=1048576");
        }
        if o.epochs == 0 {
            return bad("optim.epochs", "must be at least 1");
        }
        Ok(())
    }

    /// Reads a TOML configuration file, applies `overrides` (`key=value` with dotted keys such
    /// as `optim.lr=0.002`; the value is TOML, or a bare string) and validates the result.
    ///
    /// # Errors
    /// When the file cannot be read, is not valid TOML, has unknown keys, or a value is invalid.
    pub fn load(path: Option<&Path>, overrides: &[String]) -> Result<TrainConfig, TrainError> {
        let mut value = match path {
            Some(p) => {
                let text = std::fs::read_to_string(p).map_err(|e| TrainError::io(p, e))?;
                let v: toml::Table = toml::from_str(&text)
                    .map_err(|e| TrainError::ConfigFile { path: p.to_path_buf(), message: e.to_string() })?;
                toml::Value::Table(v)
            }
            None => toml::Value::Table(toml::Table::new()),
        };
        for o in overrides {
            apply_override(&mut value, o)?;
        }
        let config: TrainConfig = value.try_into().map_err(|e: toml::de::Error| match path {
            Some(p) => TrainError::ConfigFile { path: p.to_path_buf(), message: e.to_string() },
            None => TrainError::Config(e.to_string()),
        })?;
        config.validate()?;
        Ok(config)
    }

    /// Parses a configuration from TOML text (no overrides) and validates it.
    ///
    /// # Errors
    /// As [`TrainConfig::load`].
    pub fn from_toml(text: &str) -> Result<TrainConfig, TrainError> {
        let config: TrainConfig = toml::from_str(text).map_err(|e| TrainError::Config(e.to_string()))?;
        config.validate()?;
        Ok(config)
    }

    /// The configuration as TOML text.
    pub fn to_toml(&self) -> String {
        toml::to_string_pretty(self).unwrap_or_else(|e| format!("# cannot serialise: {e}\n"))
    }

    /// Applies one `key=value` override.
    ///
    /// # Errors
    /// When the text has no `=`, the key is unknown or the value has the wrong type.
    pub fn with_override(&self, text: &str) -> Result<TrainConfig, TrainError> {
        let mut value = toml::Value::try_from(self).map_err(|e| TrainError::Config(e.to_string()))?;
        apply_override(&mut value, text)?;
        let config: TrainConfig =
            value.try_into().map_err(|e: toml::de::Error| TrainError::Config(format!("{text}: {e}")))?;
        config.validate()?;
        Ok(config)
    }
}

fn apply_override(root: &mut toml::Value, text: &str) -> Result<(), TrainError> {
    let Some((key, raw)) = text.split_once('=') else {
        return Err(TrainError::Config(format!("override `{text}` is not key=value")));
    };
    let key = key.trim();
    let raw = raw.trim();
    let value = toml::from_str::<toml::Table>(&format!("v = {raw}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(raw.to_string()));
    let parts: Vec<&str> = key.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(TrainError::Config(format!("override `{text}` has an empty key part")));
    }
    let mut node = root;
    for part in &parts[..parts.len() - 1] {
        let table = node
            .as_table_mut()
            .ok_or_else(|| TrainError::Config(format!("override `{text}`: `{part}` is not a table")))?;
        node = table.entry((*part).to_string()).or_insert_with(|| toml::Value::Table(toml::Table::new()));
    }
    let table =
        node.as_table_mut().ok_or_else(|| TrainError::Config(format!("override `{text}`: not a table")))?;
    table.insert(parts[parts.len() - 1].to_string(), value);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_through_toml() {
        let c = TrainConfig::default();
        c.validate().unwrap();
        assert_eq!(TrainConfig::from_toml(&c.to_toml()).unwrap(), c);
        assert_eq!(c.architecture().unwrap().to_string(), "threats:180-256-1");
    }

    #[test]
    fn seeds_beyond_toml_integers_are_refused() {
        let mut c = TrainConfig { seed: u64::MAX, ..TrainConfig::default() };
        assert!(c.validate().unwrap_err().to_string().contains("seed"));
        c.seed = i64::MAX as u64;
        c.validate().unwrap();
        assert_eq!(TrainConfig::from_toml(&c.to_toml()).unwrap(), c);
    }

    #[test]
    fn the_example_file_is_the_defaults() {
        let text = include_str!("../config-example.toml");
        assert_eq!(TrainConfig::from_toml(text).unwrap(), TrainConfig::default());
    }

    #[test]
    fn file_and_overrides() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.toml");
        std::fs::write(&p, "seed = 7\n[optim]\nlr = 0.01\nepochs = 3\n[model]\nhidden = [16]\n").unwrap();
        let c = TrainConfig::load(
            Some(&p),
            &["optim.lr=0.002".into(), "data.target=score".into(), "model.hidden=[8,4]".into()],
        )
        .unwrap();
        assert_eq!(c.seed, 7);
        assert_eq!(c.optim.lr, 0.002);
        assert_eq!(c.optim.epochs, 3);
        assert_eq!(c.data.target, Target::Score);
        assert_eq!(c.data.effective_score_weight(), 1.0);
        assert_eq!(c.model.hidden, vec![8, 4]);
        assert_eq!(c.optim.batch_size, 1024);
    }

    #[test]
    fn errors_name_the_key() {
        let unknown = TrainConfig::load(None, &["optim.lrr=1".into()]).unwrap_err().to_string();
        assert!(unknown.contains("lrr"), "{unknown}");
        let bad = TrainConfig::load(None, &["optim.lr=-1".into()]).unwrap_err().to_string();
        assert!(bad.contains("optim.lr"), "{bad}");
        let bad = TrainConfig::load(None, &["model.hidden=[0]".into()]).unwrap_err().to_string();
        assert!(bad.contains("model.hidden"), "{bad}");
        assert!(TrainConfig::load(None, &["nonsense".into()]).is_err());
        let bad = TrainConfig::load(None, &["model.encoding=\"pieces\"".into()]).unwrap_err().to_string();
        assert!(bad.contains("model.encoding"), "{bad}");
        let threats = TrainConfig::load(None, &["model.encoding=\"threats\"".into()]).unwrap();
        assert_eq!(threats.architecture().unwrap().to_string(), "threats:180-256-1");
        assert!(TrainConfig::load(None, &["data.target=sideways".into()]).is_err());
        assert!(TrainConfig::default().with_override("optim.batch_size=0").is_err());
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("c.toml");
        std::fs::write(&p, "seed = [").unwrap();
        let e = TrainConfig::load(Some(&p), &[]).unwrap_err().to_string();
        assert!(e.contains("c.toml"), "{e}");
    }
}
