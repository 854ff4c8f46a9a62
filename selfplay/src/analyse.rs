//! An opening book by analysis: from the start position every legal turn is searched by an
//! engine, the best ones (within a margin of the best, at most a width) are kept and their
//! positions analysed in turn, to a number of turns; each kept turn's score is then the
//! minimax of the analysis below it (the turn's own search where the analysis stops).

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::sync::atomic::AtomicBool;

use fanorona_book::Entry;
use fanorona_book::format::MAX_SCORE;
use fanorona_core::{DrawRules, Game, Position, Turn};
use fanorona_data::ordered::{Workers, run_ordered};
use fanorona_engine::score::{is_forced, win_in};
use fanorona_engine::{Player, PlayerSpec};

use crate::SelfplayError;

/// The most turns an analysis follows.
pub const MAX_ANALYSIS_PLIES: u32 = 40;
/// The most positions an analysis expands; past it the deepest level is cut short
/// ([`AnalysisReport::truncated`]).
pub const MAX_ANALYSIS_POSITIONS: usize = 200_000;

/// What to analyse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisConfig {
    /// Turns from the start position (1 to [`MAX_ANALYSIS_PLIES`]).
    pub plies: u32,
    /// The most turns kept in a position (at least 1).
    pub width: usize,
    /// A turn is kept when its score is within this many centi-stones of the position's best.
    pub margin: i32,
    /// Worker threads (0: one per core); the book is the same whatever the count when the
    /// engine's limit is a depth or a node count.
    pub threads: usize,
}

/// What an analysis did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AnalysisReport {
    /// Positions analysed (each holds at least one kept turn).
    pub positions: u64,
    /// Book entries: kept turns.
    pub entries: u64,
    /// Searches made (one per legal turn of each analysed position).
    pub searches: u64,
    /// Whether [`MAX_ANALYSIS_POSITIONS`] cut the deepest level short.
    pub truncated: bool,
}

/// A kept turn of an analysed position: the position it leads to and its search's score for
/// the side that plays it.
#[derive(Clone, Copy, Debug)]
struct Kept {
    turn: Turn,
    child: Position,
    score: i32,
}

/// One search: a turn of a position, and the position it leads to.
struct Task {
    parent: usize,
    turn: Turn,
    child: Position,
}

/// Analyses the openings with `engine` (an alpha-beta spec) and returns the book's entries,
/// sorted as the file has them, each with its analysed score.
///
/// # Errors
/// [`SelfplayError::Config`] for a configuration out of range, [`SelfplayError::Player`] when
/// the engine cannot be built, [`SelfplayError::Threads`] when a worker cannot be started.
pub fn analyse_book(
    engine: &PlayerSpec,
    config: &AnalysisConfig,
    progress: &mut dyn FnMut(u64),
) -> Result<(Vec<Entry>, AnalysisReport), SelfplayError> {
    check(config)?;
    let threads = if config.threads == 0 { rayon::current_num_threads() } else { config.threads };
    let players = players(engine, threads)?;
    let mut analysed: HashMap<Position, Vec<Kept>> = HashMap::new();
    let mut report = AnalysisReport { positions: 0, entries: 0, searches: 0, truncated: false };
    let mut level = vec![Position::start()];
    for _ in 0..config.plies {
        let room = MAX_ANALYSIS_POSITIONS.saturating_sub(analysed.len());
        if level.len() > room {
            level.truncate(room);
            report.truncated = true;
        }
        if level.is_empty() {
            break;
        }
        let tasks = tasks_of(&level);
        let scores = search_all(&tasks, &players, &mut |n| progress(report.searches + n))?;
        report.searches += tasks.len() as u64;
        let kept = keep(&level, &tasks, &scores, config);
        level = next_level(&kept, &analysed);
        analysed.extend(kept);
    }
    let entries = entries(&analysed);
    report.positions = analysed.len() as u64;
    report.entries = entries.len() as u64;
    Ok((entries, report))
}

