//! The training run: scan, baseline, epochs, validation, checkpoints, export, resume.

use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, sync_channel};
use std::time::Instant;

use burn::optim::decay::WeightDecayConfig;
use burn::optim::{AdamConfig, AdamWConfig, ModuleOptimizer};
use burn::prelude::*;
use fanorona_core::Rng;
use fanorona_data::rundir::{read_state, write_atomic, write_json};
use fanorona_nn::{Architecture, Network};
use fanorona_tb::Tablebase;
use serde::{Deserialize, Serialize};

use crate::baseline::{self, BaselineReport, MaterialStats};
use crate::config::OptimConfig;
use crate::data::{
    Batch, Item, Shuffler, Source, Split, VALIDATION_MEMORY, ValidationCollector, ValidationSet,
    expand_inputs, permutation,
};
use crate::metrics::{EpochMetrics, write_metrics};
use crate::model::{ValueNet, device_for};
use crate::paths::{rebase, relative_to};
use crate::schedule::learning_rate;
use crate::step::train_step;
use crate::{Optimizer, TrainConfig, TrainError};

/// Version of `state.json`.
const STATE_VERSION: u32 = 1;

/// How much data a run has.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DataSummary {
    /// Record files read.
    pub files: usize,
    /// Games in the training split.
    pub train_games: u64,
    /// Games in the validation split.
    pub val_games: u64,
    /// Training samples per epoch.
    pub train_samples: u64,
    /// Validation samples.
    pub val_samples: u64,
}

