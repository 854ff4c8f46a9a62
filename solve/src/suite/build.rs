//! Building a proven suite from the positions of real games: the distinct positions (up to
//! the board's symmetries) within a range of stones, drawn from the stone count with the
//! fewest positions kept so far so that every count is represented, each kept when every turn's value is proven and some turn
//! gives the value away.

use std::collections::BTreeMap;
use std::time::Instant;

use fanorona_core::{Color, Position, Rng};
use fanorona_tb::symmetry::canonical;
use fanorona_tb::{Tablebase, Wdl};

use super::{Suite, SuiteEntry};
use crate::solver::{SolveError, SolveOptions};
use crate::turns::{Prover, ProverStats};

/// What to build.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildOptions {
    /// Positions wanted.
    pub positions: usize,
    /// The fewest stones of a position.
    pub min_stones: u32,
    /// The most stones of a position (beyond the tables' the solver must prove every turn).
    pub max_stones: u32,
    /// Seed of the draw.
    pub seed: u64,
    /// The solver's budget per question.
    pub solve: SolveOptions,
}

/// How far a build is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    /// Candidate positions looked at.
    pub tried: usize,
    /// Candidates in all.
    pub candidates: usize,
    /// Positions kept.
    pub kept: usize,
    /// Positions wanted.
    pub wanted: usize,
}

/// What happened to the candidates of one stone count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoneCounts {
    /// Distinct positions the games hold.
    pub candidates: usize,
    /// Kept in the suite.
    pub kept: usize,
    /// Left out: every turn keeps the value.
    pub skipped: usize,
    /// Left out: a turn's value is not proven.
    pub dropped: usize,
}

/// A build's account.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildReport {
    /// Positions read (before removing copies).
    pub positions_read: usize,
    /// Per stone count.
    pub by_stones: BTreeMap<u32, StoneCounts>,
    /// Kept positions by value.
    pub by_value: BTreeMap<Wdl, usize>,
    /// The solver's work.
    pub prover: ProverStats,
    /// Seconds in all.
    pub seconds: f64,
}

/// Why a build failed.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// The solver failed (not by running out of budget).
    #[error("solving a turn of {position}")]
    Solve {
        /// The position whose turn was being solved.
        position: Position,
        /// Why.
        #[source]
        source: SolveError,
    },
    /// The options ask for nothing sensible.
    #[error("{0}")]
    Options(String),
    /// The turns' values contradict the tables' value of the position (the tables are not
    /// sound).
    #[error("the turns of {position} give it {turns}, its table says {table}: the tables are not sound")]
    Inconsistent {
        /// The position.
        position: Position,
        /// Its value from its turns.
        turns: Wdl,
        /// Its value in its table.
        table: Wdl,
    },
}

impl BuildError {
    /// Whether the error is the input's fault.
    pub fn is_bad_input(&self) -> bool {
        match self {
            BuildError::Solve { source, .. } => source.is_bad_input(),
            BuildError::Options(_) | BuildError::Inconsistent { .. } => true,
        }
    }
}

