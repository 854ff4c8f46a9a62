//! `cargo bench` (at the workspace root): every headline figure of the README in one run.
//!
//! perft 7 of the start position (asserting the count), search speed with material (and the
//! `Bench:` signature), handcrafted and network evaluation (and their ratio), self-play games
//! per second, records and samples read per second, training samples per second.
//!
//! ```sh
//! cargo bench                                              # text
//! cargo bench -- --json > before.json                      # one JSON object
//! cargo bench -- --compare before.json                     # text, each figure as a ratio to before.json
//! ```
//!
//! Every figure is a rate (higher is better) except `perft7_seconds`; `--compare` prints
//! new/old for rates and old/new for times, so above 1 is always faster. docs/BENCHMARKS.md
//! says how to compare two commits fairly on a loaded machine.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context;
use fanorona_core::{Position, perft};
use fanorona_engine::bench::{DEFAULT_BENCH_DEPTH, run_bench};
use fanorona_engine::eval::NetEvaluator;
use fanorona_engine::eval::{Handcrafted, Material};
use serde_json::{Map, Value, json};

/// perft depth and its count (RULES.md's start position).
const PERFT_DEPTH: u32 = 7;
const PERFT_COUNT: u64 = 175_243_243;

/// Self-play: games of this spec against itself, on one thread.
const SELFPLAY_SPEC: &str = "alphabeta:depth=2,eval=material";
const SELFPLAY_GAMES: u64 = 200;

/// Reading records: the self-play file is read again until this many seconds have passed.
const READ_SECONDS: f64 = 0.5;

/// Training steps timed (after the trainer's own warm-up steps).
const TRAIN_STEPS: u64 = 100;

/// The figures of one run: name, value, and whether it is a time (lower is better).
struct Figures {
    values: Map<String, Value>,
    info: Map<String, Value>,
    /// Text goes to stderr when stdout carries the JSON object.
    json: bool,
}

impl Figures {
    fn new(json: bool) -> Figures {
        Figures { values: Map::new(), info: Map::new(), json }
    }

    fn say(&self, line: &str) {
        if self.json {
            eprintln!("{line}");
        } else {
            println!("{line}");
        }
    }

    fn rate(&mut self, name: &str, value: f64) {
        self.values.insert(name.to_string(), json!(value));
    }

    fn info(&mut self, name: &str, value: Value) {
        self.info.insert(name.to_string(), value);
    }
}

fn perft_figures(f: &mut Figures) {
    let t = Instant::now();
    let n = perft(&Position::start(), PERFT_DEPTH);
    let secs = t.elapsed().as_secs_f64();
    assert_eq!(n, PERFT_COUNT, "perft({PERFT_DEPTH}) of the start position");
    f.say(&format!(
        "perft {PERFT_DEPTH}: {n} moves in {secs:.3} s = {:.1} M moves/s (one thread)",
        n as f64 / secs / 1e6
    ));
    f.rate("perft7_seconds", secs);
    f.rate("perft7_nodes_per_second", n as f64 / secs);
    f.info("perft7_nodes", json!(n));
}

fn search_figures(f: &mut Figures) -> anyhow::Result<()> {
    let depth = DEFAULT_BENCH_DEPTH;
    let material = run_bench(depth, &Material);
    f.say(&format!(
        "search, material, depth {depth}: {:.2} M nodes/s (Bench: {})",
        material.nodes_per_second() / 1e6,
        material.nodes
    ));
    f.rate("search_material_nodes_per_second", material.nodes_per_second());
    f.info("bench_signature", json!(material.nodes));

    let net = NetEvaluator::new(Arc::new(fanorona_nn::bench_network()?), "net:embedded")?;
    let handcrafted = run_bench(depth, &Handcrafted::default());
    let network = run_bench(depth, &net);
    let (h, n) = (handcrafted.nodes_per_second(), network.nodes_per_second());
    let ratio = if h > 0.0 { n / h } else { 0.0 };
    f.say(&format!(
        "search, depth {depth}: handcrafted {:.2} M nodes/s, network ({}) {:.2} M nodes/s, ratio {ratio:.2}",
        h / 1e6,
        net.network().arch(),
        n / 1e6
    ));
    f.rate("search_handcrafted_nodes_per_second", h);
    f.rate("search_network_nodes_per_second", n);
    f.rate("search_network_to_handcrafted", ratio);
    f.info("network_arch", json!(net.network().arch().to_string()));
    Ok(())
}