/// What a run reports as it goes.
#[derive(Debug)]
pub enum Progress<'a> {
    /// The data was counted.
    Scanned(&'a DataSummary),
    /// A setting that is allowed but probably not meant (a warm-up longer than the run).
    Warning(&'a str),
    /// The material baseline was fitted.
    Baseline(&'a BaselineReport),
    /// An epoch begins.
    EpochStart {
        /// Epoch number, from 1.
        epoch: u32,
        /// Epochs the run will have.
        epochs: u32,
        /// Steps this epoch will take.
        steps: u64,
    },
    /// One optimiser step was taken.
    Step {
        /// Epoch number, from 1.
        epoch: u32,
        /// Step within the epoch, from 1.
        step: u64,
        /// This batch's loss.
        loss: f32,
    },
    /// An epoch ended (its checkpoint is written).
    EpochEnd(&'a EpochMetrics),
}

/// The outcome of a run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrainReport {
    /// The run directory.
    pub out_dir: PathBuf,
    /// The architecture, as text (`stones:90-128-32-1`).
    pub arch: String,
    /// Trainable parameters.
    pub parameters: usize,
    /// The data.
    pub data: DataSummary,
    /// The material-only baseline on the same data.
    pub baseline: BaselineReport,
    /// Every epoch so far.
    pub epochs: Vec<EpochMetrics>,
    /// The epoch with the lowest validation loss (training loss without validation data).
    pub best_epoch: u32,
    /// Its validation loss.
    #[serde(with = "fanorona_data::rundir::nan_as_null")]
    pub best_val_loss: f64,
    /// The best network in the engine's format (`best.fnet`).
    pub best_net: PathBuf,
    /// The last epoch's network in the engine's format (`last.fnet`).
    pub last_net: PathBuf,
}

/// The state of a run after its last completed epoch (`state.json`). Its paths are saved
/// relative to the run directory ([`RunState::saved`]), and made usable again on loading
/// ([`RunState::rebased`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
struct RunState {
    version: u32,
    /// Epochs completed.
    epoch: u32,
    /// Optimiser steps taken.
    step: u64,
    files: Vec<PathBuf>,
    init_from: Option<PathBuf>,
    report: TrainReport,
}

impl RunState {
    /// This state with its paths relative to the run directory `dir`.
    fn saved(&self, dir: &Path) -> RunState {
        let mut s = self.clone();
        s.files = self.files.iter().map(|f| relative_to(f, dir)).collect();
        s.init_from = self.init_from.as_deref().map(|f| relative_to(f, dir));
        s.report.out_dir = PathBuf::from(".");
        s.report.best_net = relative_to(&self.report.best_net, dir);
        s.report.last_net = relative_to(&self.report.last_net, dir);
        s
    }

    /// A loaded state with its paths made usable from the working directory (`dir` is the run
    /// directory as given now).
    fn rebased(mut self, dir: &Path) -> RunState {
        self.files = self.files.iter().map(|f| rebase(f, dir)).collect();
        self.init_from = self.init_from.as_deref().map(|f| rebase(f, dir));
        self.report.out_dir = dir.to_path_buf();
        self.report.best_net = rebase(&self.report.best_net, dir);
        self.report.last_net = rebase(&self.report.last_net, dir);
        self
    }
}

/// Trains a value network on the record `files` (files or directories of them) into `out_dir`
/// (created; it must not hold a run already), starting from the weights of `init_from` (a
/// network file in the engine's format, or a `.bpk` checkpoint of the same architecture) or
/// from random weights drawn from the seed.
///
/// The run directory gets `config.toml`, `state.json`, `metrics.csv`, `metrics.json`,
/// `loss.png`, `checkpoints/epoch-NNNN.{bpk,optim.bpk,fnet}`, `best.{bpk,fnet}` and `last.fnet`.
///
/// # Errors
/// Bad configuration, unreadable or empty data, a run already in `out_dir`, a warm start of
/// another architecture, I/O failures, divergence; [`TrainError::Stopped`] when `progress`
/// returns `ControlFlow::Break` (the run keeps its last completed epoch and can be resumed).
pub fn train(
    config: &TrainConfig,
    files: &[PathBuf],
    out_dir: &Path,
    init_from: Option<&Path>,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> Result<TrainReport, TrainError> {
    config.validate()?;
    let files = expand_inputs(files)?;
    if files.is_empty() {
        return Err(TrainError::NoData("no record files given".into()));
    }
    // Endgame tables that cannot be opened are refused before the run directory is made.
    let tables = open_tables(config)?;
    if out_dir.join("state.json").exists() {
        return Err(TrainError::Config(format!(
            "{} already holds a training run (state.json); resume it or choose another directory",
            out_dir.display()
        )));
    }
    std::fs::create_dir_all(out_dir.join("checkpoints")).map_err(|e| TrainError::io(out_dir, e))?;
    write_atomic(&out_dir.join("config.toml"), config.to_toml().as_bytes())?;
    run(config, &files, out_dir, Start::Fresh(init_from.map(Path::to_path_buf)), tables, progress)
}

/// The endgame tables of `data.tablebase`, opened once for the whole run.
fn open_tables(config: &TrainConfig) -> Result<Option<Arc<Tablebase>>, TrainError> {
    Ok(match &config.data.tablebase {
        Some(dir) => Some(Arc::new(Tablebase::open(dir)?)),
        None => None,
    })
}

/// Continues the run in `out_dir` from its last completed epoch, with its saved configuration
/// and files. With the same data it ends exactly where an uninterrupted run would have.
/// A finished run is returned as it is.
///
/// # Errors
/// When `out_dir` holds no run or its files are damaged, and as [`train`].
pub fn resume(
    out_dir: &Path,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> Result<TrainReport, TrainError> {
    let resume_err = |message: String| TrainError::Resume { dir: out_dir.to_path_buf(), message };
    let config_path = out_dir.join("config.toml");
    if !config_path.is_file() {
        return Err(resume_err("no training run here (no config.toml)".into()));
    }
    let config = TrainConfig::load(Some(&config_path), &[])?;
    let state: RunState = read_state(&out_dir.join("state.json"), STATE_VERSION)?
        .ok_or_else(|| resume_err("no state.json: the run has no completed epoch; start it again".into()))?;
    let state = state.rebased(out_dir);
    let tables = open_tables(&config)?;
    remove_stale_temporaries(out_dir)?;
    let files = state.files.clone();
    run(&config, &files, out_dir, Start::Resume(Box::new(state)), tables, progress)
}

/// Removes what killed writes left in a run directory and its `checkpoints/`: the regular
/// files named as this tool's temporaries are, `NAME.part` (fanorona-io's atomic writes) and
/// `NAME.tmpPID` (network files). Nothing else is touched.
fn remove_stale_temporaries(out_dir: &Path) -> Result<(), TrainError> {
    for dir in [out_dir.to_path_buf(), out_dir.join("checkpoints")] {
        let entries = match std::fs::read_dir(&dir) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(TrainError::io(&dir, e)),
        };
        for entry in entries {
            let entry = entry.map_err(|e| TrainError::io(&dir, e))?;
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let is_file = entry.file_type().is_ok_and(|t| t.is_file());
            if is_file && is_temporary_name(name) {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(|e| TrainError::io(&path, e))?;
            }
        }
    }
    Ok(())
}

/// Whether `name` is one of the tool's temporary names: `X.part`, or `X.tmpN` with `N` a
/// process id (digits).
fn is_temporary_name(name: &str) -> bool {
    if let Some(stem) = name.strip_suffix(".part") {
        return !stem.is_empty();
    }
    match name.rsplit_once(".tmp") {
        Some((stem, pid)) => !stem.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()),
        None => false,
    }
}

enum Start {
    Fresh(Option<PathBuf>),
    Resume(Box<RunState>),
}

/// What the scan of the data found.
struct Scan {
    summary: DataSummary,
    /// The baseline's statistics of the training split.
    train: MaterialStats,
    /// The baseline's statistics of the validation split.
    val: MaterialStats,
    /// The validation samples for every epoch's validation.
    validation: ValidationSet,
}

/// Counts the data and gathers the baseline's statistics in one pass per split, keeping the
/// validation samples (within `collector`'s bound) so that the epochs do not read them again.
fn scan(source: &Source, mut collector: ValidationCollector) -> Result<Scan, TrainError> {
    let (train_games, train_samples, train) = count_split(source, Split::Train, &mut |_| ())?;
    let (val_games, val_samples, val) = count_split(source, Split::Validation, &mut |it| collector.push(it))?;
    let summary =
        DataSummary { files: source.file_count(), train_games, val_games, train_samples, val_samples };
    Ok(Scan { summary, train, val, validation: collector.finish() })
}

/// Games, samples and the baseline's statistics of one split, in file order; `keep` sees every
/// sample.
fn count_split(
    source: &Source,
    split: Split,
    keep: &mut dyn FnMut(Item),
) -> Result<(u64, u64, MaterialStats), TrainError> {
    let order: Vec<usize> = (0..source.file_count()).collect();
    let (mut n, mut stats) = (0u64, MaterialStats::default());
    let games = source.for_each(split, &order, &mut |it| {
        n += 1;
        stats.add(&it.pos, it.target, it.result);
        keep(it);
        true
    })?;
    Ok((games, n, stats))
}

/// The configured optimiser.
pub(crate) fn make_optimizer(config: &TrainConfig) -> ModuleOptimizer {
    let wd = config.optim.weight_decay as f32;
    match config.optim.optimizer {
        Optimizer::AdamW => AdamWConfig::new().with_weight_decay(wd).init(),
        Optimizer::Adam => {
            AdamConfig::new().with_weight_decay((wd > 0.0).then(|| WeightDecayConfig::new(wd))).init()
        }
    }
}

/// Loads a burn checkpoint of `arch` (a `.bpk` file written by a run).
///
/// # Errors
/// When the file cannot be read or does not fit the architecture.
pub fn load_checkpoint(path: &Path, arch: &Architecture, device: &Device) -> Result<ValueNet, TrainError> {
    if !path.is_file() {
        return Err(TrainError::Checkpoint { path: path.to_path_buf(), message: "no such file".into() });
    }
    let model = ValueNet::init(arch, 0, device)?;
    model
        .try_load_file(path)
        .map_err(|e| TrainError::Checkpoint { path: path.to_path_buf(), message: format!("{e:?}") })
}

/// The warm-start model: a network file of the engine's format or a burn checkpoint.
fn warm_start(path: &Path, arch: &Architecture, device: &Device) -> Result<ValueNet, TrainError> {
    if path.extension().is_some_and(|e| e == "bpk") {
        return load_checkpoint(path, arch, device);
    }
    let net = Network::read_file(path)?;
    if net.arch() != arch {
        return Err(TrainError::Config(format!(
            "warm start {} is {}, but the configuration asks for {arch}",
            path.display(),
            net.arch()
        )));
    }
    Ok(ValueNet::from_network(&net, device))
}

fn run(
    config: &TrainConfig,
    files: &[PathBuf],
    out_dir: &Path,
    start: Start,
    tables: Option<Arc<Tablebase>>,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> Result<TrainReport, TrainError> {
    let arch = config.architecture()?;
    let source = Arc::new(Source::new(files, config, tables));
    let (summary, baseline, validation) = scan_and_fit(&source, progress)?;
    let plan = Plan::new(config, &summary, progress)?;
    let device = device_for(config.backend)?;
    let train_dev = device.clone().autodiff();
    let ckpt = Checkpoints { out_dir };
    let (mut model, mut optim, mut state) = match start {
        Start::Fresh(init) => {
            let model = match &init {
                Some(p) => warm_start(p, &arch, &train_dev)?,
                None => ValueNet::init(&arch, config.seed, &train_dev)?,
            };
            let state = fresh_state(&arch, files, out_dir, init, summary, baseline);
            (model, make_optimizer(config), state)
        }
        Start::Resume(state) => {
            let (model, optim) = resumed(config, &arch, &ckpt, &state, &summary, &train_dev)?;
            // A kill between `state.json` and the metrics leaves the last recorded epoch
            // without its row and chart: write them from the state (they are its function).
            write_metrics(out_dir, &state.report.epochs, Some(&state.report.baseline))?;
            (model, optim, *state)
        }
    };

    for epoch in state.epoch + 1..=plan.epochs {
        let epoch_start = Instant::now();
        let steps = plan.steps_per_epoch.min(plan.total_steps - state.step);
        report_progress(progress, &Progress::EpochStart { epoch, epochs: plan.epochs, steps })?;
        let (rx, loader) = spawn_loader(&source, config, epoch);
        let trained;
        (model, trained) =
            train_epoch(model, &mut optim, &rx, &plan, &train_dev, epoch, steps, &mut state.step, progress)?;
        drop(rx);
        // A loader that panicked has sent its last batch: say so rather than train on a part.
        loader.join().map_err(|_| TrainError::Backend("the data loader thread panicked".into()))?;

        let (val_loss, val_accuracy) = validate(&model.valid(), &source, &validation, plan.batch, &device)?;
        let seen = trained.seen;
        let metrics = EpochMetrics {
            epoch,
            step: state.step,
            samples: seen,
            train_loss: if seen > 0 { trained.loss_sum / seen as f64 } else { f64::NAN },
            val_loss,
            val_accuracy,
            samples_per_second: seen as f64 / trained.seconds.max(1e-9),
            lr: trained.lr,
            seconds: epoch_start.elapsed().as_secs_f64(),
        };
        save_epoch(config, &arch, &ckpt, &model, &optim, &mut state, metrics)?;
        if let Some(m) = state.report.epochs.last() {
            report_progress(progress, &Progress::EpochEnd(m))?;
        }
    }
    Ok(state.report)
}

/// Counts the data and fits the material baseline, reporting both (and a validation split
/// too large to keep in memory).
fn scan_and_fit(
    source: &Source,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> Result<(DataSummary, BaselineReport, ValidationSet), TrainError> {
    let Scan { summary, train: train_stats, val: val_stats, validation } =
        scan(source, ValidationCollector::new())?;
    if summary.train_samples == 0 {
        return Err(TrainError::NoData(format!(
            "the {} file(s) have no training positions ({} games)",
            summary.files, summary.train_games
        )));
    }
    report_progress(progress, &Progress::Scanned(&summary))?;
    if !validation.in_memory() {
        let text = format!(
            "the validation split ({} samples) is larger than the {} MiB kept in memory: every epoch reads it again from the files",
            summary.val_samples,
            VALIDATION_MEMORY >> 20
        );
        report_progress(progress, &Progress::Warning(&text))?;
    }
    let baseline = baseline::fit(&train_stats, &val_stats);
    report_progress(progress, &Progress::Baseline(&baseline))?;
    Ok((summary, baseline, validation))
}

/// The run's length in steps and epochs.
struct Plan<'a> {
    optim: &'a OptimConfig,
    batch: usize,
    steps_per_epoch: u64,
    total_steps: u64,
    epochs: u32,
}

impl<'a> Plan<'a> {
    /// The plan of `config` over `summary`'s data; warns of a warm-up longer than the run.
    fn new(
        config: &'a TrainConfig,
        summary: &DataSummary,
        progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
    ) -> Result<Plan<'a>, TrainError> {
        let o = &config.optim;
        let batch = o.batch_size;
        let steps_per_epoch = summary.train_samples.div_ceil(batch as u64);
        let mut total_steps = steps_per_epoch * u64::from(o.epochs);
        if o.max_steps > 0 {
            total_steps = total_steps.min(o.max_steps);
        }
        let epochs = total_steps.div_ceil(steps_per_epoch) as u32;
        if o.warmup_steps >= total_steps {
            let text = format!(
                "warmup_steps {} is not shorter than the run's {total_steps} steps: the learning rate stays in warm-up to the end",
                o.warmup_steps
            );
            report_progress(progress, &Progress::Warning(&text))?;
        }
        Ok(Plan { optim: o, batch, steps_per_epoch, total_steps, epochs })
    }
}

/// The checkpoint files of a run directory.
struct Checkpoints<'a> {
    out_dir: &'a Path,
}

impl Checkpoints<'_> {
    /// `checkpoints/epoch-NNNN.EXT`.
    fn path(&self, epoch: u32, ext: &str) -> PathBuf {
        self.out_dir.join("checkpoints").join(format!("epoch-{epoch:04}.{ext}"))
    }
}

