//! The loop's configuration: one TOML file, every field with a default that finishes on a
//! 2-core laptop in about ten minutes.

use std::path::Path;

use serde::{Deserialize, Serialize};

use fanorona_eval::stats::SprtConfig;

use fanorona_engine::EvalSpec;

use crate::LoopError;
use crate::specs::{Engines, SearchSpec};

/// The whole loop.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LoopConfig {
    /// Generations to run.
    pub generations: u32,
    /// Seed of everything (self-play, training, matches); each generation derives its own.
    pub seed: u64,
    /// Worker threads for self-play and matches (0: one per core).
    pub threads: usize,
    /// The engine the loop starts from and measures itself against.
    pub baseline_eval: String,
    /// Self-play.
    pub selfplay: SelfplayStage,
    /// Training.
    pub train: TrainStage,
    /// The gating match of each candidate against the current best.
    pub gate: GateStage,
    /// The final match of the best network against the baseline.
    pub final_match: FinalStage,
    /// The draw rules of every game of the run: self-play, gates and the final match.
    pub rules: RulesSection,
}

/// The draw rules of every game the loop plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RulesSection {
    /// Draw after this many turns without a capture (0: no limit).
    pub max_quiet_plies: u32,
    /// Draw at this many turns (0: no limit).
    pub max_plies: u32,
}

impl Default for RulesSection {
    fn default() -> RulesSection {
        let d = fanorona_core::DrawRules::default();
        RulesSection { max_quiet_plies: d.max_quiet_plies, max_plies: d.max_plies }
    }
}

impl RulesSection {
    /// The rules as the games take them.
    pub fn draw_rules(&self) -> fanorona_core::DrawRules {
        fanorona_core::DrawRules { max_quiet_plies: self.max_quiet_plies, max_plies: self.max_plies }
    }
}

/// Self-play settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SelfplayStage {
    /// Games per generation.
    pub games: u64,
    /// Games of the first generation (0: `games`). The first generation is played by the
    /// baseline, which is several times faster than a network, so a larger first data set
    /// bootstraps the first network cheaply.
    pub first_games: u64,
    /// Search settings of the self-play player, without `eval=` (the loop adds the current
    /// best evaluator): e.g. `depth=2` or `nodes=2000`.
    pub search: String,
    /// Uniformly random opening turns.
    pub random_plies: u32,
    /// Plies (after the random ones) that sample root turns by temperature.
    pub explore_plies: u32,
    /// Temperature in centi-stones for those plies.
    pub temperature: f64,
    /// Read from configurations written before the draw rules moved to `[rules]` (and from
    /// the `loop.toml` of older runs, so they resume); moved there when the file is read.
    #[serde(skip_serializing, rename = "max_quiet_plies")]
    pub(crate) legacy_max_quiet_plies: Option<u32>,
    /// See `legacy_max_quiet_plies`.
    #[serde(skip_serializing, rename = "max_plies")]
    pub(crate) legacy_max_plies: Option<u32>,
    /// Generate the games on a cluster instead of in this process: a shell command (run with
    /// `sh -c`, its output sent to stderr) that must return once every shard is written, e.g.
    /// `sbatch --wait --array=0-31 --cpus-per-task=16 loop/selfplay-array.sbatch`. It gets the
    /// environment variables `FANORONA_SELFPLAY_ARGS` (the `fanorona selfplay` arguments of one
    /// shard, `--out` with `{shard}` included), `FANORONA_SHARD_COUNT`, `FANORONA_SHARD_DIR`
    /// and `SBATCH_OUTPUT` (`FANORONA_SHARD_DIR/slurm-%a.out`: each array task's log); the loop
    /// then joins the shard files into the file the same self-play writes here. A failed
    /// command or a missing shard stops the loop, naming the shard, its array task (the array
    /// counting from 0) and its log. Empty: generate locally.
    pub cluster_command: String,
    /// Shards the cluster command writes: the games are dealt out over them, the first shards
    /// playing one more when the count does not divide them (100 games in 12 shards: 9 or 8).
    pub shards: u32,
}

