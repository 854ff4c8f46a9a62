//! `fanorona tb`: endgame tablebases: generate them, check them, probe positions.

mod generate;
mod probe;
mod verify;

/// Endgame tablebases: every position up to N stones solved (win, draw or loss and the
/// distance to capture), for `fanorona engine --tb`, `tb=DIR` in engine specs, the solver and
/// probing.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, clap::Subcommand)]
enum Command {
    /// Generate every table up to N stones (smaller first; finished files are reused, a pair
    /// being solved resumes from its checkpoint).
    Generate(generate::GenerateArgs),
    /// Look positions up: wdl, dtc, the value under the no-progress rule, the best turns.
    Probe(probe::ProbeArgs),
    /// Check every table against the rules: each value must follow from one turn of minimax
    /// over its successors, and the tables must cover every placement of their stones.
    Verify(verify::VerifyArgs),
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    match &args.command {
        Command::Generate(a) => generate::run(a),
        Command::Probe(a) => probe::run(a),
        Command::Verify(a) => verify::run(a),
    }
}

/// CPU seconds this process has used, user and system (Linux: `/proc/self/stat`, in the
/// kernel's fixed 100 ticks a second; `None` elsewhere).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (which may hold spaces) close with ')'.
    let rest = stat.rsplit_once(')')?.1;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |k: usize| fields.get(k).and_then(|f| f.parse::<u64>().ok());
    // utime and stime are fields 14 and 15 of the line: 11 and 12 counting from 0 after the name.
    Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
}

/// A progress bar over work units with the time left, on a terminal only.
fn work_bar(json: bool) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if json || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new(1);
    let style = indicatif::ProgressStyle::with_template(
        "[{elapsed_precise}] {bar:30} {percent:>3}%  {eta_precise} left  {msg}",
    )
    .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar());
    bar.set_style(style);
    Some(bar)
}
