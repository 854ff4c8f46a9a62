//! Times df-pn alone and then the settling on one position:
//! `cargo run --release -p fanorona-solve --example profile -- POS TABLES_DIR NODES MEMORY_MIB`.

use std::path::Path;
use std::time::Instant;

use fanorona_core::Position;
use fanorona_solve::{Node, Search, graph};
use fanorona_tb::Tablebase;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: profile POS TABLES_DIR NODES MEMORY_MIB";
    let pos: Position = a.first().ok_or(usage)?.parse()?;
    let tb = Tablebase::open(Path::new(a.get(1).ok_or(usage)?))?;
    let nodes: u64 = a.get(2).ok_or(usage)?.parse()?;
    let mib: u64 = a.get(3).ok_or(usage)?.parse()?;
    let root = Node::of(&pos, pos.turn());
    let mut s = Search::new(Some(&tb), mib << 20);
    let t = Instant::now();
    s.limit(nodes, None);
    let o = s.run(root);
    let d = t.elapsed().as_secs_f64();
    println!(
        "dfpn {o:?} {} nodes {:.2} s = {:.0} nodes/s; used {} stats {:?}",
        s.stats.nodes,
        d,
        s.stats.nodes as f64 / d,
        s.table.used(),
        s.stats
    );
    let t = Instant::now();
    let r = graph::settle(&mut s, root);
    println!("settle {r:?} in {:.2} s", t.elapsed().as_secs_f64());
    Ok(())
}
