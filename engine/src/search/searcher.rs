//! The searcher: iterative deepening over a negamax principal-variation search, on one
//! thread or several sharing the transposition table (Lazy SMP: every helper thread searches
//! the same root at staggered depths; the deepest completed iteration, the main thread's on
//! ties, is the answer).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use fanorona_core::{DrawRules, Move, MoveList, Point, Position, TurnList};
use fanorona_tb::Tablebase;

use super::mobility::has_paika_move;
use super::pick::{TT_MOVE, pick};
use super::reduce::Reductions;
use super::threads::skips;
use super::tt::{Bound, TableError, TranspositionTable};
use super::{Limits, MAX_DEPTH, MAX_PLY, SearchRoot};
use crate::eval::Evaluator;
use crate::knobs::SearchKnobs;
use crate::score::{DRAW, FORCED, INFINITY, forced, loss_in};
use crate::tablebase::probe_score;

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Turns of forced captures searched past the nominal depth, by default.
pub const DEFAULT_QUIESCENCE: usize = 4;
/// The most quiescence turns [`Searcher::set_quiescence`] accepts.
pub const MAX_QUIESCENCE: usize = 16;
const PER_STONE: i32 = 10_000;
/// The shallowest iteration searched with an aspiration window (when one is set).
const ASPIRATION_MIN_DEPTH: u32 = 4;

/// Progress after each completed iteration.
#[derive(Debug, Clone)]
pub struct Info {
    /// The iteration's depth, in turns.
    pub depth: u32,
    /// The score from the root's side to move.
    pub score: i32,
    /// Positions visited so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation.
    pub pv: Vec<Move>,
}

/// What a search found.
#[derive(Debug, Clone)]
pub struct SearchResult {
    /// The best turn; `None` when the root has no legal turn.
    pub best: Option<Move>,
    /// Its score from the root's side to move (the loss score when there is no turn).
    pub score: i32,
    /// The deepest completed iteration (0 when none completed).
    pub depth: u32,
    /// Positions visited: each turn made in the search counts one.
    pub nodes: u64,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The root turns with their scores from the last completed iteration (the best turn's
    /// score is exact; the others are upper bounds when a null-window search refuted them).
    pub root: Vec<(Move, i32)>,
    /// Time spent.
    pub elapsed: Duration,
}

/// A reusable searcher: its evaluator, transposition table and move-ordering memory, and the
/// helper searchers of its other threads (none by default). Searches allocate nothing per node.
pub struct Searcher {
    eval: Box<dyn Evaluator>,
    tt: Arc<TranspositionTable>,
    lists: Vec<MoveList>,
    /// The quiescence search's turns, without their steps (what playing them needs).
    turns: Vec<TurnList>,
    order: Vec<Vec<i32>>,
    killers: Vec<[Option<Move>; 2]>,
    history: Box<[[i32; Point::NUM]; Point::NUM]>,
    /// The principal variation below each ply, as indices into the generated turns of the
    /// positions along it (a [`Move`] is rebuilt from its index only for the answer).
    pv: Vec<Vec<u32>>,
    pv_len: Vec<usize>,
    /// The position searched.
    root: Position,
    /// Hashes of the positions on the path: the game history, then the search path.
    path: Vec<u64>,
    rules: DrawRules,
    root_ply: u32,
    nodes: u64,
    node_limit: u64,
    /// The node limit of the whole search (all threads), once armed.
    node_budget: u64,
    deadline: Option<Instant>,
    stop: Arc<AtomicBool>,
    stopped: bool,
    /// What the caller set, the same on every thread.
    settings: Settings,
    /// 0 for the main thread, 1 and up for helpers.
    id: usize,
    /// The searchers of the other threads (on the main searcher only).
    helpers: Vec<Searcher>,
    /// Nodes of the helper threads of the running search, added in steps of [`CHECK_EVERY`]
    /// (`None` on one thread).
    shared_nodes: Option<Arc<AtomicU64>>,
}

/// The settings of a search that its caller chooses and every helper thread shares: set on
/// the main searcher, copied to the helpers in one place ([`Searcher::share_settings`]).
#[derive(Clone, Debug)]
struct Settings {
    /// Turns of forced captures searched past the nominal depth.
    quiescence: usize,
    /// Captures searched at each quiescence node after the first turn, most stones first (0:
    /// every one).
    quiescence_width: usize,
    /// Endgame tables: exact scores within them, perfect play at a root they cover.
    tb: Option<Arc<Tablebase>>,
    /// The tunable numbers ([`SearchKnobs`]; `quiescence` above is theirs once set).
    knobs: SearchKnobs,
    /// The late-move reductions of `knobs`.
    reductions: Reductions,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            quiescence: DEFAULT_QUIESCENCE,
            quiescence_width: 0,
            tb: None,
            knobs: SearchKnobs::default(),
            reductions: Reductions::DEFAULT,
        }
    }
}

