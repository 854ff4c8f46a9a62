//! Settling what the search has explored, cycles and all: a retrograde analysis over every
//! node in the transposition table.
//!
//! df-pn handles a repetition on its own line, but a position that can only be held by
//! going round a cycle is costly for it: each result that leans on a node above it is kept
//! only while that node is searched. Here the explored graph is solved exactly, as a table
//! generator would: a node is won for the attacker when it can force its way, inside the
//! graph, to the end of the game or a won table position (the attractor of the wins); a node
//! is lost for the attacker when it cannot even force its way out of the graph or to a win
//! (outside the attractor of the wins and the unexplored successors): the defender can keep
//! the game inside the graph, in the positions that are neither, for ever. Both answers hold
//! wherever the node is met, so they are stored as solved.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::dfpn::Search;
use crate::node::{KeyHasher, Known, Node};

/// What one settling found.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Settled {
    /// Open nodes of the table looked at.
    pub nodes: usize,
    /// Of which found won for the attacker.
    pub wins: usize,
    /// Of which found lost for the attacker (drawn or won by the defender).
    pub fails: usize,
}

/// A successor as the analysis sees it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Edge {
    /// Settled already: a leaf or a solved entry.
    Known(Known),
    /// An open node of the graph.
    Open(u32),
    /// Not explored.
    Unexplored,
}

/// Settles every open node of `search`'s table (and `root`) that the explored graph decides.
pub fn settle(search: &mut Search<'_>, root: Node) -> Settled {
    let mut open: Vec<Node> = search.table.iter().filter(|(_, e)| !e.solved()).map(|(n, _)| n).collect();
    if search.status(root).is_none() && !open.contains(&root) {
        open.push(root);
    }
    let index: HashMap<Node, u32, BuildHasherDefault<KeyHasher>> =
        open.iter().enumerate().map(|(i, &n)| (n, i as u32)).collect();
    let (offsets, edges) = successors(search, &open, &index);
    let parents = reverse(&offsets, &edges, open.len());
    let wins = attractor(&open, &offsets, &edges, &parents, false);
    let maybe = attractor(&open, &offsets, &edges, &parents, true);
    let mut settled = Settled { nodes: open.len(), ..Settled::default() };
    // Wins in the order they joined, so that each is numbered after what it rests on.
    let mut won: Vec<(u32, usize)> =
        (0..open.len()).filter(|&i| wins.order[i] != 0).map(|i| (wins.order[i], i)).collect();
    won.sort_unstable();
    for &(_, i) in &won {
        search.settle(open[i], Known::AttackerWins);
    }
    settled.wins = won.len();
    for (i, &n) in open.iter().enumerate() {
        if wins.order[i] == 0 && maybe.order[i] == 0 {
            search.settle(n, Known::AttackerFails);
            settled.fails += 1;
        }
    }
    settled
}

/// Every open node's successors, as offsets into one array of edges.
fn successors(
    search: &Search<'_>,
    open: &[Node],
    index: &HashMap<Node, u32, BuildHasherDefault<KeyHasher>>,
) -> (Vec<usize>, Vec<Edge>) {
    let mut offsets = Vec::with_capacity(open.len() + 1);
    let mut edges = Vec::new();
    let mut kids = Vec::new();
    offsets.push(0);
    for &n in open {
        n.children(&mut kids);
        if kids.is_empty() {
            // The side to move has no turn: it has lost, a settled "successor" of its own.
            edges.push(Edge::Known(Known::lost_by_mover(n)));
        }
        for &c in &kids {
            edges.push(match (search.status(c), index.get(&c)) {
                (Some(k), _) => Edge::Known(k),
                (None, Some(&j)) => Edge::Open(j),
                (None, None) => Edge::Unexplored,
            });
        }
        offsets.push(edges.len());
    }
    (offsets, edges)
}

/// For each open node, the open nodes that have it as a successor.
fn reverse(offsets: &[usize], edges: &[Edge], n: usize) -> Vec<Vec<u32>> {
    let mut parents = vec![Vec::new(); n];
    for i in 0..n {
        for e in &edges[offsets[i]..offsets[i + 1]] {
            if let Edge::Open(j) = *e {
                parents[j as usize].push(i as u32);
            }
        }
    }
    parents
}

/// The attractor of the attacker's wins (and, with `unexplored_wins`, of the unexplored
/// successors too): the nodes from which the attacker can force reaching them. `order[i]` is
/// the step at which node `i` joined (0: it did not), so a node's win rests only on nodes that
/// joined before it.
struct Attractor {
    order: Vec<u32>,
}

fn attractor(
    open: &[Node],
    offsets: &[usize],
    edges: &[Edge],
    parents: &[Vec<u32>],
    unexplored_wins: bool,
) -> Attractor {
    let n = open.len();
    let target = |e: &Edge| match e {
        Edge::Known(k) => *k == Known::AttackerWins,
        Edge::Unexplored => unexplored_wins,
        Edge::Open(_) => false,
    };
    let blocked = |e: &Edge| match e {
        Edge::Known(k) => *k == Known::AttackerFails,
        Edge::Unexplored => !unexplored_wins,
        Edge::Open(_) => false,
    };
    // For an AND node, how many successors still keep it out (open ones not yet in).
    let mut waiting = vec![0u32; n];
    let mut order = vec![0u32; n];
    let mut queue = Vec::new();
    for i in 0..n {
        let out = &edges[offsets[i]..offsets[i + 1]];
        let joins = if open[i].attacker_to_move() {
            out.iter().any(target)
        } else if out.iter().any(blocked) {
            waiting[i] = u32::MAX;
            false
        } else {
            waiting[i] = out.iter().filter(|e| matches!(e, Edge::Open(_))).count() as u32;
            waiting[i] == 0
        };
        if joins {
            queue.push(i as u32);
        }
    }
    let mut step = 0;
    let mut head = 0;
    for &i in &queue {
        step += 1;
        order[i as usize] = step;
    }
    while head < queue.len() {
        let i = queue[head] as usize;
        head += 1;
        for &p in &parents[i] {
            let p = p as usize;
            if order[p] != 0 {
                continue;
            }
            let joins = if open[p].attacker_to_move() {
                true
            } else if waiting[p] == u32::MAX {
                false
            } else {
                waiting[p] -= 1;
                waiting[p] == 0
            };
            if joins {
                step += 1;
                order[p] = step;
                queue.push(p as u32);
            }
        }
    }
    Attractor { order }
}
