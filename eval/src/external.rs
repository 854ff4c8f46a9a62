//! An external engine process speaking the engine protocol (PROTOCOL.md).
//!
//! A reader thread turns the engine's standard output into lines on a channel, so every wait
//! has a deadline: an engine that hangs is noticed, killed and restarted by the caller.

use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, sync_channel};
use std::time::{Duration, Instant};

use fanorona_data::Ending;
use fanorona_engine::protocol::{Line, LineReader, read_line};

use crate::log::{Direction, LogHandle, MAX_LOGGED_LINE};
use crate::spec::ExternalSpec;

/// How long the handshake (`fep` .. `fepok`, `isready` .. `readyok`) may take.
pub const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);

/// How long one line sent to an engine may take to be written. A write waits only when the
/// pipe to the engine is full (64 KiB on Linux): an engine that stops reading its input is
/// declared failed after this, instead of blocking the match forever.
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(5);

/// The longest line an engine may print, in bytes.
pub const MAX_ENGINE_LINE: usize = 1 << 20;

/// Lines read ahead of the match runner at most (the engine waits on a full pipe after that).
const QUEUED_LINES: usize = 256;

/// What the reader thread passes on.
#[derive(Debug)]
enum Output {
    /// A line and when it was read.
    Line(Instant, String),
    /// A line that breaks the protocol's bounds (too long, not UTF-8).
    Bad(String),
    /// The end of the engine's output.
    End,
}

/// Something went wrong with an engine: the game is lost for it with this termination and
/// reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// [`Ending::EngineFailure`], [`Ending::TimeForfeit`] or
    /// [`Ending::IllegalMove`].
    pub termination: Ending,
    /// What happened, for the record.
    pub reason: String,
}

impl Fault {
    pub(crate) fn failure(reason: impl Into<String>) -> Fault {
        Fault { termination: Ending::EngineFailure, reason: reason.into() }
    }
}

/// What the engine reported with its move.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BestMove {
    /// The text after `bestmove`.
    pub text: String,
    /// The last `info ... score` seen, in centi-stones (forced results as +-(30000 - n)).
    pub score: Option<i32>,
    /// The last `info depth`.
    pub depth: Option<u32>,
}

/// A running engine process.
#[derive(Debug)]
pub struct ExternalEngine {
    child: Child,
    /// The environment variable that marks the engine and every process it starts (see
    /// [`spawn`]), so that descendants that left its process group are found and killed.
    tag: String,
    stdin: StdinWriter,
    lines: Receiver<Output>,
    /// The `id name` it gave.
    pub id_name: Option<String>,
    log: Option<LogHandle>,
}

impl ExternalEngine {
    /// Starts the program and completes the handshake, setting the spec's options.
    ///
    /// # Errors
    /// A [`Fault`] naming what failed: the program does not start, exits, or does not answer
    /// `fepok`/`readyok` within [`HANDSHAKE_TIMEOUT`].
    pub fn start(spec: &ExternalSpec) -> Result<ExternalEngine, Fault> {
        ExternalEngine::start_logged(spec, None)
    }

