//! The driver: generations of self-play, training and gating, then the final match and the
//! reports. Every stage ends by writing its `*.done.json` marker; a resumed run skips finished
//! stages and redoes (or, where the stage supports it, continues) the one in flight.

use std::path::{Path, PathBuf};
use std::time::Instant;

use fanorona_core::DrawRules;
use fanorona_eval::stats::SprtVerdict;
use fanorona_eval::{EngineSpec, MatchConfig, OpeningSource};
use fanorona_selfplay::{Exploration, SelfplayConfig};

use crate::files::{Layout, create_dir, read_json, write_atomic, write_json};
use crate::specs::{net_eval, player};
use crate::stages::{MatchDone, SelfplayDone, TrainDone};
use crate::{LoopConfig, LoopError, report};

/// What the loop tells its caller as it goes.
#[derive(Clone, Debug)]
pub enum Event {
    /// A stage starts (or is found finished, `done`).
    Stage {
        /// Generation (0 for the final match).
        generation: u32,
        /// Stage name: `selfplay`, `train`, `gate`, `final`.
        stage: &'static str,
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
    /// Its evaluator text (`handcrafted` or `net:PATH`).
    pub eval: String,
}

/// Everything the reports need.
#[derive(Clone, Debug)]
pub struct RunRecord {
    /// The configuration used.
    pub config: LoopConfig,
    /// The run directory.
    pub root: PathBuf,
    /// Per generation: self-play, training, gate.
    pub generations: Vec<(SelfplayDone, TrainDone, MatchDone)>,
    /// The best engine at the end.
    pub best: Best,
    /// The final match against the baseline, when played.
    pub final_match: Option<MatchDone>,
}

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
    write_atomic(&saved, config.to_toml().as_bytes())?;

    let mut best = Best { generation: 0, eval: config.baseline_eval.clone() };
    let mut generations = Vec::new();
    for g in 1..=config.generations {
        create_dir(&layout.generation(g))?;
        let sp = selfplay_stage(&config, &layout, g, &best, events)?;
        let tr = train_stage(&config, &layout, g, &best, events)?;
        let gate = gate_stage(&config, &layout, g, &best, events)?;
        if gate.promoted {
            best = Best { generation: g, eval: net_eval(&layout.candidate(g)) };
        }
        generations.push((sp, tr, gate));
    }
    let final_match = if best.generation > 0 && config.final_match.games > 0 {
        Some(final_stage(&config, &layout, &best, events)?)
    } else {
        None
    };
    let record = RunRecord { config, root: out.to_path_buf(), generations, best, final_match };
    report::write_all(&record)?;
    Ok(record)
}

/// A stage's result when its marker says it is finished; otherwise announces that it starts.
fn finished<T: serde::de::DeserializeOwned>(
    marker: &Path,
    generation: u32,
    stage: &'static str,
    events: &mut dyn FnMut(&Event),
) -> Result<Option<T>, LoopError> {
    let done = read_json::<T>(marker)?;
    events(&Event::Stage { generation, stage, done: done.is_some() });
    Ok(done)
}

fn rules(config: &LoopConfig) -> DrawRules {
    DrawRules { max_quiet_plies: config.selfplay.max_quiet_plies, max_plies: config.selfplay.max_plies }
}

/// A per-stage seed: the run's seed mixed with the generation and the stage.
/// Kept below 2^63: seeds are saved in TOML files, whose integers are signed.
pub(crate) fn stage_seed(config: &LoopConfig, g: u32, stage: u64) -> u64 {
    (config.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ ((u64::from(g) << 8) | stage)) >> 1
}

