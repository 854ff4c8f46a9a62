//! `fanorona eval replay`: how many games an SPRT needs to decide, from matches already played
//! (their pairs replayed in random orders), with each match's Elo, normalised Elo and pair
//! counts: what compares opening suites (docs/BENCHMARKS.md, "Opening suites").

use std::io::Write;
use std::path::PathBuf;

use fanorona_eval::stats::{Pentanomial, SprtConfig, replay_sprt};

use crate::exit::bad_input;

/// Replay the SPRT over random orders of the pairs of finished matches (`-o` directories):
/// per match the Elo, the normalised Elo, the pentanomial counts, and the median games the SPRT
/// needed to decide (an order that did not decide counting as more than all).
#[derive(Debug, clap::Args)]
pub struct ReplayArgs {
    /// The matches' output directories.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// The SPRT replayed (the `--sprt` syntax of a match).
    #[arg(long, default_value = "elo0=0,elo1=10")]
    sprt: String,
    /// Random orders of each match's pairs.
    #[arg(long, default_value_t = 200)]
    orders: u32,
    /// Seed of the orders.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print one JSON array instead of text.
    #[arg(long)]
    json: bool,
}

/// The most orders replayed.
const MAX_ORDERS: u32 = 100_000;

pub fn run(a: &ReplayArgs) -> anyhow::Result<()> {
    let sprt: SprtConfig = a.sprt.parse().map_err(|e| bad_input("--sprt", e))?;
    if a.orders == 0 || a.orders > MAX_ORDERS {
        return Err(bad_input("--orders", format!("must be 1 to {MAX_ORDERS}")));
    }
    let mut rows = Vec::new();
    for dir in &a.dirs {
        let (st, pairs) = fanorona_eval::pair_scores(dir)?;
        let mut p = Pentanomial::default();
        pairs.iter().for_each(|&h| p.0[h as usize] += 1);
        let r = replay_sprt(&pairs, &sprt, a.orders, a.seed);
        let names = [st.config.engines[0].name.clone(), st.config.engines[1].name.clone()];
        rows.push(serde_json::json!({
            "dir": dir.display().to_string(),
            "engines": names,
            "openings": st.config.openings.to_string(),
            "games": pairs.len() * 2,
            "elo": p.elo(),
            "nelo": p.nelo(),
            "pentanomial": p.0,
            "sprt": sprt.to_string(),
            "replay": r,
        }));
    }
    let mut out = std::io::stdout().lock();
    if a.json {
        writeln!(out, "{}", serde_json::Value::Array(rows))?;
        return Ok(());
    }
    for row in &rows {
        writeln!(out, "{}", text_row(row))?;
    }
    Ok(())
}

/// One match's line.
fn text_row(row: &serde_json::Value) -> String {
    let est = |key: &str| {
        let e = &row[key];
        match (e["elo"].as_f64(), e["error"].as_f64()) {
            (Some(v), Some(err)) => format!("{v:+.1} +/- {err:.1}"),
            _ => "-".into(),
        }
    };
    let r = &row["replay"];
    let orders = r["orders"].as_f64().unwrap_or(1.0).max(1.0);
    let share = |k: &str| 100.0 * r[k].as_f64().unwrap_or(0.0) / orders;
    let median = r["median_games"].as_u64().map_or_else(|| format!("> {}", row["games"]), |m| m.to_string());
    format!(
        "{}: {} games, Elo {}, nElo {}, Ptnml(0-2) {}; SPRT {}: H1 {:.0} %, H0 {:.0} %, undecided {:.0} %, median {median} games",
        row["dir"].as_str().unwrap_or(""),
        row["games"],
        est("elo"),
        est("nelo"),
        row["pentanomial"],
        row["sprt"].as_str().unwrap_or(""),
        share("h1"),
        share("h0"),
        share("undecided"),
    )
}
