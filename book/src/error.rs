//! The errors of books.

use std::path::PathBuf;

/// Why a book could not be built, read or written.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    /// A book file could not be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// Something that is not a regular file (a FIFO, a directory, a device) stands where a
    /// book is to be read.
    #[error("{path}: {kind}, not a book file")]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is.
        kind: &'static str,
    },
    /// The file is not a book of this version, or is damaged: what is wrong and at which byte.
    #[error("{path}: byte {offset}: {reason}")]
    Damaged {
        /// The file.
        path: PathBuf,
        /// The byte offset of the problem.
        offset: u64,
        /// What is wrong there.
        reason: String,
    },
    /// A game given to the builder holds a turn that is not legal where it is played.
    #[error("game {game}, turn {ply}: {turn} is not a legal turn in {position}")]
    IllegalTurn {
        /// The game, counting from 0 in the order given.
        game: u64,
        /// The turn, counting from 1.
        ply: usize,
        /// The turn as written.
        turn: String,
        /// The position it was played in.
        position: String,
    },
    /// The builder holds as many entries as it may.
    #[error(
        "the book would hold more than {limit} (position, turn) pairs; build it from fewer games or fewer --plies"
    )]
    TooLarge {
        /// The largest number of pairs.
        limit: usize,
    },
    /// Entries given to the writer where some carry an analysed score and others do not (a
    /// book is one or the other).
    #[error(
        "some entries carry an analysed score and others do not: a book is built from games or by analysis"
    )]
    MixedScores,
    /// An entry given to the writer has an analysed score beyond what the format holds.
    #[error("an analysed score of {0} is beyond the format's ±30000")]
    ScoreRange(i16),
    /// The book could not be written.
    #[error(transparent)]
    Write(#[from] fanorona_io::IoError),
}

impl BookError {
    /// Whether the error is the input's fault: a damaged or foreign file, a path that is not
    /// a file, an illegal game, an output that may not be replaced (exit 2), rather than a
    /// failing disk (exit 1).
    pub fn is_bad_input(&self) -> bool {
        match self {
            BookError::Read { source, .. } => fanorona_io::is_bad_path(source),
            BookError::NotRegular { .. }
            | BookError::Damaged { .. }
            | BookError::IllegalTurn { .. }
            | BookError::TooLarge { .. } => true,
            BookError::MixedScores | BookError::ScoreRange(_) => false,
            BookError::Write(e) => e.is_bad_input(),
        }
    }
}
