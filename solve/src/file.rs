//! The proof file: a position's proven value and the certificates behind it, for
//! `fanorona solve --verify` (see `solve/FORMAT.md`).
//!
//! All integers little-endian:
//!
//! | offset | size | field |
//! |---|---|---|
//! | 0 | 8 | magic `FANPROOF` |
//! | 8 | 4 | format version ([`VERSION`]) |
//! | 12 | 1 | rules: 0, the game with no limit on its length |
//! | 13 | 1 | stones of the endgame tables the proof leans on (0: none) |
//! | 14 | 1 | sections (1 or 2) |
//! | 15 | 1 | zero |
//! | 16 | 8 | the root's white stones |
//! | 24 | 8 | the root's black stones |
//! | 32 | 1 | the root's side to move: 0 White, 1 Black |
//! | 33 | 7 | zero |
//! | 40 | ... | the sections, one after the other |
//! | end - 4 | 4 | CRC-32 of every byte before it |
//!
//! A section: 1 byte attacker (0 White, 1 Black), 1 byte claim (0 the attacker wins, 1 it
//! fails), 6 zero bytes, 8 bytes node count N, then N records of 18 bytes sorted ascending by
//! their first 16: the side to move's stones with bit 63 set when the attacker is to move
//! (u64), the other side's stones (u64), the choice (u16, 65535 for none).

use std::fs;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use fanorona_core::{Bitboard, Color, Position};

use crate::certificate::{Certificate, Claim};
use crate::node::Node;

/// The format version.
pub const VERSION: u32 = 1;
const MAGIC: [u8; 8] = *b"FANPROOF";
const HEADER: usize = 40;
const SECTION: usize = 16;
const RECORD: usize = 18;
const NO_CHOICE: u16 = u16::MAX;
/// The most nodes a proof file may hold (about 18 GB of records).
pub const MAX_NODES: u64 = 1 << 30;

/// A proof: the root position, the tables it leans on, and one certificate per question.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Proof {
    /// The position proven.
    pub root: Position,
    /// Stones of the tables the certificates' leaves are looked up in (0: none).
    pub tables: u32,
    /// One certificate per attacker colour asked about.
    pub sections: Vec<(Color, Certificate)>,
}

/// Why a proof file cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum FileError {
    /// The file cannot be read or written.
    #[error("cannot {verb} {path}")]
    Io {
        /// `read` or `write`.
        verb: &'static str,
        /// The file.
        path: PathBuf,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a sound proof file.
    #[error("{path} is not a sound proof file: {reason} (at byte {at})")]
    Bad {
        /// The file.
        path: PathBuf,
        /// Where the problem was found.
        at: u64,
        /// What is wrong.
        reason: String,
    },
}

impl FileError {
    /// Whether the error is the input's fault.
    pub fn is_bad_input(&self) -> bool {
        match self {
            FileError::Io { source, .. } => source.kind() == std::io::ErrorKind::NotFound,
            FileError::Bad { .. } => true,
        }
    }
}

/// Writes `proof` to `path` atomically.
///
/// # Errors
/// [`FileError::Io`] naming the file.
pub fn write(path: &Path, proof: &Proof) -> Result<(), FileError> {
    fanorona_io::write_atomic_with(path, |file| {
        let mut out = BufWriter::new(file);
        let mut crc = crc32fast::Hasher::new();
        let mut put = |b: &[u8]| -> std::io::Result<()> {
            crc.update(b);
            out.write_all(b)
        };
        put(&header(proof))?;
        for (attacker, cert) in &proof.sections {
            let mut s = [0u8; SECTION];
            s[0] = u8::from(*attacker == Color::Black);
            s[1] = u8::from(cert.claim == Claim::AttackerFails);
            s[8..16].copy_from_slice(&(cert.nodes.len() as u64).to_le_bytes());
            put(&s)?;
            for &(node, choice) in &cert.nodes {
                let (key, them) = node.words();
                let mut r = [0u8; RECORD];
                r[..8].copy_from_slice(&key.to_le_bytes());
                r[8..16].copy_from_slice(&them.to_le_bytes());
                r[16..].copy_from_slice(&choice.unwrap_or(NO_CHOICE).to_le_bytes());
                put(&r)?;
            }
        }
        let sum = crc.finalize();
        out.write_all(&sum.to_le_bytes())?;
        out.flush()
    })
    .map_err(|e| write_error(path, e))
}

/// An atomic write's failure as a [`FileError`] naming the file.
pub(crate) fn write_error(path: &Path, e: fanorona_io::IoError) -> FileError {
    match e {
        fanorona_io::IoError::Io { path, source } => FileError::Io { verb: "write", path, source },
        other => FileError::Io {
            verb: "write",
            path: path.to_path_buf(),
            source: std::io::Error::other(other.to_string()),
        },
    }
}

fn header(proof: &Proof) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(&MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[13] = proof.tables as u8;
    h[14] = proof.sections.len() as u8;
    h[16..24].copy_from_slice(&proof.root.stones(Color::White).0.to_le_bytes());
    h[24..32].copy_from_slice(&proof.root.stones(Color::Black).0.to_le_bytes());
    h[32] = u8::from(proof.root.turn() == Color::Black);
    h
}

/// A reader that counts the bytes it has read and checksums them.
struct Counted<R> {
    inner: R,
    at: u64,
    crc: crc32fast::Hasher,
    path: PathBuf,
}

