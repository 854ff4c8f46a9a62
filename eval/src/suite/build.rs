//! Building a suite by analysis: every position a few turns from the start, the decided ones
//! and symmetric copies left out, a sample of them scored by a deep search, the ones whose
//! score lies in a window kept.

use std::collections::HashSet;
use std::ops::ControlFlow;

use fanorona_core::{DrawRules, Game, Position, Rng};
use fanorona_data::ordered::{Workers, run_ordered};
use fanorona_engine::PlayerSpec;
use serde::Serialize;

use super::{MAX_IMBALANCE, Suite, SuiteEntry, canonical};
use crate::EvalError;
use crate::openings::is_undecided;

/// The most turns from the start a suite's positions may lie (the positions reachable grow
/// about twenty-fold a turn).
pub const MAX_PLIES: u32 = 8;

/// The most distinct positions gathered on the way to a suite's turn (a bound on memory).
pub const MAX_REACHABLE: usize = 4_000_000;

/// How a suite is built.
#[derive(Clone, Debug)]
pub struct SuiteBuild {
    /// Turns from the start position.
    pub plies: u32,
    /// The analysing player (a deep search).
    pub search: PlayerSpec,
    /// The scores kept: the side ahead's lead (the score's absolute value) from `.0` to `.1`
    /// centi-stones, both included.
    pub window: (i32, i32),
    /// Positions analysed at most, drawn at random from the candidates (all when `None`).
    pub sample: Option<usize>,
    /// Entries kept at most.
    pub max_entries: usize,
    /// Seed of the sample and of the entries' order.
    pub seed: u64,
    /// Positions analysed at once.
    pub threads: usize,
}

/// What a build found: the counts at each step and the suite.
#[derive(Clone, Debug, Serialize)]
pub struct BuildReport {
    /// Distinct positions after the turns.
    pub reachable: usize,
    /// Of those, not decided already ([`is_undecided`], at most [`MAX_IMBALANCE`] stones apart).
    pub undecided: usize,
    /// Of those, one of each set of symmetric copies.
    pub distinct: usize,
    /// Analysed (the sample).
    pub analysed: usize,
    /// Scored as forced results (left out).
    pub forced: usize,
    /// Scored inside the window.
    pub in_window: usize,
    /// The absolute scores analysed, in bands of 10 centi-stones up to 300 and one above
    /// (`[0-9, 10-19, ..., 290-299, 300+]`), forced results left out.
    pub histogram: Vec<u64>,
    /// The suite (at most `max_entries` of the positions in the window, in a random order).
    #[serde(skip)]
    pub suite: Suite,
}

/// Progress of the analysis.
#[derive(Clone, Copy, Debug)]
pub struct BuildProgress {
    /// Positions analysed.
    pub done: usize,
    /// Positions to analyse.
    pub total: usize,
    /// Kept so far.
    pub kept: usize,
}

/// Every distinct position after exactly `plies` turns from the start, in the order a
/// breadth-first walk meets them (the same on every run).
///
/// # Errors
/// [`EvalError::Config`] when `plies` is above [`MAX_PLIES`] or the positions are more than
/// [`MAX_REACHABLE`].
pub fn reachable(plies: u32) -> Result<Vec<Position>, EvalError> {
    if plies > MAX_PLIES {
        return Err(EvalError::Config(format!(
            "a suite's positions lie at most {MAX_PLIES} turns from the start"
        )));
    }
    let mut level = vec![Position::start()];
    for turn in 0..plies {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for p in &level {
            for m in p.legal_moves().iter() {
                let mut q = *p;
                q.play_unchecked(m);
                if seen.insert(q) {
                    next.push(q);
                }
            }
            if next.len() > MAX_REACHABLE {
                return Err(EvalError::Config(format!(
                    "more than {MAX_REACHABLE} distinct positions after {} turns: use fewer turns",
                    turn + 1
                )));
            }
        }
        level = next;
    }
    Ok(level)
}

