//! perft: the number of turn sequences of a given length, the test of a move generator.

use crate::{Move, Position, movegen};

/// The number of sequences of exactly `depth` turns from `pos` (RULES.md, "Counting moves").
///
/// The last ply is counted without being generated or played; the others are played on the
/// two sets of stones alone (no move list, no [`Move`], no hash), in an order of their own.
///
/// ```
/// use fanorona_core::{perft, Position};
/// assert_eq!(perft(&Position::start(), 3), 724);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 { 1 } else { perft_stones(pos.us().0, pos.them().0, depth) }
}

/// perft of the position whose side to move has `us` and whose other side has `them` (`depth`
/// at least 1): the turns are played on the two sets alone, with no move list, no `Move` and
/// no hash.
fn perft_stones(us: u64, them: u64, depth: u32) -> u64 {
    if depth == 1 {
        return movegen::count_turns(us, them);
    }
    let mut n = 0;
    movegen::for_each_turn(us, them, &mut |moved, other| n += perft_stones(other, moved, depth - 1));
    n
}

/// perft split by first turn: each legal turn with the count below it.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut next = *pos;
            next.play_unchecked(m);
            (*m, perft(&next, depth - 1))
        })
        .collect()
}

/// [`perft_divide`] with the first turns shared out over `threads` threads (at least one).
pub fn perft_divide_parallel(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let threads = threads.max(1);
    if threads == 1 || depth <= 2 {
        return perft_divide(pos, depth);
    }
    let moves = pos.legal_moves();
    let next = core::sync::atomic::AtomicUsize::new(0);
    let mut counts = vec![0u64; moves.len()];
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
            let Some(m) = moves.get(i) else { break };
            let mut p = *pos;
            p.play_unchecked(m);
            done.push((i, perft(&p, depth - 1)));
        }
        done
    };
    // Threads the operating system refuses are simply not used: the calling thread works too,
    // so every first turn is counted whatever was started.
    let results: Vec<Vec<(usize, u64)>> = std::thread::scope(|s| {
        let handles: Vec<_> =
            (1..threads).map_while(|_| std::thread::Builder::new().spawn_scoped(s, work).ok()).collect();
        let mut all = vec![work()];
        all.extend(handles.into_iter().map(|h| h.join().unwrap_or_default()));
        all
    });
    for (i, n) in results.into_iter().flatten() {
        counts[i] = n;
    }
    moves.iter().copied().zip(counts).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shallow_start_counts() {
        let p = Position::start();
        assert_eq!(perft(&p, 0), 1);
        assert_eq!(perft(&p, 1), 5);
        assert_eq!(perft(&p, 2), 39);
        let d: u64 = perft_divide(&p, 3).iter().map(|(_, n)| n).sum();
        assert_eq!(d, 724);
        let par: u64 = perft_divide_parallel(&p, 4, 2).iter().map(|(_, n)| n).sum();
        assert_eq!(par, 18_026);
    }
}
