//! Solving a position: the side to move's win is asked first, then (if it cannot win) the
//! other side's; a draw is two failures. Each answer is turned into a certificate.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use fanorona_core::{Color, Move, Position};
use fanorona_tb::Tablebase;

use crate::certificate::{self, BuildError, Certificate, Claim};
use crate::check::Proven;
use crate::dfpn::{Init, Outcome, Search, Stats};
use crate::file::FileError;
use crate::file::Proof;
use crate::node::{Known, Node};
use crate::{checkpoint, file, graph};

/// What a solve may spend.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveOptions {
    /// Bytes of transposition table per question.
    pub memory: u64,
    /// The most nodes per question (`u64::MAX`: no bound).
    pub nodes: u64,
    /// The most time per question.
    pub time: Option<Duration>,
    /// How unsearched nodes are guessed.
    pub init: Init,
    /// The most nodes to search again for one node while building a certificate.
    pub rebuild: u64,
    /// Store results that lean on a repetition as if they did not ([`Search::set_store_dependent`]).
    pub store_dependent: bool,
    /// Where to keep checkpoints (the table of the question being searched, every `every`,
    /// and the questions answered so far), so that a killed solve resumes.
    pub checkpoint: Option<Checkpoints>,
}

/// Checkpoints of a long solve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoints {
    /// The directory (created if needed).
    pub dir: PathBuf,
    /// The least time between two checkpoints of a question's table.
    pub every: Duration,
}

impl Checkpoints {
    fn table(&self, attacker: Color) -> PathBuf {
        self.dir.join(format!("{}.ckpt", colour_name(attacker)))
    }

