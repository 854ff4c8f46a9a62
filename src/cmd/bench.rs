//! `fanorona bench`: the search benchmark and determinism signature.

use std::io::Write;
use std::time::Instant;

use fanorona_core::{Position, perft};
use fanorona_engine::bench::{
    BENCH_HASH_MIB, BenchReport, DEFAULT_BENCH_DEPTH, bench_line, run_bench, run_bench_threads,
};
use fanorona_engine::eval::{Evaluator, Material};

use crate::exit::bad_input;

/// Search a fixed set of positions to a fixed depth with material evaluation and print the
/// total node count (a signature that changes only when search behaviour changes) and nodes
/// per second; also perft speed of the start position to depth 6.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Search depth in turns.
    #[arg(long, short, default_value_t = DEFAULT_BENCH_DEPTH)]
    depth: u32,
    /// Skip the perft figure.
    #[arg(long)]
    no_perft: bool,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// The network of the network-search figure (default: the trained network embedded in the
    /// binary, the default loop's generation 3, `threats:180-256-1`).
    #[arg(long, value_name = "FILE")]
    net: Option<std::path::PathBuf>,
    /// Skip the handcrafted and network search figures.
    #[arg(long)]
    no_eval_search: bool,
    /// Also search the bench on this many threads sharing the table (at most the machine's),
    /// interleaved with one thread, and print both speeds (the `Bench:` signature stays the
    /// one-thread count).
    #[arg(long, default_value_t = 1)]
    threads: usize,
}

/// The bench on one thread and on several, each run twice, interleaved, the faster run of
/// each kept.
struct ThreadsFigure {
    one: BenchReport,
    many: BenchReport,
}

impl ThreadsFigure {
    fn measure(depth: u32, threads: usize) -> ThreadsFigure {
        let mut best: [Option<BenchReport>; 2] = [None, None];
        for _ in 0..2 {
            for (slot, n) in best.iter_mut().zip([1, threads]) {
                let r = run_bench_threads(depth, &Material, n);
                if slot.as_ref().is_none_or(|b| r.nodes_per_second() > b.nodes_per_second()) {
                    *slot = Some(r);
                }
            }
        }
        let [one, many] = best.map(|r| r.unwrap_or_else(|| run_bench_threads(depth, &Material, 1)));
        ThreadsFigure { one, many }
    }

    /// Nodes per second on many threads over one.
    fn ratio(&self) -> f64 {
        ratio(self.many.nodes_per_second(), self.one.nodes_per_second())
    }

    /// Time to the bench depth on one thread over many.
    fn time_ratio(&self) -> f64 {
        ratio(self.one.elapsed.as_secs_f64(), self.many.elapsed.as_secs_f64())
    }

    fn json(&self) -> serde_json::Value {
        let side = |r: &BenchReport| {
            serde_json::json!({
                "threads": r.threads, "nodes": r.nodes, "time_ms": r.elapsed.as_millis() as u64,
                "nodes_per_second": r.nodes_per_second(),
            })
        };
        serde_json::json!({
            "one": side(&self.one), "many": side(&self.many),
            "ratio": self.ratio(), "time_ratio": self.time_ratio(),
        })
    }
}

/// The handcrafted and network searches of the bench, interleaved position by position over
/// [`EVAL_SEARCH_ROUNDS`] rounds, each position's fastest time kept (the machine's load varies;
/// both see the same).
struct EvalSearch {
    handcrafted: fanorona_engine::bench::BenchReport,
    network: fanorona_engine::bench::BenchReport,
    arch: String,
    kernel: &'static str,
}

impl EvalSearch {
    /// Network nodes/s over handcrafted nodes/s, by the searching thread's processor time
    /// where it can be read (the time it waited for a core, which varies with the machine's
    /// load, is then not counted), else by wall clock.
    fn ratio(&self) -> f64 {
        match (self.network.nodes_per_cpu_second(), self.handcrafted.nodes_per_cpu_second()) {
            (Some(n), Some(h)) => ratio(n, h),
            _ => self.wall_ratio(),
        }
    }

    /// The ratio by wall clock.
    fn wall_ratio(&self) -> f64 {
        ratio(self.network.nodes_per_second(), self.handcrafted.nodes_per_second())
    }

    /// What [`EvalSearch::ratio`] divides by.
    fn clock(&self) -> &'static str {
        if self.network.cpu.is_some() && self.handcrafted.cpu.is_some() { "cpu" } else { "wall" }
    }
}

/// `a / b`, or 0 when `b` is not positive (a bench too short to time).
fn ratio(a: f64, b: f64) -> f64 {
    if b > 0.0 { a / b } else { 0.0 }
}