/// Training settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TrainStage {
    /// Train on the games of this many latest generations.
    pub window: u32,
    /// The window grows by this many generations each generation (KataGo's growing window,
    /// in generations): generation `g` trains on `window + floor(window_growth * (g - 1))`
    /// generations, so a long run keeps more of its past as it goes. 0: a fixed window.
    pub window_growth: f64,
    /// The weight of the search score in the blended target, one entry per generation (the
    /// last repeating), e.g. `[0.4, 0.6, 0.8]` for the result's weight to fall as the labels'
    /// searches get stronger; empty: `train.trainer.data.score_weight` for every generation.
    pub score_weights: Vec<f32>,
    /// Re-score the older generations' games of the window before each training with this
    /// search and the current best network (e.g. `depth=2`; MuZero's reanalyse): their labels
    /// then come from the best evaluator of the time, not from the weaker one that played them.
    /// Empty: train on the scores as recorded.
    pub rescore: String,
    /// Start each network from the previous best network's weights.
    pub warm_start: bool,
    /// The trainer's configuration (fanorona-train's `TrainConfig`: `[train.trainer.model]`,
    /// `[train.trainer.data]`, `[train.trainer.optim]`, `backend`); its seed is replaced by one
    /// derived from the loop's seed and the generation.
    pub trainer: fanorona_train::TrainConfig,
}

impl TrainStage {
    /// The generations whose games generation `g` trains on (from 1).
    pub fn window_of(&self, g: u32) -> std::ops::RangeInclusive<u32> {
        let grown = (self.window_growth * f64::from(g.saturating_sub(1))).floor() as u32;
        let size = self.window.saturating_add(grown).max(1);
        g.saturating_sub(size - 1).max(1)..=g
    }

    /// The weight of the search score in generation `g`'s targets.
    pub fn score_weight_of(&self, g: u32) -> f32 {
        let i = (g.max(1) - 1) as usize;
        match self.score_weights.get(i).or(self.score_weights.last()) {
            Some(&w) => w,
            None => self.trainer.data.score_weight,
        }
    }
}

/// Gating settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct GateStage {
    /// Games of the candidate against the current best (rounded up to pairs).
    pub games: u64,
    /// Search settings both sides use in the match, without `eval=`.
    pub search: String,
    /// The match's openings, as `fanorona eval --openings` takes them (by default
    /// `fanorona eval`'s, `random:plies=6`).
    pub openings: String,
    /// Random opening turns of configurations written before `openings` (and of the
    /// `loop.toml` of older runs, so that they resume as they began): read as `openings =
    /// "random:plies=N"` when the file has no `openings`.
    #[serde(skip_serializing, rename = "opening_plies")]
    pub(crate) legacy_opening_plies: Option<u32>,
    /// An SPRT that may stop the match early, e.g. `elo0=0,elo1=20,alpha=0.1,beta=0.1`;
    /// empty: play all games.
    pub sprt: String,
    /// Promote when the candidate's score is above this (0.5 = better than even) and, with an
    /// SPRT, when the SPRT did not accept H0.
    pub min_score: f64,
}

/// The closing match against the baseline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct FinalStage {
    /// Games (0: skip).
    pub games: u64,
    /// Search settings of both sides, without `eval=`.
    pub search: String,
    /// The openings (as the gates').
    pub openings: String,
    /// As the gates' `opening_plies`.
    #[serde(skip_serializing, rename = "opening_plies")]
    pub(crate) legacy_opening_plies: Option<u32>,
}

impl Default for LoopConfig {
    fn default() -> LoopConfig {
        LoopConfig {
            generations: 3,
            seed: 1,
            threads: 0,
            baseline_eval: "handcrafted".into(),
            selfplay: SelfplayStage::default(),
            train: TrainStage::default(),
            gate: GateStage::default(),
            final_match: FinalStage::default(),
            rules: RulesSection::default(),
        }
    }
}