impl std::fmt::Debug for Searcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("eval", &self.eval.name())
            .field("tt", &self.tt.len())
            .field("threads", &self.threads())
            .finish()
    }
}

impl Searcher {
    /// A searcher with evaluator `eval` and a transposition table of `hash_mib` MiB (smaller
    /// when that much memory cannot be had), on one thread.
    pub fn new(eval: Box<dyn Evaluator>, hash_mib: usize) -> Searcher {
        Searcher::with_table(eval, Arc::new(TranspositionTable::new(hash_mib)), 0)
    }

    /// A searcher with evaluator `eval` and a transposition table of exactly `hash_mib` MiB,
    /// on one thread.
    ///
    /// # Errors
    /// [`TableError`] when the table cannot be allocated.
    pub fn try_new(eval: Box<dyn Evaluator>, hash_mib: usize) -> Result<Searcher, TableError> {
        Ok(Searcher::with_table(eval, Arc::new(TranspositionTable::try_new(hash_mib)?), 0))
    }

    fn with_table(eval: Box<dyn Evaluator>, tt: Arc<TranspositionTable>, id: usize) -> Searcher {
        Searcher {
            eval,
            tt,
            lists: (0..=MAX_PLY).map(|_| MoveList::new()).collect(),
            turns: (0..=MAX_PLY).map(|_| TurnList::new()).collect(),
            order: (0..=MAX_PLY).map(|_| Vec::with_capacity(256)).collect(),
            killers: vec![[None; 2]; MAX_PLY + 1],
            history: Box::new([[0; Point::NUM]; Point::NUM]),
            pv: (0..=MAX_PLY).map(|_| Vec::with_capacity(MAX_PLY)).collect(),
            pv_len: vec![0; MAX_PLY + 1],
            root: Position::start(),
            path: Vec::with_capacity(1024),
            rules: DrawRules::default(),
            root_ply: 0,
            nodes: 0,
            node_limit: u64::MAX,
            node_budget: u64::MAX,
            deadline: None,
            stop: Arc::new(AtomicBool::new(false)),
            stopped: false,
            settings: Settings::default(),
            id,
            helpers: Vec::new(),
            shared_nodes: None,
        }
    }