/// The state of a run before its first epoch.
fn fresh_state(
    arch: &Architecture,
    files: &[PathBuf],
    out_dir: &Path,
    init_from: Option<PathBuf>,
    data: DataSummary,
    baseline: BaselineReport,
) -> RunState {
    let report = TrainReport {
        out_dir: out_dir.to_path_buf(),
        arch: arch.to_string(),
        parameters: arch.parameter_count(),
        data,
        baseline,
        epochs: Vec::new(),
        best_epoch: 0,
        best_val_loss: f64::NAN,
        best_net: out_dir.join("best.fnet"),
        last_net: out_dir.join("last.fnet"),
    };
    RunState { version: STATE_VERSION, epoch: 0, step: 0, files: files.to_vec(), init_from, report }
}

/// The model and optimiser of a resumed run, from its last checkpoint; the data must be what
/// it was.
fn resumed(
    config: &TrainConfig,
    arch: &Architecture,
    ckpt: &Checkpoints<'_>,
    state: &RunState,
    summary: &DataSummary,
    device: &Device,
) -> Result<(ValueNet, ModuleOptimizer), TrainError> {
    if state.report.data != *summary {
        return Err(TrainError::Resume {
            dir: ckpt.out_dir.to_path_buf(),
            message: format!(
                "the data changed since the run started: {:?} then, {:?} now",
                state.report.data, summary
            ),
        });
    }
    let model = load_checkpoint(&ckpt.path(state.epoch, "bpk"), arch, device)?;
    let optim_path = ckpt.path(state.epoch, "optim.bpk");
    let optim = make_optimizer(config)
        .load(&optim_path)
        .map_err(|e| TrainError::Checkpoint { path: optim_path.clone(), message: format!("{e:?}") })?;
    Ok((model, optim))
}