    fn answered(&self) -> PathBuf {
        self.dir.join("answered.proof")
    }
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

impl Default for SolveOptions {
    fn default() -> SolveOptions {
        SolveOptions {
            memory: 256 << 20,
            nodes: u64::MAX,
            time: None,
            init: Init::Material,
            rebuild: 10_000_000,
            store_dependent: false,
            checkpoint: None,
        }
    }
}

/// One question asked: can `attacker` force a win?
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Question {
    /// The side whose win is in question.
    pub attacker: Color,
    /// The answer.
    pub outcome: Outcome,
    /// What the search counted.
    pub stats: Stats,
    /// Seconds it took (the certificate's building included).
    pub seconds: f64,
    /// Nodes in its certificate (0 when none was built).
    pub certificate_nodes: usize,
}

/// A position solved, or as far as the budget went.
#[derive(Debug, Clone)]
pub struct Solution {
    /// The value proven, from the side to move's view (`None`: not settled).
    pub value: Option<Proven>,
    /// The questions asked, in order.
    pub questions: Vec<Question>,
    /// The proof (what was proven, even partly).
    pub proof: Proof,
    /// A line of best play from the root (empty when nothing was proven).
    pub line: Vec<Move>,
}

/// Why a solve failed (a budget running out is not a failure: the value is `None`).
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    /// The search's answer could not be turned into a certificate.
    #[error("the search's answer for {attacker:?} could not be certified")]
    Certificate {
        /// The question's attacker.
        attacker: Color,
        /// Why.
        #[source]
        source: BuildError,
    },
    /// The position is over already (a side has no stones).
    #[error("the game is over in {0}: there is nothing to solve")]
    GameOver(Position),
    /// A checkpoint cannot be read or written.
    #[error("checkpoint")]
    Checkpoint(#[source] FileError),
}

impl SolveError {
    /// Whether the error is the input's fault.
    pub fn is_bad_input(&self) -> bool {
        match self {
            SolveError::GameOver(_) => true,
            SolveError::Checkpoint(e) => e.is_bad_input(),
            SolveError::Certificate { .. } => false,
        }
    }
}

/// Solves `pos` under the rules without a limit on the game's length, over the tables `tb`.
/// `on_question` is told of each question as it is settled.
///
/// # Errors
/// [`SolveError`] when the position is over, or an answer cannot be certified.
pub fn solve(
    pos: &Position,
    tb: Option<&Tablebase>,
    opts: &SolveOptions,
    on_question: &mut dyn FnMut(&Question),
) -> Result<Solution, SolveError> {
    if pos.us().is_empty() || pos.them().is_empty() {
        return Err(SolveError::GameOver(*pos));
    }
    let tables = tb.map_or(0, Tablebase::max_stones);
    let mut proof = answered(pos, tables, opts)?;
    let mut questions = Vec::new();
    let mover = pos.turn();
    let mut line = Vec::new();
    for attacker in [mover, mover.other()] {
        if proof.sections.iter().any(|(c, _)| *c == attacker) {
            continue;
        }
        if proof.sections.iter().any(|(_, cert)| cert.claim == Claim::AttackerWins) {
            break;
        }
        let (q, cert, search) = ask(pos, attacker, tb, opts)?;
        on_question(&q);
        questions.push(q);
        let Some(cert) = cert else { break };
        let won = cert.claim == Claim::AttackerWins;
        if won || line.is_empty() {
            line = principal_line(pos, attacker, &cert, &search);
        }
        proof.sections.push((attacker, cert));
        if let Some(c) = &opts.checkpoint {
            file::write(&c.answered(), &proof).map_err(SolveError::Checkpoint)?;
            checkpoint_gone(&c.table(attacker))?;
        }
        if won {
            break;
        }
    }
    let value = settled(&proof, mover);
    Ok(Solution { value, questions, proof, line })
}

/// The questions answered by an earlier run of the same solve (its checkpoint directory's
/// proof), or none.
fn answered(pos: &Position, tables: u32, opts: &SolveOptions) -> Result<Proof, SolveError> {
    let fresh = Proof { root: *pos, tables, sections: Vec::new() };
    let Some(c) = &opts.checkpoint else { return Ok(fresh) };
    std::fs::create_dir_all(&c.dir).map_err(|source| {
        SolveError::Checkpoint(FileError::Io { verb: "write", path: c.dir.clone(), source })
    })?;
    if std::fs::symlink_metadata(c.answered()).is_err() {
        return Ok(fresh);
    }
    let earlier = file::read(&c.answered()).map_err(SolveError::Checkpoint)?;
    if earlier.root != *pos || earlier.tables != tables {
        return Err(SolveError::Checkpoint(FileError::Bad {
            path: c.answered(),
            at: 13,
            reason: format!(
                "answers for {} with {}-stone tables, not this solve",
                earlier.root, earlier.tables
            ),
        }));
    }
    Ok(earlier)
}

fn checkpoint_gone(path: &std::path::Path) -> Result<(), SolveError> {
    match std::fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
            Err(SolveError::Checkpoint(FileError::Io { verb: "write", path: path.to_path_buf(), source: e }))
        }
        _ => Ok(()),
    }
}

/// The value the proof's certificates give (without checking them).
fn settled(proof: &Proof, mover: Color) -> Option<Proven> {
    let claims: Vec<(Color, Claim)> = proof.sections.iter().map(|(c, cert)| (*c, cert.claim)).collect();
    if let Some(&(winner, _)) = claims.iter().find(|(_, c)| *c == Claim::AttackerWins) {
        return Some(if winner == mover { Proven::Win } else { Proven::Loss });
    }
    match claims.len() {
        2 => Some(Proven::Draw),
        _ => None,
    }
}

/// Asks one question; returns its report, the certificate (when settled) and the search.
fn ask<'a>(
    pos: &Position,
    attacker: Color,
    tb: Option<&'a Tablebase>,
    opts: &SolveOptions,
) -> Result<(Question, Option<Certificate>, Search<'a>), SolveError> {
    let start = Instant::now();
    let root = Node::of(pos, attacker);
    let mut search = resumed(tb, root, attacker, opts)?;
    search.set_init(opts.init);
    search.set_store_dependent(opts.store_dependent);
    let outcome = run_settling(&mut search, root, opts, start, attacker)?;
    let stats = search.stats;
    let claim = match outcome {
        Outcome::AttackerWins => Some(Claim::AttackerWins),
        Outcome::AttackerFails => Some(Claim::AttackerFails),
        Outcome::Unknown => None,
    };
    let cert = match claim {
        Some(claim) => Some(
            certificate::build(&mut search, root, claim, opts.rebuild)
                .map_err(|source| SolveError::Certificate { attacker, source })?,
        ),
        None => None,
    };
    let q = Question {
        attacker,
        outcome,
        stats,
        seconds: start.elapsed().as_secs_f64(),
        certificate_nodes: cert.as_ref().map_or(0, |c| c.nodes.len()),
    };
    Ok((q, cert, search))
}

