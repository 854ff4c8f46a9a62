//! The pairs a match directory holds (finished or not, one run or merged shards), as the first
//! engine's score in each: what the SPRT replay of `fanorona eval replay` reorders.

use std::path::Path;

use crate::EvalError;
use crate::state::{self, MatchState};

/// The match saved in `dir` and its counted pairs in order, each the first engine's score in
/// half points (0 to 4: the pentanomial's bins).
///
/// # Errors
/// [`EvalError::Resume`] when `dir` holds no readable match or its record file holds fewer
/// games than its state file counts; record file errors.
pub fn pair_scores(dir: &Path) -> Result<(MatchState, Vec<u8>), EvalError> {
    let st = MatchState::load(dir)?;
    let (first, _) = st.config.pair_range();
    let records = state::saved_games(dir, &st.config, first * 2, st.pairs_done * 2)?;
    let summaries = state::summaries_from_records(&records, &st.faults);
    let pairs = summaries
        .chunks_exact(2)
        .map(|g| ((g[0].score_of_first() + g[1].score_of_first()) * 2.0).round().clamp(0.0, 4.0) as u8)
        .collect();
    Ok((st, pairs))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{EngineSpec, MatchConfig};

    #[test]
    fn the_pairs_of_a_played_match_make_its_pentanomial() {
        let dir = tempfile::tempdir().unwrap();
        let a = EngineSpec::player("alphabeta:depth=2,eval=material".parse().unwrap(), "a");
        let b = EngineSpec::player("greedy".parse().unwrap(), "b");
        let mut m = MatchConfig::new(a, b, 12);
        m.out = Some(dir.path().to_path_buf());
        let report = crate::run_match(&m, &mut |_| {}).unwrap();
        let (st, pairs) = pair_scores(dir.path()).unwrap();
        assert_eq!(st.pairs_done, 6);
        let mut p = crate::stats::Pentanomial::default();
        for &h in &pairs {
            p.0[h as usize] += 1;
        }
        assert_eq!(p, report.pentanomial);
        assert!(pair_scores(&dir.path().join("none")).is_err());
    }
}