/// Batches of one epoch, and the loader thread that streams them (shuffled, encoded) from
/// the training split.
type Loader = (Receiver<Result<Batch, TrainError>>, std::thread::JoinHandle<()>);

fn spawn_loader(source: &Arc<Source>, config: &TrainConfig, epoch: u32) -> Loader {
    let (tx, rx) = sync_channel::<Result<Batch, TrainError>>(8);
    let src = Arc::clone(source);
    let mut rng = Rng::derive(config.seed, u64::from(epoch));
    let (capacity, mirror, batch) = (config.data.shuffle_buffer, config.data.mirror, config.optim.batch_size);
    let encoding = config.architecture().map_or(Default::default(), |a| a.encoding);
    let loader = std::thread::spawn(move || {
        let order = permutation(src.file_count(), &mut rng);
        let err_tx = tx.clone();
        let mut emit = |b: Batch| tx.send(Ok(b)).is_ok();
        let mut shuffler = Shuffler::new(rng, capacity, (mirror, encoding), batch, &mut emit);
        match src.for_each(Split::Train, &order, &mut |it| shuffler.push(it)) {
            Ok(_) => shuffler.finish(),
            Err(e) => {
                let _ = err_tx.send(Err(e));
            }
        }
    });
    (rx, loader)
}

/// What an epoch's optimisation measured.
struct Trained {
    loss_sum: f64,
    seen: u64,
    lr: f64,
    seconds: f64,
}