fn check(config: &AnalysisConfig) -> Result<(), SelfplayError> {
    if config.plies == 0 || config.plies > MAX_ANALYSIS_PLIES {
        return Err(SelfplayError::Config(format!(
            "plies {} is not between 1 and {MAX_ANALYSIS_PLIES}",
            config.plies
        )));
    }
    if config.width == 0 {
        return Err(SelfplayError::Config("width must be at least 1".into()));
    }
    if !(0..=2 * MAX_SCORE).contains(&config.margin) {
        return Err(SelfplayError::Config(format!(
            "margin {} is not between 0 and {}",
            config.margin,
            2 * MAX_SCORE
        )));
    }
    Ok(())
}

/// One searching player per worker thread ([`crate::rescore::players`]), reused search after
/// search (`new_game` before each, so that a search does not depend on the ones before it).
fn players(engine: &PlayerSpec, threads: usize) -> Result<crate::rescore::Players, SelfplayError> {
    let PlayerSpec::AlphaBeta(ab) = engine else {
        return Err(SelfplayError::Config(format!("{engine} does not search: give an alphabeta spec")));
    };
    if ab.book.is_some() {
        return Err(SelfplayError::Config(format!("{engine} plays from a book: the analysis must search")));
    }
    crate::rescore::Players::new(engine, threads)
}

/// Every legal turn of every position of `level` (turns with the same effect once).
fn tasks_of(level: &[Position]) -> Vec<Task> {
    let mut tasks = Vec::new();
    for (parent, pos) in level.iter().enumerate() {
        let mut turns: Vec<Turn> = Vec::new();
        for m in pos.legal_moves().iter() {
            let turn = m.turn();
            if !turns.contains(&turn) {
                turns.push(turn);
                let mut child = *pos;
                child.play_turn(&turn);
                tasks.push(Task { parent, turn, child });
            }
        }
    }
    tasks
}

/// The score of each task's turn for the side that plays it, in task order.
fn search_all(
    tasks: &[Task],
    players: &crate::rescore::Players,
    progress: &mut dyn FnMut(u64),
) -> Result<Vec<i32>, SelfplayError> {
    let mut scores = Vec::with_capacity(tasks.len());
    let make = |k: usize| -> Result<_, SelfplayError> {
        let mut player = players.lock(k)?;
        Ok(move |i: u64, _: &AtomicBool| Some(Ok(turn_score(player.as_mut(), &tasks[i as usize].child))))
    };
    let threads = players.len().min(tasks.len()).max(1);
    run_ordered(
        Workers { threads, name: "analyse" },
        0..tasks.len() as u64,
        make,
        |_, score| {
            scores.push(score);
            progress(scores.len() as u64);
            Ok(ControlFlow::Continue(()))
        },
        |source| SelfplayError::Threads { threads, source },
    )?;
    Ok(scores)
}

/// The score, for the side that played into it, of `child`: a win in one turn when the side
/// to move there has no turn, else [`parent_score`] of `player`'s search.
fn turn_score(player: &mut dyn Player, child: &Position) -> i32 {
    if child.is_game_over() {
        return win_in(1);
    }
    player.new_game();
    let decision = player.choose(&Game::new(*child, DrawRules::default()));
    parent_score(decision.score.unwrap_or(0))
}

/// A score one turn up the line, for the other side: negated, a forced result one turn further
/// away (as the search counts it), within ±[`MAX_SCORE`].
fn parent_score(child: i32) -> i32 {
    let s = -child;
    let s = if is_forced(s) { s - s.signum() } else { s };
    s.clamp(-MAX_SCORE, MAX_SCORE)
}

/// The kept turns of each position of `level`: within `margin` of its best, the best first
/// (the generated order on ties), at most `width`.
fn keep(
    level: &[Position],
    tasks: &[Task],
    scores: &[i32],
    config: &AnalysisConfig,
) -> Vec<(Position, Vec<Kept>)> {
    let mut by_parent: Vec<Vec<Kept>> = vec![Vec::new(); level.len()];
    for (task, &score) in tasks.iter().zip(scores) {
        by_parent[task.parent].push(Kept { turn: task.turn, child: task.child, score });
    }
    level
        .iter()
        .zip(by_parent)
        .filter_map(|(pos, mut turns)| {
            let best = turns.iter().map(|k| k.score).max()?;
            turns.retain(|k| k.score >= best - config.margin);
            turns.sort_by_key(|k| std::cmp::Reverse(k.score));
            turns.truncate(config.width);
            Some((*pos, turns))
        })
        .collect()
}