impl Default for SelfplayStage {
    fn default() -> SelfplayStage {
        SelfplayStage {
            games: 2000,
            first_games: 10000,
            search: "depth=2".into(),
            random_plies: 4,
            explore_plies: 10,
            temperature: 100.0,
            legacy_max_quiet_plies: None,
            legacy_max_plies: None,
            cluster_command: String::new(),
            shards: 1,
        }
    }
}

impl Default for TrainStage {
    fn default() -> TrainStage {
        TrainStage {
            window: 3,
            window_growth: 0.0,
            score_weights: Vec::new(),
            rescore: String::new(),
            warm_start: true,
            trainer: fanorona_train::TrainConfig::default(),
        }
    }
}

/// The search limit of the gates and the final match by default: equal time per move, the
/// strength users play at (a fixed depth hides a network's cost per node). Set `nodes=N` for a
/// reproducible run.
pub const DEFAULT_MATCH_SEARCH: &str = "movetime=20";

impl Default for GateStage {
    fn default() -> GateStage {
        GateStage {
            games: 100,
            search: DEFAULT_MATCH_SEARCH.into(),
            openings: fanorona_eval::openings::DEFAULT_OPENINGS.into(),
            legacy_opening_plies: None,
            sprt: String::new(),
            min_score: 0.5,
        }
    }
}

impl Default for FinalStage {
    fn default() -> FinalStage {
        FinalStage {
            games: 400,
            search: DEFAULT_MATCH_SEARCH.into(),
            openings: fanorona_eval::openings::DEFAULT_OPENINGS.into(),
            legacy_opening_plies: None,
        }
    }
}

impl GateStage {
    /// The SPRT, parsed.
    ///
    /// # Errors
    /// [`LoopError::Config`] naming `gate.sprt` when it does not parse.
    pub fn sprt(&self) -> Result<Option<SprtConfig>, LoopError> {
        let text = self.sprt.trim();
        if text.is_empty() {
            return Ok(None);
        }
        text.parse().map(Some).map_err(|e| LoopError::Config(format!("gate.sprt {text:?}: {e}")))
    }
}

impl SelfplayStage {
    /// Games of generation `g` (from 1).
    pub fn games_of(&self, g: u32) -> u64 {
        if g == 1 && self.first_games > 0 { self.first_games } else { self.games }
    }
}

impl LoopConfig {
    /// Reads a TOML file; missing fields keep their defaults.
    ///
    /// # Errors
    /// [`LoopError::Config`] naming the file and the problem.
    pub fn from_file(path: &Path) -> Result<LoopConfig, LoopError> {
        Ok(Self::from_file_explicit(path)?.0)
    }

    /// [`LoopConfig::from_file`], and the `generations` the file sets itself (`None`: it
    /// leaves them to the default), so that a resumed run tells an explicit count from the
    /// default one.
    ///
    /// # Errors
    /// As [`LoopConfig::from_file`]; a file over [`MAX_CONFIG_BYTES`] (or endless, like
    /// `/dev/zero`) is refused unread.
    pub fn from_file_explicit(path: &Path) -> Result<(LoopConfig, Option<u32>), LoopError> {
        let text = read_bounded(path)?;
        let config = Self::from_toml(&text).map_err(|e| match e {
            LoopError::Config(m) => LoopError::Config(format!("{}: {m}", path.display())),
            LoopError::Toml { path: None, source } => {
                LoopError::Toml { path: Some(path.to_path_buf()), source }
            }
            other => other,
        })?;
        // The file parsed, so it is a table; `generations` in it is what the file asked for.
        let explicit = text
            .parse::<toml::Table>()
            .ok()
            .and_then(|t| t.get("generations").and_then(toml::Value::as_integer))
            .map(|_| config.generations);
        Ok((config, explicit))
    }

