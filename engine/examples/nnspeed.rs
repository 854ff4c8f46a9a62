//! Times the quantised network's parts: `cargo run --release -p fanorona-engine --example nnspeed`.
use std::time::Instant;

use fanorona_core::{Color, Position};
use fanorona_engine::eval::{Evaluator, Handcrafted};
use fanorona_engine::search::MAX_PLY;
use fanorona_nn::{Architecture, LazyAccumulator, Network, QuantisedNetwork, simd::Kernel};

fn main() {
    if std::env::var("AFFINE").is_ok() {
        affine_only();
        return;
    }
    let hidden: Vec<usize> = std::env::args()
        .nth(1)
        .map(|s| s.split(',').filter_map(|x| x.parse().ok()).collect())
        .unwrap_or_else(|| vec![256, 32]);
    let net = Network::random(&Architecture::mlp(&hidden).expect("arch"), 1).expect("net");
    let pos = Position::start();
    let moves = pos.legal_moves();
    let n = 1_000_000u32;
    let only = std::env::var("KERNEL").ok();
    for kernel in Kernel::available().into_iter().filter(|k| only.as_deref().is_none_or(|o| o == k.name())) {
        let q = QuantisedNetwork::with_kernel(&net, kernel).expect("quantise");
        let mut acc = LazyAccumulator::new(&q, MAX_PLY);
        let mut s = q.scratch();
        acc.reset(&pos);
        let values = acc.values(&q, &pos, Color::White).to_vec();
        let t = Instant::now();
        let mut sink = 0i64;
        for _ in 0..n {
            sink += i64::from(q.score(std::hint::black_box(&values), 0, &mut s));
        }
        let score_ns = t.elapsed().as_nanos() as f64 / f64::from(n);
        let mv = moves[0];
        let mut next = pos;
        next.play_unchecked(&mv);
        let t = Instant::now();
        for _ in 0..n {
            acc.push(&pos, &mv.turn());
            sink += i64::from(acc.values(&q, &next, Color::Black)[0]);
            acc.pop();
        }
        let update_ns = t.elapsed().as_nanos() as f64 / f64::from(n);
        println!(
            "{:?} {hidden:?}: score {score_ns:.1} ns, push+update+pop {update_ns:.1} ns ({sink})",
            kernel
        );
    }
    let mut h = Handcrafted::default();
    let t = Instant::now();
    let mut sink = 0i64;
    for _ in 0..n {
        sink += i64::from(h.evaluate(std::hint::black_box(&pos)));
    }
    println!("handcrafted eval {:.1} ns ({sink})", t.elapsed().as_nanos() as f64 / f64::from(n));
}

#[allow(dead_code)]
fn affine_only() {
    use fanorona_nn::simd;
    for (n_in, n_out) in [(256usize, 32usize), (256, 16)] {
        let w: Vec<i8> = (0..n_in * n_out).map(|i| (i % 7) as i8 - 3).collect();
        let blocked = simd::block_weights(&w, n_in, n_out);
        let bias = vec![0i32; n_out];
        let input: Vec<u8> = (0..n_in).map(|i| if i % 3 == 0 { 0 } else { (i % 100) as u8 }).collect();
        let mut groups = vec![0u16; n_in / 4];
        for k in Kernel::available() {
            let n = simd::nonzero_groups(k, &input, &mut groups);
            let mut out = vec![0i32; n_out];
            let t = Instant::now();
            for _ in 0..1_000_000 {
                simd::affine(k, std::hint::black_box(&input), &groups[..n], &blocked, &bias, &mut out);
            }
            let a = t.elapsed().as_nanos() as f64 / 1e6;
            let t = Instant::now();
            let mut m = 0;
            for _ in 0..1_000_000 {
                m += simd::nonzero_groups(k, std::hint::black_box(&input), &mut groups);
            }
            let b = t.elapsed().as_nanos() as f64 / 1e6;
            println!("{k:?} {n_in}x{n_out}: affine {a:.1} ns, nonzero_groups {b:.1} ns ({} groups, {m})", n);
        }
    }
}
