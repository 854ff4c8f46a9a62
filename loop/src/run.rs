//! The driver: generations of self-play, training and gating, then the final match and the
//! reports. Every stage ends by writing its `*.done.json` marker; a resumed run skips finished
//! stages and redoes (or, where the stage supports it, continues) the one in flight.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::files::{Layout, MARKER_VERSION, create_dir, read_marker, write_atomic, write_json};
use crate::records::{Best, Event, RunRecord};
use crate::specs::net_eval;
use crate::stage::{self, Context};
use crate::{LoopConfig, LoopError, report};

/// Runs (or, with `resume`, continues) the loop in `out`. A resumed run goes on with its
/// saved configuration: `config` must agree with it except in `generations`, which may raise
/// the run's count (pass the saved count to continue the run as it was).
///
/// # Errors
/// A bad configuration, a run directory that exists without `resume` (or holds another run),
/// and the first failure of any stage.
pub fn run(
    config: &LoopConfig,
    out: &Path,
    resume: bool,
    events: &mut dyn FnMut(&Event),
) -> Result<RunRecord, LoopError> {
    config.check()?;
    let layout = Layout { root: out.to_path_buf() };
    let saved = out.join("loop.toml");
    let config = if saved.exists() {
        if !resume {
            return Err(LoopError::RunDir {
                path: out.to_path_buf(),
                what: "it already holds a run: continue it with --resume, or choose another --out".into(),
            });
        }
        resumed_config(&LoopConfig::from_file(&saved)?, config, out)?
    } else {
        create_dir(out)?;
        config.clone()
    };
    let toml = config.to_toml()?;
    // Written only when it changes: a resume with the same settings leaves the run as it is.
    if std::fs::read_to_string(&saved).ok().as_deref() != Some(toml.as_str()) {
        write_atomic(&saved, toml.as_bytes())?;
    }

    let engines = config.engines()?;
    let ctx = Context {
        layout: &layout,
        seed: config.seed,
        threads: config.threads,
        rules: config.rules.draw_rules(),
        engines: &engines,
    };
    let mut best = Best { generation: 0, eval: engines.baseline.clone() };
    let mut generations = Vec::new();
    for g in 1..=config.generations {
        create_dir(&layout.generation(g))?;
        let sp = stage::selfplay(&ctx, &config.selfplay, g, &best, events)?;
        let tr = stage::train(&ctx, &config.train, g, &best, events)?;
        let gate = stage::gate(&ctx, &config.gate, g, &best, events)?;
        if gate.promoted {
            best = Best { generation: g, eval: net_eval(&layout.candidate(g)) };
        }
        generations.push((sp, tr, gate));
    }
    let final_match = if best.generation > 0 && config.final_match.games > 0 {
        Some(stage::final_match(&ctx, &config.final_match, &best, events)?)
    } else {
        None
    };
    let record = RunRecord { config, engines, root: out.to_path_buf(), generations, best, final_match };
    report::write_all(&record)?;
    let done = Finished { version: MARKER_VERSION, generations: record.config.generations };
    write_json(&layout.root.join(FINISHED), &done)?;
    Ok(record)
}

/// The marker of a finished run (its reports written): `loop.done.json`.
const FINISHED: &str = "loop.done.json";

/// What `loop.done.json` holds.
#[derive(Debug, Serialize, Deserialize)]
struct Finished {
    version: u32,
    /// The generations the finished run had.
    generations: u32,
}

/// The generations of the finished run in `out` (every stage done and the reports written),
/// `None` when it is not finished (or `out` holds no run).
///
/// # Errors
/// An unreadable marker.
pub fn finished(out: &Path) -> Result<Option<u32>, LoopError> {
    if !out.join("loop.toml").is_file() {
        return Ok(None);
    }
    Ok(read_marker::<Finished>(&out.join(FINISHED))?.map(|f| f.generations))
}

/// Replaces the saved configuration of the run in `out` by `config`, checked completely
/// first: the way to go on with a run stopped by a setting that cannot work (`fanorona loop
/// --resume --amend --config FIXED`). Stages already done are kept as they are; the stage in
/// flight and those after it run with the new settings. Returns the keys that changed.
///
/// # Errors
/// A bad configuration, a directory holding no run, fewer generations than the run has.
pub fn amend(out: &Path, config: &LoopConfig) -> Result<Vec<&'static str>, LoopError> {
    let saved = out.join("loop.toml");
    let refuse = |what: String| LoopError::RunDir { path: out.to_path_buf(), what };
    if !saved.is_file() {
        return Err(refuse("nothing to resume: it holds no run (no loop.toml)".into()));
    }
    config.check()?;
    // The saved configuration may be the one that fails its checks: then all of it is replaced.
    let changed = match LoopConfig::from_file(&saved) {
        Ok(old) if config.generations < old.generations => {
            return Err(refuse(format!(
                "the run has {} generations; an amended run may raise that count, not lower it to {}",
                old.generations, config.generations
            )));
        }
        Ok(old) => old.differences(config),
        Err(_) => vec!["the whole configuration (the saved one fails its checks)"],
    };
    write_atomic(&saved, config.to_toml()?.as_bytes())?;
    Ok(changed)
}

/// The configuration a resumed run goes on with: its saved one, with the generations of
/// `asked` (which may only raise them). Any other setting of `asked` that differs from the
/// saved one is refused, naming it: a run keeps its settings.
fn resumed_config(saved: &LoopConfig, asked: &LoopConfig, out: &Path) -> Result<LoopConfig, LoopError> {
    let refuse = |what: String| LoopError::RunDir { path: out.to_path_buf(), what };
    let differ = saved.differences(asked);
    if !differ.is_empty() {
        return Err(refuse(format!(
            "the configuration differs from the run's own loop.toml in {}: a resumed run keeps its settings \
             (only the generations may be raised)",
            differ.join(", ")
        )));
    }
    if asked.generations < saved.generations {
        return Err(refuse(format!(
            "the run has {} generations; a resume may raise that count, not lower it to {}",
            saved.generations, asked.generations
        )));
    }
    let mut c = saved.clone();
    c.generations = asked.generations;
    Ok(c)
}
