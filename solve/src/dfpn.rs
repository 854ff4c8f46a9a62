//! Depth-first proof-number search (df-pn, Nagai 2002) with the 1+ε trick (Pawlewicz and Lew
//! 2007), over the move generator and the endgame tables.
//!
//! Each node answers the question of its side to move in the φ/δ form: φ is the proof number
//! of the side to move's goal (the attacker's win at an OR node, the defender's escape at an AND
//! node), δ its disproof number; φ(n) is the least δ of the children and δ(n) the sum of their
//! φ. A node is solved when φ or δ reaches 0.
//!
//! Rules: the game's own, with no limit on its length: a side with no stones or no turn has
//! lost; a position that comes back on the current line is a failure for the attacker (endless
//! play is a draw, and a side that can force a win can force it without repeating a position).
//! That makes a disproof depend on the line it was found on (the graph-history interaction):
//! the search may store such disproofs, so its answer is a claim that the certificate built
//! from it ([`crate::certificate`]) and the independent check ([`crate::check`]) must confirm.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use fanorona_tb::Tablebase;

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::node::{KeyHasher, Known, Node, NodeSet};
use crate::tt::{INF, Table};

/// The deepest line searched: a node further down counts as an open node too costly to
/// expand (it is never solved through that line).
pub const MAX_DEPTH: usize = 4000;

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The attacker wins from the root.
    AttackerWins,
    /// The attacker does not win from the root.
    AttackerFails,
    /// The budget ran out first.
    Unknown,
}

/// What a search counted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes expanded (calls of the search's inner loop on a node).
    pub nodes: u64,
    /// The deepest line reached.
    pub max_depth: usize,
    /// Lines cut because a position came back.
    pub repetitions: u64,
    /// Children settled by the tables or the end of the game.
    pub leaves: u64,
}

/// How initial proof numbers are guessed for a node not searched yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Init {
    /// φ = δ = 1 (plain df-pn).
    #[default]
    Unit,
    /// From the material: the side with more stones is taken to be closer to its goal.
    Material,
}

/// A df-pn search over one question.
pub struct Search<'a> {
    tb: Option<&'a Tablebase>,
    /// The transposition table.
    pub table: Table,
    path: HashMap<Node, u32, BuildHasherDefault<KeyHasher>>,
    /// Nodes that count as failures for the attacker wherever they come back (a certificate's
    /// nodes while it is built).
    safe: NodeSet,
    frames: Vec<Frame>,
    stop: Option<&'a AtomicBool>,
    budget: u64,
    deadline: Option<Instant>,
    init: Init,
    store_dependent: bool,
    order: u32,
    /// What it has counted so far.
    pub stats: Stats,
}

impl std::fmt::Debug for Search<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Search")
            .field("stats", &self.stats)
            .field("table_bytes", &self.table.bytes())
            .finish()
    }
}

