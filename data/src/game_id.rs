//! [`GameId`]: a game's identity across files.

/// A game's identity across files: the seed of the run that generated it (from the file's
/// header) and its run-wide index (self-play: the index its seed derives from, which already
/// tells the shards of a run apart; matches: the game number). Copying, renaming or merging a
/// file does not change it, and no two generations of a loop share one (each generation's
/// self-play has its own seed).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GameId {
    /// The run's seed ([`crate::Header::seed`]).
    pub seed: u64,
    /// The game's run-wide index ([`crate::GameRecord::index`]).
    pub index: u64,
}
