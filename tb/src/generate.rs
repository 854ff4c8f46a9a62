//! Generating tables: smaller totals first, each signature with its swapped twin (paika turns
//! go from one to the other), by retrograde analysis over paika turns with the capture turns as
//! exits into the smaller tables.
//!
//! 1. Every canonical position is seeded: a side to move that must capture gets its value at
//!    once from the smaller tables (`Win(1)`, `Draw` or `Loss(1)`); one with no legal turn is
//!    `Loss(0)`; any other gets a counter of its distinct successor classes.
//! 2. Level by level (dtc = 0, 1, ...), every position decided at that level is un-moved (paika
//!    turns only, into positions where the mover had no capture): a lost one makes each
//!    undecided predecessor a win at the next level; a won one takes one from each
//!    predecessor's counter, and a counter reaching zero makes that predecessor a loss at the
//!    next level. Counting distinct classes on both sides keeps this exact under symmetry.
//! 3. Positions still undecided are draws.

use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, Ordering};
use std::time::Instant;

use fanorona_core::{Bitboard, Color, Direction, Position, neighbor};
use rayon::prelude::*;

use crate::format::{Counts, EXTENSION, VERSION, read_header, write_table};
use crate::index::Indexer;
use crate::symmetry::canonical;
use crate::table::Table;
use crate::tablebase::load_if_present;
use crate::{Signature, Tablebase, TbError, Value};

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenerateOptions {
    /// Every table up to this many stones in all (2..=7).
    pub stones: u32,
    /// Worker threads (0: one per core).
    pub threads: usize,
}

/// One table, generated or found finished.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TableReport {
    /// Its signature.
    pub sig: Signature,
    /// Wins, draws and losses, over positions up to symmetry.
    pub counts: Counts,
    /// Its size on disk in bytes.
    pub bytes: u64,
    /// Whether a finished file was found and reused.
    pub reused: bool,
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
}

/// Every signature of a generation, in the order they are done.
pub fn plan(stones: u32) -> Vec<Signature> {
    Signature::up_to(stones).collect()
}

/// Generates every table up to `opts.stones` stones into `dir`, reusing the finished files
/// there (an interrupted generation goes on where it stopped). Calls `report` after each table.
///
/// # Errors
/// When `dir` holds a table of another format version or an unsound table (nothing is
/// overwritten then), a file cannot be written, or a dtc overflows the format.
pub fn generate(
    dir: &Path,
    opts: GenerateOptions,
    report: &(dyn Fn(&TableReport) + Sync),
) -> Result<Tablebase, TbError> {
    generate_with_events(dir, opts, &|e| {
        if let Event::Table(r) = e {
            report(r);
        }
    })
}

