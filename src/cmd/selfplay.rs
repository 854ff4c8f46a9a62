//! `fanorona selfplay`: generate self-play games into a record file.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context;
use fanorona_data::Shard;
use fanorona_engine::PlayerSpec;
use fanorona_selfplay::{DEFAULT_SPEC, Exploration, Progress, SelfplayConfig, Start, Summary, generate};

use crate::exit::bad_input;

/// Generate self-play games into a record file (see `fanorona data` to inspect it).
///
/// The output is byte-identical for the same arguments whatever --threads is. The file is
/// written as OUT.part and renamed when complete; after a kill, run the same command with
/// --resume to continue. An existing OUT is not replaced without --force. For a cluster job array, the shard comes from --shard or from
/// SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT or JOB_COMPLETION_INDEX (with --shard-count or
/// FANORONA_SHARD_COUNT); `{shard}` in --out is replaced by the shard index.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Games to play (in this shard).
    #[arg(long, short = 'n', default_value_t = 100)]
    games: u64,
    /// The whole run's games, split over the shards (the first shards play one more game when
    /// the shard count does not divide it); replaces --games.
    #[arg(long, conflicts_with = "games")]
    total_games: Option<u64>,
    /// Output record file; `{shard}` is replaced by the shard index.
    #[arg(long, short)]
    out: PathBuf,
    /// White's player spec, like `alphabeta:depth=3,eval=handcrafted`, `greedy`, `random`.
    #[arg(long, default_value = DEFAULT_SPEC)]
    white: String,
    /// Black's player spec.
    #[arg(long, default_value = DEFAULT_SPEC)]
    black: String,
    /// Worker threads (0: one per core; at most 1024). Does not change the output.
    #[arg(long, short = 't', default_value_t = 0, value_parser = super::workers::parse)]
    threads: usize,
    /// The run's seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// This shard, `I/N` (0 <= I < N): disjoint game seeds per shard.
    #[arg(long)]
    shard: Option<String>,
    /// Shard count for JOB_COMPLETION_INDEX (Kubernetes) or to override SLURM_ARRAY_TASK_COUNT.
    #[arg(long)]
    shard_count: Option<u32>,
    /// Continue an interrupted run of the same command (repairs a truncated last game).
    #[arg(long)]
    resume: bool,
    /// Replace an existing output (and the temporary of an interrupted run).
    #[arg(long, conflicts_with = "resume")]
    force: bool,
    /// Uniformly random opening turns per game.
    #[arg(long, default_value_t = 4)]
    random_plies: u32,
    /// Exploration applies to the turns before this ply (after the random ones).
    #[arg(long, default_value_t = 12)]
    explore_plies: u32,
    /// Exploration by sampling root turns with weight exp((score - best) / T), T in
    /// centi-stones (default 100 unless --epsilon is given).
    #[arg(long, conflicts_with = "epsilon")]
    temperature: Option<f64>,
    /// Exploration by playing a uniformly random turn with this probability.
    #[arg(long)]
    epsilon: Option<f64>,
    #[command(flatten)]
    draw: super::DrawArgs,
    /// Endgame tables (`fanorona tb generate`): a game ends as soon as it reaches a position
    /// they cover, scored by them (termination "tablebase adjudication").
    #[arg(long, value_name = "DIR")]
    tb: Option<std::path::PathBuf>,
    /// Print the summary as one JSON object.
    #[arg(long)]
    json: bool,
    /// No progress output.
    #[arg(long, short)]
    quiet: bool,
}

fn spec(text: &str, side: &str) -> anyhow::Result<PlayerSpec> {
    text.parse().map_err(|e| bad_input(format!("invalid --{side} player spec {text:?}"), e))
}

fn shard(args: &Args) -> anyhow::Result<Shard> {
    if let Some(s) = &args.shard {
        return s.parse().map_err(|e| bad_input("invalid --shard", e));
    }
    match Shard::from_env(|k| std::env::var(k).ok(), args.shard_count) {
        Ok(Some(s)) => Ok(s),
        Ok(None) => match args.shard_count {
            Some(_) => {
                Err(bad_input("--shard-count", "needs --shard or a job array index in the environment"))
            }
            None => Ok(Shard::ONE),
        },
        Err(e) => Err(bad_input("shard from the environment", e)),
    }
}

