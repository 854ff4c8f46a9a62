//! Checking a proof without the search that made it: every node of each certificate is
//! replayed with the move generator and the endgame tables alone.
//!
//! For each node: its successors are generated; where the certificate chooses, the chosen one
//! must support the claim, elsewhere every one must; a successor supports the claim when it is
//! a node of the certificate, or the end of the game or a table position with the claimed
//! outcome. A win must also be well founded: the graph of the proof's nodes has no cycle, so
//! the attacker's win comes in finitely many turns. A failure may cycle (endless play is a
//! draw). The root must be in the certificate, or be such a leaf itself.

use std::sync::atomic::{AtomicU64, Ordering};

use fanorona_core::{Bitboard, Color, Position};
use fanorona_tb::Tablebase;
use rayon::prelude::*;

use crate::certificate::{Certificate, Claim};
use crate::file::Proof;
use crate::node::Node;

/// The value a proof establishes for its root, from the side to move's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Proven {
    /// The side to move wins.
    Win,
    /// Neither side can force a win.
    Draw,
    /// The side to move loses.
    Loss,
    /// One side cannot force a win; the other question was not settled.
    NotWin(Color),
}

/// Why a proof does not hold.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum CheckError {
    /// The proof leans on tables larger than the ones given.
    #[error("the proof leans on {needed}-stone tables; {given}")]
    Tables {
        /// Stones of the tables it needs.
        needed: u32,
        /// What was given.
        given: String,
    },
    /// A node does not support its certificate's claim.
    #[error("{attacker:?}'s {claim:?} certificate fails at {node}: {why}")]
    Fails {
        /// The attacker of the certificate.
        attacker: Color,
        /// Its claim.
        claim: Claim,
        /// The node.
        node: String,
        /// What is wrong.
        why: String,
    },
    /// A win's proof goes round in a cycle.
    #[error("{attacker:?}'s proof of a win has a cycle through {node}")]
    Cycle {
        /// The attacker.
        attacker: Color,
        /// A node on the cycle.
        node: String,
    },
    /// The two certificates contradict each other (both sides "win").
    #[error("the proof claims a win for both sides")]
    Contradiction,
}

impl CheckError {
    /// Always: a proof that fails is bad input.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// What a check looked at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CheckStats {
    /// Nodes replayed.
    pub nodes: u64,
    /// Successors looked at.
    pub successors: u64,
    /// Successors settled by the tables or the end of the game.
    pub leaves: u64,
}

/// Checks every certificate of `proof` over the tables `tb`; returns the value proven.
///
/// # Errors
/// A [`CheckError`] naming the first node that fails.
pub fn check(proof: &Proof, tb: Option<&Tablebase>) -> Result<(Proven, CheckStats), CheckError> {
    let have = tb.map_or(0, Tablebase::max_stones);
    if proof.tables > have {
        let given = if have == 0 {
            "no tables were given".to_string()
        } else {
            format!("the tables given have {have}")
        };
        return Err(CheckError::Tables { needed: proof.tables, given });
    }
    // Only the tables the proof names: a leaf must not depend on larger tables than stated.
    let limit = proof.tables;
    let mut stats = CheckStats::default();
    let mut wins = Vec::new();
    let mut fails = Vec::new();
    for (attacker, cert) in &proof.sections {
        let s = check_certificate(*attacker, cert, tb.filter(|_| limit > 0), limit)?;
        stats.nodes += s.nodes;
        stats.successors += s.successors;
        stats.leaves += s.leaves;
        match cert.claim {
            Claim::AttackerWins => wins.push(*attacker),
            Claim::AttackerFails => fails.push(*attacker),
        }
    }
    Ok((value(proof.root.turn(), &wins, &fails)?, stats))
}

fn value(mover: Color, wins: &[Color], fails: &[Color]) -> Result<Proven, CheckError> {
    if wins.contains(&Color::White) && wins.contains(&Color::Black) {
        return Err(CheckError::Contradiction);
    }
    Ok(match (wins.first(), fails.contains(&Color::White) && fails.contains(&Color::Black)) {
        (Some(&w), _) if w == mover => Proven::Win,
        (Some(_), _) => Proven::Loss,
        (None, true) => Proven::Draw,
        (None, false) => Proven::NotWin(fails.first().copied().unwrap_or(mover)),
    })
}

/// What a successor is to the certificate: a node of it, a leaf (with the outcome it has), or
/// neither.
fn leaf_supports(c: Node, cert: &Certificate, tb: Option<&Tablebase>, limit: u32) -> Option<bool> {
    if c.stones() > limit && c.us() != 0 {
        return None;
    }
    c.known(tb).map(|k| k == cert.claim.known())
}

