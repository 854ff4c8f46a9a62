//! How often the engine without tables plays a turn that changes a table position's result:
//! `cargo run --release -p fanorona-engine --example tb_errors -- DIR STONES COUNT SPEC`, e.g.
//! `... -- tables 5 200 alphabeta:movetime=100`. Values are taken under the no-progress rule
//! (50 quiet turns, none played yet).

use std::path::PathBuf;

use fanorona_core::{Bitboard, Color, DrawRules, Game, Position};
use fanorona_engine::PlayerSpec;
use fanorona_engine::tablebase::open_shared;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let usage = "usage: tb_errors DIR STONES COUNT SPEC";
    let dir = PathBuf::from(args.next().ok_or(usage)?);
    let stones: u32 = args.next().ok_or(usage)?.parse()?;
    let count: usize = args.next().ok_or(usage)?.parse()?;
    let spec: PlayerSpec = args.next().ok_or(usage)?.parse()?;
    let tb = open_shared(&dir)?;
    let mut player = spec.build(1)?;
    let mut rng = fanorona_core::Rng::new(2026);
    let (mut positions, mut critical, mut wrong) = (0, 0, 0);
    let max_quiet = DrawRules::DEFAULT_MAX_QUIET_PLIES;
    while positions < count {
        let white_count = 1 + rng.below(u64::from(stones - 1)) as u32;
        let (mut w, mut b) = (Bitboard::EMPTY, Bitboard::EMPTY);
        while (w | b).count() < stones {
            let p = fanorona_core::Point::ALL[rng.below(45) as usize];
            if !(w | b).contains(p) {
                if w.count() < white_count { w = w.with(p) } else { b = b.with(p) }
            }
        }
        let pos = Position::from_stones(w, b, Color::White)?;
        let moves = tb.root_moves(&pos, 0, max_quiet)?;
        let Some(best) = moves.first() else { continue };
        positions += 1;
        let result = best.rule_value.wdl();
        if moves.iter().all(|m| m.rule_value.wdl() == result) {
            continue;
        }
        critical += 1;
        player.new_game();
        let chosen = player.choose(&Game::new(pos, DrawRules::default())).mv;
        let got = moves.iter().find(|m| m.mv == chosen).map(|m| m.rule_value.wdl());
        if got != Some(result) {
            wrong += 1;
        }
    }
    println!(
        "{stones} stones, {spec}: {positions} positions, {critical} where a turn changes the result, \
         {wrong} wrong-result turns ({:.1} % of those, {:.1} % of all)",
        100.0 * wrong as f64 / critical.max(1) as f64,
        100.0 * wrong as f64 / positions.max(1) as f64
    );
    Ok(())
}