/// Takes the epoch's `steps` optimiser steps on the batches of `rx`.
#[allow(clippy::too_many_arguments)]
fn train_epoch(
    mut model: ValueNet,
    optim: &mut ModuleOptimizer,
    rx: &Receiver<Result<Batch, TrainError>>,
    plan: &Plan<'_>,
    device: &Device,
    epoch: u32,
    steps: u64,
    step: &mut u64,
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
) -> Result<(ValueNet, Trained), TrainError> {
    let (mut loss_sum, mut seen, mut step_in_epoch) = (0.0f64, 0u64, 0u64);
    let mut lr = learning_rate(plan.optim, *step, plan.total_steps);
    let start = Instant::now();
    for msg in rx.iter() {
        if step_in_epoch >= steps {
            break;
        }
        let b = msg?;
        let n = b.len();
        lr = learning_rate(plan.optim, *step, plan.total_steps);
        let l;
        (model, l) = train_step(model, optim, lr, b.x, b.y, device);
        *step += 1;
        step_in_epoch += 1;
        if !l.is_finite() {
            return Err(TrainError::Diverged { epoch, step: *step, loss: l });
        }
        loss_sum += f64::from(l) * n as f64;
        seen += n as u64;
        report_progress(progress, &Progress::Step { epoch, step: step_in_epoch, loss: l })?;
    }
    Ok((model, Trained { loss_sum, seen, lr, seconds: start.elapsed().as_secs_f64() }))
}