    /// Parses TOML text; missing fields keep their defaults.
    ///
    /// # Errors
    /// [`LoopError::Config`] on a syntax error, an unknown field or a bad value.
    pub fn from_toml(text: &str) -> Result<LoopConfig, LoopError> {
        let mut c: LoopConfig =
            toml::from_str(text).map_err(|source| LoopError::Toml { path: None, source })?;
        c.move_legacy_rules()?;
        c.move_legacy_openings(text)?;
        c.check()?;
        Ok(c)
    }

    /// `opening_plies = N` of a `[gate]` or `[final_match]` without `openings` (older files):
    /// the random openings it meant, `random:plies=N`.
    fn move_legacy_openings(&mut self, text: &str) -> Result<(), LoopError> {
        let table: toml::Table = text.parse().map_err(|source| LoopError::Toml { path: None, source })?;
        let has = |section: &str| {
            table.get(section).and_then(toml::Value::as_table).is_some_and(|t| t.contains_key("openings"))
        };
        for (name, plies, openings) in [
            ("gate", self.gate.legacy_opening_plies.take(), &mut self.gate.openings),
            ("final_match", self.final_match.legacy_opening_plies.take(), &mut self.final_match.openings),
        ] {
            if let Some(n) = plies {
                if has(name) {
                    return Err(LoopError::Config(format!(
                        "{name}.opening_plies and {name}.openings are both given (opening_plies = N is openings = \"random:plies=N\")"
                    )));
                }
                *openings = format!("random:plies={n}");
            }
        }
        Ok(())
    }

    /// `[selfplay] max_quiet_plies` and `max_plies` of older files, moved to `[rules]`.
    fn move_legacy_rules(&mut self) -> Result<(), LoopError> {
        let (quiet, plies) =
            (self.selfplay.legacy_max_quiet_plies.take(), self.selfplay.legacy_max_plies.take());
        let default = RulesSection::default();
        for (old, new, default, name) in [
            (quiet, &mut self.rules.max_quiet_plies, default.max_quiet_plies, "max_quiet_plies"),
            (plies, &mut self.rules.max_plies, default.max_plies, "max_plies"),
        ] {
            if let Some(v) = old {
                if *new != default && *new != v {
                    return Err(LoopError::Config(format!(
                        "selfplay.{name} = {v} and rules.{name} = {new} disagree (the draw rules live in [rules] now)"
                    )));
                }
                *new = v;
            }
        }
        Ok(())
    }

    /// The engine settings as types: the baseline evaluator and the three searches.
    ///
    /// # Errors
    /// [`LoopError::Config`] naming the field that does not parse (or sets `eval=`, which the
    /// loop chooses).
    pub fn engines(&self) -> Result<Engines, LoopError> {
        let baseline = self
            .baseline_eval
            .parse::<EvalSpec>()
            .map_err(|e| LoopError::Config(format!("baseline_eval {:?}: {e}", self.baseline_eval)))?;
        let search = |name: &str, s: &str| {
            if s.contains("eval=") {
                return Err(LoopError::Config(format!(
                    "{name} {s:?} must not set eval= (the loop chooses it)"
                )));
            }
            SearchSpec::parse(s).map_err(|e| LoopError::Config(format!("{name} {s:?}: {e}")))
        };
        Ok(Engines {
            baseline,
            selfplay: search("selfplay.search", &self.selfplay.search)?,
            gate: search("gate.search", &self.gate.search)?,
            final_match: search("final_match.search", &self.final_match.search)?,
            rescore: match self.train.rescore.trim() {
                "" => None,
                s => Some(search("train.rescore", s)?),
            },
        })
    }

