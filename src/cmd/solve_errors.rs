//! `fanorona solve errors`: engines' error rates against a proven suite.

use std::io::Write;
use std::path::PathBuf;
use std::time::Duration;

use fanorona_core::{DrawRules, Game, Rng};
use fanorona_engine::PlayerSpec;
use fanorona_eval::spec::EngineOptions;
use fanorona_eval::{EngineKind, EngineSpec, Picker};
use fanorona_solve::error_rate::{ErrorReport, Rate, measure};
use fanorona_solve::suite::Suite;
use indicatif::ProgressBar;

use crate::exit::bad_input;

#[derive(Debug, clap::Args)]
pub struct ErrorsArgs {
    /// The proven suite (`fanorona solve suite`; one ships as solve/suites/proven.suite).
    #[arg(long, value_name = "SUITE")]
    suite: PathBuf,
    /// An engine, as `fanorona eval` takes it (`greedy`, `alphabeta:eval=handcrafted`,
    /// `alphabeta:eval=embedded`, `cmd:PROGRAM`, with `;` options), or `level:NAME` for a
    /// level of the web board (`level:Maximum`); repeatable.
    #[arg(long = "engine", short = 'e', required = true, value_name = "SPEC")]
    engines: Vec<String>,
    /// Milliseconds per turn (each engine's own limits stay; the time caps them).
    #[arg(long, value_name = "MS")]
    movetime: u64,
    /// Give in-process alpha-beta engines these endgame tables too (by default the engines
    /// play without tables: the tables would answer the suite's table positions for them).
    #[arg(long, value_name = "DIR")]
    tb: Option<PathBuf>,
    /// Seed of the players whose turns depend on one (random, greedy's ties).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

/// The longest --movetime, in milliseconds (a minute).
const MAX_MOVETIME_MS: u64 = 60_000;

/// One engine's measurement.
struct Measured {
    engine: EngineSpec,
    report: ErrorReport,
    mean_ms: f64,
}

pub fn run(a: &ErrorsArgs) -> anyhow::Result<()> {
    if a.movetime == 0 || a.movetime > MAX_MOVETIME_MS {
        return Err(bad_input("--movetime", format!("must be 1..={MAX_MOVETIME_MS} ms")));
    }
    let suite = Suite::read(&a.suite)?;
    if let Some(dir) = &a.tb {
        fanorona_engine::tablebase::open_shared(dir).map_err(|e| bad_input("--tb", e))?;
    }
    let engines = a.engines.iter().map(|t| engine(t, a)).collect::<anyhow::Result<Vec<_>>>()?;
    let turns = (suite.entries.len() * engines.len()) as u64;
    let bar =
        super::progress_bar(a.json, turns, "{elapsed_precise} [{bar:30}] {pos}/{len} turns, {msg} ({eta})");
    let mut results = Vec::new();
    for e in engines {
        bar.set_message(e.name.clone());
        results.push(measure_engine(e, &suite, a.seed, &bar)?);
    }
    bar.finish_and_clear();
    print(a, &suite, &results)
}

/// The engine of `text` (`level:NAME` resolved), limited to --movetime a turn, with --tb's
/// tables when given.
fn engine(text: &str, a: &ErrorsArgs) -> anyhow::Result<EngineSpec> {
    let (spec_text, name) = match text.trim().strip_prefix("level:") {
        Some(level) => {
            let levels =
                fanorona_web::levels::levels().map_err(|(s, e)| anyhow::anyhow!("level spec {s}: {e}"))?;
            let found = fanorona_web::levels::find(&levels, level).map_err(|e| bad_input("--engine", e))?;
            (found.spec.to_string(), Some(format!("level:{}", found.name)))
        }
        None => (text.to_string(), None),
    };
    let mut extra: EngineOptions = format!("movetime={}", a.movetime).parse()?;
    if let Some(n) = name {
        extra.extend(format!("name={n}").parse()?);
    }
    let mut spec = EngineSpec::with_options(&spec_text, &extra)?;
    if let (Some(dir), EngineKind::Player(PlayerSpec::AlphaBeta(ab))) = (&a.tb, &mut spec.kind)
        && ab.tb.is_none()
    {
        ab.tb = Some(dir.clone());
    }
    Ok(spec)
}

/// Asks the engine for its turn in every position of the suite, each as a new game.
fn measure_engine(
    engine: EngineSpec,
    suite: &Suite,
    seed: u64,
    bar: &ProgressBar,
) -> anyhow::Result<Measured> {
    let mut picker = Picker::new(&engine)?;
    let mut took = Duration::ZERO;
    let report = measure(suite, &mut |i, pos| {
        let game = Game::new(*pos, DrawRules::default());
        let picked = picker
            .choose(&game, Rng::derive(seed, i as u64).next_u64())
            .map_err(|f| anyhow::anyhow!("engine {} in {pos}: {}", engine.name, f.reason))?;
        took += picked.took;
        bar.inc(1);
        Ok::<_, anyhow::Error>(picked.mv)
    });
    picker.shutdown();
    let report = report?;
    let mean_ms = took.as_secs_f64() * 1000.0 / suite.entries.len().max(1) as f64;
    Ok(Measured { engine, report, mean_ms })
}

fn rate_json(r: &Rate) -> serde_json::Value {
    let (low, high) = r.wilson();
    serde_json::json!({ "positions": r.positions, "errors": r.errors, "rate": r.rate(), "low": low, "high": high })
}

fn engine_json(m: &Measured) -> serde_json::Value {
    let r = &m.report;
    let by_value: serde_json::Map<String, serde_json::Value> =
        r.by_value.iter().map(|(v, rate)| (v.to_string(), rate_json(rate))).collect();
    let by_stones: serde_json::Map<String, serde_json::Value> =
        r.by_stones.iter().map(|(s, rate)| (s.to_string(), rate_json(rate))).collect();
    let misses: Vec<serde_json::Value> = r
        .misses
        .iter()
        .map(|m| serde_json::json!({"index": m.index, "position": m.position.to_string(), "value": m.value.as_str(), "chosen": m.chosen.to_string()}))
        .collect();
    let mut doc = rate_json(&r.all);
    doc["engine"] = m.engine.name.clone().into();
    doc["spec"] = m.engine.text.clone().into();
    doc["mean_ms"] = m.mean_ms.into();
    doc["by_value"] = by_value.into();
    doc["by_stones"] = by_stones.into();
    doc["misses"] = misses.into();
    doc
}

/// `12/400 3.0 % [1.7, 5.2]`.
fn rate_text(r: &Rate) -> String {
    let (lo, hi) = r.wilson();
    format!("{}/{} {:.1} % [{:.1}, {:.1}]", r.errors, r.positions, 100.0 * r.rate(), 100.0 * lo, 100.0 * hi)
}

fn print(a: &ErrorsArgs, suite: &Suite, results: &[Measured]) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if a.json {
        let doc = serde_json::json!({
            "suite": a.suite.display().to_string(),
            "positions": suite.entries.len(),
            "tables": suite.tables,
            "movetime_ms": a.movetime,
            "engine_tables": a.tb.as_ref().map(|d| d.display().to_string()),
            "engines": results.iter().map(engine_json).collect::<Vec<_>>(),
        });
        writeln!(out, "{doc}")?;
        return Ok(());
    }
    let tables = match &a.tb {
        Some(d) => format!("engines with the tables in {}", d.display()),
        None => "engines without tables".into(),
    };
    writeln!(
        out,
        "{}: {} positions with proven values; {} ms a turn, {tables}; errors: turns that give the value away (95 % Wilson interval)",
        a.suite.display(),
        suite.entries.len(),
        a.movetime
    )?;
    for m in results {
        writeln!(out, "{}: {} ({:.1} ms a turn)", m.engine.name, rate_text(&m.report.all), m.mean_ms)?;
        let values: Vec<String> =
            m.report.by_value.iter().map(|(v, r)| format!("{v} {}", rate_text(r))).collect();
        writeln!(out, "  by value: {}", values.join("; "))?;
        let stones: Vec<String> =
            m.report.by_stones.iter().map(|(s, r)| format!("{s}: {}/{}", r.errors, r.positions)).collect();
        writeln!(out, "  by stones: {}", stones.join(", "))?;
    }
    Ok(())
}