/// The candidates of a build: undecided, one of each symmetric set, a random sample of them.
fn candidates(cfg: &SuiteBuild) -> Result<(Vec<Position>, [usize; 3]), EvalError> {
    let all = reachable(cfg.plies)?;
    let undecided: Vec<Position> = all.iter().copied().filter(|p| is_undecided(p, MAX_IMBALANCE)).collect();
    let mut keys = HashSet::new();
    let mut distinct: Vec<Position> =
        undecided.iter().copied().filter(|p| keys.insert(canonical(p))).collect();
    let counts = [all.len(), undecided.len(), distinct.len()];
    let mut rng = Rng::derive(cfg.seed, 0x5017E);
    for i in (1..distinct.len()).rev() {
        distinct.swap(i, rng.below(i as u64 + 1) as usize);
    }
    distinct.truncate(cfg.sample.unwrap_or(usize::MAX));
    Ok((distinct, counts))
}

/// Checks the settings of a build before any work.
fn check(cfg: &SuiteBuild) -> Result<(), EvalError> {
    let bad = |reason: String| Err(EvalError::Config(reason));
    if !matches!(cfg.search, PlayerSpec::AlphaBeta(ref a) if a.has_limit()) {
        return bad(format!("the analysis needs an alpha-beta search with a limit, not {}", cfg.search));
    }
    if cfg.window.0 < 0 || cfg.window.0 > cfg.window.1 {
        return bad(format!(
            "window {}..{}: expected 0 <= LO <= HI (centi-stones)",
            cfg.window.0, cfg.window.1
        ));
    }
    if cfg.max_entries == 0 || cfg.max_entries > super::MAX_ENTRIES {
        return bad(format!("a suite holds 1 to {} entries", super::MAX_ENTRIES));
    }
    if cfg.sample == Some(0) || cfg.threads == 0 {
        return bad("the sample and the threads must be at least 1".into());
    }
    cfg.search
        .build(cfg.seed)
        .map(drop)
        .map_err(|e| EvalError::Spec { spec: cfg.search.to_string(), reason: e.to_string() })
}

/// Builds a suite (see [`SuiteBuild`]), calling `progress` after each analysed position.
/// Deterministic given the settings: each position is searched by a fresh player.
///
/// # Errors
/// [`EvalError::Config`] or [`EvalError::Spec`] for bad settings (before any search),
/// [`EvalError::Config`] when no position lands in the window.
pub fn build_suite(
    cfg: &SuiteBuild,
    progress: &mut dyn FnMut(&BuildProgress),
) -> Result<BuildReport, EvalError> {
    check(cfg)?;
    let (positions, [reachable, undecided, distinct]) = candidates(cfg)?;
    let mut report = BuildReport {
        reachable,
        undecided,
        distinct,
        analysed: positions.len(),
        forced: 0,
        in_window: 0,
        histogram: vec![0; 31],
        suite: Suite { comments: comments(cfg), entries: Vec::new() },
    };
    let total = positions.len();
    let rules = DrawRules::default();
    let make = |_| {
        cfg.search
            .build(cfg.seed)
            .map_err(|e| EvalError::Spec { spec: cfg.search.to_string(), reason: e.to_string() })
    };
    let mut done = 0;
    let positions = &positions;
    run_ordered(
        Workers { threads: cfg.threads, name: "suite" },
        0..total as u64,
        |k| {
            let mut player = make(k)?;
            Ok(move |i: u64, _: &std::sync::atomic::AtomicBool| {
                player.new_game();
                let pos = positions[i as usize];
                Some(Ok::<_, EvalError>((pos, player.choose(&Game::new(pos, rules)).score)))
            })
        },
        |_, (position, score)| {
            done += 1;
            tally(cfg, &mut report, position, score);
            progress(&BuildProgress { done, total, kept: report.suite.entries.len() });
            Ok(ControlFlow::Continue(()))
        },
        |source| EvalError::Threads { threads: cfg.threads, source },
    )?;
    if report.suite.entries.is_empty() {
        return Err(EvalError::Config(format!(
            "none of the {total} positions analysed scored within {}..{} centi-stones",
            cfg.window.0, cfg.window.1
        )));
    }
    Ok(report)
}

