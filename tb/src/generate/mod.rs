//! Generating tables: smaller totals first, each signature with its swapped twin (paika turns
//! go from one to the other), by retrograde analysis over paika turns with the capture turns as
//! exits into the smaller tables.
//!
//! 1. Every canonical position is seeded ([`seed`]): a side to move that must capture gets its
//!    value at once from the smaller tables (`Win(1)`, `Draw` or `Loss(1)`); one with no legal
//!    turn is `Loss(0)`; any other waits (with a counter of its distinct successor classes in
//!    [`Mode::Counters`]).
//! 2. Level by level (dtc = 0, 1, ...), every position decided at that level is un-moved
//!    ([`retreat`]): a lost one makes each undecided predecessor a win at the next level; a won
//!    one makes a predecessor whose successors are now all won a loss at the next level.
//!    Counting distinct classes on both sides keeps this exact under symmetry.
//! 3. Positions still undecided are draws.
//!
//! A pair being solved is checkpointed at level boundaries ([`checkpoint`]), so a killed
//! generation resumes there; finished tables are files written atomically and are reused. One
//! generation at a time may write a directory (a lock file, `generate.lock`).

mod checkpoint;
mod lock;
mod memory;
mod progress;
mod retreat;
mod seed;
mod work;

use std::fs;
use std::path::Path;
use std::time::{Duration, Instant};

pub use checkpoint::checkpoint_path;
pub(crate) use lock::DirLock;
pub use memory::{Mode, PairPlan, peak_memory, plan_memory};
pub(crate) use progress::Progress;
pub(crate) use seed::capture_value;

use crate::format::{Counts, EXTENSION, VERSION, read_header, write_table};
use crate::table::Table;
use crate::tablebase::load_if_present;
use crate::{Signature, Tablebase, TbError};
use checkpoint::Levels;
use work::{Work, finish};

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Every table up to this many stones in all (2..=7).
    pub stones: u32,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// The most memory the working set may take, in bytes: a pair that does not fit with
    /// counters is solved without ([`Mode::Lean`]); `None`: no bound.
    pub memory: Option<u64>,
    /// The least time between two checkpoints of a pair being solved (`None`: none are
    /// written; zero: after seeding and after every level).
    pub checkpoint_every: Option<Duration>,
}

impl GenerateOptions {
    /// The checkpoint interval by default: ten minutes.
    pub const DEFAULT_CHECKPOINT: Duration = Duration::from_secs(600);

    /// Tables up to `stones` on `threads` workers, no memory bound, checkpoints every ten
    /// minutes.
    pub const fn new(stones: u32, threads: usize) -> GenerateOptions {
        GenerateOptions { stones, threads, memory: None, checkpoint_every: Some(Self::DEFAULT_CHECKPOINT) }
    }
}

/// One table, generated or found finished.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableReport {
    /// Its signature.
    pub sig: Signature,
    /// Wins, draws and losses, over positions up to symmetry.
    pub counts: Counts,
    /// The longest dtc of a win or a loss in it.
    pub longest: u32,
    /// Its size on disk in bytes.
    pub bytes: u64,
    /// Whether a finished file was found and reused.
    pub reused: bool,
    /// How it was solved (`None` when reused).
    pub mode: Option<Mode>,
    /// Seconds spent solving it (with its twin, for generated tables; 0 when reused).
    pub seconds: f64,
}

/// What a generation reports as it goes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event {
    /// A signature (with its twin) is being solved: every position up to this dtc is decided.
    Level {
        /// The signature (the twin with more stones to move).
        sig: Signature,
        /// The dtc level just finished.
        level: u32,
    },
    /// A table is finished (generated or reused).
    Table(TableReport),
    /// Work done so far out of the whole generation's (a unit is about one position seeded or
    /// un-moved), several times a second.
    Progress {
        /// Units done.
        done: u64,
        /// Units in all.
        total: u64,
    },
    /// A checkpoint of the pair being solved was written.
    Checkpoint {
        /// The pair's first signature.
        sig: Signature,
        /// The next level it will run.
        level: u32,
    },
    /// A pair resumes from its checkpoint.
    Resumed {
        /// The pair's first signature.
        sig: Signature,
        /// The level it resumes at.
        level: u32,
    },
}

/// Every signature of a generation, in the order they are done.
pub fn plan(stones: u32) -> Vec<Signature> {
    Signature::up_to(stones).collect()
}

