//! `fanorona train`: train the value network on record files (burn; the default `train`
//! feature).

use std::io::{IsTerminal, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

use anyhow::Context;
use fanorona_train::{Progress, TrainConfig, TrainReport};
use indicatif::{ProgressBar, ProgressStyle};

use crate::exit::bad_input;

/// Train a value network on self-play record files, exported in the engine's network format
/// (use it with `eval=net:OUT/best.fnet` in any engine spec).
///
/// The run directory gets config.toml, checkpoints/ (each epoch: burn model, optimiser state,
/// engine network), best.fnet, last.fnet, metrics.csv, metrics.json and loss.png. A killed run
/// continues with `--resume --out DIR` and ends where an uninterrupted one would.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Record files, or directories of them.
    files: Vec<PathBuf>,
    /// Run directory (checkpoints, metrics, exported networks).
    #[arg(long, short)]
    out: Option<PathBuf>,
    /// TOML configuration file (see the README for every key).
    #[arg(long, short)]
    config: Option<PathBuf>,
    /// Override a configuration key, e.g. `--set optim.lr=0.002` (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    set: Vec<String>,
    /// Passes over the data (optim.epochs).
    #[arg(long)]
    epochs: Option<u32>,
    /// Stop after this many steps in all (optim.max_steps).
    #[arg(long)]
    max_steps: Option<u64>,
    /// Samples per step (optim.batch_size).
    #[arg(long)]
    batch_size: Option<usize>,
    /// Peak learning rate (optim.lr).
    #[arg(long)]
    lr: Option<f64>,
    /// Seed of the weights and the data order (seed).
    #[arg(long)]
    seed: Option<u64>,
    /// Hidden layer sizes, comma-separated (model.hidden), e.g. `128,32`.
    #[arg(long)]
    hidden: Option<String>,
    /// Output buckets by stone count, 1 to 8 (model.buckets).
    #[arg(long)]
    buckets: Option<usize>,
    /// Input encoding: threats (stones and capture threats, 180 inputs; the default) or stones
    /// (90 inputs)
    /// (model.encoding).
    #[arg(long)]
    encoding: Option<String>,
    /// Target: result, score or blend (data.target).
    #[arg(long)]
    target: Option<String>,
    /// Start from this network (engine `.fnet` file or `.bpk` checkpoint of the same
    /// architecture).
    #[arg(long)]
    init_from: Option<PathBuf>,
    /// Continue the run in --out from its last completed epoch.
    #[arg(long)]
    resume: bool,
    /// Measure training throughput (samples/s) of the configured model on synthetic batches
    /// for this many steps, then exit; needs no data.
    #[arg(long, value_name = "STEPS")]
    bench: Option<u64>,
    /// Print the report as one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress output.
    #[arg(long, short)]
    quiet: bool,
}

fn config(args: &Args) -> anyhow::Result<TrainConfig> {
    let mut overrides = args.set.clone();
    let mut add = |k: &str, v: Option<String>| {
        if let Some(v) = v {
            overrides.push(format!("{k}={v}"));
        }
    };
    add("optim.epochs", args.epochs.map(|v| v.to_string()));
    add("optim.max_steps", args.max_steps.map(|v| v.to_string()));
    add("optim.batch_size", args.batch_size.map(|v| v.to_string()));
    add("optim.lr", args.lr.map(|v| format!("{v:e}")));
    add("seed", args.seed.map(|v| v.to_string()));
    add("model.hidden", args.hidden.as_ref().map(|h| format!("[{h}]")));
    add("model.buckets", args.buckets.map(|v| v.to_string()));
    add("model.encoding", args.encoding.as_ref().map(|e| format!("\"{e}\"")));
    add("data.target", args.target.as_ref().map(|t| format!("\"{t}\"")));
    TrainConfig::load(args.config.as_deref(), &overrides).map_err(|e| bad_input("configuration", e))
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    if let Some(steps) = args.bench {
        return bench(args, steps);
    }
    let Some(out) = args.out.as_deref() else {
        return Err(bad_input("--out", "the run directory is required"));
    };
    let mut shown = Shown::new(args);
    let mut on_progress = |p: &Progress| {
        shown.show(p);
        ControlFlow::Continue(())
    };
    let result = if args.resume {
        if let Some(flag) = resume_conflict(args) {
            return Err(bad_input(
                flag,
                "--resume continues the run with its saved configuration and data; to train further, \
                 start a new run from its network (--init-from DIR/best.fnet)",
            ));
        }
        fanorona_train::resume(out, &mut on_progress)
    } else {
        if args.files.is_empty() {
            return Err(bad_input("files", "give record files or directories to train on"));
        }
        let config = config(args)?;
        fanorona_train::train(&config, &args.files, out, args.init_from.as_deref(), &mut on_progress)
    };
    let report = result.context("train")?;
    print_report(&report, args.json)
}

