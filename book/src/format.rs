//! The book file format (see `FORMAT.md` beside this crate): a 32-byte header, then entries of
//! 40 bytes sorted by position and turn, all little-endian.

use fanorona_core::{Bitboard, Color, Point, Position, Turn};

/// The first eight bytes of every book file.
pub const MAGIC: [u8; 8] = *b"FANBOOK\x1a";
/// The format version of a book built from games (entries without analysed scores).
pub const VERSION: u32 = 1;
/// The format version of a book whose entries carry an analysed score (bytes 26-27), as
/// `fanorona book analyse` writes; this library reads both.
pub const VERSION_SCORED: u32 = 2;
/// The largest analysed score an entry holds, in centi-stones (forced results are clamped to
/// it).
pub const MAX_SCORE: i32 = 30_000;
/// The header's length in bytes.
pub const HEADER_LEN: usize = 32;
/// An entry's length in bytes.
pub const ENTRY_LEN: usize = 40;

/// The bit of an entry's first word that says Black is to move.
const BLACK_TO_MOVE: u64 = 1 << 63;

/// What a book's header says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Entries after the header.
    pub entries: u64,
    /// The CRC-32 of the entries' bytes.
    pub crc: u32,
    /// The fewest games an entry of the book was played in (the build's `--min-games`; 0 in
    /// an analysed book).
    pub min_games: u32,
    /// Whether every entry carries an analysed score (format version 2).
    pub scored: bool,
}

impl Header {
    /// The header's bytes.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut h = [0u8; HEADER_LEN];
        h[..8].copy_from_slice(&MAGIC);
        let version = if self.scored { VERSION_SCORED } else { VERSION };
        h[8..12].copy_from_slice(&version.to_le_bytes());
        h[12..16].copy_from_slice(&(ENTRY_LEN as u32).to_le_bytes());
        h[16..24].copy_from_slice(&self.entries.to_le_bytes());
        h[24..28].copy_from_slice(&self.crc.to_le_bytes());
        h[28..32].copy_from_slice(&self.min_games.to_le_bytes());
        h
    }

    /// Reads a header: `Err((offset, reason))` for a foreign file or another version.
    pub fn decode(h: &[u8; HEADER_LEN]) -> Result<Header, (u64, String)> {
        if h[..8] != MAGIC {
            return Err((0, "not a fanorona book (no FANBOOK magic)".into()));
        }
        let version = u32_at(h, 8);
        if version != VERSION && version != VERSION_SCORED {
            return Err((
                8,
                format!(
                    "book format version {version}; this program reads versions {VERSION} and {VERSION_SCORED}"
                ),
            ));
        }
        let entry_len = u32_at(h, 12);
        if entry_len as usize != ENTRY_LEN {
            return Err((12, format!("entries of {entry_len} bytes; version {version} has {ENTRY_LEN}")));
        }
        Ok(Header {
            entries: u64_at(h, 16),
            crc: u32_at(h, 24),
            min_games: u32_at(h, 28),
            scored: version == VERSION_SCORED,
        })
    }
}

/// Games that went through one turn of one position, by result for the side that played it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Stats {
    /// Games the mover won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the mover lost.
    pub losses: u32,
}

impl Stats {
    /// Every game.
    pub fn games(&self) -> u64 {
        u64::from(self.wins) + u64::from(self.draws) + u64::from(self.losses)
    }

    /// The mover's score, 1 for a win and 0.5 for a draw, per game (0.5 with no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 { 0.5 } else { (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n as f64 }
    }

    /// Adds one game's result for the mover: `Some(true)` won, `Some(false)` lost, `None` drawn
    /// (counts saturate rather than wrap).
    pub fn add(&mut self, mover_won: Option<bool>) {
        let slot = match mover_won {
            Some(true) => &mut self.wins,
            Some(false) => &mut self.losses,
            None => &mut self.draws,
        };
        *slot = slot.saturating_add(1);
    }
}

/// One entry: a position, a turn played in it, the games that went through them and, in an
/// analysed book, the turn's score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position.
    pub position: Position,
    /// The turn (its start, end and captured stones: turns with the same effect are one).
    pub turn: Turn,
    /// The games.
    pub stats: Stats,
    /// The turn's analysed score for the side that plays it, in centi-stones (within
    /// ±[`MAX_SCORE`]); `None` in a book built from games.
    pub score: Option<i16>,
}

