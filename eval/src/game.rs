//! Playing one game between two seats under the draw rules, with clocks for engines that have
//! one, turning engine faults into lost games.

use std::sync::atomic::{AtomicBool, Ordering};

use fanorona_core::{Color, DrawRules, Game, Outcome, Position};
use fanorona_data::TurnInfo;
use fanorona_tb::Tablebase;

use crate::external::Fault;
use crate::seat::{ClockState, Seat};

/// A finished game.
#[derive(Debug)]
pub(crate) struct Played {
    pub game: Game,
    pub info: Vec<TurnInfo>,
    /// The side whose engine failed, with why.
    pub fault: Option<(Color, Fault)>,
}

/// Plays from `start` with `white` and `black`, adjudicated by `tb` when given; `None` when
/// `stop` was raised meanwhile.
pub(crate) fn play_game(
    start: Position,
    rules: DrawRules,
    tb: Option<&Tablebase>,
    white: &mut Seat,
    black: &mut Seat,
    seeds: [u64; 2],
    stop: &AtomicBool,
) -> Option<Played> {
    let mut game = Game::new(start, rules);
    let mut info = Vec::new();
    let forfeit = |game: &mut Game, side: Color, f: Fault| {
        game.set_outcome(Outcome { winner: Some(side.other()), termination: f.termination });
        Some((side, f))
    };
    // Both seats get ready; a seat that cannot start loses at once.
    for (side, seat, seed) in [(Color::White, &mut *white, seeds[0]), (Color::Black, &mut *black, seeds[1])] {
        if let Err(f) = seat.new_game(seed) {
            let fault = forfeit(&mut game, side, f);
            return Some(Played { game, info, fault });
        }
    }
    let clocks_of = |s: &Seat| s.clock();
    let (cw, cb) = (clocks_of(white), clocks_of(black));
    let mut clocks = ClockState {
        remaining: [cw.map(|c| c.base_ms as i64), cb.map(|c| c.base_ms as i64)],
        inc: [cw.map_or(0, |c| c.inc_ms), cb.map_or(0, |c| c.inc_ms)],
    };
    let mut fault = None;
    while game.outcome().is_none() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(outcome) = tb.and_then(|tb| tb.adjudicate(&game)) {
            game.set_outcome(outcome);
            break;
        }
        let side = game.position().turn();
        let seat = if side == Color::White { &mut *white } else { &mut *black };
        match seat.choose(&game, &clocks) {
            Ok((mv, turn_info, took)) => {
                if let Some(left) = clocks.remaining[side.index()].as_mut() {
                    *left -= took.as_millis() as i64;
                    let margin = match seat {
                        Seat::External { spec, .. } => spec.margin_ms as i64,
                        Seat::Player { .. } => 0,
                    };
                    if *left < -margin {
                        let f = Fault {
                            termination: fanorona_core::Termination::TimeForfeit,
                            reason: format!("flag fell ({} ms over)", -*left),
                        };
                        fault = forfeit(&mut game, side, f);
                        break;
                    }
                    *left = (*left).max(0) + clocks.inc[side.index()] as i64;
                }
                game.play_unchecked(&mv);
                info.push(turn_info);
            }
            Err(f) => {
                fault = forfeit(&mut game, side, f);
                break;
            }
        }
    }
    Some(Played { game, info, fault })
}
