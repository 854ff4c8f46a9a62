//! The engine's side of a protocol session.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use fanorona_book::Book;
use fanorona_core::{Color, DrawRules, Game, Position};

use super::command::{Command, Go, parse_command};
use super::line::{Line, LineReader, MAX_LINE};
use crate::score::forced;
use crate::search::{Info, Limits, MAX_HASH_MIB, SearchRoot, Searcher, available_threads, check_threads};
use crate::spec::{EvalSpec, MAX_QWIDTH};
use crate::tablebase::open_shared;

/// The engine's settings at start (changed later by `setoption`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineConfig {
    /// The evaluator.
    pub eval: EvalSpec,
    /// Transposition table size in MiB.
    pub hash_mib: usize,
    /// Search threads (option `Threads`; 1: deterministic).
    pub threads: usize,
    /// The draw rules the games are played under (options `QuietLimit` and `LengthLimit`).
    pub rules: DrawRules,
    /// A directory of endgame tables to probe (option `TablebasePath`; empty for none).
    pub tb: Option<PathBuf>,
    /// Captures searched at each quiescence node past the first turn (option
    /// `QuiescenceWidth`; 0: every one).
    pub qwidth: usize,
    /// An opening book (option `BookFile`; empty for none).
    pub book: Option<PathBuf>,
    /// Whether turns are taken from the book while it holds the position (option `OwnBook`).
    pub own_book: bool,
}

impl Default for EngineConfig {
    fn default() -> EngineConfig {
        EngineConfig {
            eval: EvalSpec::Handcrafted,
            hash_mib: crate::spec::DEFAULT_HASH_MIB,
            threads: 1,
            rules: DrawRules::default(),
            tb: None,
            qwidth: 0,
            book: None,
            own_book: false,
        }
    }
}

type Shared<W> = Arc<Mutex<W>>;

/// The largest value of the draw-rule options, in turns.
const OPTION_MAX: u32 = 100_000;

/// The searcher of `config`: its evaluator, a table of exactly its size, its threads and
/// tables. The error says what the machine could not give.
fn build_searcher(config: &EngineConfig) -> Result<Searcher, String> {
    searcher_with(config, config.eval.build().map_err(|e| e.to_string())?)
}

/// [`build_searcher`] with the evaluator already built.
fn searcher_with(config: &EngineConfig, eval: Box<dyn crate::eval::Evaluator>) -> Result<Searcher, String> {
    let threads = check_threads(config.threads).map_err(|e| format!("Threads: {e}"))?;
    let mut searcher = Searcher::try_new(eval, config.hash_mib).map_err(|e| format!("Hash: {e}"))?;
    searcher.set_threads(threads);
    searcher.set_quiescence_width(config.qwidth);
    if let Some(dir) = &config.tb {
        searcher.set_tablebase(Some(open_shared(dir).map_err(|e| e.to_string())?));
    }
    Ok(searcher)
}

fn send<W: Write>(out: &Shared<W>, line: &str) -> io::Result<()> {
    let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
    w.write_all(line.as_bytes())?;
    w.write_all(b"\n")?;
    w.flush()
}

struct Running {
    stop: Arc<AtomicBool>,
    /// Raised just before `bestmove` is sent: the thread is about to end.
    answered: Arc<AtomicBool>,
    handle: JoinHandle<io::Result<Searcher>>,
    /// The search has no limit: it runs until `stop`.
    infinite: bool,
}

struct Session<W: Write + Send + 'static> {
    out: Shared<W>,
    config: EngineConfig,
    searcher: Option<Searcher>,
    running: Option<Running>,
    game: Game,
    book: Option<Arc<Book>>,
}

