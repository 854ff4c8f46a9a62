//! Perfect play at the root: the value of every legal turn, and the best ones.

use fanorona_core::{Move, Position};

use crate::{ProbeError, Tablebase, Value};

/// A legal turn with what it is worth to the side that plays it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RootMove {
    /// The turn.
    pub mv: Move,
    /// The value of the position for its side to move when it chooses this turn, with no
    /// limit on the number of turns.
    pub value: Value,
    /// The same under the no-progress rule: for a paika turn the value above with the quiet
    /// turns counted on, for a capture turn the value of the position it leads to from a
    /// fresh count.
    pub rule_value: Value,
    /// For captures, the rank of the position reached for the opponent (lower is better for
    /// the mover); 0 for paika turns. Breaks ties between equally valued captures.
    tiebreak: i64,
}

impl RootMove {
    /// Ordering key: higher is better for the mover.
    fn key(&self) -> (i64, i64, i64) {
        (self.rule_value.rank(), self.value.rank(), -self.tiebreak)
    }
}

impl Tablebase {
    /// Every legal turn of `pos` with its value, best first, for a position `quiet` turns
    /// into a no-progress count limited to `max_quiet` (0: no limit).
    ///
    /// # Errors
    /// As [`Tablebase::probe`] for the position.
    pub fn root_moves(
        &self,
        pos: &Position,
        quiet: u32,
        max_quiet: u32,
    ) -> Result<Vec<RootMove>, ProbeError> {
        self.probe(pos)?;
        let drawn_now = max_quiet > 0 && quiet >= max_quiet;
        let mut out: Vec<RootMove> = Vec::new();
        for mv in pos.legal_moves() {
            let mut next = *pos;
            next.play_unchecked(&mv);
            let rm = if mv.is_paika() {
                let value = self.probe(&next)?.before_paika();
                RootMove { mv, value, rule_value: value.under_quiet_rule(quiet, max_quiet), tiebreak: 0 }
            } else if next.us().is_empty() {
                let value = Value::Win(1);
                RootMove { mv, value, rule_value: value, tiebreak: Value::Loss(0).rank() }
            } else {
                let child = self.probe(&next)?;
                let rule_value = child.under_quiet_rule(0, max_quiet).before_capture();
                RootMove { mv, value: child.before_capture(), rule_value, tiebreak: child.rank() }
            };
            out.push(if drawn_now { RootMove { rule_value: Value::Draw, ..rm } } else { rm });
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.key()));
        Ok(out)
    }

    /// The best turns of `pos` (all that share the best value), as [`Tablebase::root_moves`]
    /// ranks them; empty when the side to move has no legal turn.
    ///
    /// # Errors
    /// As [`Tablebase::probe`] for the position.
    pub fn best_moves(
        &self,
        pos: &Position,
        quiet: u32,
        max_quiet: u32,
    ) -> Result<Vec<RootMove>, ProbeError> {
        let mut moves = self.root_moves(pos, quiet, max_quiet)?;
        if let Some(best) = moves.first().map(RootMove::key) {
            moves.retain(|m| m.key() == best);
        }
        Ok(moves)
    }
}
