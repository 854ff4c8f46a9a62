//! `fanorona solve`: prove a position's value (proof-number search over the move generator and
//! the endgame tables) and write a proof anyone can check with `fanorona solve --verify`.

use std::io::Write;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use fanorona_core::{Color, Position};
use fanorona_solve::check::{CheckStats, check};
use fanorona_solve::{Checkpoints, Init, Outcome, Proven, Question, Solution, SolveOptions, file, solve};
use fanorona_tb::Tablebase;

use crate::exit::bad_input;

/// Prove a position's value under the rules with no limit on the game's length (endless play
/// is a draw): whether the side to move can force a win, else whether the other side can; a
/// draw is two proofs that neither can. Writes the proof for `--verify`.
///
/// `fanorona solve suite` builds a suite of positions with proven values from games;
/// `fanorona solve errors` measures engines' error rates on it.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    proven: Option<super::solve_suite::Proven>,
    /// The position (FEN-like, as `fanorona show` takes it; default: the start position).
    position: Option<String>,
    /// Endgame tables to finish lines in (a directory made by `fanorona tb generate`).
    #[arg(long)]
    tb: Option<PathBuf>,
    /// Transposition table size per question, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256)]
    memory: u64,
    /// The most nodes per question (default: no bound).
    #[arg(long)]
    nodes: Option<u64>,
    /// The most seconds per question (default: no bound).
    #[arg(long)]
    time: Option<f64>,
    /// How unsearched nodes are guessed: `material` (the side with more stones looks closer to
    /// its goal) or `unit` (plain df-pn).
    #[arg(long, default_value = "material")]
    init: InitArg,
    /// Write the proof here (default: not written).
    #[arg(long, value_name = "FILE")]
    proof: Option<PathBuf>,
    /// Keep checkpoints in this directory (the table of the question being searched, and the
    /// questions answered): the same command run again resumes from them.
    #[arg(long, value_name = "DIR")]
    checkpoint: Option<PathBuf>,
    /// Minutes between two checkpoints of a question's table.
    #[arg(long, default_value_t = 10)]
    checkpoint_minutes: u64,
    /// Check a proof file instead of solving: replay every node of its certificates with the
    /// move generator and the tables (`--tb`), without the search.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["position", "proof", "nodes", "time", "checkpoint"])]
    verify: Option<PathBuf>,
    /// Split instead of solving: write the distinct positions PLIES turns from the position to
    /// `--out DIR` (`frontier.txt`), for `--task` to solve (on one machine or as a Slurm job
    /// array: solve/solve-array.sbatch) and `--merge` to join.
    #[arg(long, value_name = "PLIES", requires = "out", conflicts_with_all = ["verify", "proof", "checkpoint", "task", "merge"])]
    split: Option<u32>,
    /// The directory a `--split` writes.
    #[arg(long, value_name = "DIR", requires = "split")]
    out: Option<PathBuf>,
    /// Solve the positions of a split (this shard's: `--shard`, or the job array's task from
    /// SLURM_ARRAY_TASK_ID; default all) into DIR/proofs/; those proven before are skipped.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["position", "verify", "proof", "checkpoint", "merge"])]
    task: Option<PathBuf>,
    /// With `--task`: shard I of N (`3/8`, from 0).
    #[arg(long, value_name = "I/N", requires = "task")]
    shard: Option<String>,
    /// Join a split: check every proof in DIR/proofs/ and give the position's value by
    /// minimax over the turns split.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["position", "verify", "proof", "checkpoint", "nodes", "time"])]
    merge: Option<PathBuf>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

mod farm;

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum InitArg {
    Unit,
    Material,
}

/// The most MiB of transposition table a question may take (1 TiB).
const MAX_MEMORY_MIB: u64 = 1 << 20;