    /// The top-level keys (and sections) in which `other` differs from `self`, besides
    /// `generations`.
    pub fn differences(&self, other: &LoopConfig) -> Vec<&'static str> {
        let mut d = Vec::new();
        let mut differ = |name, same: bool| {
            if !same {
                d.push(name);
            }
        };
        differ("seed", self.seed == other.seed);
        differ("threads", self.threads == other.threads);
        differ("baseline_eval", self.baseline_eval == other.baseline_eval);
        differ("[selfplay]", self.selfplay == other.selfplay);
        differ("[train]", self.train == other.train);
        differ("[gate]", self.gate == other.gate);
        differ("[final_match]", self.final_match == other.final_match);
        differ("[rules]", self.rules == other.rules);
        d
    }

    /// The configuration as TOML (saved in the run directory).
    ///
    /// # Errors
    /// [`LoopError::TomlOut`] if a value has no TOML form.
    pub fn to_toml(&self) -> Result<String, LoopError> {
        toml::to_string_pretty(self).map_err(LoopError::TomlOut)
    }

    /// Checks value ranges.
    ///
    /// # Errors
    /// [`LoopError::Config`] naming the bad value.
    pub fn check(&self) -> Result<(), LoopError> {
        let bad = |m: &str| Err(LoopError::Config(m.to_string()));
        if self.generations == 0 {
            return bad("generations must be at least 1");
        }
        if self.selfplay.games == 0 {
            return bad("selfplay.games must be at least 1");
        }
        if self.selfplay.shards == 0 {
            return bad("selfplay.shards must be at least 1");
        }
        if self.gate.games == 0 {
            return bad("gate.games must be at least 1");
        }
        if self.train.window == 0 {
            return bad("train.window must be at least 1");
        }
        if !(self.train.window_growth.is_finite() && (0.0..=1000.0).contains(&self.train.window_growth)) {
            return bad("train.window_growth must be a number from 0 to 1000");
        }
        if let Some(w) = self.train.score_weights.iter().find(|w| !(0.0..=1.0).contains(*w)) {
            return Err(LoopError::Config(format!("train.score_weights: {w} must be in 0..=1")));
        }
        if !(self.selfplay.temperature.is_finite() && self.selfplay.temperature > 0.0) {
            return bad("selfplay.temperature must be a positive number");
        }
        self.train.trainer.validate().map_err(|e| LoopError::Config(format!("train.trainer: {e}")))?;
        if !(0.0..=1.0).contains(&self.gate.min_score) {
            return bad("gate.min_score must be between 0 and 1");
        }
        self.gate.sprt()?;
        let engines = self.engines()?;
        self.check_stages(&engines)
    }

    /// Hands every stage's values to the checks of the code that will run them, so that a
    /// value refused there is refused now, naming its key, rather than hours into the run.
    fn check_stages(&self, engines: &Engines) -> Result<(), LoopError> {
        let rules = self.rules.draw_rules();
        // Self-play: the first generation and the later ones (they may differ in games).
        let spec = engines.selfplay.with_eval(&engines.baseline);
        for g in [1, 2] {
            let sp = crate::stage::selfplay_config(&self.selfplay, g, &spec, self.seed, self.threads, rules);
            sp.check().map_err(|e| LoopError::Config(format!("selfplay: {e}")))?;
            if u64::from(self.selfplay.shards).checked_mul(sp.games).is_none() {
                return Err(LoopError::Config("selfplay.games times selfplay.shards overflows".into()));
            }
        }
        spec.build(0).map_err(|e| LoopError::Config(format!("selfplay.search: {e}")))?;
        // The re-scoring search, with the baseline's evaluation (the best network's when it runs):
        // the files it names are opened now.
        if let Some(rescore) = &engines.rescore {
            rescore
                .with_eval(&engines.baseline)
                .build(0)
                .map_err(|e| LoopError::Config(format!("train.rescore: {e}")))?;
        }
        // The matches: the match code's own bounds on the games and its openings parser.
        let matches = [
            ("gate", self.gate.games, &self.gate.openings, &engines.gate),
            ("final_match", self.final_match.games, &self.final_match.openings, &engines.final_match),
        ];
        for (name, games, openings, search) in matches {
            if name == "final_match" && games == 0 {
                continue;
            }
            if games > fanorona_eval::MAX_GAMES {
                return Err(LoopError::Config(format!(
                    "{name}.games = {games}: a match has at most {} games",
                    fanorona_eval::MAX_GAMES
                )));
            }
            fanorona_eval::openings::Openings::new(&crate::stage::match_openings(name, openings)?, 0)
                .map_err(|e| LoopError::Config(format!("{name}.openings = {openings:?}: {e}")))?;
            search
                .with_eval(&engines.baseline)
                .build(0)
                .map_err(|e| LoopError::Config(format!("{name}.search: {e}")))?;
        }
        Ok(())
    }
}

