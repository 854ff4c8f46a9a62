//! `fanorona eval`: engine matches (two engines, game pairs, Elo, SPRT), gauntlets and round
//! robins with maximum-likelihood ratings.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use fanorona_data::Shard;
use fanorona_eval::spec::EngineOptions;
use fanorona_eval::stats::{Anchor, SprtConfig};
use fanorona_eval::{
    Adjudication, DrawRule, EngineSpec, MatchConfig, MatchReport, Mode, OpeningSource, Progress, ResignRule,
    TournamentConfig, TournamentReport, fmt_num, run_match, run_tournament,
};
use indicatif::{ProgressBar, ProgressStyle};

use crate::exit::bad_input;

/// Play a match between two engines and measure the Elo difference.
///
/// Engines: in-process player specs (`random`, `greedy`, `alphabeta:depth=4,eval=handcrafted`,
/// `alphabeta:nodes=20000,eval=net:PATH`) or external programs speaking the engine protocol
/// (`cmd:PROGRAM ARGS`, split as a shell would), each with options after `;`: `tc=40/60+0.6`,
/// `st=0.2`, `depth=N`, `nodes=N`, `timemargin=MS`, `name=NAME` (any engine), `timeout=MS`,
/// `option.NAME=VALUE` (programs). Every opening is played twice with colours swapped. The first
/// engine's Elo over the second is reported.
///
/// `fanorona eval gauntlet` and `fanorona eval roundrobin` rate several engines; `fanorona eval
/// merge` joins the shards of a `--shard I/N` match.
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    tournament: Option<Tournament>,
    #[command(flatten)]
    opts: MatchArgs,
}

#[derive(Debug, clap::Subcommand)]
enum Tournament {
    /// The first engine plays each of the others; all are rated.
    Gauntlet(TournamentArgs),
    /// Every engine plays every other; all are rated.
    Roundrobin(TournamentArgs),
    /// Join the output directories of a sharded match (`--shard I/N`) into one: games,
    /// report, ratings and SPRT verdict on the union (refuses shards of different matches).
    Merge(MergeArgs),
    /// Replay the SPRT over random orders of finished matches' pairs: the games it needs to
    /// decide (median), with each match's Elo, normalised Elo and pair counts.
    Replay(super::eval_replay::ReplayArgs),
}

