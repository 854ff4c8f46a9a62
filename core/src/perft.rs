//! perft: the number of turn sequences of a given length, the test of a move generator.

use crate::{Move, PerftTable, Position, movegen};

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

/// [`perft`] with a transposition table: a subtree met again is counted once (the count is
/// the same, the table holds whole keys). Subtrees of depth 2 and more are stored.
///
/// ```
/// use fanorona_core::{perft, perft_hashed, PerftTable, Position};
/// let mut table = PerftTable::try_new(1).unwrap();
/// assert_eq!(perft_hashed(&Position::start(), 5, &mut table), perft(&Position::start(), 5));
/// ```
pub fn perft_hashed(pos: &Position, depth: u32, table: &mut PerftTable) -> u64 {
    if depth == 0 { 1 } else { perft_stones_hashed(pos.us().0, pos.them().0, depth, table) }
}

/// [`perft_stones`] through `table`.
fn perft_stones_hashed(us: u64, them: u64, depth: u32, table: &mut PerftTable) -> u64 {
    if depth == 1 {
        return movegen::count_turns(us, them);
    }
    if let Some(n) = table.probe(us, them, depth) {
        return n;
    }
    let mut n = 0;
    movegen::for_each_turn(us, them, &mut |moved, other| {
        n += perft_stones_hashed(other, moved, depth - 1, table);
    });
    table.store(us, them, depth, n);
    n
}

/// perft split by first turn: each legal turn with the count below it.
pub fn perft_divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    divide(pos, depth, &mut |p, d| perft(p, d))
}

/// Each legal turn with `count` of the position after it at `depth - 1`.
fn divide(pos: &Position, depth: u32, count: &mut impl FnMut(&Position, u32) -> u64) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|m| {
            let mut next = *pos;
            next.play_unchecked(m);
            (*m, count(&next, depth - 1))
        })
        .collect()
}

/// [`perft_divide`] with the first turns shared out over `threads` threads (at least one).
pub fn perft_divide_parallel(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let threads = threads.max(1);
    if threads == 1 || depth <= 2 {
        return perft_divide(pos, depth);
    }
    divide_parallel(pos, depth, vec![(); threads], |(), p, d| perft(p, d))
}

/// [`perft_divide_parallel`] with a transposition table for each thread (one thread per
/// table, at least one; see [`PerftTable::try_split`]).
///
/// ```
/// use fanorona_core::{perft_divide_hashed, PerftTable, Position};
/// let mut tables = PerftTable::try_split(2, 2).unwrap();
/// let d = perft_divide_hashed(&Position::start(), 4, &mut tables);
/// assert_eq!(d.iter().map(|(_, n)| n).sum::<u64>(), 18_026);
/// ```
pub fn perft_divide_hashed(pos: &Position, depth: u32, tables: &mut [PerftTable]) -> Vec<(Move, u64)> {
    match tables {
        [] => perft_divide(pos, depth),
        [table] => divide(pos, depth, &mut |p, d| perft_hashed(p, d, table)),
        _ if depth <= 2 => perft_divide(pos, depth),
        _ => divide_parallel(pos, depth, tables.iter_mut().collect(), |t, p, d| perft_hashed(p, d, t)),
    }
}

/// The first turns of `pos` counted to `depth - 1` by `count`, shared out over one thread per
/// state in `states` (at least one; the calling thread is one of them).
fn divide_parallel<S: Send>(
    pos: &Position,
    depth: u32,
    states: Vec<S>,
    count: impl Fn(&mut S, &Position, u32) -> u64 + Sync,
) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let next = core::sync::atomic::AtomicUsize::new(0);
    let mut counts = vec![0u64; moves.len()];
    let work = |mut state: S| {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, core::sync::atomic::Ordering::Relaxed);
            let Some(m) = moves.get(i) else { break };
            let mut p = *pos;
            p.play_unchecked(m);
            done.push((i, count(&mut state, &p, depth - 1)));
        }
        done
    };
    // Threads the operating system refuses are simply not used: the calling thread works too,
    // so every first turn is counted whatever was started.
    let mut states = states.into_iter();
    let first = states.next();
    let results: Vec<Vec<(usize, u64)>> = std::thread::scope(|s| {
        let handles: Vec<_> = states
            .map_while(|state| std::thread::Builder::new().spawn_scoped(s, || work(state)).ok())
            .collect();
        let mut all = vec![first.map(work).unwrap_or_default()];
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

    #[test]
    fn a_tiny_table_counts_the_same() {
        // One bucket: nearly every store replaces another, every probe checks the whole key.
        let mut table = PerftTable::with_bytes(64).unwrap();
        let p: Position = "B3B3B/9/2W3W2/9/W3W3W b".parse().unwrap();
        for depth in 0..=5 {
            assert_eq!(perft_hashed(&p, depth, &mut table), perft(&p, depth), "{depth}");
        }
        assert_eq!(perft_hashed(&Position::start(), 5, &mut table), 431_852);
    }
}
