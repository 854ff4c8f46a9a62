//! The network-evaluation benchmark behind `fanorona bench`.

use std::sync::Arc;
use std::time::Instant;

use fanorona_core::{MoveList, Position};
use fanorona_nn::Network;

use crate::eval::{Evaluator, NetEvaluator};

/// What [`bench_evals_per_second`] measured.
#[derive(Clone, Debug, PartialEq)]
pub struct BenchFigures {
    /// The network's architecture, as text.
    pub arch: String,
    /// Network evaluations made.
    pub evals: u64,
    /// Seconds of the tree walk with evaluations.
    pub seconds: f64,
    /// Seconds of the same walk without evaluations (move generation, make and unmake only).
    pub walk_seconds: f64,
    /// Evaluations per second counting only the evaluator's time (incremental updates plus
    /// forward pass): `evals / (seconds - walk_seconds)`.
    pub evals_per_second: f64,
    /// Evaluations per second of the whole walk (move generation included).
    pub nodes_per_second: f64,
}

/// Walks the game tree to a fixed depth from a few positions the way a search does (set_root,
/// then make / evaluate / unmake at every node, the first layer updated incrementally) until
/// at least `min_evals` evaluations are made, on the calling thread. Times the same walk
/// without the network to separate the evaluator's cost from move generation.
pub fn bench_evals_per_second(net: &Arc<Network>, min_evals: u64) -> BenchFigures {
    let roots: Vec<Position> = [
        "BBBBBBBBB/BBBBBBBBB/BWBW1BWBW/WWWWWWWWW/WWWWWWWWW w",
        "BBBBBBBBB/BB1BBBB1B/2BW1B1BW/W1WW1WWW1/WWWWW1WWW b",
        "B1B1B1B1B/1B1B1B1B1/9/W1W1W1W1W/1W1W1W1W1 w",
        "4B4/2B3B2/9/1W2W2W1/4W4 b",
    ]
    .iter()
    .filter_map(|s| s.parse().ok())
    .collect();
    let mut ev = NetEvaluator::new(Arc::clone(net), "bench")
        .unwrap_or_else(|_| NetEvaluator::float(Arc::clone(net), "bench"));
    let mut lists: Vec<MoveList> = (0..8).map(|_| MoveList::new()).collect();
    let depth = 3;
    let mut evals = 0u64;
    let mut walks = 0u64;
    let mut sink = 0i64;
    let start = Instant::now();
    while evals < min_evals.max(1) {
        for root in &roots {
            ev.set_root(root);
            evals += walk(root, depth, Some(&mut ev), &mut lists, &mut sink);
        }
        walks += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    let start = Instant::now();
    for _ in 0..walks {
        for root in &roots {
            walk(root, depth, None, &mut lists, &mut sink);
        }
    }
    let walk_seconds = start.elapsed().as_secs_f64();
    std::hint::black_box(sink);
    let eval_seconds = (seconds - walk_seconds).max(1e-9);
    BenchFigures {
        arch: net.arch().to_string(),
        evals,
        seconds,
        walk_seconds,
        evals_per_second: evals as f64 / eval_seconds,
        nodes_per_second: evals as f64 / seconds.max(1e-9),
    }
}

fn walk(
    pos: &Position,
    depth: usize,
    mut ev: Option<&mut NetEvaluator>,
    lists: &mut [MoveList],
    sink: &mut i64,
) -> u64 {
    if let Some(e) = ev.as_deref_mut() {
        // Computed every time: the walk repeats its tree, which the search's table would
        // answer from the second walk on.
        *sink += i64::from(e.score(pos));
    }
    if depth == 0 {
        return 1;
    }
    let (list, rest) = match lists.split_first_mut() {
        Some(x) => x,
        None => return 1,
    };
    list.clear();
    pos.generate_moves(list);
    let mut n = 1;
    for mv in list.iter() {
        let mut next = *pos;
        if let Some(e) = ev.as_deref_mut() {
            e.make(pos, &mv.turn());
        }
        next.play_unchecked(mv);
        n += walk(&next, depth - 1, ev.as_deref_mut(), rest, sink);
        if let Some(e) = ev.as_deref_mut() {
            e.unmake();
        }
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_nn::Architecture;

    #[test]
    fn counts_evaluations() {
        let net = Arc::new(Network::random(&Architecture::mlp(&[8]).unwrap(), 1).unwrap());
        let f = bench_evals_per_second(&net, 1);
        assert!(f.evals > 100);
        assert_eq!(f.arch, "stones:90-8-1");
        let relu = Architecture::mlp(&[8]).unwrap().with_activation(fanorona_nn::Activation::Relu);
        let f = bench_evals_per_second(&Arc::new(Network::random(&relu, 1).unwrap()), 1);
        assert_eq!(f.arch, "stones:90-8-1:relu");
        assert!(f.evals_per_second > 0.0 && f.nodes_per_second > 0.0);
    }
}