impl<'a> Search<'a> {
    /// A search with a table of `table_bytes` bytes, over the tables `tb` if given.
    pub fn new(tb: Option<&'a Tablebase>, table_bytes: u64) -> Search<'a> {
        Search::with_table(tb, Table::with_bytes(table_bytes), 0)
    }

    /// A search over a table already filled (a checkpoint's), whose solved entries were
    /// numbered up to `order`.
    pub fn with_table(tb: Option<&'a Tablebase>, table: Table, order: u32) -> Search<'a> {
        Search {
            tb,
            table,
            path: HashMap::default(),
            safe: NodeSet::default(),
            frames: Vec::new(),
            stop: None,
            budget: u64::MAX,
            deadline: None,
            init: Init::default(),
            store_dependent: false,
            order,
            stats: Stats::default(),
        }
    }

    /// Stops when `flag` is set (checked between nodes).
    pub fn stop_on(&mut self, flag: &'a AtomicBool) {
        self.stop = Some(flag);
    }

    /// Stops after `nodes` more nodes, or at `deadline`.
    pub fn limit(&mut self, nodes: u64, deadline: Option<Instant>) {
        self.budget = self.stats.nodes.saturating_add(nodes);
        self.deadline = deadline;
    }

    /// Counts `node` as a failure for the attacker wherever it comes back (a node of a
    /// disproof being built: every node of it must hold, so leaning on one is sound).
    pub fn mark_safe(&mut self, node: Node) {
        self.safe.insert(node);
    }

    /// Forgets the safe nodes.
    pub fn clear_safe(&mut self) {
        self.safe.clear();
    }

    /// Stores results that lean on a repetition above them as if they did not (faster in
    /// positions full of cycles, but such a result can be wrong elsewhere: the certificate
    /// built from the search and its check are then what make the answer sound).
    pub fn set_store_dependent(&mut self, on: bool) {
        self.store_dependent = on;
    }

    /// Sets how unsearched nodes are guessed.
    pub fn set_init(&mut self, init: Init) {
        self.init = init;
    }

    /// The last order given to a solved node (for checkpoints).
    pub fn order(&self) -> u32 {
        self.order
    }

    /// The tables the search uses.
    pub fn tables(&self) -> Option<&'a Tablebase> {
        self.tb
    }

    fn stopped(&self) -> bool {
        self.stats.nodes >= self.budget
            || self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || (self.stats.nodes.is_multiple_of(4096) && self.deadline.is_some_and(|d| Instant::now() >= d))
    }

    /// Searches `root` until it is solved or the budget runs out.
    pub fn run(&mut self, root: Node) -> Outcome {
        if let Some(k) = root.known(self.tb) {
            return outcome(k);
        }
        let v = self.mid(root, INF, INF, 0);
        match (v.phi, v.delta, root.attacker_to_move()) {
            (0, _, true) | (_, 0, false) => Outcome::AttackerWins,
            (0, _, false) | (_, 0, true) => Outcome::AttackerFails,
            _ => Outcome::Unknown,
        }
    }

    /// What is known of `node` now: a leaf, a stored solved entry, or nothing.
    pub fn status(&self, node: Node) -> Option<Known> {
        if let Some(k) = node.known(self.tb) {
            return Some(k);
        }
        let e = self.table.get(node)?;
        let mover_achieves = e.phi == 0;
        if !e.solved() {
            return None;
        }
        Some(match (mover_achieves, node.attacker_to_move()) {
            (true, true) | (false, false) => Known::AttackerWins,
            _ => Known::AttackerFails,
        })
    }

    /// The order in which a stored solved node was solved.
    pub fn solved_order(&self, node: Node) -> Option<u32> {
        self.table.get(node).filter(|e| e.solved()).map(|e| e.order)
    }

    /// φ and δ of a child as the parent sees it (`known`: what the tables or the end of the
    /// game say of it, looked up once when its parent was expanded).
    fn child(&mut self, c: Node, known: Option<Known>) -> Value {
        if let Some(k) = known {
            return Value::settled(c, k, FREE);
        }
        if !self.safe.is_empty() && self.safe.contains(&c) {
            return Value::settled(c, Known::AttackerFails, FREE);
        }
        if let Some(&at) = self.path.get(&c) {
            self.stats.repetitions += 1;
            return Value::settled(c, Known::AttackerFails, at);
        }
        match self.table.get(c) {
            Some(e) => Value { phi: e.phi, delta: e.delta, dep: FREE },
            None => self.initial(c),
        }
    }

    fn initial(&self, c: Node) -> Value {
        let (phi, delta) = match self.init {
            Init::Unit => (1, 1),
            Init::Material => {
                let (mine, theirs) = (c.us().count_ones(), c.them().count_ones());
                // Up to 8x either way: the side to move with more stones looks closer to its goal.
                let phi = (1 + 2 * theirs).div_ceil(1 + mine).clamp(1, 8);
                let delta = (1 + 2 * mine).div_ceil(1 + theirs).clamp(1, 8);
                (phi, delta)
            }
        };
        Value { phi, delta, dep: FREE }
    }

    /// The multiple-iterative-deepening step of df-pn at `n`, `depth` turns below the root
    /// (neither a leaf nor on the line). A result that leans on a repetition of a node above
    /// `n` is not stored: the parent keeps it for as long as it is searched itself.
    fn mid(&mut self, n: Node, th_phi: u32, th_delta: u32, depth: u32) -> Value {
        self.stats.nodes += 1;
        self.stats.max_depth = self.stats.max_depth.max(depth as usize);
        let start = self.stats.nodes;
        if depth as usize >= MAX_DEPTH {
            self.table.put(n, INF - 1, INF - 1, 1, 0);
            return Value { phi: INF - 1, delta: INF - 1, dep: FREE };
        }
        let mut frame = self.frames.pop().unwrap_or_default();
        if n.children(&mut frame.kids) == 0 {
            self.frames.push(frame);
            let v = Value::settled(n, Known::lost_by_mover(n), FREE);
            self.store(n, v.phi, v.delta, 1);
            return v;
        }
        frame.known.clear();
        frame.known.extend(frame.kids.iter().map(|c| c.known(self.tb)));
        frame.kept.clear();
        frame.kept.resize(frame.kids.len(), None);
        self.stats.leaves += frame.known.iter().filter(|k| k.is_some()).count() as u64;
        self.path.insert(n, depth);
        self.refresh(&mut frame);
        let mut v;
        let mut round = 0u32;
        loop {
            let (value, best, delta2) = evaluate(&frame.values);
            v = value;
            if v.phi >= th_phi || v.delta >= th_delta || self.stopped() {
                break;
            }
            let c = frame.kids[best];
            let c_phi = frame.values[best].phi;
            let th_phi_c =
                if th_delta == INF { INF } else { (th_delta - v.delta).saturating_add(c_phi).min(INF - 1) };
            let th_delta_c =
                if delta2 == INF { th_phi } else { th_phi.min(delta2.saturating_add((delta2 / 4).max(1))) };
            let r = self.mid(c, th_phi_c, th_delta_c, depth + 1);
            frame.values[best] = r;
            frame.kept[best] = (r.solved() && r.dep <= depth && !self.store_dependent).then_some(r);
            round += 1;
            // Siblings change only through transpositions: read them again now and then.
            if round.is_multiple_of(REFRESH) {
                self.refresh(&mut frame);
            }
        }
        self.path.remove(&n);
        self.frames.push(frame);
        if !v.solved() || v.dep >= depth || self.store_dependent {
            self.store(n, v.phi, v.delta, self.stats.nodes - start + 1);
        }
        v
    }

    /// Reads every child's value again (the kept ones from the frame).
    fn refresh(&mut self, frame: &mut Frame) {
        frame.values.clear();
        for i in 0..frame.kids.len() {
            let v = frame.kept[i].unwrap_or_else(|| self.child(frame.kids[i], frame.known[i]));
            frame.values.push(v);
        }
    }
}

/// Iterations of a node's loop between two full readings of its children.
const REFRESH: u32 = 8;

/// A node's value from its children, the child of least δ, and the second least δ. δ is
/// INF only when a child is solved against its own mover (so φ is 0); an open sum stops at
/// INF - 1. A solved value leans on the shallowest repetition it needs: for φ = 0 the
/// child that needs the least, for δ = 0 every child.
fn evaluate(values: &[Value]) -> (Value, usize, u32) {
    let (mut phi, mut delta2, mut best) = (INF, INF, 0);
    let (mut sum, mut infinite) = (0u64, false);
    let (mut win_dep, mut all_dep) = (0u32, FREE);
    for (i, &cv) in values.iter().enumerate() {
        if cv.delta < phi {
            delta2 = phi;
            phi = cv.delta;
            best = i;
        } else if cv.delta < delta2 {
            delta2 = cv.delta;
        }
        if cv.delta == 0 {
            win_dep = win_dep.max(cv.dep);
        }
        all_dep = all_dep.min(cv.dep);
        if cv.phi == INF {
            infinite = true;
        } else {
            sum += u64::from(cv.phi);
        }
    }
    let delta = if infinite { INF } else { sum.min(u64::from(INF - 1)) as u32 };
    let dep = match (phi, delta) {
        (0, _) => win_dep,
        (_, 0) => all_dep,
        _ => FREE,
    };
    (Value { phi, delta, dep }, best, delta2)
}

impl Search<'_> {
    /// Stores `node` as solved with outcome `k` (found by an analysis that holds wherever the
    /// node is met).
    pub fn settle(&mut self, node: Node, k: Known) {
        let v = Value::settled(node, k, FREE);
        self.store(node, v.phi, v.delta, 1);
    }

