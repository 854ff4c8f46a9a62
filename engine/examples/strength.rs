//! Plays games between two player specs and prints the first player's W/D/L and score.
//!
//! `cargo run --release -p fanorona-engine --example strength -- A B [GAMES] [OPENING_PLIES] [SEED] [THREADS]`
//!
//! For tuning, a player may also be `tune:DEPTH:STRONG,MOBILITY,THREATENED,ATTACKING,CONTACT`: alpha-beta
//! to DEPTH with the handcrafted evaluator under those weights.
//!
//! `qN:SPEC` is an alpha-beta SPEC searching N turns of forced captures past its depth.
//!
//! Games come in pairs: both colours from the same opening (OPENING_PLIES uniformly random
//! turns from the start, drawn from SEED and the pair's number). Draw rules: the defaults.

use std::sync::Mutex;

use fanorona_core::Rng;
use fanorona_core::{Color, DrawRules, Game, Position};
use fanorona_engine::eval::{Handcrafted, Weights};
use fanorona_engine::players::AlphaBetaPlayer;
use fanorona_engine::spec::{AlphaBetaSpec, EvalSpec};
use fanorona_engine::{Player, PlayerSpec};

/// A spec, or a tuning player.
#[derive(Debug, Clone)]
enum Who {
    Spec(PlayerSpec),
    Tune(u32, Weights),
    Quiescence(usize, PlayerSpec),
}

impl std::fmt::Display for Who {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Who::Spec(s) => write!(f, "{s}"),
            Who::Tune(d, w) => write!(f, "tune:{d}:{w:?}"),
            Who::Quiescence(q, s) => write!(f, "q{q}:{s}"),
        }
    }
}

fn parse_who(text: &str) -> Result<Who, String> {
    if let Some((q, spec)) = text.strip_prefix('q').and_then(|rest| rest.split_once(':')) {
        let q: usize = q.parse().map_err(|e| format!("{q}: {e}"))?;
        let spec: PlayerSpec = spec.parse().map_err(|e| format!("{spec}: {e}"))?;
        return Ok(Who::Quiescence(q, spec));
    }
    if let Some(rest) = text.strip_prefix("tune:") {
        let (d, ws) = rest.split_once(':').ok_or("tune:DEPTH:W,W,W,W,W")?;
        let n: Vec<i32> =
            ws.split(',').map(|x| x.parse().map_err(|e| format!("{x}: {e}"))).collect::<Result<_, _>>()?;
        if n.len() != 5 {
            return Err("five weights".into());
        }
        let w = Weights {
            stone: 100,
            strong: n[0],
            mobility: n[1],
            threatened: n[2],
            attacking: n[3],
            contact: n[4],
        };
        return Ok(Who::Tune(d.parse().map_err(|e| format!("{d}: {e}"))?, w));
    }
    text.parse().map(Who::Spec).map_err(|e| format!("{text}: {e}"))
}

fn build(who: &Who, seed: u64) -> Box<dyn Player> {
    match who {
        Who::Spec(s) => s.build(seed).expect("player"),
        Who::Quiescence(q, PlayerSpec::AlphaBeta(a)) => {
            let mut p =
                AlphaBetaPlayer::new(a.clone(), a.eval.build().expect("eval"), seed, format!("q{q}:{a:?}"));
            p.searcher_mut().set_quiescence(*q);
            Box::new(p)
        }
        Who::Quiescence(_, s) => s.build(seed).expect("player"),
        Who::Tune(d, w) => {
            let spec = AlphaBetaSpec {
                depth: Some(*d),
                nodes: None,
                movetime: None,
                hash_mib: 16,
                threads: 1,
                eval: EvalSpec::Handcrafted,
                tb: None,
                qwidth: 0,
                noise: 0,
                book: None,
                knobs: fanorona_engine::Knobs::DEFAULT,
            };
            Box::new(AlphaBetaPlayer::new(
                spec,
                Box::new(Handcrafted::new(*w)),
                seed,
                format!("tune:{d}:{w:?}"),
            ))
        }
    }
}

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
    let a = parse_who(&args[0])?;
    let b = parse_who(&args[1])?;
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
                    let mut pa = build(a, Rng::derive(seed, 2 * i).next_u64());
                    let mut pb = build(b, Rng::derive(seed, 2 * i + 1).next_u64());
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
    let mut reasons: Vec<(String, usize)> = Vec::new();
    for x in &r {
        let name = x.2.to_string();
        match reasons.iter_mut().find(|(n, _)| *n == name) {
            Some(e) => e.1 += 1,
            None => reasons.push((name, 1)),
        }
    }
    let reasons: Vec<String> = reasons.iter().map(|(n, c)| format!("{n}: {c}")).collect();
    let avg_len = r.iter().map(|x| x.3).sum::<usize>() as f64 / r.len().max(1) as f64;
    let score = (w as f64 + d as f64 / 2.0) / r.len().max(1) as f64;
    println!(
        "{a} vs {b}: games {} opening_plies {plies} seed {seed}: +{w} ={d} -{l} score {:.1}% (avg length {avg_len:.0} turns)",
        r.len(),
        score * 100.0
    );
    println!("  endings: {}", reasons.join(", "));
    Ok(())
}
