//! The tuning file (TOML): the engine, the numbers tuned with their bounds and steps, the
//! games of an iteration. Everything is checked before any game, each error naming its line.
//!
//! ```toml
//! engine = "alphabeta:eval=handcrafted"   # an alpha-beta player spec
//! options = "nodes=20000"                 # the match options of both sides (a limit, a clock)
//! iterations = 500                        # SPSA iterations
//! pairs = 4                               # game pairs per iteration
//! concurrency = 2
//! openings = "suite:unbalanced"
//! seed = 1
//!
//! [params.lmr_base]                       # any numeric key of the spec
//! start = 100
//! min = 50
//! max = 200
//! c = 10                                  # the perturbation at the last iteration (c_end)
//! r = 0.002                               # the learning rate at the last iteration (r_end),
//!                                         # or `a` for the gain's constant itself
//! ```

use std::collections::BTreeMap;
use std::path::Path;

use fanorona_eval::{EngineKind, EngineSpec, OpeningSource};
use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::TuneError;

/// The largest tuning file read, in bytes.
pub const MAX_CONFIG_BYTES: u64 = 1 << 20;
/// The most iterations a tuning run may have.
pub const MAX_ITERATIONS: u64 = 10_000_000;
/// The most game pairs an iteration may have.
pub const MAX_PAIRS: u64 = 100_000;
/// The most parameters a tuning run may tune.
pub const MAX_PARAMS: usize = 64;

/// fishtest's and OpenBench's exponent of the gain `a_k = a / (A + k)^alpha`.
pub const DEFAULT_ALPHA: f64 = 0.602;
/// fishtest's and OpenBench's exponent of the perturbation `c_k = c / k^gamma`.
pub const DEFAULT_GAMMA: f64 = 0.101;
/// `A` as a share of the run's game pairs (fishtest's and OpenBench's 10 %).
pub const DEFAULT_A_RATIO: f64 = 0.1;
/// fishtest's default `r_end`.
pub const DEFAULT_R_END: f64 = 0.002;

/// How fast a parameter moves.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rate {
    /// The learning rate at the last pair, `r_end = a_end / c_end^2` (fishtest's).
    REnd(f64),
    /// The gain's constant `a` of `a_k = a / (A + k)^alpha` itself.
    A(f64),
}

/// One tuned number.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Param {
    /// Its spec key (`lmr_base`).
    pub name: String,
    /// Where it starts.
    pub start: f64,
    /// Its smallest value.
    pub min: f64,
    /// Its largest value.
    pub max: f64,
    /// The perturbation at the last pair (`c_end`).
    pub c_end: f64,
    /// Its learning rate.
    pub rate: Rate,
}

/// A tuning run's settings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TuneConfig {
    /// The player tuned (an alpha-beta spec).
    pub engine: String,
    /// The match options of both sides (after `;` in an engine: `nodes=20000`, `tc=10+0.1`).
    pub options: String,
    /// SPSA iterations.
    pub iterations: u64,
    /// Game pairs per iteration.
    pub pairs: u64,
    /// Games played at once (may change on `--resume`).
    pub concurrency: usize,
    /// The openings.
    pub openings: String,
    /// The seed of every iteration's perturbation, rounding, openings and players.
    pub seed: u64,
    /// The gain's exponent.
    pub alpha: f64,
    /// The perturbation's exponent.
    pub gamma: f64,
    /// `A` as a share of the run's pairs.
    pub a_ratio: f64,
    /// Play each iteration's pairs on a cluster with this shell command (empty: here).
    pub cluster_command: String,
    /// The shards the cluster command plays.
    pub shards: u32,
    /// The tuned numbers, in name order.
    pub params: Vec<Param>,
}

impl TuneConfig {
    /// Whether `other` is the same run (everything but the concurrency and the cluster
    /// command, which a resumed run may change).
    pub fn same_run(&self, other: &TuneConfig) -> bool {
        let strip =
            |c: &TuneConfig| TuneConfig { concurrency: 1, cluster_command: String::new(), ..c.clone() };
        strip(self) == strip(other)
    }

    /// The openings, parsed.
    ///
    /// # Errors
    /// The opening source's error (checked when the file was read).
    pub fn opening_source(&self) -> Result<OpeningSource, TuneError> {
        self.openings.parse().map_err(|e| TuneError::Match(Box::new(e)))
    }

    /// The engine spec of the player with `values` (one per parameter, in order), named
    /// `name`: the spec text with `key=value` added, then the options.
    ///
    /// # Errors
    /// [`TuneError::Match`] when the spec does not take the values (checked for the bounds
    /// when the file was read).
    pub fn engine_with(&self, values: &[i64], name: &str) -> Result<EngineSpec, TuneError> {
        let pairs: Vec<(&str, i64)> =
            self.params.iter().map(|p| p.name.as_str()).zip(values.iter().copied()).collect();
        engine_text(&self.engine, &pairs, &self.options, name)
            .parse()
            .map_err(|e| TuneError::Match(Box::new(e)))
    }
}