/// Builds the configuration from the arguments.
fn config(args: &Args) -> anyhow::Result<SelfplayConfig> {
    let exploration = match (args.temperature, args.epsilon) {
        (Some(t), _) => Exploration::Temperature(t),
        (None, Some(e)) => Exploration::Epsilon(e),
        (None, None) => Exploration::Temperature(100.0),
    };
    let c = SelfplayConfig {
        games: args.games,
        run_games: None,
        white: spec(&args.white, "white")?,
        black: spec(&args.black, "black")?,
        seed: args.seed,
        shard: shard(args)?,
        threads: args.threads,
        random_plies: args.random_plies,
        explore_plies: args.explore_plies,
        exploration,
        rules: args.draw.rules(),
        tb: args.tb.clone(),
    };
    let c = match args.total_games {
        Some(total) => c.with_run_games(total),
        None => c,
    };
    c.check().map_err(|e| bad_input("invalid arguments", e))?;
    if let Some(dir) = &c.tb {
        fanorona_engine::tablebase::open_shared(dir).map_err(|e| bad_input("--tb", e))?;
    }
    Ok(c)
}

fn wdl(p: &Progress) -> String {
    format!("W/D/L {}/{}/{}, avg {:.1} turns", p.white_wins, p.draws, p.black_wins, p.mean_length)
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let config = config(args)?;
    let out = config.shard.path(&args.out);
    if config.shard.count > 1 && out == args.out && args.shard.is_none() {
        eprintln!(
            "warning: shard {} from the environment but --out has no {{shard}}: every task writes {}",
            config.shard,
            out.display()
        );
    }
    let terminal = std::io::stderr().is_terminal() && !args.quiet;
    let bar = terminal.then(|| {
        let bar = indicatif::ProgressBar::new(config.games);
        let style = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:30}] {pos}/{len} games {rate} ETA {eta} {msg}",
        )
        .map(super::with_rate)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> ");
        bar.set_style(style);
        bar
    });
    let t0 = Instant::now();
    let mut last_line = Instant::now();
    let quiet = args.quiet;
    let mut progress = |p: &Progress| {
        if let Some(bar) = &bar {
            bar.set_position(p.done);
            bar.set_message(wdl(p));
        } else if !quiet && (last_line.elapsed().as_secs_f64() >= 10.0 || p.done == p.total) {
            last_line = Instant::now();
            eprintln!(
                "selfplay: {}/{} games, {:.2} games/s, {}",
                p.done,
                p.total,
                p.played as f64 / t0.elapsed().as_secs_f64().max(1e-9),
                wdl(p)
            );
        }
    };
    if !quiet && !terminal {
        eprintln!(
            "selfplay: {} games, shard {}, seed {}, {} vs {} -> {}",
            config.games,
            config.shard,
            config.seed,
            config.white,
            config.black,
            out.display()
        );
    }
    let start = match (args.resume, args.force) {
        (true, _) => Start::Resume,
        (false, true) => Start::Replace,
        (false, false) => Start::New,
    };
    let summary = generate(&config, &out, start, &mut progress);
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    // Bad arguments, an output that may not be replaced, a file that cannot be resumed or is
    // damaged are bad input (exit 2); I/O errors and engine bugs are failures (exit 1).
    let summary = summary.with_context(|| format!("self-play into {}", out.display()))?;
    print_summary(&summary, args.json)
}

fn print_summary(s: &Summary, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        writeln!(out, "{}", serde_json::to_string(s)?)?;
        return Ok(());
    }
    let st = &s.stats;
    writeln!(out, "wrote {} ({} games, shard {}, seed {})", s.out, st.games, s.shard, s.seed)?;
    if s.resumed_games > 0 || s.repaired_bytes > 0 {
        writeln!(
            out,
            "resumed after {} games (cut {} bytes of a truncated game)",
            s.resumed_games, s.repaired_bytes
        )?;
    }
    writeln!(
        out,
        "played {} games in {:.2} s on {} threads: {:.2} games/s, {:.0} turns/s",
        s.played, s.elapsed_s, s.threads, s.games_per_s, s.turns_per_s
    )?;
    writeln!(
        out,
        "results: white {} / draw {} / black {} (white scores {:.1}%)",
        st.white_wins,
        st.draws,
        st.black_wins,
        100.0 * st.white_score()
    )?;
    let ends: Vec<String> = st.terminations.iter().map(|(k, v)| format!("{k}: {v}")).collect();
    writeln!(out, "endings: {}", ends.join(", "))?;
    writeln!(
        out,
        "length: avg {:.1} turns (min {}, max {}); {} positions, {}{} distinct; {} exploration turns",
        st.mean_length(),
        st.min_length.unwrap_or(0),
        st.max_length.unwrap_or(0),
        st.positions,
        if st.distinct_exact { "" } else { "about " },
        st.distinct_positions,
        st.exploration_turns
    )?;
    Ok(())
}
