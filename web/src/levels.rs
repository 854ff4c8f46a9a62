//! The page's playing levels: five named opponents from a beginner's to the strongest, each
//! a player spec. The specs are the constants below, in one place, so that calibration can
//! change them without touching anything else.

use fanorona_engine::{PlayerSpec, SpecError};

/// Beginner: any legal turn (loses about 83 % of its games to `greedy`).
pub const BEGINNER: &str = "random";
/// Casual: a one-turn search whose counting of stones is drowned in noise.
pub const CASUAL: &str = "alphabeta:depth=1,noise=10000,eval=material";
/// Club: a one-turn search with the handcrafted evaluation, off by up to 0.75 stones.
pub const CLUB: &str = "alphabeta:depth=1,noise=75,eval=handcrafted";
/// Strong: a three-turn search with the handcrafted evaluation.
pub const STRONG: &str = "alphabeta:depth=3,eval=handcrafted";
/// Maximum: the network embedded in the binary, 6,000,000 nodes a turn (3 s at most; its
/// measured time is in [`LEVELS`]).
pub const MAXIMUM: &str = "alphabeta:nodes=6000000,movetime=3000,eval=embedded";

/// The level a game starts with.
pub const DEFAULT_LEVEL: &str = "Casual";

/// The level that probes the server's endgame tables (`fanorona serve --tb DIR`, any number of
/// stones up to seven) when it has them: the strongest. The others keep the strength they were
/// calibrated at.
pub const TABLES_LEVEL: &str = "Maximum";

/// `(name, description, spec, turn_ms)` of every level, weakest first. `turn_ms` is the median
/// time of one of its turns through `POST /api/engine`, measured on the development machine
/// by `scripts/level_times.py` (docs/BENCHMARKS.md); the page shows it with each level.
const LEVELS: [(&str, &str, &str, u32); 5] = [
    ("Beginner", "Plays any legal turn at random. Good for learning the rules.", BEGINNER, 1),
    (
        "Casual",
        "Looks one turn ahead but often misjudges what it sees. Still beats a player who only \
         grabs the most stones.",
        CASUAL,
        3,
    ),
    (
        "Club",
        "Looks one turn ahead and judges positions sensibly, with a little misjudgement. Takes \
         good captures and avoids obvious blunders.",
        CLUB,
        3,
    ),
    (
        "Strong",
        "Looks three turns ahead: its turn, your reply, its answer. Punishes careless play.",
        STRONG,
        3,
    ),
    (
        "Maximum",
        "The strongest setting: a trained network looking many turns ahead. Expect to lose most \
         games.",
        MAXIMUM,
        1980,
    ),
];

/// A named opponent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Level {
    /// Its name (`Club`).
    pub name: &'static str,
    /// How it plays, in plain words.
    pub description: &'static str,
    /// The player.
    pub spec: PlayerSpec,
    /// The median time of one of its turns on the development machine, in milliseconds.
    pub turn_ms: u32,
}

impl Level {
    /// The level's player, probing the tables in `tb` when it is the [`TABLES_LEVEL`] (and
    /// names no tables of its own).
    pub fn spec_with_tables(&self, tb: Option<&std::path::Path>) -> PlayerSpec {
        let mut spec = self.spec.clone();
        if let (PlayerSpec::AlphaBeta(ab), Some(dir)) = (&mut spec, tb)
            && self.name == TABLES_LEVEL
            && ab.tb.is_none()
        {
            ab.tb = Some(dir.to_path_buf());
        }
        spec
    }
}

/// A level name that is not one of the levels.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown level {name:?}: the levels are {}", list(.levels))]
pub struct UnknownLevel {
    /// The name asked for.
    pub name: String,
    /// The levels' names.
    pub levels: Vec<&'static str>,
}

impl UnknownLevel {
    /// Always `true`: the name comes from a request.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// `A, B and C`.
fn list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Every level, weakest first.
///
/// # Errors
/// The first spec that does not parse (the unit tests prove none does not).
pub fn levels() -> Result<Vec<Level>, (String, SpecError)> {
    LEVELS
        .iter()
        .map(|&(name, description, text, turn_ms)| match text.parse() {
            Ok(spec) => Ok(Level { name, description, spec, turn_ms }),
            Err(e) => Err((text.to_string(), e)),
        })
        .collect()
}

/// The level called `name` (any case) among `levels`.
///
/// # Errors
/// [`UnknownLevel`] naming every level.
pub fn find<'a>(levels: &'a [Level], name: &str) -> Result<&'a Level, UnknownLevel> {
    let wanted = name.trim();
    levels.iter().find(|l| l.name.eq_ignore_ascii_case(wanted)).ok_or_else(|| UnknownLevel {
        name: name.to_string(),
        levels: levels.iter().map(|l| l.name).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_level_parses_and_round_trips() {
        let levels = levels().unwrap();
        assert_eq!(
            levels.iter().map(|l| l.name).collect::<Vec<_>>(),
            ["Beginner", "Casual", "Club", "Strong", "Maximum"]
        );
        for (level, (_, _, text, _)) in levels.iter().zip(LEVELS) {
            assert_eq!(level.spec.to_string(), text, "{}", level.name);
            assert_eq!(text.parse::<PlayerSpec>().unwrap(), level.spec);
            assert!(!level.description.is_empty());
            level.spec.build(1).unwrap();
        }
        assert!(levels.iter().any(|l| l.name == DEFAULT_LEVEL));
        assert!(levels.iter().any(|l| l.name == TABLES_LEVEL));
    }

    #[test]
    fn levels_are_found_by_name_in_any_case() {
        let levels = levels().unwrap();
        assert_eq!(find(&levels, "club").unwrap().name, "Club");
        assert_eq!(find(&levels, " MAXIMUM ").unwrap().name, "Maximum");
        let e = find(&levels, "Expert").unwrap_err();
        assert_eq!(
            e.to_string(),
            "unknown level \"Expert\": the levels are Beginner, Casual, Club, Strong and Maximum"
        );
    }
}