/// The sort key of an entry: position, then turn. Entries of one position are adjacent.
pub type Key = (u64, u64, u8, u8, u64);

/// The sort key of a position's entries (the turn's part the lowest).
pub fn position_key(p: &Position) -> (u64, u64) {
    let side = if p.turn() == Color::Black { BLACK_TO_MOVE } else { 0 };
    (p.stones(Color::White).0 | side, p.stones(Color::Black).0)
}

impl Entry {
    /// The entry's sort key.
    pub fn key(&self) -> Key {
        let (w, b) = position_key(&self.position);
        (w, b, self.turn.from().index() as u8, self.turn.to().index() as u8, self.turn.captured().0)
    }

    /// The entry's bytes.
    pub fn encode(&self) -> [u8; ENTRY_LEN] {
        let (w, b, from, to, captured) = self.key();
        let mut e = [0u8; ENTRY_LEN];
        e[..8].copy_from_slice(&w.to_le_bytes());
        e[8..16].copy_from_slice(&b.to_le_bytes());
        e[16..24].copy_from_slice(&captured.to_le_bytes());
        e[24] = from;
        e[25] = to;
        if let Some(score) = self.score {
            e[26..28].copy_from_slice(&score.to_le_bytes());
        }
        e[28..32].copy_from_slice(&self.stats.wins.to_le_bytes());
        e[32..36].copy_from_slice(&self.stats.draws.to_le_bytes());
        e[36..40].copy_from_slice(&self.stats.losses.to_le_bytes());
        e
    }

    /// Reads an entry of a book that is `scored` (version 2) or not: `Err((offset within the
    /// entry, reason))` when its position cannot exist, its turn leaves the board, its score
    /// is beyond ±[`MAX_SCORE`] or (version 1) its reserved bytes are not zero. Whether the
    /// turn is legal in the position is [`Entry::check_legal`]'s business (the legal turns are
    /// worked out once per position).
    pub fn decode(e: &[u8; ENTRY_LEN], scored: bool) -> Result<Entry, (u64, String)> {
        let position = decode_position(e)?;
        let from = point(e[24]).ok_or((24, "turn start off the board".to_string()))?;
        let to = point(e[25]).ok_or((25, "turn end off the board".to_string()))?;
        let raw = i16::from_le_bytes([e[26], e[27]]);
        let score = if scored {
            if i32::from(raw).abs() > MAX_SCORE {
                return Err((26, format!("score {raw} is beyond ±{MAX_SCORE}")));
            }
            Some(raw)
        } else if raw != 0 {
            return Err((26, "reserved bytes are not zero".into()));
        } else {
            None
        };
        let turn = Turn::new(from, to, Bitboard(u64_at(e, 16)));
        let stats = Stats { wins: u32_at(e, 28), draws: u32_at(e, 32), losses: u32_at(e, 36) };
        Ok(Entry { position, turn, stats, score })
    }
}

impl Entry {
    /// The mover's expected score after the turn, 1 for a win and 0.5 for a draw: its games'
    /// score ([`Stats::score`]), or in an analysed book its analysed score `s` read as the
    /// engine reads a network's, `(1 + tanh(s / 400)) / 2`.
    pub fn mover_score(&self) -> f64 {
        match self.score {
            Some(s) => 0.5 + 0.5 * (f64::from(s) / 400.0).tanh(),
            None => self.stats.score(),
        }
    }

    /// `Err((offset within the entry, reason))` unless the turn is one of `legal`, the legal
    /// turns of the entry's position.
    pub fn check_legal(&self, legal: &[Turn]) -> Result<(), (u64, String)> {
        if legal.contains(&self.turn) {
            Ok(())
        } else {
            Err((16, format!("{} is not a legal turn in {}", describe(&self.turn), self.position)))
        }
    }
}

/// The legal turns of a position, as books store them.
pub fn legal_turns(p: &Position) -> Vec<Turn> {
    p.legal_moves().iter().map(|m| m.turn()).collect()
}

