//! The board's symmetries on stone masks: identity, left-right mirror, top-bottom mirror and
//! both (the 180-degree turn). Each keeps strong points strong, so it maps positions to
//! positions of the same value. (Swapping the colours is implicit: tables store positions from
//! the side to move's view.)

/// Number of symmetries.
pub const COUNT: usize = 4;

use fanorona_core::{FILES, RANKS};

/// The bits of rank 1.
const RANK: u64 = (1 << FILES) - 1;

/// The 9 bits of a rank, reversed.
const REVERSE9: [u16; 1 << FILES] = {
    let mut t = [0u16; 1 << FILES];
    let mut i = 0;
    while i < 1 << FILES {
        let mut r = 0u16;
        let mut b = 0;
        while b < FILES {
            if i & (1 << b) != 0 {
                r |= 1 << (FILES - 1 - b);
            }
            b += 1;
        }
        t[i] = r;
        i += 1;
    }
    t
};

/// The mask mirrored left-right (file `a` <-> `i`).
#[inline]
pub const fn mirror_files(bb: u64) -> u64 {
    let mut out = 0u64;
    let mut r = 0;
    while r < RANKS {
        let row = (bb >> (FILES * r)) & RANK;
        out |= (REVERSE9[row as usize] as u64) << (FILES * r);
        r += 1;
    }
    out
}

/// The mask mirrored top-bottom (row 1 <-> row 5).
#[inline]
pub const fn mirror_ranks(bb: u64) -> u64 {
    (bb & RANK) << (4 * FILES)
        | (bb >> FILES & RANK) << (3 * FILES)
        | (bb >> (2 * FILES) & RANK) << (2 * FILES)
        | (bb >> (3 * FILES) & RANK) << FILES
        | (bb >> (4 * FILES) & RANK)
}

/// Symmetry `s` (0..4: identity, left-right, top-bottom, both) applied to a mask.
#[inline]
pub const fn apply(s: usize, bb: u64) -> u64 {
    match s {
        0 => bb,
        1 => mirror_files(bb),
        2 => mirror_ranks(bb),
        _ => mirror_ranks(mirror_files(bb)),
    }
}

/// The canonical form of a set of stones alone: the smallest of its images.
#[inline]
pub fn canonical_set(bb: u64) -> u64 {
    (1..COUNT).map(|s| apply(s, bb)).fold(bb, u64::min)
}

/// The canonical form of a position seen from the side to move: the image with the smallest
/// `us` mask, and among those the smallest `them` mask.
#[inline]
pub fn canonical(us: u64, them: u64) -> (u64, u64) {
    let mut best = (us, them);
    for s in 1..COUNT {
        let image = (apply(s, us), apply(s, them));
        if image < best {
            best = image;
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use fanorona_core::{Bitboard, Point};

    use super::*;

    #[test]
    fn symmetries_match_the_core_ones() {
        for p in Point::ALL {
            let bb = Bitboard::from_point(p).0;
            assert_eq!(mirror_files(bb), Bitboard::from_point(p).mirror_files().0, "{p}");
            assert_eq!(apply(3, bb), Bitboard::from_point(p).rotate180().0, "{p}");
            let q = Point::from_coords(p.file(), 4 - p.rank()).map(|q| Bitboard::from_point(q).0);
            assert_eq!(Some(mirror_ranks(bb)), q, "{p}");
            for s in 0..COUNT {
                assert_eq!(apply(s, apply(s, bb)), bb);
                let image = Point::try_from_index(apply(s, bb).trailing_zeros() as usize);
                assert_eq!(image.map(Point::is_strong), Some(p.is_strong()), "{p} {s}");
            }
        }
    }

    #[test]
    fn canonical_forms_are_images_and_stable() {
        let us = Bitboard::from_point(Point::H4).0 | Bitboard::from_point(Point::C2).0;
        let them = Bitboard::from_point(Point::E3).0;
        let c = canonical(us, them);
        for s in 0..COUNT {
            assert_eq!(canonical(apply(s, us), apply(s, them)), c);
        }
        assert_eq!(canonical_set(c.0), c.0);
    }
}
