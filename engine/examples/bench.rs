//! Prints the search bench: `cargo run --release -p fanorona-engine --example bench [DEPTH]`.
use fanorona_engine::bench::run_bench;
use fanorona_engine::eval::{Handcrafted, Material};

fn main() {
    let depth = std::env::args().nth(1).and_then(|d| d.parse().ok()).unwrap_or(8);
    for eval in [&Material as &dyn fanorona_engine::Evaluator, &Handcrafted::default()] {
        let r = run_bench(depth, eval);
        for l in &r.lines {
            println!(
                "{:50} {:>12} {:>7} {:>10} {:.3}s",
                l.position.to_string(),
                l.best.map(|m| m.to_string()).unwrap_or_default(),
                l.score,
                l.nodes,
                l.elapsed.as_secs_f64()
            );
        }
        println!("{} depth {}: nodes {} nps {:.0}", r.eval, depth, r.nodes, r.nodes_per_second());
    }
}