/// Runs a protocol session: reads commands from `input` until `quit` or the end of input,
/// writes the answers to `output`. Bad lines are answered with `info string` and ignored.
///
/// # Errors
/// When `output` cannot be written (the runner went away) or `input` cannot be read.
pub fn run_engine<R: BufRead, W: Write + Send + 'static>(
    input: R,
    output: W,
    config: EngineConfig,
) -> io::Result<()> {
    let out = Arc::new(Mutex::new(output));
    let searcher = build_searcher(&config).map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let book = config
        .book
        .as_deref()
        .map(crate::book::open_shared)
        .transpose()
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    let mut s = Session {
        book,
        out,
        config,
        searcher: Some(searcher),
        running: None,
        game: Game::new(Position::start(), no_limits()),
    };
    let mut lines = LineReader::new(input, MAX_LINE);
    loop {
        let line = match lines.next_line()? {
            Line::Text(t) => t,
            Line::End => break,
            Line::NotUtf8 => {
                s.info_string("line ignored: it is not UTF-8 text")?;
                continue;
            }
            Line::TooLong => {
                s.info_string(&format!("line ignored: longer than {MAX_LINE} bytes"))?;
                continue;
            }
        };
        match parse_command(&line) {
            Ok(Command::Quit) => {
                s.finish_search()?;
                return Ok(());
            }
            Ok(c) => s.handle(c)?,
            Err(e) => s.info_string(&e.to_string())?,
        }
    }
    // The end of the input (a piped `go depth 6`): a bounded search runs to its limit, with
    // its `info` lines; only a search without limits is stopped.
    s.finish_or_stop_search()?;
    Ok(())
}

/// Turn lists are checked for legality only; the draw rules apply inside the search.
fn no_limits() -> DrawRules {
    DrawRules { max_quiet_plies: 0, max_plies: 0 }
}