/// A report's speed as JSON: nodes/s by wall clock and, where it can be read, by the
/// searching thread's processor time.
fn speed_json(r: &BenchReport) -> serde_json::Value {
    serde_json::json!({
        "nodes": r.nodes,
        "nodes_per_second": r.nodes_per_second(),
        "nodes_per_cpu_second": r.nodes_per_cpu_second(),
    })
}

/// ", N M nodes/s of processor time" where that time could be read.
fn cpu_text(r: &BenchReport) -> String {
    r.nodes_per_cpu_second().map(|n| format!(" ({:.2} M per processor second)", n / 1e6)).unwrap_or_default()
}

fn eval_search(depth: u32, net: Option<&std::path::Path>) -> anyhow::Result<EvalSearch> {
    use fanorona_engine::eval::Handcrafted;
    use fanorona_engine::eval::NetEvaluator;
    let ev = match net {
        Some(path) => NetEvaluator::load(path).map_err(|e| bad_input("--net", e))?,
        None => NetEvaluator::new(std::sync::Arc::new(fanorona_nn::bench_network()?), "net:embedded")?,
    };
    let kernel = if ev.is_quantised() { fanorona_nn::simd::Kernel::detect().name() } else { "float" };
    let arch = ev.network().arch().to_string();
    let (handcrafted, network) = interleaved(depth, &Handcrafted::default(), &ev);
    Ok(EvalSearch { handcrafted, network, arch, kernel })
}

/// Rounds of [`interleaved`]: each position's fastest time of this many is kept.
const EVAL_SEARCH_ROUNDS: usize = 3;

/// The bench searched with `a` and with `b`, alternating position by position (`a b`, then
/// `b a`, ...) for [`EVAL_SEARCH_ROUNDS`] rounds, each position's fastest time kept: a load
/// that comes and goes then falls on both evaluators alike.
fn interleaved(depth: u32, a: &dyn Evaluator, b: &dyn Evaluator) -> (BenchReport, BenchReport) {
    let positions: Vec<Position> = fanorona_engine::bench::bench_positions().collect();
    let round = |r: usize| {
        let (mut la, mut lb) = (Vec::new(), Vec::new());
        for &p in &positions {
            if r.is_multiple_of(2) {
                la.push(bench_line(p, depth, a, 1));
                lb.push(bench_line(p, depth, b, 1));
            } else {
                lb.push(bench_line(p, depth, b, 1));
                la.push(bench_line(p, depth, a, 1));
            }
        }
        (BenchReport::from_lines(depth, a.name(), 1, la), BenchReport::from_lines(depth, b.name(), 1, lb))
    };
    let (mut ra, mut rb) = round(0);
    for r in 1..EVAL_SEARCH_ROUNDS {
        let (again_a, again_b) = round(r);
        ra.keep_faster(&again_a);
        rb.keep_faster(&again_b);
    }
    (ra, rb)
}

const PERFT_DEPTH: u32 = 6;

/// Every figure of one `fanorona bench`.
struct Figures {
    /// The bench proper (material evaluation): the `Bench:` signature and nodes/s.
    report: BenchReport,
    /// Perft nodes of the start position and moves/s, unless skipped.
    perft: Option<(u64, f64)>,
    /// The network's evaluation speed in a search-like tree walk.
    net: fanorona_engine::eval::BenchFigures,
    /// The handcrafted and network searches, unless skipped.
    searches: Option<EvalSearch>,
    /// One thread against several, when asked.
    threads: Option<ThreadsFigure>,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    if !(1..=20).contains(&args.depth) {
        return Err(bad_input("--depth", format!("{} is not in 1..=20", args.depth)));
    }
    let threads =
        fanorona_engine::search::check_threads(args.threads).map_err(|e| bad_input("--threads", e))?;
    let figures = measure(args, threads)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", figures_json(&figures))?;
    } else {
        write_text(&mut out, &figures)?;
    }
    Ok(())
}

/// Runs every benchmark `args` asks for.
fn measure(args: &Args, threads: usize) -> anyhow::Result<Figures> {
    let report = run_bench(args.depth, &Material);
    let perft = (!args.no_perft).then(|| {
        let start = Instant::now();
        let nodes = perft(&Position::start(), PERFT_DEPTH);
        let secs = start.elapsed().as_secs_f64();
        (nodes, if secs > 0.0 { nodes as f64 / secs } else { 0.0 })
    });
    // Network evaluation inside a search-like tree walk, first layer updated incrementally
    // (the embedded trained network).
    let net = fanorona_nn::bench_network()?;
    let net = fanorona_engine::eval::bench_evals_per_second(&std::sync::Arc::new(net), 1_000_000);
    let searches =
        if args.no_eval_search { None } else { Some(eval_search(args.depth, args.net.as_deref())?) };
    let threads = (threads > 1).then(|| ThreadsFigure::measure(args.depth, threads));
    Ok(Figures { report, perft, net, searches, threads })
}