/// Counts one analysed position, and keeps it when its score is in the window.
fn tally(cfg: &SuiteBuild, report: &mut BuildReport, position: Position, score: Option<i32>) {
    let Some(score) = score.filter(|s| !fanorona_engine::score::is_forced(*s)) else {
        report.forced += 1;
        return;
    };
    let lead = score.abs();
    report.histogram[(lead / 10).min(30) as usize] += 1;
    if (cfg.window.0..=cfg.window.1).contains(&lead) {
        report.in_window += 1;
        if report.suite.entries.len() < cfg.max_entries {
            report.suite.entries.push(SuiteEntry { position, score });
        }
    }
}

/// The header comments of a suite: how it was built.
fn comments(cfg: &SuiteBuild) -> Vec<String> {
    vec![
        "built by fanorona suite build".into(),
        format!("plies {}, analysis {}", cfg.plies, cfg.search),
        format!("window {}..{} centi-stones for the side ahead", cfg.window.0, cfg.window.1),
        format!("seed {}, sample {}", cfg.seed, cfg.sample.map_or("all".into(), |n| n.to_string())),
        "entry: board, side to move, the analysis's score for the side to move (centi-stones)".into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachable_counts_match_perft_where_no_two_lines_meet() {
        assert_eq!(reachable(0).unwrap(), [Position::start()]);
        // Five first turns, all different positions.
        assert_eq!(reachable(1).unwrap().len(), 5);
        // perft 2 = 39 lines: distinct positions are at most that many.
        let two = reachable(2).unwrap();
        assert!(two.len() <= 39 && two.len() > 5, "{}", two.len());
        assert!(reachable(MAX_PLIES + 1).is_err());
    }

    fn cfg(window: (i32, i32)) -> SuiteBuild {
        SuiteBuild {
            plies: 2,
            search: "alphabeta:depth=2,eval=material".parse().unwrap(),
            window,
            sample: None,
            max_entries: 1000,
            seed: 1,
            threads: 2,
        }
    }

    #[test]
    fn a_build_keeps_distinct_undecided_positions_in_the_window_deterministically() {
        let all = build_suite(&cfg((0, 10_000)), &mut |_| {}).unwrap();
        assert_eq!(all.analysed, all.distinct);
        assert!(all.distinct <= all.undecided && all.undecided < all.reachable, "{all:?}");
        assert_eq!(all.suite.entries.len() + all.forced, all.analysed);
        assert_eq!(all.histogram.iter().sum::<u64>() as usize, all.analysed - all.forced);
        // The same on one thread; the window keeps exactly the scores inside it.
        let one = build_suite(&SuiteBuild { threads: 1, ..cfg((0, 10_000)) }, &mut |_| {}).unwrap();
        assert_eq!(one.suite, all.suite);
        let level = build_suite(&cfg((0, 0)), &mut |_| {}).unwrap();
        assert!(level.suite.entries.iter().all(|e| e.score == 0));
        let want = all.suite.entries.iter().filter(|e| e.score == 0).count();
        assert_eq!(level.suite.entries.len(), want);
        // The file reads back.
        let text = all.suite.to_text();
        assert_eq!(Suite::parse(text.as_bytes(), "x").unwrap(), all.suite);
        // Sampled and capped.
        let few =
            build_suite(&SuiteBuild { sample: Some(3), max_entries: 2, ..cfg((0, 10_000)) }, &mut |_| {})
                .unwrap();
        assert_eq!(few.analysed, 3);
        assert!(few.suite.entries.len() <= 2);
    }

    #[test]
    fn bad_settings_are_refused_before_any_search() {
        let e = |c: SuiteBuild| build_suite(&c, &mut |_| panic!("searched")).unwrap_err().to_string();
        assert!(e(SuiteBuild { window: (20, 10), ..cfg((0, 1)) }).contains("window 20..10"));
        assert!(e(SuiteBuild { search: PlayerSpec::Greedy, ..cfg((0, 1)) }).contains("alpha-beta"));
        assert!(e(SuiteBuild { max_entries: 0, ..cfg((0, 1)) }).contains("entries"));
        let net = "alphabeta:depth=2,eval=net:/nonexistent.fnet".parse().unwrap();
        assert!(e(SuiteBuild { search: net, ..cfg((0, 1)) }).contains("nonexistent"));
        // Nothing inside a window no score reaches.
        let none = build_suite(&cfg((20_000, 20_000)), &mut |_| {}).unwrap_err().to_string();
        assert!(none.contains("none of the"), "{none}");
    }
}