/// Checkpoints the epoch: burn model and optimiser, the engine network (`last.fnet`, and
/// `best.*` when it is the best so far), then the state that points at them (written last, so
/// a kill in between resumes from the previous epoch) and the metrics.
fn save_epoch(
    config: &TrainConfig,
    arch: &Architecture,
    ckpt: &Checkpoints<'_>,
    model: &ValueNet,
    optim: &ModuleOptimizer,
    state: &mut RunState,
    metrics: EpochMetrics,
) -> Result<(), TrainError> {
    let (epoch, out_dir) = (metrics.epoch, ckpt.out_dir);
    let net = model.valid().to_network(
        arch,
        &format!(
            "fanorona-train: epoch {epoch}, step {}, {arch}, target {:?}, val loss {:.5}",
            state.step, config.data.target, metrics.val_loss
        ),
    )?;
    let bpk = ckpt.path(epoch, "bpk");
    model
        .clone()
        .save_file(&bpk)
        .map_err(|e| TrainError::Checkpoint { path: bpk.clone(), message: format!("{e:?}") })?;
    let optim_path = ckpt.path(epoch, "optim.bpk");
    optim
        .save(&optim_path)
        .map_err(|e| TrainError::Checkpoint { path: optim_path.clone(), message: format!("{e:?}") })?;
    net.write_file(&ckpt.path(epoch, "fnet"))?;
    net.write_file(&out_dir.join("last.fnet"))?;
    let key = |m: &EpochMetrics| if m.val_loss.is_finite() { m.val_loss } else { m.train_loss };
    if state.report.epochs.iter().all(|m| key(&metrics) < key(m)) {
        net.write_file(&out_dir.join("best.fnet"))?;
        let best_bpk = out_dir.join("best.bpk");
        std::fs::copy(&bpk, &best_bpk).map_err(|e| TrainError::io(&best_bpk, e))?;
        state.report.best_epoch = epoch;
        state.report.best_val_loss = metrics.val_loss;
    }
    state.report.epochs.push(metrics);
    state.epoch = epoch;
    write_json(&out_dir.join("state.json"), &state.saved(out_dir))?;
    write_metrics(out_dir, &state.report.epochs, Some(&state.report.baseline))
}

/// Passes `p` to the caller's callback; [`TrainError::Stopped`] when it says to stop.
fn report_progress(
    progress: &mut dyn FnMut(&Progress) -> ControlFlow<()>,
    p: &Progress,
) -> Result<(), TrainError> {
    match progress(p) {
        ControlFlow::Continue(()) => Ok(()),
        ControlFlow::Break(()) => Err(TrainError::Stopped),
    }
}