/// `--bench STEPS`: the training throughput on synthetic batches.
fn bench(args: &Args, steps: u64) -> anyhow::Result<()> {
    let config = config(args)?;
    let t = fanorona_train::measure_throughput(&config, steps.max(1))?;
    if args.json {
        println!("{}", serde_json::to_string(&t)?);
    } else {
        println!(
            "training throughput: {:.0} samples/s ({} backend, {}, batch {}, {} steps)",
            t.samples_per_second, t.backend, t.arch, t.batch_size, t.steps
        );
    }
    Ok(())
}

/// How a run's progress is shown: a bar per epoch on a terminal, a line per epoch otherwise,
/// nothing but warnings with `--quiet` (and no epoch lines with `--json`).
struct Shown {
    quiet: bool,
    tty: bool,
    lines: bool,
    bar: Option<ProgressBar>,
}

impl Shown {
    fn new(args: &Args) -> Shown {
        let tty = std::io::stderr().is_terminal() && !args.quiet;
        Shown { quiet: args.quiet, tty, lines: !tty && !args.quiet && !args.json, bar: None }
    }

    fn show(&mut self, p: &Progress) {
        match p {
            Progress::Scanned(d) if !self.quiet => eprintln!(
                "data: {}, {} training games ({} positions), {} validation games ({} positions)",
                super::plural(d.files, "file", "files"),
                d.train_games,
                d.train_samples,
                d.val_games,
                d.val_samples
            ),
            Progress::Warning(w) => eprintln!("warning: {w}"),
            Progress::Baseline(b) if !self.quiet => eprintln!(
                "material baseline tanh({:.4} x material): train loss {:.5}, validation loss {:.5}, accuracy {:.3}",
                b.k, b.train_loss, b.val_loss, b.val_accuracy
            ),
            Progress::EpochStart { epoch, epochs, steps } if self.tty => {
                let pb = ProgressBar::new(*steps);
                let style = ProgressStyle::with_template(
                    "{prefix} [{bar:30}] {pos}/{len} steps {rate} {msg} eta {eta}",
                )
                .map(super::with_rate)
                .unwrap_or_else(|_| ProgressStyle::default_bar())
                .progress_chars("=> ");
                pb.set_style(style);
                pb.set_prefix(format!("epoch {epoch}/{epochs}"));
                self.bar = Some(pb);
            }
            Progress::Step { step, loss, .. } => {
                if let Some(pb) = &self.bar {
                    pb.set_position(*step);
                    if step % 16 == 0 {
                        pb.set_message(format!("loss {loss:.4}"));
                    }
                }
            }
            Progress::EpochEnd(m) => {
                if let Some(pb) = self.bar.take() {
                    pb.finish_and_clear();
                }
                if self.tty || self.lines {
                    eprintln!(
                        "epoch {:>3}: train loss {:.5}  val loss {:.5}  val accuracy {:.3}  {:.0} samples/s  lr {:.2e}  {:.1}s",
                        m.epoch,
                        m.train_loss,
                        m.val_loss,
                        m.val_accuracy,
                        m.samples_per_second,
                        m.lr,
                        m.seconds
                    );
                }
            }
            _ => {}
        }
    }
}

/// The first argument given with `--resume` that would change the run (and so is refused
/// rather than ignored).
fn resume_conflict(a: &Args) -> Option<&'static str> {
    [
        (!a.files.is_empty(), "files"),
        (a.config.is_some(), "--config"),
        (!a.set.is_empty(), "--set"),
        (a.epochs.is_some(), "--epochs"),
        (a.max_steps.is_some(), "--max-steps"),
        (a.batch_size.is_some(), "--batch-size"),
        (a.lr.is_some(), "--lr"),
        (a.seed.is_some(), "--seed"),
        (a.hidden.is_some(), "--hidden"),
        (a.buckets.is_some(), "--buckets"),
        (a.encoding.is_some(), "--encoding"),
        (a.target.is_some(), "--target"),
        (a.init_from.is_some(), "--init-from"),
    ]
    .into_iter()
    .find_map(|(given, flag)| given.then_some(flag))
}

fn print_report(r: &TrainReport, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string(r)?)?;
        return Ok(());
    }
    let last = r.epochs.last();
    writeln!(out, "network {} ({} parameters), {} epochs", r.arch, r.parameters, r.epochs.len())?;
    writeln!(
        out,
        "best epoch {}: validation loss {:.5} (material baseline {:.5}, k = {:.4})",
        r.best_epoch, r.best_val_loss, r.baseline.val_loss, r.baseline.k
    )?;
    if let Some(m) = last {
        writeln!(
            out,
            "last epoch: train loss {:.5}, validation accuracy {:.3} (baseline {:.3}), {:.0} samples/s",
            m.train_loss, m.val_accuracy, r.baseline.val_accuracy, m.samples_per_second
        )?;
    }
    writeln!(out, "best network: {}", r.best_net.display())?;
    writeln!(out, "metrics: {}", r.out_dir.join("metrics.csv").display())?;
    Ok(())
}