/// The figures as one JSON object (`--json`).
fn figures_json(f: &Figures) -> serde_json::Value {
    let report = &f.report;
    let lines: Vec<_> = report
        .lines
        .iter()
        .map(|l| {
            serde_json::json!({
                "position": l.position.to_string(),
                "best": l.best.map(|m| m.to_string()),
                "score": l.score,
                "nodes": l.nodes,
                "time_ms": l.elapsed.as_millis() as u64,
            })
        })
        .collect();
    let mut obj = serde_json::json!({
        "depth": report.depth,
        "eval": report.eval,
        "hash_mib": BENCH_HASH_MIB,
        "positions": lines,
        "nodes": report.nodes,
        "time_ms": report.elapsed.as_millis() as u64,
        "nodes_per_second": report.nodes_per_second(),
        "nodes_per_cpu_second": report.nodes_per_cpu_second(),
    });
    obj["net_eval"] = serde_json::json!({
        "arch": f.net.arch,
        "evals": f.net.evals,
        "evals_per_second": f.net.evals_per_second,
        "nodes_per_second_with_movegen": f.net.nodes_per_second,
    });
    if let Some(e) = &f.searches {
        let mut network = speed_json(&e.network);
        network["arch"] = e.arch.clone().into();
        network["kernel"] = e.kernel.into();
        obj["eval_search"] = serde_json::json!({
            "handcrafted": speed_json(&e.handcrafted),
            "network": network,
            "ratio": e.ratio(),
            "ratio_clock": e.clock(),
            "wall_ratio": e.wall_ratio(),
        });
    }
    if let Some(t) = &f.threads {
        obj["threads"] = t.json();
    }
    if let Some((nodes, nps)) = f.perft {
        obj["perft"] = serde_json::json!({"depth": PERFT_DEPTH, "nodes": nodes, "nodes_per_second": nps});
    }
    obj
}

/// The figures as text, the `Bench:` signature last.
fn write_text(out: &mut impl Write, f: &Figures) -> std::io::Result<()> {
    let report = &f.report;
    for l in &report.lines {
        writeln!(
            out,
            "{:<52} {:<14} {:>7} {:>11} nodes {:>7} ms",
            l.position.to_string(),
            l.best.map(|m| m.to_string()).unwrap_or_else(|| "none".into()),
            l.score,
            l.nodes,
            l.elapsed.as_millis()
        )?;
    }
    writeln!(
        out,
        "search: depth {}, eval {}, {} MiB table: {:.2} M nodes/s{} (a node is a turn made in the search)",
        report.depth,
        report.eval,
        BENCH_HASH_MIB,
        report.nodes_per_second() / 1e6,
        cpu_text(report)
    )?;
    if let Some((nodes, nps)) = f.perft {
        writeln!(out, "perft {PERFT_DEPTH} of the start position: {nodes} in {:.2} M moves/s", nps / 1e6)?;
    }
    writeln!(
        out,
        "net eval {} (incremental first layer): {:.2} M evals/s (evaluator only), {:.2} M nodes/s with move generation",
        f.net.arch,
        f.net.evals_per_second / 1e6,
        f.net.nodes_per_second / 1e6
    )?;
    if let Some(e) = &f.searches {
        writeln!(
            out,
            "search with evaluators, depth {}: handcrafted {:.2} M nodes/s{}, network {} ({}) {:.2} M nodes/s{}: ratio {:.2} by {} time (wall clock {:.2})",
            report.depth,
            e.handcrafted.nodes_per_second() / 1e6,
            cpu_text(&e.handcrafted),
            e.arch,
            e.kernel,
            e.network.nodes_per_second() / 1e6,
            cpu_text(&e.network),
            e.ratio(),
            if e.clock() == "cpu" { "processor" } else { "wall-clock" },
            e.wall_ratio()
        )?;
    }
    if let Some(t) = &f.threads {
        writeln!(
            out,
            "search on {} threads, depth {}: {:.2} M nodes/s against {:.2} M nodes/s on one: ratio {:.2}; time to depth ratio {:.2}",
            t.many.threads,
            report.depth,
            t.many.nodes_per_second() / 1e6,
            t.one.nodes_per_second() / 1e6,
            t.ratio(),
            t.time_ratio()
        )?;
    }
    writeln!(out, "Bench: {}", report.nodes)
}