/// `engine` with `key=value` added for each of `values`, then `;options;name=NAME`.
fn engine_text(engine: &str, values: &[(&str, i64)], options: &str, name: &str) -> String {
    let mut text = engine.trim().to_string();
    for (key, v) in values {
        text.push(if text.contains(':') { ',' } else { ':' });
        text.push_str(&format!("{key}={v}"));
    }
    if !options.trim().is_empty() {
        text.push(';');
        text.push_str(options.trim());
    }
    text.push_str(&format!(";name={name}"));
    text
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FileToml {
    engine: Spanned<String>,
    #[serde(default)]
    options: Option<Spanned<String>>,
    iterations: Spanned<u64>,
    #[serde(default)]
    pairs: Option<Spanned<u64>>,
    #[serde(default)]
    concurrency: Option<Spanned<usize>>,
    #[serde(default)]
    openings: Option<Spanned<String>>,
    #[serde(default)]
    seed: Option<u64>,
    #[serde(default)]
    alpha: Option<Spanned<f64>>,
    #[serde(default)]
    gamma: Option<Spanned<f64>>,
    #[serde(default)]
    a_ratio: Option<Spanned<f64>>,
    #[serde(default)]
    cluster_command: Option<String>,
    #[serde(default)]
    shards: Option<Spanned<u32>>,
    params: BTreeMap<String, Spanned<ParamToml>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParamToml {
    start: Spanned<f64>,
    min: Spanned<f64>,
    max: Spanned<f64>,
    c: Spanned<f64>,
    #[serde(default)]
    r: Option<Spanned<f64>>,
    #[serde(default)]
    a: Option<Spanned<f64>>,
}

/// The default openings of a tuning run: those of `fanorona eval`.
pub fn default_openings() -> String {
    fanorona_eval::openings::DEFAULT_OPENINGS.to_string()
}

/// Reads and checks a tuning file.
///
/// # Errors
/// [`TuneError::Config`] naming the file and the line: it cannot be read or is not TOML, a
/// key is unknown, a number is out of range, a parameter is not a number of the engine's spec,
/// its bounds exclude its start, its step or rate is not positive.
pub fn read_config(path: &Path) -> Result<TuneConfig, TuneError> {
    use std::io::Read;
    let file = path.display().to_string();
    let bad = |reason: String| TuneError::Config { file: file.clone(), line: None, reason };
    let f = std::fs::File::open(path).map_err(|e| bad(e.to_string()))?;
    let mut text = String::new();
    f.take(MAX_CONFIG_BYTES + 1).read_to_string(&mut text).map_err(|e| bad(e.to_string()))?;
    if text.len() as u64 > MAX_CONFIG_BYTES {
        return Err(bad(format!("larger than the {MAX_CONFIG_BYTES} bytes a tuning file may have")));
    }
    parse_config(&text, &file)
}

/// Reads a tuning file's text, named `file` in errors (see [`read_config`]).
///
/// # Errors
/// As [`read_config`].
pub fn parse_config(text: &str, file: &str) -> Result<TuneConfig, TuneError> {
    let at = |span: std::ops::Range<usize>, reason: String| TuneError::Config {
        file: file.into(),
        line: Some(line_of(text, span.start)),
        reason,
    };
    let raw: FileToml = toml::from_str(text).map_err(|e| TuneError::Config {
        file: file.into(),
        line: e.span().map(|s| line_of(text, s.start)),
        reason: e.message().to_string(),
    })?;
    let config = settings(&raw, &at)?;
    check_engine(&raw, &config, &at)?;
    Ok(config)
}

/// The line (from 1) of byte `offset` of `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

type At<'a> = dyn Fn(std::ops::Range<usize>, String) -> TuneError + 'a;

/// A number of the file within `lo..=hi`.
fn within<T: PartialOrd + Copy + std::fmt::Display>(
    v: &Spanned<T>,
    key: &str,
    lo: T,
    hi: T,
    at: &At<'_>,
) -> Result<T, TuneError> {
    let x = *v.get_ref();
    if !(lo..=hi).contains(&x) {
        return Err(at(v.span(), format!("{key} = {x} is outside {lo}..={hi}")));
    }
    Ok(x)
}

/// The run's settings and parameters, each checked on its own.
fn settings(raw: &FileToml, at: &At<'_>) -> Result<TuneConfig, TuneError> {
    let openings = raw.openings.as_ref().map_or_else(default_openings, |o| o.get_ref().clone());
    if let Some(o) = &raw.openings
        && let Err(e) = o.get_ref().parse::<OpeningSource>()
    {
        return Err(at(o.span(), e.to_string()));
    }
    let cluster_command = raw.cluster_command.clone().unwrap_or_default();
    let params = raw.params.iter().map(|(name, p)| param(name, p, at)).collect::<Result<Vec<_>, _>>()?;
    if params.is_empty() || params.len() > MAX_PARAMS {
        return Err(TuneError::Config {
            file: String::new(),
            line: None,
            reason: format!("{} parameters: a run tunes 1 to {MAX_PARAMS}", params.len()),
        });
    }
    Ok(TuneConfig {
        engine: raw.engine.get_ref().trim().to_string(),
        options: raw.options.as_ref().map(|o| o.get_ref().trim().to_string()).unwrap_or_default(),
        iterations: within(&raw.iterations, "iterations", 1, MAX_ITERATIONS, at)?,
        pairs: raw.pairs.as_ref().map_or(Ok(8), |p| within(p, "pairs", 1, MAX_PAIRS, at))?,
        concurrency: raw.concurrency.as_ref().map_or(Ok(1), |c| within(c, "concurrency", 1, 1024, at))?,
        openings,
        seed: raw.seed.unwrap_or(1),
        alpha: raw.alpha.as_ref().map_or(Ok(DEFAULT_ALPHA), |a| within(a, "alpha", 0.0, 2.0, at))?,
        gamma: raw.gamma.as_ref().map_or(Ok(DEFAULT_GAMMA), |g| within(g, "gamma", 0.0, 2.0, at))?,
        a_ratio: raw.a_ratio.as_ref().map_or(Ok(DEFAULT_A_RATIO), |a| within(a, "a_ratio", 0.0, 10.0, at))?,
        shards: raw.shards.as_ref().map_or(Ok(1), |s| within(s, "shards", 1, 10_000, at))?,
        cluster_command,
        params,
    })
}

/// One parameter: bounds that hold its start, a positive step and rate.
fn param(name: &str, p: &Spanned<ParamToml>, at: &At<'_>) -> Result<Param, TuneError> {
    let v = p.get_ref();
    let (start, min, max, c) = (*v.start.get_ref(), *v.min.get_ref(), *v.max.get_ref(), *v.c.get_ref());
    let finite = [&v.start, &v.min, &v.max, &v.c].into_iter().find(|x| !x.get_ref().is_finite());
    if let Some(x) = finite {
        return Err(at(x.span(), format!("parameter {name}: not a finite number")));
    }
    if min > max {
        return Err(at(v.min.span(), format!("parameter {name}: min = {min} is above max = {max}")));
    }
    if start < min || start > max {
        return Err(at(
            v.start.span(),
            format!("parameter {name}: start = {start} is outside its bounds {min}..={max}"),
        ));
    }
    if c <= 0.0 {
        return Err(at(v.c.span(), format!("parameter {name}: the step c = {c} must be above 0")));
    }
    let rate = match (&v.r, &v.a) {
        (Some(_), Some(a)) => return Err(at(a.span(), format!("parameter {name}: give r or a, not both"))),
        (Some(r), None) => positive_rate(name, r, "r", at).map(Rate::REnd)?,
        (None, Some(a)) => positive_rate(name, a, "a", at).map(Rate::A)?,
        (None, None) => Rate::REnd(DEFAULT_R_END),
    };
    Ok(Param { name: name.to_string(), start, min, max, c_end: c, rate })
}

fn positive_rate(name: &str, v: &Spanned<f64>, key: &str, at: &At<'_>) -> Result<f64, TuneError> {
    let x = *v.get_ref();
    if !(x.is_finite() && x > 0.0) {
        return Err(at(v.span(), format!("parameter {name}: the rate {key} = {x} must be above 0")));
    }
    Ok(x)
}

/// Checks that the engine is an alpha-beta player that takes every parameter at its start and
/// both bounds, and that the options parse.
fn check_engine(raw: &FileToml, config: &TuneConfig, at: &At<'_>) -> Result<(), TuneError> {
    let base = engine_text(&config.engine, &[], &config.options, "base");
    match base.parse::<EngineSpec>() {
        Ok(e) if matches!(e.kind, EngineKind::Player(fanorona_engine::PlayerSpec::AlphaBeta(_))) => {}
        Ok(_) => {
            return Err(at(
                raw.engine.span(),
                format!("engine {:?}: tuning needs an alphabeta player", config.engine),
            ));
        }
        Err(e) => {
            let span = raw
                .options
                .as_ref()
                .filter(|_| e.to_string().contains("option"))
                .map_or(raw.engine.span(), |o| o.span());
            return Err(at(span, e.to_string()));
        }
    }
    for p in &config.params {
        let span = raw.params.get(&p.name).map_or(0..0, |s| s.span());
        for value in [p.start, p.min, p.max] {
            let text =
                engine_text(&config.engine, &[(&p.name, value.round() as i64)], &config.options, "check");
            if let Err(e) = text.parse::<EngineSpec>() {
                return Err(at(span, format!("parameter {}: the engine does not take it: {e}", p.name)));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"engine = "alphabeta:eval=handcrafted"
options = "nodes=2000"
iterations = 20
pairs = 2
openings = "random:plies=4"

[params.lmr_base]
start = 100
min = 50
max = 200
c = 10

[params.threatened]
start = 30
min = 0
max = 80
c = 4
a = 3.5
"#;

    #[test]
    fn a_good_file_reads_with_the_defaults() {
        let c = parse_config(GOOD, "t.toml").unwrap();
        assert_eq!((c.iterations, c.pairs, c.concurrency, c.seed, c.shards), (20, 2, 1, 1, 1));
        assert_eq!((c.alpha, c.gamma, c.a_ratio), (DEFAULT_ALPHA, DEFAULT_GAMMA, DEFAULT_A_RATIO));
        assert_eq!(c.params.len(), 2);
        assert_eq!(c.params[0].name, "lmr_base");
        assert_eq!(c.params[0].rate, Rate::REnd(DEFAULT_R_END));
        assert_eq!(c.params[1].rate, Rate::A(3.5));
        let e = c.engine_with(&[120, 34], "plus").unwrap();
        assert_eq!(e.name, "plus");
        assert!(e.to_string().contains("lmr_base=120,threatened=34"), "{e}");
        assert!(c.same_run(&TuneConfig { concurrency: 2, ..c.clone() }));
        assert!(!c.same_run(&TuneConfig { seed: 2, ..c.clone() }));
    }

    fn error(text: &str) -> String {
        parse_config(text, "t.toml").unwrap_err().to_string()
    }

    #[test]
    fn bad_files_are_refused_naming_the_line() {
        let e = error(&GOOD.replace("start = 100", "start = 300"));
        assert_eq!(e, "t.toml: line 8: parameter lmr_base: start = 300 is outside its bounds 50..=200");
        let e = error(&GOOD.replace("c = 10", "c = 0"));
        assert_eq!(e, "t.toml: line 11: parameter lmr_base: the step c = 0 must be above 0");
        let e = error(&GOOD.replace("c = 10", "c = -2"));
        assert!(e.starts_with("t.toml: line 11: "), "{e}");
        let e = error(&GOOD.replace("a = 3.5", "a = 0"));
        assert!(e.starts_with("t.toml: line 18: parameter threatened: the rate a = 0"), "{e}");
        let e = error(&GOOD.replace("[params.lmr_base]", "[params.lmr_bse]"));
        assert!(e.starts_with("t.toml: line 7: parameter lmr_bse: the engine does not take it"), "{e}");
        // A weight of the handcrafted evaluation, with another evaluator.
        let e = error(&GOOD.replace("eval=handcrafted", "eval=material"));
        assert!(e.contains("parameter threatened: the engine does not take it"), "{e}");
        // The knob's own bounds: lmr_base cannot go to 500.
        let e = error(&GOOD.replace("max = 200", "max = 500"));
        assert!(e.contains("line 7: parameter lmr_base") && e.contains("0..=400"), "{e}");
        let e = error(&GOOD.replace("pairs = 2", "pairs = 2\ncolour = 3"));
        assert!(e.starts_with("t.toml: line 5: unknown field `colour`"), "{e}");
        let e = error(&GOOD.replace("c = 4", "c = 4\nstep = 2"));
        assert!(e.contains("unknown field `step`"), "{e}");
        let e = error(&GOOD.replace("iterations = 20", "iterations = 0"));
        assert_eq!(e, "t.toml: line 3: iterations = 0 is outside 1..=10000000");
        let e = error(&GOOD.replace("random:plies=4", "random:plies=99"));
        assert!(e.starts_with("t.toml: line 5: openings"), "{e}");
        let e = error(&GOOD.replace("alphabeta:eval=handcrafted", "greedy"));
        assert!(e.starts_with("t.toml: line 1: engine \"greedy\": tuning needs an alphabeta player"), "{e}");
        let e = error(&GOOD.replace("nodes=2000", "nodez=2000"));
        assert!(e.starts_with("t.toml: line 2: "), "{e}");
        let e = error(&GOOD.replace("min = 0", "min = 90"));
        assert!(e.contains("line 15: parameter threatened: min = 90 is above max = 80"), "{e}");
        let e = error(&GOOD.replace("a = 3.5", "a = 3.5\nr = 0.002"));
        assert!(e.contains("give r or a, not both"), "{e}");
        assert!(error("engine = 3").starts_with("t.toml: line 1: "));
    }
}
