//! The search benchmark: fixed positions searched to a fixed depth. The total node count is a
//! determinism signature (it changes only when search behaviour changes); nodes per second is
//! the speed figure.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use fanorona_core::{Move, Position};

use crate::eval::Evaluator;
use crate::search::{Limits, SearchRoot, Searcher};

/// The default bench depth.
pub const DEFAULT_BENCH_DEPTH: u32 = 8;

/// Transposition table size used by the bench, in MiB.
pub const BENCH_HASH_MIB: usize = 16;

/// The bench positions: the start, then positions reached by fixed turn sequences from it
/// (random play, seeds 1-6, recorded once), from the opening to the endgame.
pub const BENCH_POSITIONS: [&str; 7] = [
    "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
    // d3e3+ d4d3+ e3d2-,d2d1- c3d3-,d3d2+,d2e3-,e3d4-
    "BBBBBB1BB/BBBBB1BBB/B5WBW/WWW1W1WWW/WW2WW1WW w",
    // d2e3+ h4g5-,g5f4+ e2e3+ f4g5- d3e3- c4c3+,c3d2+,d2d3- b3c3-,c3d2- f3f4-
    "1BBB1BBBB/B2B1BB1B/3BW1WB1/WW1W2WWW/WW4WWW w",
    // d3e3+ d4d3+ e1d2+,d2d1- c4c3+,c3d4- b3b4+,b4c4+ e5e4+,e4d4+,d4e3+,e3f3+ a2a1- h3h4- ...
    "2B1BBBB1/7B1/8W/4B3W/WW1W4W w",
    "1B3BB2/3B4B/1B7/7W1/3W4W w",
    "2B5B/9/1B2W3B/W8/W1W4B1 w",
    "9/9/6W2/3B5/5W1W1 w",
];

/// One bench position's result.
#[derive(Debug, Clone)]
pub struct BenchLine {
    /// The position.
    pub position: Position,
    /// The best turn found (`None` when there is none).
    pub best: Option<Move>,
    /// Its score.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// Processor time of the searching thread (one-thread searches where it can be read: see
    /// [`crate::thread_time`]).
    pub cpu: Option<Duration>,
}

/// The bench's figures.
#[derive(Debug, Clone)]
pub struct BenchReport {
    /// The depth searched.
    pub depth: u32,
    /// The evaluator's name.
    pub eval: String,
    /// Search threads.
    pub threads: usize,
    /// Each position.
    pub lines: Vec<BenchLine>,
    /// Total nodes: the determinism signature.
    pub nodes: u64,
    /// Total search time.
    pub elapsed: Duration,
    /// Total processor time of the searching thread, when every line has one.
    pub cpu: Option<Duration>,
}

impl BenchReport {
    /// Nodes per second over the whole bench (wall clock).
    pub fn nodes_per_second(&self) -> f64 {
        per_second(self.nodes, self.elapsed)
    }

    /// Nodes per second of the searching thread's processor time (one thread), or `None`
    /// where that time cannot be read: on a shared machine the figure least moved by other
    /// work, since the time the thread waits for a core is not counted.
    pub fn nodes_per_cpu_second(&self) -> Option<f64> {
        self.cpu.map(|cpu| per_second(self.nodes, cpu))
    }
}

fn per_second(nodes: u64, time: Duration) -> f64 {
    let s = time.as_secs_f64();
    if s > 0.0 { nodes as f64 / s } else { 0.0 }
}

/// Searches every bench position to `depth` with `eval` (a fresh searcher and
/// [`BENCH_HASH_MIB`] MiB table per position, so each line is reproducible on its own).
pub fn run_bench(depth: u32, eval: &dyn Evaluator) -> BenchReport {
    run_bench_threads(depth, eval, 1)
}

/// [`run_bench`] on `threads` threads sharing each position's table: the nodes count every
/// thread's, so on more than one thread they are no signature (the helpers' timing changes
/// them), only a speed figure.
pub fn run_bench_threads(depth: u32, eval: &dyn Evaluator, threads: usize) -> BenchReport {
    let lines = bench_positions().map(|p| bench_line(p, depth, eval, threads)).collect();
    BenchReport::from_lines(depth, eval.name(), threads, lines)
}

/// The bench positions, parsed.
pub fn bench_positions() -> impl Iterator<Item = Position> {
    BENCH_POSITIONS.iter().filter_map(|text| text.parse::<Position>().ok())
}

