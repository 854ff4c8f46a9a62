//! The line neighbourhood of one point as nine bits, read from a whole board in a few
//! operations: what a capture chain needs at each stop, without a loop over directions.
//!
//! A window is a 3x3 block of bits around a point `at`: bit `3 * row + column`, rows and
//! columns counted from the south-west, so bit 4 is `at` itself and the bit of a direction is
//! [`DIRECTION_BIT`]. The bit of the opposite direction is `8 - bit` ([`OPPOSITE`]). Only the
//! line neighbours of `at` are ever set (a weak point has no diagonal bits), so the windows of
//! a board can be combined with plain bit operations.
//!
//! How a window is read: the board is rotated so that `at` sits at a fixed bit, masked to the
//! line neighbours (a per-point mask, which also drops whatever the rotation wrapped round),
//! and its three rows are packed by one multiplication.

use crate::Point;
use crate::tables::{NEIGHBOR, NONE};

/// The window bit of each direction index (north, north-east, east, south-east, south,
/// south-west, west, north-west).
pub(crate) const DIRECTION_BIT: [u32; 8] = [7, 8, 5, 2, 1, 0, 3, 6];

/// The change of point index of the step to each window bit (bit 4, `at` itself, is 0).
pub(crate) const BIT_OFFSET: [isize; 9] = [-10, -9, -8, -1, 0, 1, 8, 9, 10];

/// Where `at` sits after the rotation of [`near`] and of [`far`]: the same place, so that the
/// windows of one point share a rotation amount, and [`near`] and [`far`] of one board its
/// rotation.
const NEAR_AT: u32 = 20;
const FAR_AT: u32 = 20;

/// Per point: the line neighbours (`near`) and the points two steps along a line (`far`),
/// as masks of the rotated board.
#[derive(Clone, Copy)]
struct Masks {
    near: u64,
    far: u64,
}

static MASKS: [Masks; Point::NUM] = {
    let mut t = [Masks { near: 0, far: 0 }; Point::NUM];
    let mut p = 0;
    while p < Point::NUM {
        let mut d = 0;
        while d < 8 {
            let q = NEIGHBOR[d][p];
            let offset = BIT_OFFSET[DIRECTION_BIT[d] as usize];
            if q != NONE {
                t[p].near |= 1 << (NEAR_AT as isize + offset);
                if NEIGHBOR[d][q as usize] != NONE {
                    t[p].far |= 1 << (FAR_AT as isize + 2 * offset);
                }
            }
            d += 1;
        }
        p += 1;
    }
    t
};

/// `OPPOSITE[w]`: the window `w` turned half round about its centre (bit `i` to `8 - i`).
pub(crate) static OPPOSITE: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut w = 0;
    while w < 512 {
        let mut i = 0;
        while i < 9 {
            if w & (1 << i) != 0 {
                t[w] |= 1 << (8 - i);
            }
            i += 1;
        }
        w += 1;
    }
    t
};

/// `COUNT[w]`: the number of bits of the window `w` (a table: without the `popcnt`
/// instruction, which the portable x86-64 target lacks, a population count takes a dozen).
pub(crate) static COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut w = 0;
    while w < 512 {
        t[w] = (w as u32).count_ones() as u8;
        w += 1;
    }
    t
};

/// The window of `board` around `at`: bit [`DIRECTION_BIT`]`[d]` is set when the line
/// neighbour of `at` in direction `d` is in `board`.
#[inline(always)]
pub(crate) fn near(board: u64, at: usize) -> u32 {
    // Rows of the rotated block at bits 10, 19 and 28, three bits each; packed to bits 28, 31,
    // 34 (the nine shifted copies of the rows are disjoint, so nothing carries).
    let y = board.rotate_right((at as u32).wrapping_sub(NEAR_AT) & 63) & MASKS[at].near;
    (y.wrapping_mul(1 << 18 | 1 << 12 | 1 << 6) >> (NEAR_AT + 8)) as u32 & 0x1ff
}

/// The window of the points two steps from `at`: bit [`DIRECTION_BIT`]`[d]` is set when the
/// point two steps from `at` along the line in direction `d` is in `board`.
#[inline(always)]
pub(crate) fn far(board: u64, at: usize) -> u32 {
    let y = board.rotate_right((at as u32).wrapping_sub(FAR_AT) & 63) & MASKS[at].far;
    u32::from(FAR_WINDOW[far_index(y)])
}

/// The nine points two steps around `at` in the rotated board of [`far`], in window order.
const FAR_POINTS: [u32; 9] = [0, 2, 4, 18, 20, 22, 36, 38, 40];

/// Packs any subset of [`FAR_POINTS`] into 11 bits, a different number for each subset (one
/// multiplication: the points are two bits apart, too close to be packed into 9 bits in
/// order; a table puts them in order).
#[inline(always)]
const fn far_index(y: u64) -> usize {
    (y.wrapping_mul(1 | 1 << 12 | 1 << 31) >> 30) as usize & 0x7ff
}

/// `FAR_WINDOW[far_index(y)]`: the window of the points of `y`.
static FAR_WINDOW: [u16; 2048] = {
    let mut t = [0u16; 2048];
    let mut w = 0;
    while w < 512 {
        let mut y = 0u64;
        let mut i = 0;
        while i < 9 {
            if w & (1 << i) != 0 {
                y |= 1 << FAR_POINTS[i];
            }
            i += 1;
        }
        t[far_index(y)] = w as u16;
        w += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tables::NEIGHBOR;

    #[test]
    fn far_index_tells_every_subset_apart() {
        let mut seen = std::collections::HashSet::new();
        for w in 0..512u64 {
            let y = (0..9).filter(|i| w & (1 << i) != 0).fold(0, |y, i| y | 1 << FAR_POINTS[i]);
            assert!(seen.insert(far_index(y)), "{w:#b}");
            assert_eq!(u64::from(FAR_WINDOW[far_index(y)]), w);
        }
    }

    #[test]
    fn windows_read_each_neighbour() {
        for at in crate::Point::ALL.map(crate::Point::index) {
            for d in 0..8 {
                let q = NEIGHBOR[d][at];
                let bit = 1 << DIRECTION_BIT[d];
                assert_eq!(OPPOSITE[bit as usize] as u32, 1 << DIRECTION_BIT[(d + 4) % 8]);
                if q == NONE {
                    assert_eq!(near(crate::Bitboard::ALL.0, at) & bit, 0, "{at} {d}");
                    assert_eq!(far(crate::Bitboard::ALL.0, at) & bit, 0, "{at} {d}");
                    continue;
                }
                assert_eq!(q as isize, at as isize + BIT_OFFSET[DIRECTION_BIT[d] as usize]);
                assert_eq!(near(1 << q, at), bit, "{at} {d}");
                assert_eq!(near(!(1u64 << q) & crate::Bitboard::ALL.0, at) & bit, 0, "{at} {d}");
                match NEIGHBOR[d][q as usize] {
                    NONE => assert_eq!(far(crate::Bitboard::ALL.0, at) & bit, 0, "{at} {d}"),
                    r => {
                        assert_eq!(far(1 << r, at), bit, "{at} {d}");
                        assert_eq!(far(!(1u64 << r) & crate::Bitboard::ALL.0, at) & bit, 0, "{at} {d}");
                    }
                }
            }
        }
    }
}