/// The position of an entry's first 16 bytes.
fn decode_position(e: &[u8]) -> Result<Position, (u64, String)> {
    let w = u64_at(e, 0);
    let side = if w & BLACK_TO_MOVE != 0 { Color::Black } else { Color::White };
    Position::from_stones(Bitboard(w & !BLACK_TO_MOVE), Bitboard(u64_at(e, 8)), side)
        .map_err(|err| (0, format!("not a position: {err}")))
}

/// The point of a byte, if on the board.
fn point(b: u8) -> Option<Point> {
    Point::try_from_index(usize::from(b))
}

/// A turn's start, end and captured count, for messages.
pub fn describe(t: &Turn) -> String {
    format!("{}-{} (capturing {})", t.from(), t.to(), t.captured().count())
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    let mut x = [0u8; 4];
    x.copy_from_slice(&b[at..at + 4]);
    u32::from_le_bytes(x)
}

fn u64_at(b: &[u8], at: usize) -> u64 {
    let mut x = [0u8; 8];
    x.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start_entry() -> Entry {
        let position = Position::start();
        let turn = position.legal_moves()[0].turn();
        Entry { position, turn, stats: Stats { wins: 3, draws: 2, losses: 1 }, score: None }
    }

    #[test]
    fn entries_round_trip() {
        let e = start_entry();
        assert_eq!(Entry::decode(&e.encode(), false), Ok(e));
        let scored = Entry { score: Some(-1234), ..e };
        assert_eq!(Entry::decode(&scored.encode(), true), Ok(scored));
        assert_eq!(
            Entry::decode(&scored.encode(), false).unwrap_err().0,
            26,
            "a version-1 book has no scores"
        );
        let mut beyond = scored.encode();
        beyond[26..28].copy_from_slice(&(-30_001i16).to_le_bytes());
        assert_eq!(Entry::decode(&beyond, true).unwrap_err().0, 26);
        let mut black = e;
        black.position = "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW b".parse().unwrap();
        black.turn = black.position.legal_moves()[0].turn();
        assert_eq!(Entry::decode(&black.encode(), false), Ok(black));
        assert!(black.key() > e.key(), "Black to move sorts after White to move");
    }

    #[test]
    fn headers_round_trip_and_foreign_files_are_named() {
        let h = Header { entries: 7, crc: 0xDEAD_BEEF, min_games: 3, scored: false };
        assert_eq!(Header::decode(&h.encode()), Ok(h));
        let scored = Header { scored: true, min_games: 0, ..h };
        assert_eq!(scored.encode()[8], 2);
        assert_eq!(Header::decode(&scored.encode()), Ok(scored));
        let mut bytes = h.encode();
        bytes[0] = b'X';
        assert_eq!(Header::decode(&bytes).unwrap_err().0, 0);
        let mut bytes = h.encode();
        bytes[8] = 3;
        assert_eq!(Header::decode(&bytes).unwrap_err().0, 8);
    }

    #[test]
    fn impossible_entries_are_refused_with_their_byte() {
        let e = start_entry().encode();
        let mut overlap = e;
        overlap[8..16].copy_from_slice(&1u64.to_le_bytes());
        assert_eq!(Entry::decode(&overlap, false).unwrap_err().0, 0);
        let mut off_board = e;
        off_board[24] = 45;
        assert_eq!(Entry::decode(&off_board, false).unwrap_err().0, 24);
        let mut illegal = e;
        illegal[16] = 0xFF;
        let illegal = Entry::decode(&illegal, false).unwrap();
        assert_eq!(illegal.check_legal(&legal_turns(&illegal.position)).unwrap_err().0, 16);
        let fine = Entry::decode(&e, false).unwrap();
        assert_eq!(fine.check_legal(&legal_turns(&fine.position)), Ok(()));
    }

    #[test]
    fn scores_count_draws_as_half() {
        let s = Stats { wins: 3, draws: 2, losses: 1 };
        assert_eq!(s.games(), 6);
        assert!((s.score() - 4.0 / 6.0).abs() < 1e-12);
        assert!((Stats::default().score() - 0.5).abs() < 1e-12);
        let e = start_entry();
        assert!((e.mover_score() - 4.0 / 6.0).abs() < 1e-12);
        let analysed = Entry { score: Some(400), stats: Stats::default(), ..e };
        assert!((analysed.mover_score() - (0.5 + 0.5 * 1f64.tanh())).abs() < 1e-12);
    }
}