impl<R: Read> Counted<R> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], FileError> {
        let mut b = [0u8; N];
        self.inner.read_exact(&mut b).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                self.bad(self.at, "the file ends too early (truncated)".into())
            } else {
                FileError::Io { verb: "read", path: self.path.clone(), source: e }
            }
        })?;
        self.crc.update(&b);
        self.at += N as u64;
        Ok(b)
    }
}

impl<R> Counted<R> {
    fn bad(&self, at: u64, reason: String) -> FileError {
        FileError::Bad { path: self.path.clone(), at, reason }
    }
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

/// Reads and checks a proof file: its header, every record (a node in canonical form, in
/// strictly ascending order), its length and checksum. It does not check the proof itself
/// ([`crate::check`] does).
///
/// # Errors
/// [`FileError::Bad`] naming the file and the byte where it goes wrong, [`FileError::Io`].
pub fn read(path: &Path) -> Result<Proof, FileError> {
    let io = |source| FileError::Io { verb: "read", path: path.to_path_buf(), source };
    let meta = fs::metadata(path).map_err(io)?;
    if !meta.is_file() {
        return Err(FileError::Bad { path: path.to_path_buf(), at: 0, reason: "not a regular file".into() });
    }
    let file = fs::File::open(path).map_err(io)?;
    let mut r = Counted {
        inner: BufReader::new(file),
        at: 0,
        crc: crc32fast::Hasher::new(),
        path: path.to_path_buf(),
    };
    let h: [u8; HEADER] = r.take()?;
    let (root, tables, count) = parse_header(&r, &h)?;
    let mut sections = Vec::new();
    for _ in 0..count {
        let at = r.at;
        let section = read_section(&mut r, &root)?;
        if sections.iter().any(|(attacker, _)| *attacker == section.0) {
            return Err(r.bad(at, format!("a second section for {:?} as the attacker", section.0)));
        }
        sections.push(section);
    }
    let sum = r.crc.clone().finalize();
    let at = r.at;
    let stored = u32::from_le_bytes(r.take::<4>()?);
    if stored != sum {
        return Err(r.bad(at, format!("checksum {stored:08x}, the contents give {sum:08x}")));
    }
    let mut rest = [0u8; 1];
    if r.inner.read(&mut rest).map_err(io)? != 0 {
        return Err(r.bad(r.at, "bytes after the checksum".into()));
    }
    Ok(Proof { root, tables, sections })
}

fn parse_header<R>(r: &Counted<R>, h: &[u8; HEADER]) -> Result<(Position, u32, u8), FileError> {
    if h[..8] != MAGIC {
        return Err(r.bad(0, "no FANPROOF magic: not a proof file".into()));
    }
    let version = u32::from_le_bytes([h[8], h[9], h[10], h[11]]);
    if version != VERSION {
        return Err(r.bad(8, format!("format version {version}, this build reads {VERSION}")));
    }
    if h[12] != 0 {
        return Err(r.bad(12, format!("rules {} unknown (0: no limit on the game's length)", h[12])));
    }
    if u32::from(h[13]) > fanorona_tb::MAX_TB_STONES {
        return Err(r.bad(13, format!("tables of {} stones", h[13])));
    }
    if !(1..=2).contains(&h[14]) {
        return Err(r.bad(14, format!("{} sections (1 or 2)", h[14])));
    }
    let turn = match h[32] {
        0 => Color::White,
        1 => Color::Black,
        b => return Err(r.bad(32, format!("side to move {b}"))),
    };
    let root = Position::from_stones(Bitboard(u64_at(h, 16)), Bitboard(u64_at(h, 24)), turn)
        .map_err(|e| r.bad(16, format!("the root is not a position: {e}")))?;
    Ok((root, u32::from(h[13]), h[14]))
}

fn read_section<R: Read>(r: &mut Counted<R>, root: &Position) -> Result<(Color, Certificate), FileError> {
    let start = r.at;
    let s: [u8; SECTION] = r.take()?;
    let attacker = match s[0] {
        0 => Color::White,
        1 => Color::Black,
        b => return Err(r.bad(start, format!("attacker {b}"))),
    };
    let claim = match s[1] {
        0 => Claim::AttackerWins,
        1 => Claim::AttackerFails,
        b => return Err(r.bad(start + 1, format!("claim {b}"))),
    };
    let n = u64_at(&s, 8);
    if n > MAX_NODES {
        return Err(r.bad(start + 8, format!("{n} nodes, more than the {MAX_NODES} allowed")));
    }
    let mut nodes: Vec<(Node, Option<u16>)> = Vec::new();
    for _ in 0..n {
        let at = r.at;
        let rec: [u8; RECORD] = r.take()?;
        let node = Node::from_words(u64_at(&rec, 0), u64_at(&rec, 8))
            .ok_or_else(|| r.bad(at, "a record that is no canonical position".into()))?;
        if nodes.last().is_some_and(|&(last, _)| last >= node) {
            return Err(r.bad(at, "records out of order or repeated".into()));
        }
        let choice = u16::from_le_bytes([rec[16], rec[17]]);
        nodes.push((node, (choice != NO_CHOICE).then_some(choice)));
    }
    Ok((attacker, Certificate { claim, root: Node::of(root, attacker), nodes }))
}
