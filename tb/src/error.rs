//! What can go wrong opening, generating or probing tables.

use std::io;
use std::path::PathBuf;

use crate::Signature;

impl TbError {
    /// Whether the error is the input's fault (a missing, damaged or foreign table, a bad
    /// stone count, an output that may not be replaced) rather than the system's (a read or
    /// write failure, threads).
    pub fn is_bad_input(&self) -> bool {
        match self {
            TbError::Read { source, .. } => fanorona_io::is_bad_path(source),
            TbError::Write { .. } | TbError::Threads(_) | TbError::DtcOverflow { .. } => false,
            _ => true,
        }
    }
}

/// Why tables cannot be opened or generated. Every error about a file names it.
#[derive(Debug, thiserror::Error)]
pub enum TbError {
    /// The directory holds no table file.
    #[error("{0} holds no table files (*.fantb); generate them with `fanorona tb generate`")]
    Empty(PathBuf),
    /// A table that the others need is not there.
    #[error(
        "table file {path} is missing (a {stones}-stone tablebase needs every signature up to {stones} stones)"
    )]
    Missing {
        /// The file expected.
        path: PathBuf,
        /// The largest number of stones found in the directory.
        stones: u32,
    },
    /// A file or directory could not be read.
    #[error("cannot read {path}")]
    Read {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// A file could not be written.
    #[error("cannot write {path}")]
    Write {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: io::Error,
    },
    /// The file is shorter than its header says.
    #[error("table file {path} is truncated: {len} bytes, its format needs {expected}")]
    Truncated {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: u64,
        /// The length the format needs.
        expected: u64,
    },
    /// The file is longer than its header says.
    #[error("table file {path} is too long: {len} bytes, its format needs {expected}")]
    TooLong {
        /// The file.
        path: PathBuf,
        /// Its length.
        len: u64,
        /// The length the format needs.
        expected: u64,
    },
    /// The file does not start with the table magic.
    #[error("{path} is not a fanorona table file (bad magic bytes)")]
    NotATable {
        /// The file.
        path: PathBuf,
    },
    /// The file was written by another format version.
    #[error("table file {path} has format version {found}; this build reads and writes version {expected}")]
    WrongVersion {
        /// The file.
        path: PathBuf,
        /// The version in the file.
        found: u32,
        /// The version of this build.
        expected: u32,
    },
    /// The file holds another signature than its name says.
    #[error("table file {path} holds signature {found}, but its name says {expected}")]
    WrongSignature {
        /// The file.
        path: PathBuf,
        /// The signature in the header, as `us`v`them`.
        found: String,
        /// The signature of the name.
        expected: Signature,
    },
    /// The checksum does not match the contents.
    #[error("table file {path} is corrupt: checksum {found:#010x}, its header says {expected:#010x}")]
    Checksum {
        /// The file.
        path: PathBuf,
        /// The checksum of the contents.
        found: u32,
        /// The checksum in the header.
        expected: u32,
    },
    /// A header field is out of range.
    #[error("table file {path} has a bad header: {reason}")]
    BadHeader {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// Something that is not a regular file stands where a table is to be written.
    #[error("{path} exists and is not a regular file; not replacing it")]
    NotAFile {
        /// The path.
        path: PathBuf,
    },
    /// Something that is not a regular file (a FIFO, a directory, a device) stands where a
    /// table is to be read; it is not opened.
    #[error("{path} is {kind}, not a table file; not opening it")]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is: `a directory`, `a FIFO`, ...
        kind: &'static str,
    },
    /// The output of a generation exists and is not a directory.
    #[error(
        "--out {path} exists and is not a directory: tables are written into a directory (not replacing it)"
    )]
    NotADirectory {
        /// The path.
        path: PathBuf,
    },
    /// More worker threads than this system allows.
    #[error("{asked} threads is more than the {limit} this system allows ({what})")]
    TooManyThreads {
        /// Threads asked for.
        asked: usize,
        /// The limit.
        limit: usize,
        /// Where the limit comes from.
        what: &'static str,
    },
    /// A distance to capture does not fit the format.
    #[error("table {sig} has a dtc of {dtc}, beyond the format's limit of {}", crate::MAX_DTC)]
    DtcOverflow {
        /// The table.
        sig: Signature,
        /// The dtc.
        dtc: u32,
    },
    /// A number of stones the tables cannot cover.
    #[error("{0} stones: tables cover 2 to {max} stones", max = crate::MAX_TB_STONES)]
    BadStones(u32),
    /// The worker threads could not be started.
    #[error("cannot start the worker threads")]
    Threads(#[source] rayon::ThreadPoolBuildError),
    /// Another generation holds the directory's lock.
    #[error("another generation is writing this directory (it holds {path}); wait for it to finish")]
    Busy {
        /// The lock file.
        path: PathBuf,
    },
    /// A checkpoint of a pair being solved is damaged or belongs to another pair or mode.
    #[error("checkpoint {path} cannot be used: {reason}; delete it to solve the pair from the start")]
    BadCheckpoint {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        reason: String,
    },
    /// A pair does not fit the memory bound even without counters.
    #[error(
        "solving {sig} needs {} MiB even without counters, more than the {} MiB allowed",
        needed.div_ceil(1 << 20),
        limit >> 20
    )]
    MemoryTooSmall {
        /// The pair's first signature.
        sig: Signature,
        /// Bytes it needs.
        needed: u64,
        /// The bound, in bytes.
        limit: u64,
    },
}

impl ProbeError {
    /// Always: a position the tables cannot answer for is the caller's input.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// Why a position cannot be probed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// More stones than the tables hold.
    #[error("the position has {stones} stones; the tables hold at most {max}")]
    TooManyStones {
        /// Stones in the position.
        stones: u32,
        /// The tables' largest number of stones.
        max: u32,
    },
    /// A side has no stones: the game is over and no table covers it.
    #[error("a side has no stones: the game is over")]
    GameOver,
}