    /// Stores a node's numbers; a solved node keeps the order in which it was first solved
    /// (what is proven before a node can be used in its proof).
    fn store(&mut self, n: Node, phi: u32, delta: u32, work: u64) {
        let order = if phi == 0 || delta == 0 {
            match self.table.get(n) {
                Some(e) if (e.phi, e.delta) == (phi, delta) && e.order != 0 => e.order,
                _ => {
                    self.order = self.order.saturating_add(1);
                    self.order
                }
            }
        } else {
            0
        };
        self.table.put(n, phi, delta, work, order);
    }
}

/// A result that leans on no repetition.
const FREE: u32 = u32::MAX;

/// A node's numbers as its parent sees them, with the depth of the shallowest node on the
/// line whose repetition the result leans on ([`FREE`]: none; only solved values lean).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Value {
    phi: u32,
    delta: u32,
    dep: u32,
}

impl Value {
    /// The value of a solved node.
    fn settled(n: Node, k: Known, dep: u32) -> Value {
        let mover_achieves = (k == Known::AttackerWins) == n.attacker_to_move();
        let (phi, delta) = if mover_achieves { (0, INF) } else { (INF, 0) };
        Value { phi, delta, dep }
    }

    fn solved(self) -> bool {
        self.phi == 0 || self.delta == 0
    }
}

/// What one level of the search keeps: the node's distinct successors, what the tables or the
/// end of the game say of each, and the solved values it keeps for those whose result leans on
/// a repetition above them (valid while the node itself is searched).
#[derive(Debug, Default)]
struct Frame {
    kids: Vec<Node>,
    known: Vec<Option<Known>>,
    kept: Vec<Option<Value>>,
    values: Vec<Value>,
}

fn outcome(k: Known) -> Outcome {
    match k {
        Known::AttackerWins => Outcome::AttackerWins,
        Known::AttackerFails => Outcome::AttackerFails,
    }
}
