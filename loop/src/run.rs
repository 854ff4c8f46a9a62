//! The driver: generations of self-play, training and gating, then the final match and the
//! reports. Every stage ends by writing its `*.done.json` marker; a resumed run skips finished
//! stages and redoes (or, where the stage supports it, continues) the one in flight.

use std::path::Path;

use crate::files::{Layout, create_dir, write_atomic};
use crate::records::{Best, Event, RunRecord};
use crate::specs::net_eval;
use crate::stage::{self, Context};
use crate::{LoopConfig, LoopError, report};

/// Runs (or, with `resume`, continues) the loop in `out`.
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
        let mut c = LoopConfig::from_file(&saved)?;
        // A resumed run keeps its saved configuration; only more generations may be asked for.
        c.generations = c.generations.max(config.generations);
        c
    } else {
        create_dir(out)?;
        config.clone()
    };
    write_atomic(&saved, config.to_toml()?.as_bytes())?;

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
    Ok(record)
}