/// A search for `root`, from its checkpoint when there is one.
fn resumed<'a>(
    tb: Option<&'a Tablebase>,
    root: Node,
    attacker: Color,
    opts: &SolveOptions,
) -> Result<Search<'a>, SolveError> {
    let mut table = crate::tt::Table::with_bytes(opts.memory);
    let Some(c) = &opts.checkpoint else { return Ok(Search::with_table(tb, table, 0)) };
    match checkpoint::load(&c.table(attacker), root, &mut table).map_err(SolveError::Checkpoint)? {
        Some(saved) => {
            let mut search = Search::with_table(tb, table, saved.order);
            search.stats.nodes = saved.nodes;
            Ok(search)
        }
        None => Ok(Search::with_table(tb, table, 0)),
    }
}

/// Runs the search in slices, settling the explored graph between them (cycles df-pn alone
/// cannot close) and checkpointing when due, until the root is solved or the budget is spent.
fn run_settling(
    search: &mut Search<'_>,
    root: Node,
    opts: &SolveOptions,
    start: Instant,
    attacker: Color,
) -> Result<Outcome, SolveError> {
    let deadline = opts.time.map(|t| start + t);
    let end = search.stats.nodes.saturating_add(opts.nodes);
    let mut slice = SLICE;
    let mut saved = Instant::now();
    loop {
        let left = end.saturating_sub(search.stats.nodes);
        search.limit(slice.min(left), deadline);
        let outcome = search.run(root);
        if outcome != Outcome::Unknown {
            return Ok(outcome);
        }
        graph::settle(search, root);
        if let Some(k) = search.status(root) {
            return Ok(match k {
                Known::AttackerWins => Outcome::AttackerWins,
                Known::AttackerFails => Outcome::AttackerFails,
            });
        }
        let out_of_time = deadline.is_some_and(|d| Instant::now() >= d);
        if let Some(c) = &opts.checkpoint
            && (saved.elapsed() >= c.every || out_of_time || search.stats.nodes >= end)
        {
            let s = checkpoint::Saved { root, order: search.order(), nodes: search.stats.nodes };
            checkpoint::save(&c.table(attacker), &search.table, s).map_err(SolveError::Checkpoint)?;
            saved = Instant::now();
        }
        if search.stats.nodes >= end || out_of_time {
            return Ok(Outcome::Unknown);
        }
        // Settling costs about as much as the table holds: slices grow with it.
        slice = slice.max(search.table.used() as u64);
    }
}

/// Nodes searched between two settlings at first.
const SLICE: u64 = 200_000;

/// Follows a certificate from the root: its choices where it chooses, elsewhere the turn
/// whose subtree took the search the most work (the stubbornest defence); stops at a leaf, a
/// repetition or after 60 turns.
fn principal_line(pos: &Position, attacker: Color, cert: &Certificate, search: &Search<'_>) -> Vec<Move> {
    let mut line = Vec::new();
    let mut seen = Vec::new();
    let mut p = *pos;
    let mut kids = Vec::new();
    while line.len() < 60 {
        let n = Node::of(&p, attacker);
        let Ok(at) = cert.nodes.binary_search_by(|(m, _)| m.cmp(&n)) else { break };
        if seen.contains(&n) {
            break;
        }
        seen.push(n);
        n.children(&mut kids);
        let target = match cert.nodes[at].1 {
            Some(i) => kids.get(usize::from(i)).copied(),
            None => kids.iter().copied().max_by_key(|&c| search.table.get(c).map_or(0, |e| e.work)),
        };
        let Some(target) = target else { break };
        let Some(mv) = p.legal_moves().into_iter().find(|m| {
            let mut q = p;
            q.play_unchecked(m);
            Node::of(&q, attacker) == target
        }) else {
            break;
        };
        p.play_unchecked(&mv);
        line.push(mv);
    }
    line
}
