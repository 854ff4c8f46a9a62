//! Errors: [`RecordError`] for a game record on its own, [`DataError`] for a record file
//! (always naming the file and, where it applies, the record index).

use std::path::PathBuf;

use fanorona_core::{Color, IllegalMoveError, Termination};

use crate::Ending;

/// Why a game record is inconsistent (independent of any file).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RecordError {
    /// A turn is not legal in the position it is played in.
    #[error("turn {ply} ({text}) is illegal: {reason}")]
    IllegalTurn {
        /// 0-based ply of the turn.
        ply: usize,
        /// The turn in notation (as far as it can be written).
        text: String,
        /// The rule it breaks.
        reason: IllegalMoveError,
    },
    /// A turn's origin or steps cannot be a turn at all (a step off the board, an unknown code).
    #[error("turn {ply} is malformed: {what}")]
    MalformedTurn {
        /// 0-based ply of the turn.
        ply: usize,
        /// What is wrong.
        what: String,
    },
    /// The game was already over before a turn.
    #[error("turn {ply} is played after the game ended ({termination})")]
    PlayedAfterEnd {
        /// 0-based ply of the turn.
        ply: usize,
        /// How the game had ended.
        termination: Termination,
    },
    /// The recorded outcome does not match the final position.
    #[error("recorded outcome {recorded} does not match the final position: {why}")]
    WrongOutcome {
        /// The recorded winner and termination, as text.
        recorded: String,
        /// Why it does not match.
        why: String,
    },
    /// A game that is not over was given to [`crate::GameRecord::from_game`].
    #[error("the game is not over")]
    NotOver,
    /// The per-turn information does not have one entry per turn.
    #[error("{info} turn infos for {turns} turns")]
    InfoMismatch {
        /// Turns played.
        turns: usize,
        /// Infos given.
        info: usize,
    },
    /// The winner of an outcome cannot be a winner (kept for completeness of checks).
    #[error("{0} cannot win a game that ended by {1}")]
    ImpossibleWinner(Color, Ending),
}

