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

/// Which side of the trainer's split of games into training and validation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Games trained on.
    Train,
    /// Games held out.
    Validation,
}

/// Whether game `id` is held out for validation: a hash of its identity, compared with
/// `val_fraction`. Never depends on the training seed, the file's name or the other files, so
/// every run over files holding that game puts it on the same side (a warm-started network
/// never validates on games its parent trained on), and all the positions of a game fall on the
/// same side. The trainer's split (`data.val_fraction`), and the Python package's
/// `samples(split=...)`.
pub fn split_of(id: GameId, val_fraction: f64) -> Split {
    let h = id.seed.wrapping_mul(0xff51_afd7_ed55_8ccd) ^ id.index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    let x = fanorona_core::Rng::new(h ^ 0xcbf2_9ce4_8422_2325).next_f64();
    if x < val_fraction { Split::Validation } else { Split::Train }
}