impl<W: Write + Send + 'static> Session<W> {
    fn info_string(&self, text: &str) -> io::Result<()> {
        send(&self.out, &format!("info string {}", text.replace('\n', " ")))
    }

    fn handle(&mut self, c: Command) -> io::Result<()> {
        match c {
            Command::Empty => Ok(()),
            Command::Fep => {
                send(&self.out, &format!("id name fanorona {}", env!("CARGO_PKG_VERSION")))?;
                send(&self.out, "id author fanorona developers")?;
                send(
                    &self.out,
                    &format!(
                        "option name Hash type spin default {} min 0 max {MAX_HASH_MIB}",
                        crate::spec::DEFAULT_HASH_MIB
                    ),
                )?;
                send(
                    &self.out,
                    &format!("option name Threads type spin default 1 min 1 max {}", available_threads()),
                )?;
                send(&self.out, &format!("option name Eval type string default {}", self.config.eval))?;
                let tb = self
                    .config
                    .tb
                    .as_ref()
                    .map_or_else(|| "<empty>".to_string(), |p| p.display().to_string());
                send(&self.out, &format!("option name TablebasePath type string default {tb}"))?;
                send(
                    &self.out,
                    &format!(
                        "option name QuietLimit type spin default {} min 0 max {OPTION_MAX}",
                        self.config.rules.max_quiet_plies
                    ),
                )?;
                send(
                    &self.out,
                    &format!(
                        "option name LengthLimit type spin default {} min 0 max {OPTION_MAX}",
                        self.config.rules.max_plies
                    ),
                )?;
                send(
                    &self.out,
                    &format!(
                        "option name QuiescenceWidth type spin default {} min 0 max {MAX_QWIDTH}",
                        self.config.qwidth
                    ),
                )?;
                send(&self.out, &format!("option name OwnBook type check default {}", self.config.own_book))?;
                let book = self
                    .config
                    .book
                    .as_ref()
                    .map_or_else(|| "<empty>".to_string(), |p| p.display().to_string());
                send(&self.out, &format!("option name BookFile type string default {book}"))?;
                send(&self.out, "fepok")
            }
            Command::IsReady => send(&self.out, "readyok"),
            Command::Stop => self.finish_search(),
            Command::NewGame => {
                self.finish_search()?;
                if let Some(s) = self.searcher.as_mut() {
                    s.clear();
                }
                self.game = Game::new(Position::start(), no_limits());
                Ok(())
            }
            Command::SetOption { name, value } => self.set_option(&name, &value),
            Command::Position { start, moves } => self.set_position(start, &moves),
            Command::Go(go) => self.go(go),
            Command::Quit => Ok(()),
        }
    }

    fn set_option(&mut self, name: &str, value: &str) -> io::Result<()> {
        let mut config = self.config.clone();
        let limit = || value.trim().parse::<u32>().ok().filter(|v| *v <= OPTION_MAX);
        match name.to_ascii_lowercase().as_str() {
            "quietlimit" | "lengthlimit" => {
                let Some(v) = limit() else {
                    return self
                        .info_string(&format!("{name} must be 0..={OPTION_MAX} turns, got {value:?}"));
                };
                if name.eq_ignore_ascii_case("quietlimit") {
                    self.config.rules.max_quiet_plies = v;
                } else {
                    self.config.rules.max_plies = v;
                }
                return Ok(());
            }
            "hash" => match value.trim().parse::<usize>() {
                Ok(h) if h <= MAX_HASH_MIB => config.hash_mib = h,
                _ => return self.info_string(&format!("Hash must be 0..={MAX_HASH_MIB} MiB, got {value:?}")),
            },
            "threads" => return self.set_threads(value),
            "quiescencewidth" => return self.set_quiescence_width(value),
            "eval" => match value.parse::<EvalSpec>() {
                Ok(e) => config.eval = e,
                Err(e) => return self.info_string(&e.to_string()),
            },
            "tablebasepath" => return self.set_tablebase(value),
            "bookfile" => return self.set_book(value),
            "ownbook" => {
                match value.trim().to_ascii_lowercase().as_str() {
                    "true" => self.config.own_book = true,
                    "false" => self.config.own_book = false,
                    _ => return self.info_string(&format!("OwnBook must be true or false, got {value:?}")),
                }
                return Ok(());
            }
            _ => {
                return self.info_string(&format!(
                    "unknown option {name:?} (options: Hash, Threads, Eval, QuietLimit, LengthLimit, TablebasePath, QuiescenceWidth, OwnBook, BookFile)"
                ));
            }
        }
        let eval = match config.eval.build() {
            Ok(e) => e,
            Err(e) => return self.info_string(&e.to_string()),
        };
        self.finish_search()?;
        // The old searcher goes first, so that its table's memory can serve the new one; if
        // the new one cannot be had, the old settings are built again.
        drop(self.searcher.take());
        match searcher_with(&config, eval) {
            Ok(searcher) => {
                self.searcher = Some(searcher);
                self.config = config;
                Ok(())
            }
            Err(e) => {
                self.searcher = build_searcher(&self.config).ok();
                self.info_string(&format!("{name} not set, the old settings are kept: {e}"))
            }
        }
    }

    /// `Threads`: 1 up to the machine's count; the table and what it holds are kept.
    fn set_threads(&mut self, value: &str) -> io::Result<()> {
        let threads = match value.trim().parse::<usize>() {
            Ok(n) => check_threads(n),
            Err(_) => {
                return self
                    .info_string(&format!("Threads must be 1..={}, got {value:?}", available_threads()));
            }
        };
        match threads {
            Ok(n) => {
                self.finish_search()?;
                self.config.threads = n;
                if let Some(s) = self.searcher.as_mut() {
                    s.set_threads(n);
                }
                Ok(())
            }
            Err(e) => self.info_string(&format!("Threads not set, {} kept: {e}", self.config.threads)),
        }
    }

    /// `QuiescenceWidth`: 0 (every capture) up to [`MAX_QWIDTH`]; the table is kept.
    fn set_quiescence_width(&mut self, value: &str) -> io::Result<()> {
        let Some(width) = value.trim().parse::<usize>().ok().filter(|w| *w <= MAX_QWIDTH) else {
            return self.info_string(&format!(
                "QuiescenceWidth must be 0..={MAX_QWIDTH} (0: every capture), got {value:?}; {} kept",
                self.config.qwidth
            ));
        };
        self.finish_search()?;
        self.config.qwidth = width;
        if let Some(s) = self.searcher.as_mut() {
            s.set_quiescence_width(width);
        }
        Ok(())
    }

    /// `TablebasePath`: a directory of endgame tables, or empty (or `<empty>`) for none. Tables
    /// that cannot be opened are reported and the old setting is kept.
    fn set_tablebase(&mut self, value: &str) -> io::Result<()> {
        let value = value.trim();
        let tb = if value.is_empty() || value == "<empty>" {
            None
        } else {
            match open_shared(std::path::Path::new(value)) {
                Ok(tb) => Some(tb),
                Err(e) => return self.info_string(&format!("TablebasePath not set: {e}")),
            }
        };
        self.finish_search()?;
        self.config.tb = tb.as_ref().map(|_| PathBuf::from(value));
        if let Some(s) = self.searcher.as_mut() {
            s.set_tablebase(tb);
        }
        Ok(())
    }

    /// `BookFile`: an opening book, or empty (or `<empty>`) for none. A book that cannot be
    /// opened is reported (with the byte of a damaged file) and the old setting is kept.
    fn set_book(&mut self, value: &str) -> io::Result<()> {
        let value = value.trim();
        if value.is_empty() || value == "<empty>" {
            self.config.book = None;
            self.book = None;
            return Ok(());
        }
        match crate::book::open_shared(std::path::Path::new(value)) {
            Ok(book) => {
                self.config.book = Some(PathBuf::from(value));
                self.book = Some(book);
                Ok(())
            }
            Err(e) => self.info_string(&format!("BookFile not set: {e}")),
        }
    }

    /// The book's turn in the current position, when `OwnBook` is on and the book holds it.
    fn book_turn(&self) -> Option<fanorona_core::Move> {
        if !self.config.own_book || self.game.outcome().is_some() {
            return None;
        }
        crate::book::book_move(self.book.as_deref()?, &self.game)
    }

    fn set_position(&mut self, start: Position, moves: &[String]) -> io::Result<()> {
        let mut game = Game::new(start, no_limits());
        for (i, text) in moves.iter().enumerate() {
            if let Some(o) = game.outcome() {
                // Nothing can follow the end of the game: stop here, say so.
                self.game = game;
                return self.info_string(&format!(
                    "position: the game ended after turn {i} ({o}); the {} turns after it are ignored",
                    moves.len() - i
                ));
            }
            match game.position().parse_move(text) {
                Ok(m) => game.play_unchecked(&m),
                Err(e) => {
                    return self.info_string(&format!(
                        "position ignored: turn {} {text:?} in {}: {e}",
                        i + 1,
                        game.position()
                    ));
                }
            }
        }
        self.game = game;
        Ok(())
    }

    fn limits(&self, go: &Go) -> Limits {
        let mut movetime = go.movetime;
        let (time, inc) = match self.game.position().turn() {
            Color::White => (go.wtime, go.winc),
            Color::Black => (go.btime, go.binc),
        };
        if let Some(t) = time {
            let budget = turn_budget_ms(t, inc.unwrap_or(0), go.movestogo);
            movetime = Some(movetime.map_or(budget, |m| m.min(budget)));
        }
        Limits { depth: go.depth, nodes: go.nodes, movetime: movetime.map(Duration::from_millis) }
    }

    fn go(&mut self, go: Go) -> io::Result<()> {
        if let Some(r) = &self.running {
            if r.answered.load(Ordering::Acquire) {
                // The last search has sent (or is sending) its bestmove: collect its thread.
                self.finish_search()?;
            } else {
                return self.info_string("go ignored: already searching (send stop first)");
            }
        }
        let limits = self.limits(&go);
        if !limits.is_infinite()
            && let Some(mv) = self.book_turn()
        {
            self.info_string("book")?;
            return send(&self.out, &format!("bestmove {mv}"));
        }
        let Some(mut searcher) = self.searcher.take() else {
            return self.info_string("go ignored: no searcher");
        };
        let mut root = SearchRoot::from_game(&self.game);
        root.rules = self.config.rules;
        let stop = Arc::new(AtomicBool::new(false));
        let out = Arc::clone(&self.out);
        let flag = Arc::clone(&stop);
        let answered = Arc::new(AtomicBool::new(false));
        let answered_flag = Arc::clone(&answered);
        let handle = std::thread::spawn(move || -> io::Result<Searcher> {
            let mut failed = None;
            let result = searcher.search(&root, limits, Arc::clone(&flag), &mut |info: &Info| {
                if failed.is_none()
                    && let Err(e) = send(&out, &info_line(info))
                {
                    failed = Some(e);
                }
            });
            if let Some(e) = failed {
                return Err(e);
            }
            // With no limit, the answer waits for `stop`.
            if limits.is_infinite() {
                while !flag.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(2));
                }
            }
            let best = result.best.map_or_else(|| "none".to_string(), |m| m.to_string());
            answered_flag.store(true, Ordering::Release);
            send(&out, &format!("bestmove {best}"))?;
            Ok(searcher)
        });
        self.running = Some(Running { stop, answered, handle, infinite: limits.is_infinite() });
        Ok(())
    }

    /// At the end of the input: waits for a bounded search to finish by itself, stops an
    /// unbounded one.
    fn finish_or_stop_search(&mut self) -> io::Result<()> {
        if let Some(r) = &self.running
            && !r.infinite
        {
            while !r.handle.is_finished() {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        self.finish_search()
    }

    /// Stops the running search (if any), waits for its `bestmove`, and takes the searcher back.
    fn finish_search(&mut self) -> io::Result<()> {
        let Some(r) = self.running.take() else { return Ok(()) };
        r.stop.store(true, Ordering::Relaxed);
        match r.handle.join() {
            Ok(Ok(searcher)) => {
                self.searcher = Some(searcher);
                Ok(())
            }
            Ok(Err(e)) => Err(e),
            Err(_) => {
                // The search thread died: start afresh with the same settings.
                self.searcher = Some(build_searcher(&self.config).map_err(io::Error::other)?);
                self.info_string("search failed; state reset")
            }
        }
    }
}

/// How long to think on one turn with `time_ms` left on the clock, `inc_ms` added per turn and
/// `moves_to_go` turns until the next time period (if the clock has periods): a 30th of the
/// clock (or its share of the turns to go, when fewer) plus most of the increment, keeping a
/// margin of 50 ms. The in-process players of `fanorona eval` manage their clock with it too.
pub fn turn_budget_ms(time_ms: u64, inc_ms: u64, moves_to_go: Option<u64>) -> u64 {
    let parts = moves_to_go.map_or(30, |m| m.saturating_add(1).min(30));
    (time_ms / parts + inc_ms.saturating_mul(3) / 4).min(time_ms.saturating_sub(50)).max(1)
}

/// `info depth .. score .. nodes .. nps .. time .. pv ..`.
fn info_line(info: &Info) -> String {
    let ms = info.elapsed.as_millis();
    let nps = (u128::from(info.nodes) * 1000).checked_div(ms).unwrap_or(u128::from(info.nodes) * 1000);
    let score = match forced(info.score) {
        Some((true, n)) => format!("win {n}"),
        Some((false, n)) => format!("loss {n}"),
        None => info.score.to_string(),
    };
    let pv: Vec<String> = info.pv.iter().map(|m| m.to_string()).collect();
    format!(
        "info depth {} score {score} nodes {} nps {nps} time {ms} pv {}",
        info.depth,
        info.nodes,
        pv.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A writer the test can read back.
    #[derive(Clone, Default)]
    struct Buffer(Arc<Mutex<Vec<u8>>>);

    impl Write for Buffer {
        fn write(&mut self, b: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    fn session(input: &str) -> Vec<String> {
        let buf = Buffer::default();
        let config = EngineConfig {
            eval: EvalSpec::Material,
            hash_mib: 1,
            threads: 1,
            rules: DrawRules::default(),
            tb: None,
            qwidth: 0,
            book: None,
            own_book: false,
        };
        run_engine(io::Cursor::new(input.to_string()), buf.clone(), config).unwrap();
        let bytes = buf.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap().lines().map(str::to_string).collect()
    }

    #[test]
    fn in_memory_session() {
        let out = session("fep\nisready\nbogus\nposition fen 9/9/W1BBB3B/9/8W w\ngo depth 2\nquit\n");
        assert_eq!(out[0], format!("id name fanorona {}", env!("CARGO_PKG_VERSION")));
        assert!(out.contains(&"fepok".to_string()), "{out:?}");
        assert!(out.contains(&"readyok".to_string()), "{out:?}");
        assert!(out.contains(&"info string unknown command \"bogus\"".to_string()), "{out:?}");
        let best = out.iter().find_map(|l| l.strip_prefix("bestmove ")).unwrap();
        let p: Position = "9/9/W1BBB3B/9/8W w".parse().unwrap();
        assert!(p.parse_move(best).is_ok(), "{best}");
    }

    /// The node count of the last `info` line.
    fn last_nodes(out: &[String]) -> u64 {
        let line = out.iter().rev().find(|l| l.starts_with("info depth ")).unwrap();
        let after = line.split(" nodes ").nth(1).unwrap();
        after.split(' ').next().unwrap().parse().unwrap()
    }

    #[test]
    fn quiescence_width_option() {
        let fep = session("fep\nquit\n");
        assert!(
            fep.contains(&"option name QuiescenceWidth type spin default 0 min 0 max 255".to_string()),
            "{fep:?}"
        );
        let go = "position startpos\ngo depth 4\n";
        let every = session(go);
        let narrow = session(&format!("setoption name QuiescenceWidth value 1\n{go}"));
        assert!(last_nodes(&narrow) < last_nodes(&every), "{narrow:?} {every:?}");
        let back = session(&format!(
            "setoption name QuiescenceWidth value 1\nsetoption name QuiescenceWidth value 0\n{go}"
        ));
        assert_eq!(last_nodes(&back), last_nodes(&every));
        for bad in ["256", "-1", "x"] {
            let out = session(&format!("setoption name QuiescenceWidth value {bad}\n{go}"));
            assert!(out[0].starts_with("info string QuiescenceWidth must be 0..=255"), "{out:?}");
            assert_eq!(last_nodes(&out), last_nodes(&every), "{bad}");
        }
    }

    #[test]
    fn clock_budgets() {
        // A 30th of 60 s plus three quarters of the increment.
        assert_eq!(turn_budget_ms(60_000, 600, None), 2_450);
        // Two turns to go: a third of the clock.
        assert_eq!(turn_budget_ms(9_000, 0, Some(2)), 3_000);
        // Never the whole clock, never nothing.
        assert_eq!(turn_budget_ms(40, 1_000, Some(0)), 1);
    }

    #[test]
    fn end_of_input_lets_a_bounded_search_finish() {
        let out = session("position startpos\ngo depth 3\n");
        let infos: Vec<&String> = out.iter().filter(|l| l.starts_with("info depth ")).collect();
        assert_eq!(infos.len(), 3, "{out:?}");
        assert!(infos[2].starts_with("info depth 3 score "), "{out:?}");
        assert!(out.last().is_some_and(|l| l.starts_with("bestmove ")), "{out:?}");
    }

    #[test]
    fn info_lines_show_forced_results() {
        let pv = vec![Position::start().legal_moves()[0]];
        let mut info =
            Info { depth: 3, score: crate::score::win_in(3), nodes: 500, elapsed: Duration::ZERO, pv };
        let l = info_line(&info);
        assert!(l.starts_with("info depth 3 score win 3 nodes 500 nps "), "{l}");
        assert!(l.ends_with(&format!(" time 0 pv {}", info.pv[0])), "{l}");
        info.score = crate::score::loss_in(2);
        assert!(info_line(&info).contains(" score loss 2 "));
        info.score = -150;
        assert!(info_line(&info).contains(" score -150 "));
    }
}