/// Searches one position to `depth` with `eval` on `threads` threads (a fresh searcher and
/// [`BENCH_HASH_MIB`] MiB table).
pub fn bench_line(position: Position, depth: u32, eval: &dyn Evaluator, threads: usize) -> BenchLine {
    let mut searcher = Searcher::new(eval.box_clone(), BENCH_HASH_MIB);
    searcher.set_threads(threads);
    let (r, _, cpu) = crate::thread_time::timed(|| {
        searcher.search(
            &SearchRoot::new(position),
            Limits::depth(depth),
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        )
    });
    // Other threads' time is not the calling thread's: only one thread has a processor time.
    let cpu = cpu.filter(|_| threads == 1);
    BenchLine { position, best: r.best, score: r.score, nodes: r.nodes, elapsed: r.elapsed, cpu }
}

impl BenchReport {
    /// The report of `lines`, their nodes and times summed.
    pub fn from_lines(depth: u32, eval: String, threads: usize, lines: Vec<BenchLine>) -> BenchReport {
        BenchReport {
            depth,
            eval,
            threads,
            nodes: lines.iter().map(|l| l.nodes).sum(),
            elapsed: lines.iter().map(|l| l.elapsed).sum(),
            cpu: lines.iter().map(|l| l.cpu).sum(),
            lines,
        }
    }

    /// Keeps, for each line, the faster of its times here and in `other` (the same bench run
    /// again: the minimum of repeated timings is the one least disturbed by other work), wall
    /// clock and processor time each.
    pub fn keep_faster(&mut self, other: &BenchReport) {
        for (line, again) in self.lines.iter_mut().zip(&other.lines) {
            line.elapsed = line.elapsed.min(again.elapsed);
            line.cpu = line.cpu.zip(again.cpu).map(|(a, b)| a.min(b));
        }
        self.elapsed = self.lines.iter().map(|l| l.elapsed).sum();
        self.cpu = self.lines.iter().map(|l| l.cpu).sum();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::Material;

    #[test]
    fn positions_parse_and_bench_is_deterministic() {
        for t in BENCH_POSITIONS {
            let p: Position = t.parse().unwrap_or_else(|e| panic!("{t}: {e}"));
            assert!(!p.is_game_over(), "{t}");
        }
        let a = run_bench(3, &Material);
        let b = run_bench(3, &Material);
        assert_eq!(a.lines.len(), BENCH_POSITIONS.len());
        assert_eq!(a.nodes, b.nodes);
        assert!(a.nodes > 0);
        for (x, y) in a.lines.iter().zip(&b.lines) {
            assert_eq!((x.best, x.score, x.nodes), (y.best, y.score, y.nodes));
        }
    }

    #[test]
    fn bench_runs_on_two_threads() {
        let two = run_bench_threads(4, &Material, 2);
        assert_eq!((two.threads, two.lines.len()), (2, BENCH_POSITIONS.len()));
        assert!(two.lines.iter().all(|l| l.best.is_some() && l.nodes > 0));
        assert_eq!(two.cpu, None);
        assert_eq!(run_bench(4, &Material).threads, 1);
    }

    #[test]
    fn keep_faster_takes_each_lines_minimum() {
        let line = |nodes, ms| BenchLine {
            position: Position::start(),
            best: None,
            score: 0,
            nodes,
            elapsed: Duration::from_millis(ms),
            cpu: Some(Duration::from_millis(ms / 2)),
        };
        let mut a = BenchReport::from_lines(8, "x".into(), 1, vec![line(100, 30), line(50, 10)]);
        let b = BenchReport::from_lines(8, "x".into(), 1, vec![line(100, 20), line(50, 40)]);
        assert_eq!(a.elapsed, Duration::from_millis(40));
        a.keep_faster(&b);
        assert_eq!(a.elapsed, Duration::from_millis(30));
        assert_eq!(
            (a.nodes, a.lines[0].elapsed, a.lines[1].elapsed),
            (150, Duration::from_millis(20), Duration::from_millis(10))
        );
        assert_eq!(a.nodes_per_second(), 5000.0);
        assert_eq!(a.cpu, Some(Duration::from_millis(15)));
        assert_eq!(a.nodes_per_cpu_second(), Some(10_000.0));
        // A line without a processor time leaves the report without one.
        let mut c = BenchReport::from_lines(
            8,
            "x".into(),
            1,
            vec![line(100, 30), BenchLine { cpu: None, ..line(50, 10) }],
        );
        assert_eq!(c.cpu, None);
        c.keep_faster(&b);
        assert_eq!((c.cpu, c.nodes_per_cpu_second()), (None, None));
    }
}