#[derive(Debug, clap::Args)]
struct MergeArgs {
    /// The shards' output directories.
    #[arg(required = true)]
    dirs: Vec<PathBuf>,
    /// Output directory (games.bin, report.json, and state.json when every shard is there).
    #[arg(long, short = 'o')]
    out: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct TournamentArgs {
    #[command(flatten)]
    opts: MatchArgs,
    /// Ratings chart (PNG, or SVG for a .svg name); default OUT/ratings.png with --out.
    #[arg(long)]
    chart: Option<PathBuf>,
    /// Engine rated 0 (its name); default: the first engine in a gauntlet, the mean in a round
    /// robin.
    #[arg(long)]
    anchor: Option<String>,
}

#[derive(Debug, clap::Args)]
struct MatchArgs {
    /// An engine (give it twice for a match, two or more times for a tournament).
    #[arg(long = "engine", short = 'e', value_name = "SPEC")]
    engines: Vec<String>,
    /// Games per match (rounded up to whole pairs).
    #[arg(long, short = 'n', default_value_t = 100)]
    games: u64,
    /// Games played at the same time.
    #[arg(long, short = 'c', default_value_t = 1)]
    concurrency: usize,
    /// Openings: a file of position strings (one per line, # comments; each optionally
    /// followed by turns), `file=F [order=sequential|random] [start=K] [plies=P]` (the first P
    /// turns of each line, in file order or shuffled by --seed, from the K-th line),
    /// `random:plies=K` or `start`. Repeated openings of a file are reported.
    #[arg(long, default_value = "random:plies=6")]
    openings: String,
    /// Stop as soon as an SPRT decides, e.g. `elo0=0,elo1=10,alpha=0.05,beta=0.05`
    /// (`model=logistic` for logistic Elo bounds; default normalized, as fishtest).
    #[arg(long)]
    sprt: Option<String>,
    /// Output directory: every game (games.bin) and the state for --resume.
    #[arg(long, short = 'o')]
    out: Option<PathBuf>,
    /// Continue the interrupted match in --out with its saved settings (engines, games,
    /// openings, seed, rules and SPRT given here are ignored; --concurrency applies). With
    /// engines given and no match in --out yet, start it (a job array task's line, which a
    /// requeued task runs again); `{shard}` in --out is the task's shard.
    #[arg(long, requires = "out")]
    resume: bool,
    /// Seed of the openings and of random players.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    draw: super::DrawArgs,
    /// Endgame tables (`fanorona tb generate`): a game ends as soon as it reaches a position
    /// they cover, scored by them (termination "tablebase adjudication").
    #[arg(long, value_name = "DIR")]
    tb: Option<std::path::PathBuf>,
    /// Adjudicate a draw once both engines report |score| <= S (centi-stones) on M consecutive
    /// turns each, after turn N: `--draw movenumber=N movecount=M score=S` (fastchess syntax).
    #[arg(long = "draw", num_args = 1.., value_name = "KEY=VALUE")]
    draw_adjudication: Vec<String>,
    /// Adjudicate a loss once an engine reports score <= -S on M consecutive turns (two-sided:
    /// and its opponent >= S): `--resign movecount=M score=S [twosided=true]`.
    #[arg(long, num_args = 1.., value_name = "KEY=VALUE")]
    resign: Vec<String>,
    /// Append every game to FILE in the PGN-shaped text format (tags, turns, a
    /// `{score/depth time_ms}` comment per turn); see data/FORMAT.md.
    #[arg(long, value_name = "FILE")]
    pgnout: Option<PathBuf>,
    /// An option for every engine, as if appended to each --engine (`--each tc=10+0.1`,
    /// `--each timemargin=50`); repeatable.
    #[arg(long, value_name = "KEY=VALUE")]
    each: Vec<String>,
    /// Log every line exchanged with external engines and their standard error, with UTC
    /// timestamps, to FILE (appended to; each match writes at most --log-limit).
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// The most the --log file may hold, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 256, requires = "log")]
    log_limit: u64,
    /// When not on a terminal, print the running result every N games (default: every tenth
    /// of the match).
    #[arg(long, value_name = "N")]
    ratinginterval: Option<u64>,
    /// Play only shard I of N (`3/8`, from 0) of the match's pairs, for a cluster job array;
    /// by default taken from SLURM_ARRAY_TASK_ID/SLURM_ARRAY_TASK_COUNT when set. `{shard}` in
    /// --out is replaced by the index. Join the shards with `fanorona eval merge`.
    #[arg(long, value_name = "I/N")]
    shard: Option<String>,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
}

use fanorona_eval::MAX_GAMES;
/// The largest --log-limit, in MiB (a TiB).
const MAX_LOG_MIB: u64 = 1 << 20;
/// Games played at once at most: the bound of every worker-thread count.
use super::workers::MAX_WORKERS as MAX_CONCURRENCY;

impl MatchArgs {
    fn engines(&self) -> anyhow::Result<Vec<EngineSpec>> {
        let mut each = EngineOptions::default();
        for e in &self.each {
            each.extend(e.parse::<EngineOptions>()?);
        }
        self.engines.iter().map(|t| Ok(EngineSpec::with_options(t, &each)?)).collect()
    }

    /// `--shard`, or the job array's task from the environment.
    fn shard(&self) -> anyhow::Result<Option<Shard>> {
        let shard = match &self.shard {
            Some(s) => s.parse::<Shard>().map_err(|e| bad_input("--shard", e))?,
            None => match Shard::from_env(|k| std::env::var(k).ok(), None) {
                Ok(Some(s)) => s,
                Ok(None) => return Ok(None),
                Err(e) => return Err(bad_input("shard from the environment", e)),
            },
        };
        if self.out.is_none() {
            return Err(bad_input(
                "--shard",
                "needs --out DIR (the shards are joined with `fanorona eval merge`)",
            ));
        }
        Ok(Some(shard))
    }

    /// The directory whose match `--resume` continues: `--out`, with `{shard}` replaced by the
    /// shard (`--shard` or the job array's task). `None` without `--resume`, and where that
    /// directory holds no match yet while engines are given: then the match starts (so that one
    /// job array task line both starts its shard and continues it when requeued).
    fn resume_dir(&self) -> anyhow::Result<Option<PathBuf>> {
        if !self.resume {
            return Ok(None);
        }
        let out = self.out.as_deref().ok_or_else(|| bad_input("--resume", "needs --out DIR"))?;
        let dir = if out.to_string_lossy().contains(fanorona_data::SHARD_PLACEHOLDER) {
            let shard = self.shard()?.ok_or_else(|| {
                bad_input(
                    "--out",
                    "holds {shard} but no shard is given (--shard I/N, or a job array's SLURM_ARRAY_TASK_ID)",
                )
            })?;
            shard.path(out)
        } else {
            out.to_path_buf()
        };
        if !self.engines.is_empty() && !dir.join(fanorona_eval::state::STATE_FILE).exists() {
            eprintln!("nothing to resume in {}: starting the match", dir.display());
            return Ok(None);
        }
        Ok(Some(dir))
    }