    /// [`ExternalEngine::start`], logging every line sent and read, and the engine's standard
    /// error, to `log` (without a log, standard error is discarded).
    ///
    /// # Errors
    /// As [`ExternalEngine::start`].
    pub fn start_logged(spec: &ExternalSpec, log: Option<LogHandle>) -> Result<ExternalEngine, Fault> {
        let (mut child, tag) = spawn(spec, log.is_some())?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill_group(&mut child, &tag);
            return Err(Fault::failure("no pipes to the engine"));
        };
        let started = match (child.stderr.take(), log.clone()) {
            (Some(err), Some(log)) => drain_stderr(err, log),
            _ => Ok(()),
        };
        let (tx, lines) = sync_channel(QUEUED_LINES);
        let started = started.and_then(|()| read_stdout(stdout, tx, log.clone()));
        let stdin = match started.and_then(|()| StdinWriter::start(stdin)) {
            Ok(w) => w,
            Err(e) => {
                kill_group(&mut child, &tag);
                return Err(Fault::failure(format!("cannot start a thread to talk to the engine: {e}")));
            }
        };
        let mut e = ExternalEngine { child, tag, stdin, lines, id_name: None, log };
        e.handshake()?;
        for (name, value) in &spec.options {
            e.send(&format!("setoption name {name} value {value}"))?;
        }
        e.sync()?;
        Ok(e)
    }

    /// `fep` and wait for `fepok`, keeping the `id name` given on the way.
    fn handshake(&mut self) -> Result<(), Fault> {
        self.send("fep")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = self.recv_until(deadline, "fepok")?;
            let mut w = line.split_whitespace();
            match w.next() {
                Some("fepok") => return Ok(()),
                Some("id") => {
                    if w.next() == Some("name") {
                        self.id_name = Some(w.collect::<Vec<_>>().join(" "));
                    }
                }
                Some("option") | Some("info") | None => {}
                Some(_) => return Err(Fault::failure(format!("unreadable line before fepok: {line:?}"))),
            }
        }
    }

    /// Sends one line; an engine that does not take it within [`WRITE_TIMEOUT`] (it stopped
    /// reading its input and the pipe is full) is an [`Ending::EngineFailure`].
    pub fn send(&mut self, line: &str) -> Result<(), Fault> {
        if let Some(log) = &self.log {
            log.line(Direction::ToEngine, line);
        }
        self.stdin.send(line, WRITE_TIMEOUT)
    }

    /// `isready` and wait for `readyok`.
    pub fn sync(&mut self) -> Result<(), Fault> {
        self.send("isready")?;
        let deadline = Instant::now() + HANDSHAKE_TIMEOUT;
        loop {
            let line = self.recv_until(deadline, "readyok")?;
            match line.split_whitespace().next() {
                Some("readyok") => return Ok(()),
                Some("info") | None => {}
                Some(_) => return Err(Fault::failure(format!("unreadable line before readyok: {line:?}"))),
            }
        }
    }

    /// Next line before `deadline`; a timeout is a [`Ending::TimeForfeit`] fault, the end
    /// of the output an [`Ending::EngineFailure`].
    fn recv_until(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Fault> {
        let left = deadline.saturating_duration_since(Instant::now());
        let late = || Fault {
            termination: Ending::TimeForfeit,
            reason: format!("no {waiting_for} within the time limit"),
        };
        match self.lines.recv_timeout(left) {
            // A line read after the deadline is late, however many came before it.
            Ok(Output::Line(at, _)) if at > deadline => Err(late()),
            Ok(Output::Line(_, line)) => Ok(line),
            Ok(Output::Bad(what)) => Err(Fault::failure(format!("engine printed {what}"))),
            Ok(Output::End) | Err(RecvTimeoutError::Disconnected) => {
                // The output ends when the process exits: give it a moment to be reaped, so
                // the reason can say how it ended.
                let mut status = None;
                for _ in 0..50 {
                    status = self.child.try_wait().ok().flatten();
                    if status.is_some() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                Err(Fault::failure(match status {
                    Some(s) => format!("engine exited ({s}) while waiting for {waiting_for}"),
                    None => format!("engine closed its output while waiting for {waiting_for}"),
                }))
            }
            Err(RecvTimeoutError::Timeout) => Err(late()),
        }
    }

    /// Sends `go ...` and waits for `bestmove` until `deadline`, collecting the last score and
    /// depth of the `info` lines.
    ///
    /// # Errors
    /// A [`Fault`]: no answer in time, the engine's end, or a line that is not protocol.
    pub fn go(&mut self, go_line: &str, limit: Duration) -> Result<(BestMove, Duration), Fault> {
        let started = Instant::now();
        self.send(go_line)?;
        let deadline = started + limit;
        let mut best = BestMove::default();
        loop {
            let line = self.recv_until(deadline, "bestmove")?;
            let mut w = line.split_whitespace();
            match w.next() {
                Some("bestmove") => {
                    best.text = w.next().unwrap_or("").to_string();
                    return Ok((best, started.elapsed()));
                }
                Some("info") => parse_info(&line, &mut best),
                None => {}
                Some(_) => return Err(Fault::failure(format!("unreadable line: {:?}", truncate(&line)))),
            }
        }
    }

    /// Asks the engine to quit and makes sure the process and its process group are gone.
    pub fn shutdown(mut self) {
        let _ = self.send("quit");
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(200) {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // Drop kills what is left: the process if it did not quit, its children in any case.
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        kill_group(&mut self.child, &self.tag);
    }
}

/// The engine's standard input, written by a thread of its own so that every write has a
/// deadline: a blocked `write(2)` holds up that thread only, until the engine is killed (its
/// pipe then breaks and the thread ends).
#[derive(Debug)]
struct StdinWriter {
    lines: SyncSender<Vec<u8>>,
    written: Receiver<std::io::Result<()>>,
    /// Why the input is unusable, once a write failed or timed out: later sends fail at once.
    broken: Option<String>,
}

impl StdinWriter {
    fn start(mut stdin: ChildStdin) -> std::io::Result<StdinWriter> {
        let (lines, rx) = sync_channel::<Vec<u8>>(1);
        let (tx, written) = sync_channel(1);
        std::thread::Builder::new().name("engine-input".into()).spawn(move || {
            for bytes in rx {
                let r = stdin.write_all(&bytes).and_then(|()| stdin.flush());
                let failed = r.is_err();
                if tx.send(r).is_err() || failed {
                    return;
                }
            }
        })?;
        Ok(StdinWriter { lines, written, broken: None })
    }

    fn send(&mut self, line: &str, timeout: Duration) -> Result<(), Fault> {
        if let Some(why) = &self.broken {
            return Err(Fault::failure(format!("{why}; cannot send {:?}", truncate(line))));
        }
        let mut bytes = Vec::with_capacity(line.len() + 1);
        bytes.extend_from_slice(line.as_bytes());
        bytes.push(b'\n');
        let gone = || format!("engine closed its input on {:?}", truncate(line));
        let result = match self.lines.try_send(bytes) {
            Err(_) => Err(gone()),
            Ok(()) => match self.written.recv_timeout(timeout) {
                Ok(Ok(())) => Ok(()),
                Ok(Err(e)) => Err(format!("engine closed its input ({e}) on {:?}", truncate(line))),
                Err(RecvTimeoutError::Disconnected) => Err(gone()),
                Err(RecvTimeoutError::Timeout) => Err(format!(
                    "engine stopped reading its input: {:?} not taken within {} s",
                    truncate(line),
                    timeout.as_secs_f64()
                )),
            },
        };
        result.map_err(|why| {
            self.broken = Some(why.clone());
            Fault::failure(why)
        })
    }
}

/// How many times a program that is busy being written ("text file busy") is tried again.
const BUSY_RETRIES: u32 = 20;

/// Starts the engine's process in its own process group, with piped input and output, and
/// standard error piped when it is logged.
///
/// A program file that another process still holds open for writing cannot be executed
/// (`ETXTBSY`); this happens to a script written just before, when another thread forks at the
/// same moment and its child inherits the write descriptor for an instant. Such a start is tried
/// again after a short sleep, as cargo does for build scripts.
///
/// The process gets an environment variable of its own ([`engine_tag`]), which its children
/// inherit: a child that leaves the process group (`setsid`, a double fork) still carries it,
/// and [`kill_group`] finds it by it.
fn spawn(spec: &ExternalSpec, pipe_stderr: bool) -> Result<(Child, String), Fault> {
    let tag = engine_tag();
    let mut tries = 0;
    loop {
        let mut command = Command::new(&spec.program);
        let stderr = if pipe_stderr { Stdio::piped() } else { Stdio::null() };
        command.args(&spec.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(stderr);
        command.env(&tag, "1");
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        match command.spawn() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < BUSY_RETRIES => {
                tries += 1;
                std::thread::sleep(Duration::from_millis(10 * u64::from(tries)));
            }
            Err(e) => return Err(Fault::failure(format!("cannot start {}: {e}", spec.program.display()))),
            Ok(child) => return Ok((child, tag)),
        }
    }
}

/// A new environment variable name that marks one engine process and its descendants:
/// `FANORONA_ENGINE_<pid>_<n>` (a name per engine, so that the engines an engine starts itself
/// carry the marks of both).
fn engine_tag() -> String {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    format!("FANORONA_ENGINE_{}_{}", std::process::id(), NEXT.fetch_add(1, Ordering::Relaxed))
}

/// A thread that reads the engine's standard error to the end into the log, each line bounded:
/// an engine that writes endlessly costs a thread's time, never memory; the log bounds the disk.
fn drain_stderr(err: std::process::ChildStderr, log: LogHandle) -> std::io::Result<()> {
    std::thread::Builder::new().name("engine-stderr".into()).spawn(move || {
        let mut lines = LineReader::new(BufReader::new(err), MAX_LOGGED_LINE);
        loop {
            match lines.next_line() {
                Ok(Line::Text(t)) => log.line(Direction::Stderr, &t),
                Ok(Line::TooLong) => log.line(
                    Direction::Stderr,
                    &format!("(a line longer than {MAX_LOGGED_LINE} bytes, not logged)"),
                ),
                Ok(Line::NotUtf8) => log.line(Direction::Stderr, "(a line that is not UTF-8)"),
                Ok(Line::End) | Err(_) => return,
            }
        }
    })?;
    Ok(())
}

/// A thread that turns the engine's standard output into [`Output`]s on `tx`, logging each, and
/// stops after the end or the first line that breaks the protocol's bounds.
fn read_stdout(
    stdout: std::process::ChildStdout,
    tx: std::sync::mpsc::SyncSender<Output>,
    log: Option<LogHandle>,
) -> std::io::Result<()> {
    std::thread::Builder::new().name("engine-output".into()).spawn(move || {
        let mut reader = BufReader::new(stdout);
        loop {
            let msg = match read_line(&mut reader, MAX_ENGINE_LINE) {
                Ok(Line::Text(t)) => Output::Line(Instant::now(), t),
                Ok(Line::TooLong) => Output::Bad(format!("a line longer than {MAX_ENGINE_LINE} bytes")),
                Ok(Line::NotUtf8) => Output::Bad("a line that is not UTF-8".into()),
                Ok(Line::End) | Err(_) => {
                    let _ = tx.send(Output::End);
                    return;
                }
            };
            if let Some(log) = &log {
                match &msg {
                    Output::Line(_, t) => log.line(Direction::FromEngine, t),
                    Output::Bad(what) => {
                        log.line(Direction::FromEngine, &format!("({what}: the engine loses)"))
                    }
                    Output::End => {}
                }
            }
            let stop = matches!(msg, Output::Bad(_));
            if tx.send(msg).is_err() || stop {
                return;
            }
        }
    })?;
    Ok(())
}

/// Kills the engine and everything in its process group (the children of a shell script),
/// and on Linux every process that carries its `tag` (children that left the group with
/// `setsid` or a double fork), then reaps it.
fn kill_group(child: &mut Child, tag: &str) {
    #[cfg(unix)]
    {
        // The group's id is the engine's process id (`process_group(0)`); it stays valid while
        // any member lives. `kill` is the POSIX utility: no unsafe code needed.
        kill_pids(&[format!("-{}", child.id())]);
    }
    let _ = child.kill();
    let _ = child.wait();
    #[cfg(target_os = "linux")]
    {
        // A process may fork while it is being killed: look again until none is left.
        for _ in 0..8 {
            let pids = tagged_processes(tag);
            if pids.is_empty() {
                break;
            }
            kill_pids(&pids);
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = tag;
}

/// `kill -KILL -- PIDS` (a negative one is a process group).
#[cfg(unix)]
fn kill_pids(pids: &[String]) {
    let _ = Command::new("kill")
        .args(["-KILL", "--"])
        .args(pids)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Bytes of a process's environment read at most when looking for a tag.
#[cfg(target_os = "linux")]
const MAX_ENVIRON: u64 = 1 << 20;

/// The live processes (zombies aside) whose environment holds `tag=`, from `/proc`.
#[cfg(target_os = "linux")]
fn tagged_processes(tag: &str) -> Vec<String> {
    use std::io::Read;
    let Ok(dir) = std::fs::read_dir("/proc") else { return Vec::new() };
    let needle = format!("{tag}=");
    let own = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in dir.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == own || name.is_empty() || !name.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let mut environ = Vec::new();
        let read = std::fs::File::open(entry.path().join("environ"))
            .and_then(|f| f.take(MAX_ENVIRON).read_to_end(&mut environ));
        if read.is_err() {
            continue;
        }
        let tagged = environ.split(|&b| b == 0).any(|var| var.starts_with(needle.as_bytes()));
        if !tagged {
            continue;
        }
        // A zombie has no environment left to read; still, skip one explicitly.
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        let zombie = stat.rsplit_once(')').is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
        if !zombie {
            found.push(name);
        }
    }
    found
}

fn truncate(s: &str) -> String {
    s.chars().take(120).collect()
}

fn parse_info(line: &str, best: &mut BestMove) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut i = 1;
    while i < words.len() {
        match words[i] {
            "depth" => best.depth = words.get(i + 1).and_then(|d| d.parse().ok()).or(best.depth),
            "score" => match words.get(i + 1).copied() {
                Some("win") => {
                    best.score = words.get(i + 2).and_then(|n| n.parse::<i32>().ok()).map(|n| 30_000 - n)
                }
                Some("loss") => {
                    best.score = words.get(i + 2).and_then(|n| n.parse::<i32>().ok()).map(|n| n - 30_000)
                }
                Some(v) => best.score = v.parse().ok().or(best.score),
                None => {}
            },
            "pv" | "string" => return,
            _ => {}
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines() {
        let mut b = BestMove::default();
        parse_info("info depth 5 score -120 nodes 100 pv d3e3+", &mut b);
        assert_eq!((b.score, b.depth), (Some(-120), Some(5)));
        parse_info("info depth 7 score win 3", &mut b);
        assert_eq!((b.score, b.depth), (Some(29_997), Some(7)));
        parse_info("info string score 5", &mut b);
        assert_eq!(b.score, Some(29_997));
    }
}