/// Builds a suite of `opts.positions` positions (fewer when the games hold too few) from the
/// positions `games` gave, over the tables `tb`; `progress` is told after each candidate.
///
/// # Errors
/// [`BuildError`] for options out of range, a solver failure or tables that contradict
/// themselves.
pub fn build(
    games: impl IntoIterator<Item = Position>,
    tb: &Tablebase,
    opts: &BuildOptions,
    progress: &mut dyn FnMut(&BuildProgress),
) -> Result<(Suite, BuildReport), BuildError> {
    let start = Instant::now();
    if opts.positions == 0
        || opts.positions > super::MAX_POSITIONS
        || opts.min_stones < 2
        || opts.min_stones > opts.max_stones
    {
        return Err(BuildError::Options(format!(
            "{} positions of {} to {} stones: want 1 to {} positions of at least 2 stones",
            opts.positions,
            opts.min_stones,
            opts.max_stones,
            super::MAX_POSITIONS
        )));
    }
    let (groups, positions_read) = candidates(games, opts);
    let mut report = BuildReport {
        positions_read,
        by_stones: groups
            .iter()
            .map(|(&s, g)| (s, StoneCounts { candidates: g.len(), ..StoneCounts::default() }))
            .collect(),
        by_value: BTreeMap::new(),
        prover: ProverStats::default(),
        seconds: 0.0,
    };
    let mut prover = Prover::new(tb, opts.solve.clone());
    let mut suite = Suite { tables: tb.max_stones(), ..Suite::default() };
    let mut state = BuildProgress {
        tried: 0,
        candidates: groups.values().map(Vec::len).sum(),
        kept: 0,
        wanted: opts.positions,
    };
    let mut queues: Vec<(u32, std::vec::IntoIter<Position>)> =
        groups.into_iter().map(|(stones, g)| (stones, g.into_iter())).collect();
    while state.kept < opts.positions {
        let Some(pos) = next_candidate(&mut queues, &report.by_stones) else { break };
        let counts = report.by_stones.entry(pos.occupied().count()).or_default();
        match judge(&mut prover, tb, &pos)? {
            Judged::Kept(e) => {
                counts.kept += 1;
                *report.by_value.entry(e.value).or_default() += 1;
                suite.entries.push(e);
                state.kept += 1;
            }
            Judged::Skipped => counts.skipped += 1,
            Judged::Dropped => counts.dropped += 1,
        }
        state.tried += 1;
        progress(&state);
    }
    suite.skipped = report.by_stones.values().map(|c| c.skipped as u64).sum();
    suite.dropped = report.by_stones.values().map(|c| c.dropped as u64).sum();
    suite.entries.sort_by_key(|e| (e.stones(), e.position.to_string()));
    report.prover = prover.stats;
    report.seconds = start.elapsed().as_secs_f64();
    Ok((suite, report))
}

/// What became of a candidate.
enum Judged {
    Kept(SuiteEntry),
    Skipped,
    Dropped,
}

fn judge(prover: &mut Prover<'_>, tb: &Tablebase, pos: &Position) -> Result<Judged, BuildError> {
    let turns = prover.turns(pos).map_err(|source| BuildError::Solve { position: *pos, source })?;
    let Some(turns) = turns else { return Ok(Judged::Dropped) };
    if let Ok(table) = tb.probe(pos).map(|v| v.wdl())
        && table != turns.value
    {
        return Err(BuildError::Inconsistent { position: *pos, turns: turns.value, table });
    }
    let preserving = turns.preserving();
    if preserving.len() == turns.turns.len() {
        return Ok(Judged::Skipped);
    }
    Ok(Judged::Kept(SuiteEntry { position: *pos, value: turns.value, preserving }))
}

/// The distinct positions (one per class under the board's symmetries, seen from the side to
/// move) within the stone range, not over, grouped by stones, each group in its order by
/// position and then shuffled with the seed (the same suite whatever the order of the games);
/// and how many positions were read.
fn candidates(
    games: impl IntoIterator<Item = Position>,
    opts: &BuildOptions,
) -> (BTreeMap<u32, Vec<Position>>, usize) {
    let mut distinct: BTreeMap<(u64, u64), Position> = BTreeMap::new();
    let mut read = 0;
    for pos in games {
        read += 1;
        let stones = pos.occupied().count();
        if !(opts.min_stones..=opts.max_stones).contains(&stones) || pos.is_game_over() {
            continue;
        }
        // Of a position's copies the least (by stones and side) stands for them all.
        let least =
            |p: &Position| (p.stones(Color::White).0, p.stones(Color::Black).0, p.turn() == Color::Black);
        distinct
            .entry(canonical(pos.us().0, pos.them().0))
            .and_modify(|kept| {
                if least(&pos) < least(kept) {
                    *kept = pos;
                }
            })
            .or_insert(pos);
    }
    let mut groups: BTreeMap<u32, Vec<Position>> = BTreeMap::new();
    for pos in distinct.into_values() {
        groups.entry(pos.occupied().count()).or_default().push(pos);
    }
    let mut rng = Rng::new(opts.seed);
    for group in groups.values_mut() {
        for i in (1..group.len()).rev() {
            group.swap(i, rng.below(i as u64 + 1) as usize);
        }
    }
    (groups, read)
}