    /// Searches on `threads` threads (at least 1; the caller checks the count against the
    /// machine with [`crate::search::check_threads`]). With one thread (the default) a search
    /// is deterministic; with more, the helpers' timing changes what the shared table holds.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.max(1) - 1;
        self.helpers.truncate(helpers);
        while self.helpers.len() < helpers {
            let h = Searcher::with_table(self.eval.box_clone(), Arc::clone(&self.tt), self.helpers.len() + 1);
            self.helpers.push(h);
        }
        self.share_settings();
    }

    /// Copies this searcher's settings to its helpers.
    fn share_settings(&mut self) {
        for h in &mut self.helpers {
            h.settings.clone_from(&self.settings);
        }
    }

    /// The number of threads a search uses.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// The transposition table's size in MiB.
    pub fn hash_mib(&self) -> usize {
        self.tt.mib()
    }

    /// Probes these endgame tables in the search (`None`: none, the default).
    pub fn set_tablebase(&mut self, tb: Option<Arc<Tablebase>>) {
        self.settings.tb = tb;
        self.share_settings();
    }

    /// The evaluator's name.
    pub fn eval_name(&self) -> String {
        self.eval.name()
    }

    /// How many turns of forced captures are searched past the nominal depth (at most
    /// [`MAX_QUIESCENCE`]; [`DEFAULT_QUIESCENCE`] unless set).
    pub fn set_quiescence(&mut self, turns: usize) {
        self.settings.quiescence = turns.min(MAX_QUIESCENCE);
        self.share_settings();
    }

    /// Past its first turn, the quiescence search plays only the `width` captures that take
    /// the most stones at each node (the first generated on ties; 0, the default: every
    /// capture). A narrow search evaluates far fewer leaves and so reaches deeper at a time
    /// limit, at the cost of exchanges it does not see (docs/BENCHMARKS.md, "Quiescence
    /// width").
    pub fn set_quiescence_width(&mut self, width: usize) {
        self.settings.quiescence_width = width;
        self.share_settings();
    }

    /// Sets the search's tunable numbers (the quiescence depth among them: as
    /// [`Searcher::set_quiescence`]). At their defaults the search is the one without knobs.
    pub fn set_knobs(&mut self, knobs: &SearchKnobs) {
        let k = knobs;
        self.settings.reductions = Reductions::new(k.lmr_base, k.lmr_div, k.lmr_depth, k.lmr_index, k.lmr_pv);
        self.settings.knobs = *k;
        self.settings.quiescence = k.quiescence.min(MAX_QUIESCENCE);
        self.share_settings();
    }

    /// Forget everything learnt (a new game): the table, killers and history.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.forget_ordering();
        self.helpers.iter_mut().for_each(Searcher::forget_ordering);
    }

    fn forget_ordering(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        *self.history = [[0; Point::NUM]; Point::NUM];
    }

    /// Searches `root` within `limits` (or until `stop` is raised), calling `info` after each
    /// completed iteration. With helper threads, they search the same root (within the same
    /// depth limit) until this thread is done, and the answer is that of the thread with the
    /// deepest completed iteration (this one on ties); the limits, `info`'s node counts and the
    /// result's count every thread's nodes.
    pub fn search(
        &mut self,
        root: &SearchRoot,
        limits: Limits,
        stop: Arc<AtomicBool>,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        if self.helpers.is_empty() {
            return self.iterate(root, limits, stop, info);
        }
        let mut helpers = std::mem::take(&mut self.helpers);
        let shared = Arc::new(AtomicU64::new(0));
        let done = Arc::new(AtomicBool::new(false));
        self.shared_nodes = Some(Arc::clone(&shared));
        let helper_limits = Limits { depth: limits.depth, ..Limits::default() };
        let result = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .filter_map(|h| {
                    h.shared_nodes = Some(Arc::clone(&shared));
                    let done = Arc::clone(&done);
                    // A helper the system will not start is left out: the search stays correct.
                    std::thread::Builder::new()
                        .name(format!("search-{}", h.id))
                        .spawn_scoped(scope, move || h.iterate(root, helper_limits, done, &mut |_| {}))
                        .ok()
                })
                .collect();
            let main = self.iterate(root, limits, stop, info);
            done.store(true, Ordering::Relaxed);
            let others: Vec<SearchResult> = handles.into_iter().filter_map(|h| h.join().ok()).collect();
            deepest(main, others)
        });
        self.shared_nodes = None;
        self.helpers = helpers;
        result
    }

    /// The nodes of every thread so far (this one's exactly, the helpers' to the last
    /// [`CHECK_EVERY`]).
    fn all_nodes(&self) -> u64 {
        self.nodes + self.shared_nodes.as_ref().map_or(0, |n| n.load(Ordering::Relaxed))
    }

    /// Iterative deepening on this thread.
    fn iterate(
        &mut self,
        root: &SearchRoot,
        limits: Limits,
        stop: Arc<AtomicBool>,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let start = Instant::now();
        self.begin(root, stop);
        let pos = root.position;
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let mut result = SearchResult {
            best: moves.first().copied(),
            score: loss_in(0),
            depth: 0,
            nodes: 0,
            pv: moves.first().map(|m| vec![*m]).unwrap_or_default(),
            root: Vec::new(),
            elapsed: Duration::ZERO,
        };
        if moves.is_empty() {
            return result;
        }
        if let Some(tb) = &self.settings.tb
            && let Some(r) = super::tablebase::root_result(tb, root, start)
        {
            info(&Info { depth: r.depth, score: r.score, nodes: 0, elapsed: r.elapsed, pv: r.pv.clone() });
            return r;
        }
        // Root turns in search order, with their last scores.
        let mut order: Vec<(Move, i32)> = moves.iter().map(|m| (*m, 0)).collect();
        order.sort_by_key(|(m, _)| -(m.captured().count() as i32));
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        for depth in 1..=max_depth {
            if skips(self.id, depth) {
                continue;
            }
            let Some((score, best_index)) = self.aspirated(&pos, &mut order, depth, root.quiet, result.score)
            else {
                break;
            };
            if self.stopped {
                self.take_partial(&mut result, order[best_index].0, score);
                break;
            }
            if depth == 1 {
                self.arm_limits(&limits, start);
            }
            self.take_iteration(&mut result, &mut order, best_index, score, depth);
            info(&Info {
                depth,
                score,
                nodes: self.all_nodes(),
                elapsed: start.elapsed(),
                pv: result.pv.clone(),
            });
            if is_last_iteration(score, depth, &limits, start) {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = start.elapsed();
        result
    }

    /// Readies this thread for a search of `root`: the counters, the path of the game's
    /// history, the ordering memory aged, the evaluator at the root.
    fn begin(&mut self, root: &SearchRoot, stop: Arc<AtomicBool>) {
        self.stop = stop;
        self.stopped = false;
        self.nodes = 0;
        // The node and time limits are armed once the first iteration is complete
        // ([`Searcher::arm_limits`]): a search always returns a scored turn (a label or an
        // `info` line worth having), however small its budget; only the stop flag interrupts
        // the first iteration.
        self.node_limit = u64::MAX;
        self.node_budget = u64::MAX;
        self.deadline = None;
        self.rules = root.rules;
        self.root_ply = root.ply;
        self.root = root.position;
        self.path.clear();
        self.path.extend_from_slice(&root.history);
        self.path.push(root.position.hash());
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.history.iter_mut().flatten().for_each(|h| *h /= 8);
        self.eval.set_root(&root.position);
    }

    /// Arms the node and time limits (after the first iteration).
    fn arm_limits(&mut self, limits: &Limits, start: Instant) {
        self.node_budget = limits.nodes.unwrap_or(u64::MAX);
        self.node_limit = self.node_budget;
        self.deadline = limits.movetime.map(|t| start + t);
    }

    /// The principal variation of the last iteration, when it starts with `best`.
    fn pv_from(&self, best: Move) -> Vec<Move> {
        let mut pv = Vec::with_capacity(self.pv_len[0]);
        let (mut pos, mut moves) = (self.root, MoveList::new());
        for &i in &self.pv[0][..self.pv_len[0]] {
            pos.generate_moves(&mut moves);
            let Some(mv) = moves.get(i as usize) else { break };
            pv.push(*mv);
            pos.play_unchecked(mv);
        }
        if pv.first() == Some(&best) { pv } else { vec![best] }
    }

    /// Takes the best turn of a partial iteration: it was searched completely and the turn
    /// searched first was the last iteration's best, so it is the better choice; the completed
    /// depth stays the last one.
    fn take_partial(&self, result: &mut SearchResult, best: Move, score: i32) {
        result.best = Some(best);
        result.score = score;
        result.pv = self.pv_from(best);
    }

    /// Takes a completed iteration of `depth` into `result`, and orders the root turns for the
    /// next: stable, the best first, the rest by their (bound) scores.
    fn take_iteration(
        &self,
        result: &mut SearchResult,
        order: &mut Vec<(Move, i32)>,
        best_index: usize,
        score: i32,
        depth: u32,
    ) {
        let best = order.remove(best_index);
        order.insert(0, best);
        order[1..].sort_by_key(|&(_, s)| -s);
        result.best = Some(best.0);
        result.score = score;
        result.depth = depth;
        result.pv = self.pv_from(best.0);
        result.root = order.clone();
    }

    /// One iteration at the root, within an aspiration window around `last` (the previous
    /// iteration's score) when the knob sets one and the iteration is deep enough, widened
    /// (twice as wide each time) on the side the score falls out of until it lands inside.
    /// Returns the score and the best turn's index in `order`, or `None` if stopped before a
    /// score inside the window was had.
    fn aspirated(
        &mut self,
        pos: &Position,
        order: &mut [(Move, i32)],
        depth: u32,
        quiet: u32,
        last: i32,
    ) -> Option<(i32, usize)> {
        let delta = self.settings.knobs.aspiration;
        if delta <= 0 || depth < ASPIRATION_MIN_DEPTH || forced(last).is_some() {
            return self.root_iteration(pos, order, depth, quiet, (-INFINITY, INFINITY));
        }
        let mut width = delta;
        let (mut alpha, mut beta) = ((last - delta).max(-INFINITY), (last + delta).min(INFINITY));
        loop {
            let (score, index) = self.root_iteration(pos, order, depth, quiet, (alpha, beta))?;
            let outside = (score <= alpha && alpha > -INFINITY) || (score >= beta && beta < INFINITY);
            if !outside {
                return Some((score, index));
            }
            if self.stopped {
                return None;
            }
            width = width.saturating_mul(2);
            if score <= alpha {
                alpha = (score - width).max(-INFINITY);
            } else {
                beta = (score + width).min(INFINITY);
            }
        }
    }

    /// One iteration at the root within `window` (fail-soft: a score at or below its alpha is
    /// an upper bound, one at or above its beta a lower bound, and ends the iteration). Returns
    /// the score and the best turn's index in `order`, or `None` if stopped before the first
    /// turn was searched.
    fn root_iteration(
        &mut self,
        pos: &Position,
        order: &mut [(Move, i32)],
        depth: u32,
        quiet: u32,
        window: (i32, i32),
    ) -> Option<(i32, usize)> {
        let (floor, beta) = window;
        let mut alpha = floor;
        let mut best: Option<(i32, usize)> = None;
        self.pv_len[0] = 0;
        for (i, entry) in order.iter_mut().enumerate() {
            let mv = entry.0;
            let score = self.child(pos, &mv, depth as i32 - 1, 0, 0, alpha, beta, quiet, i == 0);
            if self.stopped {
                break;
            }
            entry.1 = score;
            if best.is_none() || score > alpha {
                alpha = alpha.max(score);
                best = Some((score, i));
                let index = self.index_in_generated(pos, &mv).unwrap_or(0);
                self.update_pv(0, index);
            }
            if score >= beta {
                break;
            }
        }
        let (score, index) = best?;
        let key = pos.hash();
        let list_index = self.index_in_generated(pos, &order[index].0);
        let bound = if score >= beta {
            Bound::Lower
        } else if score <= floor {
            Bound::Upper
        } else {
            Bound::Exact
        };
        if !self.stopped {
            self.tt.store(key, 0, list_index, score, depth, bound);
        }
        Some((score, index))
    }

    /// The Zobrist key of the position being searched (the path's last: a node's key is pushed
    /// when its turn is made, from its parent's and the turn's [`Position::hash_delta`]; the
    /// quiescence search, which reads no table, keeps none).
    #[inline]
    fn key(&self) -> u64 {
        self.path.last().copied().unwrap_or(0)
    }

    fn index_in_generated(&mut self, pos: &Position, mv: &Move) -> Option<usize> {
        let list = &mut self.lists[0];
        pos.generate_moves(list);
        list.iter().position(|m| m == mv)
    }

    /// The line at `ply`: the turn of index `index` in its generated turns, then the child's.
    fn update_pv(&mut self, ply: usize, index: usize) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = if ply < MAX_PLY { self.pv_len[ply + 1] } else { 0 };
        let line = &mut head[ply];
        line.clear();
        line.push(index as u32);
        if let Some(child) = tail.first() {
            line.extend_from_slice(&child[..child_len.min(child.len())]);
        }
        self.pv_len[ply] = line.len();
    }

    /// Plays `mv` from `pos` (at `ply`) and searches the child with PVS: a null window first
    /// unless `full`, widened when the child beats alpha. A late turn (`reduction > 0`, see
    /// [`reduction`]) is first searched with the null window `reduction` turns shallower, and
    /// to `depth` only when it beats alpha there; the turn is made once for both.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        pos: &Position,
        mv: &Move,
        depth: i32,
        reduction: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiet: u32,
        full: bool,
    ) -> i32 {
        let mut next = *pos;
        next.play_unchecked(mv);
        let key = self.key() ^ pos.hash_delta(&mv.turn());
        debug_assert_eq!(key, next.hash(), "the path's key of {next}");
        if depth > 0 {
            // The child probes the table (a quiescence node does not): its slot is on its way
            // while the evaluator and the draw rules do their part.
            self.tt.prefetch(key);
        }
        self.nodes += 1;
        self.eval.make(pos, &mv.turn());
        self.path.push(key);
        let quiet = if mv.is_paika() { quiet + 1 } else { 0 };
        let score = if full {
            -self.negamax(&next, depth, ply + 1, -beta, -alpha, quiet)
        } else {
            self.scout(&next, depth, reduction, ply, alpha, beta, quiet)
        };
        self.path.pop();
        self.eval.unmake();
        score
    }

    /// The null-window part of [`Searcher::child`], `next` already made: reduced first when
    /// `reduction > 0`, then at `depth`, then with the full window when inside it. A search
    /// again at `depth` after a reduced one counts as a node, as a turn made again would.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn scout(
        &mut self,
        next: &Position,
        depth: i32,
        reduction: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        quiet: u32,
    ) -> i32 {
        if reduction > 0 {
            let s = -self.negamax(next, depth - reduction, ply + 1, -alpha - 1, -alpha, quiet);
            if s <= alpha || self.stopped {
                return s;
            }
            self.nodes += 1;
        }
        let s = -self.negamax(next, depth, ply + 1, -alpha - 1, -alpha, quiet);
        if s > alpha && s < beta && !self.stopped {
            -self.negamax(next, depth, ply + 1, -beta, -alpha, quiet)
        } else {
            s
        }
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.stopped = true;
        } else if self.nodes.is_multiple_of(CHECK_EVERY) {
            if let Some(shared) = &self.shared_nodes {
                if self.id == 0 {
                    // The budget is the whole search's: what the helpers spent is not ours.
                    self.node_limit = self.node_budget.saturating_sub(shared.load(Ordering::Relaxed));
                } else {
                    shared.fetch_add(CHECK_EVERY, Ordering::Relaxed);
                }
            }
            if self.stop.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if let Some(d) = self.deadline
                && Instant::now() >= d
            {
                self.stopped = true;
            }
        }
        self.stopped
    }

    /// Whether the position just entered (at `ply`, after `quiet` quiet turns) is drawn.
    #[inline]
    fn is_draw(&self, ply: usize, quiet: u32) -> bool {
        if self.rules.max_quiet_plies > 0 && quiet >= self.rules.max_quiet_plies {
            return true;
        }
        if self.rules.max_plies > 0 && self.root_ply as usize + ply >= self.rules.max_plies as usize {
            return true;
        }
        // A repetition: the same position with the same side to move since the last capture.
        let n = self.path.len();
        if quiet >= 4 {
            let h = self.path[n - 1];
            let back = (quiet as usize).min(n - 1);
            let mut k = 4;
            while k <= back {
                if self.path[n - 1 - k] == h {
                    return true;
                }
                k += 2;
            }
        }
        false
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        quiet: u32,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if let Some(score) = self.settled_score(pos, ply, quiet) {
            return score;
        }
        if depth <= 0 || ply >= MAX_PLY - MAX_QUIESCENCE - 1 {
            return self.quiescence(pos, ply, alpha, beta, 0);
        }
        // Forced results cannot be better than winning now, nor worse than losing now.
        alpha = alpha.max(loss_in(ply as u32));
        let beta = beta.min(-loss_in(ply as u32 + 1));
        if alpha >= beta {
            return alpha;
        }
        let key = self.key();
        debug_assert_eq!(key, pos.hash(), "the path's key of {pos}");
        let pv_node = beta - alpha > 1;
        let tt_move = match self.probe_table(key, ply, depth, alpha, beta, pv_node) {
            Ok(score) => return score,
            Err(tt_move) => tt_move,
        };
        if let Some(score) = self.reverse_futility(pos, depth, beta, pv_node) {
            return score;
        }
        // The move lists stay in place (a list is 5 KiB inline): indexed, never moved.
        pos.generate_moves(&mut self.lists[ply]);
        if self.lists[ply].is_empty() {
            return loss_in(ply as u32);
        }
        let window = Window { alpha, beta, pv_node };
        let (best_score, best_index) = self.search_moves(pos, depth, ply, window, quiet, tt_move);
        if self.stopped {
            return 0;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, ply, best_index, best_score, depth as u32, bound);
        best_score
    }

    /// The score of a node that needs no search: out of budget (0, discarded), no stones left
    /// to the side to move, a draw by the rules, or a tablebase hit.
    #[inline(always)]
    fn settled_score(&mut self, pos: &Position, ply: usize, quiet: u32) -> Option<i32> {
        if self.out_of_budget() {
            return Some(0);
        }
        if pos.us().is_empty() {
            return Some(loss_in(ply as u32));
        }
        if self.is_draw(ply, quiet) {
            return Some(DRAW);
        }
        let tb = self.settings.tb.as_ref()?;
        probe_score(tb, pos, ply as u32, quiet, self.rules.max_quiet_plies)
    }

    /// Reverse futility pruning (the knobs `rfp_depth`, `rfp_margin`; off by default): at a
    /// shallow non-PV node whose static score beats `beta` by a margin per remaining turn, that
    /// score, taken as a lower bound, without a search.
    #[inline(always)]
    fn reverse_futility(&mut self, pos: &Position, depth: i32, beta: i32, pv_node: bool) -> Option<i32> {
        let k = &self.settings.knobs;
        // A side without a turn has lost, whatever its stones are worth.
        if pv_node || depth > k.rfp_depth || beta.abs() >= FORCED || !has_paika_move(pos) {
            return None;
        }
        let margin = k.rfp_margin * depth;
        let score = self.evaluate(pos);
        (score - margin >= beta).then_some(score)
    }

    /// The table's verdict on a node: `Ok(score)` when its entry cuts the search off (never at
    /// a PV node), else `Err` with its move to try first, if any.
    #[inline(always)]
    fn probe_table(
        &self,
        key: u64,
        ply: usize,
        depth: i32,
        alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> Result<i32, Option<usize>> {
        let Some(hit) = self.tt.probe(key, ply) else {
            return Err(None);
        };
        if !pv_node && hit.depth >= depth as u32 {
            let cut = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => hit.score >= beta,
                Bound::Upper => hit.score <= alpha,
                Bound::None => false,
            };
            if cut {
                return Ok(hit.score);
            }
        }
        Err(hit.mv)
    }

    /// Searches the moves of `self.lists[ply]` best-first: the best score and the index of
    /// its move (a beta cut-off rewards the move that caused it).
    #[inline(always)]
    fn search_moves(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        window: Window,
        quiet: u32,
        tt_move: Option<usize>,
    ) -> (i32, Option<usize>) {
        let Window { mut alpha, beta, pv_node } = window;
        let count = self.lists[ply].len();
        let mut order = std::mem::take(&mut self.order[ply]);
        self.score_moves(ply, &mut order, tt_move);
        let mut best_score = -INFINITY;
        let mut best_index = None;
        let mut ahead = None;
        for n in 0..count {
            let i = ahead.take().unwrap_or_else(|| pick(&mut order));
            // Past the first turn (most cut-offs come from it), the turn after this one is
            // picked now (the order is fixed once scored) and its child's slot fetched while
            // this turn's subtree is searched.
            if n > 0 && n + 1 < count && depth > 1 {
                let j = pick(&mut order);
                self.tt.prefetch(self.key() ^ pos.hash_delta(&self.lists[ply][j].turn()));
                ahead = Some(j);
            }
            let mv = self.lists[ply][i];
            let r = self.settings.reductions.get(depth, n, pv_node);
            let score = self.child(pos, &mv, depth - 1, r, ply, alpha, beta, quiet, n == 0);
            if self.stopped {
                break;
            }
            if score > best_score {
                best_score = score;
                best_index = Some(i);
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, i);
                    }
                    if alpha >= beta {
                        self.reward(&mv, ply, depth);
                        break;
                    }
                }
            }
        }
        self.order[ply] = order;
        (best_score, best_index)
    }

    /// Past the nominal depth: captures are compulsory, so a side that can capture must; those
    /// forced exchanges are searched (up to [`Searcher::set_quiescence`] turns) before evaluating.
    fn quiescence(&mut self, pos: &Position, ply: usize, alpha: i32, beta: i32, qply: usize) -> i32 {
        self.pv_len[ply] = 0;
        if pos.us().is_empty() {
            return loss_in(ply as u32);
        }
        // After a capture (qply > 0) the quiet count is 0.
        if qply > 0
            && let Some(tb) = &self.settings.tb
            && let Some(score) = probe_score(tb, pos, ply as u32, 0, self.rules.max_quiet_plies)
        {
            return score;
        }
        let deeper = qply < self.settings.quiescence && ply < MAX_PLY - 1;
        // The captures are generated only where they are searched.
        if deeper && pos.generate_captures(&mut self.turns[ply]) {
            return self.search_captures(pos, ply, alpha, beta, qply);
        }
        // Not searched deeper: a side with a turn is evaluated, one without has lost. A capture
        // begins with a step to an empty point, so a side with a capture has a step too, and
        // whether it has a step is the one question.
        if !has_paika_move(pos) {
            return loss_in(ply as u32);
        }
        self.evaluate(pos)
    }

    /// Searches the captures of `self.turns[ply]`, most stones first (the first generated on
    /// ties; past the first quiescence turn, only the first [`Settings::quiescence_width`]
    /// when set): the best score.
    fn search_captures(&mut self, pos: &Position, ply: usize, mut alpha: i32, beta: i32, qply: usize) -> i32 {
        let count = self.turns[ply].len();
        let mut order = std::mem::take(&mut self.order[ply]);
        order.clear();
        order.extend(self.turns[ply].iter().map(|t| t.captured().count() as i32));
        let mut best = -INFINITY;
        let width = self.settings.quiescence_width;
        let searched = if width > 0 && qply > 0 { count.min(width) } else { count };
        for _ in 0..searched {
            let i = pick(&mut order);
            let turn = self.turns[ply][i];
            let mut next = *pos;
            next.play_turn(&turn);
            self.nodes += 1;
            if self.out_of_budget() {
                break;
            }
            self.eval.make(pos, &turn);
            let score = -self.quiescence(&next, ply + 1, -beta, -alpha, qply + 1);
            self.eval.unmake();
            if self.stopped {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, i);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        self.order[ply] = order;
        if self.stopped { 0 } else { best }
    }

    #[inline]
    fn evaluate(&mut self, pos: &Position) -> i32 {
        self.eval.evaluate(pos).clamp(-FORCED, FORCED)
    }

    fn score_moves(&self, ply: usize, order: &mut Vec<i32>, tt_move: Option<usize>) {
        let list = &self.lists[ply];
        order.clear();
        let [k1, k2] = self.killers[ply];
        let (killer_1, killer_2) = (self.settings.knobs.killer1, self.settings.knobs.killer2);
        // Capturing is compulsory, so a list is all captures or all paika moves. A paika move
        // captures nothing (no stone count) and is its origin and destination (one step, whose
        // direction they give): a killer equals it exactly when it is a paika move with the
        // same two points, a comparison of one small key.
        if list.first().is_some_and(Move::is_paika) {
            let killer_key = |k: Option<Move>| k.filter(Move::is_paika).map_or(u32::MAX, |k| paika_key(&k));
            let (k1, k2) = (killer_key(k1), killer_key(k2));
            order.extend(list.iter().map(|m| {
                let key = paika_key(m);
                if key == k1 {
                    killer_1
                } else if key == k2 {
                    killer_2
                } else {
                    self.history[m.from().index()][m.to().index()]
                }
            }));
        } else {
            order.extend(list.iter().map(|m| {
                let mut s = m.captured().count() as i32 * PER_STONE;
                if k1.as_ref() == Some(m) {
                    s += killer_1;
                } else if k2.as_ref() == Some(m) {
                    s += killer_2;
                } else {
                    s += self.history[m.from().index()][m.to().index()];
                }
                s
            }));
        }
        if let Some(s) = tt_move.and_then(|i| order.get_mut(i)) {
            *s = TT_MOVE;
        }
    }

    fn reward(&mut self, mv: &Move, ply: usize, depth: i32) {
        let k = &mut self.killers[ply];
        if k[0].as_ref() != Some(mv) {
            k[1] = k[0];
            k[0] = Some(*mv);
        }
        let h = &mut self.history[mv.from().index()][mv.to().index()];
        *h += depth * depth;
        if *h > self.settings.knobs.history_max {
            self.history.iter_mut().flatten().for_each(|x| *x /= 2);
        }
    }
}

