//! Player specs the loop builds: the configured search with a chosen evaluator.

use fanorona_engine::{PlayerSpec, SpecError};

/// `alphabeta:<search>,eval=<eval>` as a spec (checked by parsing it).
pub fn player(search: &str, eval: &str) -> Result<PlayerSpec, SpecError> {
    let search = search.trim().trim_matches(',');
    let text = if search.is_empty() {
        format!("alphabeta:eval={eval}")
    } else {
        format!("alphabeta:{search},eval={eval}")
    };
    text.parse()
}

/// The evaluator text for a network file.
pub fn net_eval(path: &std::path::Path) -> String {
    format!("net:{}", path.display())
}
