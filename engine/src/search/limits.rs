//! When a search stops: depth, nodes and time, in any combination.

use std::time::Duration;

/// Search limits; `None` means no limit of that kind. With none at all the search runs until
/// its stop flag is raised (or it reaches [`crate::search::MAX_DEPTH`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Limits {
    /// Deepest iteration, in turns.
    pub depth: Option<u32>,
    /// Most positions to visit (each turn made in the search is one node).
    pub nodes: Option<u64>,
    /// Longest time to think.
    pub movetime: Option<Duration>,
}

impl Limits {
    /// A depth limit.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// A node limit.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// A time limit.
    pub fn movetime(movetime: Duration) -> Limits {
        Limits { movetime: Some(movetime), ..Limits::default() }
    }

    /// Whether no limit is set (search until stopped).
    pub fn is_infinite(&self) -> bool {
        self.depth.is_none() && self.nodes.is_none() && self.movetime.is_none()
    }
}
