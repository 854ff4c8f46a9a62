//! Perfect play at a root the endgame tables cover.

use std::time::Instant;

use fanorona_tb::Tablebase;

use super::{SearchResult, SearchRoot};
use crate::tablebase::value_score;

/// The tables' best turn at `root` with every turn's score, or `None` when they do not cover
/// it. The turn keeps the value under the no-progress rule and, among those, wins fastest or
/// loses slowest by distance to capture.
pub(super) fn root_result(tb: &Tablebase, root: &SearchRoot, start: Instant) -> Option<SearchResult> {
    let pos = &root.position;
    if pos.occupied().count() > tb.max_stones() {
        return None;
    }
    let moves = tb.root_moves(pos, root.quiet, root.rules.max_quiet_plies).ok()?;
    let best = moves.first()?;
    Some(SearchResult {
        best: Some(best.mv),
        score: value_score(best.rule_value, 0),
        depth: 1,
        nodes: 0,
        pv: vec![best.mv],
        root: moves.iter().map(|m| (m.mv, value_score(m.rule_value, 0))).collect(),
        elapsed: start.elapsed(),
    })
}
