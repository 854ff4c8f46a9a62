//! Zobrist hashing: a 64-bit key per (colour, point) and one for Black to move.

use crate::{Bitboard, Color, Point};

const fn splitmix64(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

/// The keys by colour and point index, padded to 64 points with zeros (so that a point index
/// taken from a bit of a board needs no bounds check), and the side key.
const KEYS: ([[u64; 64]; 2], u64) = {
    let mut keys = [[0u64; 64]; 2];
    let mut state = 0x00FA_0A0A_F0A0_2025u64;
    let mut c = 0;
    while c < 2 {
        let mut p = 0;
        while p < Point::NUM {
            let (s, k) = splitmix64(state);
            state = s;
            keys[c][p] = k;
            p += 1;
        }
        c += 1;
    }
    let (_, side) = splitmix64(state);
    (keys, side)
};

/// The key of a stone of colour `c` on `p`.
#[inline]
pub const fn stone_key(c: Color, p: Point) -> u64 {
    KEYS.0[c as usize][p as usize]
}

/// The key xor-ed in when Black is to move.
pub const SIDE_KEY: u64 = KEYS.1;

/// The xor of the keys of stones of colour `c` on every point of `bb`.
#[inline]
pub fn stones_key(c: Color, bb: Bitboard) -> u64 {
    let keys = &KEYS.0[c as usize];
    let (mut bits, mut h) = (bb.0, 0);
    while bits != 0 {
        h ^= keys[bits.trailing_zeros() as usize & 63];
        bits &= bits - 1;
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> =
            Color::ALL.iter().flat_map(|&c| Point::ALL.iter().map(move |&p| stone_key(c, p))).collect();
        all.push(SIDE_KEY);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
    }
}