/// The positions the kept turns lead to that are not analysed yet and have a turn to play,
/// each once, in order.
fn next_level(kept: &[(Position, Vec<Kept>)], analysed: &HashMap<Position, Vec<Kept>>) -> Vec<Position> {
    let mut seen: HashSet<Position> = kept.iter().map(|(p, _)| *p).collect();
    let mut next = Vec::new();
    for k in kept.iter().flat_map(|(_, turns)| turns) {
        if !k.child.is_game_over() && !analysed.contains_key(&k.child) && seen.insert(k.child) {
            next.push(k.child);
        }
    }
    next
}

/// The book's entries: each kept turn with its minimax score, sorted. The positions are valued
/// in the book's order, so that a line that comes back to a position (paika turns can) is cut
/// at the same place on every run.
fn entries(analysed: &HashMap<Position, Vec<Kept>>) -> Vec<Entry> {
    let mut memo: HashMap<Position, i32> = HashMap::new();
    let mut open: HashSet<Position> = HashSet::new();
    let mut out = Vec::new();
    let mut order: Vec<(&Position, &Vec<Kept>)> = analysed.iter().collect();
    order.sort_unstable_by_key(|(p, _)| fanorona_book::format::position_key(p));
    for (pos, turns) in order {
        open.insert(*pos);
        for k in turns {
            let score = backed_score(k, analysed, &mut memo, &mut open).0;
            out.push(Entry {
                position: *pos,
                turn: k.turn,
                stats: fanorona_book::Stats::default(),
                score: Some(score.clamp(-MAX_SCORE, MAX_SCORE) as i16),
            });
        }
        open.remove(pos);
    }
    out.sort_unstable_by_key(Entry::key);
    out
}

/// A kept turn's score: [`parent_score`] of the value of the position it leads to where that
/// was analysed (and is not on the path being valued), else its own search's score; and
/// whether a line coming back to a position on the path was cut short to get it.
fn backed_score(
    k: &Kept,
    analysed: &HashMap<Position, Vec<Kept>>,
    memo: &mut HashMap<Position, i32>,
    open: &mut HashSet<Position>,
) -> (i32, bool) {
    if open.contains(&k.child) {
        return (k.score, true);
    }
    match analysed.get(&k.child) {
        Some(turns) => {
            let (v, cut) = value(&k.child, turns, analysed, memo, open);
            (parent_score(v), cut)
        }
        None => (k.score, false),
    }
}

