//! `fanorona tb`: endgame tablebases: generate them, probe positions.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use fanorona_core::{DrawRules, Position};
use fanorona_tb::{
    Event, GenerateOptions, ProbeError, TableReport, Tablebase, TbError, Value, generate_with_events, plan,
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::exit::bad_input;

/// Endgame tablebases: every position up to N stones solved (win, draw or loss and the
/// distance to capture), for `fanorona engine --tb`, `tb=DIR` in engine specs and probing.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Generate every table up to N stones (smaller first; finished files are reused).
    Generate(GenerateArgs),
    /// Look positions up: wdl, dtc, the value under the no-progress rule, the best turns.
    Probe(ProbeArgs),
}

#[derive(Debug, clap::Args)]
struct GenerateArgs {
    /// Tables up to this many stones in all (2 to 7; 5 takes seconds, 6 minutes).
    #[arg(long)]
    stones: u32,
    /// The directory to write the tables to (created if needed; an existing file, FIFO or
    /// device there is refused).
    #[arg(long)]
    out: PathBuf,
    /// Worker threads (0: one per core; at most 1024, or what the system allows).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Print one JSON summary instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct ProbeArgs {
    /// The directory of tables.
    #[arg(long)]
    tb: PathBuf,
    /// A position to probe (may be given several times).
    #[arg(long = "position")]
    positions: Vec<String>,
    /// A file of positions, one per line (blank lines and lines starting with # are skipped).
    #[arg(long = "positions", value_name = "FILE")]
    file: Option<PathBuf>,
    /// Turns without a capture already played before the positions.
    #[arg(long, default_value_t = 0)]
    quiet_plies: u32,
    /// The no-progress limit: a game is drawn after this many turns without a capture (0: no
    /// limit).
    #[arg(long, default_value_t = DrawRules::DEFAULT_MAX_QUIET_PLIES)]
    max_quiet_plies: u32,
    /// Print one JSON object per position instead of text.
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.command {
        Command::Generate(a) => run_generate(a),
        Command::Probe(a) => run_probe(a),
    }
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

fn progress_bar(total: u64, json: bool) -> Option<ProgressBar> {
    if json || !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::new(total);
    let style = ProgressStyle::with_template("[{elapsed_precise}] {bar:30} {pos}/{len} tables  {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    pb.set_style(style);
    Some(pb)
}

fn report_json(r: &TableReport) -> serde_json::Value {
    serde_json::json!({
        "signature": r.sig.to_string(),
        "wins": r.counts.wins,
        "draws": r.counts.draws,
        "losses": r.counts.losses,
        "bytes": r.bytes,
        "reused": r.reused,
        "seconds": r.seconds,
    })
}

fn run_generate(args: &GenerateArgs) -> anyhow::Result<()> {
    if !(2..=fanorona_tb::MAX_TB_STONES).contains(&args.stones) {
        return Err(bad_input("--stones", TbError::BadStones(args.stones)));
    }
    let bar = progress_bar(plan(args.stones).len() as u64, args.json);
    let reports = std::sync::Mutex::new(Vec::new());
    let json = args.json;
    let start = Instant::now();
    let on_event = |e: &Event| {
        let r = match e {
            Event::Level { sig, level } => {
                if let Some(bar) = &bar {
                    bar.set_message(format!("{sig}: dtc {level} done"));
                }
                return;
            }
            Event::Table(r) => r,
        };
        if let Some(bar) = &bar {
            bar.inc(1);
            bar.set_message(r.sig.to_string());
        } else if !json {
            println!(
                "{}: {} wins, {} draws, {} losses, {} bytes, {}",
                r.sig,
                r.counts.wins,
                r.counts.draws,
                r.counts.losses,
                r.bytes,
                if r.reused { "reused".to_string() } else { format!("{:.2} s", r.seconds) }
            );
        }
        reports.lock().unwrap_or_else(|e| e.into_inner()).push(*r);
    };
    let opts = GenerateOptions { stones: args.stones, threads: args.threads };
    let result = generate_with_events(&args.out, opts, &on_event);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    result.map_err(|e| generate_error(&format!("generating tables in {}", args.out.display()), e))?;
    let reports = reports.into_inner().unwrap_or_else(|e| e.into_inner());
    let seconds = start.elapsed().as_secs_f64();
    let bytes: u64 = reports.iter().map(|r| r.bytes).sum();
    let mut out = std::io::stdout().lock();
    if args.json {
        let obj = serde_json::json!({
            "stones": args.stones,
            "dir": args.out.display().to_string(),
            "seconds": seconds,
            "bytes": bytes,
            "tables": reports.iter().map(report_json).collect::<Vec<_>>(),
        });
        writeln!(out, "{obj}")?;
    } else {
        if bar.is_some() {
            for r in &reports {
                writeln!(
                    out,
                    "{}: {} wins, {} draws, {} losses",
                    r.sig, r.counts.wins, r.counts.draws, r.counts.losses
                )?;
            }
        }
        writeln!(
            out,
            "{} tables up to {} stones in {}: {bytes} bytes, {seconds:.2} s",
            reports.len(),
            args.stones,
            args.out.display()
        )?;
    }
    Ok(())
}

/// The positions of `--position` and `--positions FILE`, in that order.
fn read_positions(args: &ProbeArgs) -> anyhow::Result<Vec<Position>> {
    let mut out = Vec::new();
    for text in &args.positions {
        out.push(super::parse_position(Some(text))?);
    }
    if let Some(file) = &args.file {
        read_positions_file(file, &mut out)?;
    }
    if out.is_empty() {
        return Err(bad_input("tb probe", "give --position POS (several allowed) or --positions FILE"));
    }
    Ok(out)
}

/// The largest `--positions` file read, in bytes.
const MAX_POSITIONS_BYTES: u64 = 64 << 20;
/// The most lines a `--positions` file may have.
const MAX_POSITIONS_LINES: usize = 1_000_000;
/// The longest line of a `--positions` file, in bytes (a position string is about 60).
const MAX_POSITION_LINE: u64 = 4096;

/// Reads `--positions FILE` line by line, never more than [`MAX_POSITIONS_BYTES`] bytes,
/// [`MAX_POSITIONS_LINES`] lines or [`MAX_POSITION_LINE`] bytes a line (`/dev/zero` is refused,
/// not read until memory runs out).
fn read_positions_file(file: &Path, out: &mut Vec<Position>) -> anyhow::Result<()> {
    use std::io::{BufRead, Read};
    let what = || format!("--positions {}", file.display());
    if std::fs::metadata(file).is_ok_and(|m| m.is_dir()) {
        return Err(bad_input(what(), "is a directory"));
    }
    let f = std::fs::File::open(file).map_err(|e| bad_input(format!("cannot read {}", what()), e))?;
    let mut input = std::io::BufReader::new(f.take(MAX_POSITIONS_BYTES + 1));
    let mut buf = Vec::new();
    let mut read = 0u64;
    for ln in 1.. {
        buf.clear();
        let n = (&mut input)
            .take(MAX_POSITION_LINE + 1)
            .read_until(b'\n', &mut buf)
            .map_err(|e| bad_input(format!("cannot read {}", what()), e))?;
        if n == 0 {
            break;
        }
        read += n as u64;
        if read > MAX_POSITIONS_BYTES {
            return Err(bad_input(what(), format!("more than {MAX_POSITIONS_BYTES} bytes (the limit)")));
        }
        if ln > MAX_POSITIONS_LINES {
            return Err(bad_input(what(), format!("more than {MAX_POSITIONS_LINES} lines (the limit)")));
        }
        if buf.len() as u64 > MAX_POSITION_LINE {
            return Err(bad_input(
                what(),
                format!("line {ln} is longer than {MAX_POSITION_LINE} bytes (the limit)"),
            ));
        }
        let line = std::str::from_utf8(&buf)
            .map_err(|_| bad_input(what(), format!("line {ln} is not UTF-8 text")))?
            .trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let pos = line
            .parse()
            .map_err(|e| bad_input(format!("{} line {ln}: invalid position {line:?}", file.display()), e))?;
        out.push(pos);
    }
    Ok(())
}

/// The tables of `--tb`; any error opening them (a missing directory or file included) is bad
/// input.
fn open(dir: &Path) -> anyhow::Result<Tablebase> {
    Tablebase::open(dir).map_err(|e| bad_input(format!("opening the tables in {}", dir.display()), e))
}

fn run_probe(args: &ProbeArgs) -> anyhow::Result<()> {
    let positions = read_positions(args)?;
    let tb = open(&args.tb)?;
    let mut out = std::io::stdout().lock();
    for pos in positions {
        let line = probe_one(&tb, &pos, args).map_err(|e| bad_input(format!("cannot probe {pos}"), e))?;
        writeln!(out, "{line}")?;
    }
    Ok(())
}

fn dtc_json(v: Value) -> serde_json::Value {
    v.dtc().map_or(serde_json::Value::Null, serde_json::Value::from)
}

/// One position's answer: a JSON object or a line of text.
fn probe_one(tb: &Tablebase, pos: &Position, args: &ProbeArgs) -> Result<String, ProbeError> {
    let value = tb.probe(pos)?;
    let (quiet, max_quiet) = (args.quiet_plies, args.max_quiet_plies);
    let rule = value.under_quiet_rule(quiet, max_quiet);
    let moves = tb.root_moves(pos, quiet, max_quiet)?;
    let best: Vec<String> = tb.best_moves(pos, quiet, max_quiet)?.iter().map(|m| m.mv.to_string()).collect();
    if args.json {
        let obj = serde_json::json!({
            "position": pos.to_string(),
            "wdl": value.wdl().as_str(),
            "dtc": dtc_json(value),
            "quiet_plies": quiet,
            "max_quiet_plies": max_quiet,
            "rule_wdl": rule.wdl().as_str(),
            "rule_dtc": dtc_json(rule),
            "cursed": rule.wdl() != value.wdl(),
            "best": best,
            "moves": moves.iter().map(|m| serde_json::json!({
                "move": m.mv.to_string(),
                "wdl": m.value.wdl().as_str(),
                "dtc": dtc_json(m.value),
                "rule_wdl": m.rule_value.wdl().as_str(),
            })).collect::<Vec<_>>(),
        });
        return Ok(obj.to_string());
    }
    let rule_text = if rule == value {
        String::new()
    } else {
        format!(", a draw under the no-progress rule ({quiet} of {max_quiet} quiet turns played)")
    };
    let best_text = if best.is_empty() { "none (no legal turn)".to_string() } else { best.join(" ") };
    Ok(format!("{pos}: {value}{rule_text}; best: {best_text}"))
}