pub fn run(args: &Args) -> anyhow::Result<()> {
    if let Some(p) = &args.proven {
        return super::solve_suite::run(p);
    }
    if let Some(file) = &args.verify {
        return verify(args, file);
    }
    if let (Some(plies), Some(out)) = (args.split, &args.out) {
        return farm::split(args, plies, out);
    }
    if let Some(dir) = &args.task {
        return farm::task(args, dir);
    }
    if let Some(dir) = &args.merge {
        return farm::merge(args, dir);
    }
    let pos = crate::cmd::parse_position(args.position.as_deref())?;
    if pos.us().is_empty() || pos.them().is_empty() {
        return Err(bad_input("solve", fanorona_solve::SolveError::GameOver(pos)));
    }
    let tb = open_tables(args)?;
    let opts = options(args)?;
    let json = args.json;
    let start = Instant::now();
    let mut out = std::io::stdout().lock();
    if !json {
        writeln!(out, "position {pos}")?;
        writeln!(
            out,
            "rules: no limit on the game's length (endless play is a draw); {}",
            tables_text(tb.as_ref())
        )?;
    }
    let solution = solve(&pos, tb.as_ref(), &opts, &mut |q| {
        if !json {
            println!("{}", question_line(&pos, q));
        }
    })
    .map_err(|e| match e.is_bad_input() {
        true => bad_input("solve", e),
        false => anyhow::Error::new(e).context(format!("solving {pos}")),
    })?;
    let written = match &args.proof {
        Some(path) => {
            file::write(path, &solution.proof)
                .map_err(|e| anyhow::Error::new(e).context("writing the proof"))?;
            Some((path.clone(), std::fs::metadata(path).map_or(0, |m| m.len())))
        }
        None => None,
    };
    let written = written.map(|(path, bytes)| {
        let tables = args.tb.as_ref().map_or(String::new(), |d| format!(" --tb {}", d.display()));
        (path, bytes, tables)
    });
    report(&mut out, &pos, &solution, written, start.elapsed().as_secs_f64(), json)
}

fn options(args: &Args) -> anyhow::Result<SolveOptions> {
    if args.memory == 0 || args.memory > MAX_MEMORY_MIB {
        return Err(bad_input("--memory", format!("must be 1..={MAX_MEMORY_MIB} MiB")));
    }
    let time = match args.time {
        Some(t) if !(t > 0.0 && t < 1e9) => {
            return Err(bad_input("--time", "must be a positive number of seconds"));
        }
        t => t.map(Duration::from_secs_f64),
    };
    let init = match args.init {
        InitArg::Unit => Init::Unit,
        InitArg::Material => Init::Material,
    };
    let checkpoint = args.checkpoint.as_ref().map(|dir| Checkpoints {
        dir: dir.clone(),
        every: Duration::from_secs(args.checkpoint_minutes.saturating_mul(60)),
    });
    Ok(SolveOptions {
        memory: args.memory << 20,
        nodes: args.nodes.unwrap_or(u64::MAX),
        time,
        init,
        checkpoint,
        ..SolveOptions::default()
    })
}

fn open_tables(args: &Args) -> anyhow::Result<Option<Tablebase>> {
    args.tb
        .as_deref()
        .map(|dir| {
            Tablebase::open(dir).map_err(|e| bad_input(format!("opening the tables in {}", dir.display()), e))
        })
        .transpose()
}

fn tables_text(tb: Option<&Tablebase>) -> String {
    tb.map_or("no endgame tables".to_string(), |t| format!("endgame tables up to {} stones", t.max_stones()))
}

fn colour(c: Color) -> &'static str {
    match c {
        Color::White => "White",
        Color::Black => "Black",
    }
}

fn answer(o: Outcome) -> &'static str {
    match o {
        Outcome::AttackerWins => "yes",
        Outcome::AttackerFails => "no",
        Outcome::Unknown => "unknown (budget spent)",
    }
}

fn question_line(pos: &Position, q: &Question) -> String {
    let to_move = if q.attacker == pos.turn() { " (to move)" } else { "" };
    let rate = q.stats.nodes as f64 / q.seconds.max(1e-9);
    format!(
        "{}{to_move} can force a win? {}: {} nodes in {:.2} s ({} nodes/s), certificate of {} nodes",
        colour(q.attacker),
        answer(q.outcome),
        q.stats.nodes,
        q.seconds,
        crate::cmd::rate(rate),
        q.certificate_nodes
    )
}