    /// `--log` and `--log-limit`.
    fn set_log(&self, c: &mut MatchConfig) -> anyhow::Result<()> {
        if self.log_limit == 0 || self.log_limit > MAX_LOG_MIB {
            return Err(bad_input("--log-limit", format!("must be 1..={MAX_LOG_MIB} MiB")));
        }
        c.log = self.log.clone();
        c.log_limit = self.log_limit << 20;
        Ok(())
    }

    /// `--draw` and `--resign`.
    fn adjudication(&self) -> anyhow::Result<Adjudication> {
        let join = |v: &[String]| (!v.is_empty()).then(|| v.join(" "));
        Ok(Adjudication {
            draw: join(&self.draw_adjudication).map(|t| t.parse::<DrawRule>()).transpose()?,
            resign: join(&self.resign).map(|t| t.parse::<ResignRule>()).transpose()?,
        })
    }

    /// The match settings, engines left to the caller.
    fn template(&self, engines: [EngineSpec; 2]) -> anyhow::Result<MatchConfig> {
        if self.concurrency == 0 || self.concurrency > MAX_CONCURRENCY {
            return Err(bad_input("--concurrency", format!("must be 1..={MAX_CONCURRENCY}")));
        }
        if self.games == 0 || self.games > MAX_GAMES {
            return Err(bad_input("--games", format!("must be 1..={MAX_GAMES}")));
        }

        let mut c = MatchConfig::new(engines[0].clone(), engines[1].clone(), self.games);
        c.openings = self.openings.parse::<OpeningSource>()?;
        // A file is read now: a bad line is reported before any game, repeats as a warning.
        let repeats = c.openings.duplicates()?;
        for (line, earlier) in repeats.iter().take(10) {
            eprintln!("warning: openings {}: line {line} repeats the opening of line {earlier}", c.openings);
        }
        if repeats.len() > 10 {
            eprintln!("warning: openings {}: {} repeated openings in all", c.openings, repeats.len());
        }
        c.seed = self.seed;
        c.rules = self.draw.rules();
        c.tb = self.tb.clone();
        c.adjudication = self.adjudication()?;
        c.pgn_out = self.pgnout.clone();
        self.set_log(&mut c)?;
        c.sprt = match &self.sprt {
            Some(s) => Some(s.parse::<SprtConfig>().map_err(|e| bad_input("--sprt", e))?),
            None => None,
        };
        c.concurrency = self.concurrency;
        c.out = self.out.clone();
        c.resume = self.resume;
        Ok(c)
    }
}

pub fn run(args: &Args) -> anyhow::Result<()> {
    let opts = match &args.tournament {
        None => &args.opts,
        Some(Tournament::Gauntlet(t) | Tournament::Roundrobin(t)) => &t.opts,
        Some(Tournament::Merge(m)) => return run_merge(m),
        Some(Tournament::Replay(r)) => return super::eval_replay::run(r),
    };
    if opts.ratinginterval == Some(0) {
        return Err(bad_input("--ratinginterval", "must be at least 1"));
    }
    match &args.tournament {
        None => run_single(&args.opts),
        Some(Tournament::Gauntlet(t)) => run_many(t, Mode::Gauntlet),
        Some(Tournament::Roundrobin(t)) => run_many(t, Mode::RoundRobin),
        Some(Tournament::Merge(m)) => run_merge(m),
        Some(Tournament::Replay(r)) => super::eval_replay::run(r),
    }
}

/// A progress bar on a terminal, nothing otherwise.
fn progress_bar(total: u64, json: bool) -> Option<ProgressBar> {
    if json || !std::io::stderr().is_terminal() {
        return None;
    }
    let pb = ProgressBar::new(total);
    let style = ProgressStyle::with_template("{prefix}[{elapsed_precise}] {bar:30} {pos}/{len} games  {msg}")
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    pb.set_style(style);
    Some(pb)
}

/// Off a terminal (a batch job's log), one line on stderr each time another tenth of the games
/// is done, or every `--ratinginterval` games; nothing with --json.
struct LineProgress {
    enabled: bool,
    interval: Option<u64>,
    step: u64,
}

impl LineProgress {
    fn new(json: bool, interval: Option<u64>) -> LineProgress {
        LineProgress { enabled: !json && !std::io::stderr().is_terminal(), interval, step: 0 }
    }

