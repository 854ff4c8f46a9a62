//! `fanorona tb verify`: every table checked against the rules, independently of the
//! generator.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use fanorona_tb::{TableCheck, slots_to_verify, verify};

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// The directory of tables.
    dir: PathBuf,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: &VerifyArgs) -> anyhow::Result<()> {
    let (limit, what) = fanorona_tb::thread_limit();
    if args.threads > limit {
        let why = format!("{} is more than the {limit} threads this system allows ({what})", args.threads);
        return Err(crate::exit::bad_input("--threads", why));
    }
    let start = Instant::now();
    let tb = super::probe::open(&args.dir)?;
    let bar = super::work_bar(args.json);
    if let Some(bar) = &bar {
        bar.set_length(slots_to_verify(&tb));
        bar.set_message("slots checked");
    }
    let on_slots = |n: u64| {
        if let Some(bar) = &bar {
            bar.inc(n);
        }
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(args.threads).build()?;
    let checks = pool.install(|| verify(&tb, &on_slots));
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let seconds = start.elapsed().as_secs_f64();
    report(args, &checks, seconds)?;
    let failed: Vec<String> = checks.iter().filter(|c| !c.passed()).map(|c| c.sig.to_string()).collect();
    if !failed.is_empty() {
        anyhow::bail!("tables in {} fail the check: {}", args.dir.display(), failed.join(", "));
    }
    Ok(())
}

fn check_json(c: &TableCheck) -> serde_json::Value {
    serde_json::json!({
        "signature": c.sig.to_string(),
        "slots": c.slots,
        "positions_up_to_symmetry": c.positions,
        "placements": c.placements,
        "placements_expected": c.sig.placements(),
        "wins": c.counts.wins,
        "draws": c.counts.draws,
        "losses": c.counts.losses,
        "mismatches": c.mismatches,
        "first_mismatch": c.first.map(|m| serde_json::json!({
            "position": m.position.to_string(),
            "stored": m.stored.to_string(),
            "expected": m.expected.to_string(),
        })),
        "passed": c.passed(),
    })
}

fn report(args: &VerifyArgs, checks: &[TableCheck], seconds: f64) -> anyhow::Result<()> {
    let placements: u64 = checks.iter().map(|c| c.placements).sum();
    let positions: u64 = checks.iter().map(|c| c.positions).sum();
    let slots: u64 = checks.iter().map(|c| c.slots).sum();
    let passed = checks.iter().all(TableCheck::passed);
    let mut out = std::io::stdout().lock();
    if args.json {
        let obj = serde_json::json!({
            "dir": args.dir.display().to_string(),
            "tables": checks.iter().map(check_json).collect::<Vec<_>>(),
            "slots": slots,
            "positions_up_to_symmetry": positions,
            "placements": placements,
            "seconds": seconds,
            "cpu_seconds": super::cpu_seconds(),
            "passed": passed,
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    for c in checks {
        let verdict = match (&c.first, c.placements == c.sig.placements()) {
            (None, true) => "ok".to_string(),
            (Some(m), _) => format!(
                "{} mismatches, first {}: stored {}, its successors give {}",
                c.mismatches, m.position, m.stored, m.expected
            ),
            (None, false) => format!("covers {} placements, not {}", c.placements, c.sig.placements()),
        };
        writeln!(
            out,
            "{}: {} positions ({} placements: {} wins, {} draws, {} losses): {verdict}",
            c.sig, c.positions, c.placements, c.counts.wins, c.counts.draws, c.counts.losses
        )?;
    }
    writeln!(
        out,
        "{} tables, {slots} slots, {positions} positions up to symmetry, {placements} placements checked in {seconds:.1} s: {}",
        checks.len(),
        if passed { "every value follows from its successors" } else { "FAILED" }
    )?;
    Ok(())
}
