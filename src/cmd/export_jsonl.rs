//! One game as a JSON object: the line of `fanorona data export --format jsonl`.

use fanorona_data::{GameRecord, RecordError};

/// The game's JSON object: start, players, turns in notation with their search scores, depths
/// and exploration flags (`null` where a turn has none), result and termination; with
/// `positions`, also the position before every turn.
///
/// # Errors
/// With `positions`, when a turn cannot be replayed (the rule it breaks).
pub fn line(rec: &GameRecord, positions: bool) -> Result<serde_json::Value, RecordError> {
    let turns: Vec<String> = rec.turns.iter().map(|t| t.mv.to_string()).collect();
    let scores: Vec<Option<i32>> = rec.turns.iter().map(|t| t.info.score).collect();
    let depths: Vec<Option<u16>> = rec.turns.iter().map(|t| t.info.depth).collect();
    let exploration: Vec<bool> = rec.turns.iter().map(|t| t.info.exploration).collect();
    let mut obj = serde_json::json!({
        "start": rec.start.to_string(), "white": rec.white, "black": rec.black,
        "turns": turns, "scores": scores, "depths": depths, "exploration": exploration,
        "result": rec.outcome.result_str(), "termination": rec.outcome.termination.to_string(),
    });
    if positions {
        let mut before = Vec::with_capacity(rec.turns.len());
        rec.for_each_position(|_, pos, _| before.push(pos.to_string()))?;
        obj["positions"] = serde_json::json!(before);
    }
    Ok(obj)
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::{Color, Outcome, Position};
    use fanorona_data::{Ending, MoveCode, Turn, TurnInfo};

    #[test]
    fn scores_depths_flags_and_positions() {
        let p0 = Position::start();
        let m0 = p0.parse_move("d3e3+").expect("legal");
        let p1 = p0.play(&m0).expect("legal");
        let m1 = p1.legal_moves()[0];
        let rec = GameRecord {
            index: 0,
            white: "a".into(),
            black: "b".into(),
            start: p0,
            turns: vec![
                Turn {
                    mv: MoveCode::from_move(&m0),
                    info: TurnInfo { score: Some(120), depth: Some(5), exploration: false },
                },
                Turn {
                    mv: MoveCode::from_move(&m1),
                    info: TurnInfo { score: None, depth: None, exploration: true },
                },
            ],
            outcome: Outcome { winner: Some(Color::White), termination: Ending::Adjudication },
        };
        let v = line(&rec, true).expect("replays");
        assert_eq!(v["scores"], serde_json::json!([120, null]));
        assert_eq!(v["depths"], serde_json::json!([5, null]));
        assert_eq!(v["exploration"], serde_json::json!([false, true]));
        assert_eq!(v["positions"], serde_json::json!([p0.to_string(), p1.to_string()]));
        assert!(line(&rec, false).expect("no replay").get("positions").is_none());
    }
}