impl RecordError {
    /// Always `true`: a record that is not a consistent game came from the input.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// An error reading or writing a record file.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The operating system refused a read or write.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file has no bytes.
    #[error("{path}: empty file (not a fanorona record file)")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The file does not start with the magic bytes.
    #[error("{path}: not a fanorona record file (bad magic bytes {found:02x?})")]
    BadMagic {
        /// The file.
        path: PathBuf,
        /// The first bytes found.
        found: Vec<u8>,
    },
    /// The file was written by a newer format version.
    #[error(
        "{path}: record format version {found} is newer than the supported version {supported}; update fanorona"
    )]
    NewerVersion {
        /// The file.
        path: PathBuf,
        /// Version in the file.
        found: u32,
        /// Newest version this build reads.
        supported: u32,
    },
    /// The header is damaged or cut short.
    #[error("{path}: damaged file header: {what}")]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// A record claims a length beyond the format's bound.
    #[error(
        "{path}: record {record} (at byte {offset}) claims {len} bytes, more than the {max} a record may have: damaged file"
    )]
    TooLong {
        /// The file.
        path: PathBuf,
        /// 0-based record index.
        record: u64,
        /// Byte offset of the record's frame.
        offset: u64,
        /// Claimed length.
        len: u64,
        /// The bound.
        max: u64,
    },
    /// The file ends inside a record (a writer killed mid-record); every record before it is
    /// good.
    #[error(
        "{path}: record {record} (at byte {offset}) is truncated: the file ends {missing} bytes early (a killed writer?); the {record} records before it are intact (`fanorona selfplay --resume` repairs the file)"
    )]
    Truncated {
        /// The file.
        path: PathBuf,
        /// 0-based index of the truncated record (= number of good records before it).
        record: u64,
        /// Byte offset of the record's frame.
        offset: u64,
        /// Bytes missing at least.
        missing: u64,
    },
    /// A record's checksum does not match its bytes.
    #[error(
        "{path}: record {record} (at byte {offset}) is damaged: CRC32 {found:#010x} does not match the stored {stored:#010x}"
    )]
    Crc {
        /// The file.
        path: PathBuf,
        /// 0-based record index.
        record: u64,
        /// Byte offset of the record's frame.
        offset: u64,
        /// Checksum stored in the frame.
        stored: u32,
        /// Checksum of the bytes read.
        found: u32,
    },
    /// A record's bytes pass the checksum but do not decode.
    #[error("{path}: record {record} (at byte {offset}) does not decode: {what}")]
    Decode {
        /// The file.
        path: PathBuf,
        /// 0-based record index.
        record: u64,
        /// Byte offset of the record's frame.
        offset: u64,
        /// The decoder's message.
        what: String,
    },
    /// A record decodes but is not a consistent game.
    #[error("{path}: record {record}: {source}")]
    Record {
        /// The file.
        path: PathBuf,
        /// 0-based record index.
        record: u64,
        /// What is wrong with the game.
        #[source]
        source: RecordError,
    },
    /// A record could not be encoded (a bug or an absurd record).
    #[error("{path}: cannot encode record {record}: {what}")]
    Encode {
        /// The file.
        path: PathBuf,
        /// 0-based record index.
        record: u64,
        /// The encoder's message.
        what: String,
    },
    /// An output file exists and may not be replaced.
    #[error("{path}: exists already; not replaced (--force replaces it)")]
    Exists {
        /// The file.
        path: PathBuf,
    },
    /// A path cannot be an output (a directory), or the output cannot be put in place.
    #[error("{path}: {what}")]
    Output {
        /// The path.
        path: PathBuf,
        /// Why.
        what: String,
    },
    /// A JSON file (a state file, a marker) does not hold what it should.
    #[error("{path}: not a readable state file: {source}")]
    Json {
        /// The file.
        path: PathBuf,
        /// The parser's error.
        #[source]
        source: serde_json::Error,
    },
    /// A value could not be written as JSON (a bug).
    #[error("{path}: cannot write as JSON: {source}")]
    JsonOut {
        /// The file.
        path: PathBuf,
        /// The serializer's error.
        #[source]
        source: serde_json::Error,
    },
    /// A state file has no `version`, or another one than this build reads.
    #[error("{path}: {}, but this build reads version {expected} (written by another version of fanorona?)", match found { Some(v) => format!("state file version {v}"), None => "a state file with no version".to_string() })]
    StateVersion {
        /// The file.
        path: PathBuf,
        /// The version found, if any.
        found: Option<u64>,
        /// The version this build reads.
        expected: u32,
    },
    /// Files that should belong together (shards, appended data) do not.
    #[error("{path}: {what}")]
    Mismatch {
        /// The file that does not fit.
        path: PathBuf,
        /// Why.
        what: String,
    },
}

impl From<fanorona_io::IoError> for DataError {
    fn from(e: fanorona_io::IoError) -> DataError {
        match e {
            fanorona_io::IoError::Io { path, source } => DataError::Io { path, source },
            fanorona_io::IoError::Exists { path } => DataError::Exists { path },
            fanorona_io::IoError::Output { path, what } => DataError::Output { path, what },
        }
    }
}

impl DataError {
    /// Wraps an I/O error with the file's name.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> DataError {
        DataError::Io { path: path.into(), source }
    }

    /// Whether the error is the input's fault rather than the system's: a file that is missing,
    /// is a directory, is not a record file, is damaged or does not belong, an output that may not be
    /// replaced. Other I/O errors (a full disk, a permission) and encoding failures are not.
    pub fn is_bad_input(&self) -> bool {
        match self {
            DataError::Io { source, .. } => fanorona_io::is_bad_path(source),
            DataError::Encode { .. } | DataError::JsonOut { .. } => false,
            _ => true,
        }
    }

    /// Whether this is a truncated last record (a killed writer), after which nothing follows.
    pub fn is_truncation(&self) -> bool {
        matches!(self, DataError::Truncated { .. })
    }
}
