//! The quantised network against the float one, over 10,000 positions from real games, and
//! every SIMD kernel against the portable one.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;

use fanorona_core::{DrawRules, Game, Position};
use fanorona_engine::PlayerSpec;
use fanorona_engine::eval::{Evaluator, NetEvaluator};
use fanorona_engine::search::MAX_PLY;
use fanorona_nn::simd::Kernel;
use fanorona_nn::{
    Architecture, Encoding, LazyAccumulator, MAX_THREATS, Network, QuantisedNetwork, encode, encode_as,
    threat_features, value_to_score,
};

/// Positions of games between a greedy player and a depth-1 handcrafted search, each game
/// opened by a few pseudo-random turns, until `n` positions are collected.
fn game_positions(n: usize) -> Vec<Position> {
    let mut positions = Vec::with_capacity(n);
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut game_no = 0;
    while positions.len() < n {
        game_no += 1;
        let mut white = PlayerSpec::Greedy.build(game_no).unwrap();
        let mut black =
            "alphabeta:depth=1,eval=handcrafted".parse::<PlayerSpec>().unwrap().build(game_no).unwrap();
        let mut game = Game::new(Position::start(), DrawRules::default());
        while game.outcome().is_none() && positions.len() < n {
            positions.push(*game.position());
            let mv = if game.ply() < 4 {
                let moves = game.legal_moves();
                moves[(next() % moves.len() as u64) as usize]
            } else if game.ply().is_multiple_of(2) {
                white.choose(&game).mv
            } else {
                black.choose(&game).mv
            };
            game.play(&mv).unwrap();
        }
    }
    positions
}

/// The default architecture with random weights, its output layer scaled up so that the
/// scores span several stones (as a trained network's do).
fn network(seed: u64) -> Network {
    network_of(Architecture::default(), seed)
}

/// A random network of `arch` scaled as [`network`].
fn network_of(arch: Architecture, seed: u64) -> Network {
    let random = Network::random(&arch, seed).unwrap();
    let last = random.layers().len() - 1;
    let params = random
        .layers()
        .iter()
        .enumerate()
        .map(|(k, l)| {
            let scale = if k == last { 12.0 } else { 1.0 };
            (l.weights().iter().map(|w| w * scale).collect(), l.bias().to_vec())
        })
        .collect();
    Network::from_layers(arch, params, "test").unwrap()
}

#[test]
fn quantised_scores_stay_close_to_the_float_network() {
    let positions = game_positions(10_000);
    let net = Arc::new(network(3));
    let mut q = NetEvaluator::new(Arc::clone(&net), "q").unwrap();
    assert!(q.is_quantised());
    let (mut max, mut sum, mut spread) = (0i32, 0i64, 0i32);
    for pos in &positions {
        let float = value_to_score(net.forward(&encode(pos)));
        let int = q.evaluate(pos);
        let d = (float - int).abs();
        max = max.max(d);
        sum += i64::from(d);
        spread = spread.max(float.abs());
    }
    let mean = sum as f64 / positions.len() as f64;
    // Scores reach several stones, and the integer network stays within a few centi-stones.
    assert!(spread > 300, "the test network's scores only reach {spread}");
    eprintln!(
        "quantised vs float over {} positions: max {max}, mean {mean:.2} centi-stones, scores up to {spread}",
        positions.len()
    );
    assert!(max <= 48, "largest difference {max} centi-stones");
    assert!(mean <= 8.0, "mean difference {mean:.2} centi-stones");
}

#[test]
fn output_buckets_run_in_integers_as_in_floats() {
    let positions = game_positions(10_000);
    let arch: Architecture = "256:buckets=4".parse().unwrap();
    let net = Arc::new(network_of(arch.clone(), 11));
    let mut q = NetEvaluator::new(Arc::clone(&net), "q").unwrap();
    assert!(q.is_quantised());
    let mut used = [0usize; 4];
    let mut max = 0;
    for pos in &positions {
        used[arch.bucket(pos.occupied().count() as usize)] += 1;
        max = max.max((value_to_score(net.forward(&encode(pos))) - q.evaluate(pos)).abs());
    }
    assert!(used.iter().filter(|&&n| n > 0).count() >= 3, "buckets used: {used:?}");
    assert!(max <= 48, "largest difference {max} centi-stones");
    // Each bucket's output is its own: the same position through another bucket scores
    // differently.
    let start = Position::start();
    let x = encode(&start);
    let outputs = &net.layers()[1];
    assert_eq!(outputs.outputs(), 4);
    assert_ne!(outputs.row(0)[3], outputs.row(0)[0]);
    assert!((net.forward(&x) - net.evaluate(&start)).abs() < 1e-6);
}