    fn update(&mut self, prefix: &str, p: &Progress) {
        let step = match self.interval {
            Some(n) => p.games / n,
            None => (p.games * 10).checked_div(p.planned).unwrap_or(10),
        };
        if self.enabled && step > self.step {
            self.step = step;
            eprintln!("{prefix}{}/{} games  {}", p.games, p.planned, progress_message(p));
        }
    }
}

fn progress_message(p: &Progress) -> String {
    let mut m = match p.elo {
        Some(e) => format!("Elo {} +/- {}", fmt_num(e.elo), fmt_num(e.error)),
        None => String::new(),
    };
    m.push_str(&format!("  +{} ={} -{}", p.wdl.wins, p.wdl.draws, p.wdl.losses));
    if let Some((llr, lo, hi)) = p.llr {
        m.push_str(&format!("  LLR {llr:.2} ({lo:.2}, {hi:.2})"));
    }
    m
}

fn run_single(a: &MatchArgs) -> anyhow::Result<()> {
    let config = if let Some(dir) = a.resume_dir()? {
        if a.concurrency == 0 || a.concurrency > MAX_CONCURRENCY {
            return Err(bad_input("--concurrency", format!("must be 1..={MAX_CONCURRENCY}")));
        }
        let mut c = MatchConfig::load(&dir)?;
        c.concurrency = a.concurrency;
        c.pgn_out = a.pgnout.clone();
        a.set_log(&mut c)?;
        c
    } else {
        let engines = a.engines()?;
        let [x, y] = <[EngineSpec; 2]>::try_from(engines).map_err(|e| {
            bad_input("--engine", format!("a match needs exactly two engines, got {}", e.len()))
        })?;
        let mut c = a.template([x, y])?;
        // `--resume` of a match not started yet (see `resume_dir`) starts it.
        c.resume = false;
        c.shard = a.shard()?;
        if let (Some(s), Some(o)) = (c.shard, &a.out) {
            c.out = Some(s.path(o));
        }
        c
    };
    let mut config = config;
    if let Some(s) = config.shard {
        // `{shard}` names each task's files.
        config.pgn_out = config.pgn_out.map(|p| s.path(&p));
        config.log = config.log.map(|p| s.path(&p));
    }
    let pb = progress_bar(config.pairs() * 2, a.json);
    let mut lines = LineProgress::new(a.json, a.ratinginterval);
    let report = run_match(&config, &mut |p| {
        lines.update("", p);
        if let Some(pb) = &pb {
            pb.set_length(p.planned);
            pb.set_position(p.games);
            pb.set_message(progress_message(p));
        }
    })?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    print_match(&report, &config, a.json)
}

fn print_match(report: &MatchReport, config: &MatchConfig, json: bool) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    if json {
        let mut v = serde_json::to_value(report)?;
        v["openings"] = config.openings.to_string().into();
        v["opening_repeats"] = config.openings.duplicates().map_or(0, |d| d.len()).into();
        v["seed"] = config.seed.into();
        v["games_per_second"] = games_per_second(report).into();
        // Each engine's processor time over wall time in its timed turns (null: not measured).
        v["cpu_share"] = serde_json::json!(report.cpu.map(|s| s.share()));
        writeln!(out, "{v}")?;
    } else {
        write!(out, "{}", report.summary_text())?;
        writeln!(
            out,
            "Openings: {}, seed {}, {:.1} s, {:.2} games/s",
            config.openings,
            config.seed,
            report.seconds,
            games_per_second(report)
        )?;
        if let Some(d) = &config.out {
            writeln!(out, "Games saved in {}", d.join(fanorona_eval::state::GAMES_FILE).display())?;
        }
    }
    Ok(())
}

fn games_per_second(r: &MatchReport) -> f64 {
    if r.seconds > 0.0 { r.games_this_run as f64 / r.seconds } else { 0.0 }
}

