//! The proven value of every legal turn of a position: the position a turn reaches is looked
//! up in the endgame tables when they cover it, else given to the solver, whose answer counts
//! only once its certificate passes the independent check ([`crate::check`]). A turn whose
//! value is not established within the budget leaves the position unproven: nothing is
//! guessed.

use std::collections::HashMap;
use std::time::Instant;

use fanorona_core::{Move, Position};
use fanorona_tb::symmetry::canonical;
use fanorona_tb::{Tablebase, Wdl};

use crate::check::{Proven, check};
use crate::solver::{SolveError, SolveOptions, solve};

/// A legal turn and what it is worth to the side that plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnValue {
    /// The turn.
    pub mv: Move,
    /// The value of the position for its side to move when it plays this turn.
    pub value: Wdl,
}

/// A position's value and every legal turn's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turns {
    /// The value for the side to move: the best of its turns'.
    pub value: Wdl,
    /// Every legal turn, in the move generator's order.
    pub turns: Vec<TurnValue>,
}

impl Turns {
    /// The turns that keep the value.
    pub fn preserving(&self) -> Vec<Move> {
        self.turns.iter().filter(|t| t.value == self.value).map(|t| t.mv).collect()
    }
}

/// What the prover did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ProverStats {
    /// Positions given to the solver.
    pub solved: u64,
    /// Of those, the ones whose value was proven (and its certificate checked).
    pub proven: u64,
    /// Answers whose certificate could not be built or failed the check (counted as not
    /// proven).
    pub uncertified: u64,
    /// Nodes the solver searched.
    pub nodes: u64,
    /// Seconds in the solver and the checks.
    pub seconds: f64,
}

#[derive(Debug)]
/// Establishes turn values over one set of tables, remembering every answer (positions
/// repeat from one game position to the next).
pub struct Prover<'a> {
    tb: &'a Tablebase,
    opts: SolveOptions,
    /// Value for the side to move of each position asked of the solver (canonical), `None`
    /// when it was not proven.
    known: HashMap<(u64, u64), Option<Wdl>>,
    /// What it did so far.
    pub stats: ProverStats,
}

/// The most answers remembered; past it the memory is cleared.
const MAX_KNOWN: usize = 1 << 20;

impl<'a> Prover<'a> {
    /// A prover over `tb`, solving positions beyond them with `opts` (a node or time budget
    /// per question keeps it short).
    pub fn new(tb: &'a Tablebase, opts: SolveOptions) -> Prover<'a> {
        Prover { tb, opts, known: HashMap::new(), stats: ProverStats::default() }
    }

    /// The value of `pos` and of each of its legal turns, or `None` when a turn's value is not
    /// proven (or the game is over in `pos`).
    ///
    /// # Errors
    /// [`SolveError`] when the solver fails otherwise than by running out of budget.
    pub fn turns(&mut self, pos: &Position) -> Result<Option<Turns>, SolveError> {
        let mut turns = Vec::new();
        for mv in pos.legal_moves() {
            let mut next = *pos;
            next.play_unchecked(&mv);
            let Some(child) = self.value(&next)? else { return Ok(None) };
            turns.push(TurnValue { mv, value: flip(child) });
        }
        let Some(value) = turns.iter().map(|t| t.value).max() else { return Ok(None) };
        Ok(Some(Turns { value, turns }))
    }

    /// The value of `pos` for its side to move: the end of the game, the tables', or the
    /// solver's.
    fn value(&mut self, pos: &Position) -> Result<Option<Wdl>, SolveError> {
        if pos.us().is_empty() {
            return Ok(Some(Wdl::Loss));
        }
        if pos.occupied().count() <= self.tb.max_stones() {
            return Ok(self.tb.probe(pos).ok().map(|v| v.wdl()));
        }
        let key = canonical(pos.us().0, pos.them().0);
        if let Some(&v) = self.known.get(&key) {
            return Ok(v);
        }
        let v = self.solved(pos)?;
        if self.known.len() >= MAX_KNOWN {
            self.known.clear();
        }
        self.known.insert(key, v);
        Ok(v)
    }

    /// The solver's value of `pos`, its certificates checked.
    fn solved(&mut self, pos: &Position) -> Result<Option<Wdl>, SolveError> {
        let start = Instant::now();
        self.stats.solved += 1;
        let solution = match solve(pos, Some(self.tb), &self.opts, &mut |_| {}) {
            Ok(s) => s,
            Err(SolveError::Certificate { .. }) => {
                self.stats.uncertified += 1;
                self.stats.seconds += start.elapsed().as_secs_f64();
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        self.stats.nodes += solution.questions.iter().map(|q| q.stats.nodes).sum::<u64>();
        let claimed = solution.value.and_then(wdl);
        let value = match claimed {
            Some(v) => match check(&solution.proof, Some(self.tb)) {
                Ok((p, _)) if wdl(p) == Some(v) => Some(v),
                _ => {
                    self.stats.uncertified += 1;
                    None
                }
            },
            None => None,
        };
        self.stats.proven += u64::from(value.is_some());
        self.stats.seconds += start.elapsed().as_secs_f64();
        Ok(value)
    }
}

/// A settled value as win, draw or loss (`None` when only one side's question is settled).
fn wdl(p: Proven) -> Option<Wdl> {
    match p {
        Proven::Win => Some(Wdl::Win),
        Proven::Draw => Some(Wdl::Draw),
        Proven::Loss => Some(Wdl::Loss),
        Proven::NotWin(_) => None,
    }
}

/// The value for the other side.
pub fn flip(v: Wdl) -> Wdl {
    match v {
        Wdl::Win => Wdl::Loss,
        Wdl::Draw => Wdl::Draw,
        Wdl::Loss => Wdl::Win,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_tb::{GenerateOptions, generate};

    #[test]
    fn turns_beyond_the_tables_are_solved_and_agree_with_larger_tables() {
        let dir = tempfile::tempdir().unwrap();
        let four = generate(dir.path(), GenerateOptions::new(4, 1), &|_| {}).unwrap();
        let small = tempfile::tempdir().unwrap();
        let two = generate(small.path(), GenerateOptions::new(2, 1), &|_| {}).unwrap();
        let opts = SolveOptions { memory: 4 << 20, nodes: 200_000, ..SolveOptions::default() };
        let mut prover = Prover::new(&two, opts.clone());
        // Four stones: every turn reaches three or four stones, beyond the 2-stone tables.
        for text in ["9/9/W8/9/W1B5B w", "9/1W7/9/2B6/W1B6 b", "4B4/9/9/9/WW7 w"] {
            let pos: Position = text.parse().unwrap();
            let Some(got) = prover.turns(&pos).unwrap() else { panic!("{text}: not proven") };
            let truth = four.root_moves(&pos, 0, 0).unwrap();
            assert_eq!(got.value, four.probe(&pos).unwrap().wdl(), "{text}");
            for t in &got.turns {
                let want = truth.iter().find(|r| r.mv == t.mv).unwrap().value.wdl();
                assert_eq!(t.value, want, "{text} {}", t.mv);
            }
        }
        assert!(prover.stats.solved > 0 && prover.stats.proven == prover.stats.solved, "{:?}", prover.stats);
        // A budget of one node proves nothing: the position is not proven, not guessed.
        let mut starved = Prover::new(&two, SolveOptions { nodes: 1, ..opts });
        let pos: Position = "4B4/9/9/9/WW7 w".parse().unwrap();
        assert_eq!(starved.turns(&pos).unwrap(), None);
    }
}