/// The answer of a search on several threads: the main thread's, unless a helper completed a
/// deeper iteration (the deepest, the first of those on ties); the nodes are everyone's.
/// Whether the iteration of `depth` that scored `score` is the last: a forced result within
/// the searched depth cannot change, and with a move time another iteration would likely not
/// finish in time.
fn is_last_iteration(score: i32, depth: u32, limits: &Limits, start: Instant) -> bool {
    if let Some((_, turns)) = forced(score)
        && turns <= depth
        && !limits.is_infinite()
    {
        return true;
    }
    limits.movetime.is_some_and(|limit| start.elapsed() > limit / 2)
}

fn deepest(main: SearchResult, others: Vec<SearchResult>) -> SearchResult {
    let nodes = main.nodes + others.iter().map(|r| r.nodes).sum::<u64>();
    let elapsed = main.elapsed;
    let mut best = main;
    for r in others {
        if r.depth > best.depth && r.best.is_some() {
            best = r;
        }
    }
    SearchResult { nodes, elapsed, ..best }
}

/// A paika move's key: its origin and destination (which give its one step).
#[inline(always)]
fn paika_key(m: &Move) -> u32 {
    m.from() as u32 | (m.to() as u32) << 8
}

/// A node's search window.
#[derive(Clone, Copy)]
struct Window {
    alpha: i32,
    beta: i32,
    pv_node: bool,
}
