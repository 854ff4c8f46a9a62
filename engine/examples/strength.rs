//! Plays games between two player specs and prints the first player's W/D/L and score.
//!
//! `cargo run --release -p fanorona-engine --example strength -- A B [GAMES] [OPENING_PLIES] [SEED] [THREADS]`
//!
//! Games come in pairs: both colours from the same opening (OPENING_PLIES uniformly random
//! turns from the start, drawn from SEED and the pair's number). Draw rules: the defaults.

use std::sync::Mutex;

use fanorona_core::{Color, DrawRules, Game, Position};
use fanorona_engine::{PlayerSpec, Rng};

fn opening(seed: u64, pair: u64, plies: usize) -> Game {
    // Retry until the opening leaves a game in progress.
    for attempt in 0.. {
        let mut rng = Rng::derive(seed, pair * 1000 + attempt);
        let mut g = Game::new(Position::start(), DrawRules::default());
        while g.ply() < plies && g.outcome().is_none() {
            let l = g.legal_moves();
            g.play_unchecked(&l[rng.below(l.len() as u64) as usize]);
        }
        if g.outcome().is_none() {
            return g;
        }
    }
    unreachable!()
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        return Err("usage: strength A B [GAMES] [OPENING_PLIES] [SEED] [THREADS]".into());
    }
    let a: PlayerSpec = args[0].parse().map_err(|e| format!("{}: {e}", args[0]))?;
    let b: PlayerSpec = args[1].parse().map_err(|e| format!("{}: {e}", args[1]))?;
    let num = |i: usize, d: u64| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(d);
    let games = num(2, 100);
    let plies = num(3, 4) as usize;
    let seed = num(4, 1);
    let threads = num(5, 2).max(1);
    let results = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for t in 0..threads {
            let (a, b, results) = (&a, &b, &results);
            s.spawn(move || {
                for i in (t..games).step_by(threads as usize) {
                    let mut game = opening(seed, i / 2, plies);
                    let a_color = if (i % 2 == 0) == (game.position().turn() == Color::White) {
                        game.position().turn()
                    } else {
                        game.position().turn().other()
                    };
                    let mut pa = a.build(Rng::derive(seed, 2 * i).next_u64()).expect("player A");
                    let mut pb = b.build(Rng::derive(seed, 2 * i + 1).next_u64()).expect("player B");
                    pa.new_game();
                    pb.new_game();
                    while game.outcome().is_none() {
                        let mover = game.position().turn();
                        let d = if mover == a_color { pa.choose(&game) } else { pb.choose(&game) };
                        game.play(&d.mv).expect("a player returned an illegal turn");
                    }
                    let o = game.outcome().expect("over");
                    results.lock().expect("lock").push((i, o.score(a_color), o.termination, game.ply()));
                }
            });
        }
    });
    let mut r = results.into_inner().map_err(|e| e.to_string())?;
    r.sort_by_key(|x| x.0);
    let (w, d, l) = r.iter().fold((0, 0, 0), |(w, d, l), x| match x.1 {
        s if s > 0.75 => (w + 1, d, l),
        s if s < 0.25 => (w, d, l + 1),
        _ => (w, d + 1, l),
    });
    let avg_len = r.iter().map(|x| x.3).sum::<usize>() as f64 / r.len().max(1) as f64;
    let score = (w as f64 + d as f64 / 2.0) / r.len().max(1) as f64;
    println!(
        "{a} vs {b}: games {} opening_plies {plies} seed {seed}: +{w} ={d} -{l} score {:.1}% (avg length {avg_len:.0} turns)",
        r.len(),
        score * 100.0
    );
    Ok(())
}