/// Checks one certificate.
fn check_certificate(
    attacker: Color,
    cert: &Certificate,
    tb: Option<&Tablebase>,
    limit: u32,
) -> Result<CheckStats, CheckError> {
    let fail = |node: Node, why: String| CheckError::Fails {
        attacker,
        claim: cert.claim,
        node: node_text(node, attacker),
        why,
    };
    let member = |c: Node| cert.nodes.binary_search_by(|(n, _)| n.cmp(&c)).is_ok();
    if !member(cert.root) {
        return match leaf_supports(cert.root, cert, tb, limit) {
            Some(true) => Ok(CheckStats::default()),
            _ => Err(fail(
                cert.root,
                "the root is neither a node of the certificate nor a leaf that supports it".into(),
            )),
        };
    }
    let successors = AtomicU64::new(0);
    let leaves = AtomicU64::new(0);
    cert.nodes.par_iter().try_for_each_init(Vec::new, |kids, &(n, choice)| {
        if let Some(false) = leaf_supports(n, cert, tb, limit) {
            return Err(fail(n, "the tables or the end of the game say otherwise".into()));
        }
        n.children(kids);
        successors.fetch_add(kids.len() as u64, Ordering::Relaxed);
        let supports = |c: Node| {
            if member(c) {
                return true;
            }
            let l = leaf_supports(c, cert, tb, limit);
            if l.is_some() {
                leaves.fetch_add(1, Ordering::Relaxed);
            }
            l == Some(true)
        };
        if kids.is_empty() {
            let lost = crate::node::Known::lost_by_mover(n);
            return if lost == cert.claim.known() {
                Ok(())
            } else {
                Err(fail(n, "the side to move has no turn".into()))
            };
        }
        match (cert.claim.chooses(n), choice) {
            (true, Some(i)) => match kids.get(usize::from(i)) {
                Some(&c) if supports(c) => Ok(()),
                Some(&c) => Err(fail(
                    n,
                    format!(
                        "its chosen turn leads to {}, which does not support the claim",
                        node_text(c, attacker)
                    ),
                )),
                None => Err(fail(n, format!("choice {i} of {} turns", kids.len()))),
            },
            (true, None) => Err(fail(n, "no turn chosen".into())),
            (false, Some(_)) => {
                Err(fail(n, "a turn chosen for the side that must be answered on every turn".into()))
            }
            (false, None) => match kids.iter().find(|&&c| !supports(c)) {
                None => Ok(()),
                Some(&c) => Err(fail(n, format!("the turn to {} is not covered", node_text(c, attacker)))),
            },
        }
    })?;
    if cert.claim == Claim::AttackerWins {
        acyclic(cert).map_err(|n| CheckError::Cycle { attacker, node: node_text(n, attacker) })?;
    }
    Ok(CheckStats {
        nodes: cert.nodes.len() as u64,
        successors: successors.into_inner(),
        leaves: leaves.into_inner(),
    })
}

/// The edges of a proof node inside the proof: its chosen successor, or every successor that
/// is a node of the proof.
fn edges(cert: &Certificate, i: usize, kids: &mut Vec<Node>, out: &mut Vec<usize>) {
    out.clear();
    let (n, choice) = cert.nodes[i];
    n.children(kids);
    let index = |c: &Node| cert.nodes.binary_search_by(|(m, _)| m.cmp(c)).ok();
    match choice {
        Some(k) => out.extend(kids.get(usize::from(k)).and_then(index)),
        None => out.extend(kids.iter().filter_map(index)),
    }
}

/// Finds a cycle among a win's nodes (iterative depth-first search with three colours).
fn acyclic(cert: &Certificate) -> Result<(), Node> {
    const WHITE: u8 = 0;
    const GREY: u8 = 1;
    const BLACK: u8 = 2;
    let mut colour = vec![WHITE; cert.nodes.len()];
    let mut kids = Vec::new();
    let mut stack: Vec<(usize, Vec<usize>)> = Vec::new();
    for start in 0..cert.nodes.len() {
        if colour[start] != WHITE {
            continue;
        }
        let mut out = Vec::new();
        edges(cert, start, &mut kids, &mut out);
        colour[start] = GREY;
        stack.push((start, out));
        while let Some((node, pending)) = stack.last_mut() {
            match pending.pop() {
                Some(next) if colour[next] == GREY => return Err(cert.nodes[next].0),
                Some(next) if colour[next] == WHITE => {
                    let mut out = Vec::new();
                    edges(cert, next, &mut kids, &mut out);
                    colour[next] = GREY;
                    stack.push((next, out));
                }
                Some(_) => {}
                None => {
                    colour[*node] = BLACK;
                    stack.pop();
                }
            }
        }
    }
    Ok(())
}

/// A node as a position with its colours (the side to move is the attacker or not).
pub fn node_text(n: Node, attacker: Color) -> String {
    let mover = if n.attacker_to_move() { attacker } else { attacker.other() };
    let (white, black) = if mover == Color::White { (n.us(), n.them()) } else { (n.them(), n.us()) };
    Position::from_stones(Bitboard(white), Bitboard(black), mover)
        .map_or_else(|_| format!("{n:?}"), |p| p.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lone attacker stone shuttling between two points while a lone defender stone does the
    /// same, far apart: four nodes that go round.
    fn shuttle() -> Vec<Node> {
        let p = |name: &str| 1u64 << name.parse::<fanorona_core::Point>().map_or(0, |p| p.index());
        let (a1, b1, h5, i5) = (p("a1"), p("b1"), p("h5"), p("i5"));
        vec![
            Node::new(a1, i5, true),
            Node::new(i5, b1, false),
            Node::new(b1, h5, true),
            Node::new(h5, a1, false),
        ]
    }

    #[test]
    fn a_win_that_goes_round_is_refused() {
        let nodes = shuttle();
        let mut kids = Vec::new();
        // Each node's choice is the next node of the round.
        let mut with_choices: Vec<(Node, Option<u16>)> = nodes
            .iter()
            .enumerate()
            .map(|(i, &n)| {
                n.children(&mut kids);
                let next = nodes[(i + 1) % nodes.len()];
                (n, kids.iter().position(|&c| c == next).map(|k| k as u16))
            })
            .collect();
        assert!(with_choices.iter().all(|(_, c)| c.is_some()), "each node reaches the next by a turn");
        with_choices.sort_unstable();
        let cert = Certificate { claim: Claim::AttackerWins, root: nodes[0], nodes: with_choices };
        assert!(acyclic(&cert).is_err(), "the round is a cycle");
        let open = Certificate { nodes: cert.nodes[..3].to_vec(), ..cert.clone() };
        assert!(acyclic(&open).is_ok(), "without one node it is not");
    }
}