/// The next candidate of the stone count with the fewest positions kept so far (the fewest
/// stones among equals), so that every count is represented as far as its candidates go.
fn next_candidate(
    queues: &mut Vec<(u32, std::vec::IntoIter<Position>)>,
    counts: &BTreeMap<u32, StoneCounts>,
) -> Option<Position> {
    loop {
        let (i, _) =
            queues.iter().enumerate().min_by_key(|(_, (s, _))| counts.get(s).map_or(0, |c| c.kept))?;
        match queues[i].1.next() {
            Some(pos) => return Some(pos),
            None => {
                queues.remove(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_tb::{GenerateOptions, generate};

    fn pos(text: &str) -> Position {
        text.parse().unwrap()
    }

    #[test]
    fn keeps_proven_positions_with_a_wrong_turn_and_counts_the_rest() {
        let dir = tempfile::tempdir().unwrap();
        let tb = generate(dir.path(), GenerateOptions::new(3, 1), &|_| {}).unwrap();
        let four_dir = tempfile::tempdir().unwrap();
        let four = generate(four_dir.path(), GenerateOptions::new(4, 1), &|_| {}).unwrap();
        // A win (c3d3+ takes both black stones; f2f1- only draws), a draw (c4c3+ takes two
        // stones and loses the last white one), a mirrored copy of the win, and a position
        // with a single turn (skipped).
        let win = pos("9/9/2W1BB3/5W3/9 w");
        let draw = pos("2B6/2W6/9/2B6/2B6 w");
        let games = vec![win, draw, win.mirror_files(), pos("9/9/9/9/W1B6 w")];
        let opts = BuildOptions {
            positions: 10,
            min_stones: 2,
            max_stones: 4,
            seed: 1,
            solve: SolveOptions { memory: 4 << 20, nodes: 100_000, ..SolveOptions::default() },
        };
        let mut calls = 0;
        let (suite, report) = build(games.clone(), &tb, &opts, &mut |_| calls += 1).unwrap();
        assert_eq!((report.positions_read, calls), (4, 3));
        assert_eq!(report.by_stones[&4], StoneCounts { candidates: 2, kept: 2, skipped: 0, dropped: 0 });
        assert_eq!(report.by_stones[&2], StoneCounts { candidates: 1, kept: 0, skipped: 1, dropped: 0 });
        assert_eq!((suite.tables, suite.skipped, suite.dropped), (3, 1, 0));
        // Each kept position is the win or the draw (or a copy), with the turns that keep its
        // value by the tables.
        assert_eq!(suite.entries.len(), 2);
        for e in &suite.entries {
            let copy_of =
                if canonical(e.position.us().0, e.position.them().0) == canonical(win.us().0, win.them().0) {
                    win
                } else {
                    draw
                };
            assert_eq!(e.value, four.probe(&copy_of).unwrap().wdl());
            let keep: Vec<_> = four
                .root_moves(&e.position, 0, 0)
                .unwrap()
                .into_iter()
                .filter(|m| m.value.wdl() == e.value)
                .collect();
            assert_eq!(e.preserving.len(), keep.len(), "{}", e.position);
            assert!(keep.iter().all(|m| e.preserves(&m.mv)));
        }
        assert_eq!(suite.entries.iter().map(|e| e.preserving.len()).sum::<usize>(), 3);
        // The same suite from the games in another order.
        let reversed: Vec<Position> = games.into_iter().rev().collect();
        assert_eq!(build(reversed, &tb, &opts, &mut |_| ()).unwrap().0, suite);
        let bad = BuildOptions { positions: 0, ..opts };
        assert!(build(Vec::new(), &tb, &bad, &mut |_| ()).unwrap_err().is_bad_input());
    }
}