/// [`generate`], reporting each finished dtc level of the table being solved too.
///
/// # Errors
/// As [`generate`].
pub fn generate_with_events(
    dir: &Path,
    opts: GenerateOptions,
    report: &(dyn Fn(&Event) + Sync),
) -> Result<Tablebase, TbError> {
    if !(2..=crate::MAX_TB_STONES).contains(&opts.stones) {
        return Err(TbError::BadStones(opts.stones));
    }
    check_threads(opts.threads)?;
    // The output is a directory of tables: a file, FIFO or device there is not replaced (nor
    // written into); a symlink to a directory is followed.
    match fs::metadata(dir) {
        Ok(m) if !m.is_dir() => return Err(TbError::NotADirectory { path: dir.to_path_buf() }),
        _ => {}
    }
    fs::create_dir_all(dir).map_err(|source| TbError::Write { path: dir.to_path_buf(), source })?;
    check_versions(dir)?;
    let pool = rayon::ThreadPoolBuilder::new().num_threads(opts.threads).build().map_err(TbError::Threads)?;
    pool.install(|| generate_all(dir, opts.stones, report))
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

fn generate_all(dir: &Path, stones: u32, report: &(dyn Fn(&Event) + Sync)) -> Result<Tablebase, TbError> {
    let mut tb = Tablebase::default();
    for sig in plan(stones).into_iter().filter(|s| s.us() >= s.them()) {
        let twins: Vec<Signature> = if sig.us() == sig.them() { vec![sig] } else { vec![sig, sig.swapped()] };
        let mut found = Vec::new();
        for &s in &twins {
            found.push(load_if_present(&dir.join(s.file_name()), s)?);
        }
        let start = Instant::now();
        let reused: Vec<bool> = found.iter().map(Option::is_some).collect();
        let tables = if reused.iter().all(|&r| r) {
            found.into_iter().flatten().collect()
        } else {
            let solved = solve(&tb, &twins, &|level| report(&Event::Level { sig, level }))?;
            for (table, &r) in solved.iter().zip(&reused) {
                if !r {
                    let sig = table.signature();
                    write_table(&dir.join(sig.file_name()), sig, table.data(), table.counts())?;
                }
            }
            solved
        };
        let seconds = start.elapsed().as_secs_f64();
        for (table, reused) in tables.into_iter().zip(reused) {
            let bytes = fs::metadata(dir.join(table.signature().file_name())).map_or(0, |m| m.len());
            let seconds = if reused { 0.0 } else { seconds };
            let r = TableReport { sig: table.signature(), counts: table.counts(), bytes, reused, seconds };
            report(&Event::Table(r));
            tb.insert(table);
        }
    }
    Ok(tb)
}

/// A table being solved: one state byte (a [`Value`] byte, 0 while undecided) and one counter
/// per slot.
struct Work {
    indexer: Indexer,
    values: Vec<AtomicU8>,
    counters: Vec<AtomicU8>,
}

impl Work {
    fn new(sig: Signature) -> Work {
        let indexer = Indexer::new(sig);
        let n = indexer.len() as usize;
        Work {
            indexer,
            values: (0..n).map(|_| AtomicU8::new(0)).collect(),
            counters: (0..n).map(|_| AtomicU8::new(0)).collect(),
        }
    }
}

/// Solves a signature and its twin (or a symmetric signature alone) from the smaller tables.
fn solve(smaller: &Tablebase, sigs: &[Signature], on_level: &dyn Fn(u32)) -> Result<Vec<Table>, TbError> {
    let works: Vec<Work> = sigs.iter().map(|&s| Work::new(s)).collect();
    let partner = |k: usize| if works.len() == 1 { 0 } else { 1 - k };
    let top = AtomicU32::new(0);
    for (k, w) in works.iter().enumerate() {
        (0..w.values.len()).into_par_iter().for_each(|i| {
            if let Some(level) = seed(smaller, w, &works[partner(k)].indexer, i) {
                top.fetch_max(level, Ordering::Relaxed);
            }
        });
    }
    let overflow = AtomicBool::new(false);
    let mut level = 0;
    while level <= top.load(Ordering::Relaxed) {
        for (k, w) in works.iter().enumerate() {
            (0..w.values.len()).into_par_iter().for_each(|i| {
                match retreat(w, &works[partner(k)], i, level) {
                    Retreat::Decided => {
                        top.fetch_max(level + 1, Ordering::Relaxed);
                    }
                    Retreat::Overflow => overflow.store(true, Ordering::Relaxed),
                    Retreat::Nothing => {}
                }
            });
        }
        if overflow.load(Ordering::Relaxed) {
            return Err(TbError::DtcOverflow { sig: sigs[0], dtc: level + 1 });
        }
        on_level(level);
        level += 1;
    }
    Ok(works.into_iter().map(finish).collect())
}

/// Seeds slot `i`: returns the level it is decided at, if it is.
fn seed(smaller: &Tablebase, w: &Work, partner: &Indexer, i: usize) -> Option<u32> {
    let (us, them) = w.indexer.position(i as u64);
    if canonical(us, them) != (us, them) {
        return None;
    }
    let pos = Position::from_stones(Bitboard(us), Bitboard(them), Color::White).ok()?;
    let value = if pos.has_capture() {
        capture_value(smaller, &pos)
    } else {
        let mut children = [0u64; 64];
        let mut n = 0;
        for mv in pos.legal_moves() {
            let mut next = pos;
            next.play_unchecked(&mv);
            if let Some(j) = partner.index(next.us().0, next.them().0)
                && n < children.len()
            {
                children[n] = j;
                n += 1;
            }
        }
        let distinct = sort_dedup(&mut children[..n]);
        if distinct == 0 {
            Value::Loss(0)
        } else {
            w.counters[i].store(distinct as u8, Ordering::Relaxed);
            return None;
        }
    };
    w.values[i].store(value.encode().unwrap_or(0), Ordering::Relaxed);
    value.dtc()
}

/// The value of a position whose side to move must capture: every turn leads to a smaller
/// table or ends the game.
fn capture_value(smaller: &Tablebase, pos: &Position) -> Value {
    let mut best = Value::Loss(1);
    for mv in pos.legal_moves() {
        let mut next = *pos;
        next.play_unchecked(&mv);
        if next.us().is_empty() {
            return Value::Win(1);
        }
        match smaller.value(next.us().0, next.them().0) {
            Some(Value::Loss(_)) => return Value::Win(1),
            Some(Value::Draw) => best = Value::Draw,
            Some(Value::Win(_)) => {}
            None => debug_assert!(false, "smaller table missing for {next}"),
        }
    }
    best
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

/// What un-moving one position did.
enum Retreat {
    /// It was not decided at this level, or decided nothing new.
    Nothing,
    /// It decided a predecessor.
    Decided,
    /// It would have decided a predecessor with a dtc beyond the format.
    Overflow,
}

/// The predecessors of a position (`us` to move) by a paika turn of `them`, in canonical form
/// in `partner`, distinct; returns how many were written to `out`.
fn predecessors(us: u64, them: u64, partner: &Indexer, out: &mut [u64; 64]) -> usize {
    let mut n = 0;
    let empty = !(us | them) & Bitboard::ALL.0;
    for p in Bitboard(them) {
        for d in Direction::ALL {
            let Some(q) = neighbor(p, d).filter(|q| empty & (1 << q.index()) != 0) else { continue };
            let before = them & !(1 << p.index()) | 1 << q.index();
            let Ok(prev) = Position::from_stones(Bitboard(before), Bitboard(us), Color::White) else {
                continue;
            };
            if prev.has_capture() {
                continue;
            }
            if let Some(j) = partner.index(before, us)
                && n < out.len()
            {
                out[n] = j;
                n += 1;
            }
        }
    }
    sort_dedup(&mut out[..n])
}

/// Un-moves slot `i` of `w` if it was decided at `level`, deciding predecessors in `partner`
/// at `level + 1`.
fn retreat(w: &Work, partner: &Work, i: usize, level: u32) -> Retreat {
    let value = Value::decode(w.values[i].load(Ordering::Relaxed));
    if value.dtc() != Some(level) {
        return Retreat::Nothing;
    }
    let (us, them) = w.indexer.position(i as u64);
    let mut preds = [0u64; 64];
    let n = predecessors(us, them, &partner.indexer, &mut preds);
    let lost = matches!(value, Value::Loss(_));
    let next = if lost { Value::Win(level + 1) } else { Value::Loss(level + 1) };
    let mut result = Retreat::Nothing;
    for &j in &preds[..n] {
        let j = j as usize;
        let decide = lost || partner.counters[j].fetch_sub(1, Ordering::Relaxed) == 1;
        if !decide || partner.values[j].load(Ordering::Relaxed) != 0 {
            continue;
        }
        let Ok(byte) = next.encode() else { return Retreat::Overflow };
        if partner.values[j].compare_exchange(0, byte, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
            result = Retreat::Decided;
        }
    }
    result
}

/// The finished table: non-canonical slots copied from their canonical form, counts taken.
fn finish(w: Work) -> Table {
    let Work { indexer, values, .. } = w;
    let (data, counts): (Vec<u8>, Counts) = {
        let slots: Vec<(u8, bool)> = (0..values.len())
            .into_par_iter()
            .map(|i| {
                let (us, them) = indexer.position(i as u64);
                let c = canonical(us, them);
                if c == (us, them) {
                    (values[i].load(Ordering::Relaxed), true)
                } else {
                    let j = indexer.index_canonical(c.0, c.1).unwrap_or(i as u64) as usize;
                    (values[j].load(Ordering::Relaxed), false)
                }
            })
            .collect();
        let mut counts = Counts::default();
        for &(b, canon) in &slots {
            if canon {
                match Value::decode(b) {
                    Value::Win(_) => counts.wins += 1,
                    Value::Draw => counts.draws += 1,
                    Value::Loss(_) => counts.losses += 1,
                }
            }
        }
        (slots.into_iter().map(|(b, _)| b).collect(), counts)
    };
    Table::new(indexer, data, counts)
}
