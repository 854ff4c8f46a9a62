//! Solves a file of positions and prints one line each, then the totals: `cargo run --release
//! -p fanorona-solve --example batch -- POSITIONS TABLES_DIR [NODES] [MEMORY_MIB] [unit|material]`.

use std::path::Path;
use std::time::Instant;

use fanorona_core::Position;
use fanorona_solve::{Init, SolveOptions, check, solve};
use fanorona_tb::Tablebase;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: batch POSITIONS TABLES_DIR [NODES] [MEMORY_MIB] [unit|material]";
    let text = std::fs::read_to_string(args.first().ok_or(usage)?)?;
    let tb = Tablebase::open(Path::new(args.get(1).ok_or(usage)?))?;
    let nodes: u64 = args.get(2).map_or(Ok(1_000_000), |s| s.parse())?;
    let memory: u64 = args.get(3).map_or(Ok(256), |s| s.parse())?;
    let init = if args.get(4).is_some_and(|s| s == "unit") { Init::Unit } else { Init::Material };
    let store_dependent = std::env::var("STORE_DEPENDENT").is_ok();
    let opts = SolveOptions { memory: memory << 20, nodes, init, store_dependent, ..SolveOptions::default() };
    let (mut solved, mut total, mut all_nodes, start) = (0, 0, 0u64, Instant::now());
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let pos: Position = line.parse()?;
        let t = Instant::now();
        let s = solve(&pos, Some(&tb), &opts, &mut |_| {})?;
        let n: u64 = s.questions.iter().map(|q| q.stats.nodes).sum();
        let cert: usize = s.questions.iter().map(|q| q.certificate_nodes).sum();
        let checked = match s.value {
            Some(_) => format!("{:?}", check::check(&s.proof, Some(&tb)).map(|r| r.0)),
            None => "-".into(),
        };
        println!(
            "{:2} stones {:>8} nodes {:>7.2} s cert {:>7} value {:?} check {checked} | {line}",
            pos.occupied().count(),
            n,
            t.elapsed().as_secs_f64(),
            cert,
            s.value,
        );
        total += 1;
        all_nodes += n;
        solved += usize::from(s.value.is_some());
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "solved {solved}/{total}, {all_nodes} nodes in {secs:.1} s ({:.0} nodes/s)",
        all_nodes as f64 / secs
    );
    Ok(())
}
