//! Reading a turn typed by a person: the full notation, or any prefix that identifies one legal
//! turn.

use fanorona_core::{Move, Position};

/// What typed text means in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TurnMatch {
    /// Exactly one legal turn.
    One(Move),
    /// Several legal turns start with the text (their notation, sorted).
    Ambiguous(Vec<String>),
    /// No legal turn matches; the reason.
    None(String),
}

/// Matches `text` against the legal turns of `pos`: an exact turn (notation is checked as
/// [`Position::parse_move`] does) wins, else the turns whose notation starts with the text.
pub fn match_turn(pos: &Position, text: &str) -> TurnMatch {
    let t = text.trim().trim_end_matches('.').to_ascii_lowercase();
    if t.is_empty() {
        return TurnMatch::None("empty turn".into());
    }
    let exact_error = match pos.parse_move(&t) {
        Ok(m) => return TurnMatch::One(m),
        Err(e) => e.to_string(),
    };
    let legal = pos.legal_moves();
    let mut found: Vec<(String, Move)> =
        legal.iter().map(|m| (m.to_string(), *m)).filter(|(s, _)| s.starts_with(&t)).collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    match found.len() {
        0 => TurnMatch::None(exact_error),
        1 => TurnMatch::One(found[0].1),
        _ => TurnMatch::Ambiguous(found.into_iter().map(|(s, _)| s).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_prefix_and_ambiguous() {
        let p = Position::start();
        assert!(matches!(match_turn(&p, "D3E3+"), TurnMatch::One(m) if m.to_string() == "d3e3+"));
        assert!(matches!(match_turn(&p, "f2"), TurnMatch::One(m) if m.to_string() == "f2e3+"));
        assert_eq!(match_turn(&p, "d3"), TurnMatch::Ambiguous(vec!["d3e3+".into(), "d3e3-".into()]));
        assert_eq!(
            match_turn(&p, "d"),
            TurnMatch::Ambiguous(vec!["d2e3+".into(), "d3e3+".into(), "d3e3-".into()])
        );
        assert!(matches!(match_turn(&p, "a1a2"), TurnMatch::None(_)));
        assert!(matches!(match_turn(&p, "  "), TurnMatch::None(_)));
        assert!(matches!(match_turn(&p, "zz"), TurnMatch::None(_)));
    }
}