/// Plays the self-play games into `out` and returns it.
fn selfplay_figures(f: &mut Figures, dir: &Path) -> anyhow::Result<PathBuf> {
    let out = dir.join("selfplay.bin");
    let config = fanorona_selfplay::SelfplayConfig {
        games: SELFPLAY_GAMES,
        white: SELFPLAY_SPEC.parse()?,
        black: SELFPLAY_SPEC.parse()?,
        threads: 1,
        ..fanorona_selfplay::SelfplayConfig::default()
    };
    let t = Instant::now();
    let summary = fanorona_selfplay::generate(&config, &out, fanorona_selfplay::Start::New, &mut |_| {})?;
    let secs = t.elapsed().as_secs_f64();
    f.say(&format!(
        "self-play, {SELFPLAY_GAMES} games of {SELFPLAY_SPEC} vs itself, one thread: {:.1} games/s ({:.0} turns/s)",
        SELFPLAY_GAMES as f64 / secs,
        summary.stats.positions as f64 / secs
    ));
    f.rate("selfplay_games_per_second", SELFPLAY_GAMES as f64 / secs);
    Ok(out)
}

/// Reads the self-play file again and again: records decoded, then training samples
/// extracted (the default sample configuration).
fn read_figures(f: &mut Figures, file: &Path) -> anyhow::Result<()> {
    let (mut records, mut turns) = (0u64, 0u64);
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < READ_SECONDS {
        for r in fanorona_data::RecordReader::open(file)? {
            turns += r?.turns.len() as u64;
            records += 1;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    let mut samples = 0u64;
    let files = [file.to_path_buf()];
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < READ_SECONDS {
        for s in fanorona_data::Samples::open(&files, fanorona_data::SampleConfig::default()) {
            s?;
            samples += 1;
        }
    }
    let sample_secs = t.elapsed().as_secs_f64();
    f.say(&format!(
        "records read: {:.0} records/s ({:.2} M turns/s); samples extracted: {:.2} M samples/s",
        records as f64 / secs,
        turns as f64 / secs / 1e6,
        samples as f64 / sample_secs / 1e6
    ));
    f.rate("records_per_second", records as f64 / secs);
    f.rate("record_turns_per_second", turns as f64 / secs);
    f.rate("samples_read_per_second", samples as f64 / sample_secs);
    Ok(())
}

#[cfg(feature = "train")]
fn train_figures(f: &mut Figures) -> anyhow::Result<()> {
    let config = fanorona_train::TrainConfig::default();
    let t = fanorona_train::measure_throughput(&config, TRAIN_STEPS)?;
    f.say(&format!(
        "training: {:.0} samples/s ({} backend, {}, batch {}, {} steps)",
        t.samples_per_second, t.backend, t.arch, t.batch_size, t.steps
    ));
    f.rate("train_samples_per_second", t.samples_per_second);
    f.info("train", serde_json::to_value(&t)?);
    Ok(())
}

#[cfg(not(feature = "train"))]
fn train_figures(f: &mut Figures) -> anyhow::Result<()> {
    f.say("training: not measured (built without the `train` feature)");
    Ok(())
}

/// Prints each figure of `now` against the same figure of an earlier `--json` run.
fn compare(now: &Figures, before: &Path) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(before).with_context(|| format!("reading {}", before.display()))?;
    let old: Value = serde_json::from_str(&text).with_context(|| format!("parsing {}", before.display()))?;
    now.say(&format!("compared with {} (above 1: faster now):", before.display()));
    for (name, value) in &now.values {
        let (Some(new), Some(old)) = (value.as_f64(), old["figures"][name].as_f64()) else { continue };
        let speedup = if name.ends_with("_seconds") { old / new } else { new / old };
        now.say(&format!("  {name:<40} {speedup:6.3}x"));
    }
    Ok(())
}

/// The binary's allocator (src/main.rs), so that the training figure is the one `fanorona
/// train` reaches.
#[cfg(feature = "train")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> anyhow::Result<()> {
    // `cargo bench` passes `--bench`; anything else unknown is refused.
    let mut json_out = false;
    let mut before = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--bench" => {}
            "--json" => json_out = true,
            "--compare" => before = Some(PathBuf::from(args.next().context("--compare needs a file")?)),
            other => anyhow::bail!("unknown argument {other:?} (known: --json, --compare FILE)"),
        }
    }
    let mut f = Figures::new(json_out);
    let dir = tempfile::tempdir()?;
    perft_figures(&mut f);
    search_figures(&mut f)?;
    let games = selfplay_figures(&mut f, dir.path())?;
    read_figures(&mut f, &games)?;
    train_figures(&mut f)?;
    if let Some(before) = before {
        compare(&f, &before)?;
    }
    if json_out {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        f.info("cores", json!(cores));
        println!("{}", json!({"figures": f.values, "info": f.info}));
    }
    Ok(())
}
