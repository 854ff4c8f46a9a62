//! Action indices: one fixed number for each step of a turn, for policy targets (the `action`
//! of the sample exports) and game environments (the Python package's `fanorona.Game.step`).
//!
//! A turn is one stone's steps (RULES.md, "A turn"): a single step, or a capture chain that
//! the player may stop after any capture. A step is an action of its own, numbered as the side
//! to move sees the board (as the network's input encoding: turned 180 degrees when Black is to
//! move): `action = (square * 8 + direction) * 3 + kind`, where `square` is the origin's index
//! in that view (0 = a1 ... 44 = i5 for White), `direction` 0..8 clockwise from north in that
//! view, and `kind` 0 paika, 1 approach, 2 withdrawal: [`STEP_ACTIONS`] = 1080 numbers, most of
//! them never legal (a diagonal from a weak point, a step off the board). [`STOP`] = 1080 ends
//! a capture chain that could go on. A turn is the actions of its steps, then [`STOP`] when a
//! longer chain was legal ([`turn_actions`]); a policy's target in a position is the first one
//! ([`first_action`]).
//!
//! Why steps rather than an index into the list of legal turns: a step's number means the same
//! in every position (a policy head of 1081 outputs, as AlphaZero numbers chess moves by origin
//! and move type), every turn is reachable however many there are (a constructed position can
//! have thousands), and the masks are small; the price is that a capture chain takes several
//! decisions of the same player.

use fanorona_core::{CaptureKind, Color, Direction, Move, Point, Position, Step, neighbor};

use crate::{MoveCode, step_from_code};

/// Step actions: 45 origins x 8 directions x 3 kinds.
pub const STEP_ACTIONS: usize = Point::NUM * 8 * 3;
/// The action that ends a capture chain that could go on.
pub const STOP: u16 = STEP_ACTIONS as u16;
/// Every action: the steps and [`STOP`].
pub const ACTIONS: usize = STEP_ACTIONS + 1;

/// The point `p` and direction `d` as `mover` sees them (Black's view turned 180 degrees).
#[inline]
fn view(mover: Color, p: Point, d: Direction) -> (usize, usize) {
    match mover {
        Color::White => (p.index(), d.index()),
        Color::Black => (Point::NUM - 1 - p.index(), d.opposite().index()),
    }
}

/// The action of `step` from `from` by `mover`.
#[inline]
pub fn step_action(mover: Color, from: Point, step: Step) -> u16 {
    let (square, direction) = view(mover, from, step.direction());
    ((square * 8 + direction) * 3 + step.kind() as usize) as u16
}

/// The origin and step of a step action of `mover`; `None` for [`STOP`] and numbers past it.
pub fn action_step(mover: Color, action: u16) -> Option<(Point, Step)> {
    let a = usize::from(action);
    if a >= STEP_ACTIONS {
        return None;
    }
    let kind = match a % 3 {
        0 => CaptureKind::Paika,
        1 => CaptureKind::Approach,
        _ => CaptureKind::Withdrawal,
    };
    // The view is its own inverse: turning twice gives the board back.
    let square = Point::try_from_index(a / 24)?;
    let (p, d) = view(mover, square, Direction::from_index(a / 3 % 8));
    Some((Point::try_from_index(p)?, Step::new(Direction::from_index(d), kind)))
}

/// The action of the same step in the position mirrored left-right (files a..i swapped);
/// [`STOP`] stays.
pub fn mirror_action(action: u16) -> u16 {
    match action_step(Color::White, action) {
        Some((p, s)) => {
            step_action(Color::White, p.mirror_files(), Step::new(s.direction().mirror_files(), s.kind()))
        }
        None => action,
    }
}

/// The first step's action of the recorded turn `code` of `mover` (a code always has a
/// step; [`STOP`] if it had none).
pub fn first_action(mover: Color, code: &MoveCode) -> u16 {
    match code.step_codes().first().copied().and_then(step_from_code) {
        Some(step) => step_action(mover, code.from(), step),
        None => STOP,
    }
}

/// The actions of turn `m` (legal in `pos`): one per step, then [`STOP`] when a longer chain of
/// the same steps was legal (the player chose to stop).
pub fn turn_actions(pos: &Position, m: &Move) -> Vec<u16> {
    let mover = pos.turn();
    let mut out = Vec::with_capacity(m.steps().len() + 1);
    let mut at = m.from();
    for s in m.steps() {
        out.push(step_action(mover, at, *s));
        at = neighbor(at, s.direction()).unwrap_or(at);
    }
    let n = m.steps().len();
    let longer = pos
        .legal_moves()
        .iter()
        .any(|l| l.from() == m.from() && l.steps().len() > n && l.steps().starts_with(m.steps()));
    if longer {
        out.push(STOP);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_step_action_decodes_to_itself_for_both_sides() {
        for mover in Color::ALL {
            for a in 0..STEP_ACTIONS as u16 {
                let (p, s) = action_step(mover, a).expect("a step");
                assert_eq!(step_action(mover, p, s), a);
                assert_eq!(mirror_action(mirror_action(a)), a);
            }
            assert_eq!(action_step(mover, STOP), None);
            assert_eq!(action_step(mover, u16::MAX), None);
        }
    }

    #[test]
    fn the_start_positions_turns_are_seen_alike_by_both_sides() {
        let start = Position::start();
        let d3e3 = start.parse_move("d3e3+").expect("legal");
        // d3 is square 21 for White, east is direction 2, approach is kind 1.
        assert_eq!(turn_actions(&start, &d3e3), [(21 * 8 + 2) * 3 + 1]);
        // Black to move in the turned start sees the same board: f3 turned is d3, west is east.
        let black = start.rotate180_swap();
        let f3d3 = black.parse_move("f3e3+").expect("legal");
        assert_eq!(turn_actions(&black, &f3d3), [(21 * 8 + 2) * 3 + 1]);
        assert_eq!(first_action(Color::White, &MoveCode::from_move(&d3e3)), (21 * 8 + 2) * 3 + 1);
        // Mirrored, d3 is f3 (square 23) and east is west (6).
        assert_eq!(mirror_action((21 * 8 + 2) * 3 + 1), (23 * 8 + 6) * 3 + 1);
    }

    #[test]
    fn chains_stopped_early_end_with_stop_and_no_two_turns_share_their_actions() {
        let start = Position::start();
        let mut positions = vec![start];
        positions.extend(start.legal_moves().iter().map(|m| start.play(m).expect("legal")));
        let (mut stopped, mut longest) = (0, 0);
        for pos in positions {
            let all: Vec<Vec<u16>> = pos.legal_moves().iter().map(|m| turn_actions(&pos, m)).collect();
            stopped += all.iter().filter(|a| a.last() == Some(&STOP)).count();
            longest = longest.max(all.iter().map(Vec::len).max().unwrap_or(0));
            let distinct: std::collections::HashSet<_> = all.iter().collect();
            assert_eq!(distinct.len(), all.len(), "{pos}");
            // Every action decodes to the step it came from.
            for (m, actions) in pos.legal_moves().iter().zip(&all) {
                let (from, step) = action_step(pos.turn(), actions[0]).expect("a step");
                assert_eq!((from, step), (m.from(), m.steps()[0]));
            }
        }
        assert!(stopped >= 1 && longest >= 3, "{stopped} {longest}");
    }
}