/// The largest loop configuration file read (a configuration is a few hundred bytes).
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;

/// Reads a configuration file of at most [`MAX_CONFIG_BYTES`].
fn read_bounded(path: &Path) -> Result<String, LoopError> {
    use std::io::Read;
    let io = |source| LoopError::ConfigFile { path: path.to_path_buf(), source };
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(MAX_CONFIG_BYTES + 1).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > MAX_CONFIG_BYTES {
        return Err(LoopError::ConfigTooLarge { path: path.to_path_buf(), limit: MAX_CONFIG_BYTES });
    }
    String::from_utf8(bytes)
        .map_err(|e| io(std::io::Error::new(std::io::ErrorKind::InvalidData, e.utf8_error())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_round_trip_through_toml() {
        let c = LoopConfig::default();
        assert_eq!(LoopConfig::from_toml(&c.to_toml().unwrap()).unwrap(), c);
        assert_eq!(LoopConfig::from_toml("").unwrap(), c);
        let c = LoopConfig::from_toml("generations = 5\n[selfplay]\ngames = 10\n").unwrap();
        assert_eq!((c.generations, c.selfplay.games, c.gate.games), (5, 10, 100));
    }

    #[test]
    fn draw_rules_of_older_files_move_to_their_section() {
        let c = LoopConfig::from_toml("[selfplay]\nmax_plies = 120\nmax_quiet_plies = 30\n").unwrap();
        assert_eq!((c.rules.max_plies, c.rules.max_quiet_plies), (120, 30));
        assert!(!c.to_toml().unwrap().contains("[selfplay]\nmax_plies"));
        assert_eq!(LoopConfig::from_toml(&c.to_toml().unwrap()).unwrap(), c);
    }

    #[test]
    fn the_trainer_encoding_passes_through() {
        let c = LoopConfig::from_toml("[train.trainer.model]\nencoding = \"threats\"\n").unwrap();
        assert_eq!(c.train.trainer.architecture().unwrap().to_string(), "threats:180-256-1");
        assert!(LoopConfig::from_toml("[train.trainer.model]\nencoding = \"pieces\"\n").is_err());
    }

    #[test]
    fn the_large_example_parses() {
        let c = LoopConfig::from_toml(include_str!("../loop-large.toml")).unwrap();
        assert_eq!((c.generations, c.selfplay.shards, c.selfplay.games), (20, 32, 64000));
        assert_eq!(c.train.trainer.model.hidden, [512, 64, 32]);
        assert!(c.gate.sprt.contains("elo1=10"));
    }

    #[test]
    fn the_longer_examples_parse() {
        let files = [
            ("loop-2h.toml", include_str!("../loop-2h.toml"), (7, 20000, 10000), "depth=4"),
            ("loop-1h.toml", include_str!("../loop-1h.toml"), (8, 20000, 20000), "depth=2"),
        ];
        for (name, text, sizes, search) in files {
            let c = LoopConfig::from_toml(text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!((c.generations, c.selfplay.first_games, c.selfplay.games), sizes, "{name}");
            assert_eq!((c.selfplay.search.as_str(), c.gate.games), (search, 200), "{name}");
            // The rest is the built-in default.
            assert_eq!(c.train.trainer.architecture().unwrap().to_string(), "threats:180-256-1", "{name}");
            assert_eq!(c.final_match.games, 400, "{name}");
        }
    }

    #[test]
    fn the_match_limits_are_the_match_codes() {
        let ok = format!("[gate]\ngames = {}\n[final_match]\ngames = 0", fanorona_eval::MAX_GAMES);
        LoopConfig::from_toml(&ok).unwrap();
    }

    #[test]
    fn a_huge_or_endless_file_is_refused_unread() {
        let e = LoopConfig::from_file(Path::new("/dev/zero")).unwrap_err();
        assert!(matches!(e, LoopError::ConfigTooLarge { .. }) && e.is_bad_input(), "{e}");
        assert!(e.to_string().contains("/dev/zero") && e.to_string().contains("1 MiB"), "{e}");
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("loop.toml");
        std::fs::write(&p, "generations = 2\n").unwrap();
        assert_eq!(LoopConfig::from_file_explicit(&p).unwrap().1, Some(2));
        std::fs::write(&p, "seed = 2\n").unwrap();
        assert_eq!(LoopConfig::from_file_explicit(&p).unwrap().1, None);
    }

    #[test]
    fn bad_values_are_named() {
        for (text, needle) in [
            ("generations = 0", "generations"),
            ("bogus = 1", "bogus"),
            ("[gate]\nmin_score = 2.0", "min_score"),
            ("[selfplay]\nsearch = \"depth=2,eval=material\"", "eval="),
            ("[gate]\nsearch = \"depth=x\"", "gate.search"),
            ("[gate]\nsprt = \"elo0=0,elo1=x\"", "gate.sprt"),
            ("[selfplay]\nmax_plies = 100\n[rules]\nmax_plies = 200", "disagree"),
            // What the later stages refuse is refused at the start, naming the key.
            ("[gate]\ngames = 1000000001", "gate.games"),
            ("[final_match]\ngames = 1000000001", "final_match.games"),
            ("[gate]\nopening_plies = 0", "gate.openings"),
            ("[final_match]\nopening_plies = 41", "final_match.openings"),
            ("[gate]\nopenings = \"suite:none\"", "gate.openings"),
            ("[final_match]\nopenings = \"/nonexistent/x.suite\"", "final_match.openings"),
            ("[gate]\nopenings = \"start\"\nopening_plies = 4", "both given"),
            ("[selfplay]\ngames = 9223372036854775807\nshards = 4", "selfplay"),
        ] {
            let e = LoopConfig::from_toml(text).unwrap_err().to_string();
            assert!(e.contains(needle), "{text}: {e}");
        }
    }

    #[test]
    fn the_window_grows_by_its_growth() {
        let t = |window, window_growth| TrainStage { window, window_growth, ..TrainStage::default() };
        assert_eq!(t(3, 0.0).window_of(1), 1..=1);
        assert_eq!(t(3, 0.0).window_of(7), 5..=7);
        // 2 + floor(0.5 * 6) = 5 generations at generation 7; 2 + floor(0.5 * 1) = 2 at 2.
        assert_eq!(t(2, 0.5).window_of(7), 3..=7);
        assert_eq!(t(2, 0.5).window_of(2), 1..=2);
        assert_eq!(t(1, 1.0).window_of(9), 1..=9);
    }

    #[test]
    fn score_weights_are_scheduled_per_generation() {
        let c = LoopConfig::from_toml(
            "[train]
score_weights = [0.25, 0.75]
",
        )
        .unwrap();
        let w: Vec<f32> = (1..=4).map(|g| c.train.score_weight_of(g)).collect();
        assert_eq!(w, [0.25, 0.75, 0.75, 0.75]);
        assert_eq!(LoopConfig::default().train.score_weight_of(2), 0.5);
        let e = LoopConfig::from_toml("[train]\nscore_weights = [0.5, 1.5]\n").unwrap_err();
        assert!(e.to_string().contains("train.score_weights: 1.5"), "{e}");
        let e = LoopConfig::from_toml("[train]\nwindow_growth = -1.0\n").unwrap_err();
        assert!(e.to_string().contains("train.window_growth"), "{e}");
    }
}