/// Validation loss and winner accuracy of `model` (no autodiff) on the validation split.
fn validate(
    model: &ValueNet,
    source: &Source,
    validation: &ValidationSet,
    batch: usize,
    device: &Device,
) -> Result<(f64, f64), TrainError> {
    let (mut sse, mut n, mut right, mut decisive) = (0.0f64, 0u64, 0u64, 0u64);
    let mut pending = Batch::with_capacity(model.encoding(), batch);
    let mut flush = |b: &mut Batch| -> Result<(), TrainError> {
        let k = b.len();
        if k == 0 {
            return Ok(());
        }
        let x = Tensor::<2>::from_data(TensorData::new(std::mem::take(&mut b.x), [k, b.width()]), device);
        let pred: Vec<f32> = model
            .forward(x)
            .into_data()
            .try_to_vec()
            .map_err(|e| TrainError::Backend(format!("reading the validation predictions: {e:?}")))?;
        if pred.len() != k {
            return Err(TrainError::Backend(format!("{} predictions for a batch of {k}", pred.len())));
        }
        for ((p, y), r) in pred.iter().zip(&b.y).zip(&b.result) {
            let d = f64::from(p - y);
            sse += d * d;
            n += 1;
            if *r != 0.0 {
                decisive += 1;
                if p * r > 0.0 {
                    right += 1;
                }
            }
        }
        b.y.clear();
        b.result.clear();
        Ok(())
    };
    let mut failed = None;
    validation.for_each(source, &mut |it| {
        pending.push(&it.pos, it.target, it.result);
        if pending.len() == batch
            && let Err(e) = flush(&mut pending)
        {
            failed = Some(e);
            return false;
        }
        true
    })?;
    if let Some(e) = failed {
        return Err(e);
    }
    flush(&mut pending)?;
    let loss = if n > 0 { sse / n as f64 } else { f64::NAN };
    let acc = if decisive > 0 { right as f64 / decisive as f64 } else { f64::NAN };
    Ok((loss, acc))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// (loss, accuracy) as bits, so that equal NaNs compare equal.
    fn bits((loss, acc): (f64, f64)) -> (u64, u64) {
        (loss.to_bits(), acc.to_bits())
    }

    #[test]
    fn only_the_tools_temporaries_are_stale() {
        for name in ["metrics.csv.part", "last.fnet.tmp123", "epoch-0002.fnet.tmp9"] {
            assert!(is_temporary_name(name), "{name}");
        }
        for name in [".part", ".tmp12", "games.tmp", "x.tmp12a", "notes.txt", "a.partial", "best.fnet"] {
            assert!(!is_temporary_name(name), "{name}");
        }
        let dir = tempfile::tempdir().unwrap();
        let ckpt = dir.path().join("checkpoints");
        std::fs::create_dir(&ckpt).unwrap();
        for f in ["state.json", "loss.png.part", "last.fnet.tmp4242", "notes.tmp"] {
            std::fs::write(dir.path().join(f), b"x").unwrap();
        }
        std::fs::write(ckpt.join("epoch-0001.fnet.tmp7"), b"x").unwrap();
        std::fs::write(ckpt.join("epoch-0001.fnet"), b"x").unwrap();
        std::fs::create_dir(dir.path().join("sub.part")).unwrap();
        remove_stale_temporaries(dir.path()).unwrap();
        let mut left: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .chain(std::fs::read_dir(&ckpt).unwrap())
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, ["checkpoints", "epoch-0001.fnet", "notes.tmp", "state.json", "sub.part"]);
    }

    #[test]
    fn the_epochs_validation_reads_no_file_again() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("g.bin");
        crate::write_synthetic_games(&file, 30, 3).unwrap();
        let mut config = TrainConfig::default();
        config.model.hidden = vec![8];
        config.data.val_fraction = 0.3;
        let device = device_for(config.backend).unwrap();
        let model = ValueNet::init(&config.architecture().unwrap(), 1, &device).unwrap();

        let source = Source::new(std::slice::from_ref(&file), &config, None);
        let scanned = scan(&source, ValidationCollector::new()).unwrap();
        assert!(scanned.summary.val_samples > 0);
        assert!(scanned.validation.in_memory());
        assert_eq!(source.passes(), 2, "the scan reads each split once");
        let first = validate(&model, &source, &scanned.validation, 64, &device).unwrap();
        assert!(first.0.is_finite());
        for _ in 0..3 {
            assert_eq!(
                bits(validate(&model, &source, &scanned.validation, 64, &device).unwrap()),
                bits(first)
            );
        }
        assert_eq!(source.passes(), 2, "an epoch's validation read the files again");

        // Over the memory bound, every validation reads the split from the files: same losses.
        let source = Source::new(std::slice::from_ref(&file), &config, None);
        let scanned = scan(&source, ValidationCollector::with_limit(3)).unwrap();
        assert!(!scanned.validation.in_memory());
        for _ in 0..2 {
            assert_eq!(
                bits(validate(&model, &source, &scanned.validation, 64, &device).unwrap()),
                bits(first)
            );
        }
        assert_eq!(source.passes(), 4);
    }
}