fn selfplay_stage(
    config: &LoopConfig,
    layout: &Layout,
    g: u32,
    best: &Best,
    events: &mut dyn FnMut(&Event),
) -> Result<SelfplayDone, LoopError> {
    let marker = layout.done(g, "selfplay");
    if let Some(done) = finished::<SelfplayDone>(&marker, g, "selfplay", events)? {
        return Ok(done);
    }
    let t0 = Instant::now();
    let spec = player(&config.selfplay.search, &best.eval).map_err(|e| LoopError::Config(e.to_string()))?;
    let sp = SelfplayConfig {
        games: config.selfplay.games_of(g),
        white: spec.clone(),
        black: spec.clone(),
        seed: stage_seed(config, g, 1),
        threads: config.threads,
        random_plies: config.selfplay.random_plies,
        explore_plies: config.selfplay.explore_plies,
        exploration: Exploration::Temperature(config.selfplay.temperature),
        rules: rules(config),
        ..SelfplayConfig::default()
    };
    let s = if config.selfplay.cluster_command.trim().is_empty() {
        let total = sp.games;
        let summary =
            fanorona_selfplay::generate(&sp, &layout.games(g), fanorona_selfplay::Start::Resume, &mut |p| {
                events(&Event::Progress {
                    done: p.done,
                    total,
                    message: format!("W {} D {} B {}", p.white_wins, p.draws, p.black_wins),
                });
            })
            .map_err(|source| LoopError::Selfplay { generation: g, source: Box::new(source) })?;
        summary.stats
    } else {
        crate::cluster::selfplay(config, &sp, &layout.generation(g), &layout.games(g))?
    };
    let done = SelfplayDone {
        player: spec.to_string(),
        games: s.games,
        positions: s.positions,
        distinct_positions: s.distinct_positions,
        white_wins: s.white_wins,
        draws: s.draws,
        black_wins: s.black_wins,
        seconds: t0.elapsed().as_secs_f64(),
    };
    write_json(&marker, &done)?;
    events(&Event::Finished {
        message: format!(
            "{} games, {} positions ({} distinct), W {} D {} B {}",
            done.games, done.positions, done.distinct_positions, done.white_wins, done.draws, done.black_wins
        ),
    });
    Ok(done)
}

fn train_stage(
    config: &LoopConfig,
    layout: &Layout,
    g: u32,
    best: &Best,
    events: &mut dyn FnMut(&Event),
) -> Result<TrainDone, LoopError> {
    let marker = layout.done(g, "train");
    if let Some(done) = finished::<TrainDone>(&marker, g, "train", events)? {
        return Ok(done);
    }
    let first = g.saturating_sub(config.train.window - 1).max(1);
    let files: Vec<PathBuf> = (first..=g).map(|k| layout.games(k)).collect();
    let warm = (config.train.warm_start && best.generation > 0).then(|| layout.candidate(best.generation));
    let done = crate::train::train(config, layout, g, &files, warm.as_deref(), events)?;
    write_json(&marker, &done)?;
    let last = done.epochs.last();
    events(&Event::Finished {
        message: format!(
            "{} epochs, val loss {:.4} (material baseline {}), val accuracy {:.1} %",
            done.epochs.len(),
            last.map_or(f64::NAN, |e| e.val_loss),
            done.material_val_loss.map_or("n/a".to_string(), |l| format!("{l:.4}")),
            last.map_or(f64::NAN, |e| 100.0 * e.val_accuracy),
        ),
    });
    Ok(done)
}

fn engine(search: &str, eval: &str, name: String) -> Result<EngineSpec, LoopError> {
    let spec = player(search, eval).map_err(|e| LoopError::Config(e.to_string()))?;
    let mut e: EngineSpec =
        spec.to_string().parse().map_err(|e: fanorona_eval::EvalError| LoopError::Config(e.to_string()))?;
    e.name = name;
    Ok(e)
}

fn eval_name(generation: u32, config: &LoopConfig) -> String {
    if generation == 0 {
        format!("gen-000 ({})", config.baseline_eval)
    } else {
        format!("gen-{generation:03}")
    }
}

#[allow(clippy::too_many_arguments)]
fn play_match(
    config: &LoopConfig,
    stage: &str,
    out: &Path,
    engines: [EngineSpec; 2],
    games: u64,
    opening_plies: u32,
    sprt: &str,
    seed: u64,
    events: &mut dyn FnMut(&Event),
) -> Result<fanorona_eval::MatchReport, LoopError> {
    let err = |source| LoopError::Match { stage: stage.to_string(), source: Box::new(source) };
    let mut m = MatchConfig::new(engines[0].clone(), engines[1].clone(), games);
    m.openings = OpeningSource::Random { plies: opening_plies, imbalance: 2 };
    m.seed = seed;
    m.rules = rules(config);
    m.concurrency = if config.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        config.threads
    };
    m.out = Some(out.to_path_buf());
    m.resume = out.join("state.json").exists();
    if !sprt.trim().is_empty() {
        m.sprt = Some(sprt.parse().map_err(|e| LoopError::Config(format!("gate.sprt {sprt:?}: {e}")))?);
    }
    let planned = m.games;
    fanorona_eval::run_match(&m, &mut |p| {
        let elo = p.elo.map_or(String::new(), |e| format!(", Elo {:+.0} +/- {:.0}", e.elo, e.error));
        events(&Event::Progress {
            done: p.games,
            total: planned,
            message: format!("W {} D {} L {}{elo}", p.wdl.wins, p.wdl.draws, p.wdl.losses),
        });
    })
    .map_err(err)
}