#[test]
fn a_trained_network_in_integers_stays_close_to_its_floats() {
    let positions = game_positions(10_000);
    let net = Arc::new(fanorona_nn::bench_network().unwrap());
    let mut q = NetEvaluator::new(Arc::clone(&net), "q").unwrap();
    let (mut max, mut sum) = (0i32, 0i64);
    for pos in &positions {
        let d = (value_to_score(net.forward(&encode_as(net.arch().encoding, pos))) - q.evaluate(pos)).abs();
        max = max.max(d);
        sum += i64::from(d);
    }
    let mean = sum as f64 / positions.len() as f64;
    eprintln!("trained network, quantised vs float: max {max}, mean {mean:.2} centi-stones");
    assert!(max <= 24 && mean <= 4.0, "max {max}, mean {mean:.2}");
}

#[test]
fn every_kernel_gives_the_same_scores_incrementally() {
    same_scores_with_every_kernel(&network(5), &game_positions(2_000));
}

#[test]
fn threat_planes_run_in_integers_as_in_floats() {
    let positions = game_positions(10_000);
    let arch = Architecture::default().with_encoding(Encoding::ThreatPlanes);
    let net = Arc::new(network_of(arch, 7));
    let mut q = NetEvaluator::new(Arc::clone(&net), "q").unwrap();
    assert!(q.is_quantised());
    let (mut max, mut sum, mut spread, mut threatened) = (0i32, 0i64, 0i32, 0usize);
    let mut ids = [0u16; MAX_THREATS];
    for pos in &positions {
        let float = value_to_score(net.forward(&encode_as(Encoding::ThreatPlanes, pos)));
        let d = (float - q.evaluate(pos)).abs();
        max = max.max(d);
        sum += i64::from(d);
        spread = spread.max(float.abs());
        threatened += usize::from(threat_features(pos, &mut ids) > 0);
        assert!((net.evaluate(pos) - net.forward(&encode_as(Encoding::ThreatPlanes, pos))).abs() < 1e-6);
    }
    let mean = sum as f64 / positions.len() as f64;
    eprintln!(
        "threat planes, quantised vs float: max {max}, mean {mean:.2} centi-stones, scores up to {spread}"
    );
    assert!(spread > 300 && threatened > 2_000, "spread {spread}, {threatened} positions with threats");
    assert!(max <= 48 && mean <= 8.0, "max {max}, mean {mean:.2}");
    same_scores_with_every_kernel(&net, &positions[..2_000]);
}

/// Every kernel gives the same scores along `positions`, pushed move by move into lazy
/// accumulators as a search would.
fn same_scores_with_every_kernel(net: &Network, positions: &[Position]) {
    let kernels = Kernel::available();
    // Say which kernels were compared with the portable one, and which this CPU lacks: with
    // none, the comparison below would be the portable kernel against itself.
    for k in [Kernel::Avx2, Kernel::Avx512] {
        if kernels.contains(&k) {
            println!("compared the {} kernel's scores with the portable one's", k.name());
        } else {
            println!("SKIPPED: {} not available on this CPU (its scores were not compared)", k.name());
        }
    }
    let nets: Vec<QuantisedNetwork> =
        kernels.iter().map(|&k| QuantisedNetwork::with_kernel(net, k).unwrap()).collect();
    let mut accs: Vec<LazyAccumulator> = nets.iter().map(|q| LazyAccumulator::new(q, MAX_PLY)).collect();
    let mut scratch: Vec<_> = nets.iter().map(QuantisedNetwork::scratch).collect();
    // Walk consecutive positions as a search would: push the move between them when there is
    // one, otherwise start again.
    let mut prev: Option<Position> = None;
    for pos in positions {
        let linked = prev.and_then(|p| {
            p.legal_moves().iter().find(|m| p.play(m).ok() == Some(*pos)).copied().map(|m| (p, m))
        });
        for acc in &mut accs {
            match linked {
                Some((p, m)) => acc.push(&p, &m.turn()),
                None => acc.reset(pos),
            }
        }
        let scores: Vec<i32> = nets
            .iter()
            .zip(&mut accs)
            .zip(&mut scratch)
            .map(|((q, acc), s)| {
                let values = acc.values(q, pos, pos.turn()).to_vec();
                q.score_position(&values, pos, s)
            })
            .collect();
        assert!(scores.iter().all(|&s| s == scores[0]), "{kernels:?}: {scores:?} at {pos}");
        prev = Some(*pos);
    }
}
