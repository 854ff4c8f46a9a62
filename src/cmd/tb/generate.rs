//! `fanorona tb generate`: every table up to N stones, resumable, within a memory bound.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use fanorona_tb::{Event, GenerateOptions, TableReport, TbError, generate_with_events, peak_memory};

use crate::exit::bad_input;

#[derive(Debug, clap::Args)]
pub struct GenerateArgs {
    /// Tables up to this many stones in all (2 to 7; 5 takes seconds, 6 minutes, 7 about an
    /// hour on two cores).
    #[arg(long)]
    stones: u32,
    /// The directory to write the tables to (created if needed; an existing file, FIFO or
    /// device there is refused).
    #[arg(long)]
    out: PathBuf,
    /// Worker threads (0: one per core; at most 1024, or what the system allows).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// The most memory the working set may take, in MiB: a signature that does not fit with
    /// its counters (2 bytes a position) is solved without them (1 byte, slower). Default: no
    /// bound (7 stones peak at about 1.9 GB).
    #[arg(long, value_name = "MIB")]
    memory: Option<u64>,
    /// Minutes between checkpoints of the signature being solved (0: after every level; a
    /// killed generation resumes from the last one).
    #[arg(long, default_value_t = 10)]
    checkpoint_minutes: u64,
    /// Print one JSON summary instead of text.
    #[arg(long)]
    json: bool,
}

/// A generation error as the command line reports it: a bad table file or argument is bad
/// input (exit 2), a failure to read, write or compute is a failure (exit 1).
fn generate_error(what: &str, e: TbError) -> anyhow::Error {
    match e {
        TbError::Read { .. } | TbError::Write { .. } | TbError::Threads(_) | TbError::DtcOverflow { .. } => {
            anyhow::Error::new(e).context(what.to_string())
        }
        _ => bad_input(what, e),
    }
}

fn options(args: &GenerateArgs) -> anyhow::Result<GenerateOptions> {
    if !(2..=fanorona_tb::MAX_TB_STONES).contains(&args.stones) {
        return Err(bad_input("--stones", TbError::BadStones(args.stones)));
    }
    let memory = match args.memory {
        Some(0) => return Err(bad_input("--memory", "must be at least 1 MiB")),
        Some(m) => Some(m.checked_mul(1 << 20).ok_or_else(|| bad_input("--memory", "too large"))?),
        None => None,
    };
    let every = Duration::from_secs(args.checkpoint_minutes.saturating_mul(60));
    Ok(GenerateOptions { stones: args.stones, threads: args.threads, memory, checkpoint_every: Some(every) })
}

pub(super) fn run(args: &GenerateArgs) -> anyhow::Result<()> {
    let opts = options(args)?;
    let bar = super::work_bar(args.json);
    let json = args.json;
    let on_event = |e: &Event| match e {
        Event::Progress { done, total } => {
            if let Some(bar) = &bar {
                bar.set_length(*total);
                bar.set_position(*done);
            }
        }
        Event::Level { sig, level } => {
            if let Some(bar) = &bar {
                bar.set_message(format!("{sig}: dtc {level} done"));
            }
        }
        Event::Checkpoint { sig, level } => {
            if let Some(bar) = &bar {
                bar.set_message(format!("{sig}: checkpoint before dtc {level}"));
            }
        }
        Event::Resumed { sig, level } => {
            let line = format!("{sig}: resuming from its checkpoint at dtc {level}");
            match &bar {
                Some(bar) => bar.println(line),
                None if !json => eprintln!("{line}"),
                None => {}
            }
        }
        Event::Table(r) => {
            let line = table_line(r);
            match &bar {
                Some(bar) => bar.println(line),
                None if !json => println!("{line}"),
                None => {}
            }
        }
    };
    let start = Instant::now();
    let result = generate_with_events(&args.out, opts, &on_event);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let reports =
        result.map_err(|e| generate_error(&format!("generating tables in {}", args.out.display()), e))?;
    summary(args, &reports, start.elapsed().as_secs_f64())
}

fn table_line(r: &TableReport) -> String {
    let how = match (r.reused, r.mode) {
        (true, _) | (_, None) => "reused".to_string(),
        (false, Some(mode)) => format!("{:.2} s ({})", r.seconds, mode.as_str()),
    };
    format!(
        "{}: {} wins, {} draws, {} losses, longest dtc {}, {} bytes, {how}",
        r.sig, r.counts.wins, r.counts.draws, r.counts.losses, r.longest, r.bytes
    )
}

fn report_json(r: &TableReport) -> serde_json::Value {
    serde_json::json!({
        "signature": r.sig.to_string(),
        "wins": r.counts.wins,
        "draws": r.counts.draws,
        "losses": r.counts.losses,
        "longest_dtc": r.longest,
        "placements": r.sig.placements(),
        "bytes": r.bytes,
        "reused": r.reused,
        "mode": r.mode.map(|m| m.as_str()),
        "seconds": r.seconds,
    })
}

/// The figures of the whole run: disk, time, memory and the positions covered.
fn summary(args: &GenerateArgs, reports: &[TableReport], seconds: f64) -> anyhow::Result<()> {
    let bytes: u64 = reports.iter().map(|r| r.bytes).sum();
    let placements: u64 = reports.iter().map(|r| r.sig.placements()).sum();
    let positions: u64 = reports.iter().map(|r| r.counts.total()).sum();
    let longest = reports.iter().max_by_key(|r| r.longest);
    let cpu = super::cpu_seconds();
    let peak = peak_memory();
    let mut out = std::io::stdout().lock();
    if args.json {
        let obj = serde_json::json!({
            "stones": args.stones,
            "dir": args.out.display().to_string(),
            "seconds": seconds,
            "cpu_seconds": cpu,
            "peak_memory_bytes": peak,
            "bytes": bytes,
            "placements": placements,
            "positions_up_to_symmetry": positions,
            "longest_dtc": longest.map(|r| r.longest),
            "longest_dtc_table": longest.map(|r| r.sig.to_string()),
            "tables": reports.iter().map(report_json).collect::<Vec<_>>(),
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    let cpu = cpu.map_or(String::new(), |c| format!(" ({c:.0} s CPU)"));
    let peak = peak.map_or(String::new(), |p| format!(", peak memory {} MiB", p >> 20));
    writeln!(
        out,
        "{} tables up to {} stones in {}: {bytes} bytes, {seconds:.1} s{cpu}{peak}",
        reports.len(),
        args.stones,
        args.out.display()
    )?;
    writeln!(
        out,
        "positions: {placements} (every placement with both sides holding a stone), {positions} up to symmetry"
    )?;
    if let Some(r) = longest {
        writeln!(out, "longest dtc: {} ({})", r.longest, r.sig)?;
    }
    Ok(())
}