/// Generates every table up to `opts.stones` stones into `dir`, reusing the finished files
/// there (an interrupted generation goes on where it stopped), and opens them. Calls `report`
/// after each table.
///
/// # Errors
/// As [`generate_with_events`].
pub fn generate(
    dir: &Path,
    opts: GenerateOptions,
    report: &(dyn Fn(&TableReport) + Sync),
) -> Result<Tablebase, TbError> {
    generate_with_events(dir, opts, &|e| {
        if let Event::Table(r) = e {
            report(r);
        }
    })?;
    Tablebase::open(dir)
}

/// [`generate`], reporting every [`Event`], and returning the tables' reports (without
/// loading them).
///
/// # Errors
/// When `dir` holds a table of another format version, an unsound table or checkpoint
/// (nothing is overwritten then), another generation writes it, the memory bound is too small,
/// a file cannot be written, or a dtc overflows the format.
pub fn generate_with_events(
    dir: &Path,
    opts: GenerateOptions,
    report: &(dyn Fn(&Event) + Sync),
) -> Result<Vec<TableReport>, TbError> {
    if !(2..=crate::MAX_TB_STONES).contains(&opts.stones) {
        return Err(TbError::BadStones(opts.stones));
    }
    check_threads(opts.threads)?;
    let plans = plan_memory(opts.stones, opts.memory)?;
    // The output is a directory of tables: a file, FIFO or device there is not replaced (nor
    // written into); a symlink to a directory is followed.
    match fs::metadata(dir) {
        Ok(m) if !m.is_dir() => return Err(TbError::NotADirectory { path: dir.to_path_buf() }),
        _ => {}
    }
    fs::create_dir_all(dir).map_err(|source| TbError::Write { path: dir.to_path_buf(), source })?;
    let _lock = DirLock::acquire(dir)?;
    check_versions(dir)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(opts.threads).build().map_err(TbError::Threads)?;
    let progress = Progress::new(0, plans.iter().map(|p| 2 * p.slots).sum());
    progress::reporting(&progress, report, || {
        pool.install(|| generate_all(dir, &plans, opts.checkpoint_every, &progress, report))
    })
}

/// The most worker threads a generation may ask for, whatever the system allows.
pub const MAX_THREADS: usize = 1024;

/// The most threads this process may start: [`MAX_THREADS`], or less when the system says so
/// (Linux: the system-wide `threads-max`, the per-user process limit of `ulimit -u`), with
/// where the limit comes from.
pub fn thread_limit() -> (usize, &'static str) {
    let mut limit = (MAX_THREADS, "the generator's limit");
    let number = |text: &str| text.trim().parse::<usize>().ok();
    if let Some(n) = fs::read_to_string("/proc/sys/kernel/threads-max").ok().as_deref().and_then(number)
        && n < limit.0
    {
        limit = (n, "/proc/sys/kernel/threads-max");
    }
    // `Max processes   <soft>   <hard>   processes`; `unlimited` parses as no limit.
    let nproc = fs::read_to_string("/proc/self/limits").ok().and_then(|t| {
        let line = t.lines().find(|l| l.starts_with("Max processes"))?.to_string();
        line.split_whitespace().nth(2).and_then(number)
    });
    if let Some(n) = nproc
        && n < limit.0
    {
        limit = (n, "the per-user process limit, ulimit -u");
    }
    limit
}

/// Refuses more threads than [`thread_limit`] (0, one per core, is always allowed).
fn check_threads(asked: usize) -> Result<(), TbError> {
    let (limit, what) = thread_limit();
    if asked > limit {
        return Err(TbError::TooManyThreads { asked, limit, what });
    }
    Ok(())
}

/// Refuses a directory holding a table file of another format version.
fn check_versions(dir: &Path) -> Result<(), TbError> {
    let entries = fs::read_dir(dir).map_err(|source| TbError::Read { path: dir.to_path_buf(), source })?;
    for entry in entries {
        let entry = entry.map_err(|source| TbError::Read { path: dir.to_path_buf(), source })?;
        let path = entry.path();
        if path.extension().is_some_and(|e| e == EXTENSION) {
            let header = read_header(&path)?;
            if header.version != VERSION {
                return Err(TbError::WrongVersion { path, found: header.version, expected: VERSION });
            }
        }
    }
    Ok(())
}

