//! Playing one game between two seats under the draw rules, with clocks for engines that have
//! one, score adjudication, turning engine faults into lost games.

use std::sync::atomic::{AtomicBool, Ordering};

use fanorona_core::{Color, DrawRules, Game, Outcome, Position};
use fanorona_data::{Ending, TurnInfo};
use fanorona_tb::Tablebase;

use crate::adjudication::{Adjudication, Adjudicator};
use crate::cpu_share::CpuShare;
use crate::external::Fault;
use crate::seat::{Chosen, ClockState, Seat};

/// A finished game.
#[derive(Debug)]
pub(crate) struct Played {
    pub game: Game,
    /// The forfeit or adjudication that ended the game, when the rules did not.
    pub decision: Option<Outcome<Ending>>,
    pub info: Vec<TurnInfo>,
    /// Milliseconds each turn took.
    pub times: Vec<u64>,
    /// The side whose engine failed, with why.
    pub fault: Option<(Color, Fault)>,
    /// The timed turns of White's and Black's engine ([`Color::index`]).
    pub cpu: [CpuShare; 2],
}

/// What ends a game besides the rules of play.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Referee<'a> {
    pub rules: DrawRules,
    /// Endgame tables adjudicating the positions they cover.
    pub tb: Option<&'a Tablebase>,
    /// Score adjudication.
    pub adjudication: Adjudication,
}

/// The clocks of a game: what the seats see, plus the periods' bookkeeping.
struct Clocks {
    state: ClockState,
    base: [i64; 2],
    period: [Option<u32>; 2],
    played: [u32; 2],
}

impl Clocks {
    fn new(white: &Seat, black: &Seat) -> Clocks {
        let (cw, cb) = (white.clock(), black.clock());
        let period = [white.period(), black.period()];
        Clocks {
            state: ClockState {
                remaining: [cw.map(|c| c.base_ms as i64), cb.map(|c| c.base_ms as i64)],
                inc: [cw.map_or(0, |c| c.inc_ms), cb.map_or(0, |c| c.inc_ms)],
                moves_to_go: period,
            },
            base: [cw.map_or(0, |c| c.base_ms as i64), cb.map_or(0, |c| c.base_ms as i64)],
            period,
            played: [0; 2],
        }
    }

    /// Charges `side` for a turn of `took_ms`; the overrun in ms when its flag fell.
    fn charge(&mut self, side: Color, took_ms: i64, margin_ms: i64) -> Option<i64> {
        let i = side.index();
        let left = self.state.remaining[i].as_mut()?;
        *left -= took_ms;
        if *left < -margin_ms {
            return Some(-*left);
        }
        *left = (*left).max(0) + self.state.inc[i] as i64;
        if let Some(m) = self.period[i] {
            self.played[i] += 1;
            if self.played[i].is_multiple_of(m) {
                *left += self.base[i];
            }
            self.state.moves_to_go[i] = Some(m - self.played[i] % m);
        }
        None
    }
}

/// Plays from `start` with `white` and `black` under `referee`; `None` when `stop` was raised
/// meanwhile.
pub(crate) fn play_game(
    start: Position,
    referee: &Referee<'_>,
    white: &mut Seat,
    black: &mut Seat,
    seeds: [u64; 2],
    stop: &AtomicBool,
) -> Option<Played> {
    let mut game = Game::new(start, referee.rules);
    let mut played = Played {
        game: Game::new(start, referee.rules),
        decision: None,
        info: Vec::new(),
        times: Vec::new(),
        fault: None,
        cpu: [CpuShare::default(); 2],
    };
    let forfeit = |played: &mut Played, side: Color, f: Fault| {
        played.decision = Some(Outcome { winner: Some(side.other()), termination: f.termination });
        played.fault = Some((side, f));
    };
    // Both seats get ready; a seat that cannot start loses at once.
    for (side, seat, seed) in [(Color::White, &mut *white, seeds[0]), (Color::Black, &mut *black, seeds[1])] {
        if let Err(f) = seat.new_game(seed) {
            forfeit(&mut played, side, f);
            played.game = game;
            return Some(played);
        }
    }
    let mut clocks = Clocks::new(white, black);
    let mut adjudicator = Adjudicator::new(referee.adjudication);
    while game.outcome().is_none() {
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        if let Some(verdict) = referee.tb.and_then(|tb| tb.adjudicate(&game)) {
            played.decision = Some(Outcome { winner: verdict.winner, termination: Ending::Tablebase });
            break;
        }
        let side = game.position().turn();
        let seat = if side == Color::White { &mut *white } else { &mut *black };
        let Chosen { mv, info: turn_info, took, cpu } = match seat.choose(&game, &clocks.state) {
            Ok(t) => t,
            Err(f) => {
                forfeit(&mut played, side, f);
                break;
            }
        };
        let took_ms = took.as_millis().min(i64::MAX as u128) as i64;
        let margin = seat.margin_ms() as i64;
        let late = clocks
            .charge(side, took_ms, margin)
            .map(|over| format!("flag fell ({over} ms over)"))
            .or_else(|| {
                let st = seat.movetime_ms()? as i64;
                (took_ms > st + margin).then(|| format!("{took_ms} ms for a turn of {st} ms"))
            });
        if let Some(reason) = late {
            forfeit(&mut played, side, Fault { termination: Ending::TimeForfeit, reason });
            break;
        }
        game.play_unchecked(&mv);
        played.info.push(turn_info);
        played.times.push(took_ms as u64);
        if let Some(cpu) = cpu {
            played.cpu[side.index()].add(took, cpu);
        }
        if game.outcome().is_none()
            && let Some(o) = adjudicator.observe(side, turn_info.score, game.moves().len())
        {
            played.decision = Some(o);
            break;
        }
    }
    played.game = game;
    Some(played)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_charge_turns_add_increments_and_periods() {
        let white: Seat = Seat::new(&"alphabeta:depth=1;tc=2/1+0.1".parse().unwrap(), None).unwrap();
        let black: Seat = Seat::new(&"alphabeta:depth=1".parse().unwrap(), None).unwrap();
        let mut c = Clocks::new(&white, &black);
        assert_eq!(c.state.remaining, [Some(1_000), None]);
        assert_eq!(c.state.moves_to_go, [Some(2), None]);
        // 400 ms: 600 left plus 100.
        assert_eq!(c.charge(Color::White, 400, 0), None);
        assert_eq!((c.state.remaining[0], c.state.moves_to_go[0]), (Some(700), Some(1)));
        // The second turn of the period: the base time comes again.
        assert_eq!(c.charge(Color::White, 200, 0), None);
        assert_eq!((c.state.remaining[0], c.state.moves_to_go[0]), (Some(1_600), Some(2)));
        // Black has no clock: never charged.
        assert_eq!(c.charge(Color::Black, 1_000_000, 0), None);
        // Over by 50 ms: within a margin of 60, beyond one of 40.
        let mut d = Clocks::new(&white, &black);
        assert_eq!(d.charge(Color::White, 1_050, 60), None);
        assert_eq!(d.state.remaining[0], Some(100));
        let mut d = Clocks::new(&white, &black);
        assert_eq!(d.charge(Color::White, 1_050, 40), Some(50));
    }
}