fn value_text(pos: &Position, v: Option<Proven>) -> String {
    let mover = colour(pos.turn());
    let other = colour(pos.turn().other());
    match v {
        Some(Proven::Win) => format!("{mover} (to move) wins"),
        Some(Proven::Loss) => format!("{other} wins ({mover} to move loses)"),
        Some(Proven::Draw) => "draw".to_string(),
        Some(Proven::NotWin(c)) => format!("{} cannot win; the rest is not settled", colour(c)),
        None => "not settled within the budget".to_string(),
    }
}

fn value_key(v: Option<Proven>) -> Option<&'static str> {
    v.map(|v| match v {
        Proven::Win => "win",
        Proven::Loss => "loss",
        Proven::Draw => "draw",
        Proven::NotWin(_) => "not-win",
    })
}

fn report(
    out: &mut impl Write,
    pos: &Position,
    s: &Solution,
    written: Option<(PathBuf, u64, String)>,
    seconds: f64,
    json: bool,
) -> anyhow::Result<()> {
    let line: Vec<String> = s.line.iter().map(ToString::to_string).collect();
    let nodes: u64 = s.questions.iter().map(|q| q.stats.nodes).sum();
    if json {
        let obj = serde_json::json!({
            "position": pos.to_string(),
            "rules": "no-limit",
            "tables": s.proof.tables,
            "value": value_key(s.value),
            "questions": s.questions.iter().map(|q| serde_json::json!({
                "attacker": colour(q.attacker),
                "answer": match q.outcome { Outcome::AttackerWins => "win", Outcome::AttackerFails => "no-win", Outcome::Unknown => "unknown" },
                "nodes": q.stats.nodes,
                "seconds": q.seconds,
                "nodes_per_second": q.stats.nodes as f64 / q.seconds.max(1e-9),
                "max_depth": q.stats.max_depth,
                "repetitions": q.stats.repetitions,
                "certificate_nodes": q.certificate_nodes,
            })).collect::<Vec<_>>(),
            "line": line,
            "nodes": nodes,
            "seconds": seconds,
            "proof": written.as_ref().map(|(p, _, _)| p.display().to_string()),
            "proof_bytes": written.as_ref().map(|(_, b, _)| *b),
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    writeln!(out, "value: {}", value_text(pos, s.value))?;
    if !line.is_empty() {
        writeln!(out, "line: {}", line.join(" "))?;
    }
    writeln!(
        out,
        "{nodes} nodes in {seconds:.2} s ({} nodes/s)",
        crate::cmd::rate(nodes as f64 / seconds.max(1e-9))
    )?;
    if let Some((p, bytes, tables)) = written {
        writeln!(
            out,
            "proof: {} ({bytes} bytes); check it with `fanorona solve --verify {}{tables}`",
            p.display(),
            p.display()
        )?;
    }
    Ok(())
}

fn verify(args: &Args, path: &std::path::Path) -> anyhow::Result<()> {
    let start = Instant::now();
    let proof = file::read(path).map_err(|e| match e.is_bad_input() {
        true => bad_input(format!("reading the proof {}", path.display()), e),
        false => anyhow::Error::new(e),
    })?;
    let tb = open_tables(args)?;
    let (value, stats) = check(&proof, tb.as_ref())
        .map_err(|e| bad_input(format!("the proof {} does not hold", path.display()), e))?;
    let seconds = start.elapsed().as_secs_f64();
    verified(args, &proof.root, value, stats, seconds)
}

fn verified(
    args: &Args,
    root: &Position,
    value: Proven,
    stats: CheckStats,
    seconds: f64,
) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if args.json {
        let obj = serde_json::json!({
            "position": root.to_string(),
            "value": value_key(Some(value)),
            "verified": true,
            "nodes": stats.nodes,
            "successors": stats.successors,
            "leaves": stats.leaves,
            "seconds": seconds,
        });
        writeln!(out, "{obj}")?;
        return Ok(());
    }
    writeln!(
        out,
        "verified: {} ({root}): {} nodes, {} successors ({} settled by the tables or the end of the game) replayed in {seconds:.2} s",
        value_text(root, Some(value)),
        stats.nodes,
        stats.successors,
        stats.leaves
    )?;
    Ok(())
}