/// The minimax value of an analysed position for its side to move (its best kept turn's
/// [`backed_score`]), and whether a line was cut short to get it: such a value depends on the
/// path and is not remembered.
fn value(
    pos: &Position,
    turns: &[Kept],
    analysed: &HashMap<Position, Vec<Kept>>,
    memo: &mut HashMap<Position, i32>,
    open: &mut HashSet<Position>,
) -> (i32, bool) {
    if let Some(&v) = memo.get(pos) {
        return (v, false);
    }
    open.insert(*pos);
    let mut cut = false;
    let v = turns
        .iter()
        .map(|k| {
            let (s, c) = backed_score(k, analysed, memo, open);
            cut |= c;
            s
        })
        .max()
        .unwrap_or(0);
    open.remove(pos);
    if !cut {
        memo.insert(*pos, v);
    }
    (v, cut)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(plies: u32, width: usize, margin: i32, threads: usize) -> AnalysisConfig {
        AnalysisConfig { plies, width, margin, threads }
    }

    fn spec(s: &str) -> PlayerSpec {
        s.parse().unwrap()
    }

    #[test]
    fn one_ply_keeps_the_best_turns_within_the_margin() {
        let engine = spec("alphabeta:depth=2,eval=material");
        let (entries, report) = analyse_book(&engine, &config(1, 10, 0, 1), &mut |_| {}).unwrap();
        let start = Position::start();
        let mut turns: Vec<Turn> = Vec::new();
        for m in start.legal_moves().iter() {
            if !turns.contains(&m.turn()) {
                turns.push(m.turn());
            }
        }
        assert_eq!(report.searches, turns.len() as u64);
        assert_eq!(report.positions, 1);
        // Margin 0: only the turns whose search scores the best.
        let best = entries.iter().filter_map(|e| e.score).max().unwrap();
        assert!(entries.iter().all(|e| e.score == Some(best) && e.position == start));
        // Each score is the negated search of the position the turn leads to.
        let mut player = engine.build(0).unwrap();
        for e in &entries {
            let mut child = start;
            child.play_turn(&e.turn);
            assert_eq!(i32::from(e.score.unwrap()), turn_score(player.as_mut(), &child));
        }
    }

    #[test]
    fn deeper_analysis_backs_scores_up_and_does_not_depend_on_threads() {
        let engine = spec("alphabeta:depth=1,eval=material");
        let (one, r1) = analyse_book(&engine, &config(3, 2, 1000, 1), &mut |_| {}).unwrap();
        let (two, r2) = analyse_book(&engine, &config(3, 2, 1000, 2), &mut |_| {}).unwrap();
        assert_eq!(one, two);
        assert_eq!(r1, r2);
        assert!(r1.positions > 3 && r1.positions <= 1 + 2 + 4, "{r1:?}");
        assert!(one.windows(2).all(|w| w[0].key() < w[1].key()), "sorted, each pair once");
        // A kept turn whose position was analysed scores minus that position's best turn.
        let map: HashMap<Position, Vec<&Entry>> = one.iter().fold(HashMap::new(), |mut m, e| {
            m.entry(e.position).or_default().push(e);
            m
        });
        let mut checked = 0;
        for e in &one {
            let mut child = e.position;
            child.play_turn(&e.turn);
            if let Some(replies) = map.get(&child) {
                let best = replies.iter().filter_map(|r| r.score).max().unwrap();
                let expected = parent_score(i32::from(best));
                assert_eq!(
                    e.score.map(i32::from),
                    Some(expected),
                    "{} {}",
                    e.position,
                    fanorona_book::format::describe(&e.turn)
                );
                checked += 1;
            }
        }
        assert!(checked > 0);
    }

    #[test]
    fn bad_configurations_are_refused() {
        let engine = spec("alphabeta:depth=1,eval=material");
        for c in [
            config(0, 1, 0, 1),
            config(41, 1, 0, 1),
            config(2, 0, 0, 1),
            config(2, 1, -1, 1),
            config(2, 1, i32::MAX, 1),
        ] {
            assert!(matches!(analyse_book(&engine, &c, &mut |_| {}), Err(SelfplayError::Config(_))), "{c:?}");
        }
        let err = analyse_book(&spec("random"), &config(1, 1, 0, 1), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("does not search"), "{err}");
        let book = spec("alphabeta:depth=1,book=x.fbk");
        let err = analyse_book(&book, &config(1, 1, 0, 1), &mut |_| {}).unwrap_err();
        assert!(err.to_string().contains("must search"), "{err}");
    }

    #[test]
    fn forced_results_move_one_turn_further_up_the_line() {
        use fanorona_engine::score::loss_in;
        assert_eq!(parent_score(loss_in(3)), win_in(4));
        assert_eq!(parent_score(win_in(2)), loss_in(3));
        assert_eq!(parent_score(-250), 250);
        assert_eq!(parent_score(loss_in(0)), win_in(1));
        // A position whose side to move has no turn: the turn into it wins in one.
        let mut player = spec("alphabeta:depth=1,eval=material").build(0).unwrap();
        let lost: Position = "9/9/9/9/4W4 b".parse().unwrap();
        assert!(lost.us().is_empty());
        assert_eq!(turn_score(player.as_mut(), &lost), win_in(1));
    }
}
