//! A hand-written decoder for the bincode encoding of a [`GameRecord`] (FORMAT.md), several
//! times faster than going through serde. It accepts exactly well-formed payloads; on
//! anything else it gives up and the serde decoder (the reference) decides and names the
//! error. Tests check that both agree.

use fanorona_core::{Bitboard, Color, Outcome, Position};

use crate::{Ending, GameRecord, MoveCode, Turn, TurnInfo};

struct Cursor<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    #[inline]
    fn byte(&mut self) -> Option<u8> {
        let v = *self.b.get(self.i)?;
        self.i += 1;
        Some(v)
    }

    #[inline]
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let end = self.i.checked_add(n)?;
        let s = self.b.get(self.i..end)?;
        self.i = end;
        Some(s)
    }

    #[inline]
    fn varint(&mut self) -> Option<u64> {
        match self.byte()? {
            b @ 0..=250 => Some(u64::from(b)),
            251 => Some(u64::from(u16::from_le_bytes(self.take(2)?.try_into().ok()?))),
            252 => Some(u64::from(u32::from_le_bytes(self.take(4)?.try_into().ok()?))),
            253 => Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?)),
            _ => None,
        }
    }

    #[inline]
    fn tag(&mut self) -> Option<bool> {
        match self.byte()? {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }

    fn string(&mut self) -> Option<String> {
        let n = usize::try_from(self.varint()?).ok()?;
        let bytes = self.take(n)?;
        String::from_utf8(bytes.to_vec()).ok()
    }

    #[inline]
    fn color(&mut self) -> Option<Color> {
        match self.varint()? {
            0 => Some(Color::White),
            1 => Some(Color::Black),
            _ => None,
        }
    }
}

/// The ending of code `v`: its declaration index, as bincode writes enums.
fn termination(v: u64) -> Option<Ending> {
    Ending::ALL.get(usize::try_from(v).ok()?).copied()
}

#[inline]
fn turn(c: &mut Cursor<'_>) -> Option<Turn> {
    let n = usize::try_from(c.varint()?).ok()?;
    let bytes = c.take(n)?;
    let (&from, steps) = bytes.split_first()?;
    let mv = MoveCode::from_bytes(from, steps)?;
    let score = if c.tag()? {
        let z = c.varint()?;
        let v = ((z >> 1) as i64) ^ -((z & 1) as i64);
        Some(i32::try_from(v).ok()?)
    } else {
        None
    };
    let depth = if c.tag()? { Some(u16::try_from(c.varint()?).ok()?) } else { None };
    let exploration = c.tag()?;
    Some(Turn { mv, info: TurnInfo { score, depth, exploration } })
}

/// The game index a record payload starts with (its first field), without decoding the rest;
/// `None` when the payload does not start with a well-formed index.
pub(crate) fn index(b: &[u8]) -> Option<u64> {
    Cursor { b, i: 0 }.varint()
}

/// Decodes a record payload that must be consumed exactly; `None` when it is not a
/// well-formed record (the caller then asks the serde decoder why).
pub(crate) fn decode(b: &[u8]) -> Option<GameRecord> {
    let mut c = Cursor { b, i: 0 };
    let index = c.varint()?;
    let white = c.string()?;
    let black = c.string()?;
    let w = c.varint()?;
    let bl = c.varint()?;
    let side = c.color()?;
    let start = Position::from_stones(Bitboard(w), Bitboard(bl), side).ok()?;
    let n = usize::try_from(c.varint()?).ok()?;
    // Each turn takes at least 5 bytes: a claim beyond the payload is not allocated.
    if n > b.len() / 5 {
        return None;
    }
    let mut turns = Vec::with_capacity(n);
    for _ in 0..n {
        turns.push(turn(&mut c)?);
    }
    let winner = if c.tag()? { Some(c.color()?) } else { None };
    let termination = termination(c.varint()?)?;
    if c.i != b.len() {
        return None;
    }
    Some(GameRecord { index, white, black, start, turns, outcome: Outcome { winner, termination } })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::{decode_exact, encode_into};

    fn records() -> Vec<GameRecord> {
        let mut out = Vec::new();
        let mut x: u64 = 99;
        for g in 0..30u64 {
            let mut pos = Position::start();
            let mut turns = Vec::new();
            for ply in 0..(g * 7 % 90) {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let m = legal[(x % legal.len() as u64) as usize];
                let score = match ply % 4 {
                    0 => None,
                    1 => Some(-29_990),
                    2 => Some((x % 1000) as i32 - 500),
                    _ => Some(i32::MIN + (x % 3) as i32),
                };
                let depth = if ply % 3 == 0 { None } else { Some((x % 70_000) as u16) };
                turns.push(Turn {
                    mv: MoveCode::from_move(&m),
                    info: TurnInfo { score, depth, exploration: x.is_multiple_of(2) },
                });
                pos.play_unchecked(&m);
            }
            let terms = [Ending::AllCaptured, Ending::Adjudication, Ending::MaxLength];
            out.push(GameRecord {
                index: g * 1_000_003 + (g % 3).wrapping_mul(u64::MAX) / 2,
                white: if g.is_multiple_of(2) {
                    String::new()
                } else {
                    "alphabeta:depth=2,eval=handcrafted é".into()
                },
                black: "x".repeat((g * 20) as usize),
                start: Position::start(),
                turns,
                outcome: Outcome {
                    winner: [None, Some(Color::White), Some(Color::Black)][(g % 3) as usize],
                    termination: terms[(g % 3) as usize],
                },
            });
        }
        out
    }

    #[test]
    fn every_termination_decodes_as_serde_wrote_it() {
        let mut buf = Vec::new();
        for t in Ending::ALL {
            let mut r = records().remove(0);
            r.outcome = Outcome { winner: None, termination: t };
            encode_into(&r, &mut buf).unwrap();
            assert_eq!(decode(&buf).map(|d| d.outcome.termination), Some(t));
        }
    }

    #[test]
    fn agrees_with_serde_on_good_records() {
        let mut buf = Vec::new();
        for r in records() {
            encode_into(&r, &mut buf).unwrap();
            assert_eq!(index(&buf), Some(r.index));
            assert_eq!(decode(&buf).as_ref(), Some(&r));
            assert_eq!(decode_exact::<GameRecord>(&buf).unwrap(), r);
        }
    }

    #[test]
    fn never_accepts_what_serde_rejects() {
        let mut buf = Vec::new();
        for r in records().into_iter().take(8) {
            encode_into(&r, &mut buf).unwrap();
            for cut in 0..buf.len() {
                assert_eq!(decode(&buf[..cut]), None);
            }
            for i in 0..buf.len() {
                for v in [0u8, 1, 2, 9, 250, 251, 255] {
                    let mut b = buf.clone();
                    b[i] = v;
                    if let Some(fast) = decode(&b) {
                        assert_eq!(decode_exact::<GameRecord>(&b).as_ref(), Ok(&fast), "byte {i} = {v}");
                    }
                }
            }
        }
    }
}