fn match_done(
    r: &fanorona_eval::MatchReport,
    engines: &[EngineSpec; 2],
    promoted: bool,
    t0: Instant,
) -> MatchDone {
    MatchDone {
        engine: engines[0].name.clone(),
        opponent: engines[1].name.clone(),
        wdl: r.wdl,
        pentanomial: r.pentanomial,
        score: r.wdl.score().unwrap_or(0.5),
        elo: r.elo.map(|e| (e.elo, e.error)).filter(|(e, err)| e.is_finite() && err.is_finite()),
        los: r.los,
        sprt: r.sprt.map(|s| {
            format!("{} (LLR {:.2}, bounds [{:.2}, {:.2}])", s.verdict, s.llr, s.bounds.0, s.bounds.1)
        }),
        summary: r.summary_text(),
        promoted,
        seconds: t0.elapsed().as_secs_f64(),
    }
}

fn gate_stage(
    config: &LoopConfig,
    layout: &Layout,
    g: u32,
    best: &Best,
    events: &mut dyn FnMut(&Event),
) -> Result<MatchDone, LoopError> {
    let marker = layout.done(g, "gate");
    if let Some(done) = finished::<MatchDone>(&marker, g, "gate", events)? {
        return Ok(done);
    }
    let t0 = Instant::now();
    let engines = [
        engine(&config.gate.search, &net_eval(&layout.candidate(g)), eval_name(g, config))?,
        engine(&config.gate.search, &best.eval, eval_name(best.generation, config))?,
    ];
    let dir = layout.gate_dir(g);
    create_dir(&dir)?;
    let r = play_match(
        config,
        &format!("generation {g}, gate"),
        &dir,
        engines.clone(),
        config.gate.games,
        config.gate.opening_plies,
        &config.gate.sprt,
        stage_seed(config, g, 3),
        events,
    )?;
    let h0 = r.sprt.is_some_and(|s| s.verdict == SprtVerdict::H0);
    let promoted = r.wdl.score().is_some_and(|s| s > config.gate.min_score) && !h0;
    let done = match_done(&r, &engines, promoted, t0);
    write_json(&marker, &done)?;
    events(&Event::Finished {
        message: format!(
            "{} vs {}: score {:.1} %{} -> {}",
            done.engine,
            done.opponent,
            100.0 * done.score,
            done.elo.map_or(String::new(), |(e, err)| format!(", Elo {e:+.1} +/- {err:.1}")),
            if promoted { "promoted" } else { "not promoted" }
        ),
    });
    Ok(done)
}

fn final_stage(
    config: &LoopConfig,
    layout: &Layout,
    best: &Best,
    events: &mut dyn FnMut(&Event),
) -> Result<MatchDone, LoopError> {
    let marker = layout.root.join("final.done.json");
    if let Some(done) = read_json::<MatchDone>(&marker)?
        && done.engine == eval_name(best.generation, config)
    {
        events(&Event::Stage { generation: 0, stage: "final", done: true });
        return Ok(done);
    }
    events(&Event::Stage { generation: 0, stage: "final", done: false });
    let t0 = Instant::now();
    let engines = [
        engine(&config.final_match.search, &best.eval, eval_name(best.generation, config))?,
        engine(&config.final_match.search, &config.baseline_eval, eval_name(0, config))?,
    ];
    let dir = layout.final_dir().join(format!("gen-{:03}", best.generation));
    create_dir(&dir)?;
    let r = play_match(
        config,
        "final match",
        &dir,
        engines.clone(),
        config.final_match.games,
        config.final_match.opening_plies,
        "",
        stage_seed(config, 0, 4),
        events,
    )?;
    let done = match_done(&r, &engines, false, t0);
    write_json(&marker, &done)?;
    events(&Event::Finished { message: done.summary.lines().next().unwrap_or_default().to_string() });
    Ok(done)
}