fn run_many(t: &TournamentArgs, mode: Mode) -> anyhow::Result<()> {
    let a = &t.opts;
    let engines = a.engines()?;
    if engines.len() < 2 {
        return Err(bad_input(
            "--engine",
            format!("a tournament needs at least two engines, got {}", engines.len()),
        ));
    }
    if a.shard.is_some() {
        return Err(bad_input("--shard", "is for two-engine matches (shard each pairing as its own match)"));
    }
    let template = a.template([engines[0].clone(), engines[1].clone()])?;
    let anchor = match &t.anchor {
        None => None,
        Some(name) => Some(Anchor::Player(
            engines
                .iter()
                .position(|e| &e.name == name)
                .ok_or_else(|| bad_input("--anchor", format!("no engine is named {name:?}")))?,
        )),
    };
    let config = TournamentConfig { mode, engines, template, out: a.out.clone(), anchor };
    let pairings = config.pairings().len();
    let pb = progress_bar(config.template.pairs() * 2 * pairings as u64, a.json);
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let per_match = config.template.pairs() * 2;
    let mut index: Option<(usize, usize)> = None;
    let mut base = 0u64;
    let mut lines = LineProgress::new(a.json, a.ratinginterval);
    let report = run_tournament(&config, &mut |i, j, p| {
        if index != Some((i, j)) {
            if index.is_some() {
                base += per_match;
            }
            index = Some((i, j));
            lines = LineProgress::new(a.json, a.ratinginterval);
        }
        lines.update(&format!("{} vs {}: ", names[i], names[j]), p);
        if let Some(pb) = &pb {
            pb.set_prefix(format!("{} vs {} ", names[i], names[j]));
            pb.set_position(base + p.games);
            pb.set_message(progress_message(p));
        }
    })?;
    if let Some(pb) = pb {
        pb.finish_and_clear();
    }
    let chart = t.chart.clone().or_else(|| a.out.as_ref().map(|d| d.join("ratings.png")));
    if let Some(path) = &chart {
        write_chart(&report, path)?;
    }
    if let Some(dir) = &a.out {
        fanorona_data::rundir::write_json(&dir.join("ratings.json"), &report)?;
        fanorona_data::rundir::write_atomic(&dir.join("ratings.txt"), report.table_text().as_bytes())?;
    }
    let mut out = std::io::stdout().lock();
    if a.json {
        let mut v = serde_json::to_value(&report)?;
        v["chart"] = chart.map(|p| p.display().to_string()).into();
        writeln!(out, "{v}")?;
    } else {
        write!(out, "{}", report.table_text())?;
        if let Some(p) = &chart {
            writeln!(out, "Chart: {}", p.display())?;
        }
    }
    Ok(())
}

fn write_chart(report: &TournamentReport, path: &Path) -> anyhow::Result<()> {
    let mut order: Vec<usize> = (0..report.engines.len()).collect();
    order.sort_by(|&a, &b| report.ratings[b].elo.total_cmp(&report.ratings[a].elo));
    let bars = order
        .iter()
        .map(|&i| fanorona_plot::Bar {
            label: report.engines[i].clone(),
            value: finite_or_zero(report.ratings[i].elo),
            error: finite_or_zero(report.ratings[i].error),
        })
        .collect();
    let chart = fanorona_plot::BarChart {
        title: match report.mode {
            Mode::Gauntlet => "Gauntlet ratings (95 % intervals)".into(),
            Mode::RoundRobin => "Round-robin ratings (95 % intervals)".into(),
        },
        y_label: "Elo".into(),
        bars,
    };
    fanorona_plot::write_bar_chart(&chart, path).with_context(|| format!("writing chart {}", path.display()))
}

fn finite_or_zero(x: f64) -> f64 {
    if x.is_finite() { x } else { 0.0 }
}

fn run_merge(m: &MergeArgs) -> anyhow::Result<()> {
    let merged = fanorona_eval::merge_shards(&m.dirs, &m.out)?;
    let mut out = std::io::stdout().lock();
    if m.json {
        writeln!(out, "{}", serde_json::to_value(&merged)?)?;
        return Ok(());
    }
    write!(out, "{}", merged.report.summary_text())?;
    let missing: Vec<String> =
        (0..merged.shard_count).filter(|i| !merged.shards.contains(i)).map(|i| i.to_string()).collect();
    write!(out, "Shards: {} of {}", merged.shards.len(), merged.shard_count)?;
    if !missing.is_empty() {
        write!(out, " (missing: {})", missing.join(", "))?;
    }
    writeln!(out, "{}", if merged.complete { ", complete" } else { ", incomplete: no state file written" })?;
    writeln!(out, "Games saved in {}", m.out.join(fanorona_eval::state::GAMES_FILE).display())?;
    Ok(())
}
