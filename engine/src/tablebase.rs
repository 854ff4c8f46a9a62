//! Endgame tablebases in the engine: opening them once per process, and their values as
//! search scores.
//!
//! A tablebase win with distance to capture `d`, `ply` turns from the root, scores
//! `win_in(ply + d)` (a loss `loss_in(ply + d)`): a forced result, as [`crate::score`] has it,
//! whose turn count is the turns to the capture that converts (the game may last longer).
//! Values are taken under the no-progress rule ([`Value::under_quiet_rule`]): a win that needs
//! more quiet turns than are left scores as a draw.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use fanorona_core::Position;
use fanorona_tb::{Tablebase, TbError, Value};

use crate::score::{DRAW, loss_in, win_in};

/// Opens the tables in `dir`, sharing one copy per directory across the process (players are
/// built per game; the tables are loaded once).
///
/// # Errors
/// As [`Tablebase::open`].
pub fn open_shared(dir: &Path) -> Result<Arc<Tablebase>, TbError> {
    static OPEN: Mutex<Option<HashMap<PathBuf, Arc<Tablebase>>>> = Mutex::new(None);
    let key = dir.to_path_buf();
    if let Some(tb) = OPEN.lock().unwrap_or_else(|e| e.into_inner()).as_ref().and_then(|m| m.get(&key)) {
        return Ok(Arc::clone(tb));
    }
    let tb = Arc::new(Tablebase::open(dir)?);
    OPEN.lock()
        .unwrap_or_else(|e| e.into_inner())
        .get_or_insert_with(HashMap::new)
        .insert(key, Arc::clone(&tb));
    Ok(tb)
}

/// The search score of a tablebase value reached `ply` turns from the root.
pub fn value_score(value: Value, ply: u32) -> i32 {
    match value {
        Value::Win(d) => win_in(ply + d),
        Value::Draw => DRAW,
        Value::Loss(d) => loss_in(ply + d),
    }
}

/// The exact score of `pos` (`ply` turns from the root, `quiet` turns without capture so far,
/// `max_quiet` the no-progress limit, 0 for none), when the tables cover it.
#[inline]
pub fn probe_score(tb: &Tablebase, pos: &Position, ply: u32, quiet: u32, max_quiet: u32) -> Option<i32> {
    if pos.occupied().count() > tb.max_stones() {
        return None;
    }
    let value = tb.probe(pos).ok()?;
    Some(value_score(value.under_quiet_rule(quiet, max_quiet), ply))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_forced_results() {
        assert_eq!(value_score(Value::Win(3), 2), win_in(5));
        assert_eq!(value_score(Value::Loss(0), 4), loss_in(4));
        assert_eq!(value_score(Value::Draw, 9), DRAW);
        assert!(crate::score::is_forced(value_score(Value::Win(127), 120)));
    }
}