/// Solves or reuses every pair in order; the tables of fewer stones than the largest stay in
/// memory for the captures of the larger ones.
fn generate_all(
    dir: &Path,
    plans: &[PairPlan],
    every: Option<Duration>,
    progress: &Progress,
    report: &(dyn Fn(&Event) + Sync),
) -> Result<Vec<TableReport>, TbError> {
    let top = plans.iter().map(PairPlan::stones).max().unwrap_or(0);
    let mut smaller = Tablebase::default();
    let mut reports = Vec::new();
    let mut done = 0;
    for plan in plans {
        let tables = pair(dir, &smaller, plan, every, progress, report)?;
        done += 2 * plan.slots;
        progress.reach(done);
        for (table, r) in tables {
            report(&Event::Table(r));
            reports.push(r);
            if plan.stones() < top {
                smaller.insert(table);
            }
        }
    }
    Ok(reports)
}

/// The tables of one pair with their reports: read when all are finished files, else solved
/// (from a checkpoint when there is one) and written.
fn pair(
    dir: &Path,
    smaller: &Tablebase,
    plan: &PairPlan,
    every: Option<Duration>,
    progress: &Progress,
    report: &(dyn Fn(&Event) + Sync),
) -> Result<Vec<(Table, TableReport)>, TbError> {
    let mut found = Vec::new();
    for &s in &plan.sigs {
        found.push(load_if_present(&dir.join(s.file_name()), s)?);
    }
    let start = Instant::now();
    let reused = found.iter().all(Option::is_some);
    let tables: Vec<(Table, u32)> = if reused {
        found.into_iter().flatten().map(|t| (t.clone(), t.longest())).collect()
    } else {
        let solved = solve(dir, smaller, plan, every, progress, report)?;
        for ((table, _), f) in solved.iter().zip(&found) {
            if f.is_none() {
                write_table(
                    &dir.join(table.signature().file_name()),
                    table.signature(),
                    table.data(),
                    table.counts(),
                )?;
            }
        }
        checkpoint::remove(&checkpoint_path(dir, plan.sigs[0]))?;
        solved
    };
    let seconds = if reused { 0.0 } else { start.elapsed().as_secs_f64() };
    let mode = (!reused).then_some(plan.mode);
    Ok(tables
        .into_iter()
        .map(|(table, longest)| {
            let sig = table.signature();
            let bytes = fs::metadata(dir.join(sig.file_name())).map_or(0, |m| m.len());
            let r = TableReport { sig, counts: table.counts(), longest, bytes, reused, mode, seconds };
            (table, r)
        })
        .collect())
}

/// Solves a pair from the smaller tables, from its checkpoint when there is one, writing
/// checkpoints as it goes.
fn solve(
    dir: &Path,
    smaller: &Tablebase,
    plan: &PairPlan,
    every: Option<Duration>,
    progress: &Progress,
    report: &(dyn Fn(&Event) + Sync),
) -> Result<Vec<(Table, u32)>, TbError> {
    let sig = plan.sigs[0];
    let path = checkpoint_path(dir, sig);
    let (works, mut levels) = match checkpoint::load(&path, &plan.sigs, plan.mode)? {
        Some((works, levels)) => {
            report(&Event::Resumed { sig, level: levels.next });
            progress.add(plan.slots);
            (works, levels)
        }
        None => {
            let works: Vec<Work> = plan.sigs.iter().map(|&s| Work::new(s, plan.mode)).collect();
            let partner = |k: usize| &works[(k + 1) % works.len()].indexer;
            let top = (0..works.len()).map(|k| seed::seed(smaller, &works[k], partner(k), progress)).max();
            (works, Levels { next: 0, top: top.unwrap_or(0) })
        }
    };
    let mut last = Instant::now();
    let save_if_due = |levels: Levels, last: &mut Instant| -> Result<(), TbError> {
        if every.is_some_and(|e| last.elapsed() >= e) {
            checkpoint::save(&path, &works, levels)?;
            report(&Event::Checkpoint { sig, level: levels.next });
            *last = Instant::now();
        }
        Ok(())
    };
    save_if_due(levels, &mut last)?;
    while levels.next <= levels.top {
        let level = levels.next;
        for k in 0..works.len() {
            let partner = &works[(k + 1) % works.len()];
            if retreat::retreat_level(&works[k], partner, level, sig, progress)? {
                levels.top = levels.top.max(level + 1);
            }
        }
        report(&Event::Level { sig, level });
        levels.next = level + 1;
        save_if_due(levels, &mut last)?;
    }
    Ok(works.into_iter().map(finish).collect())
}

/// Sorts a slice and moves its distinct values to the front; returns how many there are.
fn sort_dedup(v: &mut [u64]) -> usize {
    v.sort_unstable();
    let mut n = 0;
    for i in 0..v.len() {
        if n == 0 || v[i] != v[n - 1] {
            v[n] = v[i];
            n += 1;
        }
    }
    n
}
