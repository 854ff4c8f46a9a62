//! Certificates: what a solved question leaves behind for anyone to check.
//!
//! - "The attacker wins" is a proof graph: at every node where the attacker moves, one chosen
//!   turn; where the defender moves, every turn; every line ends at the end of the game or in a
//!   table position won by the attacker; and the graph has no cycle (each node is proven from
//!   nodes proven before it), so the attacker's win is reached in finitely many turns.
//! - "The attacker fails" is a closed set: at every node where the defender moves, one chosen
//!   turn; where the attacker moves, every turn; every turn stays in the set or reaches a table
//!   position or an end the attacker does not win. Cycles are allowed: play that stays in the
//!   set forever is a draw, so the defender's strategy keeps the attacker from winning.
//!
//! The builder reads the choices off the search's transposition table, searching again where
//! an entry was lost; what it builds is checked by [`crate::check`], not trusted.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use crate::dfpn::{Outcome, Search};
use crate::node::{KeyHasher, Known, Node};

/// What a certificate claims about its root.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Claim {
    /// The attacker can force a win.
    AttackerWins,
    /// The attacker cannot force a win (the defender draws or wins).
    AttackerFails,
}

impl Claim {
    /// The outcome a leaf must have to support the claim.
    pub fn known(self) -> Known {
        match self {
            Claim::AttackerWins => Known::AttackerWins,
            Claim::AttackerFails => Known::AttackerFails,
        }
    }

    /// Whether the side to move at `n` is the one whose choice the certificate records (the
    /// attacker for a win, the defender for a failure).
    pub fn chooses(self, n: Node) -> bool {
        n.attacker_to_move() == (self == Claim::AttackerWins)
    }
}

/// A claim with the nodes that support it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate {
    /// What it claims.
    pub claim: Claim,
    /// The node it claims it of.
    pub root: Node,
    /// Its nodes, sorted, each with its choice (the index of the chosen successor among the
    /// node's distinct successors in ascending order) where [`Claim::chooses`] it.
    pub nodes: Vec<(Node, Option<u16>)>,
}

/// Why a certificate could not be built.
#[derive(Debug, Clone, thiserror::Error, PartialEq, Eq)]
pub enum BuildError {
    /// A node the certificate needs turned out the other way (a disproof that depended on the
    /// line it was found on, or a lost table entry searched again).
    #[error("the search's answer does not hold at {node}: it is {found:?} there")]
    Contradicted {
        /// The node.
        node: Node,
        /// What it turned out to be.
        found: Known,
    },
    /// A node could not be settled within the budget for searching again.
    #[error("node {0} could not be settled again within the budget")]
    Unsettled(Node),
    /// A node has more successors than a choice can name.
    #[error("node {0} has more than 65,535 successors")]
    TooManySuccessors(Node),
}

impl BuildError {
    /// Never: a certificate that cannot be built is the solver's failure, not the input's.
    pub fn is_bad_input(&self) -> bool {
        false
    }
}

type Map = HashMap<Node, Option<u16>, BuildHasherDefault<KeyHasher>>;

/// Builds the certificate of `claim` at `root` from `search` (which solved it), searching
/// nodes again with at most `budget` nodes each where the table lost them.
///
/// # Errors
/// A [`BuildError`] when the claim cannot be supported from what the search knows.
pub fn build(
    search: &mut Search<'_>,
    root: Node,
    claim: Claim,
    budget: u64,
) -> Result<Certificate, BuildError> {
    let mut set = Map::default();
    let mut queue = vec![root];
    set.insert(root, None);
    search.clear_safe();
    if claim == Claim::AttackerFails {
        search.mark_safe(root);
    }
    let mut kids = Vec::new();
    while let Some(n) = queue.pop() {
        n.children(&mut kids);
        if kids.is_empty() {
            check_leaf(n, Known::lost_by_mover(n), claim)?;
            continue;
        }
        if kids.len() > usize::from(u16::MAX) {
            return Err(BuildError::TooManySuccessors(n));
        }
        if claim.chooses(n) {
            let i = choose(search, n, &kids, &set, claim, budget)?;
            set.insert(n, Some(i as u16));
            enqueue(kids[i], search, &mut set, &mut queue, claim)?;
        } else {
            for &c in &kids {
                enqueue(c, search, &mut set, &mut queue, claim)?;
            }
        }
    }
    search.clear_safe();
    let mut nodes: Vec<(Node, Option<u16>)> = set.into_iter().collect();
    nodes.sort_unstable();
    Ok(Certificate { claim, root, nodes })
}

fn check_leaf(n: Node, k: Known, claim: Claim) -> Result<(), BuildError> {
    if k == claim.known() { Ok(()) } else { Err(BuildError::Contradicted { node: n, found: k }) }
}

/// Adds a successor the certificate must cover: a leaf is checked, a new node is queued.
fn enqueue(
    c: Node,
    search: &mut Search<'_>,
    set: &mut Map,
    queue: &mut Vec<Node>,
    claim: Claim,
) -> Result<(), BuildError> {
    if let Some(k) = c.known(search.tables()) {
        return check_leaf(c, k, claim);
    }
    if set.contains_key(&c) {
        return Ok(());
    }
    if let Some(k) = search.status(c)
        && k != claim.known()
    {
        return Err(BuildError::Contradicted { node: c, found: k });
    }
    set.insert(c, None);
    if claim == Claim::AttackerFails {
        search.mark_safe(c);
    }
    queue.push(c);
    Ok(())
}

/// The successor a chooser node takes: for a win, one proven before it (so that the proof has
/// no cycle); for a failure, one in the set already (closing a cycle costs nothing) or one
/// disproven. Searches `n` again when the table does not say: for a failure, with every node
/// of the set so far counting as safe for the defender (a disproof found on the search's own
/// line may have leant on a repetition of a node the certificate does not hold; one that leans
/// on the certificate's nodes holds, since they all must).
fn choose(
    search: &mut Search<'_>,
    n: Node,
    kids: &[Node],
    set: &Map,
    claim: Claim,
    budget: u64,
) -> Result<usize, BuildError> {
    for attempt in 0..2 {
        if let Some(i) = pick(search, n, kids, set, claim) {
            return Ok(i);
        }
        if attempt == 0 {
            search.limit(budget, None);
            match search.run(n) {
                Outcome::Unknown => return Err(BuildError::Unsettled(n)),
                Outcome::AttackerWins if claim == Claim::AttackerFails => {
                    return Err(BuildError::Contradicted { node: n, found: Known::AttackerWins });
                }
                Outcome::AttackerFails if claim == Claim::AttackerWins => {
                    return Err(BuildError::Contradicted { node: n, found: Known::AttackerFails });
                }
                _ => {}
            }
        }
    }
    Err(BuildError::Unsettled(n))
}

fn pick(search: &Search<'_>, n: Node, kids: &[Node], set: &Map, claim: Claim) -> Option<usize> {
    let want = claim.known();
    let leaf = kids.iter().position(|c| c.known(search.tables()) == Some(want));
    if leaf.is_some() {
        return leaf;
    }
    match claim {
        Claim::AttackerWins => {
            let before = search.solved_order(n).unwrap_or(u32::MAX);
            kids.iter()
                .enumerate()
                .filter(|(_, c)| search.status(**c) == Some(want))
                .filter_map(|(i, c)| Some((search.solved_order(*c)?, i)))
                .filter(|&(order, _)| order < before)
                .min()
                .map(|(_, i)| i)
        }
        Claim::AttackerFails => kids
            .iter()
            .position(|c| set.contains_key(c))
            .or_else(|| kids.iter().position(|c| search.status(*c) == Some(want))),
    }
}
